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

A search that samples a state from an information state (resample_from_infostate) meets the same
sampled state again and again in a small game (Kuhn poker's three cards deal two ways). Under
such a state the links remember what follows them (`_Memo`): the actions played since a link
(a decision, then its chance outcomes) -> the link after them, or the state at a chance node on
the way. The forward model is deterministic given its chance outcomes (explicit chance), so a
state that passes there again takes a copy of what it found, with its listing, its seats'
digests and its returns, instead of running the rules again. A memo is kept only under a state
drawn twice (openspiel.py), for a bounded number of links (`Tree`), and goes with its links.
"""
from __future__ import annotations

import hashlib

from ..core.state import NO_NOTES, NOTES, Notes, clone


def chain(before: str, text: str) -> str:
    return hashlib.blake2b((before + "\n" + text).encode(), digest_size=16).hexdigest()


class _Link:
    """The state after one decision (None until a lazy link is asked), the link before it, and each
    seat's digest there once folded and its information-state string once asked (None until
    then: `Trail.fold`); under a state drawn twice, what
    follows it (`memo`); a lazy link's `moves`, the forward model's (action, checked) from the state
    of the link before to this one's (None once it holds its state)."""

    __slots__ = ("before", "st", "digests", "texts", "memo", "moves")

    def __init__(self, before, st, seats: int, moves=None):
        self.before, self.st = before, st
        self.digests: list = [None] * seats
        self.texts: list = [None] * seats
        self.memo: _Memo | None = None
        self.moves = moves


class Tree:
    """The links one memo may still keep (shared by the links under the states one seat draws)."""

    __slots__ = ("left",)

    def __init__(self, left: int):
        self.left = left


def _trail_of(links: list, since, moves) -> "Trail":
    last = None
    for st, digests, texts, link_moves in links:
        link = _Link.__new__(_Link)
        link.before, link.st, link.digests, link.texts = last, st, list(digests), list(texts)
        link.memo, link.moves = None, link_moves
        last = link
    t = Trail.__new__(Trail)
    t.last, t.since, t.moves, t.pending = last, since, moves, None
    return t


def kept(st) -> dict:
    """A copy of `st` to keep; at a chance node, without the thread its decision may wait in
    (engine/chance.py): a state taking the copy runs the decision again, as the rules would,
    and what is kept holds no thread."""
    out = clone(st)
    node = out["flow"].get("node")
    if node is not None:
        out["flow"]["node"] = type(node)(node)
    return out


def _copied(notes):
    """A copy of what the forward model noted of a state (its listing: core/state.Notes)."""
    if notes is NO_NOTES:
        return NO_NOTES
    out = Notes(notes.listing, notes.seat, notes.options)
    out.sim = notes.sim
    return out


def carried(st) -> dict:
    """A copy of `st` (core/state.clone) starting with what the forward model noted of it, which
    holds for the copy as long as it is unchanged (as Game.apply carries it): the first move
    after a clone is then done as a trusted one, nothing listed or verified again."""
    out = clone(st)
    notes = st.get(NOTES, NO_NOTES)
    if notes is not NO_NOTES:
        out[NOTES] = _copied(notes)
    return out


class _Memo:
    """What is known to follow one link (see the module's documentation): `after`, the actions
    played since the link -> the link they lead to, or the state at the chance node they stop at;
    `listing`, the box's listing there once made (its seat, id -> action, ids: never changed);
    `returns`, once asked of a final state; `notes`, what the forward model noted of the state."""

    __slots__ = ("tree", "after", "listing", "returns", "notes")

    def __init__(self, tree: Tree, st):
        self.tree = tree
        self.after: dict = {}
        self.listing = self.returns = None
        self.notes = _copied(st.get(NOTES, NO_NOTES))


def remembered(tree: Tree, link: _Link, st) -> _Link:
    """`link` (whose state is `st`) with a memo of its own while the tree may keep one more."""
    if tree.left > 0:
        tree.left -= 1
        link.memo = _Memo(tree, st)
    return link


class Trail:
    """The history of one state, as links (see the module's documentation); `since`, under a
    memo, the actions played since the last link (a decision stopped at a chance node); `moves`,
    the forward model's moves since the last link (chance outcomes: for the next lazy link);
    `pending`, the lazy links pushed since the last one made, not made yet (None, or (pending
    before, their moves)): a move costs a tuple, and its link is made only when somebody folds
    the trail, copies it (so that a state and its clones share their links) or pushes a link
    holding a state (`settle`). A random game or a rollout that nobody asks anything makes none."""

    __slots__ = ("last", "since", "moves", "pending")

    def __init__(self, seats: int, first=None):
        self.last = _Link(None, clone(first) if first is not None else None, seats)
        self.since = self.moves = ()
        self.pending = None

    def copy(self) -> "Trail":
        if self.pending is not None:
            self.settle()
        t = Trail.__new__(Trail)
        t.last = self.last  # links never change but to fill in what they computed: shared
        t.since, t.moves, t.pending = self.since, self.moves, None
        return t

    def settle(self) -> None:
        """Make the lazy links pushed and not made yet (`pending`), oldest first."""
        groups = []
        pending = self.pending
        while pending is not None:
            pending, moves = pending
            groups.append(moves)
        link = self.last
        seats = len(link.digests)
        for moves in reversed(groups):
            link = _Link(link, None, seats, moves)
        self.last, self.pending = link, None

    def __deepcopy__(self, memo):
        return self.copy()

    def __reduce__(self):
        """Pickled as its links oldest first (a list: a long game's chain would go past pickle's
        recursion limit), each without its memo (what a search learnt under a state drawn twice,
        learnt again if asked)."""
        if self.pending is not None:
            self.settle()
        links, link = [], self.last
        while link is not None:
            links.append((link.st, link.digests, link.texts, link.moves))
            link = link.before
        links.reverse()
        return _trail_of, (links, self.since, self.moves)

    def push(self, st, action=None, move=None) -> None:
        """Note the state after a decision (chance events resolved), `action` its last move and
        `move` the forward model's (action, checked) for it: a lazy link (no copy) where the state
        stands at a decision and no memo is kept, else a link holding a copy."""
        before = self.last
        memo = before.memo
        if memo is None and move is not None and st["flow"].get("node") is None:
            self.pending = (self.pending, self.moves + (move,))  # a lazy link, made when needed
            self.moves = ()
            return
        if self.pending is not None:
            self.settle()
            before = self.last
        self.last = link = _Link(before, kept(st), len(before.digests))
        self.moves = ()
        if memo is not None:
            memo.after[self.since + (action,)] = remembered(memo.tree, link, st)
            self.since = ()

    def stopped(self, st, action, move=None) -> None:
        """Note the state stopped at a chance node by `action` (`move`, the forward model's)."""
        if move is not None:
            self.moves += (move,)
        memo = self.last.memo
        if memo is not None:
            self.since = key = self.since + (action,)
            if memo.tree.left > 0:
                memo.tree.left -= 1
                memo.after[key] = kept(st)

    def recall(self, action):
        """Under a memo, what `action` leads to when it is known: (a copy of the state, the listing
        made there or None), the trail moved on; else None."""
        memo = self.last.memo
        key = self.since + (action,)
        known = memo.after.get(key)
        if known is None:
            return None
        if type(known) is dict:  # a state at a chance node, on the way
            self.since = key
            return clone(known), None
        self.last, self.since = known, ()
        st = clone(known.st)
        memo = known.memo
        if memo is None:
            return st, None
        st[NOTES] = _copied(memo.notes)
        return st, memo.listing

    @classmethod
    def at(cls, link: _Link) -> "Trail":
        """The trail of a state standing at `link` (a state drawn again: resample_from_infostate)."""
        t = cls.__new__(cls)
        t.last, t.since, t.moves, t.pending = link, (), (), None
        return t

    def fold(self, seat: int, view_text, *, current=None, replay=None) -> tuple[str, str]:
        """(the seat's information-state string at the last link: its view, then `history` and its
        digest; the digest): `view_text(st, seat)` writes a view;
        `current`, the state itself when it still stands at the last link (a lazy last link takes
        a copy of it); `replay(st, moves)` plays a lazy link's moves on a copy of the state before."""
        if self.pending is not None:
            self.settle()
        path = []
        link = self.last
        while link is not None and link.digests[seat] is None:
            path.append(link)
            link = link.before
        d = link.digests[seat] if link is not None else ""
        last = self.last
        for link in reversed(path):
            st = link.st
            if st is None:
                if link is last and current is not None and not self.moves:
                    st = clone(current)
                else:  # passed without being asked: played again from the state before it
                    st = clone(link.before.st)
                    replay(st, link.moves)
                    st = kept(st)
                link.st, link.moves = st, None
            text = view_text(st, seat)
            d = link.digests[seat] = chain(d, text)
            if link is last:
                last.texts[seat] = f"{text}\nhistory {d}"
            if None not in link.digests:  # folded for every seat: nothing before it is needed
                link.before = None  # (its state stays: a lazy link after it is played from there)
        info = last.texts[seat]
        if info is None:  # folded on the way to a later link: its view not kept then
            info = last.texts[seat] = f"{view_text(last.st, seat)}\nhistory {last.digests[seat]}"
        return info, last.digests[seat]

    def sampled_start(self, digest: str) -> _Link:
        """The link every trail `rooted` for states sampled from this one's seat starts from: the
        seat's history is its own (`digest`); every other seat's is unknown to it, so each starts
        from the seat's digest (never from what they really saw). Folded for every seat: shared."""
        n = len(self.last.digests)
        start = _Link(None, None, n)
        start.digests = [chain(digest, f"seat {s}") for s in range(n)]
        return start

    @staticmethod
    def rooted(start: _Link, seat: int, st, info: str, digest: str) -> "Trail":
        """A trail for `st`, a state sampled from `seat`'s information state (resample_from_infostate),
        from `start` (sampled_start): the seat's information state (`info`, its string, and its
        digest) is its own, every other seat folds its view of `st` on from its start."""
        t = Trail(len(start.digests), st)
        t.last.before = start
        t.last.digests[seat], t.last.texts[seat] = digest, info
        return t


__all__ = ["Trail", "Tree", "carried", "chain", "kept", "remembered"]
