"""Each seat's information state, kept on demand.

A seat's information state (perfect recall) is the sequence of what it observed after each
decision, chance events resolved. Writing every seat's observation after every move cost an
adapter most of its time, and nobody reads most of them (a rollout asks for none). So a `Trail`
keeps, per move, only a copy of the state (core/state.clone: the zones' tuples are shared, so it
costs little), and folds the seat's views of those copies into its digest when somebody asks for
its information state; what it folded it forgets once every seat has folded it.

A digest chains blake2b over the seat's canonical views (canonical.py), so it depends only on
what the seat observed: two histories the seat cannot tell apart give the same digest.
"""
from __future__ import annotations

import hashlib

from ..core.state import clone


def chain(before: str, text: str) -> str:
    return hashlib.blake2b((before + "\n" + text).encode(), digest_size=16).hexdigest()


class Trail:
    """The states after each decision since the digests were last folded, and the digests."""

    __slots__ = ("digests", "texts", "upto", "states")

    def __init__(self, seats: int, first=None):
        self.digests = [""] * seats  # each seat's digest of the states it folded
        self.texts = [None] * seats  # each seat's view of the last state it folded
        self.upto = [0] * seats  # how many of `states` each seat folded
        self.states = [clone(first)] if first is not None else []

    def copy(self) -> "Trail":
        t = Trail.__new__(Trail)
        t.digests, t.texts, t.upto, t.states = self.digests[:], self.texts[:], self.upto[:], self.states[:]
        return t

    def push(self, st) -> None:
        """Note the state after a decision (chance events resolved)."""
        self.states.append(clone(st))

    def fold(self, seat: int, view_text) -> tuple[str, str]:
        """(the seat's view of the last state, its digest): `view_text(st, seat)` writes a view."""
        states, k = self.states, self.upto[seat]
        if k < len(states):
            d, text = self.digests[seat], None
            for st in states[k:]:
                text = view_text(st, seat)
                d = chain(d, text)
            self.digests[seat], self.texts[seat] = d, text
            self.upto[seat] = len(states)
            if min(self.upto) == len(states) and len(states) > 1:  # every seat folded them: forget
                self.states = states[-1:]
                self.upto = [1] * len(self.upto)
        return self.texts[seat], self.digests[seat]

    def rooted(self, seat: int, st, text: str, digest: str) -> "Trail":
        """A trail for `st`, a state sampled from `seat`'s information state (resample_from_infostate):
        the seat's digest is its own; every other seat's history is unknown to it, so each starts
        from the seat's digest (never from what they really saw) and folds its view of `st` on."""
        n = len(self.digests)
        t = Trail(n, st)
        t.digests = [digest if s == seat else chain(digest, f"seat {s}") for s in range(n)]
        t.texts = [text if s == seat else None for s in range(n)]
        t.upto = [1 if s == seat else 0 for s in range(n)]
        return t


__all__ = ["Trail", "chain"]
