"""A match: a ruleset compiled for a number of players and a choice of options.

It holds the frozen objects (cards, zones, seats, the board graph) and every
rule compiled (definition/: world.py builds the objects, symbols.py names them for the compiler,
linker.py binds procedures, events and triggers, rules.py compiles flow, actions and scoring). Nothing here changes while a game is played: the
game's changing data is the plain state built by ``new_state``.
"""
from __future__ import annotations

from . import limits as lim
from . import runtime as rt
from .building import collector_paused
from .dsl.compiler import Compiler
from .errors import ContentError, ErrorList, Location, Problem
from .definition.parts import _copy
from .definition.linker import Linker
from .definition.rules import CompiledRules
from .definition.symbols import Symbols
from .definition.world import World


class Match(World, Symbols, Linker, CompiledRules):
    @collector_paused
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
        self.generated: list = []  # (position, Python source) of every compiled expression (--source)
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
