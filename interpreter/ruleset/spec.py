"""The typed content of a ruleset: frozen records built from its sections once the variants are
applied, each value read once, here, with its default. The definition's builder reads these
records, never a YAML mapping.

Each record keeps the mapping it was read from (`node`, never compared or printed) for one purpose
only: positions. `at(key)` is where a value was written (file:line:col, as Ruleset.where_of gives
it), and a value that is rules text (an expression such as a card's `copies: 2 * player_count`)
stays a `SourceText` there (`evaluate_static(..., node, key)`), so that errors keep pointing into
the file.

Sections typed so far: cards (their identity: copies, owners, tags, props, start, back, lasting
effects), zones, variables. The others (actions, powers, flow, scoring, procedures, functions,
board) are still read as mappings by definition/.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from types import MappingProxyType

from ..errors import Location
from .yamlio import node_location, resolve_parent, to_plain, value_location

_EMPTY = MappingProxyType({})


@dataclass(frozen=True)
class Entry:
    """A named entry of a section, and the mapping it was read from (for positions only)."""

    name: str
    node: object = field(repr=False, compare=False)

    def at(self, *path) -> Location:
        """Where the value at `path` (keys, from the entry down) was written; the mapping holding
        the last key itself when that key is not there (as Ruleset.where_of)."""
        node, key = self.node, None
        for i, k in enumerate(path):
            if i < len(path) - 1:
                node = node[k]
            else:
                key = k
        if key is not None:
            node, key = resolve_parent(node, key)
        if key is not None and isinstance(node, dict) and key in node:
            return value_location(node, key)
        return node_location(node)


@dataclass(frozen=True)
class EffectSpec:
    """A card's lasting effect (`cards.X.effects.NAME`): a player variable while it lasts."""

    name: str
    until: tuple = ()  # the events, or `turn` / `round`, that end it
    default: object = False  # its value while inactive (plain data)


@dataclass(frozen=True)
class CardSpec(Entry):
    copies: object = 1  # a number, or an expression over constants and options (rules text)
    per_player: bool = False
    tags: tuple = ()
    props: MappingProxyType = field(default_factory=lambda: _EMPTY)
    start: object = "box"  # the zone it starts in (None when written `start:` with no value)
    back: object = None  # its back, shared by every copy and owner; None: its first tag
    effects: tuple = ()  # EffectSpec, in file order

    @classmethod
    def of(cls, name: str, node) -> "CardSpec":
        spec = node if isinstance(node, dict) else {}
        effects = []
        for ename, espec in (spec.get("effects") or {}).items():
            espec = espec or {}
            until = espec.get("until") or []
            effects.append(EffectSpec(ename, (until,) if isinstance(until, str) else tuple(until),
                                      to_plain(espec.get("default", False), int_keys=True)))
        return cls(name, node, copies=spec.get("copies", 1), per_player=bool(spec.get("per_player")),
                   tags=tuple(spec.get("tags") or ()), props=MappingProxyType(dict(spec.get("props") or {})),
                   start=spec.get("start", "box"), back=spec.get("back"), effects=tuple(effects))


@dataclass(frozen=True)
class ZoneSpec(Entry):
    capacity: object = None  # a number, an expression over constants and options, or None: no limit
    visibility: str = "public"
    refill_from: str | None = None
    per_player: bool = False
    tags: tuple = ()

    @classmethod
    def of(cls, name: str, node) -> "ZoneSpec":
        return cls(name, node, capacity=node.get("capacity"), visibility=node.get("visibility", "public"),
                   refill_from=node.get("refill_from"), per_player=bool(node.get("per_player")),
                   tags=tuple(node.get("tags") or ()))


@dataclass(frozen=True)
class VarSpec(Entry):
    kind: str = "game"  # game, player, card or zone
    type: str = "any"  # bool, int, str, list or any: declared, else the kind of its default
    default: object = None  # plain data
    reset: str = "never"
    conceals: bool = False  # a card variable that, while true, hides its card's identity
    visibility: str = "public"

    @classmethod
    def of(cls, kind: str, name: str, node) -> "VarSpec":
        spec = node if isinstance(node, dict) else {"default": node}
        default = spec.get("default")
        typ = spec.get("type")
        if typ is None:  # the kind of its default, read as a plain value (not the YAML reader's ScalarInt)
            typ = {bool: "bool", int: "int", str: "str", list: "list"}.get(type(to_plain(default)), "any")
            if isinstance(default, list):
                typ = "list"
        return cls(name, node, kind=kind, type=typ, default=to_plain(default, int_keys=True),
                   reset=spec.get("reset", "never"), conceals=kind == "card" and bool(spec.get("conceals")),
                   visibility=spec.get("visibility", "public"))


BOX = {"visibility": "hidden"}  # the zone every game has, where cards start unless said


@dataclass(frozen=True)
class ContentSpec:
    """The typed sections of a ruleset (see the module's documentation)."""

    cards: MappingProxyType  # name -> CardSpec, in file order
    zones: MappingProxyType  # name -> ZoneSpec, in file order, `box` last unless declared
    vars: MappingProxyType  # kind (game, player, card, zone) -> name -> VarSpec

    @classmethod
    def of(cls, rs) -> "ContentSpec":
        zones = {name: ZoneSpec.of(name, node) for name, node in rs.zones.items()}
        if "box" not in zones:
            zones["box"] = ZoneSpec.of("box", BOX)
        return cls(cards=MappingProxyType({name: CardSpec.of(name, node) for name, node in rs.cards.items()}),
                   zones=MappingProxyType(zones),
                   vars=MappingProxyType({kind: MappingProxyType({name: VarSpec.of(kind, name, node)
                                                                   for name, node in specs.items()})
                                          for kind, specs in rs.vars.items()}))
