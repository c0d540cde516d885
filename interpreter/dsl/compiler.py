"""From typed syntax trees (ast.py) to Python callables, once per match.

Every expression becomes ``f(ctx) -> value``, written as Python source by codegen.py, and every
statement a closure ``f(ctx)``. Names are resolved here, not while playing: a local is a slot
index, a zone or a card is the object itself, a variable is its storage list.

Statements that may wait for a player's choice are compiled by continuations.py, texts with
{expressions} by templates.py; both are parts of Compiler.
"""
from __future__ import annotations

import re

from lark import Token

from .. import runtime as rt
from ..errors import Location, Problem
from ..limits import BudgetExceeded, spend_failed
from ..model import Card, Seat, Zone, label_of
from ..yamlio import SourceText
from . import ast as A
from . import kinds
from .analysis import facts
from .codegen import ExprCodegen
from .ops import _NUMBER, _arith, _num
from .scope import _MISS, CompileError, Scope, did_you_mean, stamped
from .parser import ParseFailure, parse


from .continuations import Continuations
from .templates import Templates


def locate(node, src: SourceText | None, kind: str) -> Location:
    """Where `node` (a typed node or a token) of the text `src` is, in its content file. In an
    expression (`kind` "expr") folded over several YAML lines, positions are offsets of the
    one-line text the parser read."""
    if src is None:
        return Location("<rules>")
    line = column = None
    if isinstance(node, Token):
        line, column = node.line, node.column
    elif isinstance(node, A.Node) and node.at is not None:
        line, column = node.at[0], node.at[1]
    if line is None:
        return src.locate(1, 1)
    if kind == "expr" and "\n" in src.text:
        off = column - 1
        before = src.text[:off]
        line = before.count("\n") + 1
        column = off - (before.rfind("\n") + 1) + 1
    return src.locate(line, column)


class Compiler(Continuations, Templates):
    """Compiles the snippets of one match. `m` is the match being built."""

    def __init__(self, m):
        self.m = m
        self.codegen = ExprCodegen(self)

    # ---- entry points ----------------------------------------------------------------

    @staticmethod
    def problem(e: CompileError) -> Problem:
        """The problem a CompileError reports, at its position in the text it was raised in."""
        loc = locate(e.node, e.src, e.kind)
        return Problem(loc, e.message, hint=e.hint, context=e.src.context(loc) if e.src else "")

    @staticmethod
    def loc(node, scope) -> Location:
        """Where `node` of the text compiled in `scope` is, in its content file."""
        return locate(node, scope.src, scope.kind)

    def expr(self, src: SourceText, scope: Scope, caller=None):
        """Compile an expression text; returns f(ctx) (see ExprCodegen.function for `caller`).
        `scope` holds its locals; it is read from `src`."""
        tree = parse(src, "expr")
        scope = scope if scope.src is src else scope.reading(src)
        return stamped(src, "expr", lambda: self.codegen.function(tree, scope, caller))

    def stmt(self, node, scope):
        """A statement that never suspends: f(ctx)."""
        method = self._STATEMENTS.get(type(node))
        if method is None:
            raise CompileError(f"internal: unknown statement {type(node).__name__}", node)
        return stamped(scope.src, scope.kind, lambda: method(self, node, scope))

    def block(self, stmts, scope):
        fns = tuple(self.stmt(s, scope) for s in stmts)
        if len(fns) == 1:
            return fns[0]

        def run(ctx):
            for f in fns:
                f(ctx)
        return run

    def s_let_stmt(self, node, scope):
        f = self.e(node.value, scope)  # the value first: `let x = x + 1` reads the outer x
        slot = scope.add(str(node.name))

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
        msg = self.string(node.message)
        from ..errors import RuleRuntimeError
        loc = self.loc(node, scope)

        def run(ctx):
            raise RuleRuntimeError(msg, loc)
        return run

    def s_log_stmt(self, node, scope):
        said = self.template(node.message, scope).said  # written again for each viewer (templates.Said)

        def run(ctx):
            ctx.events.append(("log", [said(ctx)]))
        return run

    def s_finish_stmt(self, node, scope):
        what = str(node.what)
        rank = {"step": 1, "turn": 2, "round": 3, "game": 4}[what]
        names = {1: "step", 2: "turn", 3: "round", 4: "game"}

        def run(ctx):
            flow = ctx.st["flow"]
            cur = {"step": 1, "turn": 2, "round": 3, "game": 4}.get(flow.get("finish") or "", 0)
            if rank > cur:
                flow["finish"] = names[rank]
        return run

    def s_if_stmt(self, node, scope):
        branches = [(self.e(cond, scope), self.block(body, scope)) for cond, body in node.branches]
        otherwise = self.block(node.otherwise, scope) if node.otherwise is not None else None
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
        slot = scope.add(str(node.var))
        collf = self.e(node.coll, scope)
        body = self.block(node.body, scope)
        iterable = self.iterable_at

        loc = self.loc(node, scope)

        def run(ctx):
            items = list(iterable(collf(ctx), loc))
            b = ctx.budget - len(items) - 1
            ctx.budget = b
            if b < 0:
                spend_failed(ctx, loc, f"`for` over {len(items):,} items")
            for item in items:
                ctx.locals[slot] = item
                body(ctx)
        return run

    def s_repeat_stmt(self, node, scope):
        countf = self.e(node.count, scope)
        body = self.block(node.body, scope)
        loc = self.loc(node, scope)

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
        target, op, value = node.target, str(node.op), node.value
        valf = self.e(value, scope)
        setter, getter = self.lvalue(target, scope)
        kinds.check_assigned(self, target, op, value, scope)
        if op == "=":
            def run(ctx):
                setter(ctx, valf(ctx))
            return run
        sym = op[0]
        loc = self.loc(node, scope)

        def run2(ctx):
            a, b = getter(ctx), valf(ctx)
            if type(a) is int and type(b) is int:
                r = a + b if sym == "+" else a - b if sym == "-" else a * b
                if -_NUMBER <= r <= _NUMBER:
                    return setter(ctx, r)
            setter(ctx, _arith(ctx, sym, a, b, loc))
        return run2

    def s_move_stmt(self, node, scope):
        whatf, wheref, place = self.e(node.what, scope), self.e(node.to, scope), node.place
        top = place is not None and str(place) == "top"
        loc = self.loc(node, scope)
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
        af, bf = self.e(node.a, scope), self.e(node.b, scope)
        loc = self.loc(node, scope)

        def run(ctx):
            try:
                rt.swap(ctx, af(ctx), bf(ctx))
            except rt.RuleRuntimeError as e:
                raise rt.RuleRuntimeError(str(e), loc) from None
        return run

    def s_cycle_stmt(self, node, scope):
        zf = self.e(node.zones, scope)
        backward = node.direction is not None and str(node.direction) == "backward"
        loc = self.loc(node, scope)

        def run(ctx):
            zones = zf(ctx)
            if not isinstance(zones, list) or not all(type(z) is Zone for z in zones):
                raise rt.RuleRuntimeError(f"cycle needs a list of zones, not {label_of(zones)}", loc)
            rt.cycle(ctx, zones, backward)
        return run

    def s_shuffle_stmt(self, node, scope):
        self.m.uses_chance = True
        zf = self.e(node.zone, scope)
        loc = self.loc(node, scope)

        def run(ctx):
            z = zf(ctx)
            if type(z) is not Zone:
                raise rt.RuleRuntimeError(f"shuffle needs a zone, not {label_of(z)}", loc)
            rt.shuffle(ctx, z)
        return run

    def s_draw_stmt(self, node, scope):
        if any(z.get("refill_from") for z in self.m.rs.zones.values()):
            self.m.uses_chance = True  # a draw from an empty pile shuffles its refill in
        n, src, dst = node.count, node.source, node.to
        nf = self.e(n, scope) if n is not None else (lambda ctx: 1)
        sf, df = self.e(src, scope), self.e(dst, scope)
        loc = self.loc(node, scope)

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

    def s_call_stmt(self, node, scope):
        """`emit EVENT(...)` or `do PROCEDURE(...)` that cannot suspend: logged, then dispatched."""
        name = str(node.name)
        argfs = self.args(node.args, scope)
        self.check_arity(node, name, len(argfs))
        if type(node) is A.Do:
            dispatch = (self.m.procedure_direct_plain if node.unpreventable else self.m.procedure_direct)(name)
        else:
            dispatch = self.m.event_direct(name)
        loc = self.loc(node, scope)

        def run(ctx):
            args = [a(ctx) for a in argfs]
            b = ctx.budget - 1
            ctx.budget = b
            if b < 0:
                spend_failed(ctx, loc, f"`{name}`")
            ctx.events.append((name, args))
            dispatch(ctx, args)
        return run

    def super_call(self, node, scope):
        """(procedure, f(ctx) -> the argument values) of `super`: its own arguments, or the
        replaced procedure's parameters as they are now."""
        if scope.replacing is None:
            raise CompileError("`super` runs what an `instead of` rule replaces: it is only written in one", node,
                               hint="call the procedure with `do NAME(...)`")
        name, _ = scope.replacing
        n = len(self.m.procedure_params[name])
        if node.args is None:
            return name, (lambda ctx: ctx.locals[:n])
        if len(node.args) != n:
            raise CompileError(f"`super` of `{name}` takes {n} argument(s), got {len(node.args)}", node)
        argfs = self.args(node.args, scope)
        return name, (lambda ctx: [a(ctx) for a in argfs])

    def s_super_stmt(self, node, scope):
        name, argsf = self.super_call(node, scope)
        dispatch = self.m.super_direct(*scope.replacing)
        loc = self.loc(node, scope)

        def run(ctx):
            b = ctx.budget - 1
            ctx.budget = b
            if b < 0:
                spend_failed(ctx, loc, f"`super` of `{name}`")
            dispatch(ctx, argsf(ctx))
        return run

    def s_choose_stmt(self, node, scope):  # only reached when wrongly compiled direct
        raise CompileError("internal: choose compiled as direct", node)

    _STATEMENTS = {}  # statement class -> method, filled below the class

    def check_arity(self, node, name, n):
        m = self.m
        if type(node) is A.Do:
            if name not in m.procedure_params:
                raise CompileError(f"unknown procedure `{name}`", node.name,
                                   hint=did_you_mean(name, m.procedure_params) or "declare it under `procedures:`")
            want = len(m.procedure_params[name])
        else:
            if name not in m.event_params:
                raise CompileError(f"unknown event `{name}`", node.name,
                                   hint=did_you_mean(name, m.event_params) or "declare it under `events:`")
            want = len(m.event_params[name])
        if n != want:
            raise CompileError(f"`{name}` takes {want} argument(s), got {n}", node)

    def args(self, args, scope):
        return tuple(self.e(a, scope) for a in args)

    # ---- assignment targets ----------------------------------------------------------

    def lvalue(self, node, scope):
        m = self.m
        if type(node) is A.Name:
            name = str(node.name)
            if name in scope.slots:
                slot = scope.slots[name]

                def set_local(ctx, v):
                    ctx.locals[slot] = v
                return set_local, lambda ctx: ctx.locals[slot]
            if name in m.gvars:
                enc, dec = m.var_codec("gv", name)
                getter = self.e(node, scope)

                gloc = self.loc(node, scope)
                typ = m.gvars[name]["type"]

                def set_global(ctx, v):
                    try:
                        ctx.st["gv"][name] = enc(v) if enc else v
                    except (AttributeError, TypeError):
                        raise rt.RuleRuntimeError(f"`{name}` holds a {typ}, not {label_of(v)}", gloc) from None
                return set_global, getter
            raise CompileError(f"`{name}` is not a variable", node,
                               hint=did_you_mean(name, list(scope.slots) + list(m.gvars)) or "declare it under `vars:`")
        if type(node) is A.Attr:
            objf = self.e(node.obj, scope)
            name = str(node.name)
            tables = []
            for kind in ("cv", "pv", "zv"):
                if name in m.vars_of(kind):
                    tables.append(kind)
            if not tables:
                known = list(m.cvars) + list(m.pvars) + list(m.zvars)
                raise CompileError(f"`{name}` is not a variable of cards, players or zones", node.name,
                                   hint=did_you_mean(name, known) or "declare it under `vars:` to change it")
            codecs = {kind: m.var_codec(kind, name) for kind in tables}
            by_type = {}
            if "cv" in tables:
                by_type[Card] = ("cv", codecs["cv"][0])
            if "pv" in tables:
                by_type[Seat] = ("pv", codecs["pv"][0])
            if "zv" in tables:
                by_type[Zone] = ("zv", codecs["zv"][0])
            loc = self.loc(node, scope)
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
        """An expression tree compiled to f(ctx): Python source written by codegen.py."""
        return stamped(scope.src, scope.kind, lambda: self.codegen.function(node, scope))

    def string(self, tok) -> str:
        s = str(tok)[1:-1]
        return re.sub(r"\\(.)", r"\1", s)

    def constant_of(self, node):
        """(True, value) when a node is a literal."""
        t = type(node)
        if t is A.Num or t is A.Const:
            return True, node.value
        if t is A.Str:
            return True, self.string(node.token)
        return False, None

    @staticmethod
    def iterable_at(v, loc):
        """`v` as a collection to go through, or a rule error at `loc`."""
        if v is None:
            return []
        if type(v) is Zone:
            raise rt.RuleRuntimeError(f"{v} is a zone: write `{v.name}.cards` to go through its cards", loc)
        if isinstance(v, (int, bool, str, Card, Seat)):
            raise rt.RuleRuntimeError(f"{label_of(v)} is not a collection", loc)
        return v

    @staticmethod
    def plain_reads(args) -> bool:
        """Arguments that only read (names, attributes, literals): safe to evaluate more than once."""
        return all(facts(a).plain for a in args)

    def _draws_chance(self, node) -> bool:
        """Whether an expression rolls, draws at random or shuffles (directly or through a function)."""
        m = self.m
        defs = getattr(m, "function_defs", {})
        return any(callee in m._IMPURE or (callee in defs and not m._is_pure(callee)) for callee in facts(node).calls)


Compiler._STATEMENTS.update({
    A.Let: Compiler.s_let_stmt, A.Pass: Compiler.s_pass_stmt, A.StopStmt: Compiler.s_stop_stmt,
    A.Fail: Compiler.s_fail_stmt, A.Log: Compiler.s_log_stmt, A.Finish: Compiler.s_finish_stmt,
    A.If: Compiler.s_if_stmt, A.For: Compiler.s_for_stmt, A.Repeat: Compiler.s_repeat_stmt,
    A.Assign: Compiler.s_assign_stmt, A.Move: Compiler.s_move_stmt, A.Swap: Compiler.s_swap_stmt,
    A.Cycle: Compiler.s_cycle_stmt, A.Shuffle: Compiler.s_shuffle_stmt, A.Draw: Compiler.s_draw_stmt,
    A.Emit: Compiler.s_call_stmt, A.Do: Compiler.s_call_stmt, A.Choose: Compiler.s_choose_stmt,
    A.Super: Compiler.s_super_stmt,
})

__all__ = ["Compiler", "CompileError", "Scope", "ParseFailure", "did_you_mean", "_MISS"]
