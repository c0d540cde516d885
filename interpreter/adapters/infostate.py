"""Each seat's information state, kept on demand.

A seat's information state (perfect recall) is the sequence of what it observed after each
decision, chance events resolved. Writing every seat's observation after every move cost an
adapter most of its time, and nobody reads most of them (a rollout asks for none). So a `Trail`
keeps, per decision, only a link to a copy of the state (core/state.clone: the zones' tuples are
shared, so it costs little), and folds the seat's views of those copies into its digest when
somebody asks for its information state. The links are shared by a state and its clones: a digest
folded once serves every state whose history passes there, and a link folded for every seat lets
go of its state and of the links before it.

A digest chains blake2b over the seat's canonical views (canonical.py), so it depends only on
what the seat observed: two histories the seat cannot tell apart give the same digest.
"""
from __future__ import annotations

import hashlib

from ..core.state import clone


def chain(before: str, text: str) -> str:
    return hashlib.blake2b((before + "\n" + text).encode(), digest_size=16).hexdigest()


class _Link:
    """The state after one decision, the link before it, and each seat's digest and view there
    once folded (None until then)."""

    __slots__ = ("before", "st", "digests", "texts")

    def __init__(self, before, st, seats: int):
        self.before, self.st = before, st
        self.digests: list = [None] * seats
        self.texts: list = [None] * seats


class Trail:
    """The history of one state, as links (see the module's documentation)."""

    __slots__ = ("last",)

    def __init__(self, seats: int, first=None):
        self.last = _Link(None, clone(first) if first is not None else None, seats)

    def copy(self) -> "Trail":
        t = Trail.__new__(Trail)
        t.last = self.last  # links never change but to fill in what they computed: shared
        return t

    def __deepcopy__(self, memo):
        return self.copy()

    def push(self, st) -> None:
        """Note the state after a decision (chance events resolved)."""
        self.last = _Link(self.last, clone(st), len(self.last.digests))

    def fold(self, seat: int, view_text) -> tuple[str, str]:
        """(the seat's view of the last state, its digest): `view_text(st, seat)` writes a view."""
        path = []
        link = self.last
        while link is not None and link.digests[seat] is None:
            path.append(link)
            link = link.before
        d = link.digests[seat] if link is not None else ""
        for link in reversed(path):
            text = view_text(link.st, seat)
            d = link.digests[seat] = chain(d, text)
            link.texts[seat] = text
            if None not in link.digests:  # folded for every seat: nothing before it is needed
                link.before = None
                link.st = None
        return self.last.texts[seat], self.last.digests[seat]

    def sampled_start(self, digest: str) -> _Link:
        """The link every trail `rooted` for states sampled from this one's seat starts from: the
        seat's history is its own (`digest`); every other seat's is unknown to it, so each starts
        from the seat's digest (never from what they really saw). Folded for every seat: shared."""
        n = len(self.last.digests)
        start = _Link(None, None, n)
        start.digests = [chain(digest, f"seat {s}") for s in range(n)]
        return start

    @staticmethod
    def rooted(start: _Link, seat: int, st, text: str, digest: str) -> "Trail":
        """A trail for `st`, a state sampled from `seat`'s information state (resample_from_infostate),
        from `start` (sampled_start): the seat's digest is its own, every other seat folds its view
        of `st` on from its start."""
        t = Trail(len(start.digests), st)
        t.last.before = start
        t.last.digests[seat], t.last.texts[seat] = digest, text
        return t


__all__ = ["Trail", "chain"]
