"""Calls in expressions, written as Python (a part of ExprCodegen, codegen.py): a content
function (compiled in place when it is small, else called through its generated `_call`), an
aggregate of a list, `max`/`min` of several values, a family of zones (`hand(p)`), a built-in
(on a line of its own: an error inside it points at the call).
"""
from __future__ import annotations

from dataclasses import replace

from . import ast as A
from ..errors import did_you_mean
from ..runtime import context as rt
from ..runtime.helpers import _size_of
from ..runtime.ops import _AGGREGATES
from .analysis import facts
from .kindfacts import whole
from .scope import _MISS, CompileError, Scope, stamped

_NOT_KEPT = object()  # a walk or distance not among the answers kept (Calls._kept_answer)


class Calls:
    """Writes calls for the ExprCodegen `g`."""

    WRITES = {A.Call: "g_call"}

    def __init__(self, g):
        self.g, self.c, self.symbols = g, g.c, g.symbols

    def g_call(self, node, scope):
        c, m = self.c, self.symbols
        fname = str(node.fn)
        if fname in m._IMPURE:
            c.output.uses_chance = True
        argnodes = node.args
        loc = c.loc(node, scope)
        if fname in m.function_defs:
            inline = m.inline_body(fname)
            if inline is None and any(self.g.known.loop_dependent(a, scope) for a in argnodes):
                inline = m.inline_body(fname, loops=True)
            if inline is not None and len(argnodes) == len(inline[1]) and c.plain_reads(argnodes):
                loops = facts(inline[0]).loops
                if loops:  # while calls are remembered, called: its value computed once for the same arguments
                    return self._remembered_or_in_place(node, scope, inline, loc)
                return self._inline(inline, [self.g.sharing.arg_read(a, scope, loops) for a in argnodes],
                                    [self.g.known.kind_of(a, scope) for a in argnodes], scope)
            return self._called(node, scope, loc)
        args = [self.g.x(a, scope) for a in argnodes]
        if fname in _AGGREGATES and len(args) == 1:
            return (f"_aggregate_of(ctx, {self.g.const(_AGGREGATES[fname], f'the aggregate `{fname}` (runtime/ops.py)')}, {args[0]}, {self.g.const(fname)}, "
                    f"{self.g.const(loc)}, {self.g.const(c.iterable_at)}, {self.g.const(_size_of)})")
        if fname in ("max", "min") and len(args) > 1:
            return f"_extreme({self.g.const(max if fname == 'max' else min)}, [{', '.join(args)}])"
        zfam = m.zone_family(fname)
        if zfam is not None:
            if len(args) != 1:
                raise CompileError(f"`{fname}(player)` takes one player", node)
            return f"_zone_of({self.g.const(zfam)}, {args[0]}, {self.g.const(fname)}, {self.g.const(loc)})"
        builtin = m.builtin_function(fname)
        if builtin is not None:
            from ..runtime.library import OF_THE_MATCH, _cell
            fn, arity = builtin
            if arity is not None and len(args) not in arity:
                from .changes import ARITY_CHANGES
                raise CompileError(f"`{fname}` takes {' or '.join(map(str, arity))} argument(s), got {len(args)}",
                                   node, hint=ARITY_CHANGES.get((fname, len(args)), ""))
            end = self.g.shortcuts.end_card(fname, fn, argnodes, args, scope)
            if end is not None:
                return end
            if fn in OF_THE_MATCH and all(type(a) is A.Str for a in argnodes):  # a constant of the match
                return self.g.const(fn(rt.Ctx({}, m), *[self.c.string(a.token) for a in argnodes]))
            if fname == "cell" and len(args) == 2 and fn is _cell:
                shifted = self.g.shortcuts.cell_shifted(argnodes, scope)
                if shifted is not None:
                    return shifted
            site = f"_c{next(self.g.names)}"  # a name of its own: its line tells where an error was
            self.g.env[site] = fn
            self.g.sites[site + "("] = (fname, loc)
            if fname == "cell" and len(args) == 2 and fn is _cell:  # the board's cell, or none: a lookup
                tests, names = [], []
                for a_node, a_text in zip(argnodes, args):
                    if self.g.known.static_int(a_node, scope) is not None or whole(self.g.known.kind_of(a_node, scope)):
                        names.append(a_text)
                    else:
                        t = self.g.tmp()
                        names.append(t)
                        tests.append(f"(_type({t} := {a_text}) is int)")
                key = f"{self.g.const(m.cell_at)}.get(({names[0]}, {names[1]}))"
                if not tests:
                    return key
                return f"({key} if ({' & '.join(tests)}) else (\n{site}(\nctx, {names[0]}, {names[1]})))"
            fast = self._kept_answer(fname, fn, argnodes, args, site, scope)
            if fast is not None:
                return fast
            return f"(\n{site}(\nctx{''.join(', ' + a for a in args)}))"
        known = list(m.function_defs) + list(_AGGREGATES) + m.builtin_function_names() + m.zone_family_names()
        raise CompileError(f"unknown function `{fname}`", node.fn, hint=did_you_mean(fname, known))

    def _called(self, node, scope, loc) -> str:
        """The content function of `node` called with its arguments (evaluated in order, before the
        call): through its generated `_call` once it is compiled, else through function_caller."""
        m, fname = self.symbols, str(node.fn)
        args = "".join(", " + self.g.xc(a, scope) for a in node.args)
        holder = m.direct_caller(fname, len(node.args), node)
        if holder is not None:  # its generated `_call`, once it is compiled
            return f"{self.g.const(holder, f'the content function `{fname}` (its generated _call)')}[0](ctx, {self.g.const(loc)}{args})"
        call = m.function_caller(fname, len(node.args), node, loc)
        return f"{self.g.const(call, f'the content function `{fname}`')}(ctx{args})"

    def _remembered_or_in_place(self, node, scope, inline, loc) -> str:
        """A function that loops, called with a loop's variable: compiled in place; but while calls
        are remembered (`ctx.memo`: the legal actions being listed, a run of `let`s) it is called,
        so the same arguments elsewhere (another parameter's domain, a requirement, a function) get
        its value for one step instead of its text's steps again. Which branch runs depends on what
        the engine is doing alone, never on a state's values: the same actions spend the same steps.
        Each branch is written apart (what one computes is read neither by the other nor after).
        Only in place when its loop is written out (`any`/`all` of a few constants: no loop left,
        and a loop testing it may write its tests in place)."""
        g = self.g
        saved = None if g.avail is None else dict(g.avail)
        in_place = self._inline(inline, [g.sharing.arg_read(a, scope, True) for a in node.args],
                                [g.known.kind_of(a, scope) for a in node.args], scope)
        if in_place in g.unrolled:
            return in_place
        try:
            if saved is not None:
                g.avail = dict(saved)
            called = self._called(node, scope, loc)
        finally:
            if saved is not None:
                g.avail = saved
        return f"({called} if ctx.memo is not None else {in_place})"

    def _kept_answer(self, fname, fn, argnodes, args, site, scope):
        """A built-in whose frequent answer needs no call, written in place with the call `site`
        (its arguments evaluated once, in order) for every other case: `length` of a list, `text`
        of texts (joined at once), and `walk`/`distance` along a kind named by a literal text,
        found among the answers the board's walks keep (runtime/walks.py: the same keys, a table changed in place only),
        and `find(cards, name)` by a text in a table of the first card of each name made at load time.
        None for any other call."""
        from ..runtime.library import _BUILTINS, _distance, _find, _length, _walk
        g = self.g
        if fn is _find and len(args) == 2:  # the first of all the cards with a name: found in a table
            cards = self._all_cards(argnodes[0], scope)
            if cards is not None:
                first: dict = {}
                for card in cards:
                    first.setdefault(card.name, card)
                t = g.tmp()
                return (f"({g.const(first, 'the first card of each name')}.get({t}) if _type({t} := {args[1]}) is "
                        f"{g.const(str, 'the type of texts')} else (\n{site}(\nctx, {args[0]}, {t})))")
        if fn is _length and len(args) == 1:
            t = g.tmp()
            return f"(_len({t}) if _type({t} := {args[0]}) is list else (\n{site}(\nctx, {t})))"
        if fname == "text" and fn is _BUILTINS["text"][0] and args:  # texts joined (each evaluated, in order)
            ts = [g.tmp() for _ in args]
            text = g.const(str, "the type of texts")
            test = " & ".join(f"(_type({t} := {a}) is {text})" for t, a in zip(ts, args))
            return f"({g.const(''.join, 'str.join')}(({', '.join(ts)},)) if {test} else (\n{site}(\nctx, {', '.join(ts)})))"
        walks = getattr(self.symbols, "walks", None)
        if walks is None or len(args) != 3 or type(argnodes[2]) is not A.Str or fn not in (_walk, _distance):
            return None
        kind = g.const(self.c.string(argnodes[2].token))
        a, b, got = g.tmp(), g.tmp(), g.tmp()
        unknown = g.const(_NOT_KEPT, "no answer kept")
        if fn is _walk:  # walks._walk: (cell id, steps, kind) -> the cell reached, or none
            table = g.const(walks._walk, "the walks' answers kept (runtime/walks.py)")
            test = f"(_type({a} := {args[0]}) is _Zone) & (_type({b} := {args[1]}) is int)"
            key = f"({a}.id, {b}, {kind})"
        else:  # walks._dist: (cell id, cell id, kind) -> the fewest steps, or none
            table = g.const(walks._dist, "the distances kept (runtime/walks.py)")
            test = f"(_type({a} := {args[0]}) is _Zone) & (_type({b} := {args[1]}) is _Zone)"
            key = f"({a}.id, {b}.id, {kind})"
        return (f"({got} if {test} and ({got} := {table}.get({key}, {unknown})) is not {unknown} else (\n{site}("
                f"\nctx, {a}, {b}, {kind})))")

    def _all_cards(self, node, scope):
        """The list of every card of the match when `node` is the name `cards` meaning it (as
        ExprCodegen.g_name reads it: no local, parameter, variable or constant of that name), else None."""
        if type(node) is not A.Name or str(node.name) != "cards":
            return None
        m = self.symbols
        if "cards" in scope.inlined or "cards" in scope.slots or "cards" in scope.bound or "cards" in m.gvars:
            return None
        if m.constant("cards") is not _MISS:
            return None
        builtin = m.builtin_value("cards")
        return builtin(None) if builtin is not None else None

    def _inline(self, inline, args, kinds, scope):
        """A small function compiled in place: its parameters are its arguments' texts (plain
        reads, so reading one twice costs nothing and changes nothing). The variables of its
        loops take slots of the caller's frame, after its own."""
        tree, params, src = inline
        inner = Scope(src=src)
        inner.size = scope.size
        inner.inlined = {p: replace(a, kind=k) for p, a, k in zip(params, args, kinds)}
        try:
            return stamped(src, "expr", lambda: self.g.xc(tree, inner))  # evaluated where the call is
        finally:
            scope.size = max(scope.size, inner.size)
