"""Texts written for one reader from values: an action's label, as a given seat may read it.

Labels, prompts and the rules' messages are templates (dsl/templates.py). They are written for
a reader when shown, from the values they were given, never by rewriting a finished text: a
card the reader cannot identify reads `a card`, and whatever a template reads of it but its
place reads `?`. A reader is the set of the ids of the cards it identifies (views.visible_cards_ids),
or a Reader, which may also name things its own way (the terminal names cards by their titles).
"""
from __future__ import annotations

from ..runtime import context as rt
from .handles import arg_keys
from ..core.model import Card, label_for, label_of
from ..i18n import _


class Reader:
    """One reader of texts: the ids of the cards it identifies (`in`), and how it writes a
    value (`text`). This one writes a card it identifies by its key, as the engine's labels do."""

    def __init__(self, visible_ids):
        self.visible = visible_ids

    def __contains__(self, cid) -> bool:
        return cid in self.visible

    def also(self, ids) -> "Reader":
        """The same reader, identifying the cards of `ids` as well (what it saw earlier)."""
        return Reader(set(self.visible) | set(ids))

    def card(self, c: Card) -> str:
        """A card the reader identifies."""
        return c.key

    def hidden(self, c: Card) -> str:
        """A card the reader cannot identify."""
        return "a card"

    def other(self, v) -> str:
        """Any other value."""
        return label_of(v)

    def text(self, v) -> str:
        t = type(v)
        if t is Card:
            return self.card(v) if v.id in self else self.hidden(v)
        if t is list or t is tuple:
            return "[" + ", ".join(self.text(x) for x in v) + "]"
        return self.other(v)


class DisplayNames:
    """How the content names things for a player (`title`): a card by its definition's title, a
    zone (or a per-player zone family) by its title, a board cell by its `title` attribute; else
    by its name. What a player reads never needs an internal key."""

    def __init__(self, catalog):
        rs = catalog.ruleset
        self.cards = _titles(rs.cards)
        self.zones = _titles(rs.zones)
        self.catalog = catalog

    def card(self, c: Card) -> str:
        """A card's name for a player (without its owner)."""
        return self.cards.get(c.name) or c.name

    def zone(self, z) -> str:
        """A zone's name for a player: its title, its family's for a seat's zone, a cell's `title`."""
        title = z.attrs.get("title") if z.is_cell else self.zones.get(z.name)
        return str(title) if title else z.name

    def window(self, name: str) -> str:
        """An out-of-turn window's name for a player."""
        return window_title(self.catalog, name)


def window_title(catalog, name: str) -> str:
    """An out-of-turn window's `title` (flow.turn.windows), else its name."""
    windows = ((catalog.ruleset.flow or {}).get("turn") or {}).get("windows") or ()
    return next((str(w["title"]) for w in windows if isinstance(w, dict) and w.get("name") == name and w.get("title")),
                name)


def _titles(section) -> dict:
    return {name: str(spec["title"]) for name, spec in section.items() if isinstance(spec, dict) and spec.get("title")}


def action_label(game, st, action, reader) -> str:
    """The label of `action`, legal in `st`, written for `reader` (a Reader, a set of card ids,
    or None: every card by its key) from the values it binds."""
    m = game.m
    flow = st["flow"]
    if flow.get("node") is not None:  # a chance node: its outcome is public
        return f"{flow['node']['what']}: {action.args[0] if action.args else ''}"
    if st["pending"]:
        from .views import prompt_for
        p = st["pending"][-1]
        prompt = prompt_for(game, st, p, reader)
        key = action.args[0] if action.args else "none"
        if key == "none" and p["optional"]:
            return _("{prompt}: none").format(prompt=prompt) if reader is not None else f"{prompt}: none"
        values, keys = arg_keys(m, st, p["player"], rt.decode(m, p["options"]), {})
        for v, k in zip(values, keys):
            if k == key:
                if reader is None:
                    return f"{prompt}: {label_of(v)}"
                return _("{prompt}: {choice}").format(prompt=prompt, choice=label_for(v, reader))
        return f"{prompt}: {key}"
    ctx, a = game.binder.bind(st, action, verify=False)
    if ctx is None:  # declining a window
        if reader is None:
            return f"{a.decline} ({a.name})"
        window = window_title(game.catalog, a.name)  # the engine's own move is told in the table's words
        return _("pass ({window})").format(window=window) if a.decline == "pass" else f"{a.decline} ({window})"
    ctx.memo = {}
    if reader is not None:
        shown = shown_cards(game, action)
        if shown:  # cards the move shows every seat (played face up): named for every reader
            reader = reader.also(shown) if isinstance(reader, Reader) else set(reader) | shown
    ctx.viewer = reader
    return a.label(ctx)


def shown_cards(game, action) -> set:
    """The ids of the cards `action` shows to every seat as it is made: its arguments that its
    content declares `shown` (a card played face up). Empty for most moves."""
    spec = game.m.spec.actions.get(action.name)
    if spec is None or not spec.shown:
        return set()
    by_key = game.m.card_by_key
    out = set()
    for p, value in zip(spec.params, action.args):
        if p.name in spec.shown and value in by_key:
            out.add(by_key[value].id)
    return out


__all__ = ["DisplayNames", "Reader", "action_label", "shown_cards"]
