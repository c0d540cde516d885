"""Causes recorded by the engine (Step.causes) and told by narration (play/causes.py): an event is
worded by what really set it off, the event or procedure whose handler or body emitted it, or the
flow's hook, never by the closest earlier event of a listed name (the old guess, wrong for each
decision below)."""
from __future__ import annotations

import re

import pytest

from interpreter.play.narration import Narrator
from interpreter.play.render import Renderer

GAME = """
game: {name: recorded-causes, players: {min: 2, max: 2}}
cards:
  chip: {per_player: true, copies: 2, start: hand}
zones:
  hand: {per_player: true, visibility: owner}
  table: {visibility: public}
events:
  ping: [x]
  pong: [x]
procedures:
  relay:
    params: [n]
    effect: emit ping(n)
  hop:                        # not told: a ping it emits is told by what set the hop off
    params: [n]
    effect: emit ping(n)
  pick:                       # may wait for a choice (one option: chosen at once), so runs in continuations
    params: [n]
    effect: |
      choose c from [n] prompt "pick"
      emit ping(c)
triggers:
  - rule: "on pong: do relay(x)\\ndo hop(x * 100)"
actions:
  relay_then_direct: {effect: "do relay(1)\\nemit ping(2)"}
  pick_then_direct: {effect: "do pick(3)\\nemit ping(4)"}
  pong: {effect: "emit pong(6)"}
  finish: {effect: "finish turn"}
flow:
  turn:
    steps: [{name: play}]
    end: emit ping(7)
render:
  narrate:
    ping:
      because:
        relay: "ping {x}, relayed"
        pick: "ping {x}, picked"
        pong: "ping {x}, answering a pong"
        turn_end: "ping {x}, as {player.name}'s turn ends"
      text: "ping {x}"
"""


@pytest.fixture
def game(make_game):
    return make_game(GAME)


def told(game, action):
    st = game.new_game(seed=1)
    step = game.apply_in_place(st, action)
    narrator = Narrator(game, Renderer(game), viewer=0)
    return narrator.events(st, step.events, 0, causes=step.causes), step


def test_an_event_after_a_procedure_is_not_caused_by_it(game):
    lines, step = told(game, "relay_then_direct")
    assert [name for name, _ in step.events] == ["relay", "ping", "ping"]
    assert step.causes == [None, 0, None]
    assert lines == ["ping 1, relayed", "ping 2"]  # the old guess told "ping 2, relayed"


def test_a_call_that_may_wait_gives_its_caller_back_its_own_cause(game):
    """A procedure run in continuations (it may ask a choice): what its caller emits after it
    returns is the caller's, not the procedure's (linker.ret puts the cause back)."""
    lines, step = told(game, "pick_then_direct")
    assert step.causes == [None, 0, None]
    assert lines == ["ping 3, picked", "ping 4"]


def test_an_event_is_told_by_its_closest_listed_cause_up_the_chain(game):
    """pong's trigger relays a ping, then hops one: the hop is not listed, so the second ping is
    told by what set the hop off (pong), not by the relay that came just before it."""
    lines, step = told(game, "pong")
    assert [name for name, _ in step.events] == ["pong", "relay", "ping", "hop", "ping"]
    assert step.causes == [None, 0, 1, 0, 3]
    assert lines == ["ping 6, relayed", "ping 600, answering a pong"]


def test_an_event_emitted_by_a_flow_hook_has_the_hook_for_cause(game):
    """The turn's end emits ping: no earlier event set it off (the old guess told "ping 7")."""
    st = game.new_game(seed=1)
    step = game.apply_in_place(st, "finish")
    assert step.events == [("ping", [7])]
    assert step.causes == [("turn_end", [game.catalog.seats[0]])]
    lines = Narrator(game, Renderer(game), viewer=1).events(st, step.events, 0, causes=step.causes)
    assert lines == [f"ping 7, as {game.catalog.seats[0].name}'s turn ends"]


def test_without_recorded_causes_every_event_is_told_by_its_text(game):
    st = game.new_game(seed=1)
    step = game.apply_in_place(st, "relay_then_direct")
    assert Narrator(game, Renderer(game), viewer=0).events(st, step.events, 0) == ["ping 1", "ping 2"]



def test_dark_agent_tells_the_couverture_token_and_an_equipment_taken_into_the_reserve():
    """§9 Couverture and §5.1: targeting them used to be told by the move alone ("target COUV in
    r3c1"); the table is now told who takes the double-agent token and which equipment joins whose
    reserve."""
    import random

    from interpreter.engine.game import Game, clone
    g = Game.load("dark-agent")
    st, rng = g.new_game(seed=6), random.Random(6)
    told = {}
    for _ in range(400):
        for a in g.legal_actions(st):
            if a.name != "target":
                continue
            after = clone(st)
            p = g.current_player(st)
            step = g.apply_in_place(after, a)
            for line in Narrator(g, Renderer(g), viewer=p).events(after, step.events, p, causes=step.causes):
                if line.startswith("§9 Couverture: ") or " equipment reserve" in line:
                    told.setdefault("token" if line.startswith("§9") else "reserve", (line, g.seats[p].name))
        if len(told) == 2 or g.is_terminal(st):
            break
        g.apply_in_place(st, rng.choice(g.legal_actions(st)))
    assert set(told) == {"token", "reserve"}, f"not told in 400 decisions: {told}"
    (couverture, who), (equipment, whose) = told["token"], told["reserve"]
    assert couverture == f"§9 Couverture: {who} takes the double-agent token"
    assert re.fullmatch(rf"§5\.1 \S+ joins {whose}'s equipment reserve", equipment), equipment
