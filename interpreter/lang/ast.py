"""The typed syntax tree of the rules language.

`build(tree)` turns lark's parse tree (grammar/rules.lark) into these small classes, once per
text (parser.py caches them). Every node carries its position in the parsed text (`at`: line,
column, start and end offsets); names, operators and strings stay lark Tokens, which are strings
that know their own line and column, so an error can point at the name itself.

The compiler (statements), the code generator (expressions) and the analysis pass
(analysis.py) dispatch on these classes; nothing else reads lark's trees.
"""
from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Optional

from lark import Token, Transformer, v_args

Pos = Optional[tuple]  # (line, column, start offset, end offset) in the parsed text, or None


GRANT = "GRANT"  # the type of the `=` token of the assignment a `grant` stands for


class Node:
    __slots__ = ("_facts",)  # what analysis.py found of the tree below it, kept with it (not pickled)

    def children(self):
        """The sub-nodes, in source order (tokens and None left out)."""
        for name in _FIELDS[type(self)]:
            yield from _nodes_in(getattr(self, name))

    def walk(self):
        """This node and every node below it, parents first, without recursion."""
        stack = [self]
        while stack:
            n = stack.pop()
            yield n
            stack.extend(reversed(list(n.children())))


def _nodes_in(v):
    if isinstance(v, Node):
        yield v
    elif isinstance(v, (list, tuple)):  # statements, arguments, the (condition, block) pairs of an `if`
        for x in v:
            yield from _nodes_in(x)


_FIELDS: dict[type, tuple[str, ...]] = {}  # a node class -> the names of its fields but `at`


def node(cls):
    cls = dataclass(slots=True, eq=False, repr=False)(cls)
    _FIELDS[cls] = tuple(f.name for f in fields(cls) if f.name != "at")
    return cls


# ---- expressions ---------------------------------------------------------------------------

class Expr(Node):
    __slots__ = ()


@node
class Num(Expr):
    value: int
    at: Pos


@node
class Str(Expr):
    token: Token  # the quoted text, as written
    at: Pos


@node
class Const(Expr):
    value: object  # True, False or None
    at: Pos


@node
class Name(Expr):
    name: Token
    at: Pos


@node
class ListOf(Expr):
    items: list
    at: Pos


@node
class Attr(Expr):
    obj: Expr
    name: Token
    at: Pos


@node
class Index(Expr):
    obj: Expr
    key: Expr
    at: Pos


@node
class Neg(Expr):
    operand: Expr
    at: Pos


@node
class BinOp(Expr):
    left: Expr
    op: Token
    right: Expr
    at: Pos


@node
class Compare(Expr):
    left: Expr
    op: Token
    right: Expr
    at: Pos


@node
class In(Expr):
    item: Expr
    coll: Expr
    negated: bool
    at: Pos


@node
class IsTag(Expr):
    obj: Expr
    tag: Token
    negated: bool
    at: Pos


@node
class Not(Expr):
    operand: Expr
    at: Pos


@node
class And(Expr):
    left: Expr
    right: Expr
    at: Pos


@node
class Or(Expr):
    left: Expr
    right: Expr
    at: Pos


@node
class Ternary(Expr):
    then: Expr
    cond: Expr
    otherwise: Expr
    at: Pos


@node
class Where(Expr):
    coll: Expr
    cond: Expr  # `it` is each item
    at: Pos


@node
class ListFor(Expr):
    """`[value for var in coll where cond]`"""
    value: Expr
    var: Token
    coll: Expr
    cond: Optional[Expr]
    at: Pos


@node
class Aggregate(Expr):
    """`fn(value for var in coll where cond)`"""
    fn: Token
    value: Expr
    var: Token
    coll: Expr
    cond: Optional[Expr]
    at: Pos


@node
class ExtremeBy(Expr):
    """`max_by(ITEMS, KEY)` / `min_by(...)`: the first item whose KEY (`it` is each item) is the
    largest (smallest) number; items whose KEY is none are skipped; none when no item is left."""
    fn: Token  # max_by or min_by
    coll: Expr
    key: Expr
    at: Pos


@node
class Call(Expr):
    fn: Token
    args: list
    at: Pos


# ---- statements ----------------------------------------------------------------------------

class Stmt(Node):
    __slots__ = ()


@node
class Let(Stmt):
    name: Token
    value: Expr
    at: Pos


@node
class Assign(Stmt):
    target: Expr
    op: Token
    value: Expr
    at: Pos


@node
class If(Stmt):
    branches: list  # [(condition, [statements])], the `if` then each `elif`
    otherwise: Optional[list]  # the `else` statements
    at: Pos


@node
class For(Stmt):
    var: Token
    coll: Expr
    body: list
    at: Pos


@node
class Repeat(Stmt):
    count: Expr
    body: list
    at: Pos


@node
class Choose(Stmt):
    var: Token
    options: Expr
    by: Optional[Expr]
    prompt: Optional[Token]
    optional: bool
    at: Pos


@node
class Move(Stmt):
    what: Expr
    to: Expr
    place: Optional[Token]
    at: Pos


@node
class Swap(Stmt):
    a: Expr
    b: Expr
    at: Pos


@node
class Cycle(Stmt):
    zones: Expr
    direction: Optional[Token]
    at: Pos


@node
class Shuffle(Stmt):
    zone: Expr
    at: Pos


@node
class Draw(Stmt):
    count: Optional[Expr]
    source: Expr
    to: Expr
    at: Pos


@node
class Emit(Stmt):
    name: Token
    args: list
    at: Pos


@node
class Do(Stmt):
    name: Token
    args: list
    at: Pos
    unpreventable: bool = False  # `do P(...) unpreventable`: P's `instead of` replacements do not apply


@node
class Super(Stmt):
    """`super` or `super(ARGS)` in an `instead of P` rule: what it replaces (the next replacements, then P)."""
    args: Optional[list]
    at: Pos


@node
class Finish(Stmt):
    what: Token
    at: Pos


@node
class StopStmt(Stmt):
    at: Pos


@node
class Fail(Stmt):
    message: Token
    at: Pos


@node
class Log(Stmt):
    message: Token
    at: Pos


@node
class Pass(Stmt):
    at: Pos


# ---- whole texts ---------------------------------------------------------------------------

@node
class Trigger(Node):
    """`on EVENT [when COND]: BODY` or `instead of PROCEDURE [when COND]: BODY`"""
    kind: str  # "on" or "instead"
    event: Token
    cond: Optional[Expr]
    body: list
    at: Pos


@node
class Effect(Node):
    body: list
    at: Pos


def _at(meta) -> Pos:
    if meta.empty:
        return None
    return (meta.line, meta.column, meta.start_pos, meta.end_pos)


def _args(a) -> list:
    return list(a) if a is not None else []


@v_args(meta=True)
class _Build(Transformer):
    """lark tree -> typed nodes, bottom up (rule aliases of grammar/rules.lark)."""

    # expressions
    def number(self, meta, c):
        return Num(int(c[0]), _at(meta))

    def string(self, meta, c):
        return Str(c[0], _at(meta))

    def true(self, meta, c):
        return Const(True, _at(meta))

    def false(self, meta, c):
        return Const(False, _at(meta))

    def none(self, meta, c):
        return Const(None, _at(meta))

    def name(self, meta, c):
        return Name(c[0], _at(meta))

    def args(self, meta, c):
        return list(c)

    def list_(self, meta, c):
        return ListOf(_args(c[0]), _at(meta))

    def attr(self, meta, c):
        return Attr(c[0], c[1], _at(meta))

    def index(self, meta, c):
        return Index(c[0], c[1], _at(meta))

    def neg(self, meta, c):
        return Neg(c[0], _at(meta))

    def binop(self, meta, c):
        return BinOp(c[0], c[1], c[2], _at(meta))

    def compare(self, meta, c):
        return Compare(c[0], c[1], c[2], _at(meta))

    def in_(self, meta, c):
        return In(c[0], c[1], False, _at(meta))

    def not_in(self, meta, c):
        return In(c[0], c[1], True, _at(meta))

    def is_tag(self, meta, c):
        return IsTag(c[0], c[1], False, _at(meta))

    def is_not_tag(self, meta, c):
        return IsTag(c[0], c[1], True, _at(meta))

    def not_(self, meta, c):
        return Not(c[0], _at(meta))

    def and_(self, meta, c):
        return And(c[0], c[1], _at(meta))

    def or_(self, meta, c):
        return Or(c[0], c[1], _at(meta))

    def ternary(self, meta, c):
        return Ternary(c[0], c[1], c[2], _at(meta))

    def where_it(self, meta, c):
        return Where(c[0], c[1], _at(meta))

    def comprehension(self, meta, c):
        return ListFor(c[0], c[1], c[2], c[3], _at(meta))

    def aggregate(self, meta, c):
        return Aggregate(c[0], c[1], c[2], c[3], c[4], _at(meta))

    def extreme_by(self, meta, c):
        return ExtremeBy(c[0], c[1], c[2], _at(meta))

    def call(self, meta, c):
        return Call(c[0], _args(c[1]), _at(meta))

    # statements
    def block(self, meta, c):
        return [s for s in c if isinstance(s, Stmt)]

    def let_stmt(self, meta, c):
        return Let(c[0], c[1], _at(meta))

    def assign_stmt(self, meta, c):
        return Assign(c[0], c[1], c[2], _at(meta))

    def elif_part(self, meta, c):
        return ("elif", c[0], c[1])

    def else_part(self, meta, c):
        return ("else", c[0])

    def if_stmt(self, meta, c):
        branches, otherwise = [(c[0], c[1])], None
        for part in c[2:]:
            if part is None:
                continue
            if part[0] == "elif":
                branches.append((part[1], part[2]))
            else:
                otherwise = part[1]
        return If(branches, otherwise, _at(meta))

    def for_stmt(self, meta, c):
        return For(c[0], c[1], c[2], _at(meta))

    def repeat_stmt(self, meta, c):
        return Repeat(c[0], c[1], _at(meta))

    def choose_by(self, meta, c):
        return ("by", c[0])

    def choose_label(self, meta, c):
        return ("prompt", c[0])

    def choose_optional(self, meta, c):
        return ("optional", True)

    def choose_stmt(self, meta, c):
        opts = {"by": None, "prompt": None, "optional": False}
        for key, value in c[2:]:
            opts[key] = value
        return Choose(c[0], c[1], opts["by"], opts["prompt"], opts["optional"], _at(meta))

    def move_stmt(self, meta, c):
        return Move(c[0], c[1], c[2], _at(meta))

    def swap_stmt(self, meta, c):
        return Swap(c[0], c[1], _at(meta))

    def cycle_stmt(self, meta, c):
        return Cycle(c[0], c[1], _at(meta))

    def shuffle_stmt(self, meta, c):
        return Shuffle(c[0], _at(meta))

    def draw_stmt(self, meta, c):
        return Draw(c[0], c[1], c[2], _at(meta))

    def emit_stmt(self, meta, c):
        return Emit(c[0], _args(c[1]), _at(meta))

    def do_stmt(self, meta, c):
        return Do(c[0], _args(c[1]), _at(meta), c[2] is not None)

    def super_stmt(self, meta, c):
        return Super(_args(c[0]) if c and c[0] is not None else None, _at(meta))

    def finish_stmt(self, meta, c):
        return Finish(c[0], _at(meta))

    def stop_stmt(self, meta, c):
        return StopStmt(_at(meta))

    def fail_stmt(self, meta, c):
        return Fail(c[0], _at(meta))

    def log_stmt(self, meta, c):
        return Log(c[0], _at(meta))

    def pass_stmt(self, meta, c):
        return Pass(_at(meta))

    def grant_stmt(self, meta, c):
        """`grant NAME [with VALUE]`: I start the lasting effect NAME (a card's `effects:`), which
        is my player variable NAME: `me.NAME = VALUE` (true without `with`)."""
        at = _at(meta)
        me = Token("NAME", "me", start_pos=c[0].start_pos, line=c[0].line, column=c[0].column)
        value = c[1] if c[1] is not None else Const(True, at)
        return Assign(Attr(Name(me, at), c[0], at), Token(GRANT, "="), value, at)  # (an error names `grant`)

    # whole texts
    def start_effect(self, meta, c):
        return Effect(c[0], _at(meta))

    def on_trigger(self, meta, c):
        return ("on", c[0], c[1])

    def instead_trigger(self, meta, c):
        return ("instead", c[0], c[1])

    def start_trigger(self, meta, c):
        (kind, event, cond), body = c
        return Trigger(kind, event, cond, body, _at(meta))


_BUILD = _Build()


def build(tree):
    """The typed tree of a lark parse tree (an expression, an Effect or a Trigger)."""
    return _BUILD.transform(tree)
