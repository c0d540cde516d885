"""`? NAME` during play: a card's or a rule's text and section, and where the named cards are now."""
from __future__ import annotations


def _card_kinds(game, name: str) -> list[str]:
    """Card definitions named `name`: by their name, one of their keys, or their title."""
    rs = game.catalog.ruleset
    low = name.lower()
    out = []
    for kind, spec in rs.cards.items():
        title = str(spec.get("title", "")) if isinstance(spec, dict) else ""
        if low in (kind.lower(), title.lower()) or (title and low == title.split(" — ")[0].lower()):
            out.append(kind)
    c = game.catalog.card(name)
    if c is not None and c.name not in out:
        out.append(c.name)
    return out


def _where(game, renderer, st, viewer: int, kind: str) -> list[str]:
    m = game.catalog
    sight = renderer.sight(st, viewer)
    lines = []
    seen = [c for c in m.cards if c.name == kind and sight.sees(c)]
    for c in seen[:6]:
        zid = st["loc"][c.id]
        where = m.zones[zid].key if zid >= 0 else "out of the game"
        values = []
        for var, per_card in st["cv"].items():
            v = per_card[c.id]
            if v not in (None, False, 0, [], "") and not var.startswith("_"):
                values.append(f"{var} {sight.text(v)}")
        lines.append(f"  {c.key}: in {where}" + (f" ({', '.join(values)})" if values else ""))
    if len(seen) > 6:
        lines.append(f"  … and {len(seen) - 6} more")
    hidden = sum(1 for c in m.cards if c.name == kind) - len(seen)
    if hidden > 0:
        lines.append(f"  ({hidden} you cannot see)")
    return lines


def describe(game, renderer, st, viewer: int, name: str) -> str:
    from .show import find_entries, render_entry
    rs = game.catalog.ruleset
    out = []
    kinds = _card_kinds(game, name)
    for kind in kinds:
        for path, parent, key in find_entries(rs, f"cards.{kind}"):
            out.append(render_entry(rs, path, parent, key))
        where = _where(game, renderer, st, viewer, kind)
        if where:
            out.append("Now:")
            out += where
    for a in game.catalog.actions:
        if a.name == name:
            out.append(f"action {a.name}: {a.section or 'no section given'}")
    if not kinds:
        for path, parent, key in find_entries(rs, name)[:5]:
            out.append(render_entry(rs, path, parent, key))
    return "\n".join(out) if out else f"Nothing named `{name}` in {rs.title} (try a card's title, as the board writes it)."
