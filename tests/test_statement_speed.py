"""Issue 29, item 1: statements and expressions written with less (the speed itself:
benchmarks/bench.py --game agents-secrets --players 6). A `for` over a list within the budget
copies it and spends its budget in the generated text, without a call of `_for_items`; anything
else, or a list over the budget, goes through it (the same items, budget and errors). A table
written in the rules (`company_names[c]`) is read by a text or a number it has without
`_index_slow`, which still answers every other key as it did."""
from __future__ import annotations

import pytest

from interpreter.engine.game import Game
from interpreter.limits import BudgetExceeded
from interpreter.runtime import context as rt
from interpreter.runtime.helpers import _index_slow
from tests.hardening import game_dir
from tests.test_step_speed import watched

EXTRA = """\
constants:
  names: {a: Alpha, "1": One, b: null}
  nums: {1: 10, 2: 20}
procedures:
  count_coins: {params: [], effect: "for c in deck.cards do x += c.value end"}
  count_zone: {params: [], effect: "for c in deck do x += 1 end"}
"""


@pytest.fixture(scope="module")
def game(tmp_path_factory):
    return Game.load(str(game_dir(tmp_path_factory.mktemp("statements"), EXTRA)))


def _run(game, st, procedure, budget=None):
    ctx = rt.Ctx(st, game.m, game.m.seats[0])
    ctx.locals = []
    if budget is not None:
        ctx.budget = budget

    def run(ctx):
        game.m._proc_direct[procedure](ctx, [])
        return ctx.budget
    return watched(run, ctx)


def test_a_for_over_a_list_spends_its_budget_without_a_call(game):
    st = game.new_game(seed=1)
    before = rt.Ctx(st, game.m).budget
    left, calls, _ = _run(game, st, "count_coins")
    assert st["gv"]["x"] == 3 and "_for_items" not in calls
    assert before - left == 3 + 1  # its 3 items and itself, as `_for_items` spends
    with pytest.raises(BudgetExceeded, match="`for` over 3 items"):
        _run(game, st, "count_coins", budget=3)  # over the budget: `_for_items` fails as it did
    with pytest.raises(rt.RuleRuntimeError, match="deck is a zone: write `deck.cards`"):
        _run(game, st, "count_zone")  # not a list: `_for_items` says what to go through


def test_a_table_of_the_rules_is_read_at_once_by_a_key_it_has(game):
    st = game.new_game(seed=1)
    tables = {"names": {"a": "Alpha", "1": "One", "b": None}, "nums": {1: 10, 2: 20}}
    for name, key in (("names", "a"), ("nums", 2)):
        value, calls, _ = watched(lambda _: game.evaluate(st, f"{name}[{key!r}]"), None)
        assert value == tables[name][key] and "_index_slow" not in calls
    for name, key in (("names", "z"), ("names", 1), ("names", "b"), ("nums", 3), ("nums", "2")):
        assert game.evaluate(st, f"{name}[{key!r}]") == _index_slow(tables[name], key, None)  # as it did
    with pytest.raises(rt.RuleRuntimeError, match="no item"):
        game.evaluate(st, "names[[1]]")
