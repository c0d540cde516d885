"""From typed syntax trees (ast.py) to Python callables, once per match.

Every expression becomes ``f(ctx) -> value``, and every run of statements that cannot wait for a
choice one function ``f(ctx)``, written as Python source by codegen.py and statements.py. Names are resolved here, not while playing: a local is a slot
index, a zone or a card is the object itself, a variable is its storage list.

A body holding statements that may wait for a player's choice is one resumable generated function
(resumable.py), texts with {expressions} are compiled by templates.py; both are parts the Compiler
holds (`resumable`, `templates`).
What it reads of the definition is a SymbolTable (symbols.py); what it produces is its CompileOutput
(output.py).
"""
from __future__ import annotations

import re
from typing import TYPE_CHECKING

from lark import Token

from ..runtime import context as rt
from ..errors import Location, Problem
from ..core.model import Card, Seat, Zone, label_of
from ..ruleset.yamlio import SourceText
from . import ast as A
from .analysis import facts
from .codegen import ExprCodegen
from .scope import _MISS, CompileError, Failures, Scope, stamped
from ..errors import did_you_mean
from .parser import ParseFailure, parse


from .resumable import Resumable
from .output import CompileOutput
from .templates import Templates
from .valuetypes import ValueTypes

if TYPE_CHECKING:  # a Protocol, for the reader and type checkers: nothing to import at run time
    from .symbols import SymbolTable


def locate(node, src: SourceText | None, kind: str) -> Location:
    """Where `node` (a typed node or a token) of the text `src` is, in its content file. In an
    expression (`kind` "expr") folded over several YAML lines, positions are offsets of the
    one-line text the parser read."""
    if src is None:
        return Location("<rules>")
    line = column = None
    if isinstance(node, Token):
        line, column = node.line, node.column
    elif isinstance(node, A.Node) and node.at is not None:
        line, column = node.at[0], node.at[1]
    if line is None:
        return src.locate(1, 1)
    if kind == "expr" and "\n" in src.text:
        off = column - 1
        before = src.text[:off]
        line = before.count("\n") + 1
        column = off - (before.rfind("\n") + 1) + 1
    return src.locate(line, column)


class Compiler:
    """Compiles the snippets of one match. `symbols` (a SymbolTable, symbols.py: the match being
    built) is what it reads of the definition; what it produces besides the callables it returns
    goes into `output` (output.py). Its parts: `codegen` (expressions and statements that cannot
    wait, as Python source), `resumable` (bodies that may wait for a choice) and
    `templates` (texts with {expressions})."""

    def __init__(self, symbols: SymbolTable):
        self.symbols = symbols
        self.output = CompileOutput()
        self.codegen = ExprCodegen(self)
        self.resumable = Resumable(self)
        self.templates = Templates(self)
        self.types = ValueTypes(symbols)  # the types of values, where known: mistakes found at load time
        self.failures = Failures()  # the errors of a body's statements, reported together

    # ---- what the definition calls of the parts ------------------------------------------

    def seq(self, stmts, scope, k):
        """Statements followed by `k(ctx)` (resumable.py)."""
        self.output.bodies.append((stmts, scope))
        return self.resumable.seq(stmts, scope, k)

    def suspends(self, node, scope) -> bool:
        return self.resumable.suspends(node, scope)

    def template(self, tok, scope):
        return self.templates.template(tok, scope)

    def template_text(self, text: str, scope, src: SourceText | None = None, at=None):
        return self.templates.template_text(text, scope, src, at)

    def piece(self, src: SourceText, scope):
        return self.templates.piece(src, scope)

    # ---- entry points ----------------------------------------------------------------

    @staticmethod
    def problem(e: CompileError) -> Problem:
        """The problem a CompileError reports, at its position in the text it was raised in."""
        loc = locate(e.node, e.src, e.kind)
        return Problem(loc, e.message, hint=e.hint, context=e.src.context(loc) if e.src else "")

    @classmethod
    def problems(cls, e: CompileError) -> list[Problem]:
        """The problems of `e` and of the statements after it found failing too (`e.more`)."""
        return [cls.problem(x) for x in [e] + e.more]

    @staticmethod
    def loc(node, scope) -> Location:
        """Where `node` of the text compiled in `scope` is, in its content file."""
        return locate(node, scope.src, scope.kind)

    def expr(self, src: SourceText, scope: Scope, caller=None):
        """Compile an expression text; returns f(ctx) (see ExprCodegen.function for `caller`).
        `scope` holds its locals; it is read from `src`."""
        tree = parse(src, "expr")
        scope = scope if scope.src is src else scope.reading(src)
        return stamped(src, "expr", lambda: self.codegen.function(tree, scope, caller))

    def super_target(self, node, scope):
        """(procedure, number of its parameters) of `super`: what the `instead of` rule being
        compiled replaces; its arguments, when written, must be that many."""
        if scope.replacing is None:
            raise CompileError("`super` runs what an `instead of` rule replaces: it is only written in one", node,
                               hint="call the procedure with `do NAME(...)`")
        name, _ = scope.replacing
        n = len(self.symbols.procedure_params[name])
        if node.args is not None and len(node.args) != n:
            raise CompileError(f"`super` of `{name}` takes {n} argument(s), got {len(node.args)}", node)
        return name, n

    def check_arity(self, node, name, n):
        m = self.symbols
        if type(node) is A.Do:
            if name not in m.procedure_params:
                raise CompileError(f"unknown procedure `{name}`", node.name,
                                   hint=did_you_mean(name, m.procedure_params) or "declare it under `procedures:`")
            want = len(m.procedure_params[name])
        else:
            if name not in m.event_params:
                raise CompileError(f"unknown event `{name}`", node.name,
                                   hint=did_you_mean(name, m.event_params) or "declare it under `events:`")
            want = len(m.event_params[name])
        if n != want:
            raise CompileError(f"`{name}` takes {want} argument(s), got {n}", node)

    # ---- expressions -----------------------------------------------------------------

    def e(self, node, scope):
        """An expression tree compiled to f(ctx): Python source written by codegen.py."""
        return stamped(scope.src, scope.kind, lambda: self.codegen.function(node, scope))

    def string(self, tok) -> str:
        s = str(tok)[1:-1]
        return re.sub(r"\\(.)", r"\1", s)

    def constant_of(self, node):
        """(True, value) when a node is a literal."""
        t = type(node)
        if t is A.Num or t is A.Const:
            return True, node.value
        if t is A.Str:
            return True, self.string(node.token)
        return False, None

    @staticmethod
    def iterable_at(v, loc):
        """`v` as a collection to go through, or a rule error at `loc`."""
        if v is None:
            return []
        if type(v) is Zone:
            raise rt.RuleRuntimeError(f"{v} is a zone: write `{v.name}.cards` to go through its cards", loc)
        if isinstance(v, (int, bool, str, Card, Seat)):
            raise rt.RuleRuntimeError(f"{label_of(v)} is not a collection", loc)
        return v

    @staticmethod
    def plain_reads(args) -> bool:
        """Arguments that only read (names, attributes, literals): safe to evaluate more than once."""
        return all(facts(a).plain for a in args)

    def draws_chance(self, node) -> bool:
        """Whether an expression rolls, draws at random or shuffles (directly or through a function)."""
        m = self.symbols
        defs = getattr(m, "function_defs", {})
        return any(callee in m._IMPURE or (callee in defs and not m._is_pure(callee)) for callee in facts(node).calls)


__all__ = ["Compiler", "CompileError", "Scope", "ParseFailure", "did_you_mean", "_MISS"]
