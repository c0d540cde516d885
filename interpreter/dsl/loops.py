"""The loops of expressions, written as Python (a part of ExprCodegen, codegen.py): `where`,
`[... for ...]` and the aggregates (`sum`, `any`...). Each loop is a helper function of the module,
`_gN(ctx, L)`, which spends the budget its items cost, puts each item in its local (for the helpers
it calls) and reads it in its own text from its loop variable `x`.
"""
from __future__ import annotations

from .generated import _size_of
from .known import _Consts, _Int, _Range, _Val, _with_entry
from .ops import _AGGREGATES, _NUMBER
from .scope import CompileError

_UNROLL = 6  # `any`/`all` over a constant range of at most this many numbers: written out, one test each


class Loops:
    def _loop(self, items_text, loc, what, body_lines, result_lines, first_lines=(), unrolled=None, slot=None):
        """A helper going through the items (`unrolled`: the lines of each item of a constant
        range, in place of the loop). `slot`: the local the item is put in (body_lines[0]), read
        in the body from the loop's own variable (the helpers it calls read the local)."""
        name = f"_g{next(self.names)}"
        if slot is not None:
            read = f"L[{int(slot)}]"
            body_lines = body_lines[:1] + [b.replace(read, "x") for b in body_lines[1:]]
        if type(items_text) is _Range:  # `range(a, b)` known at load time: its numbers, spent as it would
            lo, hi, rloc = items_text
            n = max(hi - lo + 1, 0)
            head = [f"ctx.budget = b = ctx.budget - {n}", "if b < 0:",
                    f"    _spend_failed(ctx, {self.const(rloc)}, {self.const('range')})",
                    f"ctx.budget = b = b - {n}"]
            items = self.const(tuple(range(lo, hi + 1)))
        elif type(items_text) is _Consts:  # a constant list, written out: its items, spent as the loop would
            head = [f"ctx.budget = b = ctx.budget - {len(items_text[0])}"]
            items = None
        else:
            it = self.const(self.c.iterable_at)
            head = [f"if _type(items := {items_text}) is not list:", f"    items = {it}(items, {loc})",
                    f"ctx.budget = b = ctx.budget - (_len(items) if _type(items) is list else {self.const(_size_of)}(items))"]
            items = "items"
        self.define(name, "ctx, L", pure=True, body=[
            *head,
            "if b < 0:",
            f"    _spend_failed(ctx, {loc}, {self.const(what)})",
            *first_lines,
            *([f"for x in {items}:", *body_lines] if unrolled is None else unrolled),
            *result_lines])
        return f"{name}(ctx, L)"

    def _constant_items(self, node, scope):
        """The items of a constant list of at most _UNROLL items (a name of the content's
        constants, or an item of one), else None."""
        v = self.static_value(node, scope)
        if type(v) is not list or not 0 < len(v) <= _UNROLL:
            return None
        if any(type(i) is int and not -_NUMBER <= i <= _NUMBER for i in v):
            return None
        return v

    def g_where_it(self, node, scope):
        coll = self.coll(node.coll, scope)
        kind = self.elem_kind(node.coll, scope)
        slot = scope.hidden()
        saved = scope.slots.get("it")
        scope.slots["it"] = slot
        try:
            cond = self._with_kind(slot, kind, lambda: self.x(node.cond, scope))
        finally:
            if saved is None:
                del scope.slots["it"]
            else:
                scope.slots["it"] = saved
        loc = self.const(self.c.loc(node, scope))
        return self._loop(coll, loc, "`where`",
                          [f"    L[{int(slot)}] = x", f"    if {cond}:", "        out.append(x)"],
                          ["return out"], first_lines=["out = []"], slot=slot)

    def _generator(self, node, scope, value, name, coll, cond, what):
        coll_t = self.coll(coll, scope)
        kind = self.elem_kind(coll, scope)
        slot = scope.add(str(name))
        val_t, cond_t = self._with_kind(slot, kind, lambda: (
            self.x(value, scope), self.x(cond, scope) if cond is not None else None))
        loc = self.const(self.c.loc(node, scope))
        return coll_t, int(slot), val_t, cond_t, loc

    def g_comprehension(self, node, scope):
        return self._list_of(node, scope, node.value, node.var, node.coll, node.cond)

    def _list_of(self, node, scope, value, name, coll, cond):
        coll_t, slot, val_t, cond_t, loc = self._generator(node, scope, value, name, coll, cond, "")
        body = [f"    L[{slot}] = x"]
        if cond_t is None:
            body.append(f"    out.append({val_t})")
        else:
            body += [f"    if {cond_t}:", f"        out.append({val_t})"]
        return self._loop(coll_t, loc, "`for` in an expression", body, ["return out"], first_lines=["out = []"],
                          slot=slot)

    def g_aggregate(self, node, scope):
        ftok, value, name, coll, cond = node.fn, node.value, node.var, node.coll, node.cond
        fname = str(ftok)
        if fname not in _AGGREGATES:
            raise CompileError(f"`{fname}(... for ...)` is not an aggregate", ftok,
                               hint="use one of " + ", ".join(sorted(_AGGREGATES)))
        if fname in ("any", "all") and not self.c._draws_chance(node):
            want = fname == "any"
            items = self._constant_items(coll, scope)
            if items is not None:  # a few items of a constant list: one test each, the item known
                scope.add(str(name))  # the frame keeps the slot the loop would take
                lines = []
                for v in items:
                    item = _Int(v) if type(v) is int else _Val(self.g_value(v), v)
                    val_t, cond_t = _with_entry(scope.inlined, str(name), item, lambda: (
                        self.x(value, scope), self.x(cond, scope) if cond is not None else None))
                    test = val_t if want else f"not {val_t}"
                    lines += [f"if ({cond_t}) and {test}:" if cond_t is not None else f"if {test}:",
                              f"    return {want}"]
                loc = self.const(self.c.loc(node, scope))
                return self._loop(_Consts((items,)), loc, "`any`/`all`", [], [f"return {not want}"], unrolled=lines)
            r = self.static_range(coll, scope)
            if r is not None and r[1] - r[0] + 1 <= _UNROLL:  # a few known numbers: one test each
                scope.add(str(name))  # the frame keeps the slot the loop would take
                lines = []
                for i in range(r[0], r[1] + 1):
                    val_t, cond_t = self._with_number(scope, str(name), i, lambda: (
                        self.x(value, scope), self.x(cond, scope) if cond is not None else None))
                    test = val_t if want else f"not {val_t}"
                    lines += [f"if ({cond_t}) and {test}:" if cond_t is not None else f"if {test}:",
                              f"    return {want}"]
                loc = self.const(self.c.loc(node, scope))
                return self._loop(r, loc, "`any`/`all`", [], [f"return {not want}"], unrolled=lines)
            coll_t, slot, val_t, cond_t, loc = self._generator(node, scope, value, name, coll, cond, "")
            test = val_t if want else f"not {val_t}"
            if cond_t is not None:
                test = f"({cond_t}) and {test}"
            return self._loop(coll_t, loc, "`any`/`all`",
                              [f"    L[{slot}] = x", f"    if {test}:", f"        return {want}"],
                              [f"return {not want}"], slot=slot)
        values = self._list_of(node, scope, value, name, coll, cond)
        loc = self.const(self.c.loc(node, scope))
        return f"_aggregate({self.const(_AGGREGATES[fname])}, {values}, {self.const(fname)}, {loc})"

