"""The typed content of a ruleset: frozen records (Record) built from its sections once the variants are
applied, each value read once, here, with its default. The definition's builder reads these
records, never a YAML mapping.

Each record keeps the mapping it was read from (`node`, never compared or printed) for one purpose
only: positions. `at(key)` is where a value was written (file:line:col, as Ruleset.where_of gives
it), and a value that is rules text (an expression such as a card's `copies: 2 * player_count`)
stays a `SourceText` there (`evaluate_static(..., node, key)`), so that errors keep pointing into
the file.

Sections typed so far: cards (their identity: copies, owners, tags, props, start, back, lasting
effects, actions, powers), zones, variables, actions and action groups, the flow (steps, simultaneous
steps, windows), the scoring, the analysis facets, the invariants, the functions' signatures, the
board, the procedures, the events. Still read as mappings: the constants (plain data, read once by
world.py), and the functions' mappings that the compiler (lang/) reads (`function_defs`).
"""
from __future__ import annotations

from types import MappingProxyType

from ..errors import Location
from .yamlio import SourceText, Snippet, node_location, resolve_parent, to_plain, value_location

_EMPTY = MappingProxyType({})


_MISSING = object()


class Record:
    """A frozen record (cheaper to declare than a dataclass: importing this module stays quick).
    Its fields are its annotations, its bases' first; a field's default is the class attribute of
    its name. Values are given in field order, or by name; none is set again."""

    _fields: tuple = ()

    def __init_subclass__(cls):
        fields = []
        for klass in reversed(cls.__mro__):
            for name in klass.__dict__.get("__annotations__", {}):
                if name not in fields and not name.startswith("_"):
                    fields.append(name)
        cls._fields = tuple(fields)

    def __init__(self, *args, **values):
        fields = self._fields
        if len(args) > len(fields):
            raise TypeError(f"{type(self).__name__} takes {len(fields)} values, not {len(args)}")
        given = dict(zip(fields, args))
        for name, v in values.items():
            if name not in fields or name in given:
                raise TypeError(f"{type(self).__name__}: unexpected or repeated value {name!r}")
            given[name] = v
        for name in fields:
            if name not in given and getattr(type(self), name, _MISSING) is _MISSING:
                raise TypeError(f"{type(self).__name__} needs a value for {name!r}")
        self.__dict__.update(given)

    def __setattr__(self, name, value):
        raise AttributeError(f"a {type(self).__name__} does not change once built (setting {name!r})")

    def __delattr__(self, name):
        raise AttributeError(f"a {type(self).__name__} does not change once built (deleting {name!r})")

    def __repr__(self):
        shown = ", ".join(f"{f}={getattr(self, f)!r}" for f in self._fields if f not in ("node", "reason_node"))
        return f"{type(self).__name__}({shown})"


def where_of(node, key=None) -> Location:
    """Where `node[key]` was written (`node` itself when it holds no `key`), through the mappings
    that variants and files merged (MergedMap)."""
    if key is not None:
        node, key = resolve_parent(node, key)
    if key is not None and isinstance(node, dict) and key in node:
        return value_location(node, key)
    return node_location(node)


def snippet_of(node, key, label: str):
    """The rules text `node[key]` as a Snippet named `label` (a number written there becomes its
    text, at its position), or None when there is none."""
    if node is None:
        return None
    node, key = resolve_parent(node, key)
    try:
        value = node[key]
    except (KeyError, IndexError, TypeError):
        return None
    if value is None:
        return None
    if not isinstance(value, str):
        where = where_of(node, key)
        return Snippet(SourceText(str(value), str(where.file), where.line, where.column, False, 0), label)
    return Snippet(SourceText.of(node, key), label)


class Entry(Record):
    """A named entry of a section, and the mapping it was read from (for positions only)."""

    name: str
    node: object

    def _down(self, path):
        node = self.node
        for k in path[:-1]:
            node = node[k]
        return node, (path[-1] if path else None)

    def at(self, *path) -> Location:
        """Where the value at `path` (keys, from the entry down) was written; the mapping holding
        the last key itself when that key is not there (where_of)."""
        return where_of(*self._down(path))

    def text(self, *path, label: str):
        """The rules text at `path` as a Snippet named `label`, or None (snippet_of)."""
        node, key = self._down(path)
        return snippet_of(node, key, label)

    def source(self, *path) -> SourceText:
        """The text at `path` as a SourceText at its position (a template, such as a label)."""
        return SourceText.of(*resolve_parent(*self._down(path)))


class PowerSpec(Entry):
    """A card's power (`powers[i]`): a trigger or replacement (`rule`, with its `id`), or a
    modifier of a function (`modify`, with its `value` and `when` texts)."""

    is_rule: bool = False
    id: str | None = None  # a rule's id (variants remove rules by it)
    modify: str | None = None  # the function a modifier modifies
    has_when: bool = False

    @classmethod
    def of(cls, label: str, node) -> "PowerSpec":
        if "rule" in node:
            return cls(label, node, is_rule=True, id=node.get("id"))
        return cls(label, node, modify=str(node["modify"]), has_when=bool(node.get("when")))


def _powers(node, prefix: str) -> tuple:
    return tuple(PowerSpec.of(f"{prefix}[{i}]", p) for i, p in enumerate(node.get("powers") or []))


class EffectSpec(Entry):
    """A card's lasting effect (`cards.X.effects.NAME`): a player variable while it lasts."""

    until: tuple = ()  # the events, or `turn` / `round`, that end it
    default: object = False  # its value while inactive (plain data)
    powers: tuple = ()  # PowerSpec, in order, while it is active


class FunctionSpec(Entry):
    """A function (`functions.NAME`, its text in `node`'s `expr`) or a procedure
    (`procedures.NAME`, its text in `effect`)."""

    params: tuple = ()
    modifiable: bool = False  # a function whose value cards' powers may modify

    @classmethod
    def of(cls, name: str, node) -> "FunctionSpec":
        return cls(name, node, params=names_of(node.get("params")), modifiable=bool(node.get("modifiable")))


def names_of(value) -> tuple:
    """A list of parameter names as a tuple; anything else (a text, a number: the schema reports it)
    is no names at all, never the characters of a text."""
    return tuple(value) if isinstance(value, (list, tuple)) else ()


class EventSpec(Entry):
    """An event declared under `events:` (`node` is that section, for positions)."""

    params: tuple = ()


class ParamSpec(Record):
    """A parameter of an action: its name and the text of its domain (`node[key]`); with the
    mapping form, `reasons`: the conditions (RequireSpec, reading the parameter by its name) each
    value of the domain meets, each with the reason a player is told when a value fails it."""

    name: str
    optional: bool
    node: object
    key: object = None
    reasons: tuple = ()

    def text(self, label: str):
        return snippet_of(self.node, self.key, label)


class RequireSpec(Record):
    """A requirement of an action or group: its check (rules text at `node[key]`) and the reason
    told when it fails (`reason`, a template; None: "requires CHECK")."""

    index: int
    check: str
    reason: str | None
    node: object
    key: object = None
    reason_node: object = None  # the mapping holding `reason`

    def text(self, label: str):
        return snippet_of(self.node, self.key, label)

    def reason_source(self) -> SourceText | None:
        return SourceText.of(*resolve_parent(self.reason_node, "reason")) if self.reason else None


class ActionSpec(Entry):
    """An action of the rules (`actions.NAME`) or of a card (`cards.C.actions.NAME`), or a group of
    card actions (`members: group`)."""

    card: str | None = None  # the card whose action it is
    defined_at: Location | None = None  # where its name is written (duplicates are reported there)
    steps: tuple | None = None  # the steps in which it may be played; None: not said
    params: tuple = ()  # ParamSpec, in order
    has_from: bool = False  # `from: ZONE`: a card action played from that zone (`this` is the card there)
    require: tuple = ()  # RequireSpec, in order
    group: str | None = None  # the group it belongs to
    is_group: bool = False  # `members: group`
    limit: int | None = None  # times per turn
    limit_reason: str | None = None
    label: str | None = None  # its label's template; None: its name and parameters
    has_effect: bool = False
    section: str = ""
    shown: tuple = ()  # parameters every seat sees when the move is made (a card played face up)

    @classmethod
    def of(cls, name: str, node, parent, card: str | None = None) -> "ActionSpec":
        spec = node or {}
        steps = spec.get("step")
        params = []
        for pname, dom in (spec.get("params") or {}).items():
            if isinstance(dom, dict):
                params.append(ParamSpec(pname, bool(dom.get("optional")), dom, "from",
                                        reasons=_requirements(dom.get("reasons"))))
            else:
                params.append(ParamSpec(pname, False, spec["params"], pname))
        return cls(name, node, card=card, defined_at=where_of(parent, name),
                   steps=(steps,) if isinstance(steps, str) else None if steps is None else tuple(steps),
                   params=tuple(params), has_from=bool(spec.get("from")), require=_requirements(spec.get("require")),
                   group=spec.get("group"), is_group=spec.get("members") == "group", limit=spec.get("limit"),
                   limit_reason=spec.get("limit_reason") or None, label=spec.get("label") or None,
                   has_effect=bool(spec.get("effect")), section=spec.get("section", ""),
                   shown=tuple(spec.get("shown") or ()))


def _requirements(items) -> tuple:
    """The RequireSpecs of a list of requirements (`require:`, a parameter's `reasons:`): each a
    text, or a mapping with its `check` and `reason`."""
    out = []
    for i, req in enumerate(items or []):
        if isinstance(req, dict):
            out.append(RequireSpec(i, str(req.get("check")), req.get("reason") or None, req, "check", req))
        else:
            out.append(RequireSpec(i, str(req), None, items, i))
    return tuple(out)


NO_GROUP = ActionSpec("", {})  # what an action outside any group takes from its group: nothing


class CardSpec(Entry):
    copies: object = 1  # a number, or an expression over constants and options (rules text)
    per_player: bool = False
    tags: tuple = ()
    props: MappingProxyType = _EMPTY
    start: object = "box"  # the zone it starts in (None when written `start:` with no value)
    back: object = None  # its back, shared by every copy and owner; None: its first tag
    effects: tuple = ()  # EffectSpec, in file order
    actions: tuple = ()  # ActionSpec, in file order
    powers: tuple = ()  # PowerSpec, in order
    has_while: bool = False  # `while:`, the condition of its powers (a text in `node`)

    @classmethod
    def of(cls, name: str, node) -> "CardSpec":
        spec = node if isinstance(node, dict) else {}
        effects = []
        for ename, espec in (spec.get("effects") or {}).items():
            espec = espec or {}
            until = espec.get("until") or []
            effects.append(EffectSpec(ename, espec, until=(until,) if isinstance(until, str) else tuple(until),
                                      default=to_plain(espec.get("default", False), int_keys=True),
                                      powers=_powers(espec, f"cards.{name}.effects.{ename}.powers")))
        return cls(name, node, copies=spec.get("copies", 1), per_player=bool(spec.get("per_player")),
                   tags=tuple(spec.get("tags") or ()), props=MappingProxyType(to_plain(dict(spec.get("props") or {}), int_keys=True)),
                   start=spec.get("start", "box"), back=spec.get("back"), effects=tuple(effects),
                   actions=tuple(ActionSpec.of(a, aspec, spec["actions"], card=name)
                                 for a, aspec in (spec.get("actions") or {}).items()),
                   powers=_powers(spec, f"cards.{name}.powers"), has_while=bool(spec.get("while")))


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


class SimultaneousSpec(Entry):
    """flow.turn.steps[i].simultaneous: `true` (every seat, nothing to reveal) or a mapping with
    `seats` and `reveal` texts."""

    every_seat: bool = True  # `simultaneous: true`


class StepSpec(Entry):
    """A step of the turn (flow.turn.steps[i]): `skip` and the simultaneous texts stay in `node`."""

    simultaneous: SimultaneousSpec | None = None

    @classmethod
    def of(cls, node) -> "StepSpec":
        sim = node.get("simultaneous")
        return cls(node["name"], node, simultaneous=None if sim is None or sim is False else
                   SimultaneousSpec("simultaneous", sim if isinstance(sim, dict) else {}, every_seat=sim is True))


class WindowSpec(Entry):
    """An out-of-turn window (flow.turn.windows[i])."""

    steps: tuple | None = None  # the turn's steps in which it opens; None: every step
    actions: tuple = ()  # the actions played in it
    decline: str = "pass"  # the move that declines
    has_decline: bool = False  # `decline:` written (its position, else the window's name, for errors)
    each: str = "step"

    @classmethod
    def of(cls, node) -> "WindowSpec":
        steps = node.get("steps")
        return cls(node["name"], node, steps=(steps,) if isinstance(steps, str) else None if not steps else tuple(steps),
                   actions=tuple(node.get("actions") or ()), decline=node.get("decline", "pass"),
                   has_decline="decline" in node, each=node.get("each", "step"))


class FlowSpec(Entry):
    """The flow: `setup`, `round` (start, end, order, until) and `turn` (start, end, steps,
    windows); their texts stay in the mappings (`setup` here, the others in `round` and `turn`)."""

    round: Entry = None
    turn: Entry = None
    steps: tuple = ()  # StepSpec, in order (one step `play` unless said)
    windows: tuple = ()  # WindowSpec, in order

    @classmethod
    def of(cls, node) -> "FlowSpec":
        turn = node.get("turn") or {}
        return cls("flow", node, round=Entry("round", node.get("round") or {}), turn=Entry("turn", turn),
                   steps=tuple(StepSpec.of(s) for s in (turn.get("steps") or [{"name": "play"}])),
                   windows=tuple(WindowSpec.of(w) for w in (turn.get("windows") or [])))


class ScoringSpec(Entry):
    """The scoring: which texts it has (they stay in `node`: score, tiebreak[i], winner, side,
    evaluation)."""

    has_score: bool = False
    tiebreaks: int = 0  # how many
    has_winner: bool = False
    has_side: bool = False
    has_evaluation: bool = False
    payoff: str = "win"  # what a finished game is worth: "win" or "score" (the chips of a poker hand)
    payoff_bound: float | None = None  # with payoff "score": the most a seat can win or lose in a game

    @classmethod
    def of(cls, node) -> "ScoringSpec":
        bound = node.get("payoff_bound")
        return cls("scoring", node, has_score=bool(node.get("score")), tiebreaks=len(node.get("tiebreak") or []),
                   has_winner=bool(node.get("winner")), has_side=bool(node.get("side")),
                   has_evaluation=bool(node.get("evaluation")), payoff=str(node.get("payoff") or "win"),
                   payoff_bound=float(bound) if bound is not None else None)


class InvariantSpec(Entry):
    """An invariant (invariants[i]): its `check` text stays in `node`."""

    message: str = ""  # told when it fails; its check's text unless said
    per_player: bool = False


class RowSpec(Entry):
    """A row, or rows, of the grid (board.grid.rows[i])."""

    rows: object = None  # `rows: N-M`, else `row: N` (None: neither, an error)
    has_rows: bool = False  # written `rows:` (where the range was written, for errors)
    cell_name: str | None = None  # its cells' name pattern; None: the grid's
    attrs: MappingProxyType = _EMPTY
    tags: tuple = ()
    capacity: object = 1
    visibility: str = "public"

    @classmethod
    def of(cls, node) -> "RowSpec":
        return cls("row", node, rows=node.get("rows", node.get("row")), has_rows="rows" in node,
                   cell_name=node.get("name"), attrs=MappingProxyType(to_plain(dict(node.get("attrs") or {}), int_keys=True)),
                   tags=tuple(node.get("tags") or ()), capacity=node.get("capacity", 1),
                   visibility=node.get("visibility", "public"))


class GridSpec(Entry):
    columns: object = 1  # a number or an expression over constants and options
    rows: tuple = ()  # RowSpec
    cell_name: str = "r{row}c{column}"
    edges: str = "orthogonal"  # or `all`: diagonals too
    join_same: str | None = None  # an attribute: edges join only cells with the same value of it

    @classmethod
    def of(cls, node) -> "GridSpec":
        return cls("grid", node, columns=node.get("columns", 1), rows=tuple(RowSpec.of(r) for r in node.get("rows", [])),
                   cell_name=node.get("name", "r{row}c{column}"), edges=node.get("edges", "orthogonal"),
                   join_same=node.get("join_same"))


class RingSpec(Entry):
    length: object = None  # numbers, or expressions over constants and options
    columns: object = None
    cell_name: str = "ring{index}"
    tags: tuple = ()
    attrs: MappingProxyType = _EMPTY
    capacity: object = 1
    edges: str = "next"

    @classmethod
    def of(cls, node) -> "RingSpec":
        return cls("ring", node, length=node.get("length"), columns=node.get("columns"),
                   cell_name=str(node.get("name", "ring{index}")), tags=tuple(node.get("tags") or ()),
                   attrs=MappingProxyType(to_plain(dict(node.get("attrs") or {}), int_keys=True)), capacity=node.get("capacity", 1),
                   edges=str(node.get("edges", "next")))


class CellSpec(Entry):
    """An explicit cell (board.cells[i]), or what it adds to a cell of the grid or the ring."""

    attrs: MappingProxyType = _EMPTY
    tags: tuple = ()
    capacity: object = None
    has_capacity: bool = False  # `capacity:` written (else 1 for a new cell, unchanged for another)


class EdgeSpec(Entry):
    """An edge of the board (board.edges[i]), one way, from `tail` to `head`."""

    tail: str = ""
    head: str = ""
    kind: str = "edge"


class BoardSpec(Entry):
    grid: GridSpec | None = None
    ring: RingSpec | None = None
    cells: tuple = ()  # CellSpec
    edges: tuple = ()  # EdgeSpec

    @classmethod
    def of(cls, node) -> "BoardSpec":
        grid, ring = node.get("grid"), node.get("ring")
        return cls("board", node, grid=GridSpec.of(grid) if grid else None, ring=RingSpec.of(ring) if ring else None,
                   cells=tuple(CellSpec(c["name"], c, attrs=MappingProxyType(to_plain(dict(c.get("attrs") or {}), int_keys=True)),
                                        tags=tuple(c.get("tags") or ()), capacity=c.get("capacity"),
                                        has_capacity="capacity" in c)
                               for c in node.get("cells", []) or []),
                   edges=tuple(EdgeSpec("edge", e, tail=e["from"], head=e["to"], kind=e.get("kind", "edge"))
                               for e in node.get("edges", []) or []))


BOX = {"visibility": "hidden"}  # the zone every game has, where cards start unless said


class ContentSpec(Record):
    """The typed sections of a ruleset (see the module's documentation)."""

    cards: MappingProxyType  # name -> CardSpec, in file order
    zones: MappingProxyType  # name -> ZoneSpec, in file order, `box` last unless declared
    vars: MappingProxyType  # kind (game, player, card, zone) -> name -> VarSpec
    actions: MappingProxyType  # name -> ActionSpec: the rules' actions and groups, in file order
    flow: FlowSpec
    scoring: ScoringSpec
    facets: Entry  # analysis.facets: name -> text, read per seat by `interpret analyze`
    invariants: tuple  # InvariantSpec, in order
    functions: MappingProxyType  # name -> FunctionSpec
    procedures: MappingProxyType  # name -> FunctionSpec
    events: MappingProxyType  # name -> EventSpec
    triggers: tuple  # the rules' triggers: Snippets (their texts), in file order
    board: BoardSpec
    constants: MappingProxyType  # name -> its value as plain data (lists, dicts, numbers, texts)
    seat_names: tuple  # game.seat_names: the seats' names, in order (fewer than the seats: numbered)
    extra_tags: tuple  # tags the content declares beyond those its cards, zones and cells carry

    @classmethod
    def of(cls, rs) -> "ContentSpec":
        zones = {name: ZoneSpec.of(name, node) for name, node in rs.zones.items()}
        if "box" not in zones:
            zones["box"] = ZoneSpec.of("box", BOX)
        return cls(cards=MappingProxyType({name: CardSpec.of(name, node) for name, node in rs.cards.items()}),
                   zones=MappingProxyType(zones),
                   vars=MappingProxyType({kind: MappingProxyType({name: VarSpec.of(kind, name, node)
                                                                   for name, node in specs.items()})
                                          for kind, specs in rs.vars.items()}),
                   actions=MappingProxyType({name: ActionSpec.of(name, node, rs.actions)
                                             for name, node in rs.actions.items()}),
                   flow=FlowSpec.of(rs.flow), scoring=ScoringSpec.of(rs.scoring),
                   facets=Entry("facets", rs.analysis.get("facets") or {}),
                   invariants=tuple(InvariantSpec(f"invariants[{i}]", inv, message=inv.get("message", inv["check"]),
                                                  per_player=inv.get("per_player", False))
                                    for i, inv in enumerate(rs.invariants)),
                   functions=MappingProxyType({name: FunctionSpec.of(name, node) for name, node in rs.functions.items()}),
                   procedures=MappingProxyType({name: FunctionSpec.of(name, node) for name, node in rs.procedures.items()}),
                   events=MappingProxyType({name: EventSpec(name, rs.events, params=names_of(params))
                                            for name, params in rs.events.items()}),
                   triggers=tuple(rs.triggers),
                   board=BoardSpec.of(rs.board),
                   constants=MappingProxyType(to_plain(dict(rs.constants), int_keys=True)),
                   seat_names=tuple(rs.seat_names), extra_tags=tuple(rs.extra_tags))
