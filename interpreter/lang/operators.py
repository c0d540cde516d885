"""Operators in expressions, written as Python (a part of ExprCodegen, codegen.py): the sign, the
arithmetic and comparisons of numbers (folded when known at load, without tests when their kinds
say they are whole numbers within the cap, else checked and sent to the runtime's slow path with
their position), `in`, a tag test, `not`, `and`/`or` (their shared reads: repeated.py) and the
conditional expression.
"""
from __future__ import annotations

from . import ast as A
from ..errors import did_you_mean
from ..runtime.ops import _NUMBER, _arith
from .kindfacts import bounded, whole
from .scope import CompileError

_BINOP_PY = {"+": "+", "-": "-", "*": "*", "/": "//", "//": "//", "%": "%"}
_CMP_PY = {"==": "==", "!=": "!=", "<": "<", "<=": "<=", ">": ">", ">=": ">="}


class Operators:
    """Writes operators for the ExprCodegen `g`."""

    WRITES = {A.Neg: "g_neg", A.BinOp: "g_binop", A.Compare: "g_compare", A.In: "g_in", A.IsTag: "g_is_tag",
              A.Not: "g_not", A.And: "g_and", A.Or: "g_or", A.Ternary: "g_ternary"}

    def __init__(self, g):
        self.g, self.c, self.symbols = g, g.c, g.symbols

    def g_neg(self, node, scope):
        folded = self.g.known.static_int(node, scope)
        if folded is not None:
            return self.g.number(folded, str(folded))
        v = self.g.x(node.operand, scope)
        if whole(self.g.known.kind_of(node.operand, scope)):  # a number within the cap: so is its opposite
            return f"(-{v})"
        loc = self.g.const(self.c.loc(node, scope))
        t = self.g.tmp()
        return f"(-{t} if _type({t} := {v}) is int else _neg_slow({t}, {loc}))"

    def g_binop(self, node, scope):
        folded = self.g.known.static_int(node, scope)
        if folded is not None:
            return self.g.number(folded, str(folded))
        sa, sb = self.g.known.static_int(node.left, scope), self.g.known.static_int(node.right, scope)
        a, op, b = self.g.x(node.left, scope), str(node.op), self.g.x(node.right, scope)
        py = _BINOP_PY[op]
        if py in ("//", "%") and sb == 0:  # a division by a zero written as such: the rule error, at run time
            return f"{self.g.const(_arith)}(ctx, {self.g.const(op)}, {a}, {b}, {self.g.const(self.c.loc(node.op, scope))})"
        simple = self.g.known.identity(op, a, sa, whole(self.g.known.kind_of(node.left, scope)),
                                b, sb, whole(self.g.known.kind_of(node.right, scope)))
        if simple is not None:
            return simple
        if bounded(self.g.known.kind_of(node, scope)):  # numbers whose result provably fits the cap
            return f"({a} {py} {b})"
        loc = self.g.const(self.c.loc(node.op, scope))
        tr = self.g.tmp()
        ta, test_a = self.g.known.operand(a, sa, whole(self.g.known.kind_of(node.left, scope)))
        tb, test_b = self.g.known.operand(b, sb, whole(self.g.known.kind_of(node.right, scope)))
        tests = [t for t in (test_a, test_b) if t is not None]
        both = " & ".join(tests) if len(tests) > 1 else tests[0] if tests else None
        if py in ("//", "%") and sb is None:
            both = f"{both} and {tb} != 0" if both else f"{tb} != 0"
        n = int(_NUMBER)
        cond = f"{both} and -{n} <= ({tr} := {ta} {py} {tb}) <= {n}" if both else f"-{n} <= ({tr} := {ta} {py} {tb}) <= {n}"
        slow = f"{self.g.const(_arith)}(ctx, {self.g.const(op)}, {ta}, {tb}, {loc})"
        if op == "+" and test_a is not None and test_b is not None:  # else two lists, or two texts, joined
            slow = self._joined(ta, tb, slow)
        return f"({tr} if {cond} else {slow})"

    def _joined(self, ta: str, tb: str, slow: str) -> str:
        """`ta + tb` of two lists or two texts (the operands' names) as `_arith` joins them, its first
        case written in place: within the size of a collection, spending that size of the budget (set
        by `_setattr`: an expression assigns nothing); anything else, or a budget that would not be
        enough, through `slow` (its call), which fails where it failed."""
        g = self.g
        tt, tn, cap = g.tmp(), g.tmp(), g.g_value(g.symbols.limits.collection)
        return (f"({ta} + {tb} if (({tt} := _type({ta})) is _list or {tt} is {g.const(str, 'the type of texts')}) and "
                f"_type({tb}) is {tt} and ({tn} := _len({ta}) + _len({tb})) <= {cap} and {tn} <= ctx.budget "
                f"and _setattr(ctx, {g.const('budget')}, ctx.budget - {tn}) is None else {slow})")

    def g_compare(self, node, scope):
        op = str(node.op)
        where = self.g.shortcuts.length_of_where(node.left)
        if where is not None and op in ("==", "!=", ">") and self.g.known.static_int(node.right, scope) == 0:
            some = self.g.loops.g_some_where(where, scope)  # whether it has an item: stop at the first one
            if some is not None:
                return f"(not {some})" if op == "==" else some
        a = self.g.xc(node.left, scope)
        is_const, v = self.c.constant_of(node.right)
        b = self.g.xc(node.right, scope)
        py = _CMP_PY[op]
        if op in ("==", "!="):  # a card, zone or player equals only itself (no __eq__), none only none: `is`
            same = any(self._identified(x, scope) for x in (node.left, node.right)) and not any(
                type(x) in (A.Num, A.Str, A.Neg) for x in (node.left, node.right))  # (`is` of a literal: a warning)
            return f"({a} {('is' if op == '==' else 'is not') if same else py} {b})"
        if all(self.g.known.static_int(x, scope) is not None or whole(self.g.known.kind_of(x, scope)) for x in (node.left, node.right)):
            return f"({a} {py} {b})"  # two numbers: no test
        loc = self.g.const(self.c.loc(node.op, scope))
        kop = self.g.const(op)
        ta, tb = self.g.tmp(), self.g.tmp()
        if is_const and v is not None:
            return f"({ta} {py} {b} if _type({ta} := {a}) is int else _compare_const_slow({ta}, {b}, {kop}, {loc}))"
        return (f"({ta} {py} {tb} if ((_type({ta} := {a}) is int) & (_type({tb} := {b}) is int)) "
                f"else _compare_slow({ta}, {tb}, {kop}, {loc}))")

    def _identified(self, node, scope) -> bool:
        """Whether `node` gives a card, a zone or a player (or none), or is `none`, `me`: equal to a
        value only when it is that value (what `==` of any value with it then says)."""
        if type(node) is A.Const:
            return node.value is None
        if type(node) is A.Name and str(node.name) == "me" and all("me" not in d for d in (scope.slots, scope.inlined, scope.bound)):
            return True
        return self.g.known.kind_of(node, scope) in ("card", "cv", "cell", "zv", "pv")

    def g_in(self, node, scope):
        a, b = self.g.x(node.item, scope), self.g.x(node.coll, scope)
        loc = self.g.const(self.c.loc(node, scope))
        if self.g.known.kind_of(node.coll, scope) in ("zv", "cell"):  # a card in a zone (or none): where the card is
            ta, tb = self.g.tmp(), self.g.tmp()
            call = f"((_type({ta} := {a}) is _Card and ctx.st['loc'][{ta}.id] == {tb}.id) if ({tb} := {b}) is not None else False)"
            return f"(not {call})" if node.negated else call
        # an item in a list (the frequent case) at once; anything else through `_contains` (the
        # collection evaluated first, then the item, as the call's arguments are)
        tb = self.g.tmp()
        call = f"({a} in {tb} if _type({tb} := {b}) is _list else _contains(ctx, {tb}, {a}, {loc}))"
        return f"(not {call})" if node.negated else call

    def g_is_tag(self, node, scope):
        o = self.g.xc(node.obj, scope)
        tag = str(node.tag)
        if tag not in self.symbols.all_tags:
            raise CompileError(f"unknown tag `{tag}`", node.tag, hint=did_you_mean(tag, self.symbols.all_tags)
                               or "tags come from card names, `tags:` of cards and zones")
        test = "not in" if node.negated else "in"
        if self.g.known.kind_of(node.obj, scope) in ("card", "cell") and self.g.plain(o):  # never none: its tags
            return f"({self.g.const(tag)} {test} {o}.tags)"
        tags = self.g.sharing.shared(o, "#tags", f"(_getattr({o}, 'tags', None) or _EMPTY)", getters=True)  # no attribute's name
        return f"({self.g.const(tag)} {test} {tags})"

    def static_bool(self, node, scope):
        """True or False when an expression is a yes/no known at load time (`true`, a constant such
        as a variant's option, `not`, `and`, `or` of those, or an `and`/`or` whose first operand
        decides it); else None. Computing it spends nothing and cannot fail."""
        t = type(node)
        if t is A.Const:
            v = node.value
        elif t is A.Name or t is A.Index:
            v = self.g.known.static_value(node, scope)
        elif t is A.Not:
            v = self.static_bool(node.operand, scope)
            return None if v is None else not v
        elif t is A.And or t is A.Or:
            left = self.static_bool(node.left, scope)
            if left is None:
                return None
            return left if left is (t is A.Or) else self.static_bool(node.right, scope)
        else:
            return None
        return v if type(v) is bool else None

    def g_not(self, node, scope):
        v = self.static_bool(node, scope)
        if v is not None:
            return str(v)
        return f"(not {self.g.xc(node.operand, scope)})"

    def g_and(self, node, scope):
        return self._run(node, scope, A.And, "and")

    def g_or(self, node, scope):
        return self._run(node, scope, A.Or, "or")

    def _run(self, node, scope, typ, op: str) -> str:
        """`a and b and c` (`or`). Its first operands known at load time are left out: one that
        decides the whole (false for `and`, true for `or`) is its value, and the others are not
        evaluated, as at run time; one that does not is passed over when an operand follows it."""
        whole, parts = node, []
        while type(node) is typ:
            parts.append(node.right)
            node = node.left
        parts.append(node)
        parts.reverse()  # in the order they are evaluated
        decides = typ is A.Or  # the value that decides the whole
        first = 0
        while first < len(parts) - 1:
            v = self.static_bool(parts[first], scope)
            if v is None:
                break
            if v is decides:
                return str(v)
            first += 1
        if first == 0:
            return self.g.sharing.run_of(whole, scope, typ, op)
        if first == len(parts) - 1:
            return self.g.xc(parts[first], scope)
        node = parts[first]
        for p in parts[first + 1:]:
            node = typ(node, p, p.at)
        return self.g.sharing.run_of(node, scope, typ, op)

    def g_ternary(self, node, scope):
        a, cnd, b = self.g.x(node.then, scope), self.g.x(node.cond, scope), self.g.x(node.otherwise, scope)
        return f"({a} if {cnd} else {b})"

