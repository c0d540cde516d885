"""The static facts of the rules language, declared once per kind of node (`NODES`).

Every kind of node of ast.py has one `Decl` here, and every pass that asks what a node is asks it:
- `facts(node)`: the names a tree reads, the functions it calls, the procedures it runs and the
  events it emits; whether it asks a player (`choose`), loops (`where`, `[... for ...]`, an
  aggregate), reads the state (attributes, indexes, calls, tag tests) or only reads (names,
  attributes, literals: an argument that can be read twice); its size in nodes (small functions
  are compiled in place). A text that neither loops nor reads the state, and reads only
  constants, has a value known at load time. The answer is kept with the node (`Node._facts`):
  trees are shared by every match that parses the same text (parser.py), so each text is
  analysed once per process, and the answer goes when the tree does.
- `suspends(node, ...)`: whether a statement may wait for a player's choice (resumable.py);
- `reveals(node)`: the sub-expressions through which a node reads a card's identity, and for a
  loop the variable it binds, its collection and the parts that read it (templates.reads_of: a
  label never names a card its viewer cannot identify).
- `placements(node)`: where a requirement says a name's value must lie: the conjuncts of a run of
  `and` that read `NAME in PLACE`, and those that call a function with names only (whose body may
  say it in turn: definition/presence.py asks the body's own placements);
- `reaching(deps, seeds)`: what depends, however indirectly, on one of `seeds`: the questions
  asked of a whole definition, over the graph of what calls what (`facts`): which procedures and
  events may wait for a choice (`waiting`), which content functions draw at random (`impure`).

A node of a kind not declared here is an error of the interpreter, at once, in every pass: a new
construct cannot be forgotten by one of them (test_lang_analysis.py).

The value of an expression known at load time depends on the names in scope and on the match's
constants: `Statics` answers it, asked with the scope; the kind of an expression (a zone, a card,
a number within bounds...) is answered the same way by `kindfacts.Kinds`, through the same memo.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Optional

from . import ast as A
from ..runtime.ops import _NUMBER
from .scope import _MISS

_LEAVES = (A.Num, A.Name, A.Str, A.Const)  # nodes with nothing below them to ask about

# what a label may read of a card the viewer cannot identify: where it lies, as the table sees it
PLACE_ATTRS = frozenset(("zone", "cell"))
# functions that only carry cards along, count them or read places: their arguments are not read
PASSING_CALLS = frozenset((
    "first", "last", "length", "take", "drop", "reversed", "flatten", "cards_in", "contents", "cell",
    "column_cells", "row_cells", "neighbors", "tagged_cells", "zone_named", "seat", "seat_after",
    "seats_from", "range", "abs", "distance", "score_of", "is_winner", "within", "path", "walk", "walk_path"))


class Loop:
    """A node that binds a variable to each item of a collection: (variable, collection, the parts
    evaluated with it bound)."""
    __slots__ = ("var", "coll", "parts")

    def __init__(self, var: str, coll, parts: tuple):
        self.var, self.coll, self.parts = var, coll, parts


class Decl:
    """What one kind of node is.
    - `records`: (which of names/calls/does/emits, the field holding the name) or None;
    - `reads_state`, `plain`: see the module;
    - `loop`: node -> its Loop, for a node that binds a variable over a collection;
    - `reveals`: node -> the sub-expressions it reads a card's identity through;
    - `suspends`: "never", "choose", "do", "emit", "super" (asks the definition), or "blocks" (when
      a statement of its blocks does)."""
    __slots__ = ("records", "reads_state", "plain", "loop", "reveals", "suspends")

    def __init__(self, *, records: Optional[tuple] = None, reads_state: bool = False, plain: bool = False,
                 loop: Optional[Callable] = None, reveals: Optional[Callable] = None, suspends: str = "never"):
        self.records, self.reads_state, self.plain = records, reads_state, plain
        self.loop, self.reveals, self.suspends = loop, reveals, suspends


def _all(node) -> tuple:
    return tuple(node.children())


def _attr_reveals(node) -> tuple:
    return () if str(node.name) in PLACE_ATTRS else (node.obj,)


def _call_reveals(node) -> tuple:
    return () if str(node.fn) in PASSING_CALLS else tuple(node.args)


def _generator(node) -> Loop:
    return Loop(str(node.var), node.coll, (node.value, node.cond))


_LEAF = Decl(plain=True)
_OPERATOR = Decl()
_STATEMENT = Decl()

NODES: dict = {
    # expressions
    A.Num: _LEAF, A.Str: _LEAF, A.Const: _LEAF,
    A.Name: Decl(records=("names", "name"), plain=True),
    A.ListOf: _OPERATOR,
    A.Attr: Decl(reads_state=True, plain=True, reveals=_attr_reveals),
    A.Index: Decl(reads_state=True),
    A.Neg: Decl(plain=True),
    A.BinOp: _OPERATOR, A.Not: _OPERATOR, A.And: _OPERATOR, A.Or: _OPERATOR, A.Ternary: _OPERATOR,
    A.Compare: Decl(reveals=_all),
    A.In: Decl(reveals=_all),
    A.IsTag: Decl(reads_state=True, reveals=lambda node: (node.obj,)),
    A.Where: Decl(reads_state=True, loop=lambda node: Loop("it", node.coll, (node.cond,))),
    A.ListFor: Decl(reads_state=True, loop=_generator),
    A.Aggregate: Decl(reads_state=True, loop=_generator),
    A.ExtremeBy: Decl(reads_state=True, loop=lambda node: Loop("it", node.coll, (node.key,))),
    A.Call: Decl(records=("calls", "fn"), reads_state=True, reveals=_call_reveals),
    # statements
    A.Let: _STATEMENT, A.Assign: _STATEMENT, A.Move: _STATEMENT, A.Swap: _STATEMENT, A.Cycle: _STATEMENT,
    A.Shuffle: _STATEMENT, A.Draw: _STATEMENT, A.Finish: _STATEMENT, A.StopStmt: _STATEMENT,
    A.Fail: _STATEMENT, A.Log: _STATEMENT, A.Pass: _STATEMENT,
    A.If: Decl(suspends="blocks"), A.For: Decl(suspends="blocks"),
    A.Repeat: Decl(suspends="blocks"),
    A.Choose: Decl(suspends="choose"),
    A.Do: Decl(records=("does", "name"), suspends="do"),
    A.Emit: Decl(records=("emits", "name"), suspends="emit"),
    A.Super: Decl(suspends="super"),
    # whole texts
    A.Trigger: _STATEMENT, A.Effect: _STATEMENT,
}


def decl(node) -> Decl:
    """The declaration of a node's kind; an undeclared kind is an error of the interpreter."""
    try:
        return NODES[type(node)]
    except KeyError:
        raise TypeError(f"internal: the node kind {type(node).__name__} is not declared in lang/analysis.py "
                        "NODES (what it reads, whether it loops, may wait or reveal a card)") from None


@dataclass(frozen=True)
class Facts:
    names: frozenset
    calls: frozenset
    does: frozenset
    emits: frozenset
    chooses: bool
    loops: bool
    reads_state: bool
    plain: bool
    size: int

    def static(self, constants) -> bool:
        """A value known at load time: literals, operators and the given constants only."""
        return not self.reads_state and all(n in constants for n in self.names)


def facts(node) -> Facts:
    """The facts of a tree (a node, or a list of statements)."""
    if isinstance(node, list):
        return _merge([facts(s) for s in node])
    try:
        return node._facts
    except AttributeError:
        pass
    found = {"names": set(), "calls": set(), "does": set(), "emits": set()}
    chooses = loops = reads = False
    plain = True
    size = 0
    for n in node.walk():
        size += 1
        d = decl(n)
        if d.records is not None:
            found[d.records[0]].add(str(getattr(n, d.records[1])))
        chooses = chooses or d.suspends == "choose"
        loops = loops or d.loop is not None
        reads = reads or d.reads_state
        plain = plain and d.plain
    out = Facts(frozenset(found["names"]), frozenset(found["calls"]), frozenset(found["does"]),
                frozenset(found["emits"]), chooses, loops, reads, plain, size)
    node._facts = out
    return out


def _merge(items) -> Facts:
    if not items:
        return Facts(frozenset(), frozenset(), frozenset(), frozenset(), False, False, False, True, 0)
    return Facts(frozenset().union(*(f.names for f in items)), frozenset().union(*(f.calls for f in items)),
                 frozenset().union(*(f.does for f in items)), frozenset().union(*(f.emits for f in items)),
                 any(f.chooses for f in items), any(f.loops for f in items), any(f.reads_state for f in items),
                 all(f.plain for f in items), sum(f.size for f in items))


def suspends(node, *, replacing, procedure_suspends, event_suspends) -> bool:
    """Whether a statement may wait for a choice: a `choose`, or a call of a procedure or an
    event whose handlers may (asked of the definition), however deep in its blocks. `replacing`:
    (procedure, index) of the `instead of` rule it is in (what `super` runs), or None."""
    how = decl(node).suspends
    if how == "never":
        return False
    if how == "choose":
        return True
    if how == "do":
        return procedure_suspends(str(node.name))
    if how == "emit":
        return event_suspends(str(node.name))
    if how == "super":
        return replacing is not None and procedure_suspends(replacing[0])
    return any(suspends(c, replacing=replacing, procedure_suspends=procedure_suspends, event_suspends=event_suspends)
               for c in node.children() if isinstance(c, A.Stmt))


def reaching(deps: dict, seeds) -> frozenset:
    """The keys of `deps` (key -> the keys it depends on) from which one of `seeds` is reached,
    directly or through other keys: one fixed point, whatever the cycles."""
    callers: dict = {}
    for k, ds in deps.items():
        for d in ds:
            callers.setdefault(d, []).append(k)
    found, todo = set(), list(seeds)
    while todo:
        for k in callers.get(todo.pop(), ()):
            if k not in found:
                found.add(k)
                todo.append(k)
    return frozenset(found)


def calls_of(body) -> set:
    """What a body may wait on: a choice (`("choose", "")`), the procedures it runs (`("do", P)`)
    and the events it emits (`("emit", E)`)."""
    f = facts(body)
    return ({("choose", "")} if f.chooses else set()) | {("do", n) for n in f.does} | {("emit", n) for n in f.emits}


def waiting(procedures: dict, events: dict) -> dict:
    """("do", P) / ("emit", E) -> whether running it may wait for a choice, from the bodies run by
    each procedure and each event (name -> its bodies: the procedure's, its triggers')."""
    deps = {("do", name): set().union(*map(calls_of, bodies)) for name, bodies in procedures.items()}
    deps.update((("emit", name), set().union(*map(calls_of, bodies))) for name, bodies in events.items())
    waits = reaching(deps, [("choose", "")])
    return {k: k in waits for k in deps}


def impure(functions: dict, draws) -> frozenset:
    """The content functions (name -> its body's tree, None when it has none that parses: impure)
    that draw at random: they call one of the built-ins `draws`, or a function that does."""
    deps = {name: (facts(tree).calls if tree is not None else {None}) for name, tree in functions.items()}
    return reaching(deps, list(draws) + [None])


def reveals(node) -> tuple:
    """The sub-expressions through which `node` itself reads a card's identity."""
    d = decl(node)
    return d.reveals(node) if d.reveals is not None else ()


def loop_of(node) -> Loop | None:
    """The variable `node` binds over a collection, its collection and the parts reading it."""
    d = decl(node)
    return d.loop(node) if d.loop is not None else None


def conjuncts(node) -> tuple:
    """The parts of a run of `and` (the node itself when it is not one), in order."""
    if type(node) is A.And:
        return conjuncts(node.left) + conjuncts(node.right)
    return (node,)


@dataclass(frozen=True)
class Inside:
    """A conjunct `NAME in PLACE`: the value of `name` lies in what `place` (a tree) gives."""
    name: str
    place: object


@dataclass(frozen=True)
class Passes:
    """A conjunct calling the function `fn` with names only (`names`): its body may say where
    one of them lies (its own placements)."""
    fn: str
    names: tuple


def placements(node) -> tuple:
    """What a requirement's tree says of where values lie, whoever reads it: an Inside or a
    Passes for each of its conjuncts that has that form, in order."""
    out = []
    for part in conjuncts(node):
        t = type(part)
        if t is A.In and not part.negated and type(part.item) is A.Name:
            out.append(Inside(str(part.item.name), part.coll))
        elif t is A.Call and all(type(a) is A.Name for a in part.args):
            out.append(Passes(str(part.fn), tuple(str(a.name) for a in part.args)))
    return tuple(out)

class Statics:
    """The values known at load time of the expressions of one match: whole numbers folded (a
    literal, a constant, arithmetic of those within the cap on numbers), a constant, an item of a
    constant list by an index known at load time, a name written in place whose value is known
    (scope.Arg). Asked with the scope a text is read in (its locals, the names written in place),
    of the match's `symbols` (its constants and variables); the kinds (kindfacts.Kinds) ask
    their questions through `asked` too, with one memo."""

    def __init__(self, symbols):
        self.symbols = symbols
        self._answers = None

    def asked(self, what, node, scope):
        """`what(node, scope)`, remembered for the rest of the outermost question being answered:
        the bindings do not change while it is, and a question about a deep expression asks about
        its parts again and again (else a time exponential in its depth)."""
        if type(node) in _LEAVES:  # nothing below it to ask about again
            return what(node, scope)
        memo = self._answers
        outer = memo is None
        if outer:
            self._answers = memo = {}
        try:
            key = (what, id(node), id(scope))
            hit = memo.get(key)
            if hit is None:
                hit = memo[key] = (what(node, scope), scope)  # the scope kept: its id stays its own
            return hit[0]
        finally:
            if outer:
                self._answers = None

    def static_int(self, node, scope):
        """The value of an expression that is a whole number known at load time, else None."""
        return self.asked(self._static_int, node, scope)

    def _static_int(self, node, scope):
        """The value of an expression that is a whole number known at load time, else None:
        a literal, a constant, or arithmetic of those (folded here, once)."""
        t = type(node)
        if t is A.Num:
            v = node.value
        elif t is A.Name:
            name = str(node.name)
            if name in scope.inlined:
                v = scope.inlined[name].value
                return v if type(v) is int else None
            if name in scope.slots or name in scope.bound or name == "me" or name in self.symbols.gvars:
                return None
            v = self.symbols.constant(name)
            if v is _MISS or type(v) is not int:
                return None
        elif t is A.Index:
            v = self.static_value(node, scope)
            if type(v) is not int:
                return None
        elif t is A.Neg:
            a = self.static_int(node.operand, scope)
            v = None if a is None else -a
        elif t is A.BinOp:
            a = self.static_int(node.left, scope)
            b = self.static_int(node.right, scope) if a is not None else None
            op = str(node.op)
            if b is None or (op in ("/", "//", "%") and b == 0):
                return None
            v = {"+": a + b, "-": a - b, "*": a * b}.get(op) if op in "+-*" else (a // b if op != "%" else a % b)
        else:
            return None
        return v if v is not None and -_NUMBER <= v <= _NUMBER else None

    def static_value(self, node, scope):
        """The value of a constant, of a constant list's item (an unrolled loop's variable), or of
        an item of those by an index known at load time; else _MISS."""
        t = type(node)
        if t is A.Name:
            name = str(node.name)
            if name in scope.inlined:
                return scope.inlined[name].value
            if name in scope.slots or name in scope.bound or name == "me" or name in self.symbols.gvars:
                return _MISS
            return self.symbols.constant(name)
        if t is A.Index:
            o = self.static_value(node.obj, scope)
            if type(o) is not list:
                return _MISS
            i = self.static_int(node.key, scope)
            return o[i] if i is not None and -len(o) <= i < len(o) else _MISS
        return _MISS
