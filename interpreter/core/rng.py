"""A small deterministic random generator whose whole state is one integer.

The state lives in the game state (``state["rng"]``) so that a saved game,
a clone or a replay continues the same sequence, bit for bit.
SplitMix64: fast in pure Python, good statistical quality for games.
"""
from __future__ import annotations

_MASK = (1 << 64) - 1


def seed_state(seed: int) -> int:
    return (seed * 0x9E3779B97F4A7C15 + 0x632BE59BD9B4E019) & _MASK


def below(state: int, n: int) -> tuple[int, int]:
    """A uniform integer in [0, n) (rejection sampling: no modulo bias)."""
    if n <= 0:
        raise ValueError("n must be positive")
    limit = _MASK - (_MASK % n)
    while True:  # a SplitMix64 step, written in place
        state = (state + 0x9E3779B97F4A7C15) & _MASK
        z = ((state ^ (state >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        z ^= z >> 31
        if z < limit:
            return state, z % n


def shuffle(state: int, items: list) -> int:
    """Fisher-Yates in place; returns the new generator state. The draws of `below`, written in
    the loop (a call per item is most of a shuffle's time): the same draws, the same order."""
    mask = _MASK
    for i in range(len(items) - 1, 0, -1):
        n = i + 1
        limit = mask - (mask % n)
        while True:
            state = (state + 0x9E3779B97F4A7C15) & mask
            z = ((state ^ (state >> 30)) * 0xBF58476D1CE4E5B9) & mask
            z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & mask
            z ^= z >> 31
            if z < limit:
                break
        j = z % n
        items[i], items[j] = items[j], items[i]
    return state
