"""Procedures, events and triggers of a match: compiled and bound to their hooks; the content
functions typed (`function_defs`: each body parsed once) and compiled. Which procedures and events
may wait for a choice, and which functions are pure, it asks the analysis (lang/analysis.py:
`waiting`, `impure`) once for the whole content.

A part of the GameDefinition (definition.py): its linked handlers; `self.d` is the definition being
built, `self.world` its world. It holds two parts of the definition beside it, made here: the cards'
powers (`self.powers`, powers.py), collected with the rules' triggers and compiled with them, and
the chains that run a `do` or an `emit` (`self.dispatch`, dispatch.py), built once every handler is
compiled.
"""
from __future__ import annotations

from functools import cached_property

from .. import limits as lim
from ..runtime import context as rt
from ..runtime.library import _ENGINE_EVENTS
from ..lang.analysis import facts, impure, waiting
from ..lang.scope import CompileError, Scope, stamped
from ..errors import did_you_mean
from ..lang.parser import ParseFailure, parse
from ..lang.symbols import FunctionDef
from ..errors import Location
from ..ruleset.yamlio import SourceText, Snippet
from .dispatch import Dispatch
from .parts import Handler, Part, _AlreadyReported
from .powers import Powers


def _not_compiled(ctx, loc, *args):
    raise rt.RuleRuntimeError("internal: a function called before it was compiled", loc)


class Linker(Part):
    def __init__(self, d, world):
        super().__init__(d)
        self.world = world
        self.powers = Powers(d, world, self)
        self.dispatch = Dispatch(d, self)
        self.function_defs = {}
        self.on_entered = None  # the `on entered` triggers, if the content has any

    # ---- rules: procedures, events, triggers ---------------------------------------------

    def _collect_rules(self):
        spec = self.d.spec
        self.procedure_params = {name: list(p.params) for name, p in spec.procedures.items()}
        for kind, table in (("procedure", spec.procedures), ("function", spec.functions)):
            for name, f in table.items():
                seen, dup = set(), set()
                for p in map(str, f.params):  # one pass: a long list costs no more than reading it
                    (dup if p in seen else seen).add(p)
                if dup:
                    self.d.errors.add(f.at("params"), f"{kind} `{name}` names its parameter `{min(dup)}` twice")
        for name, event in spec.events.items():
            if name in _ENGINE_EVENTS and list(event.params) != _ENGINE_EVENTS[name]:
                self.d.errors.add(event.at(name),
                                f"`{name}` is an event of the engine: its arguments are ({', '.join(_ENGINE_EVENTS[name])})",
                                hint="do not declare it, or declare it with exactly these names")
        self.event_params = {name: list(event.params) for name, event in spec.events.items()}
        for builtin_event, params in _ENGINE_EVENTS.items():
            self.event_params.setdefault(builtin_event, params)
        # event/procedure -> [(tree, snippet, binding)]: the binding is None for the rules' triggers,
        # (card, its `while`) for a card's power (powers.py), one entry per copy of the card. The
        # cards' powers come first, in card order, then the rules' triggers in file order.
        self.triggers = {"on": {}, "instead": {}}
        self.powers.collect()
        for snip in spec.triggers:
            self.add_trigger(snip)
        self.procedure_trees = {}
        for name, procedure in spec.procedures.items():
            snip = procedure.text("effect", label=f"procedure {name}")
            try:
                self.procedure_trees[name] = parse(snip.src, "effect").body if snip else []
            except ParseFailure as e:
                self.d.errors.problems.extend(e.problems)
                self.procedure_trees[name] = []
        self._suspends = self._suspension_analysis()
        self.function_defs = self._typed_functions()  # what the compiler (lang/) reads of them
        purity = self.d.compile_memo.purity  # which draw at random (analysis.impure): answered at once
        drawing = impure({name: fd.tree for name, fd in self.function_defs.items()}, self._IMPURE)
        purity.update((name, name not in drawing) for name in self.function_defs)

    def add_trigger(self, snip, binding=None):
        """Parse a trigger (`on EVENT ...` or `instead of PROCEDURE ...`) and index it by its hook;
        returns its tree, or None when it has a problem (reported)."""
        try:
            tree = parse(snip.src, "trigger")
        except ParseFailure as e:
            self.d.errors.problems.extend(e.problems)
            return None
        kind, name = tree.kind, str(tree.event)
        if name not in self.event_params and name not in self.procedure_params:
            loc = snip.src.locate(tree.event.line, tree.event.column)
            self.d.errors.add(loc, f"trigger on unknown event `{name}`",
                            hint=did_you_mean(name, list(self.event_params) + list(self.procedure_params))
                            or "declare it under `events:` or `procedures:`", context=snip.src.context(loc))
            return None
        if kind == "instead" and name not in self.procedure_params:
            loc = snip.src.locate(tree.event.line, tree.event.column)
            self.d.errors.add(loc, f"`instead of {name}`: only a procedure can be replaced",
                            hint="declare it under `procedures:` and call it with `do`")
            return None
        for b in (binding if binding is not None else [None]):
            self.triggers[kind].setdefault(name, []).append((tree, snip, b))
        return tree

    def _suspension_analysis(self):
        """Which procedures and events may wait for a choice (analysis.waiting), from the bodies
        each runs: a procedure's own and its triggers', an event's triggers."""
        procedures = {name: [self.procedure_trees.get(name, [])] + [trigger.body for kind in ("on", "instead")
                                                                     for trigger, *_ in self.triggers[kind].get(name, [])]
                      for name in self.procedure_params}
        events = {name: [trigger.body for trigger, *_ in self.triggers["on"].get(name, [])] for name in self.event_params}
        return waiting(procedures, events)

    def procedure_suspends(self, name):
        return self._suspends.get(("do", name), False)

    def event_suspends(self, name):
        return self._suspends.get(("emit", name), False)

    def register(self, fn) -> int:
        self.d.conts.append(fn)
        return len(self.d.conts) - 1

    @cached_property
    def ret(self):
        """`ret(ctx)`, the end of a body: go back to the caller's continuation, if any. A frame
        whose continuation is itself `ret` (a call that ended its caller's body, a body without
        handlers after it) is popped in the same loop, as the call it stands for would."""
        conts = self.d.conts

        def ret(ctx):
            stack = ctx.stack
            while stack:
                kid, loc = stack.pop()
                ctx.locals = loc
                mark = ctx.marks
                # an event's frame left: what its caller emits has the caller's cause (resumable._call)
                while mark is not None and len(stack) < mark[0]:
                    ctx.cause = mark[1]
                    ctx.marks = mark = mark[2]
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
        c = self.d.compiler
        return c.failures.run(lambda: self._body(stmts, snip, params, cond_tree=cond_tree, kind=kind,
                                                 binding=binding, replacing=replacing))

    def _body(self, stmts, snip, params, *, cond_tree, kind, binding, replacing):
        c = self.d.compiler
        scope = Scope(params, src=snip.src, kind=kind, replacing=replacing)
        if binding is not None:
            scope.bound["this"] = binding.card
        # a condition that fails is reported with the body's own problems (scope.Failures)
        cond = c.failures.attempt(lambda: c.e(cond_tree, scope), scope) if cond_tree is not None else None
        if binding is not None:
            cond = self.powers.condition(binding, scope, cond)
        body = c.seq(stmts, scope, self.ret)
        direct = None
        if not any(c.suspends(s, scope) for s in stmts):
            direct = c.codegen.statements(stmts, scope)  # a `stop` ends it
        return Handler(cond, body, direct, len(params), max(scope.size, len(params)), snip.where)

    def _is_static(self, tree) -> bool:
        """An expression made of literals, operators and constants (options) only."""
        return facts(tree).static(self.world.constants)

    def _guard(self, fn, src=None):
        """`fn()`, its problems reported; None if it had any. `src`: the text compiled, where a
        text nested too deeply to compile is reported."""
        try:
            return fn()
        except ParseFailure as e:
            self.d.errors.problems.extend(e.problems)
        except CompileError as e:
            self.d.errors.problems.extend(self.d.compiler.problems(e))
        except _AlreadyReported:
            pass
        except RecursionError:  # text within the nesting cap whose compiled form still nests too deep
            where = src.locate(1, 1) if src is not None else Location(self.d.rs.name)
            self.d.errors.add(where, "rules nested too deeply to compile (functions inlined into each other?)",
                            hint="split the text: a `let`, a function or a procedure for a part")
        return None

    def _typed_functions(self) -> dict:
        """name -> FunctionDef: each content function's body parsed once (a syntax error is
        reported when the function is compiled)."""
        out = {}
        for name, spec in self.d.spec.functions.items():
            snip = spec.text("expr", label=f"function {name}")
            tree = failure = None
            if snip is not None:
                try:
                    tree = parse(snip.src, "expr")
                except ParseFailure as e:
                    failure = e
            out[name] = FunctionDef(name, tuple(spec.params), snip, tree, failure)
        return out

    def _compile_all(self):
        self._functions = {}
        self._direct = {}
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
                        h.keyed = self.dispatch.keyed(trigger, binding, params) if kind == "on" else None
                        hs.append(h)
                self._handlers[kind][name] = hs
        self._bodies = {}
        for name, stmts in self.procedure_trees.items():
            snip = (self.d.spec.procedures[name].text("effect", label=f"procedure {name}")
                    or Snippet(SourceText.plain(""), name))
            h = self._guard(lambda: self._compile_body(stmts, snip, self.procedure_params[name]), snip.src)
            if h is not None:
                self._bodies[name] = h
        if self.d.observer is not None and not self.d.errors.problems:
            self.d.observer.instrument_bodies(self.d)
        for name in self.procedure_params:
            self.dispatch.build_procedure(name)
        for name in self.event_params:
            self.dispatch.build_event(name)
        self.on_entered = None
        if self._handlers["on"].get("entered"):
            if self.event_suspends("entered"):
                _, snip, _ = self.triggers["on"]["entered"][0]
                self.d.errors.add(snip.src.locate(1, 1), "`on entered` triggers cannot ask for a choice",
                                hint="they run inside every move; do the choice in an action or a procedure")
            else:
                dispatch = self.dispatch._event_direct["entered"]
                self.on_entered = lambda ctx, card, zone: dispatch(ctx, [card, zone])
        for name in ("round_start", "round_end", "turn_start", "turn_end"):  # emitted by the flow itself
            if self._handlers["on"].get(name) and self.event_suspends(name):
                _, snip, _ = self.triggers["on"][name][0]
                self.d.errors.add(snip.src.locate(1, 1), f"`on {name}` triggers cannot ask for a choice (`choose`, "
                                                       f"or a procedure or event that does)",
                                hint="the flow runs them between decisions; ask in flow.round.start/"
                                     "flow.turn.start, an action or a procedure", context=snip.src.context(
                                         snip.src.locate(1, 1)))
        for name in list(self.function_defs):
            self._guard(lambda: self._compile_function(name))

    # functions: expressions with parameters, each call gets its own frame
    def _compile_function(self, name):
        if name in self._functions:
            return self._functions[name]
        fd = self.function_defs[name]
        params = list(fd.params)
        snip = fd.snip
        self._functions[name] = None  # recursion guard: resolved late
        if fd.failure is not None:
            raise fd.failure
        scope = Scope(params).reading(snip.src)
        c = self.d.compiler
        direct = self._direct_ok(name)
        caller = (name, len(params), self._is_pure(name)) if direct else None
        modified = bool(self.powers.modifiers.get(name))
        tree = fd.tree
        if modified and direct:  # its modifiers written after its value, in the same generated function
            then = self.powers.modifier_lines(name, params, scope)
            try:
                f = stamped(snip.src, "expr", lambda: c.codegen.function(tree, scope, caller, then))
            except (ParseFailure, CompileError):
                self._report_each_part(name, params)
                raise
            size = then.size
        else:
            f = stamped(snip.src, "expr", lambda: c.codegen.function(tree, scope, caller))
            size = scope.size
            if modified:  # counted by an observer (coverage): closures around each part
                f, size = self.powers.with_modifiers(name, f, params, size)
        if direct:
            self._direct_cell(name)[0] = f._interpret_call
        self._functions[name] = (f, len(params), size)
        return self._functions[name]

    def _report_each_part(self, name, params):
        """A modified function that failed to compile: its body and each card's modifier compiled
        alone, each problem reported (one mistake must not hide another card's); raises
        _AlreadyReported when that found any, else returns (the caller re-raises the failure)."""
        before = len(self.d.errors.problems)
        fd, c = self.function_defs[name], self.d.compiler
        body = Scope(params).reading(fd.snip.src)
        self._guard(lambda: stamped(fd.snip.src, "expr", lambda: c.codegen.function(fd.tree, body)), fd.snip.src)
        for value, when, binding in self.powers.modifiers[name]:
            scope = Scope(list(params) + ["value"])
            scope.bound["this"] = binding.card
            for snip in (value, when, binding.while_):
                if snip is not None:
                    self._guard(lambda snip=snip: c.expr(snip.src, scope), snip.src)
        if len(self.d.errors.problems) > before:
            raise _AlreadyReported()

    def _direct_ok(self, name) -> bool:
        """Whether calls of `name` go straight to its generated `_call`: not when an observer counts
        them (coverage)."""
        return self.d.observer is None

    def direct_caller(self, name, nargs, node):
        """[call] for generated code: `call(ctx, position, *values)` runs the content function
        `name` (filled in when it is compiled, so that it may be called before, or by itself);
        None when its calls go through `function_caller`."""
        params = self.d.spec.functions[name].params
        if nargs != len(params):
            raise CompileError(f"`{name}` takes {len(params)} argument(s), got {nargs}", node)
        if not self._direct_ok(name):
            return None
        return self._direct_cell(name)

    def _direct_cell(self, name) -> list:
        """[call] of the content function `name`, made when first asked (every function is compiled,
        so has its cell, once the definition is built)."""
        cell = self._direct.get(name)
        if cell is None:
            cell = self._direct[name] = [_not_compiled]
        return cell

    def function_caller(self, name, nargs, node, loc):
        """`call(ctx, *values)` calling the content function `name` with argument values already
        computed (what generated code calls). Pure calls are cached while the state cannot change."""
        params = list(self.d.spec.functions[name].params)
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
        if self.d.observer is not None or self.powers.modifiers.get(name):
            return None  # every call of a function is counted / cards modify its value: not in place
        cache = self.d.compile_memo.inline
        if (name, loops) in cache:
            return cache[(name, loops)]
        seen = set(seen or ()) | {name}
        cache[(name, loops)] = None  # while deciding: a recursive function is never inlined
        fd = self.function_defs[name]
        tree = fd.tree
        if tree is None:
            return None
        f = facts(tree)
        ok = f.size <= (self._INLINE_LOOP_NODES if loops else self._INLINE_NODES) and (loops or not f.loops)
        for callee in sorted(f.calls):
            if callee in self._IMPURE or (callee in self.function_defs and
                                           (callee in seen or not self._is_pure(callee))):
                ok = False
            elif callee in self.function_defs:
                self.inline_body(callee, seen, loops)  # decided first (a recursive one is never inlined)
        cache[(name, loops)] = (tree, list(fd.params), fd.snip.src) if ok else None
        return cache[(name, loops)]

    def _is_pure(self, name) -> bool:
        """A function is pure (cacheable while the state cannot change) unless it draws at random,
        itself or through the functions it calls (analysis.impure, asked once: `_compile_all`)."""
        return self.d.compile_memo.purity[name]
