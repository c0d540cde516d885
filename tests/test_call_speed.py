"""Issue 29, item 1: calls written with less (the speed itself: benchmarks/bench.py --game
agents-secrets --players 6): `text(...)` of texts joined in place, the same text as the built-in's."""
from __future__ import annotations

import pytest

from interpreter.engine.game import Game
from interpreter.errors import InterpretError
from interpreter.runtime import context as rt
from interpreter.runtime.library import _BUILTINS
from tests.hardening import game_dir
from tests.test_step_speed import evaluated


@pytest.fixture(scope="module")
def game(tmp_path_factory):
    return Game.load(str(game_dir(tmp_path_factory.mktemp("calls"))))


_eval = evaluated


@pytest.mark.parametrize("args", ['"a", "b"', '"x"', '"a", me.name, " and ", "c"'])
def test_text_of_texts_is_joined_in_place(game, args):
    value, calls, _ = _eval(game, f"text({args})")
    assert calls == ["_expr"]  # no call of the built-in
    st = game.new_game(seed=1)
    ctx = rt.Ctx(st, game.m, game.m.seats[0])
    parts = _eval(game, f"[{args}]", st)[0]
    assert value == _BUILTINS["text"][0](ctx, *parts)


@pytest.mark.parametrize("args", ['"a", 3', 'first(deck.cards), " ", me', '"n", none', '[1, 2], "!"'])
def test_text_of_other_values_is_the_built_ins(game, args):
    st = game.new_game(seed=1)
    value, calls, _ = _eval(game, f"text({args})", st)
    assert "<lambda>" in calls  # the built-in writes what is not a text
    ctx = rt.Ctx(st, game.m, game.m.seats[0])
    assert value == _BUILTINS["text"][0](ctx, *_eval(game, f"[{args}]", st)[0])


def test_text_evaluates_each_part_once_in_order_and_fails_at_its_part(game):
    value, calls, src = _eval(game, 'text("a", "b" + "c", "d")')
    assert value == "abcd"
    with pytest.raises(InterpretError) as e:
        _eval(game, 'text("a", lst[3], 7 // x)')  # the first part that fails, at its position
    assert str(e.value) == "<text>:1:11: no item 3 in []"
