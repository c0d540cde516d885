"""What a game is made of, for its users: a read-only catalogue of the compiled definition.

    game.catalog.cards          # every card, in id order (core.model.Card)
    game.catalog.card("gem#2")  # a card by its key (None: no such card)
    game.catalog.variables("player")  # the declared player variables: name -> spec

The outer packages (agents, adapters, play, analysis, scenarios) read the game through `Game`
and this catalogue only, never through the compiled definition itself (tests/test_architecture.py).
Everything here is fixed for the game: tuples and read-only mappings of the frozen model's values.
"""
from __future__ import annotations

from types import MappingProxyType
from typing import NamedTuple

VARIABLE_KINDS = {"game": "gv", "player": "pv", "card": "cv", "zone": "zv"}  # the public word -> the state's table


class ActionInfo(NamedTuple):
    """A content action: its name, its parameters' names and the rulebook section it cites."""

    name: str
    params: tuple
    section: str


class WindowInfo(NamedTuple):
    """An out-of-turn window: its name and the move that declines it."""

    name: str
    decline: str


class Catalog:
    """The cards, zones, seats, steps, actions, variables and declarations of one compiled game."""

    def __init__(self, definition):
        d = definition
        rs = d.rs
        self.ruleset = rs  # the content as loaded (ruleset.Ruleset): its sections, files and positions
        self.title, self.name, self.root = rs.title, rs.name, rs.root
        self.seats = tuple(d.seats)
        self.cards = tuple(d.cards)
        self.zones = tuple(d.zones)
        self.cells = tuple(d.cells)  # the board cells, among the zones
        self.card_by_key = MappingProxyType(d.card_by_key)
        self.zone_by_key = MappingProxyType({z.key: z for z in d.zones})
        self.zone_by_name = MappingProxyType(d.zone_by_name)  # the zones shared by the table, by name
        self.player_zones = MappingProxyType({fam: tuple(zs) for fam, zs in d.player_zones.items()})  # per seat
        self.value_by_key = MappingProxyType(d.value_by_key())  # cards, zones, seats and yes/no/none by key
        self.step_names = tuple(d.step_names)
        # the steps where seats choose in secret, revealed together (flow.turn.steps[i].simultaneous)
        self.simultaneous_steps = tuple(s.name for s in d.steps if s.sim is not None)
        self.actions = tuple(ActionInfo(a.name, tuple(p[0] for p in a.params), a.section or "") for a in d.actions)
        self.action_names = frozenset(a.name for a in self.actions)
        self.windows = tuple(WindowInfo(w.name, w.decline) for w in d.windows)
        self.events = MappingProxyType({k: tuple(v) for k, v in d.event_params.items()})  # event -> its parameters
        self.procedures = MappingProxyType({k: tuple(v) for k, v in d.procedure_params.items()})
        self._variables = {kind: MappingProxyType(d.vars_of(code)) for kind, code in VARIABLE_KINDS.items()}
        self.uses_chance = bool(getattr(d, "uses_chance", True))  # some rule rolls, shuffles or draws at random
        self.conceals = bool(getattr(d, "concealing", None))  # some card variable conceals its card
        self.has_score = d.score is not None  # scoring.score is declared
        self.has_winner_rule = d.winner is not None  # scoring.winner is declared
        self.has_sides = getattr(d, "side", None) is not None  # scoring.side is declared
        # what a finished game is worth to each seat (scoring.payoff): "win", or "score" within +-payoff_bound
        self.payoff, self.payoff_bound = d.spec.scoring.payoff, d.spec.scoring.payoff_bound
        self.levels = d.levels  # game.levels: level name -> (the agent's specification as written, where)
        self._generated = d.generated
        self._options = d.options
        self._definition, self._argument_keys = d, None

    @property
    def options(self) -> dict:
        """The options the game was built with, defaults included (a new dict each time)."""
        return dict(self._options)

    @property
    def generated(self) -> tuple:
        """(position, Python source) of every expression compiled so far (`validate --source`)."""
        return tuple(self._generated)

    def argument_keys(self):
        """Action name (with `choose` and each window's decline) -> a tuple per argument of the keys
        it may ever take, read from the content alone (definition/arguments.py); made on first use."""
        if self._argument_keys is None:
            from ..definition.arguments import argument_keys
            self._argument_keys = MappingProxyType(argument_keys(self._definition))
        return self._argument_keys

    def card(self, key: str):
        return self.card_by_key.get(key)

    def zone(self, key: str):
        return self.zone_by_key.get(key)

    def seat(self, key: str):
        for s in self.seats:
            if s.key == key:
                return s
        return None

    def variables(self, kind: str):
        """The declared variables of a kind ("game", "player", "card" or "zone"): name -> its spec
        (a dict with `default`, `visibility`, `type`...)."""
        return self._variables[kind]


__all__ = ["ActionInfo", "Catalog", "VARIABLE_KINDS", "WindowInfo"]
