"""Issue 29, item 1 (Agent DOG's random play, benchmarks/bench.py --game agent-dog): `+` of two lists
or two texts joined in place (the size cap and the budget as `_arith` checks and spends them), and
`x in list` tested in place; anything else through the call, with the same value or the same error."""
from __future__ import annotations

import pytest

from interpreter.engine.game import Game
from interpreter.errors import InterpretError
from interpreter.runtime import context as rt
from tests.hardening import BASE, game_dir
from tests.test_step_speed import compiled, watched

EXTRA = """\
functions:
  join: {params: [a, b], expr: "a + b"}
  has: {params: [x, xs], expr: "x in xs"}
"""


@pytest.fixture(scope="module")
def game(tmp_path_factory):
    return Game.load(str(game_dir(tmp_path_factory.mktemp("operators"), EXTRA)))


def _run(game, text, budget=None):
    f, src = compiled(game, text)
    ctx = rt.Ctx(game.new_game(seed=1), game.m, game.m.seats[0])
    ctx.locals = [None] * 4
    if budget is not None:
        ctx.budget = budget
    try:
        value, calls, _ = watched(f, ctx)
    except InterpretError as e:
        return ("failed", str(e), ctx.budget), [], src
    return (value, ctx.budget), calls, src


@pytest.mark.parametrize("a, b, expected, spent", [("[1, 2]", "[3]", [1, 2, 3], 4), ("[]", "[]", [], 1),
                                                   ('"ab"', '"c"', "abc", 3)])
def test_two_lists_or_two_texts_are_joined_in_place_spending_as_before(game, a, b, expected, spent):
    # spent: the call's step and the joined size, as measured before the join was written in place
    (value, left), calls, _ = _run(game, f"join({a}, {b})", budget=100)
    assert (value, 100 - left) == (expected, spent)
    assert "_arith" not in calls


def test_a_card_and_a_list_are_refused_as_before(game):
    (value, message, _), calls, _ = _run(game, "join(first(cards), [])")
    assert value == "failed" and "cannot compute" in message


def test_a_join_over_the_budget_fails_where_it_failed(game):
    value, message, budget = _run(game, "join([1, 2], [3])", budget=3)[0]  # the call, then 3 items: one short
    assert value == "failed" and "a list or text joined" in message and budget == -1
    assert _run(game, "join([1, 2], [3])", budget=4)[0] == ([1, 2, 3], 0)  # exactly enough


def test_a_join_over_the_size_of_a_collection_is_refused_as_before(tmp_path):
    base = BASE.replace("game: {name: hardened, players: {min: 2, max: 3}}",
                        "game: {name: hardened, players: {min: 2, max: 3}, limits: {collection: 4}}")
    small = Game.load(str(game_dir(tmp_path, EXTRA, base=base)))
    assert _run(small, "join([1, 2], [3, 4])")[0][0] == [1, 2, 3, 4]
    value, message, _ = _run(small, "join([1, 2, 3], [4, 5])")[0]
    assert value == "failed" and "a list or text joined" in message and "5" in message


@pytest.mark.parametrize("x, xs, expected", [("2", "[1, 2]", True), ("5", "[1, 2]", False), ("1", "[]", False),
                                             ("none", "[none]", True),
                                             ('"a"', '"abc"', True), ("1", "none", False)])
def test_an_item_in_a_list_is_tested_in_place(game, x, xs, expected):
    (value, _), calls, _ = _run(game, f"has({x}, {xs})")
    assert value is expected
    if xs.startswith("["):
        assert "_contains" not in calls
    else:
        assert "_contains" in calls  # a text, none: the call, as before


def test_in_a_zone_and_in_what_is_no_collection_as_before(game):
    (value, _), calls, _ = _run(game, "has(first(cards), deck)")
    assert value is True
    (value, message, _), _, _ = _run(game, "has(1, 3)")
    assert value == "failed" and "`in` needs a collection or a zone" in message


def test_the_collection_is_evaluated_before_the_item(game):
    # both fail: the collection's error is the one told, as when `_contains` was called with both
    (value, message, _), _, _ = _run(game, "lst[7] in [1][9]")
    assert value == "failed" and "no item 9" in message
