"""A game state is plain data (lists, tuples, dicts, ints, texts): the first one, cloning it, its
JSON form, and the few functions that change its shared parts.

Layout: `z` is a list with one tuple of card ids per zone; `cv`, `zv`, `pv` map each variable of
cards, zones and seats to a tuple of values indexed by id. Those tuples are never changed in place:
a change puts a new tuple in their place (`put`, `zone_with`, `zone_without`, runtime.move), so
`clone` shares them and copies only the containers around them (mid-game in the largest bundled
game, 140 cards and 70 zones: 261 references copied instead of 2,313). Everything else (`loc`,
`gv`, `flow`, `used`, `pending`, `forced`) is copied by `clone`. Values are never changed in place
either (`l += [x]` makes a new list). A writer that changed a shared tuple's contents would fail
loudly (tuples have no `append`); one that wrote a list back is caught by tests/test_engine.py.

A state also holds, under `NOTES`, what the forward model worked out about it and may reuse
while it is unchanged (`Notes`: the legal actions the flow listed when it stopped there, the
options of its pending choice). Notes are no part of the state's data: JSON never holds them,
any notes equal any others, a clone starts without them. The forward model keeps them true;
whoever edits a state by hand calls `touch(st)` (or edits it through `set_value`, `set_global`
and `place_card`, which do).
"""
from __future__ import annotations

import json

from .rng import seed_state

_TABLES = ("cv", "zv", "pv")


NOTES = "_notes"  # the key of a state's notes (`Notes`)


class Notes(dict):
    """What the forward model worked out about a state and may reuse while it is unchanged:
    `listing`, the legal actions the flow listed when it stopped there (None: not listed), and
    `seat`, the Seat that decides there; `options`, the decoded options of its pending choice
    (pending entry, values, keys; None: not decoded); `sim`, the legal actions of each seat of
    the simultaneous step it stands in, listed when the step opened (its seats list, {seat id:
    actions}; engine/simultaneous.py). Each state has notes of its own once the
    forward model writes some (`own_notes`), which it then changes in place; until then it shares
    `NO_NOTES`, which nothing changes. Notes equal any notes, so that equality sees only a
    state's data; `to_json` leaves them out, and as a dict without items (their contents are
    attributes) they show as {} to whoever dumps a state otherwise."""

    __slots__ = ("listing", "seat", "options", "sim")

    def __init__(self, listing=None, seat=None, options=None):
        self.listing = listing
        self.seat = seat
        self.options = options
        self.sim = None

    def __eq__(self, other):
        return isinstance(other, Notes)

    def __ne__(self, other):
        return not isinstance(other, Notes)

    __hash__ = None

    def __reduce__(self):  # pickled and copied without what they note (they name live objects)
        return Notes, ()

    def __repr__(self):
        return "Notes()"


NO_NOTES = Notes()


def own_notes(st) -> Notes:
    """The notes of `st` that the forward model may change in place (made on first use)."""
    notes = st.get(NOTES, NO_NOTES)
    if notes is NO_NOTES:
        notes = st[NOTES] = Notes()
    return notes


def touch(st) -> None:
    """Forget what the forward model noted about `st`: call it after editing a state by hand."""
    if NOTES in st:
        st[NOTES] = NO_NOTES


def set_value(st, kind: str, name: str, index: int, value) -> None:
    """Set, by hand, one value of a variable of cards, zones or seats (`kind`: cv, zv or pv)."""
    put(st[kind], name, index, value)
    touch(st)


def set_global(st, name: str, value) -> None:
    """Set, by hand, a game variable."""
    st["gv"][name] = value
    touch(st)


def place_card(st, cid: int, zone: int, top: bool = False) -> None:
    """Move, by hand, card `cid` into zone `zone`, at its top (first) or bottom."""
    here = st["loc"][cid]
    if here >= 0:
        st["z"][here] = zone_without(st["z"][here], cid)
    st["z"][zone] = zone_with(st["z"][zone], cid, top)
    st["loc"][cid] = zone
    touch(st)


def fresh(v):
    """A variable's default as a new value: a list is copied, anything else is immutable."""
    return list(v) if isinstance(v, list) else v


def initial(m, seed: int) -> dict:
    """The state before setup: every card in its starting zone, every variable at its default."""

    def table(default, n):  # a list default is copied per entry; anything else is immutable and shared
        return tuple(list(default) for _ in range(n)) if isinstance(default, list) else (default,) * n

    zl = [[] for _ in m.zones]
    loc = list(m.start_zone)
    for c in m.cards:
        zl[loc[c.id]].append(c.id)
    nc, nz, ns = len(m.cards), len(m.zones), len(m.seats)
    return {
        "z": list(map(tuple, zl)),
        "loc": loc,
        "cv": {k: table(v["default"], nc) for k, v in m.cvars.items()},
        "zv": {k: table(v["default"], nz) for k, v in m.zvars.items()},
        "pv": {k: table(v["default"], ns) for k, v in m.pvars.items()},
        "gv": {k: fresh(v["default"]) for k, v in m.gvars.items()},
        "rng": seed_state(seed),
        "forced": [],
        "flow": {"phase": "setup", "round": 0, "order": [], "pos": 0, "step": 0, "finish": None, "resume": None},
        "used": {},
        "pending": [],
        NOTES: NO_NOTES,
    }


def clone(st: dict) -> dict:
    """A deep copy of a state as far as any writer can tell: the containers that change in place
    are copied, the tuples (zones' contents, variables' tables) and the values are shared. The
    copy has no notes (`Notes`): a caller that keeps it unchanged may carry them over."""
    return {
        "z": st["z"][:],
        "loc": st["loc"][:],
        "cv": st["cv"].copy(),
        "zv": st["zv"].copy(),
        "pv": st["pv"].copy(),
        "gv": st["gv"].copy(),
        "rng": st["rng"],
        "forced": st["forced"][:],
        "flow": st["flow"].copy(),
        "used": st["used"].copy(),
        "pending": st["pending"][:],  # entries are never changed in place
        NOTES: NO_NOTES,
    }


def put(table: dict, name: str, index: int, value) -> None:
    """Set one value of a variable of cards, zones or seats (`table` is st["cv"], ["zv"] or ["pv"]):
    the rules' writer, under the forward model. By hand, `set_value`."""
    values = list(table[name])  # a copy, changed, made a tuple again: as the statements' setter writes it
    values[index] = value
    table[name] = tuple(values)


def zone_with(ids, cid: int, top: bool = False) -> tuple:
    """A zone's card ids with `cid` added at the top (first) or at the bottom."""
    return (cid, *ids) if top else (*ids, cid)


def zone_without(ids, cid: int) -> tuple:
    """A zone's card ids without `cid` (which it holds)."""
    i = ids.index(cid)
    return (*ids[:i], *ids[i + 1:])


def to_json(st: dict) -> str:
    if NOTES in st:  # the data alone: never the notes
        st = dict(st)
        del st[NOTES]
    return json.dumps(st, separators=(",", ":"), sort_keys=True)


def from_json(text: str) -> dict:
    """A state from its JSON text: JSON has lists only, the shared parts become tuples again."""
    st = json.loads(text)
    st[NOTES] = NO_NOTES
    st["z"] = list(map(tuple, st["z"]))
    for kind in _TABLES:
        table = st[kind]
        for name, values in table.items():
            table[name] = tuple(values)
    return st
