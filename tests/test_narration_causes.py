"""Causes told and lasting marks (play/causes.py, play/marks.py, play/recap.py): an event worded
by what set it off, marks drawn only from what the viewer may see, and a recap from the seat's
own narration."""
from __future__ import annotations

import random

import pytest

from interpreter.engine.game import Game
from interpreter.errors import ContentError
from interpreter.play.narration import Narrator
from interpreter.play.recap import Recap, ends_turn
from interpreter.play.render import Renderer

CAUSES = """
game: {name: causes, players: {min: 2, max: 2}}
cards:
  chip: {per_player: true, copies: 2, start: hand, props: {value: 3}}
  big: {per_player: true, start: hand, props: {value: 9}}
zones:
  hand: {per_player: true, visibility: owner}
  table: {visibility: public}
events:
  ping: [x]
procedures:
  relay:
    params: [n, x]
    effect: emit ping(x + n)
  other:
    params: []
    effect: pass
actions:
  direct: {effect: "emit ping(1)"}
  relayed: {effect: "do relay(10, 2)"}
  after_other: {effect: "do other()\\nemit ping(5)"}
  lay:
    params: {c: me.hand.cards}
    effect: move c to table
flow:
  turn: {steps: [{name: play}]}
render:
  narrate:
    ping:
      because:
        relay: "ping {x}, relayed with {n}"
      text: "ping {x}"
  marks:
    - player: "p.hand.count > 0 and first(p.hand.cards).value > 5"
      symbol: "BIG"
      legend: "BIG: a big card on top of the hand"
"""


@pytest.fixture
def causes(make_game):
    return make_game(CAUSES)


def told(game, action, *, viewer=0):
    st = game.new_game(seed=1)
    step = game.apply_in_place(st, action)
    return Narrator(game, Renderer(game), viewer=viewer).events(st, step.events, game.current_player(st),
                                                                causes=step.causes)


def test_an_event_is_worded_by_its_cause_with_the_causes_parameters(causes):
    # `relay(n, x)` emits ping(x + n): the cause's `x` is the event's (12), its `n` is bound too
    assert told(causes, "relayed") == ["ping 12, relayed with 10"]


def test_an_event_without_a_listed_cause_is_told_by_its_text(causes):
    assert told(causes, "direct") == ["ping 1"]
    assert told(causes, "after_other") == ["ping 5"]  # an earlier event not listed is no cause


def test_without_a_text_an_event_whose_cause_is_not_found_is_not_told(make_game):
    game = make_game(CAUSES.replace('      text: "ping {x}"\n', ""))
    assert told(game, "direct") == []
    assert told(game, "relayed") == ["ping 12, relayed with 10"]


def test_an_unknown_cause_is_a_content_error_with_its_place(write_game):
    folder = write_game(CAUSES.replace("        relay: ", "        rely: "))
    with pytest.raises(ContentError) as e:
        Renderer(Game.load(str(folder)))
    assert "no event or procedure `rely` to be a cause" in str(e.value) and "game.yaml:" in str(e.value)


def test_a_mark_reading_a_card_the_viewer_cannot_see_is_not_drawn(causes):
    """The seat's hand is its own: a mark drawn from its top card would tell the others what it is."""
    st = causes.new_game(seed=1)
    r = Renderer(causes)
    hand = causes.catalog.player_zones["hand"][1]
    big = next(causes.catalog.cards[c] for c in st["z"][hand.id] if causes.catalog.cards[c].name == "big")
    causes.move_card(st, big, causes.catalog.zone_by_name["table"])
    causes.move_card(st, big, hand, top=True)  # the big card on top of p2's hand
    assert causes.catalog.cards[st["z"][hand.id][0]] is big
    line = lambda viewer: next(x for x in r.screen(st, viewer).splitlines() if "p2" in x and "(" not in x[:2])
    assert "BIG" in line(1)  # p2 sees it
    assert "BIG" not in line(0)  # p1 does not
    assert "BIG" in line(None)  # nor would a spectator who sees everything be kept from it
    assert "BIG: a big card on top of the hand" in r.legend(st, 0)


def played(game, seed: int, *, until) -> dict:
    """A state after random moves (random.Random(seed) over the legal actions) from game `seed`:
    the first for which until(state, moves so far) holds."""
    st, rng, moves = game.new_game(seed=seed), random.Random(seed), 0
    while not until(st, moves):
        game.apply_in_place(st, rng.choice(game.legal_actions(st)))
        moves += 1
    return st


def test_a_card_arriving_on_a_targeted_cell_is_told_with_its_cause():
    """Dark Agent §5.2, seed 2: Dan's Maître de paix turns the Earth; three cards arrive on cells he
    targeted, the Média among them (the pty test shows it on screen)."""
    g = Game.load("dark-agent")
    st = played(g, 2, until=lambda st, moves: moves == 33)
    step = g.apply_in_place(st, "canada")
    for viewer in (3, 0):  # the theatre's face-up cards: every seat is told
        lines = Narrator(g, Renderer(g), viewer=viewer).events(st, step.events, 3, causes=step.causes)
        assert any(line.startswith("MEDIA arrives on r") and "which Dan targeted: it activates (§5.2)" in line
                   for line in lines), lines


def test_the_recap_is_the_seats_own_narration_and_skips_its_own_moves():
    """Agents Secrets: a vote is secret; the recap of another seat reads `vote against: a secret choice`."""
    g = Game.load("agents-secrets")
    st = played(g, 2, until=lambda st, moves: g.step_name(st) == "vote")
    p = g.current_player(st)
    other = (p + 1) % g.num_players
    recap = Recap(g, Renderer(g), [p, other])
    action, label = g.legal_actions_with_labels(st)[1]
    recap.before(st, p, label, action)
    step = g.apply_in_place(st, action)
    recap.after(st, player=p, events=step.events, causes=step.causes)
    assert recap.take(p) == []  # nothing by the others since p decided
    lines = recap.take(other)
    assert lines[0] == "── since your last decision ──"
    assert any("vote against: a secret choice" in line for line in lines) and not any(label in line for line in lines)
    assert recap.take(other) == []  # told once


def test_a_move_that_ends_the_turn_is_told_from_one_that_does_not():
    g = Game.load("tic-tac-toe")
    st = g.new_game(seed=1)
    assert ends_turn(g, st, g.current_player(st), g.legal_actions(st)[0])  # a mark, and the turn is O's
    g = Game.load("dark-agent")
    st = played(g, 5, until=lambda st, moves: any(a.name == "target" for a in g.legal_actions(st)))
    p = g.current_player(st)
    target = next(a for a in g.legal_actions(st) if a.name == "target")
    assert not ends_turn(g, st, p, target)
    assert ends_turn(g, st, p, "end_turn")
