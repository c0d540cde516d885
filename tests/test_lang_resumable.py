"""A body that may wait for a player's choice is generated code (lang/resumable.py): one function
`_body(ctx, pc=0)` split at its waiting points, whose resume points are the continuation ids a
pending choice saves. Seen failing on the closures it replaced (lang/continuations.py): the
continuations were closures with no generated source, `--source` named them "closures ... no
generated code", and a loop whose body may wait recursed once per pass (RecursionError at 3,000).
"""
from __future__ import annotations

from interpreter.engine.game import Game, from_json, to_json, touch
from interpreter.lang.codegen import source_of

LOOP = """\
game: {name: loop, players: {min: 2, max: 2, default: 2}}
zones:
  pile: {}
  hand: {per_player: true}
vars:
  player:
    passes: 0
    trail: {type: list, default: []}
cards:
  red: {start: pile}
  blue: {start: pile}
  green: {start: pile}
actions:
  many:                     # a loop whose body may wait, never asked (one card: taken at once)
    effect: |
      move red to me.hand
      repeat 3000 times
        choose c from me.hand.cards prompt "never asked"
        me.passes += 1
      end
  pick:                     # two real questions inside a `for` inside a `repeat`
    effect: |
      repeat 2 times
        for k in [1, 2] do
          if k == 2 then me.trail = me.trail + ["second"] end
          choose c from pile.cards prompt "card {k}"
          move c to me.hand
          me.trail = me.trail + [c.name]
        end
        move blue to pile
        move red to pile
        move green to pile
      end
      me.trail = me.trail + ["done"]
  end_turn: {effect: finish turn}
"""


def test_a_waiting_body_is_one_generated_function_with_its_resume_points(write_game):
    game = Game.load(str(write_game(LOOP)))
    m = game.m
    bodies = {id(getattr(k, "func", k)) for k in m.conts if source_of(getattr(k, "func", k)) and
              "def _body(ctx, pc=0):" in source_of(getattr(k, "func", k))}
    assert len(bodies) == 2  # `many` and `pick`: every resume point of each is its one function
    points = [k.keywords["pc"] for k in m.conts if hasattr(k, "keywords")]
    assert points and all(type(p) is int and p > 0 for p in points)


def test_a_loop_that_may_wait_does_not_recurse_per_pass(write_game):
    game = Game.load(str(write_game(LOOP)))
    st = game.new_game(1)
    game.apply_in_place(st, "many")
    assert st["pv"]["passes"] == (3000, 0) and not st["pending"]


def _choose(game, st, name):
    key = next(a.args[0] for a in game.legal_actions(st) if name in a.args[0])
    game.apply_in_place(st, f"choose {key}")


def test_a_choice_in_a_loop_in_a_loop_resumes_after_a_save_and_load(write_game):
    game = Game.load(str(write_game(LOOP)))
    st = game.new_game(1)
    game.apply_in_place(st, "pick")
    assert st["pending"][-1]["prompt"] == "card 1"
    _choose(game, st, "blue")
    assert st["pending"][-1]["prompt"] == "card 2"
    saved = to_json(st)
    ends = []
    for state in (st, from_json(saved)):  # resumed in place, and from the saved game
        touch(state)
        for name in ("green", "red", "blue"):
            _choose(game, state, name)
        assert not state["pending"]  # the last pass's second question had one card left
        assert state["pv"]["trail"][0] == ["blue", "second", "green", "red", "second", "blue", "done"]
        ends.append(to_json(state))
    assert ends[0] == ends[1]

