"""Issue 29, item 1: runtime primitives that reach the same result with less (the speed itself:
benchmarks/bench.py --game agents-secrets --players 6)."""
from __future__ import annotations

import random

from interpreter.core import rng
from interpreter.core.state import clone
from interpreter.engine.game import Game
from interpreter.runtime import context as rt
from tests.test_step_speed import watched


def _moves_one_by_one(ctx, n, src, dst):
    """What `draw` does, written as moves of the top card one after the other (its slow path)."""
    st = ctx.st
    out = []
    for _ in range(n):
        if dst.capacity is not None and len(st["z"][dst.id]) >= dst.capacity:
            break
        if not st["z"][src.id]:
            break
        card = ctx.m.cards[st["z"][src.id][0]]
        rt.move(ctx, card, dst)
        out.append(card)
    return out


def test_a_draw_into_a_zone_with_a_capacity_moves_what_fits_at_once():
    g = Game.load("agents-secrets", players=6)  # a hand holds 3 cards (Turn Structure 2)
    m = g.m
    st = g.new_game(seed=2)
    p = m.seats[0]
    hand = next(z for z in m.zones if z.name == "hand" and z.owner is p)
    deck = m.zone_by_name["cia_deck"]
    ctx = rt.Ctx(st, m)
    for cid in list(st["z"][hand.id]):  # an empty hand
        rt.move(ctx, m.cards[cid], deck)
    for held, asked in ((0, 2), (1, 5), (2, 3), (3, 4), (0, 3)):
        while len(st["z"][hand.id]) > held:
            rt.move(ctx, m.cards[st["z"][hand.id][-1]], deck)
        while len(st["z"][hand.id]) < held:
            rt.move(ctx, m.cards[st["z"][deck.id][-1]], hand)
        ref = clone(st)
        expected = _moves_one_by_one(rt.Ctx(ref, m), asked, deck, hand)
        budget = ctx.budget
        drawn, calls, _ = watched(lambda ctx: rt.draw(ctx, asked, deck, hand), ctx)
        assert drawn == expected and list(st["z"]) == ref["z"] and list(st["loc"]) == ref["loc"]
        assert budget - ctx.budget == asked  # the budget of the draw as asked
        assert "move" not in calls  # what fits, at once
        assert len(st["z"][hand.id]) == min(3, held + asked)


def test_a_shuffle_draws_what_below_draws_one_after_the_other():
    def one_by_one(state, items):
        for i in range(len(items) - 1, 0, -1):
            state, j = rng.below(state, i + 1)
            items[i], items[j] = items[j], items[i]
        return state
    r = random.Random(7)
    for _ in range(3000):
        n, state = r.randrange(0, 70), r.getrandbits(64)
        a, b = list(range(n)), list(range(n))
        assert rng.shuffle(state, a) == one_by_one(state, b) and a == b
    _, calls, _ = watched(lambda _: rng.shuffle(5, list(range(30))), None)
    assert "below" not in calls  # no call per item
