"""Issue 29 (Agent DOG's random play): a content function that loops, called with a loop's
variable, is compiled in place, except while calls are remembered (`ctx.memo`: the legal actions
being listed), when it is called through its generated `_call`: calling it again with the same
arguments then spends one step instead of its whole text again (docs/content.md, Limits). Values
are the same either way, and a rule that runs away still fails under its budget at its own
position with the same message."""
from __future__ import annotations

import pytest

from interpreter.engine.game import Game
from interpreter.errors import InterpretError
from interpreter.lang.scope import Scope
from interpreter.runtime import context as rt
from interpreter.ruleset.yamlio import SourceText
from tests.hardening import BASE, game_dir
from tests.test_codegen import compiled

EXTRA = """\
functions:
  count_coins: {params: [z], expr: "length(z.cards where it is token)"}
  spin: {params: [n], expr: "length([i for i in range(1, n)])"}
  small: {params: [n], expr: "n + 1"}
  near: {params: [n], expr: "all(n + i > 0 for i in range(0, 2))"}
"""
SPIN_LINE = len(BASE.splitlines()) + 3  # `spin`'s text


@pytest.fixture(scope="module")
def game(tmp_path_factory):
    return Game.load(str(game_dir(tmp_path_factory.mktemp("loopcalls"), EXTRA)))


def _run(game, text, *, listing: bool, budget: int | None = None):
    """(value, steps spent) of an expression, with calls remembered as while listing or not; or
    ("failed", message, budget left, position) when it fails."""
    scope = Scope()
    f = game.m.compiler.expr(SourceText.plain(text, "<expression>"), scope)
    ctx = rt.Ctx(game.new_game(seed=1), game.m, game.m.seats[0])
    ctx.locals = [None] * max(scope.size, 4)
    ctx.memo = {} if listing else None
    if budget is not None:
        ctx.budget = budget
    before = ctx.budget
    try:
        value = f(ctx)
    except InterpretError as e:
        return "failed", str(e), ctx.budget, e.location
    return value, before - ctx.budget


def test_a_function_that_loops_is_called_while_listing_and_in_place_otherwise(game):
    _, src = compiled(game, "[count_coins(z) for z in [deck, discard]]")
    assert "ctx.memo is not None" in src and "[0](ctx, " in src  # through its generated _call while listing
    assert src.count("for x in") == 2                          # else in place (its loop in the caller's text)
    _, src = compiled(game, "count_coins(deck)")
    assert "[0](ctx, " in src and "ctx.memo" not in src        # not with a loop's variable: called, as before
    _, src = compiled(game, "[small(k) for k in [1, 2]]")
    assert "[0](ctx, " not in src and "+ 1" in src             # a small one that does not loop: in place
    for listing in (False, True):
        assert _run(game, "[count_coins(z) for z in [deck, discard]]", listing=listing)[0] == [3, 0]


def test_a_function_whose_loop_is_written_out_stays_in_place(game):
    """`near(n)` loops over a constant range of three numbers, written out (one test each): no loop
    left to remember, and the caller's loop writes its tests in place, as before."""
    _, src = compiled(game, "any(near(k) for k in [1, 2])")
    assert "ctx.memo" not in src and "[0](ctx, " not in src
    for listing in (False, True):
        assert _run(game, "any(near(k) for k in [1, 2])", listing=listing)[0] is True


def test_a_remembered_call_spends_one_step(game):
    """`count_coins(deck)` in place spends 3 (its text); called, 1 more (the call). Three times in a
    loop (one step an iteration): while listing, the second and third calls are remembered, 1 step
    each; otherwise each is computed in place, as before."""
    assert _run(game, "count_coins(deck)", listing=False) == (3, 4)  # called (not a loop's variable)
    three = "[count_coins(z) for z in [deck, deck, deck]]"
    assert _run(game, three, listing=False) == ([3, 3, 3], 3 * (1 + 3))
    assert _run(game, three, listing=True) == ([3, 3, 3], 3 + (1 + 3) + 2)
    twice = "[spin(k) for k in [10, 10]]"                      # spin(10): 10 items + 10 iterations + 1
    assert _run(game, twice, listing=False) == ([10, 10], 2 + 2 * 20)
    assert _run(game, twice, listing=True) == ([10, 10], 2 + 21 + 1)


@pytest.mark.parametrize("listing", [False, True])
def test_a_function_that_runs_away_fails_under_its_budget_at_its_own_position(game, listing):
    value, message, left, loc = _run(game, "any(spin(k) > 0 for k in [100000])", listing=listing, budget=500)
    assert value == "failed" and "budget `steps`" in message and "(a game may raise it" in message
    assert left < 0 and loc is not None and (loc.line, loc.column) == (SPIN_LINE, 49)  # `range` in spin's text
    once = "[spin(k) for k in [10]]"
    spent = 1 + 20 + (1 if listing else 0)                     # the call's step while listing
    assert _run(game, once, listing=listing, budget=spent) == ([10], spent)  # exactly enough
    failed = _run(game, once, listing=listing, budget=spent - 1)             # one step short
    assert failed[0] == "failed" and failed[2] == -1 and failed[3].line == SPIN_LINE
