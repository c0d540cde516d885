"""The kinds of expressions: what an expression gives, when known at load time (a zone, a cell of
the grid, a card, a player, a whole number within known bounds, a list of numbers), a fact of the
analysis asked with the scope, as its values known at load time are (analysis.Statics, whose memo
it shares). The scope says what its names hold: the kinds of the parameters bound from their
domains (`scope.kinds`), of the variables of the loops being written (`scope.loop_kinds`, each the
kind of its collection's items: `elem_kind`), of the names written in place (scope.Arg).

The code generator (codegen.py, through known.py) asks these kinds and writes attributes and
arithmetic without type tests where they are known; it computes none of them.
"""
from __future__ import annotations

from dataclasses import dataclass

from ..core.model import Card, Seat, Zone
from ..runtime.ops import _NUMBER
from . import ast as A
from .scope import _MISS, Arg, Scope


@dataclass(frozen=True)
class Ints:
    """The kind of a whole number (`n` None) or of a list of at least `n` whole numbers, those
    numbers known at load time to lie in lo..hi when `lo` and `hi` are given (else unknown)."""
    lo: int | None = None
    hi: int | None = None
    n: int | None = None


INT = Ints()  # a whole number
_ASKING = -1  # the slot of a list's variable while the kind of its items is asked from outside it (no frame has it)


def whole(kind) -> bool:
    """Whether a kind is a whole number's (within the cap on numbers, or a rule error)."""
    return type(kind) is Ints and kind.n is None


def bounded(kind) -> bool:
    """Whether a kind is a whole number's with its least and greatest values known at load time."""
    return whole(kind) and kind.lo is not None


def _interval(op, a, b):
    """The bounds of `x op y` for x in a = (lo, hi), y in b, or None when not known (a division
    by a number that may be 0 or negative)."""
    if op == "+":
        return a[0] + b[0], a[1] + b[1]
    if op == "-":
        return a[0] - b[1], a[1] - b[0]
    if op == "*":
        ends = [x * y for x in a for y in b]
        return min(ends), max(ends)
    if b[0] > 0 and op in ("/", "//"):  # floor division by a positive number: its extremes at the ends
        ends = [x // y for x in a for y in b]
        return min(ends), max(ends)
    if b[0] > 0 and op == "%":
        return 0, b[1] - 1
    return None



class Kinds:
    """The kinds of the expressions of one match, of its `symbols`, asked through `statics`' memo;
    `string(token)`: the text of a string literal (the compiler's)."""

    def __init__(self, symbols, statics, string):
        self.symbols, self.statics, self.string = symbols, statics, string
        self._cell_kinds = {}

    def kind_of(self, node, scope):
        """See `_kind_of`."""
        return self.statics.asked(self._kind_of, node, scope)

    def static_int(self, node, scope):
        return self.statics.static_int(node, scope)

    def bounds(self, node, scope):
        """(lo, hi): the least and greatest whole number an expression can give, when known at
        load time (a constant, a cell's row or column, a constant range's or list's item,
        arithmetic of those); else None."""
        v = self.static_int(node, scope)
        if v is not None:
            return v, v
        k = self.kind_of(node, scope)
        return (k.lo, k.hi) if bounded(k) else None

    def _cell_bounds(self, name):
        """The kind of a grid cell's `row` or `column`: a number between the least and the greatest."""
        cache = self._cell_kinds
        if name not in cache:
            values = [z.attrs[name] for z in self.symbols.builtin_value("cells")(None)]
            cache[name] = Ints(min(values), max(values)) if values else INT
        return cache[name]

    def _kind_of(self, node, scope):
        """What an expression gives, when known at load time: "zv" a zone or none, "cell" a cell of
        the grid (never none: its row and column are numbers), "cv" a card or none, "card" a card
        (never none: an item of a zone's cards), "pv" a player or none, an Ints: a whole number
        (a loop's variable over a constant range), or a list of at least n whole numbers (an item
        of a constant list of such lists), within bounds when known; else None. Its attributes,
        or its arithmetic, are then written without type tests."""
        t = type(node)
        if t is A.Call:
            fname = str(node.fn)
            if fname in self.symbols.function_defs:  # a small function compiled in place: what its text gives
                inline = self.symbols.inline_body(fname) or self.symbols.inline_body(fname, loops=True)  # what its text gives
                if inline is None or len(inline[1]) != len(node.args):
                    return None
                inner = Scope(src=inline[2])
                inner.inlined = {p: Arg("") for p in inline[1]}
                return self.kind_of(inline[0], inner)
            if fname == "cell" and len(node.args) == 2:
                from ..runtime.library import _cell
                b = self.symbols.builtin_function("cell")
                if b is None or b[0] is not _cell:
                    return None
                shift = self.cell_shift(node.args, scope)
                return "cell" if shift is not None and shift[2] else "zv"  # a cell's own place: the cell
            return None
        if t is A.Attr:
            k = self.kind_of(node.obj, scope)
            name = str(node.name)
            if k == "card":  # a card, never none: what a card's attribute gives
                k = "cv"
            if k == "cell":
                if name in ("row", "column") and name not in self.symbols.vars_of("zv"):
                    return self._cell_bounds(name)  # a cell of the grid (never none) knows its row and column
                k = "zv"
            if k == "zv" and name in ("card", "top") and name not in self.symbols.vars_of("zv"):
                return "cv"
            if k in ("zv", "cv") and name == "owner" and name not in self.symbols.vars_of(k):
                return "pv"
            if k == "cv" and name in ("zone", "cell"):
                return "zv"
            if k is None and type(node.obj) is A.Name and str(node.obj.name) == "me" and "me" not in scope.slots \
                    and "me" not in scope.inlined and "me" not in scope.bound:
                k = "pv"  # the player deciding, or none (an attribute of none is none)
            if k == "pv" and name in self.symbols.player_zones and name not in self.symbols.vars_of("pv") \
                    and name not in ("name", "key", "index", "id", "next", "previous"):
                return "zv"
            return None
        if t is A.BinOp:  # whole numbers give a whole number (or a rule error)
            sides = (node.left, node.right)
            if not all(self.static_int(x, scope) is not None or whole(self.kind_of(x, scope)) for x in sides):
                return None
            a, b = self.bounds(node.left, scope), self.bounds(node.right, scope)
            r = _interval(str(node.op), a, b) if a is not None and b is not None else None
            return Ints(*r) if r is not None and -_NUMBER <= r[0] and r[1] <= _NUMBER else INT
        if t is A.Neg:  # the opposite of a number: within the same cap
            k = self.kind_of(node.operand, scope)
            return Ints(-k.hi, -k.lo) if bounded(k) else k if whole(k) else None
        if t is A.Index:
            k, i = self.kind_of(node.obj, scope), self.static_int(node.key, scope)
            if not self.in_ints(k, i):
                return None
            return Ints(k.lo, k.hi)
        if t is A.Name:
            name = str(node.name)
            if name in scope.inlined:
                v = scope.inlined[name]
                return self.kind_of_value(v.value) if v.value is not _MISS else v.kind
            if name in scope.slots:
                slot = scope.slots[name]
                k = scope.loop_kinds.get(slot)
                return k if k is not None else scope.kinds.get(slot)
            v = scope.bound[name] if name in scope.bound else None
            if v is None and name not in self.symbols.gvars and name != "me":
                v = self.symbols.constant(name)
            return {Zone: "zv", Card: "cv", Seat: "pv"}.get(type(v))
        return None

    def range_bounds(self, node, scope):
        """(lo, hi) of `range(lo, hi)` (the built-in) with small bounds known at load time, else None."""
        from ..runtime.library import _range
        if type(node) is A.Call and str(node.fn) == "range" and len(node.args) == 2 \
                and "range" not in self.symbols.function_defs and self.symbols.builtin_function("range") == (_range, (2,)):
            lo, hi = self.static_int(node.args[0], scope), self.static_int(node.args[1], scope)
            if lo is not None and hi is not None and hi - lo + 1 <= min(self.symbols.limits.collection, 64):
                return lo, hi
        return None

    def linear(self, node, scope):
        """(the name of a cell, its attribute `row` or `column`, k) when `node` is that attribute
        plus a number k known at load time (`c.row + 2`, `c.column - 1`, `c.row`), the name's
        value a cell of the grid (never none); else None."""
        t = type(node)
        if t is A.Attr and str(node.name) in ("row", "column") and type(node.obj) is A.Name \
                and self.kind_of(node.obj, scope) == "cell" and whole(self.kind_of(node, scope)):
            return node.obj, str(node.name), 0
        if t is A.BinOp and str(node.op) in ("+", "-"):
            sb = self.static_int(node.right, scope)
            if sb is not None:
                lin = self.linear(node.left, scope)
                return None if lin is None else (lin[0], lin[1], lin[2] + sb if str(node.op) == "+" else lin[2] - sb)
            sa = self.static_int(node.left, scope)
            if sa is not None and str(node.op) == "+":
                lin = self.linear(node.right, scope)
                return None if lin is None else (lin[0], lin[1], lin[2] + sa)
        return None

    def cell_shift(self, argnodes, scope):
        """(the name of the cell c, table by zone id, whether each cell is its own entry) of
        `cell(c.row + i, c.column + j)` with i, j known at load time and c a cell of the grid,
        else None."""
        a, b = (self.linear(x, scope) for x in argnodes)
        if a is None or b is None or str(a[0].name) != str(b[0].name):
            return None
        m = self.symbols
        table = [None] * len(m.zones)
        cells = m.builtin_value("cells")(None)
        for z in cells:
            table[z.id] = m.cell_at.get((z.attrs[a[1]] + a[2], z.attrs[b[1]] + b[2]))
        return a[0], tuple(table), all(table[z.id] is z for z in cells)

    def elem_kind(self, node, scope):
        """The kind (see `kind_of`) of every item of a collection, when known at load time: the
        numbers of a Range, the board's cells, the players, cards, a zone's cards."""
        t = type(node)
        if t is A.Call and str(node.fn) == "range":  # the built-in gives whole numbers (or fails)
            from ..runtime.library import _range
            known = "range" not in self.symbols.function_defs and self.symbols.builtin_function("range") == (_range, (2,))
            if not (known and len(node.args) == 2):
                return None
            r = self.range_bounds(node, scope)
            return Ints(*r) if r is not None else INT
        if t is A.Call and str(node.fn) == "contents" and "contents" not in self.symbols.function_defs:
            from ..runtime.library import _contents
            b = self.symbols.builtin_function("contents")
            return "card" if b is not None and b[0] is _contents else None  # the cards of zones: cards
        if t is A.Call and str(node.fn) in ("row_cells", "column_cells") and str(node.fn) not in self.symbols.function_defs:
            from ..runtime.library import _column_cells, _row_cells
            b = self.symbols.builtin_function(str(node.fn))
            if b is not None and b[0] in (_row_cells, _column_cells):  # some of the board's cells
                return self._cells_kind()
            return None
        if t is A.Call and str(node.fn) not in self.symbols.function_defs and all(type(a) is A.Str for a in node.args):
            return self._match_items_kind(node)
        if t is A.Call and str(node.fn) in self.symbols.function_defs:  # compiled in place: what its text gives
            inline = self.symbols.inline_body(str(node.fn)) or self.symbols.inline_body(str(node.fn), loops=True)
            if inline is None or len(inline[1]) != len(node.args):
                return None
            inner = Scope(src=inline[2])
            inner.inlined = {p: Arg("") for p in inline[1]}
            return self.elem_kind(inline[0], inner)
        if t is A.Where:
            return self.elem_kind(node.coll, scope)
        if t is A.ListFor:  # [VALUE for VAR in ITEMS]: what VALUE gives
            name = str(node.var)
            slot = scope.slots.get(name)
            if slot is None:  # asked from outside the list (a `where` over it): VAR given a slot of its own while asked
                if name in scope.inlined or name in scope.bound:
                    return None
                slot = _ASKING
                return _with_entry(scope.slots, name, slot, lambda: _with_entry(
                    scope.loop_kinds, slot, self.elem_kind(node.coll, scope), lambda: self.kind_of(node.value, scope)))
            return _with_entry(scope.loop_kinds, slot, self.elem_kind(node.coll, scope), lambda: self.kind_of(node.value, scope))
        if t is A.Attr and str(node.name) == "cards" and self.kind_of(node.obj, scope) in ("zv", "cell") \
                and "cards" not in self.symbols.vars_of("zv"):
            return "card"
        if t is A.Name:
            name = str(node.name)
            if name in scope.slots or name in scope.inlined or name in scope.bound or name in self.symbols.gvars:
                return None
            v = self.symbols.constant(name)
            if v is not _MISS:  # a constant list of lists of whole numbers: Ints(n=N), N the shortest
                if type(v) is list and v and all(type(x) is list and all(type(i) is int for i in x) for x in v):
                    items = [i for x in v for i in x] or [0]
                    return Ints(min(items), max(items), min(len(x) for x in v))
                return None
            if name == "cells":
                return self._cells_kind()
            return {"players": "pv", "cards": "card"}.get(name)
        return None

    def _match_items_kind(self, node):
        """The kind of the items of a built-in's value that is a constant of the match (codegen
        computes it at load time: `tagged_cells("t")`): "cell" when all are cells of the grid,
        "card" when all are cards; else None."""
        from ..runtime import context as rt
        from ..runtime.library import OF_THE_MATCH
        b = self.symbols.builtin_function(str(node.fn))
        if b is None or b[0] not in OF_THE_MATCH or (b[1] is not None and len(node.args) not in b[1]):
            return None
        v = b[0](rt.Ctx({}, self.symbols), *[self.string(a.token) for a in node.args])
        if type(v) is not list or not v:
            return None
        if all(type(i) is Card for i in v):
            return "card"
        if self._cells_kind() == "cell":
            grid = {id(z) for z in self.symbols.builtin_value("cells")(None)}
            if all(type(i) is Zone and id(i) in grid for i in v):
                return "cell"
        return None

    def _cells_kind(self):
        """The kind of the board's cells: "cell" when each has a whole row and column, else "zv"."""
        cells = self.symbols.builtin_value("cells")(None)
        grid = all(type(z.attrs.get("row")) is int and type(z.attrs.get("column")) is int for z in cells)
        return "cell" if grid else "zv"

    @staticmethod
    def kind_of_value(v):
        """The kind (see `kind_of`) of a value known at load time."""
        if type(v) is int:
            return Ints(v, v) if -_NUMBER <= v <= _NUMBER else None
        if type(v) is list and v and all(type(i) is int for i in v):
            return Ints(min(v), max(v), len(v))
        return {Zone: "zv", Card: "cv", Seat: "pv"}.get(type(v))

    @staticmethod
    def in_ints(kind, i) -> bool:
        """Whether item i (known at load time) of a list of kind Ints(n=N) is there: a number."""
        if i is None or type(kind) is not Ints or kind.n is None:
            return False
        return -kind.n <= i < kind.n



def _with_entry(table: dict, key, value, write):
    """`write()` while `table[key]` is `value`; the entry as it was afterwards."""
    saved = table.get(key, _MISS)
    table[key] = value
    try:
        return write()
    finally:
        if saved is _MISS:
            del table[key]
        else:
            table[key] = saved
