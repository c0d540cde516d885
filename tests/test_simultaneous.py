"""Simultaneous secret choices (flow.turn.steps[i].simultaneous, issue 10 item 7): every seat of a
set chooses in secret, the choices are revealed together. The forward model asks the seats one
after the other; nothing a seat chose is known to the others (observation, legal actions, labels,
samples, agents) until the reveal."""
from __future__ import annotations

import random

import pytest

from interpreter.agents import make_agent, make_decision
from interpreter.engine.game import Game, clone, to_json
from interpreter.engine.simultaneous import Simultaneous
from interpreter.errors import InterpretError

DUEL = """\
game: {name: duel, players: {min: 2, max: 3, default: 3}}
vars:
  game: {reveals: 0}
  player: {picked: 0, points: 0}
cards: {chip: {copies: 3, per_player: true, start: hand}}
zones: {hand: {per_player: true, visibility: owner}, table: {visibility: public}}
flow:
  round:
    order: "[first(players)]"
    end: "if round >= 2 then finish game end"
  turn:
    steps:
      - name: pick
        simultaneous:
          seats: players
          reveal: |
            reveals += 1
            log "revealed: {[p.picked for p in players]}"
actions:
  pick:
    step: pick
    params:
      n: "[1, 2, 3]"
      c: me.hand.cards
    label: "pick {n} with {c}"
    effect: |
      move c to table
      me.picked = n
      me.points += n
      if n == 3 then
        choose x from [10, 20] by me prompt "bonus"
        me.points += x
      end
scoring:
  score: me.points
"""


@pytest.fixture
def duel(make_game) -> Game:
    return make_game(DUEL)


def test_every_seat_chooses_in_turn_and_the_choices_are_done_together(duel):
    g = duel
    st = g.new_game(seed=1)
    assert [g.current_player(st)] == [0]
    g.apply_in_place(st, "pick 1 chip#1.p1")
    assert g.current_player(st) == 1
    g.apply_in_place(st, "pick 3 chip#1.p2")
    # nothing is done before every seat has chosen
    assert g.evaluate(st, "[p.points for p in players]") == [0, 0, 0]
    assert g.evaluate(st, "table.count") == 0 and g.evaluate(st, "reveals") == 0
    assert g.current_player(st) == 2
    step = g.apply_in_place(st, "pick 2 chip#2.p3")
    # the reveal: p1's pick is done, p2's waits for its bonus choice (the reveal resumes after it)
    assert g.evaluate(st, "[p.points for p in players]") == [1, 3, 0]
    assert g.current_player(st) == 1 and g.legal_actions(st)[0].name == "choose"
    g.apply_in_place(st, "choose 20")
    assert g.evaluate(st, "[p.points for p in players]") == [1, 23, 2]
    assert g.evaluate(st, "reveals") == 1 and g.evaluate(st, "table.count") == 3
    # the next round's choices: nobody has chosen yet
    assert st["flow"]["sim"]["chosen"] == [] and g.current_player(st) == 0 and g.evaluate(st, "round") == 2
    assert step.player == 2


def test_a_choice_is_checked_when_it_is_made(duel):
    g = duel
    st = g.new_game(seed=1)
    assert "chip#1.p1" in g.explain(st, "pick 1 chip#1.p2")  # another seat's chip: not a possible c
    assert g.explain(st, "pick 4 chip#1.p1") is not None
    assert "p1's decision, not p2's" in g.explain(st, "pick 1 chip#1.p1", seat=1)


def _two_states(g, first: str, second: str):
    a, b = g.new_game(seed=3), g.new_game(seed=3)
    g.apply_in_place(a, first)
    g.apply_in_place(b, second)
    return a, b


def test_another_seats_choice_is_not_in_what_a_seat_gets(duel):
    """p1 chose differently in the two states: p2 sees the same observation, the same legal
    actions with the same labels, draws the same sample, and its agents play the same."""
    g = duel
    a, b = _two_states(g, "pick 1 chip#1.p1", "pick 3 chip#3.p1")
    assert g.current_player(a) == g.current_player(b) == 1
    for seat in (1, 2, None):
        assert g.observe(a, seat) == g.observe(b, seat)
    assert g.observe(a, 1)["flow"]["simultaneous"] == {"chosen": ["p1"], "waiting": ["p2", "p3"]}
    assert g.legal_actions_with_labels(a) == g.legal_actions_with_labels(b)
    for seed in range(5):
        sa, sb = g.determinize(a, 1, random.Random(seed)), g.determinize(b, 1, random.Random(seed))
        assert to_json(sa) == to_json(sb)
    # the sample holds a choice for p1, drawn among its legal ones, and plays on to the reveal
    samples = {tuple(g.determinize(a, 1, random.Random(s))["flow"]["sim"]["chosen"][0][2][0:1]) for s in range(20)}
    assert len(samples) > 1
    for spec in ("random", "greedy:2", "mcts:16", "ismcts:16"):
        acts = [make_agent(spec, 7).act(make_decision(g, st, keep=False)) for st in (a, b)]
        assert acts[0] == acts[1], spec


def test_a_seat_sees_its_own_choice(duel):
    g = duel
    a, b = _two_states(g, "pick 1 chip#1.p1", "pick 3 chip#3.p1")
    assert g.observe(a, 0)["flow"]["simultaneous"]["mine"] == "pick 1 chip#1.p1"
    assert g.observe(a, 0) != g.observe(b, 0)  # the positive control: its own choice differs
    # and its own sample keeps it
    assert g.determinize(a, 0, random.Random(1))["flow"]["sim"]["chosen"] == a["flow"]["sim"]["chosen"]


def test_the_check_would_catch_a_sample_that_keeps_the_true_choices(duel, monkeypatch):
    """The test can fail: without drawing the others' choices again, the samples differ."""
    g = duel
    monkeypatch.setattr(Simultaneous, "redraw", lambda self, st, seat, rng: None)
    a, b = _two_states(g, "pick 1 chip#1.p1", "pick 3 chip#3.p1")
    assert to_json(g.determinize(a, 1, random.Random(0))) != to_json(g.determinize(b, 1, random.Random(0)))


def test_a_sample_plays_on_like_the_game(duel):
    g = duel
    st = g.new_game(seed=5)
    rng = random.Random(5)
    while not g.is_terminal(st):
        seat = g.current_player(st)
        sample = g.determinize(st, seat, random.Random(rng.randrange(99)))
        assert g.current_player(sample) == seat
        assert g.legal_actions(sample) == g.legal_actions(st)
        probe = clone(sample)
        while not g.is_terminal(probe):  # a sample is a playable state
            g.apply_in_place(probe, rng.choice(g.legal_actions(probe)))
        g.apply_in_place(st, rng.choice(g.legal_actions(st)))


def test_seats_that_are_not_players_are_a_rule_error(make_game):
    g = make_game(DUEL.replace("seats: players", "seats: first(players)"))
    with pytest.raises(InterpretError, match="seats of simultaneous step `pick` must be a list of players"):
        g.new_game(seed=1)


def test_a_misspelt_key_is_a_content_error(write_game):
    from interpreter.errors import ContentError
    folder = write_game(DUEL.replace("seats: players", "seat: players"))
    with pytest.raises(ContentError) as e:
        Game.load(str(folder))
    assert "game.yaml" in str(e.value)


# ---- Agents Secrets: the two secret choices of a turn and the vote ------------------------------

def _pending_choice_states(players=4):
    g = Game.load("agents-secrets", players=players)
    st = g.new_game(seed=11)
    card = g.legal_actions(st)[0].args[0]
    return g, g.apply(st, f"play {card} 1"), g.apply(st, f"play {card} 4")


def test_agents_secrets_destinations_stay_secret_until_the_reveal():
    g, a, b = _pending_choice_states()
    assert g.current_player(a) == 1
    for seat in (1, 2, 3, None):
        assert g.observe(a, seat) == g.observe(b, seat)
    assert g.legal_actions_with_labels(a) == g.legal_actions_with_labels(b)
    assert to_json(g.determinize(a, 2, random.Random(4))) == to_json(g.determinize(b, 2, random.Random(4)))
    assert g.observe(a, 0) != g.observe(b, 0)
    # once the others have chosen, everything is revealed at once
    for st in (a, b):
        while g.evaluate(st, "first(players).at") == 0:
            g.apply_in_place(st, g.legal_actions(st)[0])
    assert g.evaluate(a, "first(players).at") == 1 and g.evaluate(b, "first(players).at") == 4


def test_agents_secrets_vote_is_secret_and_counted_together():
    g = Game.load("agents-secrets", players=4)
    st = g.new_game(seed=2)
    rng = random.Random(1)
    while g.step_name(st) != "vote":
        g.apply_in_place(st, rng.choice(g.legal_actions(st)))
    assert [a.args for a in g.legal_actions(st)] == [("p1",), ("p2",), ("none",)]
    a, b = g.apply(st, "vote p1"), g.apply(st, "vote p2")
    assert g.observe(a, 1) == g.observe(b, 1)
    assert g.evaluate(a, "sum(p.votes for p in players)") == 0
