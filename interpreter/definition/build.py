"""A match: a ruleset compiled for a number of players and a choice of options.

It holds the frozen objects (cards, zones, seats, the board graph) and every
rule compiled (definition/: world.py builds the objects, symbols.py names them for the compiler,
linker.py binds procedures, events and triggers, rules.py compiles flow, actions and scoring). Nothing here changes while a game is played: the
game's changing data is the plain state built by ``state.initial``.
"""
from __future__ import annotations

import copy
from .. import limits as lim
from ..core.gcpause import collector_paused
from ..lang.compiler import Compiler
from ..errors import ContentError, ErrorList, Location, Problem
from .linker import Linker
from .parts import CompileMemo, ReadOnlyDict
from .rules import CompiledRules
from .symbols import Symbols
from .world import World


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
        self.prompts: dict = {}  # continuation id of a `choose` -> its prompt's template (views.prompt_for)
        self.generated: list = []  # (position, Python source) of every compiled expression (--source)
        self.compile_memo = CompileMemo()  # the compiler's questions about functions, answered once
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
        self._build_tables()
        self._collect_rules()
        self._compile_all()  # even when building found problems: report the rules' problems too
        self.errors.raise_if_any()
        self._freeze()

    # ---- frozen once built -------------------------------------------------------------
    # The container that stays as it is: the compiler's record of generated sources (`generated`,
    # for --source; game.evaluate adds to it).
    _UNFROZEN = frozenset({"generated"})

    def _freeze(self):
        """Make the definition read-only: its lists become tuples, its dicts read-only (ReadOnlyDict),
        its sets frozensets; setting an attribute is refused from now on."""
        for name, v in list(vars(self).items()):
            if name in self._UNFROZEN:
                continue
            t = type(v)
            if t is list:
                v = tuple(v)
            elif t is dict:
                v = ReadOnlyDict(v)
            elif t is set:
                v = frozenset(v)
            else:
                continue
            object.__setattr__(self, name, v)
        object.__setattr__(self, "_frozen", True)

    def __setattr__(self, name, value):
        if self.__dict__.get("_frozen"):
            raise AttributeError(f"a game definition does not change once built (setting {name!r})")
        object.__setattr__(self, name, value)

    def __delattr__(self, name):
        raise AttributeError(f"a game definition does not change once built (deleting {name!r})")

    def listening(self, on_entered):
        """A copy of this definition whose `on_entered` hook (called for every card entering a
        zone) is `on_entered` instead: every other part is shared (information/memory.py plays a
        decision with it to follow the cards)."""
        other = copy.copy(self)
        other.__dict__["on_entered"] = on_entered
        return other
