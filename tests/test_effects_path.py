"""Procedures and events that may wait for a choice, run in continuations without pass-through
frames (issue 9): a call ending its body returns to its caller's continuation in the same `ret`
loop, an empty rest is its continuation, a body whose first statement may wait starts at it.
The same order of effects, events and budget as before, a choice still suspends and resumes
(also through a save and load); the depth test was seen failing with the old `ret` and `_seq`."""
from __future__ import annotations

from interpreter.engine.game import Game, from_json, to_json, touch

DEEP = """\
game: {name: deep, players: {min: 2, max: 2, default: 2}}
zones:
  pile: {}
vars:
  player:
    depth: 0
cards:
  token: {start: pile}
procedures:
  dig:                      # may wait for a choice (never asked: n is never below 0)
    params: [n]
    effect: |
      me.depth += 1
      if n < 0 then
        choose c from pile.cards prompt "never asked"
      end
      if n > 0 then do dig(n - 1) end
actions:
  go:
    params:
      n: "[150]"
    effect: do dig(n)
  end_turn: {effect: finish turn}
"""

ASK = """\
game: {name: ask, players: {min: 2, max: 2, default: 2}}
zones:
  pile: {}
  hand: {per_player: true}
vars:
  player:
    score: 0
    trail: {type: list, default: []}
cards:
  red: {start: pile}
  blue: {start: pile}
events:
  picked: [card]
procedures:
  ask:                      # its first statement waits; its last emits an event whose handler follows
    params: [n]
    effect: |
      choose c from pile.cards prompt "pick"
      move c to me.hand
      me.trail = me.trail + ["asked"]
      emit picked(c)
  noted:
    params: [what]
    effect: me.trail = me.trail + [what]
triggers:
  - rule: "on picked when card.name == \\"red\\": me.score += 10"
  - rule: "on picked: do noted(\\"picked\\")"
  - rule: "on ask: do noted(\\"after ask\\")"
actions:
  go:
    effect: |
      me.trail = me.trail + ["go"]
      do ask(1)
  twice:
    effect: |
      for k in [1, 2] do do ask(k) end
      me.trail = me.trail + ["done"]
  end_turn: {effect: finish turn}
"""


def test_a_procedure_that_may_wait_calls_itself_150_deep(write_game):
    """Each level costs a few Python frames going down and none coming back (one `ret` loop):
    150 levels fit in Python's stack (the old path ran out near 100)."""
    game = Game.load(str(write_game(DEEP)))
    st = game.new_game(1)
    game.apply_in_place(st, "go 150")
    assert st["pv"]["depth"] == (151, 0)


def _events(step):
    return [(name, [getattr(a, "key", a) for a in args]) for name, args in step.events]


def test_a_choice_inside_calls_suspends_and_resumes_in_order(write_game):
    game = Game.load(str(write_game(ASK)))
    st = game.new_game(1)
    step = game.apply_in_place(st, "go")
    assert _events(step) == [("ask", [1])]
    assert st["pending"] and st["pending"][-1]["prompt"] == "pick"
    saved = to_json(st)
    finished = []
    for state in (st, from_json(saved)):  # the same choice resumed in place, and after a save and load
        touch(state)
        key = next(a.args[0] for a in game.legal_actions(state) if "red" in a.args[0])
        step = game.apply_in_place(state, f"choose {key}")
        assert _events(step) == [("picked", ["red"]), ("noted", ["picked"]), ("noted", ["after ask"])]
        assert state["pv"]["score"] == (10, 0)
        assert state["pv"]["trail"][0] == ["go", "asked", "picked", "after ask"]
        assert not state["pending"]
        finished.append(to_json(state))
    assert finished[0] == finished[1]


def test_choices_in_a_loop_of_calls_resume_the_loop(write_game):
    game = Game.load(str(write_game(ASK)))
    st = game.new_game(1)
    game.apply_in_place(st, "twice")
    key = next(a.args[0] for a in game.legal_actions(st) if "blue" in a.args[0])
    game.apply_in_place(st, f"choose {key}")  # the second `ask` has one card left: taken without asking
    assert not st["pending"]
    assert st["pv"]["trail"][0] == ["asked", "picked", "after ask", "asked", "picked", "after ask", "done"]
    assert st["pv"]["score"] == (10, 0)


def test_a_call_ending_its_body_returns_through_ret_itself(write_game):
    """The continuation registered after `do ask(1)` (the last statement of `go`) is `ret`, and a
    body whose first statement waits has no generated function in front of it."""
    game = Game.load(str(write_game(ASK)))
    m = game.m
    assert sum(k is m.ret for k in m.conts) >= 2  # after `do ask(1)` in go, after `emit picked(c)` in ask
