"""The world of a game definition: seats, constants, the board graph, zones, cards and variables.

A part of the GameDefinition (definition.py), which the builder (build.py) makes and fills;
`self.d` is the definition being built (its ruleset, options, errors and compiler).
"""
from __future__ import annotations

import copy

from .. import limits as lim
from ..runtime import context as rt
from ..runtime.library import CellRun
from ..runtime.visibility import plan_of
from ..runtime.walks import Walks
from ..lang.scope import CompileError, Scope
from ..errors import did_you_mean
from ..i18n import _
from ..lang.parser import ParseFailure
from ..errors import Location
from ..core.model import Card, Seat, Zone
from ..ruleset.yamlio import SourceText, resolve_parent
from .graph import BoardGraph
from .parts import RESETS, Part


class World(Part):
    def __init__(self, d):
        super().__init__(d)
        # names the compiler may look up while the board and the cards are built (static values)
        self.gvars, self.pvars, self.cvars, self.zvars = {}, {}, {}, {}
        self.zone_by_name, self.player_zones, self.unique_cards, self.card_by_key = {}, {}, {}, {}
        self.cells, self.zones, self.cards, self.rows, self.columns = [], [], [], [], []
        self.all_tags, self.card_props, self.zone_attrs = frozenset(), set(), set()

    def build(self):
        """Seats, constants, board, zones, variables, cards, and the tables play reads of them."""
        self._build_seats()
        self._build_constants()
        self._build_board()
        self._build_zones()
        self._build_vars()
        self._build_cards()
        self._build_tables()

    @property
    def graph(self):
        """The board as a networkx.Graph, made on first use (graph.py)."""
        return self.board_graph.networkx()

    # ---- building the frozen world ---------------------------------------------------

    def _build_seats(self):
        names = self.d.spec.seat_names
        self.seats = [Seat(i, names[i] if i < len(names) else _("Player {number}").format(number=i + 1))
                      for i in range(self.d.n)]

    def _build_constants(self):
        # the variables come later (_build_vars): static expressions (board sizes...) see constants only
        self.gvars, self.pvars, self.cvars, self.zvars = {}, {}, {}, {}
        self.constants = copy.deepcopy(dict(self.d.spec.constants))  # this definition's own values
        self.constants.update(self.d.options)
        self.constants["player_count"] = self.d.n

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
            f = self.d.compiler.expr(src, Scope())
            return f(rt.Ctx({"gv": {}, "flow": {"round": 0, "phase": "setup"}}, self.d))
        except ParseFailure as e:
            self.d.errors.problems.append(e.problem)
        except CompileError as e:
            self.d.errors.problems.append(self.d.compiler.problem(e))
        except Exception as e:
            self.d.errors.add(where, f"cannot evaluate {value!r} here: {e}",
                            hint="only numbers, options, constants and player_count are known while the game is built")
        return default

    def _build_board(self):
        self.board_graph = BoardGraph()
        self.cells: list[Zone] = []
        self.zones: list[Zone] = []
        self.zone_by_name: dict[str, Zone] = {}
        self.cell_at: dict[tuple, Zone] = {}
        self.row_cells, self.column_cells, self.neighbors = {}, {}, {}
        board = self.d.spec.board
        self.rows, self.columns = [], []
        if not board.node:
            return
        grid = board.grid
        where = board.at("grid") if grid else None
        if grid:
            columns = self._capped(self.evaluate_static(grid.columns, where, 1, grid.node, "columns"), 1,
                                   "grid_side", grid.at("columns"), "grid columns")
            row_specs = []
            for spec in grid.rows:
                if spec.rows is None:
                    self.d.errors.add(spec.at(), "a grid row needs `row: N` or `rows: N-M`")
                    continue
                lo, hi = self._row_range(spec.rows)
                if hi - lo + 1 > self.d.limits.grid_side or hi > 10 * self.d.limits.grid_side:
                    if hi - lo + 1 > self.d.limits.grid_side:
                        msg = lim.over("grid_side", hi - lo + 1, self.d.limits,
                                       f"rows {spec.rows if spec.has_rows else None}:")
                    else:
                        msg = lim.over("grid_side", hi, self.d.limits, "row number")
                    self.d.errors.add(spec.at("rows" if spec.has_rows else "row"), msg)
                    continue
                if len(row_specs) + hi - lo + 1 > self.d.limits.grid_side:
                    self.d.errors.add(spec.at(), lim.over("grid_side", len(row_specs) + hi - lo + 1,
                                                                     self.d.limits, "rows in all"))
                    continue
                for r in range(lo, hi + 1):
                    row_specs.append((r, spec))
            if len(row_specs) * columns > self.d.limits.cells:
                self.d.errors.add(where, lim.over("cells", len(row_specs) * columns, self.d.limits))
                row_specs = []
            self.rows = [r for r, _ in row_specs]
            self.columns = list(range(1, columns + 1))
            for r, spec in row_specs:
                for c in self.columns:
                    key = (spec.cell_name if spec.cell_name is not None else grid.cell_name).format(row=r, column=c)
                    attrs = {"row": r, "column": c}
                    attrs.update(spec.attrs)
                    z = self._new_zone(key, key, capacity=spec.capacity, attrs=attrs, is_cell=True,
                                       visibility=spec.visibility, tags=frozenset(spec.tags))
                    self.cells.append(z)
                    self.cell_at[(r, c)] = z
                    self.board_graph.add_node(z.id, row=r, column=c)
            edges = grid.edges
            same = grid.join_same  # an attribute: edges join only cells with the same value of it
            for (r, c), z in self.cell_at.items():
                for dr, dc, kind in ((0, 1, "orthogonal"), (1, 0, "orthogonal"), (1, 1, "diagonal"), (1, -1, "diagonal")):
                    if kind == "diagonal" and edges != "all":
                        continue
                    other = self.cell_at.get((r + dr, c + dc))
                    if other is not None and (same is None or z.attrs.get(same) == other.attrs.get(same)):
                        self.board_graph.add_edge(z.id, other.id, kind=kind)
        if board.ring:
            self._build_ring(board.ring, board.at("ring"))
        for spec in board.cells:  # explicit cells (tracks, custom boards)
            key = spec.name
            attrs = dict(spec.attrs)
            made = self.zone_by_name.get(key)
            if made is not None:  # a cell made by `grid` or `ring`: this entry adds to it
                made.attrs.update(attrs)
                made.tags = made.tags | frozenset(spec.tags)
                if spec.capacity is not None:
                    made.capacity = spec.capacity
                self.board_graph.update_node(made.id, attrs)
                continue
            z = self._new_zone(key, key, capacity=spec.capacity if spec.has_capacity else 1, attrs=attrs,
                               is_cell=True, tags=frozenset(spec.tags))
            self.cells.append(z)
            self.board_graph.add_node(z.id, **attrs)
            if isinstance(attrs.get("row"), int) and isinstance(attrs.get("column"), int):
                self.cell_at.setdefault((attrs["row"], attrs["column"]), z)
        for spec in board.edges:
            a, b = self.zone_by_name.get(spec.tail), self.zone_by_name.get(spec.head)
            if a is None or b is None:
                self.d.errors.add(spec.at("from"), f"unknown cell in edge {spec.tail} -> {spec.head}")
                continue
            self.board_graph.add_edge(a.id, b.id, kind=spec.kind, tail=a.id)  # one way: walks.py
        self.row_cells = {}
        self.column_cells = {}
        for z in self.cells:
            if "row" in z.attrs:
                self.row_cells.setdefault(z.attrs["row"], []).append(z)
            if "column" in z.attrs:
                self.column_cells.setdefault(z.attrs["column"], []).append(z)
        # neighbour lists per edge kind, computed once from the graph
        self.neighbors: dict[tuple, list] = {}
        for zid, edges in self.board_graph.adj.items():
            for nb in sorted(edges):
                kind = edges[nb].get("kind", "edge")
                self.neighbors.setdefault((zid, None), []).append(self.zones[nb])
                self.neighbors.setdefault((zid, kind), []).append(self.zones[nb])

    def _build_ring(self, spec, where):
        """`board: {ring: ...}`: a closed track of `length` cells in order, each joined to the next
        (the last to the first) by an edge of kind `edges`. Cell i has the attribute `index` i;
        with `columns: n` it also has `row` i // n + 1 and `column` i % n + 1, for `cell(row, column)`
        and the render grid (a ring drawn as rows of n cells)."""
        length = self._capped(self.evaluate_static(spec.length, where, 0), 0, "grid_side", where, "ring length")
        if length < 2:
            self.d.errors.add(where, f"a ring needs at least 2 cells, not {length}")
            return
        per_row = self._capped(self.evaluate_static(spec.columns, where, 0), 0, "grid_side", where, "ring columns")
        pattern = spec.cell_name
        tags = frozenset(spec.tags)
        made = []
        for i in range(length):
            key = pattern.format(index=i)
            if key in self.zone_by_name:
                self.d.errors.add(where, f"ring cell `{key}` is defined twice", hint="the name needs {index}")
                return
            attrs = {"index": i}
            if per_row > 0:
                attrs.update(row=i // per_row + 1, column=i % per_row + 1)
            attrs.update(spec.attrs)
            z = self._new_zone(key, key, capacity=spec.capacity, attrs=attrs, is_cell=True, tags=tags)
            self.cells.append(z)
            self.board_graph.add_node(z.id, **attrs)
            if per_row > 0:
                self.cell_at.setdefault((attrs["row"], attrs["column"]), z)
            made.append(z)
        kind = spec.edges
        for a, b in zip(made, made[1:] + made[:1]):
            self.board_graph.add_edge(a.id, b.id, kind=kind, tail=a.id)  # one way: walks.py

    def _capped(self, value, default: int, cap: str, where, what: str) -> int:
        """A whole number read from content (maybe computed from constants), within limit `cap`."""
        if value is None:
            return default
        if type(value) is not int:
            try:
                value = int(value)
            except (TypeError, ValueError, OverflowError):
                self.d.errors.add(where, f"{what} must be a whole number, not {value!r}")
                return default
        if value > getattr(self.d.limits, cap):
            self.d.errors.add(where, lim.over(cap, value, self.d.limits, what))
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
        specs = self.d.spec.zones
        for name, spec in specs.items():
            cap = spec.capacity
            where = spec.at("capacity") if cap is not None else None
            cap = self.evaluate_static(cap, where, None, spec.node, "capacity") if cap is not None else None
            refill = spec.refill_from
            if refill is not None and refill not in specs:
                self.d.errors.add(spec.at("refill_from"), f"zone `{name}` refills from unknown zone `{refill}`",
                                hint=did_you_mean(refill, specs) or "name a zone declared under `zones:`")
            elif refill is not None and specs[refill].per_player:
                self.d.errors.add(spec.at("refill_from"),
                                f"zone `{name}` refills from `{refill}`, a zone of each player",
                                hint="refill from a shared zone")
            common = dict(capacity=cap, visibility=spec.visibility, refill_from=spec.refill_from,
                          tags=frozenset(spec.tags))
            if spec.per_player:
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
        for name, spec in self.d.spec.cards.items():
            where = spec.at("copies")
            copies = self._capped(self.evaluate_static(spec.copies, where, 1, spec.node, "copies"), 0, "copies", where,
                                  f"copies of `{name}`")
            if len(self.cards) + copies * (len(self.seats) if spec.per_player else 1) > self.d.limits.cards:
                self.d.errors.add(where, lim.over("cards", len(self.cards) + copies, self.d.limits))
                copies = 0
            owners = self.seats if spec.per_player else [None]
            ctags = frozenset([name, *spec.tags])
            tags |= ctags
            props = dict(spec.props)
            start = spec.start
            # a declared back is shared by every copy and owner; by default the back is the card's
            # first tag (its kind, as the designer wrote it first), marked with its owner's colour
            declared_back = spec.back
            kind = declared_back or (spec.tags or (name,))[0]
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
        for spec in self.d.spec.zones.values():
            tags |= set(spec.tags)
        if self.d.spec.board.grid:
            for spec in self.d.spec.board.grid.rows:
                tags |= set(spec.tags)
        tags |= set(self.d.spec.extra_tags)
        for z in self.cells:  # tags of explicit and generated board cells
            tags |= z.tags
        self.all_tags = frozenset(tags)
        self.card_props = set()
        for spec in self.d.spec.cards.values():
            self.card_props |= set(spec.props)
        self.zone_attrs = set()
        for z in self.zones:
            self.zone_attrs |= set(z.attrs)
        # where each card starts
        self.start_zone = []
        for c in self.cards:
            if c.start in self.player_zones:
                if c.owner is None:
                    self.d.errors.add(self.d.spec.cards[c.name].at("start"),
                                    f"card `{c.name}` starts in `{c.start}`, a zone of each player, but has no owner",
                                    hint="add `per_player: true` to the card, or start it in a shared zone")
                    self.start_zone.append(self.zone_by_name["box"].id)
                    continue
                self.start_zone.append(self.player_zones[c.start][c.owner.id].id)
            elif c.start in self.zone_by_name:
                self.start_zone.append(self.zone_by_name[c.start].id)
            else:
                self.d.errors.add(self.d.spec.cards[c.name].at("start"),
                                f"card `{c.name}` starts in unknown zone `{c.start}`",
                                hint=did_you_mean(c.start, list(self.zone_by_name) + list(self.player_zones)))
                self.start_zone.append(self.zone_by_name["box"].id)

    def _build_vars(self):
        self.gvars, self.pvars, self.cvars, self.zvars = {}, {}, {}, {}
        tables = {"game": self.gvars, "player": self.pvars, "card": self.cvars, "zone": self.zvars}
        for kind, specs in self.d.spec.vars.items():
            for name, spec in specs.items():
                tables[kind][name] = {"type": spec.type, "default": spec.default, "reset": spec.reset,
                                      "conceals": spec.conceals, "visibility": spec.visibility}
        self._effect_vars()
        # card variables that, while true, hide their card's identity from every view (views.py)
        self.concealing = [name for name, spec in self.cvars.items() if spec["conceals"]]
        self._codecs = {}
        self.resets = {r: [] for r in RESETS}
        for kind, table in (("gv", self.gvars), ("pv", self.pvars), ("cv", self.cvars), ("zv", self.zvars)):
            for name, spec in table.items():
                self._codecs[(kind, name)] = rt.codec(self, spec["type"])
                self.resets[spec["reset"]].append((kind, name, spec["default"]))

    def _effect_vars(self):
        """A card's lasting effects (`effects:`, powers.py) are player variables: NAME holds the
        effect's value for each player (its `default`, false unless said, while inactive). Its
        `until` turn or round is the variable's reset; its events end it in powers.py."""
        for cname, cspec in self.d.spec.cards.items():
            for effect in cspec.effects:
                ename = effect.name
                if ename in self.pvars:
                    self.d.errors.add(cspec.at("effects", ename),
                                    f"cards.{cname}.effects: `{ename}` is already a player variable",
                                    hint="a lasting effect is a player variable of its own: give it another name")
                    continue
                reset = next((r for r in ("turn", "round") if r in effect.until), "never")
                default = effect.default
                typ = {bool: "bool", int: "int", str: "str", list: "list"}.get(type(default), "any")
                self.pvars[ename] = {"type": typ, "default": default, "reset": reset, "conceals": False,
                                     "visibility": "public"}

    def _build_tables(self):
        """The lookup tables that play reads and that depend on the built world alone: values by
        key, board cells by tag and, for a tag whose cells have ids that follow each other, a
        CellRun (runtime/library.py: `contents` reads a slice of them), who identifies the cards of
        each zone, the board's walks."""
        by_key = {"yes": True, "no": False, "none": None}
        by_key.update({s.key: s for s in self.seats})
        by_key.update({z.key: z for z in self.zones})
        by_key.update(self.card_by_key)
        self._by_key = by_key
        tags = sorted({t for z in self.cells for t in z.tags})
        self._tagged = {t: [z for z in self.cells if t in z.tags] for t in tags}
        runs = {}
        for cells in self._tagged.values():
            ids = [z.id for z in cells]
            if ids == list(range(ids[0], ids[0] + len(ids))):
                runs[id(cells)] = CellRun(cells, ids[0], ids[-1] + 1)
        self.tagged_runs = runs
        self.handle_plan = plan_of(self.zones)  # who identifies the cards of each zone (runtime/visibility.py)
        self.walks = Walks(self)  # walks along the board's edges, with the answers kept (runtime/walks.py)

    def value_by_key(self) -> dict:
        """Cards, zones and seats by their stable key, and the keys of yes/no/none (see model.key_of)."""
        return self._by_key

    def tagged_cells(self, tag):
        """The board cells carrying a tag (the same list each time: `contents` knows it by its id)."""
        cells = self._tagged.get(tag)
        return cells if cells is not None else []

    def vars_of(self, kind):
        return {"gv": self.gvars, "pv": self.pvars, "cv": self.cvars, "zv": self.zvars}[kind]

    def var_codec(self, kind, name):
        return self._codecs.get((kind, name), (None, None))
