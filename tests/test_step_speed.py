"""Issue 29, item 1: a cheaper engine step. What the generated code does without a call or an
exception where the frequent case needs neither (the speed itself: benchmarks/bench.py)."""
from __future__ import annotations

import sys

import pytest

from interpreter.engine.game import Game
from interpreter.lang.codegen import source_of
from interpreter.lang.scope import Scope
from interpreter.runtime import context as rt
from interpreter.ruleset.yamlio import SourceText
from tests.hardening import game_dir


def compiled(game, text):
    f = game.m.compiler.expr(SourceText.plain(text), Scope([]))
    return f, source_of(f)


def watched(f, ctx) -> tuple[object, list, list]:
    """f(ctx), the Python functions it called (their names) and the exceptions raised inside it."""
    calls, raised = [], []

    def profile(frame, event, arg):
        if event == "call":
            calls.append(frame.f_code.co_name)

    def trace(frame, event, arg):
        if event == "exception":
            raised.append(arg[0])
        return trace
    sys.setprofile(profile)
    sys.settrace(trace)
    try:
        value = f(ctx)
    finally:
        sys.settrace(None)
        sys.setprofile(None)
    return value, calls, raised


def evaluated(game, text, st=None) -> tuple[object, list, str]:
    """The value of expression `text` for the first seat in `st` (a new game's by default), the
    Python functions it called and the generated source."""
    f, src = compiled(game, text)
    ctx = rt.Ctx(st if st is not None else game.new_game(seed=1), game.m, game.m.seats[0])
    ctx.locals = [None] * 4
    value, calls, _ = watched(f, ctx)
    return value, calls, src


@pytest.fixture(scope="module")
def game(tmp_path_factory):
    extra = "functions:\n  total: {params: [xs], expr: \"sum(x for x in xs)\"}\n"
    return Game.load(str(game_dir(tmp_path_factory.mktemp("speed"), extra)))


def test_a_function_given_a_list_while_listing_is_not_remembered_and_raises_nothing(game):
    f, src = compiled(game, "total([1, 2, 3])")
    assert "(ctx, " in src  # called through its generated _call (a loop: not compiled in place)
    ctx = game.rules_context(game.new_game(seed=1))
    ctx.memo = {}  # as while a step is listed: pure calls are remembered
    assert f(ctx) == 6  # the first call with a list learns that the function is given lists
    for _ in range(3):
        value, _, raised = watched(f, ctx)
        assert value == 6
        assert raised == []  # a list has no hash: told by its type, not by a TypeError at each call
    assert ctx.memo == {}
    f, _ = compiled(game, "total(3)")  # not a list: remembered as before (and refused by `sum`)
    ctx.memo = {}
    with pytest.raises(Exception):
        f(ctx)


@pytest.fixture(scope="module")
def board():
    return Game.load("tic-tac-toe")


def test_length_of_a_list_is_read_in_place(board):
    f, src = compiled(board, "length([1, 2, 3] + [4])")
    assert "_len(" in src
    ctx = board.rules_context(board.new_game(seed=1))
    value, calls, _ = watched(f, ctx)
    assert value == 4 and "_length" not in calls
    assert board.evaluate(board.new_game(seed=1), "length(cell(1, 1))") == 0  # a zone: its cards, by the call


@pytest.mark.parametrize("text, expected", [
    ('distance(cell(1, 1), cell(3, 3), "orthogonal")', 4),
    ('distance(cell(2, 2), cell(2, 2), "orthogonal")', 0),
])
def test_a_distance_kept_by_the_board_is_read_without_a_call(board, text, expected):
    f, src = compiled(board, text)
    ctx = board.rules_context(board.new_game(seed=1))
    assert f(ctx) == expected  # the first time: computed, and kept (runtime/walks.py)
    value, calls, _ = watched(f, ctx)
    assert value == expected
    assert [c for c in calls if c not in ("_expr",)] == []


def test_a_walk_off_the_kept_answers_keeps_its_error_at_the_call(board):
    from interpreter.errors import RuleRuntimeError
    st = board.new_game(seed=1)
    with pytest.raises(RuleRuntimeError, match="forks at r1c1"):
        board.evaluate(st, 'walk(cell(1, 1), 2, "orthogonal")')
    assert board.evaluate(st, 'walk(cell(1, 1), 0, "orthogonal")').key == "r1c1"


TALKING = """\
game: {name: talking, players: {min: 2, max: 2}}
cards:
  coin: {copies: 3, tags: [token]}
zones:
  deck: {}
  hand: {per_player: true}
flow:
  setup: |
    for c in cards do move c to deck end
  round:
    end: "if round >= 3 then finish game end"
actions:
  take:
    params: {c: deck.cards}
    effect: |
      move c to me.hand
      log "{me.name} takes {c} and holds {length(me.hand.cards)}: {me.hand.cards}"
      finish turn
"""


def test_a_message_is_written_when_read_not_when_said(tmp_path):
    from interpreter.core import model
    g = Game.load(str(game_dir(tmp_path, base=TALKING)))
    st = g.new_game(seed=1)
    action = g.legal_actions(st)[0]
    labels = []
    real = model.label_of
    try:
        import interpreter.lang.templates as templates
        templates.label_of = lambda v: labels.append(v) or real(v)
        step = g.apply_in_place(st, action, checked=False)
        (said,), = [args for name, args in step.events if name == "log"]
        assert labels == []  # nothing written while playing
        assert str(said) == "Player 1 takes coin#1 and holds 1: [coin#1]" and labels
    finally:
        templates.label_of = real
    assert said == "Player 1 takes coin#1 and holds 1: [coin#1]" and "holds 1" in said
    assert said.for_viewer(None) == str(said)
