"""`? NAME` during play: a card's or an action's text as the rulebook gives it (with its §), in the
table's language, and where the named cards are now. Content as YAML is `interpret show`'s, for
designers; a player reads only the texts the content gives (`text:`, texts.<lang>.yaml)."""
from __future__ import annotations

import re
import textwrap

from ..i18n import _, ngettext

SHOWN = 6  # cards listed by `? NAME` before "… and N more"
WIDTH = 100  # a text's lines, indented under its title


def _title(spec) -> str:
    return str(spec.get("title", "")) if isinstance(spec, dict) else ""


def _card_kinds(game, name: str, *, sight=None) -> list[str]:
    """Card definitions named `name`: by their name, one of their keys, their title, or the name a
    card the viewer sees is shown by (`Départ 13`, `S1/p2`)."""
    rs = game.catalog.ruleset
    low = name.lower()
    out = []
    for kind, spec in rs.cards.items():
        title = _title(spec)
        if low in (kind.lower(), title.lower()) or (title and low == title.split(" — ")[0].lower()):
            out.append(kind)
    c = game.catalog.card(name)
    if c is not None and c.name not in out:
        out.append(c.name)
    if not out and sight is not None:
        for c in game.catalog.cards:
            if c.name not in out and sight.sees(c) and sight.text(c).lower() == low:
                out.append(c.name)
    return out


def _words(label) -> str:
    """A label's words before its first {field}: how the choices name a kind of move."""
    return re.split(r"[{:(]", str(label or ""), maxsplit=1)[0].strip().lower()


def _actions(game, name: str) -> list[tuple[str, dict]]:
    """(name, spec) of the actions named `name`, or whose label starts with `name` (`? end the turn`)."""
    rs = game.catalog.ruleset
    specs = dict(rs.actions)
    for card in rs.cards.values():
        if isinstance(card, dict):
            specs.update((k, v) for k, v in (card.get("actions") or {}).items() if k not in specs)
    low = name.lower()
    found = [(k, v) for k, v in specs.items() if k.lower() == low]
    if not found:
        found = [(k, v) for k, v in specs.items() if isinstance(v, dict) and _words(v.get("label")) == low]
    return found


def move_words(game, name: str) -> str:
    """The words the label of the action `name` starts with (before any {field}): how the choices
    name that kind of move, in the table's language ('' when its label starts with a field)."""
    return next((_words(spec.get("label")) for k, spec in _actions(game, name) if k == name and isinstance(spec, dict)), "")


def _place(game, zone) -> str:
    """A zone as a player names it: a cell by its key (r3c4), a seat's zone by its name and the seat's."""
    seat = zone.owner
    if zone.is_cell or seat is None:
        return zone.key
    return _("{zone} of {player}").format(zone=zone.name, player=seat.name or seat.key)


def _where(game, renderer, st, viewer: int, kind: str) -> list[str]:
    m = game.catalog
    sight = renderer.sight(st, viewer)
    lines = []
    seen = [c for c in m.cards if c.name == kind and sight.sees(c)]
    for c in seen[:SHOWN]:
        zid = st["loc"][c.id]
        lines.append(_("  {card}: in {place}").format(card=sight.text(c), place=_place(game, m.zones[zid])) if zid >= 0
                     else _("  {card}: out of the game").format(card=sight.text(c)))
    if len(seen) > SHOWN:
        lines.append(_("  … and {n} more").format(n=len(seen) - SHOWN))
    hidden = sum(1 for c in m.cards if c.name == kind) - len(seen)
    if hidden > 0:
        lines.append(ngettext("  ({n} you cannot see)", "  ({n} you cannot see)", hidden).format(n=hidden))
    return lines


def _text(spec) -> str:
    return " ".join(str(spec.get("text") or "").split()) if isinstance(spec, dict) else ""


def _paragraph(text: str) -> str:
    return textwrap.fill(text, width=WIDTH, initial_indent="  ", subsequent_indent="  ", break_on_hyphens=False)


def describe(game, renderer, st, viewer: int, name: str) -> str:
    """What `? NAME` prints: each card or action so named, its title and rulebook text."""
    rs = game.catalog.ruleset
    out = []
    kinds = _card_kinds(game, name, sight=renderer.sight(st, viewer))
    sight = renderer.sight(st, viewer)
    for kind in kinds:
        spec = rs.cards.get(kind)
        shown = next((sight.text(c) for c in game.catalog.cards if c.name == kind and sight.sees(c)), None)
        out.append(_title(spec) or shown or kind.replace("_", " "))
        out.append(_paragraph(_text(spec) or _("(this game's content gives no text for this card)")))
        where = _where(game, renderer, st, viewer, kind)
        if where:
            out.append(_("Now:"))
            out += where
    for action, spec in _actions(game, name):
        if kinds and not _text(spec):  # a card's own move: the card's text tells it
            continue
        words = _words(spec.get("label")) if isinstance(spec, dict) else ""
        out.append(words or action)
        out.append(_paragraph(_text(spec) or _("(this game's content gives no text for this move)")))
    if out:
        return "\n".join(out)
    return _("Nothing named `{name}` in {game} (try a card's title, as the board writes it, or a move's first "
             "words, as the choices write them).").format(name=name, game=rs.title)
