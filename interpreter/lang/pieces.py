"""The typed pieces of generated code that a pass rewrites before the module's text is written.

The code generator writes a function of a module as a list of lines. A line is Python text,
except for the pieces a pass over the function has to recognise, which stay typed until the
function is written out (`written`):

- `Spend`: a spend of the budget by a number known at load time, where a loop over items known
  at load time starts (loops.py): `ctx.budget = b = ctx.budget - N`, then a rule error at `loc`
  when the budget runs out. `merge_spends` turns spends one after the other (written-out loops,
  one in another) into one subtraction, which replays them one by one only when the budget runs
  out.

The names a module's functions call and read are not found in its text either: they are those of
its compiled code (`names_of`, `called`); what an expression calls, and whether two compute the same
thing, are read from Python's own parse of it (`calls_nothing`, `shape`), never guessed by a regular
expression.
"""
from __future__ import annotations

import ast
import functools
from dataclasses import KW_ONLY, dataclass, replace
from types import CodeType

from ..ruleset import cache as diskcache

_INDENT = "    "


@dataclass(frozen=True)
class Spend:
    """`ctx.budget = b = ctx.budget - amount` (`b - amount` when `again`: right after another
    spend), then `_spend_failed(ctx, loc, what)` when it ran out; `loc` and `what` are the names
    of the globals holding the position and what is spent for. `depth`: its indentation."""
    amount: int
    _: KW_ONLY
    loc: str
    what: str
    again: bool = False
    depth: int = 0

    def text(self) -> list[str]:
        ind = _INDENT * self.depth
        return [f"{ind}ctx.budget = b = {'b' if self.again else 'ctx.budget'} - {self.amount}", f"{ind}if b < 0:",
                f"{ind}    _spend_failed(ctx, {self.loc}, {self.what})"]


def indented(lines, depth: int = 1) -> list:
    """`lines` (text and pieces) `depth` levels further in."""
    ind = _INDENT * depth
    return [replace(x, depth=x.depth + depth) if type(x) is Spend else ind + x for x in lines]


def size(lines) -> int:
    """The number of lines of text `lines` are written as."""
    return sum(3 if type(x) is Spend else 1 for x in lines)


def texts(lines) -> list:
    """The lines of text among `lines` (what a rewrite of names may touch: no piece names any)."""
    return [x for x in lines if type(x) is not Spend]


def merge_spends(lines) -> list:
    """Spends of the budget one after the other at the same depth merged into one, which replays
    them one by one (`_spend_seq`) only when the budget runs out."""
    out, i = [], 0
    while i < len(lines):
        j = i
        while j < len(lines) and type(lines[j]) is Spend and lines[j].depth == lines[i].depth:
            j += 1
        if j - i < 2:
            out.append(lines[i])
            i += 1
            continue
        run = lines[i:j]
        ind, total = _INDENT * run[0].depth, sum(s.amount for s in run)
        parts = ", ".join(f"({s.amount}, {s.loc}, {s.what})" for s in run)
        out += [f"{ind}ctx.budget = b = ctx.budget - {total}", f"{ind}if b < 0:",
                f"{ind}    _spend_seq(ctx, {total}, ({parts},))"]
        i = j
    return out


def written(lines) -> list[str]:
    """The text of `lines`, its spends merged."""
    out = []
    for x in merge_spends(lines):
        out += x.text() if type(x) is Spend else [x]
    return out


def _codes(code: CodeType):
    """The code objects of the functions a module's code defines (and of those they define)."""
    for c in code.co_consts:
        if type(c) is CodeType:
            yield c
            yield from _codes(c)


def names_of(code: CodeType) -> list[str]:
    """The global names a module's functions read, each once, in the order of the functions."""
    return list(dict.fromkeys(n for c in _codes(code) for n in c.co_names))


def called(code: CodeType, roots) -> set[str]:
    """The names of the module's functions that its functions `roots` may call, themselves
    included: the functions each one reads, followed from `roots`."""
    reads = {c.co_name: set(c.co_names) for c in _codes(code)}
    keep = {r for r in roots if r in reads}
    todo = list(keep)
    while todo:
        for n in reads[todo.pop()]:
            if n in reads and n not in keep:
                keep.add(n)
                todo.append(n)
    return keep


_SAFE_CALLS = frozenset(("_type", "_len"))  # ... and `dict.get`: calls that never raise, spend or change a local


@functools.lru_cache(maxsize=4096)
def calls_nothing(text: str) -> bool:
    """Whether a generated expression calls nothing that may fail, spend or change a local (type
    tests, `len` and `dict.get` only). Kept in the disk cache, as the code compiled from a text is."""
    cache = diskcache.store("calls")
    key = diskcache.key_of(text)
    hit = cache.get(key)
    if hit is None:
        hit = _calls_nothing(text)
        cache.put(key, hit)
    return hit


def _calls_nothing(text: str) -> bool:
    for n in ast.walk(ast.parse(text, mode="eval")):
        if type(n) is ast.Call:
            f = n.func
            if not ((type(f) is ast.Name and f.id in _SAFE_CALLS) or (type(f) is ast.Attribute and f.attr == "get")):
                return False
    return True


def hands_frame(lines) -> bool:
    """Whether lines of a block (its first ones indented once) name the frame `L` itself (handed to
    a helper), not only items of it (`L[n]`): read from Python's parse of them."""
    tree = ast.parse("if 1:\n" + "\n".join(written(lines)))
    items = {id(n.value) for n in ast.walk(tree) if type(n) is ast.Subscript}
    return any(type(n) is ast.Name and n.id == "L" and id(n) not in items for n in ast.walk(tree))


def _is_temp(name: str) -> bool:
    """A temporary of generated code (`_t3`), as its generator names them (ExprCodegen.tmp)."""
    return name[:2] == "_t" and name[2:].isdigit()


@functools.lru_cache(maxsize=1024)
def shape(text: str) -> str:
    """A generated expression with its temporaries numbered in order: two expressions of one
    shape compute the same thing (in one frame, with nothing changed in between)."""
    tree = ast.parse(text, mode="eval")
    names: dict = {}
    for n in ast.walk(tree):
        if type(n) is ast.Name and _is_temp(n.id):
            n.id = names.setdefault(n.id, f"_t{len(names)}")
    return ast.dump(tree)
