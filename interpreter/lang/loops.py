"""The loops of expressions, written as Python (a part of ExprCodegen, codegen.py): `where`,
`[... for ...]` and the aggregates (`sum`, `any`...). Each loop is a helper function of the module,
`_gN(ctx, L)`, which spends the budget its items cost, puts each item in its local (for the helpers
it calls) and reads it in its own text from its loop variable `x`.
"""
from __future__ import annotations

from dataclasses import dataclass

from . import ast as A
from ..core.model import label_of
from ..runtime.context import RuleRuntimeError
from ..runtime.helpers import _size_of
from .known import Consts, Range, _with_entry
from .pieces import Spend, calls_nothing, hands_frame, indented, shape, size
from ..runtime.ops import _AGGREGATES, _NUMBER
from .scope import Arg, CompileError

_UNROLL = 6  # `any`/`all` over a constant range of at most this many numbers: written out, one test each
_UNSET = object()  # a loop's variable before its first item
_SPLICE_LINES = 200  # a written-out `any`/`all` used as a test in another: in place up to this many lines


_shape = shape  # (a test replaces it, to see a test known true kept)


def _key_failed(k, fname, loc):
    raise RuleRuntimeError(f"`{fname}` ranks items by a number: the key gave {k!r}" if type(k) is str else
                           f"`{fname}` ranks items by a number: the key gave {label_of(k)}", loc)


@dataclass(frozen=True, kw_only=True)
class Unrolled:
    """A written-out `any`/`all` (want True: any) whose items have no condition, recorded with
    the text of its call (ExprCodegen.unrolled): the lines spending its budget (`head`) and the
    text of each item's value (`tests`), so that a loop testing it may write it in place instead
    of calling it."""
    head: tuple
    tests: tuple
    want: bool


class Loops:
    """Writes the loops of expressions for the ExprCodegen `g`."""

    WRITES = {A.Where: "g_where_it", A.ListFor: "g_comprehension", A.Aggregate: "g_aggregate",
              A.ExtremeBy: "g_extreme_by"}

    def __init__(self, g):
        self.g, self.c, self.symbols = g, g.c, g.symbols

    def _loop(self, items_text, loc, what, body_lines, result_lines, first_lines=(), unrolled=None, slot=None):
        """A helper going through the items (`unrolled`: the lines of each item of a constant
        range, in place of the loop). `slot`: the local the item is put in (body_lines[0]), read
        in the body from the loop's own variable (the helpers it calls read the local)."""
        name = f"_g{next(self.g.names)}"
        if self.g.shares is not None:
            self.g.shares.loops += 1  # it may write locals (repeated.py); none shared yet: nothing to forget
        after = []  # lines after the loop
        if slot is not None:
            read = f"L[{int(slot)}]"
            rest = [b.replace(read, "x") if type(b) is str else b for b in body_lines[1:]]
            if hands_frame(rest):
                body_lines = body_lines[:1] + rest
            else:
                # the body hands the frame to no helper: the item is read from `x` alone, and put in its
                # local once, when the loop ends (a frame may be kept in the state: a pending choice's)
                unset = self.g.const(_UNSET, "no item yet")
                body_lines = [line for b in rest for line in (
                    [f"{b[:len(b) - len(b.lstrip())]}{read} = x", b] if type(b) is str and b.lstrip().startswith("return") else [b])]
                first_lines = [*first_lines, f"x = {unset}"]
                after = [f"if x is not {unset}:", f"    {read} = x"]
        ids = self.g.card_ids.get(items_text) if type(items_text) is str else None
        if type(items_text) is Range:  # `range(a, b)` known at load time: its numbers
            items = self.g.const(tuple(range(items_text.lo, items_text.hi + 1)))
        else:
            items = "items"
        if ids is not None:  # a zone's cards: gone through by their ids, no list of them built
            head = [f"items = {ids}", "ctx.budget = b = ctx.budget - _len(items)",
                    "if b < 0:", f"    _spend_failed(ctx, {loc}, {self.g.const(what)})"]
            body_lines = ["    x = _CARDS[x]", *body_lines]
        else:
            head = self._head(items_text, loc, what)
        self.g.define(name, "ctx, L", pure=True, body=[
            *head,
            *first_lines,
            *([f"for x in {items}:", *body_lines] if unrolled is None else unrolled),
            *after,
            *result_lines])
        return f"{name}(ctx, L)"

    def _head(self, items_text, loc, what):
        """The lines that spend the budget of a loop over `items_text` (a Range or Consts:
        its numbers or items known at load time, spent as the loop over them would; else the
        text of its collection, put in `items`)."""
        if type(items_text) is Range:
            lo, hi, rloc = items_text.lo, items_text.hi, items_text.loc
            n = max(hi - lo + 1, 0)
            return [Spend(n, loc=self.g.const(rloc), what=self.g.const('range')),
                    Spend(n, loc=loc, what=self.g.const(what), again=True)]
        if type(items_text) is Consts:
            return [Spend(len(items_text.items), loc=loc, what=self.g.const(what))]
        it = self.g.const(self.c.iterable_at)
        return [f"if _type(items := {items_text}) is not list:", f"    items = {it}(items, {loc})",
                f"ctx.budget = b = ctx.budget - (_len(items) if _type(items) is list else {self.g.const(_size_of)}(items))",
                "if b < 0:", f"    _spend_failed(ctx, {loc}, {self.g.const(what)})"]

    def _texts(self, u: Unrolled) -> list[str]:
        """All the tests of a written-out `any`/`all`, those of the written-out loops in it too
        (its budget lines change nothing the tests read: they only spend, or fail)."""
        inner = self.g.unrolled
        return [x for t in u.tests for x in (self._texts(inner[t]) if t in inner else [t])]

    def _size(self, u: Unrolled, then) -> int:
        """About how many lines a written-out `any`/`all` takes written in place."""
        inner = self.g.unrolled
        n = size(u.head) + 2
        for t in u.tests:
            n += self._size(inner[t], then) if t in inner else 1
        return n + len(then) * len(u.tests)

    def _if_item(self, cond_t, val_t, want):
        """The lines of one item of `any` (want True) or `all`: return `want` when its value says
        so (and its condition holds). A value that is itself a written-out `any`/`all` is written
        in place (its budget spent where it would be evaluated), not called."""
        then = [f"return {want}"]
        if cond_t is None:
            return self._when(val_t, then, negate=not want)
        lines = self._when(val_t, then, negate=not want, known=_shape(cond_t))
        return [f"if {cond_t}:", *indented(lines)]

    def _when(self, test, then, negate=False, known=None):
        """Lines that run `then` (lines that return) when `test` is true (false with `negate`).
        `test` may be the call of a written-out `any`/`all` (Unrolled): its budget lines, then its tests in
        place, one after the other (`any` true, `all` false) or nested (`all` true, `any` false),
        plain tests of a run joined in one condition. `known`: the shape (`_shape`) of a test
        known to be true here (the condition of the enclosing loop's item): a test of `all` of
        that shape is left out when nothing here calls anything (nothing can change it since)."""
        u = self.g.unrolled.get(test)
        if u is None or self._size(u, then) > _SPLICE_LINES:
            return [f"if {'not ' if negate else ''}{test}:", *indented(then)]
        if known is not None and not all(calls_nothing(t) for t in self._texts(u)):
            known = None
        self.g.spliced = True
        lines = list(u.head)
        runs = []  # runs of plain tests, and written-out ones alone
        for t in u.tests:
            if t not in self.g.unrolled and runs and type(runs[-1]) is list:
                runs[-1].append(t)
            else:
                runs.append([t] if t not in self.g.unrolled else t)
        if u.want != negate:  # any of them true / one of them false: each in turn
            for run in runs:
                if type(run) is list:
                    joined = " or ".join(f"(not {t})" if negate else t for t in run)
                    lines += [f"if {joined}:", *indented(then)]
                else:
                    lines += self._when(run, then, negate, known)
            return lines
        inner = then  # all of them true / all false: nested, the last innermost
        for run in reversed(runs):
            if type(run) is list:
                if known is not None and not negate:  # a test known to be true: nothing to test
                    run = [t for t in run if _shape(t) != known]
                if run:
                    joined = " and ".join(f"(not {t})" if negate else t for t in run)
                    inner = [f"if {joined}:", *indented(inner)]
            else:
                inner = self._when(run, inner, negate, known)
        return lines + inner

    def _constant_items(self, node, scope):
        """The items of a constant list of at most _UNROLL items (a name of the content's
        constants, or an item of one), else None."""
        v = self.g.known.static_value(node, scope)
        if type(v) is not list or not 0 < len(v) <= _UNROLL:
            return None
        if any(type(i) is int and not -_NUMBER <= i <= _NUMBER for i in v):
            return None
        return v

    @staticmethod
    def _own(scope, name: str, slot, write):
        """`write()` with `name` the loop's own variable, in `slot`: a name outside with the same
        spelling (a parameter, a local, a function's parameter compiled in place, an outer
        `where`'s `it`) is hidden while the loop is written, and the same after it."""
        saved, arg = scope.slots.get(name), scope.inlined.pop(name, None)
        scope.slots[name] = slot
        try:
            return write()
        finally:
            if saved is None:
                del scope.slots[name]
            else:
                scope.slots[name] = saved
            if arg is not None:
                scope.inlined[name] = arg

    def g_where_it(self, node, scope):
        coll = self.g.sharing.apart(lambda: self.g.known.coll(node.coll, scope))  # read in the helper
        kind = self.g.known.elem_kind(node.coll, scope)
        slot = scope.hidden()
        cond, lifted = self._own(scope, "it", slot, lambda: self.g.sharing.hoisting(
            slot, [node.cond], lambda: self.g.known.with_kind(scope, slot, kind, lambda: self.g.x(node.cond, scope))))
        loc = self.g.const(self.c.loc(node, scope))
        return self._loop(coll, loc, "`where`",
                          [f"    L[{int(slot)}] = x", f"    if {cond}:", "        out.append(x)"],
                          ["return out"], first_lines=["out = []", *lifted], slot=slot)

    def g_some_where(self, node, scope):
        """Whether `coll where cond` has an item, for `length(coll where cond) == 0` (or `!= 0`,
        `> 0`): the loop stops at the first item that passes, spending what the whole `where`
        spends. Only when the condition cannot fail (its text calls nothing that may raise: what
        the later items would have given is then never an error), else None."""
        coll = self.g.sharing.apart(lambda: self.g.known.coll(node.coll, scope))
        slot = scope.hidden()
        cond, lifted = self._own(scope, "it", slot, lambda: self.g.sharing.hoisting(slot, [node.cond], lambda: self.g.known.with_kind(
            scope, slot, self.g.known.elem_kind(node.coll, scope), lambda: self.g.x(node.cond, scope))))
        if self.c.draws_chance(node) or not calls_nothing(cond):
            return None
        loc = self.g.const(self.c.loc(node, scope))
        return self._loop(coll, loc, "`where`", [f"    L[{int(slot)}] = x", f"    if {cond}:", "        return True"],
                          ["return False"], first_lines=lifted, slot=slot)

    def g_extreme_by(self, node, scope):
        """`max_by(ITEMS, KEY)` (`min_by`): the first item whose key is the largest (smallest)
        number, keys that are none skipped; a key of another kind is a rule error at KEY."""
        g = self.g
        coll = g.sharing.apart(lambda: g.known.coll(node.coll, scope))
        slot = scope.hidden()
        key, lifted = self._own(scope, "it", slot, lambda: g.sharing.hoisting(slot, [node.key], lambda: g.known.with_kind(
            scope, slot, g.known.elem_kind(node.coll, scope), lambda: g.x(node.key, scope))))
        fname = str(node.fn)
        loc = g.const(self.c.loc(node, scope))
        failed = g.const(_key_failed)
        return self._loop(coll, loc, f"`{fname}`", [
            f"    L[{int(slot)}] = x",
            f"    if _type(k := {key}) is not int:",
            "        if k is None:",
            "            continue",
            f"        {failed}(k, {g.const(fname)}, {g.const(self.c.loc(node.key, scope))})",
            f"    if out is None or k {'>' if fname == 'max_by' else '<'} best:",
            "        best, out = k, x"], ["return out"], first_lines=["best = out = None", *lifted], slot=slot)

    def _generator(self, node, scope, value, name, coll, cond, what):
        coll_t = self.g.sharing.apart(lambda: self.g.known.coll(coll, scope))
        kind = self.g.known.elem_kind(coll, scope)
        slot = scope.hidden()
        (val_t, cond_t), lifted = self._own(scope, str(name), slot, lambda: self.g.sharing.hoisting(
            slot, [value, cond], lambda: self.g.known.with_kind(scope, slot, kind, lambda: (
                self.g.x(value, scope), self.g.x(cond, scope) if cond is not None else None))))
        loc = self.g.const(self.c.loc(node, scope))
        return coll_t, int(slot), val_t, cond_t, loc, lifted

    def g_comprehension(self, node, scope):
        return self._list_of(node, scope, node.value, node.var, node.coll, node.cond)

    def _list_of(self, node, scope, value, name, coll, cond):
        coll_t, slot, val_t, cond_t, loc, lifted = self._generator(node, scope, value, name, coll, cond, "")
        body = [f"    L[{slot}] = x"]
        if cond_t is None:
            body.append(f"    out.append({val_t})")
        else:
            body += [f"    if {cond_t}:", f"        out.append({val_t})"]
        return self._loop(coll_t, loc, "`for` in an expression", body, ["return out"], first_lines=["out = []", *lifted],
                          slot=slot)

    def g_aggregate(self, node, scope):
        ftok, value, name, coll, cond = node.fn, node.value, node.var, node.coll, node.cond
        fname = str(ftok)
        if fname not in _AGGREGATES:
            raise CompileError(f"`{fname}(... for ...)` is not an aggregate", ftok,
                               hint="use one of " + ", ".join(sorted(_AGGREGATES)))
        if fname in ("any", "all") and not self.c.draws_chance(node):
            want = fname == "any"
            items, r = self._constant_items(coll, scope), None
            if items is None:
                r = self.g.known.static_range(coll, scope)
                items = list(range(r.lo, r.hi + 1)) if r is not None and r.hi - r.lo + 1 <= _UNROLL else None
            if items is not None:  # a few items known at load time: one test each, the item known
                scope.add(str(name))  # the frame keeps the slot the loop would take
                tests = []
                for v in items:
                    item = Arg(self.g.number(v, str(v) if v >= 0 else f"({v})") if type(v) is int else self.g.g_value(v), value=v)
                    tests.append(_with_entry(scope.inlined, str(name), item, lambda: self.g.sharing.apart(lambda: (
                        self.g.x(cond, scope) if cond is not None else None, self.g.x(value, scope)))))
                loc = self.g.const(self.c.loc(node, scope))
                lines = []
                for cond_t, val_t in tests:
                    lines += self._if_item(cond_t, val_t, want)
                marker = r if r is not None else Consts(tuple(items))
                call = self._loop(marker, loc, "`any`/`all`", [], [f"return {not want}"], unrolled=lines)
                if any(c is not None for c, _ in tests):
                    return call
                self.g.unrolled[call] = Unrolled(head=tuple(self._head(marker, loc, "`any`/`all`")),
                                                 tests=tuple(t for _, t in tests), want=want)
                return call
            coll_t, slot, val_t, cond_t, loc, lifted = self._generator(node, scope, value, name, coll, cond, "")
            return self._loop(coll_t, loc, "`any`/`all`",
                              [f"    L[{slot}] = x", *indented(self._if_item(cond_t, val_t, want))],
                              [f"return {not want}"], first_lines=lifted, slot=slot)
        values = self._list_of(node, scope, value, name, coll, cond)
        loc = self.g.const(self.c.loc(node, scope))
        return f"_aggregate({self.g.const(_AGGREGATES[fname], f'the aggregate `{fname}` (runtime/ops.py)')}, {values}, {self.g.const(fname)}, {loc})"

