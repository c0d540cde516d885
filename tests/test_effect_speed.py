"""Issue 29, item 1: cheaper effects. What an effect no longer computes twice, or through a
generic loop, where the same result needs less (the speed itself: benchmarks/bench.py)."""
from __future__ import annotations

import pytest

from interpreter.engine.game import Game
from interpreter.lang.scope import Scope
from interpreter.ruleset.yamlio import SourceText
from interpreter.runtime import context as rt
from tests.hardening import game_dir
from tests.test_step_speed import watched

EXTRA = """\
functions:
  firsts: {params: [n], expr: "length(take([c for c in deck.cards], n))"}
  more: {params: [n], expr: "firsts(n) + 1"}
procedures:
  shared: {params: [], effect: "let a = firsts(2)\\nlet b = more(2)\\nx = a + b"}
  apart: {params: [], effect: "let a = firsts(2)\\nx = 1\\nlet b = more(2)\\nx = a + b"}
  said: {params: [], effect: "log \\"{first(deck.cards)} of {length(deck.cards)}, {x}\\""}
  told: {params: [], effect: "log \\"{me.name}: {x} in round {round}, {me}\\""}
  listed: {params: [], effect: "lst = deck.cards\\nlog \\"{me.name}: {lst}\\""}
"""


@pytest.fixture(scope="module")
def game(tmp_path_factory):
    return Game.load(str(game_dir(tmp_path_factory.mktemp("effects"), EXTRA)))


def _run(game, st, procedure):
    """The procedure done in `st`, watched: (its events, the Python functions it called)."""
    ctx = rt.Ctx(st, game.m, game.m.seats[0])
    ctx.locals = []

    def run(ctx):
        game.m._proc_direct[procedure](ctx, [])
        return ctx.events
    events, calls, _ = watched(run, ctx)
    return events, calls


def test_lets_calling_the_same_function_compute_it_once(game):
    st = game.new_game(seed=1)
    _, calls = _run(game, st, "shared")
    assert st["gv"]["x"] == 2 + 3
    assert calls.count("_take") == 1  # `more(2)` finds `firsts(2)` remembered by the lets before it
    # a statement that changes the state between them ends what the lets remember
    _, calls = _run(game, st, "apart")
    assert st["gv"]["x"] == 2 + 3 and calls.count("_take") == 2


def test_a_log_is_written_in_place(game):
    st = game.new_game(seed=1)
    events, calls = _run(game, st, "said")
    (name, (said,)), = events
    assert name == "log" and str(said).endswith(" of 3, 0")
    assert "read" not in calls and "said" not in calls  # not through the generic loop over the pieces
    # written for a reader as the generic `said` writes it: the card, where it lay when said
    reference = game.m.compiler.template_text("{first(deck.cards)} of {length(deck.cards)}, {x}", Scope()).said
    ctx = rt.Ctx(st, game.m)
    ctx.locals = []
    assert str(reference(ctx)) == str(said) and said.where == reference(ctx).where != {}


def test_a_log_naming_no_card_is_said_without_looking_for_cards(game):
    st = game.new_game(seed=1)
    events, calls = _run(game, st, "told")
    (name, (said,)), = events
    assert str(said) == "Player 1: 0 in round 1, p1" and said.where == {}
    assert "said_of" not in calls  # its values were seen to hold no card: no look into each
    # a message naming cards (a list of them, its kind not known at load) still notes where they lay
    events, calls = _run(game, st, "listed")
    (name, (said,)), = events[-1:]
    assert "said_of" in calls and sorted(said.where) == sorted(st["z"][game.m.zone_by_name["deck"].id])


def test_a_draw_moves_the_cards_at_once_in_order(game):
    st = game.new_game(seed=1)
    m = game.m
    deck = m.zone_by_name["deck"]
    hand = next(z for z in m.zones if z.name == "hand" and z.owner is not None and z.owner.id == 0)
    top = list(st["z"][deck.id][:2])
    ctx = rt.Ctx(st, m)
    drawn, calls, _ = watched(lambda ctx: rt.draw(ctx, 2, deck, hand), ctx)
    assert [c.id for c in drawn] == top and list(st["z"][hand.id]) == top
    assert "move" not in calls
    assert all(st["loc"][i] == hand.id for i in top) and len(st["z"][deck.id]) == 1
    # an empty pile takes its whole refill at once, in order, then shuffles it
    discard = m.zone_by_name["discard"]
    for cid in list(st["z"][hand.id]) + list(st["z"][deck.id]):
        rt.move(ctx, m.cards[cid], discard)
    drawn, calls, _ = watched(lambda ctx: rt.draw(ctx, 2, deck, hand), ctx)
    assert len(drawn) == 2 and not st["z"][discard.id]
    assert calls.count("move") == 2  # the two cards drawn, not the three of the refill
    assert sorted(st["z"][hand.id] + st["z"][deck.id]) == sorted(c.id for c in m.cards)
    assert all(st["loc"][i] == z for z in range(len(m.zones)) for i in st["z"][z])


def test_a_shuffle_of_one_card_draws_nothing_unless_an_order_is_forced(game):
    st = game.new_game(seed=1)
    m = game.m
    discard = m.zone_by_name["discard"]
    ctx = rt.Ctx(st, m)
    rt.move(ctx, m.cards[0], discard)
    before = st["rng"]
    _, calls, _ = watched(lambda ctx: rt.shuffle(ctx, discard), ctx)
    assert st["rng"] == before and st["z"][discard.id] == (0,) and "shuffle_list" not in calls
    st["forced"] = [{"order": [m.cards[0].key], "zone": "discard"}]
    rt.shuffle(ctx, discard)
    assert st["forced"] == []  # the forced order is taken by the shuffle it names


def test_a_sum_of_numbers_is_added_at_once(game):
    st = game.new_game(seed=1)
    scope = Scope()
    f = game.m.compiler.expr(SourceText.plain("sum(c.value for c in deck.cards)"), scope)
    value, calls, _ = watched(f, game.rules_context(st, size=scope.size))
    assert value == 3 and "_num" not in calls
    assert game.evaluate(st, "sum([1, none, 2])") == 3  # none counts as nothing
