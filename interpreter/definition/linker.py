"""Procedures, events and triggers of a match: compiled and bound to their hooks, with the
analysis of which may wait for a choice and which functions are pure.

A part of Match (match.py), which inherits it; `self` is the Match being built.
"""
from __future__ import annotations

from dataclasses import replace
from functools import cached_property

from .. import limits as lim
from .. import runtime as rt
from ..builtins import _ENGINE_EVENTS
from ..dsl import ast as A
from ..dsl.analysis import facts
from ..dsl.scope import CompileError, Scope, did_you_mean, stamped
from ..dsl.parser import ParseFailure, parse
from ..errors import Location
from ..yamlio import SourceText, Snippet
from .parts import Handler, _AlreadyReported
from .powers import Powers


def _not_compiled(ctx, loc, *args):
    raise rt.RuleRuntimeError("internal: a function called before it was compiled", loc)


def _not_built(ctx):
    raise rt.RuleRuntimeError("internal: a procedure or event run before it was built")


class Linker(Powers):
    # ---- rules: procedures, events, triggers ---------------------------------------------

    def _collect_rules(self):
        rs = self.rs
        self.procedure_params = {name: list(spec.get("params") or []) for name, spec in rs.procedures.items()}
        for kind, table in (("procedure", rs.procedures), ("function", rs.functions)):
            for name, spec in table.items():
                params = list(spec.get("params") or [])
                dup = sorted({p for p in params if params.count(p) > 1})
                if dup:
                    self.errors.add(self.rs.where_of(spec, "params"),
                                    f"{kind} `{name}` names its parameter `{dup[0]}` twice")
        for name, params in rs.events.items():
            if name in _ENGINE_EVENTS and list(params or []) != _ENGINE_EVENTS[name]:
                self.errors.add(self.rs.where_of(rs.events, name),
                                f"`{name}` is an event of the engine: its arguments are ({', '.join(_ENGINE_EVENTS[name])})",
                                hint="do not declare it, or declare it with exactly these names")
        self.event_params = {name: list(params or []) for name, params in rs.events.items()}
        for builtin_event, params in _ENGINE_EVENTS.items():
            self.event_params.setdefault(builtin_event, params)
        # event/procedure -> [(tree, snippet, binding)]: the binding is None for the rules' triggers,
        # (card, its `while`) for a card's power (powers.py), one entry per copy of the card. The
        # cards' powers come first, in card order, then the rules' triggers in file order.
        self.triggers = {"on": {}, "instead": {}}
        self._collect_powers()
        for snip in rs.triggers:
            self._add_trigger(snip)
        self.procedure_trees = {}
        for name, spec in rs.procedures.items():
            snip = rs.snippet(spec, "effect", f"procedure {name}")
            try:
                self.procedure_trees[name] = parse(snip.src, "effect").body if snip else []
            except ParseFailure as e:
                self.errors.problems.append(e.problem)
                self.procedure_trees[name] = []
        self._suspends = self._suspension_analysis()

    def _add_trigger(self, snip, binding=None):
        """Parse a trigger (`on EVENT ...` or `instead of PROCEDURE ...`) and index it by its hook;
        returns its tree, or None when it has a problem (reported)."""
        try:
            tree = parse(snip.src, "trigger")
        except ParseFailure as e:
            self.errors.problems.append(e.problem)
            return None
        kind, name = tree.kind, str(tree.event)
        if name not in self.event_params and name not in self.procedure_params:
            loc = snip.src.locate(tree.event.line, tree.event.column)
            self.errors.add(loc, f"trigger on unknown event `{name}`",
                            hint=did_you_mean(name, list(self.event_params) + list(self.procedure_params))
                            or "declare it under `events:` or `procedures:`", context=snip.src.context(loc))
            return None
        if kind == "instead" and name not in self.procedure_params:
            loc = snip.src.locate(tree.event.line, tree.event.column)
            self.errors.add(loc, f"`instead of {name}`: only a procedure can be replaced",
                            hint="declare it under `procedures:` and call it with `do`")
            return None
        for b in (binding if binding is not None else [None]):
            self.triggers[kind].setdefault(name, []).append((tree, snip, b))
        return tree

    @staticmethod
    def _calls(body, out):
        """Add to `out` what a body may wait on: a choice, the procedures it runs, the events it emits."""
        f = facts(body)
        if f.chooses:
            out.add(("choose", ""))
        out.update(("do", n) for n in f.does)
        out.update(("emit", n) for n in f.emits)

    def _suspension_analysis(self):
        deps = {}
        for name in self.procedure_params:
            out = set()
            self._calls(self.procedure_trees.get(name, []), out)
            for kind in ("on", "instead"):
                for trigger, *_ in self.triggers[kind].get(name, []):
                    self._calls(trigger.body, out)
            deps[("do", name)] = out
        for name in self.event_params:
            out = set()
            for trigger, *_ in self.triggers["on"].get(name, []):
                self._calls(trigger.body, out)
            deps[("emit", name)] = out
        sus = {k: False for k in deps}
        changed = True
        while changed:
            changed = False
            for k, calls in deps.items():
                if sus[k]:
                    continue
                if any(c[0] == "choose" or sus.get(c, False) for c in calls):
                    sus[k] = True
                    changed = True
        return sus

    def procedure_suspends(self, name):
        return self._suspends.get(("do", name), False)

    def event_suspends(self, name):
        return self._suspends.get(("emit", name), False)

    def register(self, fn) -> int:
        self.conts.append(fn)
        return len(self.conts) - 1

    @cached_property
    def ret(self):
        """`ret(ctx)`, the end of a body: go back to the caller's continuation, if any. A frame
        whose continuation is itself `ret` (a call that ended its caller's body, a body without
        handlers after it) is popped in the same loop, as the call it stands for would."""
        conts = self.conts

        def ret(ctx):
            stack = ctx.stack
            while stack:
                kid, loc = stack.pop()
                ctx.locals = loc
                k = conts[kid]
                if k is not ret:
                    return k(ctx)
            return None
        return ret

    def _compile_handler(self, trigger, snip, params, binding=None, replacing=None):
        """A trigger: its condition and its body, in a scope holding the event's arguments (and,
        for a card's power, `this` and the card's `while`). `replacing`: (procedure, index) of an
        `instead of` rule."""
        return self._compile_body(trigger.body, snip, params, cond_tree=trigger.cond, kind="trigger",
                                  binding=binding, replacing=replacing)

    def _compile_body(self, stmts, snip, params, cond_tree=None, kind="effect", binding=None, replacing=None):
        """A body (a procedure, or a trigger with its condition), compiled both ways: as
        continuations (it may wait for a choice) and, when it cannot, as a direct call."""
        c = self.compiler
        scope = Scope(params, src=snip.src, kind=kind, replacing=replacing)
        if binding is not None:
            scope.bound["this"] = binding.card
        cond = c.e(cond_tree, scope) if cond_tree is not None else None
        if binding is not None:
            cond = self._power_condition(binding, scope, cond)
        body = c.seq(stmts, scope, self.ret)
        direct = None
        if not any(c.suspends(s, scope) for s in stmts):
            direct = c.codegen.statements(stmts, scope)  # a `stop` ends it
        return Handler(cond, body, direct, len(params), max(scope.size, len(params)), snip.where)

    def _is_static(self, tree) -> bool:
        """An expression made of literals, operators and constants (options) only."""
        return facts(tree).static(self.constants)

    def _guard(self, fn, src=None):
        """`fn()`, its problems reported; None if it had any. `src`: the text compiled, where a
        text nested too deeply to compile is reported."""
        try:
            return fn()
        except ParseFailure as e:
            self.errors.problems.append(e.problem)
        except CompileError as e:
            self.errors.problems.append(self.compiler.problem(e))
        except _AlreadyReported:
            pass
        except RecursionError:  # text within the nesting cap whose compiled form still nests too deep
            where = src.locate(1, 1) if src is not None else Location(self.rs.name)
            self.errors.add(where, "rules nested too deeply to compile (functions inlined into each other?)",
                            hint="split the text: a `let`, a function or a procedure for a part")
        return None

    def _compile_all(self):
        rs = self.rs
        self.function_defs = {name: spec for name, spec in rs.functions.items()}
        self._functions = {}
        self.__dict__.setdefault("_direct", {})
        self._proc_cps, self._proc_direct, self._event_cps, self._event_direct = {}, {}, {}, {}
        # `do P(...) unpreventable` (P without its replacements) and `super` in P's i-th replacement
        self._plain_cps, self._plain_direct, self._super_cps, self._super_direct = {}, {}, {}, {}
        self._handlers = {"on": {}, "instead": {}}
        for kind in ("on", "instead"):
            for name, items in self.triggers[kind].items():
                params = self.procedure_params.get(name, self.event_params.get(name, []))
                hs = []
                for j, (trigger, snip, binding) in enumerate(items):
                    replacing = (name, j) if kind == "instead" else None
                    h = self._guard(lambda: self._compile_handler(trigger, snip, params, binding, replacing),
                                    snip.src)
                    if h is not None:
                        h.keyed = self._keyed(trigger, binding, params) if kind == "on" else None
                        hs.append(h)
                self._handlers[kind][name] = hs
        self._bodies = {}
        for name, stmts in self.procedure_trees.items():
            snip = rs.snippet(rs.procedures[name], "effect", f"procedure {name}") or Snippet(SourceText.plain(""), name)
            h = self._guard(lambda: self._compile_body(stmts, snip, self.procedure_params[name]), snip.src)
            if h is not None:
                self._bodies[name] = h
        if self.observer is not None and not self.errors.problems:
            self.observer.instrument_bodies(self)
        for name in self.procedure_params:
            self._build_procedure(name)
        for name in self.event_params:
            self._build_event(name)
        self.on_entered = None
        if self._handlers["on"].get("entered"):
            if self.event_suspends("entered"):
                _, snip, _ = self.triggers["on"]["entered"][0]
                self.errors.add(snip.src.locate(1, 1), "`on entered` triggers cannot ask for a choice",
                                hint="they run inside every move; do the choice in an action or a procedure")
            else:
                dispatch = self._event_direct["entered"]
                self.on_entered = lambda ctx, card, zone: dispatch(ctx, [card, zone])
        for name in ("round_start", "round_end", "turn_start", "turn_end"):  # emitted by the flow itself
            if self._handlers["on"].get(name) and self.event_suspends(name):
                _, snip, _ = self.triggers["on"][name][0]
                self.errors.add(snip.src.locate(1, 1), f"`on {name}` triggers cannot ask for a choice (`choose`, "
                                                       f"or a procedure or event that does)",
                                hint="the flow runs them between decisions; ask in flow.round.start/"
                                     "flow.turn.start, an action or a procedure", context=snip.src.context(
                                         snip.src.locate(1, 1)))
        for name in list(self.function_defs):
            self._guard(lambda: self._compile_function(name))
        self._compile_flow()
        self._compile_actions()
        self._compile_scoring()
        if self.observer is not None and not self.errors.problems:
            self.observer.instrument_rules(self)

    # functions: expressions with parameters, each call gets its own frame
    def _compile_function(self, name):
        if name in self._functions:
            return self._functions[name]
        spec = self.function_defs[name]
        params = list(spec.get("params") or [])
        snip = self.rs.snippet(spec, "expr", f"function {name}")
        scope = Scope(params)
        self._functions[name] = None  # recursion guard: resolved late
        c = self.compiler
        direct = self._direct_ok(name)
        caller = (name, len(params), self._is_pure(name)) if direct else None
        modified = bool(self.__dict__.get("modifiers", {}).get(name))
        if modified and direct:  # its modifiers written after its value, in the same generated function
            tree = parse(snip.src, "expr")
            scope = scope.reading(snip.src)
            then = self._modifier_lines(name, params, scope)
            f = stamped(snip.src, "expr", lambda: c.codegen.function(tree, scope, caller, then))
            size = then.size
        else:
            f = c.expr(snip.src, scope, caller)
            size = scope.size
            if modified:  # counted by an observer (coverage): closures around each part
                f, size = self._modified(name, f, params, size)
        if direct:
            self.__dict__.setdefault("_direct", {}).setdefault(name, [_not_compiled])[0] = f._interpret_call
        self._functions[name] = (f, len(params), size)
        return self._functions[name]

    def _direct_ok(self, name) -> bool:
        """Whether calls of `name` go straight to its generated `_call`: not when an observer counts
        them (coverage)."""
        return self.observer is None

    def direct_caller(self, name, nargs, node):
        """[call] for generated code: `call(ctx, position, *values)` runs the content function
        `name` (filled in when it is compiled, so that it may be called before, or by itself);
        None when its calls go through `function_caller`."""
        params = self.function_defs[name].get("params") or []
        if nargs != len(params):
            raise CompileError(f"`{name}` takes {len(params)} argument(s), got {nargs}", node)
        if not self._direct_ok(name):
            return None
        return self.__dict__.setdefault("_direct", {}).setdefault(name, [_not_compiled])

    def function_caller(self, name, nargs, node, loc):
        """`call(ctx, *values)` calling the content function `name` with argument values already
        computed (what generated code calls). Pure calls are cached while the state cannot change."""
        params = list(self.function_defs[name].get("params") or [])
        if nargs != len(params):
            raise CompileError(f"`{name}` takes {len(params)} argument(s), got {nargs}", node)
        holder = self._functions
        pure = self._is_pure(name)
        spent = lim.spend_failed
        compile_function = self._compile_function

        def call(ctx, *args):
            b = ctx.budget - 1
            ctx.budget = b
            if b < 0:
                spent(ctx, loc, f"calls of `{name}`")
            memo = ctx.memo if pure else None
            if memo is not None:
                key = (name, *args)
                try:
                    return memo[key]
                except KeyError:
                    pass
                except TypeError:  # a list argument: not cached
                    memo = None
            entry = holder.get(name) or compile_function(name)
            f, n, size = entry
            saved = ctx.locals
            ctx.locals = [*args, *([None] * (size - n))] if size > n else list(args)
            value = f(ctx)
            ctx.locals = saved
            if memo is not None:
                memo[key] = value
            return value
        return call

    _IMPURE = {"roll", "random", "shuffled"}
    _INLINE_NODES = 20  # small enough to compile in place
    _INLINE_LOOP_NODES = 40  # the same for a function that loops, called with a loop's variable

    def inline_body(self, name, seen=None, loops=False):
        """(tree, params, source) of a function small and simple enough to compile at its call
        sites (no filters or aggregates; the functions it calls pure, not itself: those that are not
        compiled in place too are called, each remembered while the state cannot change), else None.
        With `loops`, a function that loops may be too (called with a loop's variable, whose values
        change at each call, so remembering them while the state cannot change gains little)."""
        if self.observer is not None or self.__dict__.get("modifiers", {}).get(name):
            return None  # every call of a function is counted / cards modify its value: not in place
        cache = self.__dict__.setdefault("_inline", {})
        if (name, loops) in cache:
            return cache[(name, loops)]
        seen = set(seen or ()) | {name}
        cache[(name, loops)] = None  # while deciding: a recursive function is never inlined
        spec = self.function_defs[name]
        snip = self.rs.snippet(spec, "expr", name)
        if snip is None:
            return None
        try:
            tree = parse(snip.src, "expr")
        except ParseFailure:
            return None
        f = facts(tree)
        ok = f.size <= (self._INLINE_LOOP_NODES if loops else self._INLINE_NODES) and (loops or not f.loops)
        for callee in sorted(f.calls):
            if callee in self._IMPURE or (callee in self.function_defs and
                                           (callee in seen or not self._is_pure(callee))):
                ok = False
            elif callee in self.function_defs:
                self.inline_body(callee, seen, loops)  # decided first (a recursive one is never inlined)
        cache[(name, loops)] = (tree, list(spec.get("params") or []), snip.src) if ok else None
        return cache[(name, loops)]

    def _is_pure(self, name, seen=None) -> bool:
        """A function is pure (cacheable while the state cannot change) unless it rolls or shuffles."""
        cache = self.__dict__.setdefault("_purity", {})
        if name in cache:
            return cache[name]
        seen = seen or set()
        if name in seen:
            return True
        seen.add(name)
        snip = self.rs.snippet(self.function_defs[name], "expr", name)
        try:
            tree = parse(snip.src, "expr")
        except ParseFailure:
            return False
        pure = True
        for callee in sorted(facts(tree).calls):
            if callee in self._IMPURE or (callee in self.function_defs and not self._is_pure(callee, seen)):
                pure = False
        cache[name] = pure
        return pure

    def _dispatch_cps(self, handlers, final, first_only=False, then=None):
        """A chain running `handlers` in the event frame, then `final` (CPS)."""
        nxt = final
        for h in reversed(handlers):
            nxt = self._disp(h, nxt, then if first_only else None)
        return nxt

    def _disp(self, h, nxt, then):
        after = then if then is not None else nxt
        kid = self.register(after)
        nargs, nslots, cond, body = h.nargs, h.nslots, h.cond, h.body

        if cond is None:  # a procedure's body, a handler without condition
            pad = [None] * (nslots - nargs)

            def disp(ctx):
                ev = ctx.locals
                ctx.locals = ev[:nargs] + pad
                ctx.stack.append((kid, ev))
                return body(ctx)
            return disp

        def disp(ctx):
            ev = ctx.locals
            fr = ev[:nargs] + [None] * (nslots - nargs)
            ctx.locals = fr
            if not cond(ctx):
                ctx.locals = ev
                return nxt(ctx)
            ctx.stack.append((kid, ev))
            return body(ctx)
        return disp

    def _build_procedure(self, name):
        body = self._bodies.get(name)
        insteads = self._handlers["instead"].get(name, [])
        afters = self._handlers["on"].get(name, [])
        after_chain = self._dispatch_cps(afters, self.ret)
        main = self._disp(body, after_chain, None) if body is not None else after_chain
        self._entry(self._proc_cps, name)[0] = self._dispatch_cps(insteads, main, first_only=True, then=after_chain)
        self._entry(self._plain_cps, name)[0] = main
        only_body = self._disp(body, self.ret, None) if body is not None else self.ret
        for i in range(len(insteads)):  # what the i-th replacement's `super` runs: the next ones, then the body
            self._entry(self._super_cps, (name, i))[0] = self._dispatch_cps(insteads[i + 1:], only_body,
                                                                           first_only=True, then=self.ret)

        def run(ctx, args, h):
            if h is not None:
                ctx.locals = args + [None] * (h.nslots - h.nargs)
                h.direct(ctx)

        run_handlers, run_first = self._run_handlers, self._run_first
        after_plan = self._plan(afters)

        def plain(ctx, args, body=body, afters=after_plan):
            saved = ctx.locals
            try:
                run(ctx, args, body)
                run_handlers(ctx, args, afters)
            finally:
                ctx.locals = saved
        self._plain_direct[name] = plain
        for i in range(len(insteads)):
            def sup(ctx, args, rest=tuple(insteads[i + 1:]), body=body):
                saved = ctx.locals
                try:
                    if not run_first(ctx, args, rest):
                        run(ctx, args, body)
                finally:
                    ctx.locals = saved
            self._super_direct[(name, i)] = sup
        if not self.procedure_suspends(name) and body is not None and not insteads and not afters:
            def direct(ctx, args, run=body.direct, pad=[None] * (body.nslots - body.nargs)):
                """The body alone, in its own frame (nothing replaces it, no handler after it)."""
                saved = ctx.locals
                ctx.locals = args + pad
                try:
                    run(ctx)
                finally:
                    ctx.locals = saved
            self._proc_direct[name] = direct
        elif not self.procedure_suspends(name):
            def direct(ctx, args, body=body, insteads=insteads, afters=after_plan):
                saved = ctx.locals
                try:
                    if not run_first(ctx, args, insteads) and body is not None:
                        ctx.locals = args + [None] * (body.nslots - body.nargs)
                        body.direct(ctx)
                    run_handlers(ctx, args, afters)
                finally:
                    ctx.locals = saved
            self._proc_direct[name] = direct

    def _keyed(self, trigger, binding, params):
        """(slot, card) when the whole condition of a card's power is `PARAM == this` (its card has no
        `while`): it holds exactly when that argument is the card (values equal a card only when
        they are it), which a lookup tells at once (`_by_card`). None otherwise, or under an
        observer (coverage counts each condition)."""
        cond = trigger.cond
        if (binding is None or binding.while_ is not None or self.observer is not None or "this" in params
                or type(cond) is not A.Compare or str(cond.op) != "=="):
            return None
        names = [str(side.name) if type(side) is A.Name else None for side in (cond.left, cond.right)]
        if "this" not in names:
            return None
        other = names[1 - names.index("this")]
        return (params.index(other), binding.card) if other in params else None

    @staticmethod
    def _by_card(hs):
        """For an event whose handlers include card powers keyed on one argument (`_keyed`): (slot,
        {card: the handlers to visit when the argument is that card}, the handlers otherwise); each
        selection keeps the declared order, a keyed handler's condition (true there) dropped. None
        when no handler (or handlers keyed on different arguments) would gain."""
        keys = [getattr(h, "keyed", None) for h in hs]
        slots = {k[0] for k in keys if k is not None}
        if len(slots) != 1:
            return None
        table = {}
        for card in {k[1] for k in keys if k is not None}:
            table[card] = tuple(h if k is None else replace(h, cond=None)
                                for h, k in zip(hs, keys) if k is None or k[1] is card)
        return slots.pop(), table, tuple(h for h, k in zip(hs, keys) if k is None)

    @staticmethod
    def _run_first(ctx, args, hs) -> bool:
        """The first of the replacements `hs` whose condition holds, run in its own frame (ctx.locals
        left to it); whether there was one."""
        for h in hs:
            ctx.locals = args + [None] * (h.nslots - h.nargs)
            if h.cond is None or h.cond(ctx):
                h.direct(ctx)
                return True
        return False

    @staticmethod
    def _plan(hs) -> tuple:
        """What `_run_handlers` runs of handlers `hs`: (condition, direct entry, the frame's padding)."""
        return tuple((h.cond, h.direct, [None] * (h.nslots - h.nargs)) for h in hs)

    @staticmethod
    def _run_handlers(ctx, args, plan):
        """Handlers that cannot wait for a choice (their `_plan`), in order, each in its own frame,
        when its condition holds."""
        saved = ctx.locals
        try:
            for cond, direct, pad in plan:
                ctx.locals = args + pad
                if cond is None or cond(ctx):
                    direct(ctx)
        finally:
            ctx.locals = saved

    def _build_event(self, name):
        hs = self._handlers["on"].get(name, [])
        self._entry(self._event_cps, name)[0] = chain = self._dispatch_cps(hs, self.ret)
        run = self._run_handlers
        keyed = self._by_card(hs)
        if keyed is not None:
            slot, table, others = keyed
            # card -> (the handlers to visit, whether one of them may wait for a choice)
            table = {card: (self._plan(sel), any(h.direct is None for h in sel)) for card, sel in table.items()}
            otherwise = (self._plan(others), any(h.direct is None for h in others))
            ret = self.ret

            def select(args):
                try:
                    return table.get(args[slot], otherwise)
                except TypeError:  # a list: equal to no card
                    return otherwise

            def entry(ctx):
                """The event's chain of continuations when a handler to visit may wait for a choice,
                else (the same handlers, the same order, nothing saved in the state) directly."""
                args = ctx.locals
                try:
                    sel, wait = table.get(args[slot], otherwise)
                except TypeError:  # a list: equal to no card
                    sel, wait = otherwise
                if wait:
                    return chain(ctx)
                run(ctx, args, sel)
                return ret(ctx)
            self._event_cps[name][0] = entry
        if not self.event_suspends(name):
            hs = self._plan(hs)
            if keyed is not None:
                def direct(ctx, args):
                    run(ctx, args, select(args)[0])
            else:
                def direct(ctx, args, hs=hs):
                    if hs:
                        run(ctx, args, hs)
            self._event_direct[name] = direct

    @staticmethod
    def _entry(table, key):
        """The one-element holder of a CPS entry: handed to the compiled calls before the entry
        is built (bodies call each other), filled when it is (`_build_procedure`, `_build_event`)."""
        holder = table.get(key)
        if holder is None:
            holder = table[key] = [_not_built]
        return holder

    def procedure_entry_cps(self, name):
        """([entry], number of arguments): `entry[0](ctx)` runs `do name(...)` in continuations,
        its arguments in ctx.locals."""
        return self._entry(self._proc_cps, name), len(self.procedure_params.get(name, []))

    def event_entry_cps(self, name):
        return self._entry(self._event_cps, name), len(self.event_params.get(name, []))

    def procedure_direct(self, name):
        procs = self._proc_direct
        return lambda ctx, args: procs[name](ctx, args)

    def procedure_entry_cps_plain(self, name):
        return self._entry(self._plain_cps, name), len(self.procedure_params.get(name, []))

    def procedure_direct_plain(self, name):
        procs = self._plain_direct
        return lambda ctx, args: procs[name](ctx, args)

    def super_entry_cps(self, name, i):
        return self._entry(self._super_cps, (name, i)), len(self.procedure_params.get(name, []))

    def super_direct(self, name, i):
        chains = self._super_direct
        return lambda ctx, args: chains[(name, i)](ctx, args)

    def event_direct(self, name):
        evs = self._event_direct
        return lambda ctx, args: evs[name](ctx, args)
