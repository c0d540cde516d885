"""Statements of the rules language compiled to Python source (a part of ExprCodegen, codegen.py).

A run of statements that cannot wait for a player's choice (an effect, a trigger's body, a
procedure's body, or the part of one before a `choose`) becomes one generated function:

    def _run(ctx):
        L = ctx.locals
        try:
            L[2] = <expression>                        # let
            if <condition>:                             # if / elif / else
                _move(ctx, <what>, <where>, False, _k3)
            for _t4 in _for_items(ctx, <items>, _k5, _k6):
                L[3] = _t4
                ...
        except _Stop:
            return _k7(ctx)                             # `stop`: the end of the body
        return _k8[0](ctx)                              # what comes after (a continuation)

The same guarantees as expressions hold: only names the generator made and integers it checked
are in the text, every content value is a global under a mangled name, no builtins are reachable,
and budgets are spent as before. A line of the text is mapped back to the statement written there
(`_LINES`), for an error nobody foresaw (guard.py); errors the rules foresee carry their position.
A body holding statements that may wait for a choice is written by resumable.py, with these
writers for the statements between its waiting points.
"""
from __future__ import annotations

from ..core.model import Card, Seat, Zone
from ..runtime import context as rt
from . import ast as A
from . import kinds
from ..runtime.ops import _NUMBER, _arith
from .analysis import facts
from .scope import CompileError, stamped
from .kindfacts import whole
from .templates import Said, said_of
from ..errors import did_you_mean

_TYPE_NAMES = {Card: "_Card", Seat: "_Seat", Zone: "_Zone"}  # names of the types in generated code (generated.py)
_HOLD_CARDS = frozenset({Card, list, tuple})  # a value said_of looks into for the cards a message names
_MARK = "# @"  # a line `# @N`: the lines after it are statement N's (until the next mark)


class Statements:
    """Writes runs of statements that cannot wait, for the ExprCodegen `g`."""

    def __init__(self, g):
        self.g, self.c, self.symbols = g, g.c, g.symbols

    def statements(self, stmts, scope, *, then=None, stop=None):
        """f(ctx) running `stmts`, then returning `then[0](ctx)` (`then`: a one-element holder,
        filled when what follows is compiled; None: nothing). A `stop` ends the statements and
        returns `stop(ctx)` (None: nothing)."""
        return stamped(scope.src, scope.kind,
                       lambda: self.c.failures.run(lambda: self._statements(stmts, scope, then, stop)))

    def _statements(self, stmts, scope, then, stop):
        saved = self.g.saved()
        self.g._reset(stmts[0] if stmts else None, scope, last=stmts[-1] if stmts else None)
        try:
            body = self.run(stmts, scope)
            lines = ["L = ctx.locals", "try:"] + ["    " + b for b in (body or ["pass"])]
            lines += ["except _Stop:", f"    return {self.g.const(stop, 'what a `stop` runs: the end of the body')}(ctx)" if stop is not None else "    return None"]
            lines.append(f"return {self.g.const(then, 'what follows these statements (a continuation)')}[0](ctx)" if then is not None else "return None")
            self.g.define("_run", "ctx", lines)
            return self.g._module("_run", "statements, then what follows them (a continuation)" if then is not None
                                  else "statements run directly (nothing follows them)")
        finally:
            self.g.restore(saved)

    # ---- one statement -> lines -------------------------------------------------------------

    def s(self, node, scope) -> list[str]:
        method = _STATEMENT_WRITERS.get(type(node))
        if method is None:
            raise CompileError(f"internal: unknown statement {type(node).__name__}", node)
        try:
            self.c.types.check(node, scope)  # what cannot work whatever the state (valuetypes.py)
            self.c.types.bind(node, scope)
            return method(self, node, scope)
        except CompileError as e:  # recorded: the next statements are checked too (scope.Failures)
            if not self.c.failures.record(e, scope):
                raise
            self.after_failure(node, scope, self.block)
            return ["pass"]

    @staticmethod
    def after_failure(node, scope, block) -> None:
        """What a statement that failed to compile still gives the statements after it: the
        names it binds (no `unknown name` for each use of them), and the statements it holds,
        compiled by `block` for their own errors."""
        t = type(node)
        if t is A.Let:
            scope.add(str(node.name))
        elif t is A.For or t is A.Choose:
            scope.add(str(node.var))
        if t is A.If:
            for _, stmts in node.branches:
                block(stmts, scope)
            if node.otherwise is not None:
                block(node.otherwise, scope)
        elif t is A.For or t is A.Repeat:
            block(node.body, scope)

    def block(self, stmts, scope) -> list[str]:
        return ["    " + line for line in (self.run(stmts, scope) or ["pass"])]

    def run(self, stmts, scope) -> list[str]:
        """The lines of `stmts` in order. A run of `let`s calling content functions (nothing
        changes the state between them) shares one memo of those calls (`ctx.memo`, as while
        listing): `let a = f(x)` then `let w = g(x)` where g calls f again computes f(x) once."""
        out, i = [], 0
        typed = []  # (slot, its kind before) of the `let`s whose kind holds for the statements after them
        try:
            while i < len(stmts):
                j = i
                while j < len(stmts) and self._memoable(stmts[j]):
                    j += 1
                if j - i >= 2:  # one memo for statements i..j-1
                    saved = self.g.tmp()
                    out += [f"{saved} = ctx.memo", f"if {saved} is None:", "    ctx.memo = {}", "try:"]
                    for k in range(i, j):
                        out += ["    " + line for line in self.s(stmts[k], scope)]
                        self._let_kind(stmts, k, scope, typed)
                    out += ["finally:", f"    ctx.memo = {saved}"]
                    i = j
                    continue
                out += self.s(stmts[i], scope)
                self._let_kind(stmts, i, scope, typed)
                i += 1
        finally:
            for slot, before in reversed(typed):
                if before is None:
                    scope.kinds.pop(slot, None)
                else:
                    scope.kinds[slot] = before
        return out

    def _let_kind(self, stmts, i, scope, typed) -> None:
        """When statement i is a `let` whose value's kind is known at load time (known.py) and no
        statement after it here binds or assigns the same name, the statements after it read the
        name as of that kind (`scope.kinds`, until the end of these statements: `typed`)."""
        node = stmts[i]
        if type(node) is not A.Let:
            return
        name = str(node.name)
        slot = scope.slots.get(name)
        if slot is None:  # it failed to compile
            return
        for n in (x for stmt in stmts[i + 1:] for x in stmt.walk()):
            t = type(n)
            if ((t is A.For or t is A.Choose) and str(n.var) == name) or (t is A.Let and str(n.name) == name) \
                    or (t is A.Assign and type(n.target) is A.Name and str(n.target.name) == name):
                return
        kind = self.g.value_kind(node.value, scope)
        if kind is not None:
            typed.append((slot, scope.kinds.get(slot)))
            scope.kinds[slot] = kind

    def _memoable(self, node) -> bool:
        """A `let` whose value calls content functions, each pure (it draws nothing at random),
        and no built-in that draws: evaluating it changes nothing a function reads."""
        if type(node) is not A.Let:
            return False
        m = self.symbols
        calls = facts(node.value).calls
        if not calls or not any(str(f) in m.function_defs for f in calls):
            return False
        return all(f not in m._IMPURE and (f not in m.function_defs or m._is_pure(f)) for f in map(str, calls))

    def mark(self, node, scope) -> str:
        """The line that maps the lines after it to `node`'s position."""
        self.g.stmt_locs.append(self.c.loc(node, scope))
        return f"{_MARK}{len(self.g.stmt_locs) - 1}"

    def s_let(self, node, scope):
        mark = self.mark(node, scope)
        value = self.g.x(node.value, scope)  # the value first: `let x = x + 1` reads the outer x
        slot = scope.add(str(node.name))
        return [mark, f"L[{int(slot)}] = {value}"]

    def s_pass(self, node, scope):
        return ["pass"]

    def s_stop(self, node, scope):
        return [self.mark(node, scope), "raise _Stop()"]

    def s_fail(self, node, scope):
        msg = self.c.string(node.message)
        return [self.mark(node, scope), f"raise _RuleRuntimeError({self.g.const(msg)}, {self.g.const(self.c.loc(node, scope))})"]

    def s_log(self, node, scope):
        """The message as a Said (written again for each viewer, templates.py), its {expressions}
        evaluated in place as `said` does: the reads of each first (one that fails reads as
        none), then its value."""
        written = self.c.template(node.message, scope).written
        g = self.g
        lines, items, tested = [self.mark(node, scope)], [], []
        for part in written:
            if type(part) is str:
                items.append(g.const(part))
                continue
            piece, src, tree, nodes = part
            here = scope.reading(src)
            reads = []
            for n in nodes:
                t = g.tmp()
                text = stamped(src, "expr", lambda n=n: g.x(n, here))
                if type(n) is A.Name:  # a local, a variable, a constant: nothing to fail
                    lines.append(f"{t} = {text}")
                    reads.append(t + ",")
                    continue
                lines += ["try:", f"    {t} = {text}", f"except {g.const(Exception, 'any error (a read that fails reads as none)')}:",
                          f"    {t} = None"]
                reads.append(t + ",")
                tested.append((t, n, here))
            v = g.tmp()
            lines.append(f"{v} = {stamped(src, 'expr', lambda: g.x(tree, here))}")
            tested.append((v, tree, here))
            items.append(f"({g.const(piece, 'a {piece} of the text (templates.Piece)')}, {v}, ({' '.join(reads)}))")
        return lines + self._said(items, tested)

    def _said(self, items, tested) -> list[str]:
        """The lines adding the log's Said to the events. said_of notes where each card the message
        names lay (it looks into each value and read: a card, a list, a tuple); a message whose
        values hold none (tested here: most name players, places, numbers) is a Said naming no card."""
        g = self.g
        parts, said = f"({', '.join(items)},)", g.const(Said)
        tests = []
        for t, tree, scope in tested:
            kind = g.known.kind_of(tree, scope)
            if not (whole(kind) or kind in ("zv", "pv", "cell")):  # a zone, a player or a number holds no card
                tests.append(f"_type({t}) in {g.const(_HOLD_CARDS, 'the kinds of values said_of looks into')}")
        log = g.const("log")
        if not tests:
            return [f"ctx.events.append(({log}, [{said}({parts}, ctx.m, {{}})]))"]
        p = g.tmp()
        return [f"{p} = {parts}", f"if {' or '.join(tests)}:", f"    ctx.events.append(({log}, [{g.const(said_of)}(ctx, {p})]))",
                "else:", f"    ctx.events.append(({log}, [{said}({p}, ctx.m, {{}})]))"]

    def s_finish(self, node, scope):
        return [self.mark(node, scope), f"_finish(ctx.st[{self.g.const('flow')}], {self.g.const(str(node.what))})"]

    def s_if(self, node, scope):
        out = []
        for i, (cond, body) in enumerate(node.branches):
            mark = self.mark(node if i == 0 else cond, scope)  # an `elif` line: its condition's position
            out += [mark, f"{'if' if i == 0 else 'elif'} {self.g.x(cond, scope)}:"] + self.block(body, scope)
        if node.otherwise is not None:
            out += ["else:"] + self.block(node.otherwise, scope)
        return out

    def s_for(self, node, scope):
        mark = self.mark(node, scope)
        slot = scope.add(str(node.var))
        coll = self.g.x(node.coll, scope)
        loc = self.g.const(self.c.loc(node, scope))
        t, items, b = self.g.tmp(), self.g.tmp(), self.g.tmp()
        kind = self._item_kind(node, scope)
        if kind is None:
            body = self.block(node.body, scope)
        else:  # its items' kind, known at load time: the body reads their attributes without type tests
            body = self.g.known.with_kind(scope, slot, kind, lambda: self.block(node.body, scope))
        ids = self.g.card_ids.get(coll)
        if ids is not None:  # a zone's cards, by their ids (a tuple: what the body moves changes nothing here)
            return [mark, f"if ({b} := ctx.budget - _len({items} := {ids}) - 1) >= 0:", f"    ctx.budget = {b}",
                    "else:", f"    _for_items(ctx, {items}, {loc}, {self.g.const(self.c.iterable_at)})",  # fails there
                    f"for {t} in {items}:", f"    L[{int(slot)}] = _CARDS[{t}]"] + body
        # a list within the budget (the frequent case): what `_for_items` does, without its call
        return [mark, f"if _type({items} := {coll}) is list and ({b} := ctx.budget - _len({items}) - 1) >= 0:",
                f"    ctx.budget = {b}", f"    {items} = {items}[:]", "else:",
                f"    {items} = _for_items(ctx, {items}, {loc}, {self.g.const(self.c.iterable_at)})",
                f"for {t} in {items}:", f"    L[{int(slot)}] = {t}"] + body

    def _item_kind(self, node, scope):
        """The kind (known.py) of every item of a `for`'s collection, when known at load time and
        its variable holds nothing else in the body (no statement of it binds or assigns the same
        name); else None."""
        name = str(node.var)
        for n in (x for stmt in node.body for x in stmt.walk()):
            t = type(n)
            if ((t is A.For or t is A.Choose) and str(n.var) == name) or (t is A.Let and str(n.name) == name) \
                    or (t is A.Assign and type(n.target) is A.Name and str(n.target.name) == name):
                return None
        return self.g.domain_kind(node.coll, scope)

    def s_repeat(self, node, scope):
        mark = self.mark(node, scope)
        count = self.g.x(node.count, scope)
        body = self.block(node.body, scope)
        return [mark, f"for {self.g.tmp()} in _repeat_times(ctx, {count}, {self.g.const(self.c.loc(node, scope))}):"] + body

    def s_assign(self, node, scope):
        target, op, value = node.target, str(node.op), node.value
        mark = self.mark(node, scope)
        val = self.g.x(value, scope)
        try:
            setter = self.setter(target, scope)  # value's text -> the lines storing it
        except CompileError:
            if getattr(node.op, "type", None) == A.GRANT:  # `grant NAME`: a lasting effect, not a variable
                name = str(target.name)
                raise CompileError(f"`grant {name}`: no lasting effect `{name}` here", target.name,
                                   hint=" ".join(filter(None, [did_you_mean(name, self.symbols.pvars),
                                                               "a lasting effect is declared under its card's "
                                                               "`effects:` (NAME: {until: ..., powers: [...]})"]))) from None
            raise
        kinds.check_assigned(self.c, target, op, value, scope)
        if op == "=":
            t = self.g.tmp()
            return [mark, f"{t} = {val}"] + setter(t)
        get = self.g.x(target, scope)
        loc = self.g.const(self.c.loc(node, scope))
        ta, tb, tr = self.g.tmp(), self.g.tmp(), self.g.tmp()
        py, n = op[0], int(_NUMBER)
        return [mark, f"{ta} = {get}", f"{tb} = {val}",
                f"if not (_type({ta}) is int and _type({tb}) is int and -{n} <= ({tr} := {ta} {py} {tb}) <= {n}):",
                f"    {tr} = {self.g.const(_arith)}(ctx, {self.g.const(py)}, {ta}, {tb}, {loc})",
                ] + setter(tr)

    def setter(self, node, scope):
        """f(v) -> the lines storing the value named `v` (a temporary) into the assignment's target."""
        m = self.symbols
        if type(node) is A.Name:
            name = str(node.name)
            if name in scope.slots:
                return lambda v: [f"L[{int(scope.slots[name])}] = {v}"]
            if name in m.gvars:
                enc, _ = m.var_codec("gv", name)
                if enc is None:
                    return lambda v: [f"ctx.st[{self.g.const('gv')}][{self.g.const(name)}] = {v}"]
                text = (f"_set_global(ctx, {self.g.const(name)}, {self.g.const(enc)}, {self.g.const(m.gvars[name]['type'])}, "
                        f"{{v}}, {self.g.const(self.c.loc(node, scope))})")
                return lambda v: [text.format(v=v)]
            raise CompileError(f"`{name}` is not a variable", node,
                               hint=did_you_mean(name, list(scope.slots) + list(m.gvars)) or "declare it under `vars:`")
        if type(node) is A.Attr:
            obj = self.g.x(node.obj, scope)  # read again when stored, as a player reads `x.name += 1`
            name = str(node.name)
            by_type = {}
            for kind, typ in (("cv", Card), ("pv", Seat), ("zv", Zone)):
                if name in m.vars_of(kind):
                    by_type[typ] = (kind, m.var_codec(kind, name)[0], m.vars_of(kind)[name]["type"])
            if not by_type:
                known = list(m.cvars) + list(m.pvars) + list(m.zvars)
                raise CompileError(f"`{name}` is not a variable of cards, players or zones", node.name,
                                   hint=did_you_mean(name, known) or "declare it under `vars:` to change it")
            o = self.g.tmp()
            slow = (f"_set_var(ctx, {o}, {{v}}, {self.g.const(by_type, f'the kinds of things with a variable `{name}`')}, {self.g.const(name)}, "
                    f"{self.g.const(self.c.loc(node, scope))})")
            fast = [(typ, kind) for typ, (kind, enc, _) in by_type.items() if enc is None]
            if len(fast) != 1:
                return lambda v: [f"{o} = {obj}", slow.format(v=v)]
            # the frequent case written in place: a variable that needs no encoding, of the one
            # kind of thing that has it; its table is a tuple, replaced (state.put), unless the
            # variable holds that very value already (`x.killed = false` of a card never killed)
            # (a copy as a list, changed, made a tuple again: faster than joining two slices)
            typ, kind = fast[0]
            tt, tv, ti, tl = self.g.tmp(), self.g.tmp(), self.g.tmp(), self.g.tmp()
            name_k = self.g.const(name)
            write = [f"{tt} = ctx.st[{self.g.const(kind)}]",
                     f"{ti} = {o}.id",
                     f"if ({tv} := {tt}[{name_k}])[{ti}] is not {{v}}:",
                     f"    {tl} = _list({tv})",
                     f"    {tl}[{ti}] = {{v}}",
                     f"    {tt}[{name_k}] = _tuple({tl})"]
            if typ is Card and self.g.known.kind_of(node.obj, scope) == "card":  # a card, never none
                return lambda v: [f"{o} = {obj}", *(w.format(v=v) for w in write)]
            return lambda v: [f"{o} = {obj}",
                              f"if _type({o}) is {_TYPE_NAMES[typ]}:",
                              *(f"    {w.format(v=v)}" for w in write),
                              "else:",
                              "    " + slow.format(v=v)]
        raise CompileError("only a variable, or `thing.variable`, can be assigned", node)

    def s_move(self, node, scope):
        mark = self.mark(node, scope)
        what, where = self.g.x(node.what, scope), self.g.x(node.to, scope)
        top = node.place is not None and str(node.place) == "top"
        return [mark, f"_move(ctx, {what}, {where}, {top}, {self.g.const(self.c.loc(node, scope))})"]

    def s_swap(self, node, scope):
        mark = self.mark(node, scope)
        a, b = self.g.x(node.a, scope), self.g.x(node.b, scope)
        return [mark, f"_swap(ctx, {a}, {b}, {self.g.const(self.c.loc(node, scope))})"]

    def s_cycle(self, node, scope):
        mark = self.mark(node, scope)
        zones = self.g.x(node.zones, scope)
        backward = node.direction is not None and str(node.direction) == "backward"
        return [mark, f"_cycle(ctx, {zones}, {backward}, {self.g.const(self.c.loc(node, scope))})"]

    def s_shuffle(self, node, scope):
        self.c.output.uses_chance = True
        mark = self.mark(node, scope)
        return [mark, f"_shuffle(ctx, {self.g.x(node.zone, scope)}, {self.g.const(self.c.loc(node, scope))})"]

    def s_draw(self, node, scope):
        if any(z.get("refill_from") for z in self.symbols.rs.zones.values()):
            self.c.output.uses_chance = True  # a draw from an empty pile shuffles its refill in
        mark = self.mark(node, scope)
        n = self.g.x(node.count, scope) if node.count is not None else "1"
        a, b = self.g.x(node.source, scope), self.g.x(node.to, scope)
        return [mark, f"_draw(ctx, {n}, {a}, {b}, {self.g.const(self.c.loc(node, scope))})"]

    def _dispatch(self, mark, name, args, dispatch, what, loc, args_first=True):
        """Lines of a call that cannot suspend: the budget's step, the event logged, the call."""
        t, b = self.g.tmp(), self.g.tmp()
        spend = [f"ctx.budget = {b} = ctx.budget - 1", f"if {b} < 0:",
                 f"    _spend_failed(ctx, {self.g.const(loc)}, {self.g.const(what)})"]
        lines = [f"{t} = {args}"] + spend if args_first else spend + [f"{t} = {args}"]
        call = f"{self.g.const(dispatch, f'runs {what}')}(ctx, {t})"
        if name is None:
            return [mark] + lines + [call]
        if dispatch is rt.no_handlers:  # an event nothing handles: logged with its cause, nothing run
            return [mark] + lines + [f"ctx.events.append(({self.g.const(name)}, {t}))", "ctx.causes.append(ctx.cause)"]
        # the event logged with its cause; what its handlers emit has it for cause (Ctx.causes)
        c = self.g.tmp()
        lines += [f"ctx.events.append(({self.g.const(name)}, {t}))", f"{c} = ctx.cause", f"ctx.causes.append({c})",
                  "ctx.cause = _len(ctx.causes) - 1"]
        return [mark] + lines + [call, f"ctx.cause = {c}"]

    def s_call(self, node, scope):
        """`emit EVENT(...)` or `do PROCEDURE(...)` that cannot suspend: logged, then dispatched."""
        c, m = self.c, self.symbols
        mark = self.mark(node, scope)
        name = str(node.name)
        args = "[" + ", ".join(self.g.x(a, scope) for a in node.args) + "]"
        c.check_arity(node, name, len(node.args))
        if type(node) is A.Do:
            dispatch = (m.procedure_direct_plain if node.unpreventable else m.procedure_direct)(name)
        else:
            dispatch = m.event_direct(name)
        return self._dispatch(mark, name, args, dispatch, f"`{name}`", c.loc(node, scope))

    def s_super(self, node, scope):
        c = self.c
        mark = self.mark(node, scope)
        name, n = c.super_target(node, scope)
        args = f"L[:{int(n)}]" if node.args is None else "[" + ", ".join(self.g.x(a, scope) for a in node.args) + "]"
        dispatch = self.symbols.super_direct(*scope.replacing)
        return self._dispatch(mark, None, args, dispatch, f"`super` of `{name}`", c.loc(node, scope), args_first=False)

    def s_choose(self, node, scope):  # only reached when wrongly compiled direct
        raise CompileError("internal: choose compiled as direct", node)

    # ---- positions ------------------------------------------------------------------------

    def lines_of(self, source: str) -> dict:
        """Line of the generated text -> the position of the statement written there."""
        out, current = {}, None
        for lineno, line in enumerate(source.split("\n"), 1):
            text = line.strip()
            if text.startswith(_MARK):
                current = self.g.stmt_locs[int(text[len(_MARK):])]
            elif text.startswith("def "):
                current = None
            elif current is not None:
                out[lineno] = current
        return out


_STATEMENT_WRITERS = {
    A.Let: Statements.s_let, A.Pass: Statements.s_pass, A.StopStmt: Statements.s_stop, A.Fail: Statements.s_fail,
    A.Log: Statements.s_log, A.Finish: Statements.s_finish, A.If: Statements.s_if, A.For: Statements.s_for,
    A.Repeat: Statements.s_repeat, A.Assign: Statements.s_assign, A.Move: Statements.s_move,
    A.Swap: Statements.s_swap, A.Cycle: Statements.s_cycle, A.Shuffle: Statements.s_shuffle,
    A.Draw: Statements.s_draw, A.Emit: Statements.s_call, A.Do: Statements.s_call, A.Choose: Statements.s_choose,
    A.Super: Statements.s_super,
}
