"""The generated code of a place in the content, for `interpret validate GAME --source FILE:LINE`.

Every module the code generator writes is recorded in the compiler's output (`Generated`): where
its text starts, the last line of the content it was written from, its source, and its globals.
`at(generated, "attack.yaml:38")` finds every module written from a text that spans that line
(line 38 inside a procedure's body finds the body's code, not only the line where it starts);
`legend(...)` says what each global name of a printed text is (`_k3`: a constant, a card, a
built-in, a content function...).
"""
from __future__ import annotations

from typing import NamedTuple

from ..core.model import Card, Seat, Zone
from ..errors import Location
from .pieces import names_of


class Generated(NamedTuple):
    where: Location | None  # where the compiled text starts
    src: object  # the SourceText it was written from (None: no text)
    end: int | None  # the offset in it after the last character written from
    source: str
    env: dict  # its globals: the values the text names (not the helpers every module has)
    notes: dict  # a global's name -> what it is, when the generator said (codegen.const's `note`)
    role: str  # what the module is: an expression, a content function, statements...

    @property
    def last_line(self) -> int:
        """The last content line it was written from (found only when asked: --source)."""
        return last_line(self.src, self.end, self.where)


def end_of(node) -> int | None:
    """The offset after the last character of `node` (a typed node) in its text, when known."""
    at = getattr(node, "at", None)
    return at[3] if at is not None and len(at) > 3 else None


def last_line(src, end: int | None, where: Location | None) -> int:
    """The content line of the offset `end` - 1 of the text `src`, which starts at `where`."""
    if where is None or src is None or end is None:
        return where.line if where is not None else 0
    end = max(end - 1, 0)  # the offset of its last character
    before = src.text[:end]
    line = before.count("\n") + 1
    column = end - (before.rfind("\n") + 1) + 1
    try:
        return max(src.locate(line, column).line, where.line)
    except (IndexError, ValueError):
        return where.line


def parse_where(where: str) -> tuple[str, int | None]:
    """(file, line or None) of `FILE:LINE` or `FILE`."""
    file, _, line = where.rpartition(":")
    if file and line.isdigit():
        return file, int(line)
    return where, None


def at(generated, where: str) -> list:
    """The modules written from a text of the file `FILE` (a path or its end) that
    spans `LINE` (every one of the file when no line is given)."""
    file, line = parse_where(where)
    out = []
    for g in generated:
        if g.where is None or not (g.where.file == file or g.where.file.endswith("/" + file)):
            continue
        if line is None or g.where.line <= line <= g.last_line:
            out.append(g)
    return out


def _generated_name(name: str) -> bool:
    """A global the generator names (`_k3` a value, `_c4` a built-in's call site) or a table every
    module has (`_CARDS`), rather than a helper of runtime/helpers.py (`_type`, `_move`)."""
    if name[:2] in ("_k", "_c") and name[2:].isdigit():
        return True
    return name[:1] == "_" and name[1:2].isalpha() and name[1:].replace("_", "").isalpha() and name[1:].isupper()


def names_in(source: str) -> list:
    """The global names a generated text reads: those its compiled functions read, function by
    function, each in the order of its code."""
    return [n for n in names_of(compile(source, "<interpret rules>", "exec")) if _generated_name(n)]


def describe(v) -> str:
    """What a global of generated code is, in a few words."""
    if v is None or type(v) in (bool, int):
        return f"the constant {v!r}"
    if type(v) is str:
        return f"the text {v!r}"
    if type(v) is Card:
        return f"the card {v.key}"
    if type(v) is Zone:
        return f"the zone {v.name}"
    if type(v) is Seat:
        return f"the player {v.key}"
    if type(v) is Location:
        return f"the position {v}"
    if isinstance(v, type):
        return f"the Python type {v.__name__}"
    if type(v) in (list, tuple) and len(v) == 1 and callable(v[0]):
        return f"a content function's call: {_callable(v[0])}"
    if type(v) in (list, tuple, dict, set, frozenset):
        return f"a constant {type(v).__name__} of {len(v)} item{'s' if len(v) != 1 else ''}"
    if callable(v):
        return _callable(v)
    return f"a {type(v).__name__}"


def _callable(f) -> str:
    source = getattr(f, "_interpret_source", None)
    if source is not None:
        return "generated code: " + source.split("\n", 1)[0].rstrip(":")
    module = getattr(f, "__module__", "") or ""
    name = getattr(f, "__qualname__", getattr(f, "__name__", type(f).__name__))
    if module.endswith("runtime.library"):
        return f"the built-in {name.lstrip('_')} (runtime/library.py)"
    if module.startswith("interpreter."):
        return f"{name} ({module.removeprefix('interpreter.').replace('.', '/')}.py)"
    return f"{name}"


def legend(source: str, env: dict, notes: dict | None = None, places: dict | None = None) -> list[str]:
    """`_kN: what it is`, for each global of `env` the text reads. `places`: the source of a
    generated function -> where its text is (named by it, rather than by its first line)."""
    notes, places = notes or {}, places or {}
    out = []
    for name in names_in(source):
        if name in env:
            v = env[name]
            place = places.get(getattr(v, "_interpret_source", None))
            out.append(f"{name}: {notes.get(name) or (f'the code of {place}' if place else describe(v))}")
    return out


def reaches(v, sources: set, depth: int = 3) -> bool:
    """Whether value `v` (a global of other generated code: a compiled function, a closure, a
    label's pieces) is, or holds within `depth` steps, generated code whose source is in `sources`."""
    if getattr(v, "_interpret_source", None) in sources:
        return True
    if depth == 0:
        return False
    if type(v) in (list, tuple):
        return any(reaches(x, sources, depth - 1) for x in v)
    cells = getattr(v, "__closure__", None) or ()
    if any(reaches(c.cell_contents, sources, depth - 1) for c in cells if _filled(c)):
        return True
    value = getattr(v, "value", None)  # a label's piece (templates.Piece)
    return value is not None and callable(value) and reaches(value, sources, depth - 1)


def _filled(cell) -> bool:
    try:
        cell.cell_contents
    except ValueError:
        return False
    return True
