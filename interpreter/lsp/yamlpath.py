"""Where a cursor stands in a YAML text that may not read as YAML yet (a designer is typing): the
keys above it by indentation, whether it is on a key or in a value, and the value typed so far."""
from __future__ import annotations

import re
from dataclasses import dataclass

_KEY = re.compile(r"^(?P<indent>\s*)(?P<dash>-\s+)?(?P<key>[\w.-]+):(?:\s+(?P<value>.*))?$")
_DASH = re.compile(r"^(?P<indent>\s*)-(\s+|$)")
_BLOCK = re.compile(r"^[|>][-+0-9]*\s*(#.*)?$")


@dataclass(frozen=True)
class Cursor:
    """`path`: the keys from the root to the mapping or value the cursor is in (an int for a list
    item); `on_key`: typing a key of that mapping (`word` so far); else in the value of the last
    key, `typed` being the value's text before the cursor (the lines of a block joined by newlines),
    `variant_target`: the `path:` of the variant change whose `value:` holds the cursor."""
    path: tuple
    on_key: bool
    word: str = ""
    typed: str = ""
    variant_target: str | None = None
    present: tuple = ()  # the keys already written in that mapping


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" "))


def _meaningful(line: str) -> bool:
    s = line.strip()
    return bool(s) and not s.startswith("#")


def _key_column(line: str):
    """(the column of the line's key, the key, the column of its dash or None) or None."""
    m = _KEY.match(line)
    if not m:
        d = _DASH.match(line)
        return (len(d.group(0)), None, len(d.group("indent"))) if d else None
    col = len(m.group("indent")) + (len(m.group("dash")) if m.group("dash") else 0)
    return col, m.group("key"), len(m.group("indent")) if m.group("dash") else None


def parents(lines: list[str], line: int, column: int) -> tuple[tuple, str | None, tuple]:
    """(the keys above a position whose content starts at `column`, the `path:` of the variant
    change holding it, the keys already written beside it)."""
    path: list = []
    target = column
    variant_target = None
    present: list = []
    i = line - 1
    first = True
    while i >= 0 and target > 0:
        text = lines[i]
        i -= 1
        if not _meaningful(text):
            continue
        kc = _key_column(text)
        if kc is None:
            if _indent(text) < target:
                break  # a scalar's continuation above: not a key
            continue
        col, key, dash = kc
        if first and col == target and key and dash is None:
            present.append(key)
        if col < target and key:
            path.insert(0, key)
            target = col
            first = False
            if dash is not None:  # `- key:` opens a list item holding the mapping of `key`
                path.insert(0, 0)
                target = dash
            continue
        if dash is not None and dash < target <= col:
            if key and col == target and first:
                present.append(key)
            path.insert(0, 0)
            if variant_target is None:
                variant_target = _sibling(lines, i + 1, col, "path")
            target = dash
            first = False
    return tuple(path), variant_target, tuple(present)


def _sibling(lines: list[str], at: int, col: int, name: str) -> str | None:
    """The value of key `name` in the list item starting at line `at` (its keys at `col`)."""
    for j in range(at, len(lines)):
        text = lines[j]
        if j > at and _meaningful(text) and _indent(text) < col:
            break
        kc = _key_column(text)
        if kc and kc[0] == col and kc[1] == name:
            m = _KEY.match(text)
            return (m.group("value") or "").strip().strip("'\"") if m else None
    return None


def cursor(text: str, line: int, column: int) -> Cursor:
    """The cursor at a 0-based line and column of a YAML text."""
    lines = text.split("\n")
    if line >= len(lines):
        lines += [""] * (line - len(lines) + 1)
    before = lines[line][:column]
    m = _KEY.match(before)
    if m and m.group("value") is not None or (m and before.endswith(":")):
        col = len(m.group("indent")) + (len(m.group("dash")) if m.group("dash") else 0)
        above, vt, _ = parents(lines, line, col)
        if m.group("dash"):
            above = above + (0,)
        return Cursor(above + (m.group("key"),), False, typed=_unquote(m.group("value") or ""), variant_target=vt)
    stripped = before.strip()
    if re.fullmatch(r"(-\s+)?[\w-]*", stripped):  # a key being typed, or an item of a list
        dash = stripped.startswith("-")
        col = len(before) - len(before.lstrip(" ")) + (len(stripped) - len(stripped.lstrip("- ")) if dash else 0)
        block = _block_above(lines, line, col, before)
        if block is not None:
            return block
        above, vt, present = parents(lines, line, col)
        if dash:
            above = above + (0,)
        return Cursor(above, True, word=stripped.lstrip("- "), variant_target=vt, present=present)
    block = _block_above(lines, line, len(before) - len(before.lstrip(" ")), before)
    if block is not None:
        return block
    above, vt, _ = parents(lines, line, len(before) - len(before.lstrip(" ")))
    return Cursor(above, False, typed=stripped, variant_target=vt)


def _block_above(lines: list[str], line: int, col: int, before: str) -> Cursor | None:
    """A position inside a block scalar (`effect: |` and the lines below it, more indented) or a
    plain scalar continued on the lines below its key."""
    lowest = col
    for i in range(line - 1, -1, -1):
        text = lines[i]
        if not _meaningful(text):
            continue
        m = _KEY.match(text)
        kcol = len(m.group("indent")) + (len(m.group("dash")) if m.group("dash") else 0) if m else None
        if m is None or kcol >= lowest:
            if _indent(text) == 0:
                return None
            lowest = min(lowest, _indent(text))
            continue
        value = (m.group("value") or "").strip()
        if not value or not (_BLOCK.match(value) or value[:1] not in "[{"):
            return None
        if not _BLOCK.match(value) and i == line - 1 and lowest == col and col <= kcol:
            return None
        above, vt, _ = parents(lines, i, kcol)
        if m.group("dash"):
            above = above + (0,)
        body = [lines[j] for j in range(i + 1, line)] + [before]
        pad = min((_indent(ln) for ln in body if ln.strip()), default=col)
        typed = [ln[pad:] for ln in body]
        if not _BLOCK.match(value):
            typed = [value] + typed  # a plain scalar continued below its key
        return Cursor(above + (m.group("key"),), False, typed="\n".join(typed), variant_target=vt)
    return None


def _unquote(value: str) -> str:
    return value[1:] if value[:1] in ("'", '"') else value


__all__ = ["Cursor", "cursor", "parents"]
