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
            return f"{prompt}: none"
        values, keys = arg_keys(m, st, p["player"], rt.decode(m, p["options"]), {})
        for v, k in zip(values, keys):
            if k == key:
                return f"{prompt}: {label_of(v) if reader is None else label_for(v, reader)}"
        return f"{prompt}: {key}"
    ctx, a = game.binder.bind(st, action, verify=False)
    if ctx is None:  # declining a window
        return f"{a.decline} ({a.name})"
    ctx.memo = {}
    ctx.viewer = reader
    return a.label(ctx)


__all__ = ["Reader", "action_label"]
