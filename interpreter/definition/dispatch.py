"""Procedures and events at run time: the chains that run a `do` or an `emit` through its
handlers (replacements, the body, reactions), in continuations for those that may wait for a
choice (lang/resumable.py) and directly for the others, and the entries that compiled calls
hold before they are built.

A part of the definition of its own (`dispatch`), held by the linker (linker.py, `self.links`
here), which compiles the handlers (its `_bodies`, `_handlers`) and asks for their chains to be
built (`build_procedure`, `build_event`).
"""
from __future__ import annotations

from dataclasses import replace

from ..runtime import context as rt
from ..lang import ast as A
from .parts import Part


def _not_built(ctx):
    raise rt.RuleRuntimeError("internal: a procedure or event run before it was built")


class Dispatch(Part):
    def __init__(self, d, links):
        super().__init__(d)
        self.links = links
        self._proc_cps, self._proc_direct, self._event_cps, self._event_direct = {}, {}, {}, {}
        # `do P(...) unpreventable` (P without its replacements) and `super` in P's i-th replacement
        self._plain_cps, self._plain_direct, self._super_cps, self._super_direct = {}, {}, {}, {}

    def _dispatch_cps(self, handlers, final, first_only=False, then=None):
        """A chain running `handlers` in the event frame, then `final` (CPS)."""
        nxt = final
        for h in reversed(handlers):
            nxt = self._disp(h, nxt, then if first_only else None)
        return nxt

    def _disp(self, h, nxt, then):
        after = then if then is not None else nxt
        kid = self.links.register(after)
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

    def build_procedure(self, name):
        links = self.links
        ret = links.ret
        body = links._bodies.get(name)
        insteads = links._handlers["instead"].get(name, [])
        afters = links._handlers["on"].get(name, [])
        after_chain = self._dispatch_cps(afters, ret)
        main = self._disp(body, after_chain, None) if body is not None else after_chain
        self._entry(self._proc_cps, name)[0] = self._dispatch_cps(insteads, main, first_only=True, then=after_chain)
        self._entry(self._plain_cps, name)[0] = main
        only_body = self._disp(body, ret, None) if body is not None else ret
        for i in range(len(insteads)):  # what the i-th replacement's `super` runs: the next ones, then the body
            self._entry(self._super_cps, (name, i))[0] = self._dispatch_cps(insteads[i + 1:], only_body,
                                                                           first_only=True, then=ret)

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
        if not links.procedure_suspends(name) and body is not None and not insteads and not afters:
            def direct(ctx, args, run=body.direct, pad=[None] * (body.nslots - body.nargs)):
                """The body alone, in its own frame (nothing replaces it, no handler after it)."""
                saved = ctx.locals
                ctx.locals = args + pad
                try:
                    run(ctx)
                finally:
                    ctx.locals = saved
            self._proc_direct[name] = direct
        elif not links.procedure_suspends(name):
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

    def keyed(self, trigger, binding, params):
        """(slot, card) when the whole condition of a card's power is `PARAM == this` (its card has no
        `while`): it holds exactly when that argument is the card (values equal a card only when
        they are it), which a lookup tells at once (`_by_card`). None otherwise, or under an
        observer (coverage counts each condition)."""
        cond = trigger.cond
        if (binding is None or binding.while_ is not None or self.d.observer is not None or "this" in params
                or type(cond) is not A.Compare or str(cond.op) != "=="):
            return None
        names = [str(side.name) if type(side) is A.Name else None for side in (cond.left, cond.right)]
        if "this" not in names:
            return None
        other = names[1 - names.index("this")]
        return (params.index(other), binding.card) if other in params else None

    @staticmethod
    def _by_card(hs):
        """For an event whose handlers include card powers keyed on one argument (`keyed`): (slot,
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

    def build_event(self, name):
        ret = self.links.ret
        hs = self.links._handlers["on"].get(name, [])
        self._entry(self._event_cps, name)[0] = chain = self._dispatch_cps(hs, ret)
        run = self._run_handlers
        keyed = self._by_card(hs)
        if keyed is not None:
            slot, table, others = keyed
            # card -> (the handlers to visit, whether one of them may wait for a choice)
            table = {card: (self._plan(sel), any(h.direct is None for h in sel)) for card, sel in table.items()}
            otherwise = (self._plan(others), any(h.direct is None for h in others))

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
        if not self.links.event_suspends(name):
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
        is built (bodies call each other), filled when it is (`build_procedure`, `build_event`)."""
        holder = table.get(key)
        if holder is None:
            holder = table[key] = [_not_built]
        return holder

    def procedure_entry_cps(self, name):
        """([entry], number of arguments): `entry[0](ctx)` runs `do name(...)` in continuations,
        its arguments in ctx.locals."""
        return self._entry(self._proc_cps, name), len(self.links.procedure_params.get(name, []))

    def event_entry_cps(self, name):
        return self._entry(self._event_cps, name), len(self.links.event_params.get(name, []))

    def procedure_direct(self, name):
        procs = self._proc_direct
        return lambda ctx, args: procs[name](ctx, args)

    def procedure_entry_cps_plain(self, name):
        return self._entry(self._plain_cps, name), len(self.links.procedure_params.get(name, []))

    def procedure_direct_plain(self, name):
        procs = self._plain_direct
        return lambda ctx, args: procs[name](ctx, args)

    def super_entry_cps(self, name, i):
        return self._entry(self._super_cps, (name, i)), len(self.links.procedure_params.get(name, []))

    def super_direct(self, name, i):
        chains = self._super_direct
        return lambda ctx, args: chains[(name, i)](ctx, args)

    def event_direct(self, name):
        if not self.links.triggers["on"].get(name) and self.d.observer is None:
            return rt.no_handlers  # known at load: nothing handles it (the call is left out)
        evs = self._event_direct
        return lambda ctx, args: evs[name](ctx, args)
