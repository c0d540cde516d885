"""Statements that may wait for a player's choice, generated as one resumable function per body.

A body holding a statement that may wait (`choose`, or a call of a procedure or event whose
handlers may) is written as one generated function, split at its waiting points:

    def _body(ctx, pc=0):
        L = ctx.locals
        try:
            while True:
                if pc == 0:                             # the statements before the first wait
                    L[2] = <expression>
                    L[4] = _for_items(ctx, <items>, _k3, _k4)   # a `for` whose body may wait:
                    L[5] = 0                                   # its items and index are hidden
                    pc = 1                                     # slots of the frame
                if pc == 1:                             # the loop's head
                    _t6 = L[5]
                    if _t6 >= _len(L[4]):
                        pc = 3
                        continue
                    L[5] = _t6 + 1
                    L[3] = L[4][_t6]
                    pc = 2
                if pc == 2:                             # `do ask(...)` that may wait
                    ...
                    ctx.stack.append((_k7, L))          # where to come back: a continuation id
                    ctx.locals = _t8
                    return _k9[0](ctx)
                ...
        except _Stop:
            return _k10(ctx)                            # `stop`: the end of the body

A point it may resume at (after a `choose`, after a call, a loop's head) is a continuation id,
registered in the order the statements are compiled: the compiler's `conts` table maps it to the
function and its `pc` (`functools.partial(_body, pc=N)`), or to what follows the body (the
caller's `ret`, an action's effect after its group's) when nothing of it is left. A pending choice
and the call stack save those ids with the frame (loop indexes included), so a suspended rule
resumes after a save and load, a clone or a replay, and saved games keep their meaning. A body
that cannot wait is the statement writer's plain function (statements.py). A part of Compiler
(compiler.py), which holds it as `resumable`.
"""
from __future__ import annotations

from functools import partial
from typing import NamedTuple

from ..runtime import context as rt
from ..core.model import Seat, label_of
from ..runtime.helpers import repeat_budget
from ..runtime.ops import _num
from . import ast as A
from .analysis import suspends
from .scope import CompileError, stamped

_WAITS = {  # what a waiting statement is, in the comment of its block (--source)
    A.Choose: "`choose`: asks a player", A.If: "`if` whose blocks may wait", A.For: "`for` whose body may wait",
    A.Repeat: "`repeat` whose body may wait", A.Do: "`do` of a procedure that may wait",
    A.Emit: "`emit` of an event whose handlers may wait", A.Super: "`super` of a procedure that may wait",
}


class _Label(int):
    """A point of the body being written (a block of its lines), not yet numbered."""


class _Jump(NamedTuple):
    """A line going on at the block `to`, `depth` levels into its block: numbered when the
    function is written."""
    to: _Label
    depth: int = 0


def ask(ctx, spec, opts, player):
    """`choose` with options to choose from: the pending choice saved in the state, with the
    frame and the call stack, and the rules stop there (nothing left to run until it is answered).
    `spec`: (continuation id, slot, prompt, optional, position, definition)."""
    kid, slot, prompt, optional, where, m = spec
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


def repeat_count(ctx, n, loc):
    """The number of times of `repeat` whose body may wait, its budget spent."""
    if n is not None and type(n) is not int:
        raise rt.RuleRuntimeError(f"repeat needs a number of times, not {label_of(n)}", loc)
    n = _num(n)
    repeat_budget(ctx, n, loc)
    return n


class _Body:
    """The blocks of one resumable function being written, and the continuation ids to point at
    them once it is compiled."""

    def __init__(self):
        self.blocks: list = []  # label -> its lines (None until written)
        self.resumes: list = []  # (continuation id, label)

    def label(self) -> _Label:
        self.blocks.append(None)
        return _Label(len(self.blocks) - 1)


class Resumable:
    """A part of the Compiler `c` (compiler.py)."""

    def __init__(self, c):
        self.c, self.symbols = c, c.symbols
        self.g = c.codegen

    # ---- may this statement wait for a choice? ---------------------------------------

    def suspends(self, node, scope) -> bool:
        """Whether a statement may wait for a choice (analysis.suspends, asking the definition
        whether a procedure or an event may)."""
        m = self.symbols
        return suspends(node, replacing=scope.replacing, procedure_suspends=m.procedure_suspends,
                        event_suspends=m.event_suspends)

    # ---- a body ----------------------------------------------------------------------

    def seq(self, stmts, scope, k):
        """f(ctx) running statements, then `k(ctx)` (what follows them: the caller's `ret`...)."""
        return stamped(scope.src, scope.kind, lambda: self.c.failures.run(lambda: self._top(stmts, scope, k)))

    def _top(self, stmts, scope, k):
        if not stmts:  # nothing to run before k: k itself (a call ending its body returns to k at once)
            return k
        if not any(self.suspends(s, scope) for s in stmts):
            return self.g.statements(stmts, scope, then=[k], stop=self.symbols.ret)
        g = self.g
        saved = g.saved()
        g._reset(stmts[0], scope, last=stmts[-1])
        try:
            body = _Body()
            entry = self._seq(stmts, scope, k, body)
            return self._write(body, entry)
        finally:
            g.restore(saved)

    def _write(self, body, entry):
        """The function of `body`'s blocks, `entry` first; its resume points in `conts`."""
        order = _order(body.blocks, entry)
        pc = {b: i for i, b in enumerate(order)}
        lines = ["L = ctx.locals", "try:", "    while True:"]
        for i, b in enumerate(order):
            lines.append(f"        if pc == {i}:")
            items = body.blocks[b]
            for n, item in enumerate(items):
                if type(item) is not _Jump:
                    lines.append("            " + item)
                    continue
                indent = "            " + "    " * item.depth
                lines.append(f"{indent}pc = {pc[item.to]}")
                if not (n == len(items) - 1 and item.depth == 0 and pc[item.to] > i):
                    lines.append(f"{indent}continue")  # (the next blocks are tested in order: no need to go round)
        lines += ["except _Stop:",
                  f"    return {self.g.const(self.symbols.ret, 'what a `stop` runs: the end of the body')}(ctx)"]
        self.g.define("_body", "ctx, pc=0", lines)
        f = self.g._module("_body", "statements that may wait for a choice: one resumable function, "
                                    "`pc` the point it resumes at")
        conts = self.c.output.conts
        for kid, b in body.resumes:
            conts[kid] = partial(f, pc=pc[b]) if pc[b] else f
        return f

    def goto(self, target, depth: int = 0) -> list:
        """The lines going on at `target` (a block of the body, or what follows it), `depth`
        levels into the block."""
        if isinstance(target, _Label):
            return [_Jump(target, depth)]
        return ["    " * depth + f"return {self.g.const(target, 'what follows these statements')}(ctx)"]

    def register(self, target, body) -> int:
        """A continuation id for `target` (a block of `body`: pointed at once it is compiled)."""
        output = self.c.output
        if not isinstance(target, _Label):
            return output.register(target)
        kid = output.register(None)
        body.resumes.append((kid, target))
        return kid

    def _direct(self, stmts, scope) -> list[str]:
        out = []
        for s in stmts:
            out += self.g.writer.s(s, scope)
        return out

    def _seq(self, stmts, scope, k, body):
        """The label running `stmts`, then `k` (k itself when there are none)."""
        if not stmts:
            return k
        split = next((i for i, s in enumerate(stmts) if self.suspends(s, scope)), None)
        if split is None:
            here = body.label()
            body.blocks[here] = self._direct(stmts, scope) + self.goto(k)
            return here
        pre = self._direct(stmts[:split], scope) if split else None  # written first: their slots come first
        # what follows is written before the waiting statement: declare every name the waiting
        # statement binds, however deep (a choose or a let inside an if, a for, a repeat)
        for sub in stmts[split].walk():
            if type(sub) in (A.Choose, A.For):
                scope.add(str(sub.var))
            elif type(sub) is A.Let:
                scope.add(str(sub.name))
        self.c.types.bind(stmts[split], scope)  # the type of what a `choose` or a `for` binds
        rest = self._seq(stmts[split + 1:], scope, k, body)
        waits = self._wait(stmts[split], scope, rest, body)
        if pre is None:  # the body starts waiting: nothing in front of it
            return waits
        here = body.label()
        body.blocks[here] = pre + self.goto(waits)
        return here

    # ---- a statement that may wait ----------------------------------------------------

    def _wait(self, node, scope, rest, body):
        """The label of a statement that may wait, followed by `rest`."""
        t = type(node)
        here = body.label()
        lines = [self.g.mark(node, scope), f"# {_WAITS.get(t, t.__name__)}"]
        writer = _WRITERS.get(t)
        if writer is None:
            raise CompileError(f"internal: cannot suspend in {t.__name__}", node)
        try:
            self.c.types.check(node, scope)  # what cannot work whatever the state (valuetypes.py)
            body.blocks[here] = lines + writer(self, node, scope, rest, body)
        except CompileError as e:  # recorded: the next statements are checked too (scope.Failures)
            if not self.c.failures.record(e, scope):
                raise
            self.g.writer.after_failure(node, scope, lambda stmts, sc: self._seq(stmts, sc, rest, body))
            body.blocks[here] = lines + self.goto(rest)
        return here

    def _if(self, node, scope, rest, body):
        out = []
        for i, (cond, stmts) in enumerate(node.branches):
            test = self.g.x(cond, scope)
            out += [f"{'if' if i == 0 else 'elif'} {test}:"] + self.goto(self._seq(stmts, scope, rest, body), 1)
        other = self._seq(node.otherwise, scope, rest, body) if node.otherwise is not None else rest
        return out + self.goto(other)

    def _for(self, node, scope, rest, body):
        g = self.g
        var = scope.add(str(node.var))
        lst, idx = scope.hidden(), scope.hidden()
        coll = g.x(node.coll, scope)
        head = body.label()
        self.register(head, body)
        inner = self._seq(node.body, scope, head, body)
        i = g.tmp()
        body.blocks[head] = [f"{i} = L[{int(idx)}]", f"if {i} >= _len(L[{int(lst)}]):"] + \
            self.goto(rest, 1) + [f"L[{int(idx)}] = {i} + 1", f"L[{int(var)}] = L[{int(lst)}][{i}]"] + self.goto(inner)
        loc = g.const(self.c.loc(node, scope))
        return [f"L[{int(lst)}] = _for_items(ctx, {coll}, {loc}, {g.const(self.c.iterable_at)})",
                f"L[{int(idx)}] = 0"] + self.goto(head)

    def _repeat(self, node, scope, rest, body):
        g = self.g
        count = g.x(node.count, scope)
        left = scope.hidden()
        head = body.label()
        self.register(head, body)
        inner = self._seq(node.body, scope, head, body)
        n = g.tmp()
        body.blocks[head] = [f"{n} = L[{int(left)}]", f"if {n} <= 0:"] + self.goto(rest, 1) + \
            [f"L[{int(left)}] = {n} - 1"] + self.goto(inner)
        loc = g.const(self.c.loc(node, scope))
        return [f"L[{int(left)}] = {g.const(repeat_count)}(ctx, {count}, {loc})"] + self.goto(head)

    def _call(self, node, scope, rest, body):
        """`do`, `emit` or `super` that may wait: its arguments are the callee's frame; the stack
        keeps where to come back."""
        g, m = self.g, self.symbols
        loc = self.c.loc(node, scope)
        args, t = g.tmp(), g.tmp()
        if type(node) is A.Super:
            name, n = self.c.super_target(node, scope)
            text = f"L[:{int(n)}]" if node.args is None else "[" + ", ".join(g.x(a, scope) for a in node.args) + "]"
            entry, nslots = m.super_entry_cps(*scope.replacing)
            kid = self.register(rest, body)
            return [f"{args} = {text}", f"ctx.stack.append(({kid}, L))",
                    f"ctx.locals = {args} + [None] * ({int(nslots)} - _len({args}))",
                    f"return {g.const(entry, f'runs `super` of `{name}`')}[0](ctx)"]
        name = str(node.name)
        texts = [g.x(a, scope) for a in node.args]
        if type(node) is A.Do:
            entry, _ = (m.procedure_entry_cps_plain if node.unpreventable else m.procedure_entry_cps)(name)
        else:
            entry, _ = m.event_entry_cps(name)
        kid = self.register(rest, body)
        self.c.check_arity(node, name, len(texts))
        return [f"{args} = [{', '.join(texts)}]", f"ctx.budget = {t} = ctx.budget - 1", f"if {t} < 0:",
                f"    _spend_failed(ctx, {g.const(loc)}, {g.const(f'`{name}`')})",
                f"ctx.events.append(({g.const(name)}, {args}))", f"ctx.causes.append(ctx.cause)",
                f"ctx.stack.append(({kid}, L))",
                # what the handlers emit has this event for cause, until the caller's frame is
                # popped (linker.ret puts the caller's cause back; a pending choice drops it)
                f"ctx.marks = (_len(ctx.stack), ctx.cause, ctx.marks)", "ctx.cause = _len(ctx.causes) - 1",
                # the arguments (as many as the parameters: check_arity) are the callee's frame as
                # they are: nothing writes into a call's frame
                f"ctx.locals = {args}", f"return {g.const(entry, f'runs `{name}`')}[0](ctx)"]

    def _choose(self, node, scope, rest, body):
        g = self.g
        slot = scope.add(str(node.var))
        options = g.x(node.options, scope)
        by = g.x(node.by, scope) if node.by is not None else "ctx.me"
        default_prompt = str(node.var).replace("_", " ")
        prompt = self.c.templates.template(node.prompt, scope) if node.prompt is not None else (lambda ctx: default_prompt)
        kid = self.register(rest, body)
        if node.prompt is not None:
            self.c.output.prompts[kid] = prompt  # rendered again for each viewer from the saved locals (views.prompt_for)
        where = self.c.loc(node, scope)
        spec = (kid, slot, prompt, node.optional, where, self.symbols)
        opts = g.tmp()
        trivial = f"_len({opts}) == 1" if not node.optional else "False"
        return [f"{opts} = _list({g.const(self.c.iterable_at)}({options}, {g.const(where)}))",
                f"if not {opts} or {trivial}:",  # nothing to choose: no question
                f"    L[{int(slot)}] = {opts}[0] if {opts} else None"] + self.goto(rest, 1) + \
            [f"{g.const(ask)}(ctx, {g.const(spec, 'the choice: its continuation, slot, prompt...')}, {opts}, {by})",
             "return None"]


def _order(blocks, entry) -> list:
    """The blocks in the order they are written: `entry` first, each followed where it can be by
    the block its last line goes on at (tested next: no going round the loop)."""
    order, placed = [], set()
    for start in [entry] + list(range(len(blocks))):
        todo = [start]
        while todo:
            b = todo.pop()
            if b in placed:
                continue
            placed.add(b)
            order.append(b)
            jumps = [item.to for item in blocks[b] if type(item) is _Jump]
            todo += reversed(jumps[:-1])
            todo += jumps[-1:]
    return order


_WRITERS = {A.Choose: Resumable._choose, A.If: Resumable._if, A.For: Resumable._for, A.Repeat: Resumable._repeat,
            A.Do: Resumable._call, A.Emit: Resumable._call, A.Super: Resumable._call}
