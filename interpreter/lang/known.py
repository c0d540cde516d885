"""What the code generator knows of an expression at load time (a part of ExprCodegen, codegen.py):
whole numbers it can fold, the kind of value an expression gives (a zone, a card, a player, a
number: its attributes are then read without type tests), the numbers of a `range(a, b)` with
known bounds (a loop goes through them as constants), and which expressions read a loop's variable;
arithmetic of known numbers (an operand evaluated once, identities such as x * 1 folded).
"""
from __future__ import annotations

from dataclasses import KW_ONLY, dataclass

from ..core.model import Card, Seat, Zone
from . import ast as A
from .analysis import Statics, facts
from ..runtime.ops import _NUMBER
from .scope import _MISS, Arg, Scope




class _IntKind(str):
    """The kind "int" (or "ints:N") whose numbers are known at load time to lie in lo..hi: an
    expression of this kind equals "int" ("ints:N") and carries its bounds."""

    def __new__(cls, lo: int, hi: int, base: str = "int"):
        k = super().__new__(cls, base)
        k.lo, k.hi = lo, hi
        return k


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


_NO_ARG = Arg("")  # a name not written in place


@dataclass(frozen=True)
class Consts:
    """The items of a constant list a loop goes through, written out (see Loops._loop)."""
    items: tuple


@dataclass(frozen=True)
class Range:
    """A `range(lo, hi)` known at load time, as a loop's collection; `loc` its position."""
    lo: int
    hi: int
    _: KW_ONLY
    loc: object


class Known:
    """The kinds of expressions, asked by the ExprCodegen `g` (one match), and their values known
    at load time (asked of the analysis: analysis.Statics)."""

    def __init__(self, g):
        self.g, self.c, self.symbols = g, g.c, g.symbols
        self.statics = Statics(g.symbols)
        self._cell_kinds = {}

    def static_int(self, node, scope):
        return self.statics.static_int(node, scope)

    def static_value(self, node, scope):
        return self.statics.static_value(node, scope)

    def kind_of(self, node, scope):
        return self.statics.asked(self._kind_of, node, scope)

    def bounds(self, node, scope):
        """(lo, hi): the least and greatest whole number an expression can give, when known at
        load time (a constant, a cell's row or column, a constant range's or list's item,
        arithmetic of those); else None."""
        v = self.static_int(node, scope)
        if v is not None:
            return v, v
        k = self.kind_of(node, scope)
        return (k.lo, k.hi) if type(k) is _IntKind and k == "int" else None

    def _cell_bounds(self, name):
        """The kind of a grid cell's `row` or `column`: a number between the least and the greatest."""
        cache = self._cell_kinds
        if name not in cache:
            values = [z.attrs[name] for z in self.symbols.builtin_value("cells")(None)]
            cache[name] = _IntKind(min(values), max(values)) if values else "int"
        return cache[name]

    def _kind_of(self, node, scope):
        """What an expression gives, when known at load time: "zv" a zone or none, "cell" a cell of
        the grid (never none: its row and column are numbers), "cv" a card or none, "card" a card (never none: an item of a zone's cards), "pv" a player
        or none, "int" a whole number (a loop's variable over a constant range), "ints:N" a list
        of at least N whole numbers (an item of a constant list of such lists); else None. Its attributes, or its arithmetic, are then written without type tests."""
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
                shift = self.g.shortcuts.cell_shift(node.args, scope)
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
            if not all(self.static_int(x, scope) is not None or self.kind_of(x, scope) == "int" for x in sides):
                return None
            a, b = self.bounds(node.left, scope), self.bounds(node.right, scope)
            r = _interval(str(node.op), a, b) if a is not None and b is not None else None
            return _IntKind(*r) if r is not None and -_NUMBER <= r[0] and r[1] <= _NUMBER else "int"
        if t is A.Neg:  # the opposite of a number: within the same cap
            k = self.kind_of(node.operand, scope)
            return _IntKind(-k.hi, -k.lo) if type(k) is _IntKind else k if k == "int" else None
        if t is A.Index:
            k, i = self.kind_of(node.obj, scope), self.static_int(node.key, scope)
            if not self.in_ints(k, i):
                return None
            return _IntKind(k.lo, k.hi) if type(k) is _IntKind else "int"
        if t is A.Name:
            name = str(node.name)
            if name in scope.inlined:
                v = scope.inlined[name]
                return self.kind_of_value(v.value) if v.value is not _MISS else v.kind
            if name in scope.slots:
                slot = scope.slots[name]
                k = self.g.slot_kinds.get(slot)
                return k if k is not None else scope.kinds.get(slot)
            v = scope.bound[name] if name in scope.bound else None
            if v is None and name not in self.symbols.gvars and name != "me":
                v = self.symbols.constant(name)
            return {Zone: "zv", Card: "cv", Seat: "pv"}.get(type(v))
        return None

    def coll(self, node, scope):
        """The text of a collection a loop goes through, or a Range when it is `range(a, b)`
        with bounds known at load time (the loop then goes through constant numbers)."""
        r = self.static_range(node, scope)
        return r if r is not None else self.g.x(node, scope)

    def static_range(self, node, scope):
        """`range(a, b)` with small bounds known at load time, as a Range, else None."""
        from ..runtime.library import _range
        if type(node) is A.Call and str(node.fn) == "range" and len(node.args) == 2 \
                and "range" not in self.symbols.function_defs and self.symbols.builtin_function("range") == (_range, (2,)):
            lo, hi = self.static_int(node.args[0], scope), self.static_int(node.args[1], scope)
            if lo is not None and hi is not None and hi - lo + 1 <= min(self.symbols.limits.collection, 64):
                return Range(lo, hi, loc=self.c.loc(node, scope))
        return None

    def elem_kind(self, node, scope):
        """The kind (see `kind_of`) of every item of a collection, when known at load time: the
        numbers of a Range, the board's cells, the players, cards, a zone's cards."""
        t = type(node)
        if t is A.Call and str(node.fn) == "range":  # the built-in gives whole numbers (or fails)
            from ..runtime.library import _range
            known = "range" not in self.symbols.function_defs and self.symbols.builtin_function("range") == (_range, (2,))
            if not (known and len(node.args) == 2):
                return None
            r = self.static_range(node, scope)
            return _IntKind(r.lo, r.hi) if r is not None else "int"
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
            slot = scope.slots.get(str(node.var))
            if slot is None:
                return None
            return self.with_kind(slot, self.elem_kind(node.coll, scope), lambda: self.kind_of(node.value, scope))
        if t is A.Attr and str(node.name) == "cards" and self.kind_of(node.obj, scope) in ("zv", "cell") \
                and "cards" not in self.symbols.vars_of("zv"):
            return "card"
        if t is A.Name:
            name = str(node.name)
            if name in scope.slots or name in scope.inlined or name in scope.bound or name in self.symbols.gvars:
                return None
            v = self.symbols.constant(name)
            if v is not _MISS:  # a constant list of lists of whole numbers: "ints:N", N the shortest
                if type(v) is list and v and all(type(x) is list and all(type(i) is int for i in x) for x in v):
                    items = [i for x in v for i in x] or [0]
                    return _IntKind(min(items), max(items), f"ints:{min(len(x) for x in v)}")
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
        v = b[0](rt.Ctx({}, self.symbols), *[self.c.string(a.token) for a in node.args])
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
            return _IntKind(v, v) if -_NUMBER <= v <= _NUMBER else None
        if type(v) is list and v and all(type(i) is int for i in v):
            return _IntKind(min(v), max(v), f"ints:{len(v)}")
        return {Zone: "zv", Card: "cv", Seat: "pv"}.get(type(v))

    @staticmethod
    def in_ints(kind, i) -> bool:
        """Whether item i (known at load time) of a list of kind "ints:N" is there: a number."""
        if i is None or not isinstance(kind, str) or not kind.startswith("ints:"):
            return False
        n = int(kind[5:])
        return -n <= i < n

    def with_kind(self, slot, kind, write):
        """`write()` while the local in `slot` holds items of `kind` (a loop's variable)."""
        return _with_entry(self.g.slot_kinds, slot, kind, write)

    def loop_dependent(self, node, scope) -> bool:
        """Whether an expression reads the variable of a loop being written (a slot it binds)."""
        return any((n in scope.slots and scope.slots[n] in self.g.slot_kinds)
                   or scope.inlined.get(n, _NO_ARG).value is not _MISS for n in facts(node).names)

    def identity(self, op, a, sa, ia, b, sb, ib):
        """The text of `a op b` when it is one of its operands or 0, both being whole numbers
        (x * 1, x + 0, 0 * x...), else None. A dropped operand is a plain read: nothing is lost."""
        if sa is None and a == "0":
            sa = 0
        if sb is None and b == "0":
            sb = 0
        ka, kb = sa is not None or ia, sb is not None or ib
        if not (ka and kb):
            return None
        if op == "*":
            if (sa == 0 and (sb is not None or self.g.plain(b))) or (sb == 0 and (sa is not None or self.g.plain(a))):
                return self.g.number(0, "0")
            if sa == 1:
                return b
            if sb == 1:
                return a
        if op == "+" and sa == 0:
            return b
        if op in ("+", "-") and sb == 0:
            return a
        return None

    def operand(self, text, static, known_int):
        """(the name of an operand's value, the test that evaluates it once, or None): a number
        known at load time is its literal; a plain read of a number is read again; any other
        operand is kept in a temporary (tested to be a whole number unless known to be one)."""
        if static is not None:
            return self.g.number(static, str(static)), None
        if known_int and self.g.plain(text):
            return text, None
        t = self.g.tmp()
        return t, (f"(({t} := {text}) is not None)" if known_int else f"(_type({t} := {text}) is int)")


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
