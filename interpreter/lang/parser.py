"""Parsing rules text with the lark grammar in grammar/rules.lark, into typed trees (ast.py).

Parse errors become ContentError problems that point at the YAML file,
line and column holding the text, with a caret and the expected tokens.
"""
from __future__ import annotations

import functools

from lark import Lark, Tree
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken

from ..ruleset import cache as diskcache
from ..errors import Problem
from ..ruleset.paths import grammar_path
from ..ruleset.yamlio import SourceText
from .ast import build

ENTRY = {"expr": "start_expr", "effect": "start_effect", "trigger": "start_trigger"}

# Friendly names for the grammar's terminals, used in "expected ..." messages.
_TOKEN_NAMES = {
    "NAME": "a name", "NUMBER": "a number", "STRING": "a quoted string", "_NL": "a new line",
    "LPAR": "'('", "RPAR": "')'", "LSQB": "'['", "RSQB": "']'", "COMMA": "','", "DOT": "'.'",
    "COLON": "':'", "SEMICOLON": "';'", "COMP_OP": "a comparison", "ADD_OP": "'+' or '-'",
    "MUL_OP": "'*', '/' or '%'", "ASSIGN_OP": "'=', '+=' or '-='", "MINUS": "'-'",
    "$END": "the end of the text", "PLACE": "top or bottom", "FINISH_WHAT": "turn, step, round or game",
}


@functools.lru_cache(maxsize=1)
def parser() -> Lark:
    kw = dict(parser="lalr", start=list(ENTRY.values()), propagate_positions=True, maybe_placeholders=True)
    try:  # lark keeps the built tables in a temporary file, keyed by the grammar's hash
        return Lark.open(str(grammar_path()), cache=True, **kw)
    except OSError:
        return Lark.open(str(grammar_path()), **kw)


def _describe(tokens) -> str:
    names = []
    for t in sorted(tokens):
        if t in _TOKEN_NAMES:
            names.append(_TOKEN_NAMES[t])
        elif t.isupper() and t.isalpha():
            names.append(repr(t.lower()))
        else:
            names.append(t)
    names = sorted(set(names))
    if len(names) > 8:
        names = names[:8] + ["..."]
    return ", ".join(names)


@functools.lru_cache(maxsize=4096)
def _parse_cached(text: str, kind: str):
    """(typed tree, None), or (None, the lark node nested too deeply). Syntax errors raise.
    A text parsed by an earlier process is read from the disk cache (diskcache.py)."""
    cache = diskcache.store("rules")
    key = diskcache.key_of(kind, text)
    typed = cache.get(key)
    if typed is not None:
        return typed, None
    tree = parser().parse(text, start=ENTRY[kind])
    deep = too_deep(tree)
    if deep is not None:
        return None, deep
    typed = build(tree)
    cache.put(key, typed)
    return typed, None


def parse(src: SourceText, kind: str):
    """Parse `src` as an expression, an effect or a trigger: its typed tree (ast.py), shared by
    every caller of the same text, never to be changed. Raises ParseFailure."""
    text = src.text
    if kind == "expr":
        # An expression may be folded over several YAML lines: newlines are spaces there.
        text = text.replace("\r\n", "  ").replace("\n", " ")
    text = text.rstrip()
    try:
        tree, deep = _parse_cached(text, kind)
    except UnexpectedInput as e:
        raise ParseFailure(_problem(src, e, kind), more=_further(src, text, e, kind)) from None
    except RecursionError:  # the parser itself does not recurse; kept as a last guard
        raise ParseFailure(Problem(src.locate(1, 1), "rules text nested too deeply")) from None
    if deep is not None:
        raise ParseFailure(_deep_problem(src, deep, kind))
    return tree


def depth_cap() -> int:
    from ..limits import DEFAULT
    return DEFAULT.rule_depth


def too_deep(tree: Tree, cap: int | None = None):
    """The first node nested more than `cap` levels deep, found without recursion (the compiler
    recurses once or twice per level, and so would Python's own stack), or None."""
    cap = cap or depth_cap()
    stack = [(tree, 1)]
    while stack:
        node, depth = stack.pop()
        if depth > cap:
            return node
        for child in reversed(node.children):  # the leftmost first: that is where the caret goes
            if isinstance(child, Tree):
                stack.append((child, depth + 1))
    return None


def _deep_problem(src: SourceText, node: Tree, kind: str) -> Problem:
    meta = node.meta
    line, column = getattr(meta, "line", 1), getattr(meta, "column", 1)
    if kind == "expr":
        off = max(getattr(meta, "start_pos", 0) or 0, 0)
        before = src.text[:off]
        line = before.count("\n") + 1
        column = off - (before.rfind("\n") + 1) + 1
    loc = src.locate(line, column)
    return Problem(loc, f"rules text nested too deeply: more than {depth_cap()} levels (operators, calls, "
                        f"lists, blocks)", hint="split it: a `let`, a function or a procedure for a part",
                   context=src.context(loc))


class ParseFailure(Exception):
    """A syntax error (`problem`: the first), and those found on the later lines of the same
    text (`more`, see `_further`)."""

    def __init__(self, problem: Problem, more=()):
        self.problem = problem
        self.more = list(more)
        super().__init__(problem.render())

    @property
    def problems(self) -> list:
        return [self.problem] + self.more


_ENDS = ("end", "else", "elif", "$END")  # what a line taken out may leave without its block: no news


def _further(src: SourceText, text: str, e: UnexpectedInput, kind: str, most: int = 9) -> list:
    """The syntax errors of the lines after the first error's, in a body of several lines (an
    effect, a trigger): the line in error read as `pass`, the text parsed again, and so on. An
    error a line taken out may cause (an `end` left without its block, the text ending early)
    stops the search: only errors of their own are reported."""
    if kind == "expr" or "\n" not in text:
        return []
    lines = text.split("\n")
    out, line = [], getattr(e, "line", 0) or 0
    for _ in range(most):
        if not 1 <= line <= len(lines):
            break
        indent = len(lines[line - 1]) - len(lines[line - 1].lstrip())
        lines[line - 1] = " " * indent + ("pass" if line > 1 or kind != "trigger" else lines[line - 1].lstrip())
        try:
            parser().parse("\n".join(lines), start=ENTRY[kind])
            break
        except UnexpectedInput as again:
            token = getattr(again, "token", None)
            after = getattr(again, "line", 0) or 0
            if after <= line or isinstance(again, UnexpectedEOF) or (token is not None and (
                    token.type == "$END" or str(token) in _ENDS)):
                break
            out.append(_problem(src, again, kind))
            line = after
        except Exception:  # the grammar's own limits (recursion): the first error is enough
            break
    return out


def _problem(src: SourceText, e: UnexpectedInput, kind: str) -> Problem:
    line, column = getattr(e, "line", 1) or 1, getattr(e, "column", 1) or 1
    if kind == "expr":
        # positions were computed on the one-line text: map the offset back
        off = max(getattr(e, "pos_in_stream", 0) or 0, 0)
        before = src.text[:off]
        line = before.count("\n") + 1
        column = off - (before.rfind("\n") + 1) + 1
    if isinstance(e, UnexpectedEOF) or (isinstance(e, UnexpectedToken) and e.token.type == "$END"):
        lines = src.text.rstrip().splitlines() or [""]
        line, column = len(lines), len(lines[-1]) + 1
    loc = src.locate(line, column)
    if isinstance(e, UnexpectedCharacters):
        ch = src.text[e.pos_in_stream] if e.pos_in_stream < len(src.text) else "?"
        msg = f"unexpected character {ch!r}"
        expected = _describe(e.allowed) if e.allowed else ""
    elif isinstance(e, UnexpectedToken):
        tok = e.token
        shown = "the end of the text" if tok.type == "$END" else repr(str(tok))
        msg = f"unexpected {shown}"
        expected = _describe(e.expected)
    else:
        msg = "unexpected end of the text"
        expected = _describe(getattr(e, "expected", []) or [])
    if expected:
        msg += f"; expected {expected}"
    hint = _hint(src.text, e, kind)
    return Problem(loc, f"rules syntax error: {msg}", hint=hint, context=src.context(loc))


def _hint(text: str, e: UnexpectedInput, kind: str) -> str:
    stripped = text.strip()
    if kind == "trigger" and not stripped.startswith(("on ", "instead ")):
        return "a trigger reads `on EVENT [when CONDITION]: EFFECTS`"
    opens = sum(stripped.count(w) for w in (" then", " do")) + stripped.count("repeat ")
    if isinstance(e, (UnexpectedEOF, UnexpectedToken)) and getattr(getattr(e, "token", None), "type", "$END") == "$END":
        if opens:
            return "a block opened with `then`, `do` or `times` must be closed with `end`"
    if isinstance(e, UnexpectedToken) and str(e.token) == "=" and kind == "expr":
        return "compare with `==`; a single `=` assigns, in effects only"
    if isinstance(e, UnexpectedCharacters) and text[e.pos_in_stream:e.pos_in_stream + 1] in "&|!":
        return "write `and`, `or`, `not`"
    return ""


