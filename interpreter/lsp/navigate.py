"""Hover, go to definition, find references and rename, across the game's content, texts,
variants, scenarios and tutorials (index.py)."""
from __future__ import annotations

import re
from pathlib import Path

from ..errors import ContentError
from ..ruleset.paths import display_path
from .documents import WORD
from .index import RENAMEABLE, Place, Symbol

_SECTION = re.compile(r"§\s?\d+(?:\.\d+)*")
LABEL = {"cards": "card", "zones": "zone", "functions": "function", "procedures": "procedure", "events": "event",
         "constants": "constant", "actions": "action", "options": "option", "vars.game": "game variable",
         "vars.player": "player variable", "vars.card": "card variable", "vars.zone": "zone variable"}


def symbol_under(model, path: Path, line: int, column: int):
    """(the symbol, the spot) at a 0-based position, or (None, spot or None)."""
    index = model.index()
    spot = index.spot_at(Path(path).resolve(), line, column)
    if spot is None:
        return None, None
    return index.symbol_at(Path(path).resolve(), spot), spot


def definition(model, path: Path, line: int, column: int) -> list[Place]:
    sym, _ = symbol_under(model, path, line, column)
    if sym is None:
        return []
    place = model.index().definition(sym)
    return [place] if place else []


def references(model, path: Path, line: int, column: int, *, declaration: bool = True) -> list[Place]:
    sym, _ = symbol_under(model, path, line, column)
    return model.index().references(sym, definitions=declaration) if sym else []


class RenameRefused(Exception):
    pass


def rename(model, path: Path, line: int, column: int, new: str) -> dict[Path, list[Place]]:
    """Every place to rewrite, by file: the definition, the texts' keys, rules text, values."""
    sym, _ = symbol_under(model, path, line, column)
    if sym is None:
        raise RenameRefused("no name of the game here")
    if sym.section not in RENAMEABLE:
        raise RenameRefused(f"a {LABEL.get(sym.section, sym.section)} is not renamed here")
    if not WORD.fullmatch(new) or new != new.lower():
        raise RenameRefused(f"`{new}` is not a name of the rules language (lower case letters, digits, _)")
    taken = [s for s in model.index().symbols_named(new)]
    if taken:
        raise RenameRefused(f"`{new}` already names a {LABEL.get(taken[0].section, taken[0].section)}")
    out: dict[Path, list[Place]] = {}
    for place in model.index().references(sym):
        out.setdefault(place.path, []).append(place)
    return out


def hover(model, path: Path, line: int, column: int) -> str | None:
    """Markdown: what the name is, its player-facing text and §, where it is defined, its values
    as the variants leave them with where each comes from (what `interpret show` prints)."""
    sym, spot = symbol_under(model, path, line, column)
    if sym is None:
        return None
    index = model.index()
    place = index.definition(sym)
    rs = _ruleset_for(model, Path(path).resolve())
    entry = _entry(rs, sym)
    lines = [f"**{LABEL.get(sym.section, sym.section)} `{sym.name}`**"
             + (f" · {entry.get('title')}" if isinstance(entry, dict) and entry.get("title") else "")]
    if isinstance(entry, dict) and isinstance(entry.get("text"), str):
        lines += ["", str(entry["text"]).strip()]
    sections = _sections(model, sym, place, entry)
    if sections:
        lines += ["", "Rulebook: " + ", ".join(sections)]
    if place is not None:
        lines += ["", f"Defined at `{display_path(place.path)}:{place.spot.line + 1}`"]
    shown = _shown(rs, sym)
    if shown:
        lines += ["", "```yaml", shown, "```"]
    changed = _changed_by(model, sym)
    if changed:
        lines += ["", "Changed by variants: " + ", ".join(changed)]
    return "\n".join(lines)


def _ruleset_for(model, path: Path):
    """The content as this file sees it: with the variant applied when the file is a variant."""
    if model.role_of(path) != "variant":
        return model.ruleset()
    from ..ruleset.loader import load_ruleset
    try:
        with model.overlay():
            return load_ruleset(model.root, variants=[str(path)], keep_going=True)
    except ContentError:
        return model.ruleset()


def _entry(rs, sym: Symbol):
    if rs is None:
        return None
    if sym.section.startswith("vars."):
        return rs.vars.get(sym.section[5:], {}).get(sym.name)
    table = {"options": rs.option_specs}.get(sym.section, getattr(rs, sym.section, None))
    return table.get(sym.name) if isinstance(table, dict) else None


def _shown(rs, sym: Symbol) -> str:
    """`interpret show`'s lines for the symbol: each value with the file:line:col it comes from."""
    if rs is None:
        return ""
    from ..play.show import find_entries, render_entry
    label = {"options": "options"}.get(sym.section, sym.section)
    found = find_entries(rs, f"{label}.{sym.name}")
    return "\n".join(render_entry(rs, *f) for f in found[:1])


def _sections(model, sym: Symbol, place, entry) -> list[str]:
    """The rulebook's sections the content cites for the symbol: its `section:`, its text, the
    comment on its definition's line."""
    found: list[str] = []
    if isinstance(entry, dict):
        for key in ("section", "text"):
            found += _SECTION.findall(str(entry.get(key) or ""))
    if place is not None:
        text = model.text_of(place.path) or ""
        lines = text.split("\n")
        if place.spot.line < len(lines) and "#" in lines[place.spot.line]:
            found += _SECTION.findall(lines[place.spot.line].split("#", 1)[1])
    unique = []
    for s in found:
        s = s.replace("§ ", "§")
        if s not in unique:
            unique.append(s)
    return unique


def _changed_by(model, sym: Symbol) -> list[str]:
    """The variants whose changes target the symbol (`path: cards.NAME...`), each with the lines."""
    prefix = f"{sym.section}.{sym.name}"
    out = []
    for p in model.files():
        if model.role_of(p) != "variant":
            continue
        _, w = model.walked(p)
        lines = []
        for s in w.spots:
            if s.what == "key" and s.name == "path" and len(s.path) == 3 and s.path[0] == "changes":
                value = _change_path(w.doc, s.path[1])
                if value == prefix or value.startswith(prefix + ".") or value.startswith(prefix + "["):
                    lines.append(str(s.line + 1))
        if lines:
            out.append(f"`{p.stem}` ({display_path(p)}:{', '.join(lines)})")
    return out


def _change_path(doc, i) -> str:
    try:
        return str(doc["changes"][i]["path"])
    except (KeyError, IndexError, TypeError):
        return ""


__all__ = ["RenameRefused", "definition", "hover", "references", "rename", "symbol_under"]
