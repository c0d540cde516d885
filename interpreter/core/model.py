"""The frozen things a game is made of: cards, zones (board cells included), seats, actions.

They are created once per match from content and never change; the state refers
to them by integer id. At run time the rules language handles these objects
directly, so that `card.level` or `cell.row` needs no lookup by name.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import NamedTuple


class Card:
    """One physical component (a card, a token, a piece)."""

    __slots__ = ("id", "key", "name", "tags", "props", "owner", "start", "back")

    def __init__(self, id: int, key: str, name: str, tags: frozenset, props: dict, owner, start: str,
                 back: str = ""):
        self.id = id
        self.key = key  # unique, stable: used in actions, logs and saves
        self.name = name  # its definition's name (several copies share it)
        self.tags = tags
        self.props = props
        self.owner = owner  # a Seat or None
        self.start = start
        # what a seat that cannot identify the card still sees of it (its back): cards with the
        # same back can be told apart only face up (views.py, observation.py)
        self.back = back or name

    def __repr__(self) -> str:
        return self.key


class Zone:
    """A place holding cards: a board cell, a deck, a player's reserve..."""

    __slots__ = ("id", "key", "name", "owner", "capacity", "visibility", "attrs", "refill_from", "is_cell", "tags")

    def __init__(self, id, key, name, owner=None, capacity=None, visibility="public", attrs=None,
                 refill_from=None, is_cell=False, tags=frozenset()):
        self.id = id
        self.key = key
        self.name = name
        self.owner = owner
        self.capacity = capacity
        self.visibility = visibility
        self.attrs = attrs or {}
        self.refill_from = refill_from  # name of the zone reshuffled into this one when empty
        self.is_cell = is_cell
        self.tags = tags

    def __repr__(self) -> str:
        return self.key


class Seat:
    """A player's place at the table."""

    __slots__ = ("id", "key", "name")

    def __init__(self, id: int, name: str):
        self.id = id
        self.key = f"p{id + 1}"
        self.name = name

    def __repr__(self) -> str:
        return self.key


class Action(NamedTuple):
    """A move: a content action's name and its arguments, as stable keys.

    A small immutable value (a tuple: cheap to build, equal and hashable by value).
    Its canonical text (``str(action)``) is what logs and saved games record.
    """

    name: str
    args: tuple = ()

    def __str__(self) -> str:
        return " ".join((self.name,) + tuple(self.args))

    @classmethod
    def parse(cls, text: str) -> "Action":
        parts = text.split()
        if not parts:
            raise ValueError("empty action")
        return cls(parts[0], tuple(parts[1:]))


_KEPT_KEYS = 4096  # keys of numbers and texts kept, at most, for each type
_INT_KEYS: dict = {}  # a whole number -> its key (kept apart from texts: 1 and "1" differ as values)
_STR_KEYS: dict = {}  # a text -> its key


HANDLE = "@"  # an argument naming a card by its place, ZONE@N (information/handles.py)


def key_of(value) -> str:
    """The stable key of a value used as an action argument. The keys of whole numbers and texts,
    which domains list again at every listing, are written once and kept (a key is a function
    of the value alone)."""
    t = type(value)
    if t is int or t is str:
        kept = _INT_KEYS if t is int else _STR_KEYS
        k = kept.get(value)
        if k is None:
            if len(kept) >= _KEPT_KEYS:
                kept.clear()
            k = kept[value] = "_".join(str(value).split())
        return k
    if isinstance(value, (Card, Zone, Seat)):
        return value.key
    if value is True:
        return "yes"
    if value is False:
        return "no"
    if value is None:
        return "none"
    return "_".join(str(value).split())  # one word: an action's text splits on spaces


def label_for(value, visible) -> str:
    """`value` as a seat reads it in a text: a card it cannot identify (its id is not in `visible`)
    is `a card`. `visible` may also be a reader of its own (labels.Reader: `text(value)`), which
    then writes the value its way."""
    text = getattr(visible, "text", None)
    if text is not None:
        return text(value)
    if isinstance(value, Card):
        return value.key if value.id in visible else "a card"
    if isinstance(value, list):
        return "[" + ", ".join(label_for(v, visible) for v in value) + "]"
    return label_of(value)


def label_of(value) -> str:
    """`value` in a text a person reads (a label, a prompt, a log line)."""
    if isinstance(value, str):
        return value  # a text shows as written (an action's key is one word: key_of)
    if isinstance(value, Card):
        return value.key
    if isinstance(value, list):
        return "[" + ", ".join(label_of(v) for v in value) + "]"
    return key_of(value)


@dataclass
class Step:
    """What one apply did: the action, who played it, the events it caused, and what set each
    of them off (`causes[i]`: the index of the event whose handler emitted `events[i]`, a flow
    hook's (name, args), or None: the decision itself; runtime/context.py Ctx.causes)."""

    action: Action
    player: int | None
    events: list = field(default_factory=list)
    causes: list = field(default_factory=list)
