"""Issue 29, item 1 (Agent DOG's random play, benchmarks/bench.py --game agent-dog): built-ins at C
speed, each giving what it gave before: `flatten` and `drop` of lists, `distinct` of numbers, and
the cards of a run of cells (`contents`)."""
from __future__ import annotations

import sys

import pytest

from interpreter.engine.game import Game
from interpreter.runtime import context as rt
from interpreter.runtime import library
from interpreter.runtime.library import _BUILTINS
from interpreter.runtime.ops import _AGGREGATES, _sort_key
from tests.test_step_speed import watched


@pytest.mark.parametrize("lists", [[[1, 2], [], [3]], [], [[1], None, [2]], [None], [[1], "ab"], [[1], 3], "ab", None])
def test_flatten_gives_what_it_gave(lists):
    ctx = rt.Ctx({}, None)
    before = _before_flatten(lists)
    if isinstance(before, type) and issubclass(before, Exception):
        with pytest.raises(before):
            _BUILTINS["flatten"][0](ctx, lists)
    else:
        assert _BUILTINS["flatten"][0](ctx, lists) == before


def _before_flatten(lists):
    try:
        return [x for l in (lists or []) for x in (l or [])]
    except TypeError:
        return TypeError


def test_flatten_and_drop_of_lists_call_nothing_generic():
    ctx = rt.Ctx({}, None)
    _, calls, _ = watched(lambda c: _BUILTINS["flatten"][0](c, [[1, 2], [3]]), ctx)
    assert "<listcomp>" not in calls  # the lists' items at once
    lst = [1, 2, 3]
    value, calls, _ = watched(lambda c: _BUILTINS["drop"][0](c, lst, 1), ctx)
    assert value == [2, 3] and value is not lst and lst == [1, 2, 3] and "_coll" not in calls


def _lines(fn, *args) -> tuple[object, int]:
    """fn(*args) and the number of lines run in fn's own frame."""
    code, run = fn.__code__, [0]

    def trace(frame, event, arg):
        if frame.f_code is not code:
            return None
        if event == "line":
            run[0] += 1
        return trace
    sys.settrace(trace)
    try:
        value = fn(*args)
    finally:
        sys.settrace(None)
    return value, run[0]


@pytest.mark.parametrize("values", [[3, 1, 3, 2], [], list(range(200, 0, -1)) * 2])
def test_distinct_of_numbers_is_sorted_at_once(values):
    value, lines = _lines(_AGGREGATES["distinct"], values)
    assert value == sorted(set(values))
    assert lines <= 3  # no line per value


@pytest.mark.parametrize("values", [[True, 1, 0], [2, None, 1, 2], ["b", "a", "b"]])
def test_distinct_of_other_values_by_kind_then_value(values):
    out = _AGGREGATES["distinct"](values)
    assert [type(v) for v in out] == [type(v) for v in sorted(dict.fromkeys(values), key=_sort_key)]


def test_a_run_of_cells_gives_its_cards_without_a_loop_of_python(dog):
    st = dog.new_game(seed=3)
    ctx = dog.rules_context(st)
    ctx.memo = {}
    track = library._tagged_cells(ctx, "track")
    run = dog.m.tagged_runs[id(track)]
    run.seen = None  # its answer is found again
    value, calls, _ = watched(lambda c: library._contents(c, track), ctx)
    assert "<listcomp>" not in calls
    assert value == [dog.m.cards[i] for z in track for i in st["z"][z.id]] and value


@pytest.fixture(scope="module")
def dog():
    return Game.load("agent-dog")
