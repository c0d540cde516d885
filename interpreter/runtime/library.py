"""The built-in attributes and functions of the rules language, and the engine's own events.

Everything here is generic: cards, zones (board cells included) and players, collections, the
board graph, chance. Content refers to them by name (`cell.row`, `neighbors(c, "orthogonal")`,
`roll(4)`); the compiler resolves the names once, at load time.
"""
from __future__ import annotations

from itertools import chain

from .results import score_of, winners
from . import context as rt
from ..limits import size_failed, spend_failed
from ..core.model import Card, Zone, label_of
from .visibility import visible_keys
from .ops import _sort_key
from .walks import Walks, walks_of

_chain = chain.from_iterable  # the items of each iterable of one, in order


def _zone_of_card(ctx, o):
    z = ctx.st["loc"][o.id]
    return ctx.m.zones[z] if z >= 0 else None


def _cell_of_card(ctx, o):
    z = _zone_of_card(ctx, o)
    return z if z is not None and z.is_cell else None


_CARD_ATTRS = {
    "name": lambda ctx, o: o.name,
    "key": lambda ctx, o: o.key,
    "owner": lambda ctx, o: o.owner,
    "zone": _zone_of_card,
    "cell": _cell_of_card,
    "id": lambda ctx, o: o.id,
}


# The same attributes as Python text for the code generator (dsl/codegen.py), `{o}` standing for
# the object (a local name of the generated code): what it writes in place of a call.
CARD_ATTR_TEXT = {"name": "{o}.name", "key": "{o}.key", "owner": "{o}.owner", "id": "{o}.id",
                  "zone": "(_ZONES[{t}] if ({t} := ctx.st['loc'][{o}.id]) >= 0 else None)",
                  "cell": "(_ZONES[{t}] if ({t} := ctx.st['loc'][{o}.id]) >= 0 and _ZONES[{t}].is_cell else None)"}


def _zone_cards(ctx, z):
    cards = ctx.m.cards
    return [cards[i] for i in ctx.st["z"][z.id]]


def _zone_card(ctx, z):
    ids = ctx.st["z"][z.id]
    return ctx.m.cards[ids[0]] if ids else None


_ZONE_ATTRS = {
    "cards": _zone_cards,
    "card": _zone_card,
    "top": _zone_card,
    "count": lambda ctx, z: len(ctx.st["z"][z.id]),
    "empty": lambda ctx, z: not ctx.st["z"][z.id],
    "full": lambda ctx, z: z.capacity is not None and len(ctx.st["z"][z.id]) >= z.capacity,
    "capacity": lambda ctx, z: z.capacity,
    "owner": lambda ctx, z: z.owner,
    "name": lambda ctx, z: z.name,
    "key": lambda ctx, z: z.key,
    "id": lambda ctx, z: z.id,
    "neighbors": lambda ctx, z: ctx.m.neighbors.get((z.id, None), []),
}

ZONE_ATTR_TEXT = {
    "cards": "_list(_map(_CARD_AT, ctx.st['z'][{o}.id]))",
    "card": "(_CARDS[{t}[0]] if ({t} := ctx.st['z'][{o}.id]) else None)",
    "top": "(_CARDS[{t}[0]] if ({t} := ctx.st['z'][{o}.id]) else None)",
    "count": "_len(ctx.st['z'][{o}.id])",
    "empty": "(not ctx.st['z'][{o}.id])",
    "full": "(({t} := {o}).capacity is not None and _len(ctx.st['z'][{t}.id]) >= {t}.capacity)",
    "capacity": "{o}.capacity", "owner": "{o}.owner", "name": "{o}.name", "key": "{o}.key", "id": "{o}.id",
}

_SEAT_ATTRS = {
    "name": lambda ctx, s: s.name,
    "key": lambda ctx, s: s.key,
    "index": lambda ctx, s: s.id + 1,
    "id": lambda ctx, s: s.id,
    "next": lambda ctx, s: ctx.m.seats[(s.id + 1) % len(ctx.m.seats)],
    "previous": lambda ctx, s: ctx.m.seats[(s.id - 1) % len(ctx.m.seats)],
}


SEAT_ATTR_TEXT = {"name": "{o}.name", "key": "{o}.key", "index": "({o}.id + 1)", "id": "{o}.id"}


def _cell(ctx, row, column):
    return ctx.m.cell_at.get((row, column))


def _row_cells(ctx, row):
    return ctx.m.row_cells.get(row, [])


def _column_cells(ctx, column):
    return ctx.m.column_cells.get(column, [])


def _neighbors(ctx, z, kind=None):
    if type(z) is not Zone:  # a card or a player: its id is no zone's
        Walks._cell(z, "neighbors()")
    return ctx.m.neighbors.get((z.id, kind), [])


def _path(ctx, a, b, kind=None):
    if kind is not None:
        return walks_of(ctx.m).path(a, b, kind)
    Walks._cell(a, "path()"), Walks._cell(b, "path()")  # a zone off the board, a card: the walks' error
    import networkx as nx  # once the board's graph is made (graph.py), already imported
    try:
        ids = nx.shortest_path(ctx.m.graph, a.id, b.id)
    except nx.NetworkXNoPath:
        return []
    return [ctx.m.zones[i] for i in ids]


def _distance(ctx, a, b, kind=None):
    if kind is not None:
        if type(kind) is str and type(a) is Zone and type(b) is Zone:  # an answer kept (Walks.distance's key)
            got = ctx.m.walks._dist.get((a.id, b.id, kind), _UNKNOWN)
            if got is not _UNKNOWN:
                return got
        return walks_of(ctx.m).distance(a, b, kind)
    Walks._cell(a, "distance()"), Walks._cell(b, "distance()")
    import networkx as nx
    try:
        return nx.shortest_path_length(ctx.m.graph, a.id, b.id)
    except nx.NetworkXNoPath:
        return None


def _seats_from(ctx, s, direction=1):
    seats = ctx.m.seats
    n = len(seats)
    return [seats[(s.id + direction * k) % n] for k in range(n)]


def _seat_after(ctx, s, k=1):
    seats = ctx.m.seats
    return seats[(s.id + k) % len(seats)]


def _seat(ctx, i):
    return ctx.m.seats[i - 1]


def _first(ctx, coll):
    if type(coll) is not list:
        coll = _coll(ctx, coll)
    return coll[0] if coll else None


def _last(ctx, coll):
    coll = _coll(ctx, coll)
    return coll[-1] if coll else None


def _coll(ctx, v):
    if type(v) is Zone:
        return _zone_cards(ctx, v)
    return v or []


def _sorted(ctx, coll, desc=False):
    coll = _coll(ctx, coll)
    for v in coll:  # numbers only (points, steps): their own order is the one `_sort_key` gives them
        if type(v) is not int:
            return sorted(coll, key=_sort_key, reverse=bool(desc))
    return sorted(coll, reverse=bool(desc))


def _index_of(ctx, coll, x):
    coll = _coll(ctx, coll)
    return coll.index(x) if x in coll else None


def _roll(ctx, n, sides=6):
    return rt.roll(ctx, n, sides)


def _random(ctx, n):
    return rt.random_below(ctx, n)


def _find(ctx, where, name):
    """The first card of a zone (or a list) whose definition is `name`, or none."""
    cards = ctx.m.cards
    if type(where) is Zone:
        for i in ctx.st["z"][where.id]:
            if cards[i].name == name:
                return cards[i]
        return None
    for c in where or ():
        if type(c) is Card and c.name == name:
            return c
    return None


class CellRun:
    """A list of board cells that a definition keeps (`tagged_cells`) whose ids follow each other
    (the definition's `tagged_runs`, built with it): `contents` reads their tuples at once, by a
    slice. It keeps one answer: the cards it last found, with the tuples they came from. That is a
    function of those tuples alone, the same in any state that holds them; a move elsewhere on the
    board (most moves) leaves them as they were, and the cards are not listed again."""

    __slots__ = ("zones", "first", "stop", "seen", "cards")

    def __init__(self, zones: list, first: int, stop: int):
        self.zones, self.first, self.stop = zones, first, stop
        self.seen = self.cards = None


def _contents(ctx, zones):
    """Every card in a list of zones, zone by zone, in order (for effects, a list of their own).
    For a list of cells in a row of ids (a CellRun), see CellRun. For any other list, while the
    state cannot change (ctx.memo: a listing), the cards are found once: the memo holds the list (so
    that its id names no other list meanwhile) with its cards."""
    run = ctx.m.tagged_runs.get(id(zones))
    if run is not None and run.zones is zones:
        now = ctx.st["z"][run.first:run.stop]
        if now == run.seen:
            out = run.cards
        else:
            out = [*map(ctx.m.cards.__getitem__, _chain(now))]
            run.seen, run.cards = now, out
        return out if ctx.memo is not None else list(out)
    memo = ctx.memo
    if memo is not None:
        key = (_contents, id(zones))
        kept = memo.get(key)
        if kept is not None and kept[0] is zones:
            return kept[1]
    for z in zones:
        if type(z) is not Zone:  # a card or a player: its id is no zone's
            raise rt.RuleRuntimeError(f"contents() needs a list of zones, not one holding {z!r}")
    cards = ctx.m.cards
    zl = ctx.st["z"]
    out = [cards[i] for z in zones for i in zl[z.id]]
    if memo is not None:
        memo[key] = (zones, out)
    return out


def _tagged_cells(ctx, tag):
    """The board cells carrying a tag (the definition's list, built with it)."""
    return ctx.m.tagged_cells(tag)


# built-ins whose value depends on the match and their arguments alone, never on the state, and
# which spend no budget: with text arguments written in the rules, a constant of the match (codegen)
OF_THE_MATCH = frozenset({_tagged_cells})


def _chosen_shuffle(ctx, coll):
    items = list(_coll(ctx, coll))
    from .draws import shuffle_list
    shuffle_list(ctx, items, "a list")
    return items


def _range(ctx, lo, hi):
    """range(a, b): a, a + 1, ..., b, both ends included; [] if b < a. Always two arguments:
    a one-argument range could start at 0 or at 1, and that hides off-by-one errors.
    The limits of rt.check_size and rt.spend, written here: the text of an error is made only
    when it is raised."""
    n = hi - lo + 1
    if n > ctx.m.limits.collection:
        size_failed(ctx, None, f"range({lo:,}, {hi:,})", n)
    ctx.budget = b = ctx.budget - (n if n > 0 else 0)
    if b < 0:
        spend_failed(ctx, None, "range")
    return list(range(lo, hi + 1))


def _take(ctx, coll, n):
    return list(_coll(ctx, coll))[:n]


def _walk(ctx, z, k, kind):
    """The cell k steps from z along kind (Walks.walk), an answer kept found at once."""
    walks = ctx.m.walks
    if type(kind) is str and type(z) is Zone:
        got = walks._walk.get((z.id, k, kind), _UNKNOWN)  # Walks.walk's key
        if got is not _UNKNOWN:
            return got
    return walks.walk(z, k, kind)


_UNKNOWN = object()  # no answer kept


def _drop(ctx, coll, n):
    if type(coll) is list:  # the frequent case: a slice is a new list already
        return coll[n:]
    return list(_coll(ctx, coll))[n:]


def _flatten(ctx, lists):
    """The items of each list of `lists`, in order (none, or an empty one, holds nothing)."""
    if type(lists) is list:
        try:  # at once when every item can be gone through (the frequent case: lists)
            return [*_chain(lists)]
        except TypeError:
            pass
    return [x for l in (lists or []) for x in (l or [])]


def _without(ctx, coll, x):
    x = x if isinstance(x, list) else [x]
    return [v for v in _coll(ctx, coll) if v not in x]


def _length(ctx, coll):
    return len(coll) if type(coll) is list else len(_coll(ctx, coll))


def _zone_named(ctx, name):
    return ctx.m.zone_by_name.get(name)


def _card_named(ctx, key):
    return ctx.m.card_by_key.get(key)


def _sees(ctx, p, card):
    """Whether seat `p` may see `card` now: what p's view shows (views.py), for scenarios and rules."""
    if p is None or type(card) is not Card:
        return False
    return card.key in visible_keys(ctx.m, ctx.st, p.id)


_BUILTINS = {
    "cell": (_cell, (2,)),
    "row_cells": (_row_cells, (1,)),
    "column_cells": (_column_cells, (1,)),
    "neighbors": (_neighbors, (1, 2)),
    "path": (_path, (2, 3)),
    "distance": (_distance, (2, 3)),
    "walk": (_walk, (3,)),
    "walk_path": (lambda ctx, z, k, kind: list(walks_of(ctx.m).trail(z, k, kind)), (3,)),
    "within": (lambda ctx, z, k, kind: list(walks_of(ctx.m).within(z, k, kind)), (3,)),
    "seats_from": (_seats_from, (1, 2)),
    "seat_after": (_seat_after, (1, 2)),
    "seat": (_seat, (1,)),
    "first": (_first, (1,)),
    "last": (_last, (1,)),
    "sorted": (_sorted, (1, 2)),
    "reversed": (lambda ctx, c: list(reversed(_coll(ctx, c))), (1,)),
    "index_of": (_index_of, (2,)),
    "roll": (_roll, (1, 2)),
    "random": (_random, (1,)),
    "shuffled": (_chosen_shuffle, (1,)),
    "range": (_range, (2,)),
    "take": (_take, (2,)),
    "drop": (_drop, (2,)),
    "without": (_without, (2,)),
    "length": (_length, (1,)),
    "abs": (lambda ctx, v: abs(v or 0), (1,)),
    "zone_named": (_zone_named, (1,)),
    "card_named": (_card_named, (1,)),
    "cards_in": (lambda ctx, z: _zone_cards(ctx, z), (1,)),
    "flatten": (_flatten, (1,)),
    "text": (lambda ctx, *parts: "".join([p if type(p) is str else label_of(p) for p in parts]), None),
    "score_of": (lambda ctx, p: score_of(ctx.m, ctx.st, p), (1,)),
    "is_winner": (lambda ctx, p: p is not None and p.id in winners(ctx.m, ctx.st), (1,)),
    "tagged_cells": (_tagged_cells, (1,)),
    "find": (_find, (2,)),
    "contents": (_contents, (1,)),
    "sees": (_sees, (2,)),
}

# events the engine emits by itself
_ENGINE_EVENTS = {
    "turn_start": ["player"],
    "turn_end": ["player"],
    "round_start": [],
    "round_end": [],
    "entered": ["card", "zone"],  # a card arrives in a zone (any move, swap or cycle); no choice allowed
}
