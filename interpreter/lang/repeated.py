"""Reads repeated in one expression, computed once (a part of ExprCodegen, codegen.py).

`not c.empty and c.card.level > 1 and (c.card.owner == me or f(c.card))` reads `c.card`
three times. The first read is written `(_t5 := <the read>)` and the later ones `_t5`, when the
first is sure to have been computed by then:

- a *region* is the text of one `x()` call and of the parts its writers ask for with `xc()`: the
  parts that are evaluated, in the order they are written, whenever the whole is (the operand of
  `not`, both sides of a comparison, the object of an attribute or of a tag test, the first
  operand of a run of `and`/`or`, the arguments of a content function's call, the text of a
  function compiled in place);
- a part evaluated only sometimes (the later operands of a run of `and`/`or`, `run_of`) may use
  what was computed before it, and what it computes is forgotten after the run;
- a text written by any other writer (loops, built-ins' calls, arithmetic, conditional
  expressions, statements) starts a region of its own: nothing from outside is used in it,
  nothing it computes is used outside (it may be written elsewhere, in another function, more
  than once, or not at all).

What is shared: an attribute of a card, a zone or a player, and the tag set of a value, of an
object that is a local read (`L[n]`, a temporary, a global, `ctx.me`) or a shared read being
computed (`c.card.owner`). Attribute reads spend nothing and, while one expression is evaluated,
the state does not change: a second read would give the same value (when the object's kind is not
known, a getter may fail: the expression then stops at the first read). Not a list made anew at
each read (a zone's `cards`, a decoded variable). A local `L[n]` may be written by a loop's
helper (a loop's variable in a slot that a name outside had): a read of one is shared only while
no loop was written in between.

An argument of a function compiled in place (a plain read, written where its parameter is read)
is computed where the parameter is first read, and read from its temporary where that is sure to
have run (`arg_read`, `arg_text`); not when the function loops (its loops are helpers, functions
of their own, which see no temporary of the caller).

In a loop's body, a read that calls nothing (the object's kind known: it cannot fail) of an
object the loop does not change is computed once, before the loop (`hoisting`): `p.cell.column`
in `X where it.cell.column != p.cell.column`. Not when the body loops itself.

A temporary read nowhere else is written back as the plain read when its region is written.
"""
from __future__ import annotations

from . import ast as A
from .analysis import facts
from .pieces import calls_nothing
from .scope import Arg

_LITERALS = (A.Num, A.Str, A.Const)  # no read to share in them


class _Lifted:
    """The reads computed before a loop (Repeated.hoisting)."""

    def __init__(self, slot, reads: dict):
        self.slot = f"L[{int(slot)}]"
        self.reads = reads  # what each text written reads (ExprCodegen.read)
        self.lines: list[str] = []
        self.names: dict = {}  # (object, attribute) -> the local holding it

    def invariant(self, o: str) -> bool:
        what = self.reads.get(o)
        return o != self.slot and what != "temp" and (what != "lifted" or o in self.names.values())

    def read(self, gen, o, name, text) -> str:
        local = self.names.get((o, name))
        if local is None:  # not a _tN: _shape() keeps its name
            local = self.names[(o, name)] = gen.read(f"_h{next(gen.names)}", "lifted")
            self.lines.append(f"{local} = {text}")
        return local


class _Shares:
    """The shared reads of one generated module."""

    def __init__(self):
        self.kept: dict = {}  # a shared read's temporary -> its text
        self.defs: dict = {}  # the text computing one, `(_tN := R)` -> its temporary
        self.order: list = []  # those temporaries in the order they were made
        self.reads: set = set()  # the temporaries read again
        self.loops = 0  # loops written so far (a loop's helper may write locals L[n])


class Repeated:
    """The sharing pass of one ExprCodegen `g`: its state (the module's shared reads, the region's
    available reads, the loop's hoisted reads) lives on `g`, saved and restored with the module."""

    def __init__(self, g):
        self.g, self.c, self.symbols = g, g.c, g.symbols
        self._decoded = None

    def decoded(self) -> frozenset:
        """The names of variables whose values are decoded at each read (made anew)."""
        names = self._decoded
        if names is None:
            m = self.symbols
            names = self._decoded = frozenset(n for k in ("cv", "zv", "pv") for n in m.vars_of(k)
                                              if m.var_codec(k, n)[1] is not None)
        return names

    def hoisting(self, slot, nodes, write):
        """(`write()`, lines) for the body of a loop putting its items in `slot`: a shared read
        of an object the loop does not change is computed once, by those lines, before the loop
        (it calls nothing: it cannot fail nor spend, so computing it once more changes nothing).
        Not when the body loops itself (a loop of its text may take a slot a name outside had)."""
        saved = self.g.hoist
        self.g.hoist = _Lifted(slot, self.g.reads) if not any(n is not None and facts(n).loops for n in nodes) else None
        try:
            return write(), (self.g.hoist.lines if self.g.hoist is not None else [])
        finally:
            self.g.hoist = saved

    def apart(self, write):
        """`write()` of a text evaluated in another function (a loop's helper): nothing computed
        before a loop is read there."""
        saved = self.g.hoist
        self.g.hoist = None
        try:
            return write()
        finally:
            self.g.hoist = saved

    def run_of(self, node, scope, typ, op: str) -> str:
        """`a and b and c` (`or`): each operand is evaluated only when all those before it were
        (and gave true; false for `or`), so it may use what they computed; after the run, only
        what the first computed is sure to have been computed."""
        parts = []
        while type(node) is typ:
            parts.append(node.right)
            node = node.left
        text = self.g.xc(node, scope)
        saved = dict(self.g.avail)
        try:
            for p in reversed(parts):
                text = f"({text} {op} {self.g.xc(p, scope)})"
        finally:
            self.g.avail = saved
        return text

    def shared(self, o: str, name: str, text: str, *, getters: bool = False, fresh: bool = False) -> str:
        """`text`, the read of attribute `name` of `o`: the temporary holding it when it was
        computed before in this region, else `text` kept in a new temporary. `getters`: the calls
        in `text` are those of attribute getters (they read, spend nothing, give the same value
        again; one may fail, and then the expression stops there). `fresh`: `text` builds a new
        list at each read (a zone's cards, which whoever gets it may change): never shared."""
        if self.g.avail is None or fresh:
            return text
        if not self.g.is_object(o):
            o = self._kept_in(o)  # a shared read being computed here: its temporary holds the object after
            if o is None:
                return text
        if not getters and not calls_nothing(text):
            return text
        lifted = self.g.hoist
        if lifted is not None and not getters and lifted.invariant(o):
            return lifted.read(self.g, o, name, text)
        shares = self.g.shares
        if shares is None:
            shares = self.g.shares = _Shares()
        key = (o, name, shares.loops if self.g.reads.get(o) == "slot" else 0)
        t = self.g.avail.get(key)
        if t is not None:
            shares.reads.add(t)
            return t
        t = self.g.tmp()
        self.g.avail[key] = t
        shares.kept[t] = text
        shares.order.append(t)
        return _defined(shares, temp=t, text=text)

    def arg_read(self, node, scope, loops: bool) -> Arg:
        """The Arg of an argument of a function compiled in place (a plain read, written where
        its parameter is read): a read shared before the call, else its own text, computed into a
        temporary where the parameter is first read. Not when the function loops: its loops are
        helpers, functions of their own, which see no temporary."""
        avail = self.g.avail
        if avail is not None and not loops:
            saved = dict(avail)
            t = self.g.xc(node, scope)
            if (self.g.shares is not None and t in self.g.shares.kept) or self.g.is_object(t):  # read before, or a local
                return _passed(node, scope, text=t)
            if self.g.shares is None:
                self.g.shares = _Shares()
            self.g.avail = saved
            kept = self._kept_in(t)
            if kept is None:
                kept = self.g.tmp()
                self.g.shares.kept[kept] = t
                self.g.shares.order.append(kept)
                t = _defined(self.g.shares, temp=kept, text=t)
            return Arg(t, temp=kept)  # computed where the parameter is first read
        return _passed(node, scope, text=self.apart(lambda: self.g.x(node, scope)) if loops else self.g.x(node, scope))

    def _kept_in(self, text: str):
        """The temporary of a text that is a shared read being computed, `(_tN := R)`, else None."""
        return self.g.shares.defs.get(text) if self.g.shares is not None else None

    def arg_text(self, arg: Arg) -> str:
        """The text of a name written in place (an Arg): its text; an argument kept in a
        temporary where it is first read is then read from there."""
        if arg.temp is None or self.g.avail is None:
            return arg.text
        key = ("arg", arg.temp)
        if key in self.g.avail:
            self.g.shares.reads.add(arg.temp)
            return arg.temp
        self.g.avail[key] = arg.temp
        return arg.text

    def unshared(self, text: str, made) -> str:
        """The text of a region, each shared read made in it (`made`) that nothing reads again
        written plainly: `(R)` for `(_tN := R)`. Every read of one is in the region that made it,
        and its text is still R as it was kept (nothing rewrote it yet)."""
        kept, reads = self.g.shares.kept, self.g.shares.reads
        for t in reversed(made):  # the outer ones first: their text holds the inner ones as written
            if t not in reads:
                d = f"({t} := {kept[t]})"
                if d in text:
                    text = text.replace(d, f"({kept[t]})")
        return text


def _passed(node, scope, *, text: str) -> Arg:
    """The Arg of an argument written as `text`: when the argument is itself a name written in
    place and `text` is its text, that name's Arg (its value and temporary go along), else `text`."""
    if type(node) is A.Name:
        arg = scope.inlined.get(str(node.name))
        if arg is not None and text == arg.text:
            return arg
    return Arg(text)


def _defined(shares: _Shares, *, temp: str, text: str) -> str:
    """`(temp := text)`, the text computing a shared read, recorded as computing it."""
    d = f"({temp} := {text})"
    shares.defs[d] = temp
    return d
