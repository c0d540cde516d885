"""How deep a JSON text nests, found before parsing it: Python's JSON reader recurses once per
level, so a text nested 100,000 deep is a RecursionError, not a value. Read by whatever reads JSON
back from disk (game logs, a lab folder)."""
from __future__ import annotations


def json_too_deep(text: str, cap: int | None = None) -> int | None:
    """The offset of the first bracket nested more than `cap` deep (Python's JSON reader recurses
    once per level), or None. Brackets inside strings do not count."""
    from ..limits import DEFAULT
    cap = cap or DEFAULT.yaml_depth
    if text.count("[") + text.count("{") <= cap:
        return None
    depth = 0
    in_string = escaped = False
    for i, ch in enumerate(text):
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            if depth > cap:
                return i
        elif ch in "]}":
            depth -= 1
    return None
