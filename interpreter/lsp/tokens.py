"""Semantic tokens of rules text: keywords, the game's names by kind, numbers, strings, operators,
in LSP's relative encoding (line delta, start delta, length, type, modifiers)."""
from __future__ import annotations

from pathlib import Path

from .documents import lexed

TYPES = ["keyword", "variable", "function", "property", "number", "string", "operator", "comment", "enumMember",
         "event", "type", "macro", "parameter"]
MODIFIERS = ["defaultLibrary"]
_BY_SECTION = {"cards": "enumMember", "zones": "type", "functions": "function", "procedures": "function",
               "events": "event", "vars.game": "variable", "constants": "variable", "actions": "function",
               "vars.player": "property", "vars.card": "property", "vars.zone": "property"}


def _kinds(model) -> dict:
    """name -> token type, from the game's index and the built-ins."""
    from ..definition.symbols import Symbols
    from ..runtime.library import _BUILTINS
    out = {n: "macro" for n in list(Symbols._BUILTIN_VALUES) + list(_BUILTINS)}
    for sym in model.index().defs:
        out.setdefault(sym.name, _BY_SECTION.get(sym.section, "variable"))
    return out


def _type_of(kind: str, text: str, after_dot: bool, names: dict) -> tuple[str, int] | None:
    if kind == "NAME":
        if after_dot:
            return "property", 0
        t = names.get(text)
        return (t, 1 if t == "macro" else 0) if t else ("parameter", 0)
    if kind == "NUMBER":
        return "number", 0
    if kind == "STRING":
        return "string", 0
    if kind == "COMMENT":
        return "comment", 0
    if text.isalpha() or "_" in text:
        return "keyword", 0
    if kind in ("COMP_OP", "ADD_OP", "MUL_OP", "ASSIGN_OP", "MINUS"):
        return "operator", 0
    return None


def semantic_tokens(model, path: Path) -> list[int]:
    names = _kinds(model)
    found = []
    for t in model.texts_of(path):
        prev = ""
        for kind, text, loc in lexed(t.src):
            typed = _type_of(kind, text, prev == "DOT", names)
            prev = kind
            if typed is None or not loc.line or "\n" in text:
                continue
            found.append((loc.line - 1, loc.column - 1, len(text), TYPES.index(typed[0]), typed[1]))
    found.sort()
    data: list[int] = []
    line = col = 0
    for ln, c, length, typ, mods in found:
        data += [ln - line, c - col if ln == line else c, length, typ, mods]
        if ln != line:
            line = ln
        col = c
    return data


__all__ = ["MODIFIERS", "TYPES", "semantic_tokens"]
