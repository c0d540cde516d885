"""What the code generator knows of an expression at load time (a part of ExprCodegen, codegen.py),
asked of the analysis: whole numbers it can fold (analysis.Statics), the kind of value an
expression gives (kindfacts.Kinds: a zone, a card, a player, a number: its attributes are then read
without type tests); written from those: the numbers of a `range(a, b)` with known bounds (a loop
goes through them as constants), which expressions read a loop's variable, arithmetic of known
numbers (an operand evaluated once, identities such as x * 1 folded).
"""
from __future__ import annotations

from dataclasses import KW_ONLY, dataclass

from .analysis import Statics, facts
from .kindfacts import Kinds, _with_entry
from .scope import _MISS, Arg

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
    """The kinds of expressions and their values known at load time, asked of the analysis
    (kindfacts.Kinds, analysis.Statics) by the ExprCodegen `g` (one match)."""

    def __init__(self, g):
        self.g, self.c, self.symbols = g, g.c, g.symbols
        self.statics = Statics(g.symbols)
        self.kinds = Kinds(g.symbols, self.statics, g.c.string)
        k = self.kinds  # the kinds are facts of the analysis (kindfacts.py), asked here
        self.kind_of, self.bounds, self.elem_kind, self.cell_shift = k.kind_of, k.bounds, k.elem_kind, k.cell_shift
        self.kind_of_value, self.in_ints = k.kind_of_value, k.in_ints

    def static_int(self, node, scope):
        return self.statics.static_int(node, scope)

    def static_value(self, node, scope):
        return self.statics.static_value(node, scope)

    def coll(self, node, scope):
        """The text of a collection a loop goes through, or a Range when it is `range(a, b)`
        with bounds known at load time (the loop then goes through constant numbers)."""
        r = self.static_range(node, scope)
        return r if r is not None else self.g.x(node, scope)

    def static_range(self, node, scope):
        """`range(a, b)` with small bounds known at load time, as a Range, else None."""
        r = self.kinds.range_bounds(node, scope)
        return None if r is None else Range(*r, loc=self.c.loc(node, scope))

    def with_kind(self, scope, slot, kind, write):
        """`write()` while the local in `slot` holds items of `kind` (a loop's variable): the
        scope says so to the kinds asked meanwhile."""
        return _with_entry(scope.loop_kinds, slot, kind, write)

    def loop_dependent(self, node, scope) -> bool:
        """Whether an expression reads the variable of a loop being written (a slot it binds)."""
        return any((n in scope.slots and scope.slots[n] in scope.loop_kinds)
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

