"""From parse trees to Python closures, once per match.

Every expression becomes ``f(ctx) -> value`` and every statement ``f(ctx)``.
Names are resolved here, not while playing: a local is a slot index, a zone or
a card is the object itself, a variable is its storage list.

A statement that may wait for a player's choice (`choose`, or a call to a
procedure or event whose handlers may) is compiled in continuation-passing
style: the rest of its block becomes a registered continuation whose id is
saved in the state with the locals, so a suspended rule resumes after a
save/load, a clone or a replay.
"""
from __future__ import annotations

import difflib
import re

from lark import Token, Tree

from .. import runtime as rt
from ..errors import Location, Problem
from ..limits import DEFAULT, BudgetExceeded, number_failed, spend_failed
from ..model import Card, Seat, Zone, label_for, label_of
from ..yamlio import SourceText
from . import kinds
from .parser import ParseFailure, parse

_MISS = object()
_SEAT_BUILTINS = ("name", "key", "index", "id", "next", "previous")


class CompileError(Exception):
    def __init__(self, message: str, node=None, hint: str = ""):
        self.message = message
        self.node = node
        self.hint = hint
        self.src = None  # set when it leaves the text it was raised in
        self.kind = "expr"
        super().__init__(message)


def _loc_tuple(loc):
    return loc.file, loc.line, loc.column


def did_you_mean(name: str, known) -> str:
    close = difflib.get_close_matches(name, sorted(set(known)), n=3, cutoff=0.6)
    if close:
        return "did you mean " + " or ".join(f"`{c}`" for c in close) + "?"
    return ""


class Scope:
    """Local names of one body (action, trigger, procedure, function): name -> slot."""

    def __init__(self, names=()):
        self.slots: dict[str, int] = {}
        self.size = 0
        self.inlined: dict = {}  # an inlined function's parameters: name -> its argument's closure
        for n in names:
            self.add(n)

    def add(self, name: str) -> int:
        if name not in self.slots:
            self.slots[name] = self.size
            self.size += 1
        return self.slots[name]

    def hidden(self) -> int:
        self.size += 1
        return self.size - 1


# ---- safe operators: `none` compares false and counts as nothing ----------------------

def _cmp(op):
    def f(a, b):
        if a is None or b is None:
            return False
        return op(a, b)
    return f


_COMPARE = {
    "==": lambda a, b: a == b,
    "!=": lambda a, b: a != b,
    "<": _cmp(lambda a, b: a < b),
    "<=": _cmp(lambda a, b: a <= b),
    ">": _cmp(lambda a, b: a > b),
    ">=": _cmp(lambda a, b: a >= b),
}


def _num(v):
    return 0 if v is None else v


def _add(a, b):
    if type(a) is list or type(b) is list:
        return (a or []) + (b or [])
    return _num(a) + _num(b)


_BINOPS = {
    "+": _add,
    "-": lambda a, b: _num(a) - _num(b),
    "*": lambda a, b: _num(a) * _num(b),
    "/": lambda a, b: _num(a) // _num(b),
    "//": lambda a, b: _num(a) // _num(b),
    "%": lambda a, b: _num(a) % _num(b),
}


_NUMBER = DEFAULT.number  # the magnitude cap of numbers computed by the rules (limits.py)


def _arith(ctx, op: str, a, b, loc):
    """`a op b` off the fast path: texts and lists within the size cap, numbers within the
    number cap, and a rule error naming both values when they do not go together."""
    ta, tb = type(a), type(b)
    if (a is None and tb is not list) or (b is None and ta is not list):
        raise rt.RuleRuntimeError(rt.none_in_arithmetic(a, op, b), loc)
    if op == "*" and ((ta in (list, str) and tb is int) or (tb in (list, str) and ta is int)):
        seq, n = (a, b) if ta in (list, str) else (b, a)
        size = len(seq) * max(n, 0)
        rt.check_size(ctx, size, loc, f"{label_of(a)} * {label_of(b)}")
        rt.spend(ctx, size, loc, "a list or text repeated")
    elif op == "+" and (ta in (list, str) or tb in (list, str)):
        size = (len(a) if ta in (list, str) else 0) + (len(b) if tb in (list, str) else 0)
        rt.check_size(ctx, size, loc, "a list or text joined")
        rt.spend(ctx, size, loc, "a list or text joined")
    try:
        r = _BINOPS[op](a, b)
    except (TypeError, ZeroDivisionError, ValueError, OverflowError, MemoryError):
        raise rt.RuleRuntimeError(f"cannot compute {label_of(a)} {op} {label_of(b)}", loc) from None
    if type(r) is int and not -_NUMBER <= r <= _NUMBER:
        number_failed(ctx, loc, f"{label_of(a)} {op} {label_of(b)}")
    return r


def _size(v) -> int:
    try:
        return len(v)
    except TypeError:
        return 0


def _agg(fn, empty):
    def f(values):
        values = [v for v in values if v is not None]
        return fn(values) if values else empty
    return f


_AGGREGATES = {
    "count": rt.count_true,
    "sum": lambda vs: sum(_num(v) for v in vs),
    "max": _agg(max, None),
    "min": _agg(min, None),
    "any": lambda vs: any(vs),
    "all": lambda vs: all(vs),
    "distinct": lambda vs: _distinct(vs),
    "list": list,
}


def _sort_key(v):
    if isinstance(v, (Card, Zone, Seat)):
        return (1, v.id)
    if v is None:
        return (0, 0)
    return (2, v)


def _distinct(vs):
    out = []
    seen = set()
    for v in vs:
        k = (type(v), v.id) if isinstance(v, (Card, Zone, Seat)) else v
        if k not in seen:
            seen.add(k)
            out.append(v)
    return sorted(out, key=_sort_key)


class Compiler:
    """Compiles the snippets of one match. `m` is the match being built."""

    def __init__(self, m):
        self.m = m
        self.src: SourceText | None = None
        self.kind = "expr"

    # ---- entry points ----------------------------------------------------------------

    def parse(self, src: SourceText, kind: str) -> Tree:
        return parse(src, kind)

    def problem(self, e: CompileError) -> Problem:
        saved = self.src, self.kind
        if getattr(e, "src", None) is not None:  # the text it was raised in (a {piece} of a template...)
            self.src, self.kind = e.src, e.kind
        try:
            loc = self.loc(e.node)
            return Problem(loc, e.message, hint=e.hint, context=self.src.context(loc) if self.src else "")
        finally:
            self.src, self.kind = saved

    def loc(self, node) -> Location:
        src = self.src
        if src is None:
            return Location("<rules>")
        line = column = None
        if isinstance(node, Token):
            line, column = node.line, node.column
        elif isinstance(node, Tree) and not node.meta.empty:
            line, column = node.meta.line, node.meta.column
        if line is None:
            return src.locate(1, 1)
        if self.kind == "expr" and "\n" in src.text:
            off = column - 1
            before = src.text[:off]
            line = before.count("\n") + 1
            column = off - (before.rfind("\n") + 1) + 1
        return src.locate(line, column)

    def expr(self, src: SourceText, scope: Scope):
        """Compile an expression text; returns f(ctx)."""
        self.src, self.kind = src, "expr"
        tree = parse(src, "expr")
        try:
            return self.e(tree, scope)
        except CompileError as e:
            if getattr(e, "src", None) is None:
                e.src, e.kind = src, "expr"
            raise

    def effect(self, src: SourceText, scope: Scope):
        """Compile an effect text; returns an entry f(ctx) that ends by returning to the caller."""
        self.src, self.kind = src, "effect"
        tree = parse(src, "effect")
        stmts = tree.children[0].children
        return self.body(stmts, scope)

    def trigger_head(self, src: SourceText):
        """(kind, event name, condition tree, statements) of a trigger text."""
        self.src, self.kind = src, "trigger"
        tree = parse(src, "trigger")
        head, block = tree.children
        return head.data, head.children[0], head.children[1], block.children

    def body(self, stmts, scope: Scope):
        """A whole body: runs, then returns to whoever called it (see Match.ret)."""
        return self.seq(stmts, scope, self.m.ret)

    # ---- may this statement wait for a choice? ---------------------------------------

    def suspends(self, node) -> bool:
        if not isinstance(node, Tree):
            return False
        d = node.data
        if d == "choose_stmt":
            return True
        if d == "do_stmt":
            return self.m.procedure_suspends(str(node.children[0]))
        if d == "emit_stmt":
            return self.m.event_suspends(str(node.children[0]))
        if d in ("if_stmt", "for_stmt", "repeat_stmt", "block", "elif_part", "else_part"):
            return any(self.suspends(c) for c in node.children)
        return False

    # ---- statements ------------------------------------------------------------------

    def seq(self, stmts, scope, k):
        """Compile statements followed by continuation k (a closure)."""
        stmts = [s for s in stmts if isinstance(s, Tree)]
        split = next((i for i, s in enumerate(stmts) if self.suspends(s)), None)
        ret = self.m.ret
        if split is None:
            fns = tuple(self.stmt(s, scope) for s in stmts)

            def run(ctx):
                try:
                    for f in fns:
                        f(ctx)
                except rt.Stop:
                    return ret(ctx)
                return k(ctx)
            return run
        pre = tuple(self.stmt(s, scope) for s in stmts[:split])
        # the rest is compiled first (it is the continuation): declare every name the suspending
        # statement binds, however deep (a choose or a let inside an if, a for, a repeat)
        for sub in stmts[split].iter_subtrees_topdown():
            if sub.data in ("choose_stmt", "let_stmt", "for_stmt"):
                scope.add(str(sub.children[0]))
        rest = self.seq(stmts[split + 1:], scope, k)
        sus = self.cps(stmts[split], scope, rest)

        def run(ctx):
            try:
                for f in pre:
                    f(ctx)
            except rt.Stop:
                return ret(ctx)
            return sus(ctx)
        return run

    def cps(self, node, scope, rest):
        """A statement that may suspend, followed by `rest`."""
        d = node.data
        m = self.m
        if d == "choose_stmt":
            return self.choose(node, scope, rest)
        if d == "if_stmt":
            cond = self.e(node.children[0], scope)
            branches = [(cond, self.seq(node.children[1].children, scope, rest))]
            otherwise = rest
            for part in node.children[2:]:
                if part is None:
                    continue
                if part.data == "elif_part":
                    branches.append((self.e(part.children[0], scope), self.seq(part.children[1].children, scope, rest)))
                else:
                    otherwise = self.seq(part.children[0].children, scope, rest)
            branches = tuple(branches)

            def run(ctx):
                for c, b in branches:
                    if c(ctx):
                        return b(ctx)
                return otherwise(ctx)
            return run
        if d == "for_stmt":
            name, coll, block = node.children
            var = scope.add(str(name))
            lst, idx = scope.hidden(), scope.hidden()
            collf = self.e(coll, scope)
            holder = []

            def loop(ctx):
                loc = ctx.locals
                i = loc[idx]
                items = loc[lst]
                if i >= len(items):
                    return rest(ctx)
                loc[idx] = i + 1
                loc[var] = items[i]
                return holder[0](ctx)
            m.register(loop)
            holder.append(self.seq(block.children, scope, loop))

            floc = self.loc(node)

            def start(ctx):
                items = list(self.iterable(collf(ctx), node))
                rt.spend(ctx, len(items) + 1, floc, f"`for` over {len(items):,} items")
                ctx.locals[lst] = items
                ctx.locals[idx] = 0
                return loop(ctx)
            return start
        if d == "repeat_stmt":
            count, block = node.children
            countf = self.e(count, scope)
            left = scope.hidden()
            holder = []

            def loop(ctx):
                n = ctx.locals[left]
                if n <= 0:
                    return rest(ctx)
                ctx.locals[left] = n - 1
                return holder[0](ctx)
            m.register(loop)
            holder.append(self.seq(block.children, scope, loop))

            rloc = self.loc(node)

            def start(ctx):
                n = countf(ctx)
                if n is not None and type(n) is not int:
                    raise rt.RuleRuntimeError(f"repeat needs a number of times, not {label_of(n)}", rloc)
                self.repeat_budget(ctx, _num(n), rloc)
                ctx.locals[left] = _num(n)
                return loop(ctx)
            return start
        if d in ("do_stmt", "emit_stmt"):
            name = str(node.children[0])
            argfs = self.args(node.children[1], scope)
            entry, nslots = (m.procedure_entry_cps(name) if d == "do_stmt" else m.event_entry_cps(name))
            kid = m.register(rest)
            self.check_arity(node, name, len(argfs), d)

            cloc = self.loc(node)

            def run(ctx):
                args = [a(ctx) for a in argfs]
                b = ctx.budget - 1
                ctx.budget = b
                if b < 0:
                    spend_failed(ctx, cloc, f"`{name}`")
                ctx.events.append((name, args))
                ctx.stack.append((kid, ctx.locals))
                ctx.locals = args + [None] * (nslots - len(args))
                return entry(ctx)
            return run
        raise CompileError(f"internal: cannot suspend in {d}", node)

    def choose(self, node, scope, rest):
        name, options = node.children[0], node.children[1]
        slot = scope.add(str(name))
        optf = self.e(options, scope)
        by = None
        default_prompt = str(name).replace("_", " ")
        prompt = lambda ctx: default_prompt  # noqa: E731
        optional = False
        for opt in node.children[2:]:
            if opt.data == "choose_by":
                by = self.e(opt.children[0], scope)
            elif opt.data == "choose_label":
                prompt = self.template(opt.children[0], scope)
            else:
                optional = True
        m = self.m
        kid = m.register(rest)
        where = self.loc(node)

        def run(ctx):
            opts = list(self.iterable(optf(ctx), node))
            if not opts or (len(opts) == 1 and not optional):
                ctx.locals[slot] = opts[0] if opts else None
                return rest(ctx)
            player = by(ctx) if by is not None else ctx.me
            if player is None:
                player = m.turn_player(ctx.st)
            if type(player) is not Seat:
                raise rt.RuleRuntimeError(f"`choose` has nobody to ask here ({label_of(player)}: no player's turn, "
                                          f"or `by` is not a player): write `by PLAYER`", where)
            ctx.st["pending"].append({
                "k": kid,
                "slot": slot,
                "player": player.id if player is not None else None,
                "me": ctx.me.id if ctx.me is not None else None,
                "prompt": prompt(ctx),
                "optional": optional,
                "options": rt.encode(list(opts)),
                "locals": rt.encode(ctx.locals),
                "stack": [[k, rt.encode(loc)] for k, loc in ctx.stack],
            })
            ctx.stack = []
            return None
        return run

    def stmt(self, node, scope):
        """A statement that never suspends: f(ctx)."""
        d = node.data
        method = getattr(self, "s_" + d, None)
        if method is None:
            raise CompileError(f"internal: unknown statement {d}", node)
        return method(node, scope)

    def block(self, block, scope):
        fns = tuple(self.stmt(s, scope) for s in block.children if isinstance(s, Tree))
        if len(fns) == 1:
            return fns[0]

        def run(ctx):
            for f in fns:
                f(ctx)
        return run

    def s_let_stmt(self, node, scope):
        f = self.e(node.children[1], scope)  # the value first: `let x = x + 1` reads the outer x
        slot = scope.add(str(node.children[0]))

        def run(ctx):
            ctx.locals[slot] = f(ctx)
        return run

    def s_pass_stmt(self, node, scope):
        return lambda ctx: None

    def s_stop_stmt(self, node, scope):
        def run(ctx):
            raise rt.Stop()
        return run

    def s_fail_stmt(self, node, scope):
        msg = self.string(node.children[0])
        from ..errors import RuleRuntimeError
        loc = self.loc(node)

        def run(ctx):
            raise RuleRuntimeError(msg, loc)
        return run

    def s_log_stmt(self, node, scope):
        fmt = self.template(node.children[0], scope)

        def run(ctx):
            ctx.events.append(("log", [fmt(ctx)]))
        return run

    def s_finish_stmt(self, node, scope):
        what = str(node.children[0])
        rank = {"step": 1, "turn": 2, "round": 3, "game": 4}[what]
        names = {1: "step", 2: "turn", 3: "round", 4: "game"}

        def run(ctx):
            flow = ctx.st["flow"]
            cur = {"step": 1, "turn": 2, "round": 3, "game": 4}.get(flow.get("finish") or "", 0)
            if rank > cur:
                flow["finish"] = names[rank]
        return run

    def s_if_stmt(self, node, scope):
        branches = [(self.e(node.children[0], scope), self.block(node.children[1], scope))]
        otherwise = None
        for part in node.children[2:]:
            if part is None:
                continue
            if part.data == "elif_part":
                branches.append((self.e(part.children[0], scope), self.block(part.children[1], scope)))
            else:
                otherwise = self.block(part.children[0], scope)
        if len(branches) == 1:
            (c, b), = branches
            if otherwise is None:
                def run(ctx):
                    if c(ctx):
                        b(ctx)
                return run

            def run2(ctx):
                if c(ctx):
                    b(ctx)
                else:
                    otherwise(ctx)
            return run2
        branches = tuple(branches)

        def run3(ctx):
            for c, b in branches:
                if c(ctx):
                    return b(ctx)
            if otherwise is not None:
                otherwise(ctx)
        return run3

    def s_for_stmt(self, node, scope):
        name, coll, block = node.children
        slot = scope.add(str(name))
        collf = self.e(coll, scope)
        body = self.block(block, scope)
        iterable = self.iterable

        loc = self.loc(node)

        def run(ctx):
            items = list(iterable(collf(ctx), node))
            b = ctx.budget - len(items) - 1
            ctx.budget = b
            if b < 0:
                spend_failed(ctx, loc, f"`for` over {len(items):,} items")
            for item in items:
                ctx.locals[slot] = item
                body(ctx)
        return run

    def s_repeat_stmt(self, node, scope):
        countf = self.e(node.children[0], scope)
        body = self.block(node.children[1], scope)
        loc = self.loc(node)

        def run(ctx):
            n = countf(ctx)
            if n is not None and type(n) is not int:
                raise rt.RuleRuntimeError(f"repeat needs a number of times, not {label_of(n)}", loc)
            self.repeat_budget(ctx, _num(n), loc)
            for _ in range(_num(n)):
                body(ctx)
        return run

    @staticmethod
    def repeat_budget(ctx, n, loc):
        cap = ctx.m.limits.repeat
        if n > cap:
            raise BudgetExceeded("repeat", f"repeat {n:,} times: over the limit `repeat` of {cap:,}", loc)
        b = ctx.budget - max(n, 0) - 1
        ctx.budget = b
        if b < 0:
            spend_failed(ctx, loc, f"repeat {n:,} times")

    def s_assign_stmt(self, node, scope):
        target, op, value = node.children
        op = str(op)
        valf = self.e(value, scope)
        setter, getter = self.lvalue(target, scope)
        kinds.check_assigned(self, target, op, value, scope)
        if op == "=":
            def run(ctx):
                setter(ctx, valf(ctx))
            return run
        sym = op[0]
        loc = self.loc(node)

        def run2(ctx):
            a, b = getter(ctx), valf(ctx)
            if type(a) is int and type(b) is int:
                r = a + b if sym == "+" else a - b if sym == "-" else a * b
                if -_NUMBER <= r <= _NUMBER:
                    return setter(ctx, r)
            setter(ctx, _arith(ctx, sym, a, b, loc))
        return run2

    def s_move_stmt(self, node, scope):
        what, where, place = node.children
        whatf, wheref = self.e(what, scope), self.e(where, scope)
        top = place is not None and str(place) == "top"
        loc = self.loc(node)
        move = rt.move

        def run(ctx):
            w = whatf(ctx)
            z = wheref(ctx)
            try:
                if type(w) is list:
                    for c in w:
                        move(ctx, c, z, top)
                else:
                    move(ctx, w, z, top)
            except rt.RuleRuntimeError as e:
                if e.location is not None:
                    raise
                raise rt.RuleRuntimeError(str(e), loc) from None
        return run

    def s_swap_stmt(self, node, scope):
        af, bf = self.e(node.children[0], scope), self.e(node.children[1], scope)
        loc = self.loc(node)

        def run(ctx):
            try:
                rt.swap(ctx, af(ctx), bf(ctx))
            except rt.RuleRuntimeError as e:
                raise rt.RuleRuntimeError(str(e), loc) from None
        return run

    def s_cycle_stmt(self, node, scope):
        zf = self.e(node.children[0], scope)
        backward = node.children[1] is not None and str(node.children[1]) == "backward"
        loc = self.loc(node)

        def run(ctx):
            zones = zf(ctx)
            if not isinstance(zones, list) or not all(type(z) is Zone for z in zones):
                raise rt.RuleRuntimeError(f"cycle needs a list of zones, not {label_of(zones)}", loc)
            rt.cycle(ctx, zones, backward)
        return run

    def s_shuffle_stmt(self, node, scope):
        self.m.uses_chance = True
        zf = self.e(node.children[0], scope)
        loc = self.loc(node)

        def run(ctx):
            z = zf(ctx)
            if type(z) is not Zone:
                raise rt.RuleRuntimeError(f"shuffle needs a zone, not {label_of(z)}", loc)
            rt.shuffle(ctx, z)
        return run

    def s_draw_stmt(self, node, scope):
        if any(z.get("refill_from") for z in self.m.rs.zones.values()):
            self.m.uses_chance = True  # a draw from an empty pile shuffles its refill in
        n, src, dst = node.children
        nf = self.e(n, scope) if n is not None else (lambda ctx: 1)
        sf, df = self.e(src, scope), self.e(dst, scope)
        loc = self.loc(node)

        def run(ctx):
            k, a, b = nf(ctx), sf(ctx), df(ctx)
            if type(k) is not int or type(a) is not Zone or type(b) is not Zone:
                raise rt.RuleRuntimeError(f"draw needs a number and two zones, not {label_of(k)}, {label_of(a)}, "
                                          f"{label_of(b)}", loc)
            try:
                rt.draw(ctx, k, a, b)
            except rt.RuleRuntimeError as e:
                raise rt.relocate(e, loc) from None
        return run

    def s_emit_stmt(self, node, scope):
        return self.call_stmt(node, scope, "emit_stmt", self.m.event_direct)

    def s_do_stmt(self, node, scope):
        return self.call_stmt(node, scope, "do_stmt", self.m.procedure_direct)

    def call_stmt(self, node, scope, kind, target):
        """`emit EVENT(...)` or `do PROCEDURE(...)` that cannot suspend: logged, then dispatched."""
        name = str(node.children[0])
        argfs = self.args(node.children[1], scope)
        self.check_arity(node, name, len(argfs), kind)
        dispatch = target(name)
        loc = self.loc(node)

        def run(ctx):
            args = [a(ctx) for a in argfs]
            b = ctx.budget - 1
            ctx.budget = b
            if b < 0:
                spend_failed(ctx, loc, f"`{name}`")
            ctx.events.append((name, args))
            dispatch(ctx, args)
        return run

    def s_choose_stmt(self, node, scope):  # only reached when wrongly compiled direct
        raise CompileError("internal: choose compiled as direct", node)

    def check_arity(self, node, name, n, kind):
        m = self.m
        if kind == "do_stmt":
            if name not in m.procedure_params:
                raise CompileError(f"unknown procedure `{name}`", node.children[0],
                                   hint=did_you_mean(name, m.procedure_params) or "declare it under `procedures:`")
            want = len(m.procedure_params[name])
        else:
            if name not in m.event_params:
                raise CompileError(f"unknown event `{name}`", node.children[0],
                                   hint=did_you_mean(name, m.event_params) or "declare it under `events:`")
            want = len(m.event_params[name])
        if n != want:
            raise CompileError(f"`{name}` takes {want} argument(s), got {n}", node)

    def args(self, node, scope):
        if node is None:
            return ()
        return tuple(self.e(c, scope) for c in node.children)

    # ---- assignment targets ----------------------------------------------------------

    def lvalue(self, node, scope):
        m = self.m
        if node.data == "name":
            name = str(node.children[0])
            if name in scope.slots:
                slot = scope.slots[name]

                def set_local(ctx, v):
                    ctx.locals[slot] = v
                return set_local, lambda ctx: ctx.locals[slot]
            if name in m.gvars:
                enc, dec = m.var_codec("gv", name)
                getter = self.e(node, scope)

                gloc = self.loc(node)
                typ = m.gvars[name]["type"]

                def set_global(ctx, v):
                    try:
                        ctx.st["gv"][name] = enc(v) if enc else v
                    except (AttributeError, TypeError):
                        raise rt.RuleRuntimeError(f"`{name}` holds a {typ}, not {label_of(v)}", gloc) from None
                return set_global, getter
            raise CompileError(f"`{name}` is not a variable", node,
                               hint=did_you_mean(name, list(scope.slots) + list(m.gvars)) or "declare it under `vars:`")
        if node.data == "attr":
            objf = self.e(node.children[0], scope)
            name = str(node.children[1])
            tables = []
            for kind in ("cv", "pv", "zv"):
                if name in m.vars_of(kind):
                    tables.append(kind)
            if not tables:
                known = list(m.cvars) + list(m.pvars) + list(m.zvars)
                raise CompileError(f"`{name}` is not a variable of cards, players or zones", node.children[1],
                                   hint=did_you_mean(name, known) or "declare it under `vars:` to change it")
            codecs = {kind: m.var_codec(kind, name) for kind in tables}
            by_type = {}
            if "cv" in tables:
                by_type[Card] = ("cv", codecs["cv"][0])
            if "pv" in tables:
                by_type[Seat] = ("pv", codecs["pv"][0])
            if "zv" in tables:
                by_type[Zone] = ("zv", codecs["zv"][0])
            loc = self.loc(node)
            getter = self.e(node, scope)

            def set_attr(ctx, v):
                o = objf(ctx)
                entry = by_type.get(type(o))
                if entry is None:
                    raise rt.RuleRuntimeError(f"cannot set `{name}` on {o!r}", loc)
                kind, enc = entry
                try:
                    ctx.st[kind][name][o.id] = enc(v) if enc else v
                except (AttributeError, TypeError):
                    typ = m.vars_of(kind)[name]["type"]
                    raise rt.RuleRuntimeError(f"`{name}` holds a {typ}, not {label_of(v)}", loc) from None
            return set_attr, getter
        raise CompileError("only a variable, or `thing.variable`, can be assigned", node)

    # ---- expressions -----------------------------------------------------------------

    def e(self, node, scope):
        if isinstance(node, Token):
            raise CompileError("internal: bare token", node)
        method = getattr(self, "x_" + node.data, None)
        if method is None:
            raise CompileError(f"internal: unknown expression {node.data}", node)
        return method(node, scope)

    def x_number(self, node, scope):
        v = int(node.children[0])
        return lambda ctx: v

    def string(self, tok) -> str:
        s = str(tok)[1:-1]
        return re.sub(r"\\(.)", r"\1", s)

    def x_string(self, node, scope):
        v = self.string(node.children[0])
        return lambda ctx: v

    def x_true(self, node, scope):
        return lambda ctx: True

    def x_false(self, node, scope):
        return lambda ctx: False

    def x_none(self, node, scope):
        return lambda ctx: None

    def x_list_(self, node, scope):
        fs = self.args(node.children[0], scope)
        return lambda ctx: [f(ctx) for f in fs]

    def x_name(self, node, scope):
        name = str(node.children[0])
        m = self.m
        if name in scope.inlined:
            return scope.inlined[name]
        if name in scope.slots:
            slot = scope.slots[name]
            return lambda ctx: ctx.locals[slot]
        if name == "me":
            return lambda ctx: ctx.me
        if name in m.gvars:
            enc, dec = m.var_codec("gv", name)
            if dec is None:
                return lambda ctx: ctx.st["gv"][name]
            return lambda ctx: dec(ctx.st["gv"][name])
        value = m.constant(name)
        if value is not _MISS:
            return lambda ctx: value
        builtin = m.builtin_value(name)
        if builtin is not None:
            return builtin
        known = list(scope.slots) + ["me"] + list(m.gvars) + m.constant_names() + m.builtin_value_names()
        raise CompileError(f"unknown name `{name}`", node, hint=did_you_mean(name, known))

    def x_attr(self, node, scope):
        objf = self.e(node.children[0], scope)
        name = str(node.children[1])
        card_kind, zone_h, seat_h, get = self.m.attr_handlers(name)
        if get is None:
            raise CompileError(f"nothing has an attribute `{name}`", node.children[1],
                               hint=did_you_mean(name, self.m.attribute_names()))
        loc = self.loc(node.children[1])

        def slow(ctx, o):
            try:
                return get(ctx, o)
            except KeyError:
                raise rt.RuleRuntimeError(f"{label_of(o)} has no `{name}`", loc) from None

        # inline the frequent cases; everything else goes through the generic getter
        obj = node.children[0]
        local = None
        if isinstance(obj, Tree) and obj.data == "name" and str(obj.children[0]) in scope.slots:
            local = scope.slots[str(obj.children[0])]
        if local is not None and card_kind is not None and card_kind[0] == "prop":
            def run_local_prop(ctx):
                o = ctx.locals[local]
                if type(o) is Card:
                    return o.props.get(name)
                return slow(ctx, o)
            return run_local_prop
        if local is not None and card_kind is not None and card_kind[0] == "var":
            def run_local_var(ctx):
                o = ctx.locals[local]
                if type(o) is Card:
                    return ctx.st["cv"][name][o.id]
                return slow(ctx, o)
            return run_local_var
        if local is not None and zone_h is not None and card_kind is None and seat_h is None:
            def run_local_zone(ctx):
                o = ctx.locals[local]
                if type(o) is Zone:
                    return zone_h(ctx, o)
                return slow(ctx, o)
            return run_local_zone
        if (isinstance(obj, Tree) and obj.data == "name" and str(obj.children[0]) == "me"
                and "me" not in scope.slots and seat_h is not None):
            if name in self.m.pvars and self.m.var_codec("pv", name)[1] is None and name not in _SEAT_BUILTINS:
                def run_me_var(ctx):
                    o = ctx.me
                    if o is not None:
                        return ctx.st["pv"][name][o.id]
                    return slow(ctx, o)
                return run_me_var

            def run_me(ctx):
                o = ctx.me
                if o is not None:
                    return seat_h(ctx, o)
                return slow(ctx, o)
            return run_me
        if card_kind is not None and card_kind[0] == "prop":
            def run(ctx):
                o = objf(ctx)
                if type(o) is Card:
                    return o.props.get(name)
                return slow(ctx, o)
            return run
        if card_kind is not None and card_kind[0] == "var":
            def run_var(ctx):
                o = objf(ctx)
                if type(o) is Card:
                    return ctx.st["cv"][name][o.id]
                return slow(ctx, o)
            return run_var
        if zone_h is not None and card_kind is None and seat_h is None:
            def run_zone(ctx):
                o = objf(ctx)
                if type(o) is Zone:
                    return zone_h(ctx, o)
                return slow(ctx, o)
            return run_zone
        if seat_h is not None and card_kind is None and zone_h is None:
            def run_seat(ctx):
                o = objf(ctx)
                if type(o) is Seat:
                    return seat_h(ctx, o)
                return slow(ctx, o)
            return run_seat

        card_h = None
        if card_kind is not None:
            if card_kind[0] == "prop":
                card_h = lambda ctx, o: o.props.get(name)
            elif card_kind[0] == "var":
                card_h = lambda ctx, o: ctx.st["cv"][name][o.id]
            else:
                card_h = card_kind[1]

        def run_any(ctx):
            o = objf(ctx)
            t = type(o)
            if t is Card and card_h is not None:
                return card_h(ctx, o)
            if t is Zone and zone_h is not None:
                return zone_h(ctx, o)
            if t is Seat and seat_h is not None:
                return seat_h(ctx, o)
            return slow(ctx, o)
        return run_any

    def x_index(self, node, scope):
        of, kf = self.e(node.children[0], scope), self.e(node.children[1], scope)
        loc = self.loc(node)

        def run(ctx):
            o, k = of(ctx), kf(ctx)
            try:
                if type(o) is dict:
                    return o[k] if k in o else o.get(str(k))
                return o[k]
            except (IndexError, KeyError, TypeError):
                raise rt.RuleRuntimeError(f"no item {label_of(k)} in {label_of(o)}", loc) from None
        return run

    def x_neg(self, node, scope):
        f = self.e(node.children[0], scope)
        loc = self.loc(node)

        def neg(ctx):
            v = f(ctx)
            if v is None:
                raise rt.RuleRuntimeError(rt.none_in_arithmetic(None, "-", None), loc)
            try:
                return -v
            except TypeError:
                raise rt.RuleRuntimeError(f"cannot negate {label_of(v)}", loc) from None
        return neg

    def x_binop(self, node, scope):
        af, op, bf = self.e(node.children[0], scope), str(node.children[1]), self.e(node.children[2], scope)
        fn = _BINOPS[op]
        loc = self.loc(node.children[1])

        if op == "+":
            def add(ctx):
                a, b = af(ctx), bf(ctx)
                if type(a) is int and type(b) is int:
                    r = a + b
                    if -_NUMBER <= r <= _NUMBER:
                        return r
                return _arith(ctx, op, a, b, loc)
            return add

        def binop(ctx):
            a, b = af(ctx), bf(ctx)
            if type(a) is int and type(b) is int and (b != 0 or op in ("-", "*")):
                r = fn(a, b)
                if -_NUMBER <= r <= _NUMBER:
                    return r
            return _arith(ctx, op, a, b, loc)
        return binop

    def constant_of(self, node):
        """(True, value) when a node is a literal."""
        if isinstance(node, Tree):
            if node.data == "number":
                return True, int(node.children[0])
            if node.data == "string":
                return True, self.string(node.children[0])
            if node.data in ("true", "false", "none"):
                return True, {"true": True, "false": False, "none": None}[node.data]
        return False, None

    def x_compare(self, node, scope):
        af, op, bf = self.e(node.children[0], scope), str(node.children[1]), self.e(node.children[2], scope)
        cmp = _COMPARE[op]
        loc = self.loc(node.children[1])

        def fn(a, b):
            try:
                return cmp(a, b)
            except TypeError:
                raise rt.RuleRuntimeError(f"cannot compare {label_of(a)} {op} {label_of(b)}", loc) from None
        is_const, v = self.constant_of(node.children[2])
        if is_const:
            if op == "==":
                return lambda ctx: af(ctx) == v
            if op == "!=":
                return lambda ctx: af(ctx) != v
            if v is not None:
                import operator
                pyop = {"<": operator.lt, "<=": operator.le, ">": operator.gt, ">=": operator.ge}[op]

                def cmp_const(ctx):
                    a = af(ctx)
                    if type(a) is int:
                        return pyop(a, v)
                    return a is not None and fn(a, v)
                return cmp_const
        if op == "==":
            return lambda ctx: af(ctx) == bf(ctx)
        if op == "!=":
            return lambda ctx: af(ctx) != bf(ctx)
        return lambda ctx: fn(af(ctx), bf(ctx))

    def x_in_(self, node, scope):
        af, bf = self.e(node.children[0], scope), self.e(node.children[1], scope)
        loc = self.loc(node)
        return lambda ctx: self.contains(ctx, bf(ctx), af(ctx), loc)

    def x_not_in(self, node, scope):
        af, bf = self.e(node.children[0], scope), self.e(node.children[1], scope)
        loc = self.loc(node)
        return lambda ctx: not self.contains(ctx, bf(ctx), af(ctx), loc)

    @staticmethod
    def contains(ctx, coll, item, loc=None):
        if coll is None:
            return False
        if type(coll) is Zone:
            return type(item) is Card and ctx.st["loc"][item.id] == coll.id
        try:
            return item in coll
        except TypeError:
            raise rt.RuleRuntimeError(f"`in` needs a collection or a zone, not {label_of(coll)}", loc) from None

    def x_is_tag(self, node, scope):
        return self.tag_test(node, scope, True)

    def x_is_not_tag(self, node, scope):
        return self.tag_test(node, scope, False)

    def tag_test(self, node, scope, positive):
        f = self.e(node.children[0], scope)
        tag = str(node.children[1])
        m = self.m
        if tag not in m.all_tags:
            raise CompileError(f"unknown tag `{tag}`", node.children[1],
                               hint=did_you_mean(tag, m.all_tags) or "tags come from card names, `tags:` of cards and zones")

        def run(ctx):
            o = f(ctx)
            t = getattr(o, "tags", None)
            r = t is not None and tag in t
            return r if positive else not r
        return run

    def x_not_(self, node, scope):
        f = self.e(node.children[0], scope)
        return lambda ctx: not f(ctx)

    def x_and_(self, node, scope):
        af, bf = self.e(node.children[0], scope), self.e(node.children[1], scope)
        return lambda ctx: af(ctx) and bf(ctx)

    def x_or_(self, node, scope):
        af, bf = self.e(node.children[0], scope), self.e(node.children[1], scope)
        return lambda ctx: af(ctx) or bf(ctx)

    def x_ternary(self, node, scope):
        af, cf, bf = (self.e(c, scope) for c in node.children)
        return lambda ctx: af(ctx) if cf(ctx) else bf(ctx)

    def iterable(self, v, node=None):
        if v is None:
            return []
        if type(v) is Zone:
            raise rt.RuleRuntimeError(f"{v} is a zone: write `{v.name}.cards` to go through its cards",
                                      self.loc(node) if node is not None else None)
        if isinstance(v, (int, bool, str, Card, Seat)):
            raise rt.RuleRuntimeError(f"{label_of(v)} is not a collection", self.loc(node) if node is not None else None)
        return v

    def x_where_it(self, node, scope):
        collf = self.e(node.children[0], scope)
        slot = scope.hidden()
        saved = scope.slots.get("it")
        scope.slots["it"] = slot
        try:
            condf = self.e(node.children[1], scope)
        finally:
            if saved is None:
                del scope.slots["it"]
            else:
                scope.slots["it"] = saved
        iterable = self.iterable

        where = self.loc(node)

        def run(ctx):
            loc = ctx.locals
            out = []
            items = iterable(collf(ctx), node)
            b = ctx.budget - _size(items)
            ctx.budget = b
            if b < 0:
                spend_failed(ctx, where, "`where`")
            for x in items:
                loc[slot] = x
                if condf(ctx):
                    out.append(x)
            return out
        return run

    def generator(self, node, scope, value, name, coll, cond):
        collf = self.e(coll, scope)
        slot = scope.add(str(name))
        valf = self.e(value, scope)
        condf = self.e(cond, scope) if cond is not None else None
        iterable = self.iterable

        where = self.loc(node)

        def gen(ctx):
            loc = ctx.locals
            out = []
            items = iterable(collf(ctx), node)
            b = ctx.budget - _size(items)
            ctx.budget = b
            if b < 0:
                spend_failed(ctx, where, "`for` in an expression")
            for x in items:
                loc[slot] = x
                if condf is None or condf(ctx):
                    out.append(valf(ctx))
            return out
        return gen

    def x_comprehension(self, node, scope):
        value, name, coll, cond = node.children
        return self.generator(node, scope, value, name, coll, cond)

    _PLAIN = frozenset(("name", "attr", "number", "string", "true", "false", "none", "neg"))

    def plain_reads(self, args) -> bool:
        """Arguments that only read (names, attributes, literals): safe to evaluate more than once."""
        if args is None:
            return True
        return all(sub.data in self._PLAIN for a in args.children for sub in a.iter_subtrees())

    def inline(self, fname, inline, argfs, node):
        """A small function compiled in place: its parameters are its arguments' closures (the
        arguments are plain reads, so evaluating one twice costs nothing and changes nothing)."""
        tree, params, src = inline
        scope = Scope()
        scope.inlined = dict(zip(params, argfs))
        saved = self.src, self.kind
        self.src, self.kind = src, "expr"
        try:
            return self.e(tree, scope)
        except CompileError as e:
            if getattr(e, "src", None) is None:
                e.src, e.kind = src, "expr"
            raise
        finally:
            self.src, self.kind = saved

    def x_aggregate(self, node, scope):
        ftok, value, name, coll, cond = node.children
        fname = str(ftok)
        if fname not in _AGGREGATES:
            raise CompileError(f"`{fname}(... for ...)` is not an aggregate", ftok,
                               hint="use one of " + ", ".join(sorted(_AGGREGATES)))
        agg = _AGGREGATES[fname]
        if fname in ("any", "all") and not self._draws_chance(node):
            return self._deciding(node, scope, value, name, coll, cond, fname == "any")
        gen = self.generator(node, scope, value, name, coll, cond)
        loc = self.loc(node)

        def aggregate(ctx):
            values = gen(ctx)
            try:
                return agg(values)
            except TypeError:
                raise rt.RuleRuntimeError(f"`{fname}` cannot combine {label_of(values)}", loc) from None
        return aggregate

    def _draws_chance(self, node) -> bool:
        """Whether an expression rolls, draws at random or shuffles (directly or through a function)."""
        m = self.m
        defs = getattr(m, "function_defs", {})
        for sub in node.iter_subtrees():
            if sub.data == "call":
                callee = str(sub.children[0])
                if callee in m._IMPURE or (callee in defs and not m._is_pure(callee)):
                    return True
        return False

    def _deciding(self, node, scope, value, name, coll, cond, want: bool):
        """any(...)/all(...) that stop at the first value deciding the answer, like Python's."""
        collf = self.e(coll, scope)
        slot = scope.add(str(name))
        valf = self.e(value, scope)
        condf = self.e(cond, scope) if cond is not None else None
        iterable = self.iterable

        where = self.loc(node)

        def decide(ctx):
            loc = ctx.locals
            items = iterable(collf(ctx), node)
            b = ctx.budget - _size(items)
            ctx.budget = b
            if b < 0:
                spend_failed(ctx, where, "`any`/`all`")
            for x in items:
                loc[slot] = x
                if (condf is None or condf(ctx)) and bool(valf(ctx)) is want:
                    return want
            return not want
        return decide

    def x_call(self, node, scope):
        fname = str(node.children[0])
        if fname in self.m._IMPURE:
            self.m.uses_chance = True
        argfs = self.args(node.children[1], scope)
        m = self.m
        loc = self.loc(node)
        if fname in m.function_defs:
            inline = m.inline_body(fname)
            if inline is not None and len(argfs) == len(inline[1]) and self.plain_reads(node.children[1]):
                return self.inline(fname, inline, argfs, node)
            return m.function_call(fname, argfs, node, self)
        if fname in _AGGREGATES and len(argfs) == 1:
            agg = _AGGREGATES[fname]
            f0 = argfs[0]
            iterable = self.iterable

            def aggregate(ctx):
                values = iterable(f0(ctx), node)
                b = ctx.budget - _size(values)
                ctx.budget = b
                if b < 0:
                    spend_failed(ctx, loc, f"`{fname}`")
                try:
                    return agg(values)
                except rt.RuleRuntimeError as e:
                    raise rt.relocate(e, loc) from None
                except TypeError:
                    raise rt.RuleRuntimeError(f"`{fname}` cannot combine {label_of(values)}", loc) from None
            return aggregate
        if fname in ("max", "min") and len(argfs) > 1:
            fn = max if fname == "max" else min

            def extreme(ctx):  # like max/min over a collection: none counts for nothing
                values = [v for v in (f(ctx) for f in argfs) if v is not None]
                return fn(values) if values else None
            return extreme
        zfam = m.zone_family(fname)
        if zfam is not None:
            if len(argfs) != 1:
                raise CompileError(f"`{fname}(player)` takes one player", node)
            a0 = argfs[0]

            def zone_of(ctx):
                p = a0(ctx)
                if type(p) is not Seat:
                    raise rt.RuleRuntimeError(f"`{fname}(...)` needs a player, got {label_of(p)}", loc)
                return zfam[p.id]
            return zone_of
        builtin = m.builtin_function(fname)
        if builtin is not None:
            fn, arity = builtin
            if arity is not None and len(argfs) not in arity:
                raise CompileError(f"`{fname}` takes {' or '.join(map(str, arity))} argument(s), got {len(argfs)}", node)

            errors = (TypeError, AttributeError, ValueError, IndexError, KeyError, OverflowError)
            if len(argfs) == 1:
                a0, = argfs

                def call1(ctx):
                    try:
                        return fn(ctx, a0(ctx))
                    except errors as e:
                        raise rt.RuleRuntimeError(f"`{fname}` failed: {e}", loc) from None
                    except rt.RuleRuntimeError as e:
                        raise rt.relocate(e, loc) from None
                return call1
            if len(argfs) == 2:
                a0, a1 = argfs

                def call2(ctx):
                    try:
                        return fn(ctx, a0(ctx), a1(ctx))
                    except errors as e:
                        raise rt.RuleRuntimeError(f"`{fname}` failed: {e}", loc) from None
                    except rt.RuleRuntimeError as e:
                        raise rt.relocate(e, loc) from None
                return call2

            def call(ctx):
                try:
                    return fn(ctx, *[a(ctx) for a in argfs])
                except errors as e:
                    raise rt.RuleRuntimeError(f"`{fname}` failed: {e}", loc) from None
                except rt.RuleRuntimeError as e:
                    raise rt.relocate(e, loc) from None
            return call
        known = list(m.function_defs) + list(_AGGREGATES) + m.builtin_function_names() + m.zone_family_names()
        raise CompileError(f"unknown function `{fname}`", node.children[0], hint=did_you_mean(fname, known))

    # ---- text with {expressions} -------------------------------------------------------

    def template(self, tok, scope):
        """A quoted string of rules text with {expressions}; errors point inside the string."""
        text = self.string(tok) if isinstance(tok, Token) else tok
        src = self.src
        if isinstance(tok, Token) and src is not None:
            line, column = tok.line, tok.column
            if self.kind == "expr" and "\n" in src.text:
                here = self.loc(tok)
                return self.template_text(text, scope, at=lambda k: (here.file, here.line, here.column + 1 + k, src))
            return self.template_text(text, scope, at=lambda k: (*_loc_tuple(src.locate(line, column + 1 + k)), src))
        return self.template_text(text, scope)

    def template_text(self, text: str, scope, src: SourceText | None = None, at=None):
        """Compile a text with {expressions}. `src` is the YAML value holding it, or `at(offset)`
        gives (file, line, column, source) of an offset in the text: errors then point inside it."""
        if at is None and src is not None:
            def at(k, src=src):
                before = src.text[:k]
                line = before.count("\n") + 1
                column = k - (before.rfind("\n") + 1) + 1
                return (*_loc_tuple(src.locate(line, column)), src)
        parts = []
        offset = 0
        for i, piece in enumerate(re.split(r"\{([^{}]*)\}", text)):
            if i % 2 == 0:
                if piece:
                    parts.append(piece)
                offset += len(piece) + 1
            else:
                saved = self.src, self.kind
                if at is not None:
                    file, line, column, whole = at(offset)
                    piece_src = SourceText(piece, file, line, column, False, 0, whole.lines)
                else:
                    piece_src = SourceText.plain(piece, self.src.file if self.src else "<text>")
                try:
                    f = self.expr(piece_src, scope)
                finally:
                    self.src, self.kind = saved
                parts.append(f)
                offset += len(piece) + 1
        parts = tuple(parts)

        def render(ctx):
            viewer = ctx.viewer
            if viewer is None:
                return "".join(p if isinstance(p, str) else label_of(p(ctx)) for p in parts)
            return "".join(p if isinstance(p, str) else label_for(p(ctx), viewer) for p in parts)
        return render


__all__ = ["Compiler", "CompileError", "Scope", "ParseFailure", "did_you_mean", "_MISS"]
