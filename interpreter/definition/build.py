"""A match: a ruleset compiled for a number of players and a choice of options.

It holds the frozen objects (cards, zones, seats, the board graph) and every
rule compiled (definition/: world.py builds the objects, symbols.py names them for the compiler,
linker.py binds procedures, events and triggers, rules.py compiles flow, actions and scoring). Nothing here changes while a game is played: the
game's changing data is the plain state built by ``state.initial``.
"""
from __future__ import annotations

from .. import limits as lim
from ..core.gcpause import collector_paused
from ..lang.compiler import Compiler
from ..errors import ContentError, ErrorList, Location, Problem
from .linker import Linker
from .rules import CompiledRules
from .symbols import Symbols
from .world import World


class Match(World, Symbols, Linker, CompiledRules):
    @property
    def uses_chance(self) -> bool:
        """Some rule rolls, shuffles or draws at random (set by the compiler)."""
        return self.compiler.output.uses_chance

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
        self.compiler = Compiler(self)
        out = self.compiler.output  # what the compiler produces (lang/output.py), read here by its names
        self.conts, self.prompts, self.generated = out.conts, out.prompts, out.generated
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
