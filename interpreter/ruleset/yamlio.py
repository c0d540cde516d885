"""Reading YAML with positions, so that every error points at file:line:col."""
from __future__ import annotations

import re
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from pathlib import Path

from ruamel.yaml import YAML
from ruamel.yaml.error import MarkedYAMLError
from ruamel.yaml.scalarstring import FoldedScalarString, LiteralScalarString

from . import cache as diskcache
from ..errors import ContentError, Location, Problem
from ..limits import DEFAULT


def to_plain(v, *, int_keys: bool = False):
    """ruamel containers and scalars (ScalarInt, ScalarFloat, ...) as plain Python values.

    Keys become strings (what JSON Schema validation expects); with `int_keys`, integer keys
    stay integers (constants and variable defaults keyed by number).
    """
    if isinstance(v, dict):
        return {int(k) if int_keys and isinstance(k, int) else str(k): to_plain(x, int_keys=int_keys)
                for k, x in v.items()}
    if isinstance(v, list):
        return [to_plain(x, int_keys=int_keys) for x in v]
    if isinstance(v, bool):
        return bool(v)
    if isinstance(v, int):
        return int(v)
    if isinstance(v, float):
        return float(v)
    if isinstance(v, str):
        return str(v)
    return v


def _yaml() -> YAML:
    y = YAML(typ="rt")
    y.preserve_quotes = True
    y.allow_duplicate_keys = False
    return y


MAX_YAML_BYTES = 32 * 2 ** 20  # the largest bundled game holds 0.3 MB of YAML in all
_OVERLAY: ContextVar[dict] = ContextVar("overlay", default={})


@contextmanager
def overlaid(texts: dict):
    """Within the block, `load_yaml` reads these texts (path -> text) instead of their files: an
    editor's unsaved documents checked as if saved (the language server, interpreter/lsp)."""
    token = _OVERLAY.set({str(Path(p).resolve()): t for p, t in texts.items()})
    try:
        yield
    finally:
        _OVERLAY.reset(token)


_SHARED: ContextVar[tuple | None] = ContextVar("shared", default=None)


@contextmanager
def shared_trees(memo: dict):
    """Within the block, `load_yaml_text` gives the tree it gave before for the same text and
    name, kept in `memo` (its owner's), instead of a fresh copy: for a caller that reads the trees
    and never changes them (the language server's check of a game without variants, again at
    each edit). At the end, `memo` keeps only the trees of this block."""
    used: dict = {}
    token = _SHARED.set((memo, used))
    try:
        yield
    finally:
        _SHARED.reset(token)
        for k in [k for k in memo if k not in used]:
            del memo[k]
        memo.update(used)
        used.clear()


def is_overlaid(path) -> bool:
    """Whether `load_yaml` reads this path from the editor's texts (`overlaid`): a file open in an
    editor and never saved is there all the same."""
    overlay = _OVERLAY.get()
    try:
        return bool(overlay) and str(Path(path).resolve()) in overlay
    except (OSError, ValueError):
        return False


def load_yaml(path: Path, display: str | None = None):
    """Load a YAML file (round-trip types keep line/column); YAML errors become ContentError."""
    name = display or str(path)
    overlay = _OVERLAY.get()
    if overlay and str(Path(path).resolve()) in overlay:
        return load_yaml_text(overlay[str(Path(path).resolve())], name)
    try:
        with open(path, "rb") as f:  # bounded: a device such as /dev/zero never ends
            raw = f.read(MAX_YAML_BYTES + 1)
    except OSError as e:
        raise ContentError(Problem(Location(name), f"cannot read file: {e.strerror}"))
    if len(raw) > MAX_YAML_BYTES:
        raise ContentError(Problem(Location(name), f"larger than {MAX_YAML_BYTES // 2 ** 20} MB: not a content file"))
    try:
        text = raw.decode("utf-8").replace("\r\n", "\n").replace("\r", "\n")  # as a text file reads
    except UnicodeDecodeError as e:
        line = raw[: e.start].count(b"\n") + 1
        raise ContentError(Problem(Location(name, line, 1), "the file is not UTF-8 text",
                                   hint="save it as UTF-8 (YAML files are UTF-8)"))
    return load_yaml_text(text, name)


def _depth_bound(text: str) -> int:
    """A cheap upper bound of a YAML text's nesting: the indentation levels open at a line, plus
    what may open on it, plus the brackets still open. Only a text above the cap is parsed twice."""
    stack: list[int] = []
    flow = best = 0
    for line in text.splitlines():
        stripped = line.lstrip(" ")
        if not stripped or stripped.startswith("#"):
            continue
        indent = len(line) - len(stripped)
        while stack and stack[-1] >= indent:
            stack.pop()
        stack.append(indent)
        opens = line.count("[") + line.count("{")
        inline = stripped.count("- ") + stripped.count(": ") + stripped.count("? ") + 1 + opens
        best = max(best, len(stack) + inline + flow)
        flow = max(flow + opens - line.count("]") - line.count("}"), 0)
    return best


def nesting_problem(text: str, name: str, cap: int | None = None) -> Problem | None:
    """A problem at the first mapping or list nested more than `cap` deep (the YAML reader
    recurses once per level), found with the event parser, which does not recurse."""
    cap = cap or DEFAULT.yaml_depth
    if _depth_bound(text) <= cap:
        return None
    depth = 0
    try:
        for ev in _yaml().parse(text):
            kind = type(ev).__name__
            if kind in ("MappingStartEvent", "SequenceStartEvent"):
                depth += 1
                if depth > cap:
                    mark = ev.start_mark
                    loc = Location(name, mark.line + 1, mark.column + 1)
                    return Problem(loc, f"nested too deeply: more than {cap} levels of lists and mappings",
                                   hint="the limit `yaml_depth` of interpret (interpreter/limits.py)",
                                   context=caret_context(text.splitlines(), loc.line, loc.column))
            elif kind in ("MappingEndEvent", "SequenceEndEvent"):
                depth -= 1
    except MarkedYAMLError:
        return None  # the reader reports it, with its position
    except Exception:
        return None
    return None


_NON_PRINTABLE = re.compile("[^\x09\x0A\x0D\x20-\x7E\x85\xA0-\uD7FF\uE000-\uFFFD\U00010000-\U0010FFFF]")


def control_problem(text: str, name: str) -> Problem | None:
    """A character YAML does not allow (a control character, a NUL): its line and column."""
    bad = _NON_PRINTABLE.search(text)
    if bad is None:
        return None
    at = bad.start()
    line = text.count("\n", 0, at) + 1
    column = at - (text.rfind("\n", 0, at) + 1) + 1
    return Problem(Location(name, line, column), f"a control character ({ord(bad.group()):#04x}) is not allowed in YAML",
                   hint="remove it, or write it as an escape (\\x01) inside a double-quoted string",
                   context=caret_context(text.splitlines(), line, column))


def load_yaml_text(text: str, name: str):
    key = diskcache.key_of(text)
    shared = _SHARED.get()
    if shared is None:
        return _read_yaml_text(text, name, key)
    memo, used = shared
    data = used.get((name, key)) or memo.get((name, key))
    if data is None:
        data = _read_yaml_text(text, name, key)
    used[(name, key)] = data
    return data


def _read_yaml_text(text: str, name: str, key: bytes):
    cache = diskcache.store("yaml")
    data = cache.get(key)
    if data is not None:  # read before, with the same text: the same tree and positions
        _attach(data, name, text.splitlines())
        return data
    for check in (control_problem, nesting_problem):
        problem = check(text, name)
        if problem is not None:
            raise ContentError(problem)
    try:
        data = _yaml().load(text)
    except MarkedYAMLError as e:
        mark = e.problem_mark or e.context_mark
        loc = Location(name, mark.line + 1, mark.column + 1) if mark else Location(name)
        msg = (e.problem or e.context or "invalid YAML").strip()
        ctx = caret_context(text.splitlines(), loc.line, loc.column) if mark else ""
        raise ContentError(Problem(loc, f"YAML syntax error: {msg}", context=ctx))
    except Exception as e:  # ruamel raises a few non-marked errors (duplicate keys, ...)
        raise ContentError(Problem(Location(name), f"YAML error: {e}"))
    if data is not None:
        cache.put(key, data)
    _attach(data, name, text.splitlines())
    return data


def _attach(node, name: str, lines: list[str]) -> None:
    """Remember the file name and source lines on every container (for positions)."""
    if hasattr(node, "lc"):
        try:
            node._src_file = name  # type: ignore[attr-defined]
            node._src_lines = lines  # type: ignore[attr-defined]
        except AttributeError:
            pass
    if isinstance(node, dict):
        for v in node.values():
            _attach(v, name, lines)
    elif isinstance(node, list):
        for v in node:
            _attach(v, name, lines)


def caret_context(lines: list[str], line: int, column: int) -> str:
    if not (1 <= line <= len(lines)):
        return ""
    src = lines[line - 1]
    if len(src) > 120:  # a long line: the part around the caret
        start = max(column - 60, 0)
        src = ("…" if start else "") + src[start:start + 110] + ("…" if start + 110 < len(src) else "")
        column = column - start + (1 if start else 0)
    return f"    {src}\n    {' ' * max(column - 1, 0)}^"


def file_of(node) -> str:
    return getattr(node, "_src_file", "<content>")


def lines_of(node) -> list[str]:
    return getattr(node, "_src_lines", [])


def key_location(node, key) -> Location:
    """Where `key` stands in mapping `node`."""
    name = file_of(node)
    try:
        line, col = node.lc.key(key)
        return Location(name, line + 1, col + 1)
    except Exception:
        return node_location(node)


def value_location(node, key) -> Location:
    """Where the value of `key` (mapping) or item `key` (sequence) starts."""
    name = file_of(node)
    try:
        if isinstance(node, list):
            line, col = node.lc.item(key)
        else:
            line, col = node.lc.value(key)
        return Location(name, line + 1, col + 1)
    except Exception:
        return node_location(node)


def node_location(node) -> Location:
    name = file_of(node)
    try:
        return Location(name, node.lc.line + 1, node.lc.col + 1)
    except Exception:
        return Location(name)


def _quoted_columns(raw: str, text: str, col: int, quote: str) -> tuple:
    """For each character of a quoted scalar's value, its 1-based column in the file line."""
    out = []
    i = 0
    while i < len(raw) and len(out) < len(text):
        ch = raw[i]
        out.append(col + i)
        if quote == '"' and ch == "\\" and i + 1 < len(raw):
            nxt = raw[i + 1]
            i += {"x": 4, "u": 6, "U": 10}.get(nxt, 2)
        elif quote == "'" and ch == "'" and raw[i + 1:i + 2] == "'":
            i += 2
        else:
            i += 1
    return tuple(out)


@dataclass(frozen=True)
class SourceText:
    """A DSL text taken from a YAML value, able to map offsets back to the file."""

    text: str
    file: str
    line: int  # 1-based line of the first character of text
    column: int  # 1-based column of the first character of text
    block: bool  # a literal/folded block: every line shares one indentation
    indent: int  # that indentation (block only)
    lines: tuple[str, ...] = ()
    folded: bool = False  # YAML joined the file's lines (a `>` block, a plain scalar on several lines)
    colmap: tuple = ()  # a quoted scalar with escapes: the file column of each character of text

    @classmethod
    def plain(cls, text: str, name: str = "<text>") -> "SourceText":
        return cls(text, name, 1, 1, False, 0, tuple(text.splitlines()))

    @classmethod
    def of(cls, parent, key) -> "SourceText":
        value = parent[key]
        text = str(value)
        loc = value_location(parent, key)
        lines = lines_of(parent)
        if isinstance(value, (LiteralScalarString, FoldedScalarString)):
            first = loc.line + 1  # the text starts on the line after | or >
            while first <= len(lines) and not lines[first - 1].strip() and not text.startswith("\n"):
                first += 1  # leading blank lines that YAML dropped
            probe = first
            while probe <= len(lines) and not lines[probe - 1].strip():
                probe += 1
            indent = 0
            if probe <= len(lines):
                src = lines[probe - 1]
                indent = len(src) - len(src.lstrip(" "))
            folded = isinstance(value, FoldedScalarString)
            return cls(text, loc.file, first, indent + 1, True, indent, tuple(lines), folded)
        col = loc.column
        quoted = False
        if lines and 1 <= loc.line <= len(lines):
            ch = lines[loc.line - 1][loc.column - 1 : loc.column]
            if ch in ("'", '"'):
                col += 1
                quoted = True
        # a plain scalar continued on the next lines: YAML folded those lines into spaces
        first_line = lines[loc.line - 1][col - 1:] if lines and 1 <= loc.line <= len(lines) else text
        folded = "\n" not in text and len(text) > len(first_line.rstrip()) and not quoted
        colmap = ()
        if quoted and "\\" in first_line or (quoted and "''" in first_line):
            colmap = _quoted_columns(first_line, text, col, lines[loc.line - 1][loc.column - 1])
        return cls(text, loc.file, loc.line, col, False, 0, tuple(lines), folded, colmap)

    def locate(self, line: int, column: int) -> Location:
        """Map a 1-based line/column inside the text to the file."""
        if self.folded and self.lines:
            return self._locate_folded(line, column)
        if line <= 1 and self.colmap:
            i = column - 1
            col = self.colmap[i] if 0 <= i < len(self.colmap) else self.colmap[-1] + (i - len(self.colmap) + 1)
            return Location(self.file, self.line, col)
        if line <= 1:
            return Location(self.file, self.line, self.column + column - 1)
        if self.block:
            return Location(self.file, self.line + line - 1, self.indent + column)
        return Location(self.file, self.line + line - 1, column)

    def _locate_folded(self, line: int, column: int) -> Location:
        """Folded text: walk the file's lines, each one a piece of the text joined by one space."""
        parts = self.text.split("\n")
        offset = sum(len(p) + 1 for p in parts[: max(line - 1, 0)]) + column - 1
        pos = 0
        file_line = self.line
        start_col = self.column
        while file_line <= len(self.lines):
            raw = self.lines[file_line - 1]
            piece = raw[start_col - 1:].rstrip()
            if piece.strip():
                lead = len(piece) - len(piece.lstrip())
                piece = piece.lstrip()
                if offset <= pos + len(piece):
                    return Location(self.file, file_line, start_col + lead + (offset - pos))
                pos += len(piece) + 1
            file_line += 1
            start_col = 1
        return Location(self.file, self.line, self.column + offset)

    def context(self, loc: Location) -> str:
        return caret_context(list(self.lines), loc.line, loc.column) if self.lines else ""


class MergedMap(dict):
    """A mapping whose keys may come from several files (merged sections, variants).

    `parents[key]` is `(node, node_key)`: the YAML mapping and key where the value
    was written, so that positions (file:line:col) stay exact after merging.
    """

    def __init__(self):
        super().__init__()
        self.parents = {}

    def origin(self, key):
        return self.parents.get(key)


def resolve_parent(node, key):
    """The YAML node and key where node[key] was written (follows MergedMap origins)."""
    seen = 0
    while isinstance(node, MergedMap) and key in node.parents and seen < 50:
        node, key = node.parents[key]
        seen += 1
    return node, key


@dataclass
class Snippet:
    """A rules text with where it came from (and an id, for triggers a variant may remove)."""

    src: SourceText
    where: str
    id: str | None = None
