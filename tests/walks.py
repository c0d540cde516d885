"""Seeded random games for tests that look at the states along them."""
from __future__ import annotations

import random


def random_states(g, seed: int, limit: int | None = None):
    """Each state of a seeded random game of `g` before its move (at most `limit` moves), the
    same state object moved in place: look at it before asking for the next one."""
    rng, st = random.Random(seed), g.new_game(seed=seed)
    moves = 0
    while not g.is_terminal(st) and (limit is None or moves < limit):
        yield st
        actions = g.legal_actions(st)
        g.apply_in_place(st, actions[rng.randrange(len(actions))], checked=False)
        moves += 1
