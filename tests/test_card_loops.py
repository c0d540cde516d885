"""Issue 29, item 1: a loop over a zone's cards (`where`, `[... for ...]`, an aggregate, a `for`
statement) goes through the ids the state holds, without building the list of the cards first.
Same items, same order, same budget and the same failures as a loop over that list (the speed
itself: benchmarks/bench.py --game agents-secrets --players 6)."""
from __future__ import annotations

import pytest

from interpreter.engine.game import Game
from interpreter.errors import InterpretError
from interpreter.runtime import context as rt
from tests.hardening import game_dir
from tests.test_step_speed import compiled

EXTRA = """\
procedures:
  keep: {params: [], effect: "lst = deck.cards"}
  discard_all: {params: [], effect: "for c in deck.cards do move c to discard end"}
  discard_listed: {params: [], effect: "for c in lst do move c to discard end"}
"""

# each over the deck's cards, and the same over `lst`, a list of the same cards
LOOPS = ["[c for c in {z}]", "{z} where it.value == 1", "sum(c.value for c in {z})",
         "length({z} where it is token)", "any(c.value > 1 for c in {z})", "max_by({z}, it.value)"]


@pytest.fixture(scope="module")
def game(tmp_path_factory):
    return Game.load(str(game_dir(tmp_path_factory.mktemp("cardloops"), EXTRA)))


def _state(game):
    st = game.new_game(seed=3)
    deck = game.m.zone_by_name["deck"]
    assert len(st["z"][deck.id]) == 3
    _run(game, st, "keep")  # the same cards, as a list variable
    return st


def _value(game, st, text, budget=10**6, me=None):
    f, src = compiled(game, text)
    ctx = rt.Ctx(st, game.m, me)
    ctx.locals = [None] * 8
    ctx.budget = budget
    return f(ctx), budget - ctx.budget, src


@pytest.mark.parametrize("loop", LOOPS)
def test_a_loop_over_a_zones_cards_goes_through_their_ids(game, loop):
    st = _state(game)
    value, spent, src = _value(game, st, loop.format(z="deck.cards"))
    assert "_map(" not in src  # no list of the cards built for the loop
    same, spent_list, _ = _value(game, st, loop.format(z="lst"))
    assert value == same and spent == spent_list


def test_the_cards_of_no_zone_are_no_items(game):
    st = _state(game)
    value, spent, src = _value(game, st, "[c for c in me.hand.cards]", me=None)  # `me.hand` is none
    assert "_map(" not in src and value == [] and spent == 0
    hand = next(z for z in game.m.zones if z.name == "hand" and z.owner is game.m.seats[0])
    value, spent, _ = _value(game, st, "[c for c in me.hand.cards]", me=game.m.seats[0])
    assert value == [game.m.cards[i] for i in st["z"][hand.id]] and spent == len(value)


@pytest.mark.parametrize("loop", LOOPS)
def test_a_loop_over_a_zones_cards_fails_where_the_list_would(game, loop):
    st = _state(game)
    for budget in range(0, 4):
        errors = []
        for z in ("deck.cards", "lst"):
            try:
                _value(game, st, loop.format(z=z), budget=budget)
                errors.append(None)
            except InterpretError as e:
                errors.append(str(e))
        assert errors[0] == errors[1], budget


def _run(game, st, procedure, budget=10**6):
    ctx = rt.Ctx(st, game.m, game.m.seats[0])
    ctx.locals = []
    ctx.budget = budget
    game.m._proc_direct[procedure](ctx, [])
    return budget - ctx.budget


def test_a_for_statement_over_a_zones_cards_goes_through_those_held_when_it_began(game):
    m = game.m
    assert "_CARDS[" in m._proc_direct["discard_all"].__defaults__[0]._interpret_source  # by their ids
    st, ref = _state(game), _state(game)
    deck, discard = m.zone_by_name["deck"], m.zone_by_name["discard"]
    held = list(st["z"][deck.id])
    spent = _run(game, st, "discard_all")  # each move changes the deck: the loop goes on through what it held
    spent_list = _run(game, ref, "discard_listed")
    assert st["z"][deck.id] == () and list(st["z"][discard.id])[-3:] == held
    assert st["z"] == ref["z"] and st["loc"] == ref["loc"] and spent == spent_list
    for budget in range(0, 6):  # over the budget: the same failure (the position aside: another line)
        errors = []
        for procedure in ("discard_all", "discard_listed"):
            try:
                _run(game, _state(game), procedure, budget=budget)
                errors.append(None)
            except InterpretError as e:
                errors.append(str(e).split(": ", 1)[-1])
        assert errors[0] == errors[1], budget
