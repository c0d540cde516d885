"""What the code generator knows of an expression at load time (a part of ExprCodegen, codegen.py):
whole numbers it can fold, the kind of value an expression gives (a zone, a card, a player, a
number: its attributes are then read without type tests), the numbers of a `range(a, b)` with
known bounds (a loop goes through them as constants), and which expressions read a loop's variable.
"""
from __future__ import annotations

from ..model import Card, Seat, Zone
from . import ast as A
from .analysis import facts
from .ops import _NUMBER
from .scope import _MISS, Scope


class _Text(str):
    """An inlined function's argument: Python text to use in place of its parameter."""


class _Range(tuple):
    """(low, high, position) of a `range(low, high)` known at load time, as a loop's collection."""


class Known:
    def static_int(self, node, scope):
        """The value of an expression that is a whole number known at load time, else None:
        a literal, a constant, or arithmetic of those (folded here, once)."""
        t = type(node)
        if t is A.Num:
            v = node.value
        elif t is A.Name:
            name = str(node.name)
            if (name in scope.inlined or name in scope.slots or name in scope.bound or name == "me"
                    or name in self.m.gvars):
                return None
            v = self.m.constant(name)
            if v is _MISS or type(v) is not int:
                return None
        elif t is A.Neg:
            a = self.static_int(node.operand, scope)
            v = None if a is None else -a
        elif t is A.BinOp:
            a = self.static_int(node.left, scope)
            b = self.static_int(node.right, scope) if a is not None else None
            op = str(node.op)
            if b is None or (op in ("/", "//", "%") and b == 0):
                return None
            v = {"+": a + b, "-": a - b, "*": a * b}.get(op) if op in "+-*" else (a // b if op != "%" else a % b)
        else:
            return None
        return v if v is not None and -_NUMBER <= v <= _NUMBER else None

    def kind_of(self, node, scope):
        """What an expression gives, when known at load time: "zv" a zone or none, "cv" a card or
        none, "pv" a player or none, "int" a whole number (a loop's variable over a constant range);
        else None. Its attributes, or its arithmetic, are then written without type tests."""
        t = type(node)
        if t is A.Call:
            fname = str(node.fn)
            if fname in self.m.function_defs:  # a small function compiled in place: what its text gives
                inline = self.m.inline_body(fname)
                if inline is None or len(inline[1]) != len(node.args):
                    return None
                inner = Scope(src=inline[2])
                inner.inlined = {p: _Text("") for p in inline[1]}
                return self.kind_of(inline[0], inner)
            if fname == "cell" and len(node.args) == 2:
                from ..builtins import _cell
                b = self.m.builtin_function("cell")
                return "zv" if b is not None and b[0] is _cell else None
            return None
        if t is A.Attr:
            k = self.kind_of(node.obj, scope)
            name = str(node.name)
            if k == "zv" and name in ("card", "top") and name not in self.m.vars_of("zv"):
                return "cv"
            if k in ("zv", "cv") and name == "owner" and name not in self.m.vars_of(k):
                return "pv"
            if k == "cv" and name in ("zone", "cell"):
                return "zv"
            if k == "pv" and name in self.m.player_zones and name not in self.m.vars_of("pv") \
                    and name not in ("name", "key", "index", "id", "next", "previous"):
                return "zv"
            return None
        if t is A.Name:
            name = str(node.name)
            if name in scope.inlined:
                return getattr(scope, "inlined_kinds", {}).get(name)
            if name in scope.slots:
                return self.slot_kinds.get(scope.slots[name])
            v = scope.bound[name] if name in scope.bound else None
            if v is None and name not in self.m.gvars and name != "me":
                v = self.m.constant(name)
            return {Zone: "zv", Card: "cv", Seat: "pv"}.get(type(v))
        return None

    def coll(self, node, scope):
        """The text of a collection a loop goes through, or a `_Range` when it is `range(a, b)`
        with bounds known at load time (the loop then goes through constant numbers)."""
        r = self.static_range(node, scope)
        return r if r is not None else self.x(node, scope)

    def static_range(self, node, scope):
        """`range(a, b)` with small bounds known at load time, as a `_Range`, else None."""
        from ..builtins import _range
        if type(node) is A.Call and str(node.fn) == "range" and len(node.args) == 2 \
                and "range" not in self.m.function_defs and self.m.builtin_function("range") == (_range, (2,)):
            lo, hi = self.static_int(node.args[0], scope), self.static_int(node.args[1], scope)
            if lo is not None and hi is not None and hi - lo + 1 <= min(self.m.limits.collection, 64):
                return _Range((lo, hi, self.c.loc(node, scope)))
        return None

    def elem_kind(self, node, scope):
        """The kind (see `kind_of`) of every item of a collection, when known at load time: the
        numbers of a `_Range`, the board's cells, the players, cards, a zone's cards."""
        t = type(node)
        if t is A.Call and str(node.fn) == "range":
            return "int" if self.static_range(node, scope) is not None else None
        if t is A.Where:
            return self.elem_kind(node.coll, scope)
        if t is A.Attr and str(node.name) == "cards" and self.kind_of(node.obj, scope) == "zv" \
                and "cards" not in self.m.vars_of("zv"):
            return "cv"
        if t is A.Name:
            name = str(node.name)
            if (name in scope.slots or name in scope.inlined or name in scope.bound or name in self.m.gvars
                    or self.m.constant(name) is not _MISS):
                return None
            return {"cells": "zv", "players": "pv", "cards": "cv"}.get(name)
        return None

    def _with_kind(self, slot, kind, write):
        """`write()` while the local in `slot` holds items of `kind` (a loop's variable)."""
        saved = self.slot_kinds.get(slot, _MISS)
        self.slot_kinds[slot] = kind
        try:
            return write()
        finally:
            if saved is _MISS:
                del self.slot_kinds[slot]
            else:
                self.slot_kinds[slot] = saved

    def _loop_dependent(self, node, scope) -> bool:
        """Whether an expression reads the variable of a loop being written (a slot it binds)."""
        return any(n in scope.slots and scope.slots[n] in self.slot_kinds for n in facts(node).names)
