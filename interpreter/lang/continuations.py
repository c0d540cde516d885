"""Statements that may wait for a player's choice, compiled in continuation-passing style.

A statement that may wait (`choose`, or a call of a procedure or event whose handlers may) is
compiled with the rest of its block as a registered continuation, whose id is saved in the state
with the locals: a suspended rule resumes after a save and load, a clone or a replay. A part of
Compiler (compiler.py), which holds it as `continuations`.
"""
from __future__ import annotations



from ..runtime import context as rt
from ..limits import spend_failed
from ..core.model import Seat, label_of
from . import ast as A
from .analysis import suspends
from .sources import Closure, end_of
from ..runtime.helpers import repeat_budget
from ..runtime.ops import _num
from .scope import CompileError, stamped



_WAITS = {  # what --source says of a statement compiled here (sources.Closure)
    A.Choose: "`choose`: asks a player, and the rest of its body waits",
    A.If: "`if` whose blocks may wait for a choice", A.For: "`for` whose body may wait for a choice",
    A.Repeat: "`repeat` whose body may wait for a choice",
    A.Do: "`do` of a procedure that may wait for a choice", A.Emit: "`emit` of an event whose handlers may wait",
    A.Super: "`super` of a procedure that may wait for a choice",
}


class Continuations:
    """A part of the Compiler `c` (compiler.py)."""

    def __init__(self, c):
        self.c, self.symbols = c, c.symbols

    # ---- may this statement wait for a choice? ---------------------------------------

    def suspends(self, node, scope) -> bool:
        """Whether a statement may wait for a choice (analysis.suspends, asking the definition
        whether a procedure or an event may)."""
        m = self.symbols
        return suspends(node, replacing=scope.replacing, procedure_suspends=m.procedure_suspends,
                        event_suspends=m.event_suspends)

    # ---- statements ------------------------------------------------------------------

    def seq(self, stmts, scope, k):
        """Compile statements followed by continuation k (a closure)."""
        return stamped(scope.src, scope.kind, lambda: self._seq(stmts, scope, k))

    def _seq(self, stmts, scope, k):
        if not stmts:  # nothing to run before k: k itself (a call ending its body returns to k at once)
            return k
        split = next((i for i, s in enumerate(stmts) if self.suspends(s, scope)), None)
        ret = self.symbols.ret
        if split is None:
            return self.c.codegen.statements(stmts, scope, then=[k], stop=ret)
        holder = []  # what follows the statements before the split: compiled after them (their slots first)
        # (none before the split: the suspending statement is the entry itself)
        pre = self.c.codegen.statements(stmts[:split], scope, then=holder, stop=ret) if split else None
        # the rest is compiled first (it is the continuation): declare every name the suspending
        # statement binds, however deep (a choose or a let inside an if, a for, a repeat)
        for sub in stmts[split].walk():
            if type(sub) in (A.Choose, A.For):
                scope.add(str(sub.var))
            elif type(sub) is A.Let:
                scope.add(str(sub.name))
        rest = self.seq(stmts[split + 1:], scope, k)
        holder.append(self.cps(stmts[split], scope, rest))
        return pre or holder[0]

    def cps(self, node, scope, rest):
        """A statement that may suspend, followed by `rest`."""
        t = type(node)
        m = self.symbols
        where = self.c.loc(node, scope)
        self.c.output.closures.append(Closure(where, scope.src, end_of(node), _WAITS.get(t, t.__name__)))
        if t is A.Choose:
            return self.choose(node, scope, rest)
        if t is A.If:
            branches = tuple((self.c.e(cond, scope), self.seq(body, scope, rest)) for cond, body in node.branches)
            otherwise = self.seq(node.otherwise, scope, rest) if node.otherwise is not None else rest

            def run(ctx):
                for c, b in branches:
                    if c(ctx):
                        return b(ctx)
                return otherwise(ctx)
            return run
        if t is A.For:
            var = scope.add(str(node.var))
            lst, idx = scope.hidden(), scope.hidden()
            collf = self.c.e(node.coll, scope)
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
            self.c.output.register(loop)
            holder.append(self.seq(node.body, scope, loop))

            floc = self.c.loc(node, scope)
            iterable_at = self.c.iterable_at

            def start(ctx):
                items = list(iterable_at(collf(ctx), floc))
                b = ctx.budget - len(items) - 1  # rt.spend, its text written only when it fails
                ctx.budget = b
                if b < 0:
                    spend_failed(ctx, floc, f"`for` over {len(items):,} items")
                ctx.locals[lst] = items
                ctx.locals[idx] = 0
                return loop(ctx)
            return start
        if t is A.Repeat:
            countf = self.c.e(node.count, scope)
            left = scope.hidden()
            holder = []

            def loop(ctx):
                n = ctx.locals[left]
                if n <= 0:
                    return rest(ctx)
                ctx.locals[left] = n - 1
                return holder[0](ctx)
            self.c.output.register(loop)
            holder.append(self.seq(node.body, scope, loop))

            rloc = self.c.loc(node, scope)

            def start(ctx):
                n = countf(ctx)
                if n is not None and type(n) is not int:
                    raise rt.RuleRuntimeError(f"repeat needs a number of times, not {label_of(n)}", rloc)
                repeat_budget(ctx, _num(n), rloc)
                ctx.locals[left] = _num(n)
                return loop(ctx)
            return start
        if t is A.Super:
            name, argsf = self.c.super_call(node, scope)
            entry, nslots = m.super_entry_cps(*scope.replacing)
            kid = self.c.output.register(rest)

            def run(ctx):
                args = argsf(ctx)
                ctx.stack.append((kid, ctx.locals))
                ctx.locals = args + [None] * (nslots - len(args))
                return entry[0](ctx)
            return run
        if t in (A.Do, A.Emit):
            name = str(node.name)
            argfs = self.c.args(node.args, scope)
            if t is A.Do:
                entry, _ = (m.procedure_entry_cps_plain if node.unpreventable else m.procedure_entry_cps)(name)
            else:
                entry, _ = m.event_entry_cps(name)
            kid = self.c.output.register(rest)
            self.c.check_arity(node, name, len(argfs))

            cloc = self.c.loc(node, scope)

            def run(ctx):
                args = [a(ctx) for a in argfs]
                b = ctx.budget - 1
                ctx.budget = b
                if b < 0:
                    spend_failed(ctx, cloc, f"`{name}`")
                ctx.events.append((name, args))
                ctx.stack.append((kid, ctx.locals))
                # the arguments (as many as the parameters: check_arity) are the callee's frame as
                # they are: nothing writes into a call's frame, each body and handler runs in its
                # own (Linker._disp, _run_handlers)
                ctx.locals = args
                return entry[0](ctx)
            return run
        raise CompileError(f"internal: cannot suspend in {t.__name__}", node)

    def choose(self, node, scope, rest):
        slot = scope.add(str(node.var))
        optf = self.c.e(node.options, scope)
        by = self.c.e(node.by, scope) if node.by is not None else None
        default_prompt = str(node.var).replace("_", " ")
        prompt = self.c.templates.template(node.prompt, scope) if node.prompt is not None else (lambda ctx: default_prompt)
        optional = node.optional
        m = self.symbols
        kid = self.c.output.register(rest)
        if node.prompt is not None:
            self.c.output.prompts[kid] = prompt  # rendered again for each viewer from the saved locals (views.prompt_for)
        where = self.c.loc(node, scope)
        iterable_at = self.c.iterable_at

        def run(ctx):
            opts = list(iterable_at(optf(ctx), where))
            if not opts or (len(opts) == 1 and not optional):
                ctx.locals[slot] = opts[0] if opts else None
                return rest(ctx)
            player = by(ctx) if by is not None else ctx.me
            if player is None:
                player = rt.turn_player(m, ctx.st)
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
                "options": rt.encode(opts),  # a new list
                "locals": rt.encode(ctx.locals),
                "stack": [[k, rt.encode(loc)] for k, loc in ctx.stack],
            })
            ctx.stack = []
            return None
        return run
