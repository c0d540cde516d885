"""A match: a ruleset compiled for a number of players and a choice of options.

It holds the frozen objects (cards, zones, seats, the board graph) and every
rule compiled to closures. Nothing here changes while a game is played: the
game's changing data is the plain state built by ``new_state``.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import networkx as nx

from . import limits as lim
from . import runtime as rt
from .builtins import _BUILTINS, _CARD_ATTRS, _ENGINE_EVENTS, _SEAT_ATTRS, _ZONE_ATTRS
from .dsl import ast as A
from .dsl.analysis import facts
from .dsl.compiler import Compiler
from .dsl.scope import _MISS, CompileError, Scope, did_you_mean
from .dsl.parser import ParseFailure, parse
from .errors import ContentError, ErrorList, Location, Problem
from .model import Card, Seat, Zone, label_of
from .yamlio import SourceText, Snippet, resolve_parent, to_plain

RESETS = ("never", "action", "turn", "round")


class _AlreadyReported(Exception):
    """A part failed to compile and its problems are already in the list."""


@dataclass
class Handler:
    cond: object  # f(ctx) or None
    body: object  # CPS entry
    direct: object  # direct entry or None when it may suspend
    nargs: int
    nslots: int
    where: str = ""


@dataclass
class ActionDef:
    name: str
    steps: frozenset | None
    params: list  # [(name, slot, domain f)]
    requires: list  # [(f, reason template)]
    limit: int | None
    label: object
    effect: object
    nslots: int
    section: str = ""
    who: object = None  # f(ctx) -> list of seats allowed, or None: the turn's player
    requires_by_level: list = field(default_factory=list)  # checks to run once i parameters are bound
    static_false: list = field(default_factory=list)  # requirements false by the options alone

    def __post_init__(self):
        self.requires_by_level = [[f for f, _, lv in self.requires if lv == i] for i in range(len(self.params) + 1)]


@dataclass
class StepDef:
    name: str
    skip: object


@dataclass
class WindowDef:
    """An out-of-turn window (flow.turn.windows): while a turn goes on, other seats may act."""

    name: str
    steps: frozenset | None  # the turn's steps in which it opens; None: every step
    each: str  # "step": once, when the step begins; "action": also after each action of the turn's player
    seats: object  # (f, scope size): the seats that may act, in the order they are asked
    actions: tuple  # the names of the actions played in it
    decline: str  # the name of the move that declines (always legal in the window)
    where: object = None  # the window's Location, for errors


class Match:
    def __init__(self, ruleset, players: int, options: dict | None = None, observer=None):
        self.rs = ruleset
        self.limits = getattr(ruleset, "limits", lim.DEFAULT)
        self.observer = observer  # coverage.py: wraps the compiled rules to record which ones run
        self.n = players
        self.errors = ErrorList()
        # names the compiler may look up while the board and the cards are built (static values)
        self.gvars, self.pvars, self.cvars, self.zvars = {}, {}, {}, {}
        self.zone_by_name, self.player_zones, self.unique_cards, self.card_by_key = {}, {}, {}, {}
        self.cells, self.zones, self.cards, self.rows, self.columns = [], [], [], [], []
        self.function_defs, self.all_tags, self.card_props, self.zone_attrs = {}, frozenset(), set(), set()
        self.on_entered = None  # the `on entered` triggers, if the content has any
        self.uses_chance = False  # set by the compiler: some rule rolls, shuffles or draws at random
        self.conts: list = []
        self.compiler = Compiler(self)
        if type(players) is not int or not 1 <= players <= self.limits.players:
            raise ContentError(Problem(Location("--players"), lim.over("players", players, self.limits)
                                       if type(players) is int and players > 0 else
                                       f"the number of players must be a whole number from 1, not {players!r}"))
        self.options = ruleset.resolve_options(options or {}, players)
        self._build_seats()
        self._build_constants()
        self._build_board()
        self._build_zones()
        self._build_vars()
        self._build_cards()
        self._collect_rules()
        self._compile_all()  # even when building found problems: report the rules' problems too
        self.errors.raise_if_any()

    # ---- building the frozen world ---------------------------------------------------

    def _build_seats(self):
        names = self.rs.seat_names
        self.seats = [Seat(i, names[i] if i < len(names) else f"Player {i + 1}") for i in range(self.n)]

    def _build_constants(self):
        # the variables come later (_build_vars): static expressions (board sizes...) see constants only
        self.gvars, self.pvars, self.cvars, self.zvars = {}, {}, {}, {}
        self.constants = to_plain(dict(self.rs.constants), int_keys=True)
        self.constants.update(self.options)
        self.constants["player_count"] = self.n

    def evaluate_static(self, value, where: Location, default=None, node=None, key=None):
        """An int given as a number or as an expression over constants and options (e.g. the
        board's width); `node[key]` is where it was written, for exact positions."""
        if value is None:
            return default
        if isinstance(value, (int, float)) or not isinstance(value, str):
            return value
        try:
            src = SourceText.of(*resolve_parent(node, key)) if node is not None else SourceText.plain(value, where.file)
        except Exception:
            src = SourceText.plain(value, where.file)
        try:
            f = self.compiler.expr(src, Scope())
            return f(rt.Ctx({"gv": {}, "flow": {"round": 0, "phase": "setup"}}, self))
        except ParseFailure as e:
            self.errors.problems.append(e.problem)
        except CompileError as e:
            self.errors.problems.append(self.compiler.problem(e))
        except Exception as e:
            self.errors.add(where, f"cannot evaluate {value!r} here: {e}",
                            hint="only numbers, options, constants and player_count are known while the game is built")
        return default

    def _build_board(self):
        self.graph = nx.Graph()
        self.cells: list[Zone] = []
        self.zones: list[Zone] = []
        self.zone_by_name: dict[str, Zone] = {}
        self.cell_at: dict[tuple, Zone] = {}
        self.row_cells, self.column_cells, self.neighbors = {}, {}, {}
        board = self.rs.board
        self.rows, self.columns = [], []
        if not board:
            return
        grid = board.get("grid")
        where = self.rs.where_of(board, "grid") if grid else None
        if grid:
            columns = self._capped(self.evaluate_static(grid.get("columns", 1), where, 1, grid, "columns"), 1,
                                   "grid_side", self.rs.where_of(grid, "columns"), "grid columns")
            row_specs = []
            for spec in grid.get("rows", []):
                if spec.get("rows", spec.get("row")) is None:
                    self.errors.add(self.rs.where_of(spec), "a grid row needs `row: N` or `rows: N-M`")
                    continue
                lo, hi = self._row_range(spec.get("rows", spec.get("row")))
                if hi - lo + 1 > self.limits.grid_side or hi > 10 * self.limits.grid_side:
                    if hi - lo + 1 > self.limits.grid_side:
                        msg = lim.over("grid_side", hi - lo + 1, self.limits, f"rows {spec.get('rows')}:")
                    else:
                        msg = lim.over("grid_side", hi, self.limits, "row number")
                    self.errors.add(self.rs.where_of(spec, "rows" if "rows" in spec else "row"), msg)
                    continue
                if len(row_specs) + hi - lo + 1 > self.limits.grid_side:
                    self.errors.add(self.rs.where_of(spec), lim.over("grid_side", len(row_specs) + hi - lo + 1,
                                                                     self.limits, "rows in all"))
                    continue
                for r in range(lo, hi + 1):
                    row_specs.append((r, spec))
            if len(row_specs) * columns > self.limits.cells:
                self.errors.add(where, lim.over("cells", len(row_specs) * columns, self.limits))
                row_specs = []
            self.rows = [r for r, _ in row_specs]
            self.columns = list(range(1, columns + 1))
            pattern = grid.get("name", "r{row}c{column}")
            for r, spec in row_specs:
                for c in self.columns:
                    key = spec.get("name", pattern).format(row=r, column=c)
                    attrs = {"row": r, "column": c}
                    attrs.update({k: v for k, v in (spec.get("attrs") or {}).items()})
                    tags = frozenset(spec.get("tags") or [])
                    z = self._new_zone(key, key, capacity=spec.get("capacity", 1), attrs=attrs, is_cell=True,
                                       visibility=spec.get("visibility", "public"), tags=tags)
                    self.cells.append(z)
                    self.cell_at[(r, c)] = z
                    self.graph.add_node(z.id, row=r, column=c)
            edges = grid.get("edges", "orthogonal")
            same = grid.get("join_same")  # an attribute: edges join only cells with the same value of it
            for (r, c), z in self.cell_at.items():
                for dr, dc, kind in ((0, 1, "orthogonal"), (1, 0, "orthogonal"), (1, 1, "diagonal"), (1, -1, "diagonal")):
                    if kind == "diagonal" and edges != "all":
                        continue
                    other = self.cell_at.get((r + dr, c + dc))
                    if other is not None and (same is None or z.attrs.get(same) == other.attrs.get(same)):
                        self.graph.add_edge(z.id, other.id, kind=kind)
        if board.get("ring"):
            self._build_ring(board["ring"], self.rs.where_of(board, "ring"))
        for spec in board.get("cells", []) or []:  # explicit cells (tracks, custom boards)
            key = spec["name"]
            attrs = dict(spec.get("attrs") or {})
            made = self.zone_by_name.get(key)
            if made is not None:  # a cell made by `grid` or `ring`: this entry adds to it
                made.attrs.update(attrs)
                made.tags = made.tags | frozenset(spec.get("tags") or [])
                if spec.get("capacity") is not None:
                    made.capacity = spec["capacity"]
                self.graph.nodes[made.id].update(attrs)
                continue
            z = self._new_zone(key, key, capacity=spec.get("capacity", 1), attrs=attrs, is_cell=True,
                               tags=frozenset(spec.get("tags") or []))
            self.cells.append(z)
            self.graph.add_node(z.id, **attrs)
            if isinstance(attrs.get("row"), int) and isinstance(attrs.get("column"), int):
                self.cell_at.setdefault((attrs["row"], attrs["column"]), z)
        for spec in board.get("edges", []) or []:
            a, b = self.zone_by_name.get(spec["from"]), self.zone_by_name.get(spec["to"])
            if a is None or b is None:
                self.errors.add(self.rs.where_of(spec, "from"), f"unknown cell in edge {spec['from']} -> {spec['to']}")
                continue
            self.graph.add_edge(a.id, b.id, kind=spec.get("kind", "edge"), tail=a.id)  # one way: walks.py
        self.row_cells = {}
        self.column_cells = {}
        for z in self.cells:
            if "row" in z.attrs:
                self.row_cells.setdefault(z.attrs["row"], []).append(z)
            if "column" in z.attrs:
                self.column_cells.setdefault(z.attrs["column"], []).append(z)
        # neighbour lists per edge kind, computed once from the graph
        self.neighbors: dict[tuple, list] = {}
        for zid in self.graph.nodes:
            for nb in sorted(self.graph.neighbors(zid)):
                kind = self.graph.edges[zid, nb].get("kind", "edge")
                self.neighbors.setdefault((zid, None), []).append(self.zones[nb])
                self.neighbors.setdefault((zid, kind), []).append(self.zones[nb])

    def _build_ring(self, spec, where):
        """`board: {ring: ...}`: a closed track of `length` cells in order, each joined to the next
        (the last to the first) by an edge of kind `edges`. Cell i has the attribute `index` i;
        with `columns: n` it also has `row` i // n + 1 and `column` i % n + 1, for `cell(row, column)`
        and the render grid (a ring drawn as rows of n cells)."""
        length = self._capped(self.evaluate_static(spec.get("length"), where, 0), 0, "grid_side", where, "ring length")
        if length < 2:
            self.errors.add(where, f"a ring needs at least 2 cells, not {length}")
            return
        per_row = self._capped(self.evaluate_static(spec.get("columns"), where, 0), 0, "grid_side", where, "ring columns")
        pattern = str(spec.get("name", "ring{index}"))
        tags = frozenset(spec.get("tags") or [])
        made = []
        for i in range(length):
            key = pattern.format(index=i)
            if key in self.zone_by_name:
                self.errors.add(where, f"ring cell `{key}` is defined twice", hint="the name needs {index}")
                return
            attrs = {"index": i}
            if per_row > 0:
                attrs.update(row=i // per_row + 1, column=i % per_row + 1)
            attrs.update(spec.get("attrs") or {})
            z = self._new_zone(key, key, capacity=spec.get("capacity", 1), attrs=attrs, is_cell=True, tags=tags)
            self.cells.append(z)
            self.graph.add_node(z.id, **attrs)
            if per_row > 0:
                self.cell_at.setdefault((attrs["row"], attrs["column"]), z)
            made.append(z)
        kind = str(spec.get("edges", "next"))
        for a, b in zip(made, made[1:] + made[:1]):
            self.graph.add_edge(a.id, b.id, kind=kind, tail=a.id)  # one way: walks.py

    def _capped(self, value, default: int, cap: str, where, what: str) -> int:
        """A whole number read from content (maybe computed from constants), within limit `cap`."""
        if value is None:
            return default
        if type(value) is not int:
            try:
                value = int(value)
            except (TypeError, ValueError, OverflowError):
                self.errors.add(where, f"{what} must be a whole number, not {value!r}")
                return default
        if value > getattr(self.limits, cap):
            self.errors.add(where, lim.over(cap, value, self.limits, what))
            return default
        return value

    @staticmethod
    def _row_range(v):
        if isinstance(v, int):
            return v, v
        try:
            lo, hi = str(v).split("-")
            return int(lo), int(hi)
        except ValueError:
            return 1, 0  # no row: reported by _build_board

    def _new_zone(self, key, name, owner=None, **kw) -> Zone:
        z = Zone(len(self.zones), key, name, owner=owner, **kw)
        self.zones.append(z)
        if owner is None:
            self.zone_by_name[key] = z
        return z

    def _build_zones(self):
        self.player_zones: dict[str, list[Zone]] = {}
        specs = dict(self.rs.zones)
        if "box" not in specs:
            specs["box"] = {"visibility": "hidden"}
        for name, spec in specs.items():
            cap = spec.get("capacity")
            where = self.rs.where_of(spec, "capacity") if cap is not None else None
            cap = self.evaluate_static(cap, where, None, spec, "capacity") if cap is not None else None
            refill = spec.get("refill_from")
            if refill is not None and refill not in specs:
                self.errors.add(self.rs.where_of(spec, "refill_from"), f"zone `{name}` refills from unknown zone `{refill}`",
                                hint=did_you_mean(refill, specs) or "name a zone declared under `zones:`")
            elif refill is not None and specs[refill].get("per_player"):
                self.errors.add(self.rs.where_of(spec, "refill_from"),
                                f"zone `{name}` refills from `{refill}`, a zone of each player",
                                hint="refill from a shared zone")
            common = dict(capacity=cap, visibility=spec.get("visibility", "public"),
                          refill_from=spec.get("refill_from"), tags=frozenset(spec.get("tags") or []))
            if spec.get("per_player"):
                self.player_zones[name] = [
                    self._new_zone(f"{name}.{s.key}", name, owner=s, **common) for s in self.seats
                ]
            else:
                self._new_zone(name, name, **common)

    def _build_cards(self):
        self.cards: list[Card] = []
        self.card_by_key: dict[str, Card] = {}
        self.unique_cards: dict[str, Card] = {}
        counts: dict[str, int] = {}
        tags = set()
        for name, spec in self.rs.cards.items():
            copies = spec.get("copies", 1)
            where = self.rs.where_of(spec, "copies")
            copies = self._capped(self.evaluate_static(copies, where, 1, spec, "copies"), 0, "copies", where,
                                  f"copies of `{name}`")
            if len(self.cards) + copies * (len(self.seats) if spec.get("per_player") else 1) > self.limits.cards:
                self.errors.add(where, lim.over("cards", len(self.cards) + copies, self.limits))
                copies = 0
            owners = self.seats if spec.get("per_player") else [None]
            ctags = frozenset([name, *(spec.get("tags") or [])])
            tags |= ctags
            props = dict(spec.get("props") or {})
            start = spec.get("start", "box")
            # a declared back is shared by every copy and owner; by default the back is the card's
            # first tag (its kind, as the designer wrote it first), marked with its owner's colour
            declared_back = spec.get("back")
            kind = declared_back or ((spec.get("tags") or [name])[0])
            for owner in owners:
                back = kind if declared_back or owner is None else f"{kind}.{owner.key}"
                for i in range(copies):
                    key = name if copies == 1 else f"{name}#{i + 1}"
                    if owner is not None:
                        key = f"{key}.{owner.key}"
                    c = Card(len(self.cards), key, name, ctags, props, owner, start, back)
                    self.cards.append(c)
                    self.card_by_key[key] = c
            counts[name] = copies * len(owners)
            if copies == 1 and owners == [None]:
                self.unique_cards[name] = self.cards[-1]
        for spec in self.rs.zones.values():
            tags |= set(spec.get("tags") or [])
        if self.rs.board.get("grid"):
            for spec in self.rs.board["grid"].get("rows", []):
                tags |= set(spec.get("tags") or [])
        tags |= set(self.rs.extra_tags)
        for z in self.cells:  # tags of explicit and generated board cells
            tags |= z.tags
        self.all_tags = frozenset(tags)
        self.card_props = set()
        for spec in self.rs.cards.values():
            self.card_props |= set((spec.get("props") or {}).keys())
        self.zone_attrs = set()
        for z in self.zones:
            self.zone_attrs |= set(z.attrs)
        # where each card starts
        self.start_zone = []
        for c in self.cards:
            if c.start in self.player_zones:
                if c.owner is None:
                    self.errors.add(self.rs.where_of(self.rs.cards[c.name], "start"),
                                    f"card `{c.name}` starts in `{c.start}`, a zone of each player, but has no owner",
                                    hint="add `per_player: true` to the card, or start it in a shared zone")
                    self.start_zone.append(self.zone_by_name["box"].id)
                    continue
                self.start_zone.append(self.player_zones[c.start][c.owner.id].id)
            elif c.start in self.zone_by_name:
                self.start_zone.append(self.zone_by_name[c.start].id)
            else:
                self.errors.add(self.rs.where_of(self.rs.cards[c.name], "start"),
                                f"card `{c.name}` starts in unknown zone `{c.start}`",
                                hint=did_you_mean(c.start, list(self.zone_by_name) + list(self.player_zones)))
                self.start_zone.append(self.zone_by_name["box"].id)

    def _build_vars(self):
        self.gvars, self.pvars, self.cvars, self.zvars = {}, {}, {}, {}
        tables = {"game": self.gvars, "player": self.pvars, "card": self.cvars, "zone": self.zvars}
        for kind, specs in self.rs.vars.items():
            for name, spec in specs.items():
                spec = spec if isinstance(spec, dict) else {"default": spec}
                typ = spec.get("type")
                default = spec.get("default")
                if typ is None:
                    typ = {bool: "bool", int: "int", str: "str", list: "list"}.get(type(default), "any")
                    if isinstance(default, list):
                        typ = "list"
                reset = spec.get("reset", "never")
                tables[kind][name] = {"type": typ, "default": to_plain(default, int_keys=True), "reset": reset,
                                      "conceals": kind == "card" and bool(spec.get("conceals")),
                                      "visibility": spec.get("visibility", "public")}
        # card variables that, while true, hide their card's identity from every view (views.py)
        self.concealing = [name for name, spec in self.cvars.items() if spec["conceals"]]
        self._codecs = {}
        self.resets = {r: [] for r in RESETS}
        for kind, table in (("gv", self.gvars), ("pv", self.pvars), ("cv", self.cvars), ("zv", self.zvars)):
            for name, spec in table.items():
                self._codecs[(kind, name)] = rt.codec(self, spec["type"])
                self.resets[spec["reset"]].append((kind, name, spec["default"]))

    def value_by_key(self) -> dict:
        """Cards, zones and seats by their stable key, and the keys of yes/no/none (see model.key_of)."""
        cache = self.__dict__.get("_by_key")
        if cache is None:
            cache = {"yes": True, "no": False, "none": None}
            cache.update({s.key: s for s in self.seats})
            cache.update({z.key: z for z in self.zones})
            cache.update(self.card_by_key)
            self._by_key = cache
        return cache

    def tagged_cells(self, tag):
        """The board cells carrying a tag, computed once."""
        cache = self.__dict__.setdefault("_tagged", {})
        if tag not in cache:
            cache[tag] = [z for z in self.cells if tag in z.tags]
        return cache[tag]

    def vars_of(self, kind):
        return {"gv": self.gvars, "pv": self.pvars, "cv": self.cvars, "zv": self.zvars}[kind]

    def var_codec(self, kind, name):
        return self._codecs.get((kind, name), (None, None))

    # ---- names the compiler resolves ---------------------------------------------------

    def constant(self, name):
        if name in self.constants:
            return self.constants[name]
        if name in self.zone_by_name:
            return self.zone_by_name[name]
        if name in self.unique_cards:
            return self.unique_cards[name]
        return _MISS

    def constant_names(self):
        return list(self.constants) + list(self.zone_by_name) + list(self.unique_cards)

    _BUILTIN_VALUES = ("cells", "players", "cards", "round", "current", "rows", "columns", "step", "game_over")

    def builtin_value(self, name):
        if name == "cells":
            cells = self.cells
            return lambda ctx: cells
        if name == "players":
            seats = self.seats
            return lambda ctx: seats
        if name == "cards":
            cards = self.cards
            return lambda ctx: cards
        if name == "rows":
            rows = self.rows
            return lambda ctx: rows
        if name == "columns":
            cols = self.columns
            return lambda ctx: cols
        if name == "round":
            return lambda ctx: ctx.st["flow"]["round"]
        if name == "current":
            return lambda ctx: self.turn_player(ctx.st)
        if name == "step":
            return lambda ctx: self.step_name(ctx.st)
        if name == "game_over":
            return lambda ctx: ctx.st["flow"]["phase"] == "over"
        return None

    def builtin_value_names(self):
        return list(self._BUILTIN_VALUES)

    def zone_family(self, name):
        return self.player_zones.get(name)

    def zone_family_names(self):
        return list(self.player_zones)

    def builtin_function(self, name):
        return _BUILTINS.get(name)

    def builtin_function_names(self):
        return list(_BUILTINS)

    def attribute_names(self):
        return (list(_CARD_ATTRS) + list(_ZONE_ATTRS) + list(_SEAT_ATTRS) + list(self.cvars) + list(self.pvars)
                + list(self.zvars) + list(self.card_props) + list(self.zone_attrs) + list(self.player_zones)
                + list(self.mapping_keys()))

    def mapping_keys(self) -> frozenset:
        """The keys of every mapping in the constants and the variables' defaults: the only other
        names `x.name` may read (a mapping's entry), so that any other attribute is a typo."""
        cache = self.__dict__.get("_mapping_keys")
        if cache is None:
            keys = set()
            todo = list(self.constants.values())
            for table in (self.gvars, self.pvars, self.cvars, self.zvars):
                todo.extend(spec.get("default") for spec in table.values())
            while todo:
                v = todo.pop()
                if isinstance(v, dict):
                    keys.update(str(k) for k in v)
                    todo.extend(v.values())
                elif isinstance(v, list):
                    todo.extend(v)
            cache = self._mapping_keys = frozenset(keys)
        return cache

    def _var_reader(self, kind, name):
        """(ctx, owner) -> the variable `name` of a card, zone or player (kind cv, zv, pv)."""
        _, dec = self.var_codec(kind, name)
        if dec is None:
            return lambda ctx, o: ctx.st[kind][name][o.id]
        return lambda ctx, o: dec(ctx.st[kind][name][o.id])

    def attr_handlers(self, name):
        """(kind of card access, zone handler, seat handler, generic getter) for `x.name`.

        The kind of card access lets the compiler inline the common cases:
        ("prop", None) a printed property, ("var", None) a plain card variable,
        ("call", h) anything else, or None.
        """
        card_h = _CARD_ATTRS.get(name)
        if card_h is None and name in self.cvars:
            card_h = self._var_reader("cv", name)
        if card_h is None and name in self.card_props:
            card_h = lambda ctx, o: o.props.get(name)
        zone_h = _ZONE_ATTRS.get(name)
        if zone_h is None and name in self.zvars:
            zone_h = self._var_reader("zv", name)
        if zone_h is None and name in self.zone_attrs:
            zone_h = lambda ctx, o: o.attrs.get(name)
        seat_h = _SEAT_ATTRS.get(name)
        if seat_h is None and name in self.pvars:
            seat_h = self._var_reader("pv", name)
        if seat_h is None and name in self.player_zones:
            fam = self.player_zones[name]
            seat_h = lambda ctx, o: fam[o.id]
        card_kind = None
        if card_h is not None:
            if name in _CARD_ATTRS:
                card_kind = ("call", card_h)
            elif name in self.cvars:
                card_kind = ("var", None) if self.var_codec("cv", name)[1] is None else ("call", card_h)
            else:
                card_kind = ("prop", None)
        if name.startswith("__") or (card_h is None and zone_h is None and seat_h is None
                                     and name not in self.mapping_keys()):
            return None, None, None, None

        def get(ctx, o):
            t = type(o)
            if t is Card:
                if card_h is None:
                    raise KeyError(name)
                return card_h(ctx, o)
            if t is Zone:
                if zone_h is None:
                    raise KeyError(name)
                return zone_h(ctx, o)
            if t is Seat:
                if seat_h is None:
                    raise KeyError(name)
                return seat_h(ctx, o)
            if o is None:
                return None
            if t is dict:
                return o[name]
            raise KeyError(name)
        return card_kind, zone_h, seat_h, get

    # ---- rules: procedures, events, triggers ---------------------------------------------

    def _collect_rules(self):
        rs = self.rs
        self.procedure_params = {name: list(spec.get("params") or []) for name, spec in rs.procedures.items()}
        for kind, table in (("procedure", rs.procedures), ("function", rs.functions)):
            for name, spec in table.items():
                params = list(spec.get("params") or [])
                dup = sorted({p for p in params if params.count(p) > 1})
                if dup:
                    self.errors.add(self.rs.where_of(spec, "params"),
                                    f"{kind} `{name}` names its parameter `{dup[0]}` twice")
        for name, params in rs.events.items():
            if name in _ENGINE_EVENTS and list(params or []) != _ENGINE_EVENTS[name]:
                self.errors.add(self.rs.where_of(rs.events, name),
                                f"`{name}` is an event of the engine: its arguments are ({', '.join(_ENGINE_EVENTS[name])})",
                                hint="do not declare it, or declare it with exactly these names")
        self.event_params = {name: list(params or []) for name, params in rs.events.items()}
        for builtin_event, params in _ENGINE_EVENTS.items():
            self.event_params.setdefault(builtin_event, params)
        self.triggers = {"on": {}, "instead": {}}  # event/procedure -> [(tree parts, snippet)]
        for snip in rs.triggers:
            try:
                tree = parse(snip.src, "trigger")
            except ParseFailure as e:
                self.errors.problems.append(e.problem)
                continue
            kind, name = tree.kind, str(tree.event)
            if name not in self.event_params and name not in self.procedure_params:
                loc = snip.src.locate(tree.event.line, tree.event.column)
                self.errors.add(loc, f"trigger on unknown event `{name}`",
                                hint=did_you_mean(name, list(self.event_params) + list(self.procedure_params))
                                or "declare it under `events:` or `procedures:`", context=snip.src.context(loc))
                continue
            if kind == "instead" and name not in self.procedure_params:
                loc = snip.src.locate(tree.event.line, tree.event.column)
                self.errors.add(loc, f"`instead of {name}`: only a procedure can be replaced",
                                hint="declare it under `procedures:` and call it with `do`")
                continue
            self.triggers[kind].setdefault(name, []).append((tree, snip))
        self.procedure_trees = {}
        for name, spec in rs.procedures.items():
            snip = rs.snippet(spec, "effect", f"procedure {name}")
            try:
                self.procedure_trees[name] = parse(snip.src, "effect").body if snip else []
            except ParseFailure as e:
                self.errors.problems.append(e.problem)
                self.procedure_trees[name] = []
        self._suspends = self._suspension_analysis()

    @staticmethod
    def _calls(body, out):
        """Add to `out` what a body may wait on: a choice, the procedures it runs, the events it emits."""
        f = facts(body)
        if f.chooses:
            out.add(("choose", ""))
        out.update(("do", n) for n in f.does)
        out.update(("emit", n) for n in f.emits)

    def _suspension_analysis(self):
        deps = {}
        for name in self.procedure_params:
            out = set()
            self._calls(self.procedure_trees.get(name, []), out)
            for kind in ("on", "instead"):
                for trigger, _ in self.triggers[kind].get(name, []):
                    self._calls(trigger.body, out)
            deps[("do", name)] = out
        for name in self.event_params:
            out = set()
            for trigger, _ in self.triggers["on"].get(name, []):
                self._calls(trigger.body, out)
            deps[("emit", name)] = out
        sus = {k: False for k in deps}
        changed = True
        while changed:
            changed = False
            for k, calls in deps.items():
                if sus[k]:
                    continue
                if any(c[0] == "choose" or sus.get(c, False) for c in calls):
                    sus[k] = True
                    changed = True
        return sus

    def procedure_suspends(self, name):
        return self._suspends.get(("do", name), False)

    def event_suspends(self, name):
        return self._suspends.get(("emit", name), False)

    def register(self, fn) -> int:
        self.conts.append(fn)
        return len(self.conts) - 1

    def ret(self, ctx):
        """End of a body: go back to the caller's continuation, if any."""
        if ctx.stack:
            kid, loc = ctx.stack.pop()
            ctx.locals = loc
            return self.conts[kid](ctx)
        return None

    def _compile_handler(self, trigger, snip, params):
        """A trigger: its condition and its body, in a scope holding the event's arguments."""
        return self._compile_body(trigger.body, snip, params, cond_tree=trigger.cond, kind="trigger")

    def _compile_body(self, stmts, snip, params, cond_tree=None, kind="effect"):
        """A body (a procedure, or a trigger with its condition), compiled both ways: as
        continuations (it may wait for a choice) and, when it cannot, as a direct call."""
        c = self.compiler
        scope = Scope(params)
        c.src, c.kind = snip.src, kind
        cond = c.e(cond_tree, scope) if cond_tree is not None else None
        c.src, c.kind = snip.src, kind
        body = c.seq(stmts, scope, self.ret)
        direct = None
        if not any(c.suspends(s) for s in stmts):
            fns = tuple(c.stmt(s, scope) for s in stmts)

            def direct(ctx, fns=fns):
                try:
                    for f in fns:
                        f(ctx)
                except rt.Stop:
                    pass
        return Handler(cond, body, direct, len(params), max(scope.size, len(params)), snip.where)

    def _is_static(self, tree) -> bool:
        """An expression made of literals, operators and constants (options) only."""
        return facts(tree).static(self.constants)

    def _guard(self, fn):
        try:
            return fn()
        except ParseFailure as e:
            self.errors.problems.append(e.problem)
        except CompileError as e:
            self.errors.problems.append(self.compiler.problem(e))
        except _AlreadyReported:
            pass
        except RecursionError:  # text within the nesting cap whose compiled form still nests too deep
            src = self.compiler.src
            where = src.locate(1, 1) if src is not None else Location(self.rs.name)
            self.errors.add(where, "rules nested too deeply to compile (functions inlined into each other?)",
                            hint="split the text: a `let`, a function or a procedure for a part")
        return None

    def _compile_all(self):
        rs = self.rs
        self.function_defs = {name: spec for name, spec in rs.functions.items()}
        self._functions = {}
        self._proc_cps, self._proc_direct, self._event_cps, self._event_direct = {}, {}, {}, {}
        self._handlers = {"on": {}, "instead": {}}
        for kind in ("on", "instead"):
            for name, items in self.triggers[kind].items():
                params = self.procedure_params.get(name, self.event_params.get(name, []))
                hs = []
                for trigger, snip in items:
                    h = self._guard(lambda: self._compile_handler(trigger, snip, params))
                    if h is not None:
                        hs.append(h)
                self._handlers[kind][name] = hs
        self._bodies = {}
        for name, stmts in self.procedure_trees.items():
            snip = rs.snippet(rs.procedures[name], "effect", f"procedure {name}") or Snippet(SourceText.plain(""), name)
            h = self._guard(lambda: self._compile_body(stmts, snip, self.procedure_params[name]))
            if h is not None:
                self._bodies[name] = h
        if self.observer is not None and not self.errors.problems:
            self.observer.instrument_bodies(self)
        for name in self.procedure_params:
            self._build_procedure(name)
        for name in self.event_params:
            self._build_event(name)
        self.on_entered = None
        if self._handlers["on"].get("entered"):
            if self.event_suspends("entered"):
                _, snip = self.triggers["on"]["entered"][0]
                self.errors.add(snip.src.locate(1, 1), "`on entered` triggers cannot ask for a choice",
                                hint="they run inside every move; do the choice in an action or a procedure")
            else:
                dispatch = self._event_direct["entered"]
                self.on_entered = lambda ctx, card, zone: dispatch(ctx, [card, zone])
        for name in ("round_start", "round_end", "turn_start", "turn_end"):  # emitted by the flow itself
            if self._handlers["on"].get(name) and self.event_suspends(name):
                _, snip = self.triggers["on"][name][0]
                self.errors.add(snip.src.locate(1, 1), f"`on {name}` triggers cannot ask for a choice (`choose`, "
                                                       f"or a procedure or event that does)",
                                hint="the flow runs them between decisions; ask in flow.round.start/"
                                     "flow.turn.start, an action or a procedure", context=snip.src.context(
                                         snip.src.locate(1, 1)))
        for name in list(self.function_defs):
            self._guard(lambda: self._compile_function(name))
        self._compile_flow()
        self._compile_actions()
        self._compile_scoring()
        if self.observer is not None and not self.errors.problems:
            self.observer.instrument_rules(self)

    # functions: expressions with parameters, each call gets its own frame
    def _compile_function(self, name):
        if name in self._functions:
            return self._functions[name]
        spec = self.function_defs[name]
        params = list(spec.get("params") or [])
        snip = self.rs.snippet(spec, "expr", f"function {name}")
        scope = Scope(params)
        self._functions[name] = None  # recursion guard: resolved late
        c = self.compiler
        saved = c.src, c.kind
        try:
            f = c.expr(snip.src, scope)
        finally:
            c.src, c.kind = saved
        self._functions[name] = (f, len(params), scope.size)
        return self._functions[name]

    def function_caller(self, name, nargs, node, compiler):
        """`call(ctx, *values)` calling the content function `name` with argument values already
        computed (what generated code calls). Pure calls are cached while the state cannot change."""
        params = list(self.function_defs[name].get("params") or [])
        if nargs != len(params):
            raise CompileError(f"`{name}` takes {len(params)} argument(s), got {nargs}", node)
        holder = self._functions
        pure = self._is_pure(name)
        loc = compiler.loc(node)
        spent = lim.spend_failed
        compile_function = self._compile_function

        def call(ctx, *args):
            b = ctx.budget - 1
            ctx.budget = b
            if b < 0:
                spent(ctx, loc, f"calls of `{name}`")
            memo = ctx.memo if pure else None
            if memo is not None:
                key = (name, *args)
                try:
                    return memo[key]
                except KeyError:
                    pass
                except TypeError:  # a list argument: not cached
                    memo = None
            entry = holder.get(name) or compile_function(name)
            f, n, size = entry
            saved = ctx.locals
            ctx.locals = [*args, *([None] * (size - n))] if size > n else list(args)
            value = f(ctx)
            ctx.locals = saved
            if memo is not None:
                memo[key] = value
            return value
        return call

    _IMPURE = {"roll", "random", "shuffled"}
    _INLINE_NODES = 20  # small enough to compile in place

    def inline_body(self, name, seen=None):
        """(tree, params, source) of a function small and simple enough to compile at its call
        sites (no filters, aggregates or calls of functions that are not themselves inlined), else None."""
        if self.observer is not None:
            return None  # every call of a function is counted: none is compiled in place
        cache = self.__dict__.setdefault("_inline", {})
        if name in cache:
            return cache[name]
        seen = set(seen or ()) | {name}
        cache[name] = None  # while deciding: a recursive function is never inlined
        spec = self.function_defs[name]
        snip = self.rs.snippet(spec, "expr", name)
        if snip is None:
            return None
        try:
            tree = parse(snip.src, "expr")
        except ParseFailure:
            return None
        f = facts(tree)
        ok = f.size <= self._INLINE_NODES and not f.loops
        for callee in sorted(f.calls):
            if callee in self._IMPURE or (callee in self.function_defs and
                                           (callee in seen or self.inline_body(callee, seen) is None)):
                ok = False
        cache[name] = (tree, list(spec.get("params") or []), snip.src) if ok else None
        return cache[name]

    def _is_pure(self, name, seen=None) -> bool:
        """A function is pure (cacheable while the state cannot change) unless it rolls or shuffles."""
        cache = self.__dict__.setdefault("_purity", {})
        if name in cache:
            return cache[name]
        seen = seen or set()
        if name in seen:
            return True
        seen.add(name)
        snip = self.rs.snippet(self.function_defs[name], "expr", name)
        try:
            tree = parse(snip.src, "expr")
        except ParseFailure:
            return False
        pure = True
        for callee in sorted(facts(tree).calls):
            if callee in self._IMPURE or (callee in self.function_defs and not self._is_pure(callee, seen)):
                pure = False
        cache[name] = pure
        return pure

    def _dispatch_cps(self, handlers, final, first_only=False, then=None):
        """A chain running `handlers` in the event frame, then `final` (CPS)."""
        nxt = final
        for h in reversed(handlers):
            nxt = self._disp(h, nxt, then if first_only else None)
        return nxt

    def _disp(self, h, nxt, then):
        after = then if then is not None else nxt
        kid = self.register(after)
        nargs, nslots, cond, body = h.nargs, h.nslots, h.cond, h.body

        def disp(ctx):
            ev = ctx.locals
            fr = ev[:nargs] + [None] * (nslots - nargs)
            ctx.locals = fr
            if cond is not None and not cond(ctx):
                ctx.locals = ev
                return nxt(ctx)
            ctx.stack.append((kid, ev))
            return body(ctx)
        return disp

    def _build_procedure(self, name):
        body = self._bodies.get(name)
        insteads = self._handlers["instead"].get(name, [])
        afters = self._handlers["on"].get(name, [])
        after_chain = self._dispatch_cps(afters, self.ret)
        main = self._disp(body, after_chain, None) if body is not None else after_chain
        self._proc_cps[name] = self._dispatch_cps(insteads, main, first_only=True, then=after_chain)
        if not self.procedure_suspends(name):
            def direct(ctx, args, body=body, insteads=insteads, afters=afters):
                saved = ctx.locals
                try:
                    replaced = False
                    for h in insteads:
                        ctx.locals = args + [None] * (h.nslots - h.nargs)
                        if h.cond is None or h.cond(ctx):
                            h.direct(ctx)
                            replaced = True
                            break
                    if not replaced and body is not None:
                        ctx.locals = args + [None] * (body.nslots - body.nargs)
                        body.direct(ctx)
                    for h in afters:
                        ctx.locals = args + [None] * (h.nslots - h.nargs)
                        if h.cond is None or h.cond(ctx):
                            h.direct(ctx)
                finally:
                    ctx.locals = saved
            self._proc_direct[name] = direct

    def _build_event(self, name):
        hs = self._handlers["on"].get(name, [])
        self._event_cps[name] = self._dispatch_cps(hs, self.ret)
        if not self.event_suspends(name):
            hs = tuple(hs)

            def direct(ctx, args, hs=hs):
                if not hs:
                    return
                saved = ctx.locals
                try:
                    for h in hs:
                        ctx.locals = args + [None] * (h.nslots - h.nargs)
                        if h.cond is None or h.cond(ctx):
                            h.direct(ctx)
                finally:
                    ctx.locals = saved
            self._event_direct[name] = direct

    def procedure_entry_cps(self, name):
        procs = self._proc_cps
        return (lambda ctx: procs[name](ctx)), len(self.procedure_params.get(name, []))

    def event_entry_cps(self, name):
        evs = self._event_cps
        return (lambda ctx: evs[name](ctx)), len(self.event_params.get(name, []))

    def procedure_direct(self, name):
        procs = self._proc_direct
        return lambda ctx, args: procs[name](ctx, args)

    def event_direct(self, name):
        evs = self._event_direct
        return lambda ctx, args: evs[name](ctx, args)

    # ---- flow, actions, scoring ------------------------------------------------------

    def _effect(self, spec, key, where, params=()):
        snip = self.rs.snippet(spec, key, where)
        if snip is None:
            return None

        def build():
            stmts = parse(snip.src, "effect").body
            scope = Scope(params)
            c = self.compiler
            c.src, c.kind = snip.src, "effect"
            return (c.seq(stmts, scope, self.ret), scope)
        return self._guard(build)

    def _expr(self, spec, key, where, scope):
        snip = self.rs.snippet(spec, key, where)
        if snip is None:
            return None
        return self._guard(lambda: self.compiler.expr(snip.src, scope))

    def _compile_flow(self):
        flow = self.rs.flow
        self.setup = self._effect(flow, "setup", "flow.setup")
        rnd = flow.get("round") or {}
        turn = flow.get("turn") or {}
        self.round_start = self._effect(rnd, "start", "flow.round.start")
        self.round_end = self._effect(rnd, "end", "flow.round.end")
        self.round_order_scope = Scope()
        self.round_order = self._expr(rnd, "order", "flow.round.order", self.round_order_scope)
        self.round_until_scope = Scope()
        self.round_until = self._expr(rnd, "until", "flow.round.until", self.round_until_scope)
        self.turn_start = self._effect(turn, "start", "flow.turn.start")
        self.turn_end = self._effect(turn, "end", "flow.turn.end")
        self.steps = []
        for i, spec in enumerate(turn.get("steps") or [{"name": "play"}]):
            scope = Scope()
            skip = self._expr(spec, "skip", f"flow.turn.steps[{i}].skip", scope)
            self.steps.append(StepDef(spec["name"], (skip, scope.size) if skip else None))
        self.step_names = [s.name for s in self.steps]
        self.windows = []
        for i, spec in enumerate(turn.get("windows") or []):
            self._guard(lambda i=i, spec=spec: self._compile_window(i, spec))
        self.window_action_names = {n: w for w in self.windows for n in w.actions}

    def _compile_window(self, i, spec):
        where = f"flow.turn.windows[{i}]"
        steps = spec.get("steps")
        if isinstance(steps, str):
            steps = [steps]
        for s in steps or ():
            if s not in self.step_names:
                self.errors.add(self.rs.where_of(spec, "steps"), f"window `{spec['name']}`: unknown step `{s}`",
                                hint=did_you_mean(s, self.step_names) or "steps are declared in flow.turn.steps")
        for w in self.windows:
            if w.name == spec["name"]:
                self.errors.add(self.rs.where_of(spec, "name"), f"two windows are named `{w.name}`")
        actions = spec.get("actions") or []
        for j, a in enumerate(actions):
            if a not in self.rs.actions:
                self.errors.add(self.rs.where_of(spec["actions"], j), f"window `{spec['name']}`: no action `{a}`",
                                hint=did_you_mean(a, list(self.rs.actions)) or "")
            elif (self.rs.actions[a] or {}).get("step") is not None:
                self.errors.add(self.rs.where_of(self.rs.actions[a], "step"),
                                f"action `{a}` is played in window `{spec['name']}`: it has no `step`",
                                hint="an action belongs to the turn's steps or to a window, not both")
            for w in self.windows:
                if a in w.actions:
                    self.errors.add(self.rs.where_of(spec["actions"], j),
                                    f"action `{a}` is already played in window `{w.name}`")
        decline = spec.get("decline", "pass")
        if decline in self.rs.actions:
            self.errors.add(self.rs.where_of(spec, "decline") if "decline" in spec else self.rs.where_of(spec, "name"),
                            f"window `{spec['name']}`: its move `{decline}` has the name of an action",
                            hint="name the move that declines with `decline:`")
        scope = Scope()
        seats = self._expr(spec, "seats", f"{where}.seats", scope)
        if seats is None:
            raise _AlreadyReported()
        self.windows.append(WindowDef(spec["name"], frozenset(steps) if steps else None, spec.get("each", "step"),
                                      (seats, scope.size), tuple(actions), decline, self.rs.where_of(spec)))

    def _compile_actions(self):
        self.actions: list[ActionDef] = []
        self.action_by_name: dict[str, ActionDef] = {}
        for name, spec in self.rs.actions.items():
            a = self._guard(lambda: self._compile_action(name, spec))
            if a is not None:
                self.actions.append(a)
                self.action_by_name[name] = a
        self.actions_by_step = {}
        self.actions_by_cost = {}
        # an action whose requirement is false by the options alone (`field_powers` off...) can
        # never be played in this match: it is left out of the lists that are walked every decision
        self.never_legal = {a.name for a in self.actions if any(f is None for f in a.static_false)}
        live = [a for a in self.actions if a.name not in self.never_legal]
        # an action named by a window (flow.turn.windows) is played there only, never in the steps
        self.window_actions = [[a for a in live if a.name in w.actions] for w in self.windows]
        live = [a for a in live if a.name not in self.window_action_names]
        for s in self.step_names:
            self.actions_by_step[s] = [a for a in live if a.steps is None or s in a.steps]
            # to know quickly whether anything is legal: cheapest first
            self.actions_by_cost[s] = sorted(self.actions_by_step[s], key=lambda a: len(a.params))

    def _compile_action(self, name, spec):
        steps = spec.get("step")
        if isinstance(steps, str):
            steps = [steps]
        if steps is not None:
            for s in steps:
                if s not in self.step_names:
                    self.errors.add(self.rs.where_of(spec, "step"), f"action `{name}`: unknown step `{s}`",
                                    hint=did_you_mean(s, self.step_names) or "steps are declared in flow.turn.steps")
        params = list((spec.get("params") or {}).items())
        scope = Scope([p for p, _ in params])
        c = self.compiler
        compiled_params = []
        for pname, dom in params:
            snip = self.rs.snippet(spec["params"], pname, f"action {name}.params.{pname}")
            f = c.expr(snip.src, scope)
            tree = parse(snip.src, "expr")
            if isinstance(tree, (A.Num, A.Neg, A.Str, A.Compare, A.Not, A.And, A.Or)) or (
                    type(tree) is A.Const and tree.value is not None):
                loc = snip.src.locate(1, 1)
                self.errors.add(loc, f"the domain of parameter `{pname}` must be a collection (a list, cards, "
                                     f"cells, players), not `{snip.src.text.strip()}`",
                                hint="the parameter takes each value of its domain in turn", context=snip.src.context(loc))
            compiled_params.append((pname, scope.slots[pname], self._domain(f, pname, snip.src.locate(1, 1))))
        requires = []
        static_false = []
        failed = False
        for i, req in enumerate(spec.get("require") or []):
            def one(i=i, req=req):
                if isinstance(req, dict):
                    snip = self.rs.snippet(req, "check", f"action {name}.require[{i}]")
                    reason = req.get("reason") or f"requires {req['check']}"
                    reason_src = SourceText.of(*resolve_parent(req, "reason")) if req.get("reason") else None
                else:
                    snip = self.rs.snippet(spec["require"], i, f"action {name}.require[{i}]")
                    reason, reason_src = f"requires {req}", None
                f = c.expr(snip.src, scope)
                # check a requirement as soon as the parameters it reads are bound
                used = _names_in(parse(snip.src, "expr"))
                level = max([k + 1 for k, (p, _) in enumerate(params) if p in used], default=0)
                c.src = snip.src
                if self._is_static(parse(snip.src, "expr")):
                    try:
                        if not f(rt.Ctx({}, self)):
                            static_false.append(None)  # false whatever happens
                    except Exception:
                        pass
                return f, c.template_text(reason, scope, src=reason_src), level
            r = self._guard(one)  # each part on its own: every problem of the action is reported
            if r is None:
                failed = True
            else:
                requires.append(r)

        def make_label():
            if spec.get("label"):
                return c.template_text(str(spec["label"]), scope, src=SourceText.of(*resolve_parent(spec, "label")))
            return c.template_text(name + "".join(f" {{{p}}}" for p, _ in params), scope)
        label = self._guard(make_label)

        def make_effect():
            snip = self.rs.snippet(spec, "effect", f"action {name}.effect")
            stmts = parse(snip.src, "effect").body if snip else []
            c.src, c.kind = (snip.src if snip else None), "effect"
            return c.seq(stmts, scope, self.ret)
        effect = self._guard(make_effect)
        if failed or label is None or effect is None:
            raise _AlreadyReported()
        who = None
        a = ActionDef(name, frozenset(steps) if steps else None, compiled_params, requires, spec.get("limit"),
                      label, effect, scope.size, spec.get("section", ""), who)
        a.static_false = static_false
        return a

    @staticmethod
    def _domain(f, pname, where):
        """A parameter's domain, checked to be a collection when it is computed."""
        def dom(ctx):
            v = f(ctx)
            if v is None or type(v) is list:
                if v:  # listing the bindings of every parameter: their product spends the budget
                    b = ctx.budget - len(v)
                    ctx.budget = b
                    if b < 0:
                        lim.spend_failed(ctx, where, f"the values of parameter `{pname}`")
                return v
            if isinstance(v, (tuple, dict, set, frozenset)):
                return list(v)
            hint = f": write `{v.name}.cards`" if type(v) is Zone else ""
            raise rt.RuleRuntimeError(f"the domain of parameter `{pname}` is {label_of(v)}, not a collection{hint}",
                                      where)
        return dom

    @staticmethod
    def _number(f, what, where):
        """A score or a tie-break: a number (yes/no and none count as numbers), else a rule error."""
        def number(ctx):
            v = f(ctx)
            if v is None or type(v) in (int, bool):
                return v
            raise rt.RuleRuntimeError(f"{what} must give a number, not {label_of(v)}", where)
        return number

    def _compile_scoring(self):
        sc = self.rs.scoring
        self.score_scope = Scope()
        self.score = self._expr(sc, "score", "scoring.score", self.score_scope) if sc.get("score") else None
        if self.score is not None:
            self.score = self._number(self.score, "scoring.score", self.rs.where_of(sc, "score"))
        self.tiebreaks = []
        for i, _ in enumerate(sc.get("tiebreak") or []):
            f = self._expr(sc["tiebreak"], i, f"scoring.tiebreak[{i}]", self.score_scope)
            if f is not None:
                self.tiebreaks.append(self._number(f, f"scoring.tiebreak[{i}]", self.rs.where_of(sc["tiebreak"], i)))
        self.winner_scope = Scope()
        self.winner = self._expr(sc, "winner", "scoring.winner", self.winner_scope) if sc.get("winner") else None
        self.side = self._expr(sc, "side", "scoring.side", self.score_scope) if sc.get("side") else None
        # a designer's hint for the bots: how good the position is for `me`, in points (agents/evaluate.py)
        self.evaluation = (self._expr(sc, "evaluation", "scoring.evaluation", self.score_scope)
                           if sc.get("evaluation") else None)
        self.facets = []  # analysis.facets: (name, rules, locals) read per seat by `interpret analyze`
        facets = self.rs.analysis.get("facets") or {}
        for name in facets:
            scope = Scope()
            f = self._expr(facets, name, f"analysis.facets.{name}", scope)
            if f is not None:
                self.facets.append((str(name), f, scope))
        self.invariants = []
        for i, inv in enumerate(self.rs.invariants):
            scope = Scope()
            f = self._expr(inv, "check", f"invariants[{i}]", scope)
            if f is not None:
                self.invariants.append((f, inv.get("message", inv["check"]), scope.size, inv.get("per_player", False)))

    # ---- flow helpers used by rules and by the engine -------------------------------------

    def turn_player(self, st):
        flow = st["flow"]
        order = flow.get("order") or []
        pos = flow.get("pos", 0)
        if flow.get("phase") != "play" or pos >= len(order):
            return None
        return self.seats[order[pos]]

    def step_name(self, st):
        i = st["flow"].get("step", 0)
        return self.step_names[i] if 0 <= i < len(self.step_names) else None

    # ---- results (also readable from the rules: score_of, is_winner) ---------------------

    def score_of(self, st, seat) -> object:
        if self.score is None:
            return 0
        ctx = rt.Ctx(st, self, seat)
        ctx.locals = [None] * self.score_scope.size
        return self.score(ctx)

    def ranking_keys(self, st) -> list[tuple]:
        """Per seat, what the ranking compares: (score, tie-break 1, tie-break 2, ...)."""
        ctx = rt.Ctx(st, self)
        keys = []
        for s in self.seats:
            ctx.me = s
            ctx.locals = [None] * self.score_scope.size
            k = [self.score(ctx) if self.score else 0]
            for f in self.tiebreaks:
                v = f(ctx)
                k.append(int(v) if isinstance(v, bool) else (v or 0))
            keys.append(tuple(k))
        return keys

    def ranking(self, st) -> list[int]:
        """Seat indices from first to last: score, then each tie-break in order, then seat order."""
        keys = [(k, -i) for i, k in enumerate(self.ranking_keys(st))]
        return sorted(range(len(self.seats)), key=lambda i: keys[i], reverse=True)

    def facet_values(self, st) -> dict:
        """{facet: [its value for each seat]}, the content's `analysis.facets` read at the end of a game."""
        out = {}
        ctx = rt.Ctx(st, self)
        for name, f, scope in self.facets:
            values = []
            for s in self.seats:
                ctx.me = s
                ctx.locals = [None] * scope.size
                values.append(f(ctx))
            out[name] = values
        return out

    def winners(self, st) -> list[int]:
        if self.winner is not None:
            ctx = rt.Ctx(st, self)
            out = []
            for s in self.seats:
                ctx.me = s
                ctx.locals = [None] * self.winner_scope.size
                if self.winner(ctx):
                    out.append(s.id)
            return out
        return self.ranking(st)[:1]

    # ---- the initial state -----------------------------------------------------------

    def new_state(self, seed: int) -> dict:
        from .rng import seed_state
        zl = [[] for _ in self.zones]
        loc = list(self.start_zone)
        for c in self.cards:
            zl[loc[c.id]].append(c.id)
        nc, nz, ns = len(self.cards), len(self.zones), len(self.seats)
        return {
            "z": zl,
            "loc": loc,
            "cv": {k: [_copy(v["default"]) for _ in range(nc)] for k, v in self.cvars.items()},
            "zv": {k: [_copy(v["default"]) for _ in range(nz)] for k, v in self.zvars.items()},
            "pv": {k: [_copy(v["default"]) for _ in range(ns)] for k, v in self.pvars.items()},
            "gv": {k: _copy(v["default"]) for k, v in self.gvars.items()},
            "rng": seed_state(seed),
            "forced": [],
            "flow": {"phase": "setup", "round": 0, "order": [], "pos": 0, "step": 0, "finish": None, "resume": None},
            "used": {},
            "pending": [],
        }


def _names_in(tree) -> set:
    return set(facts(tree).names)


def _copy(v):
    return list(v) if isinstance(v, list) else v

