"""Every game written as content is an OpenSpiel game (optional extra: `pip install ".[openspiel]"`).

    import pyspiel
    import interpreter.adapters.openspiel  # registers the game "interpret"
    game = pyspiel.load_game("interpret(game=dark-agent,players=4,variants=teams+no-dice)")

Parameters: `game` (a bundled game's name or a folder), `players` (0: the content's default),
`variants` (joined by `+`), `options` (`key=value` pairs joined by `+`, as `--option` takes them),
`seed` (the seed of the game's own random generator).

What OpenSpiel gets:
- turn-based dynamics; a fixed action space numbered by action_index.py;
- perfect or imperfect information, from the visibility content declares (a game with a zone or
  variable that some seat cannot see is imperfect);
- observation strings: the seat's observation (observation.py) as JSON; information-state strings:
  that observation and a digest of every observation the seat had since the start (perfect recall);
- returns: +1 for each winner and -1 for each other seat, 0 for all when every seat wins (a draw).

Chance: a game whose content uses chance is `EXPLICIT_STOCHASTIC`. Its states are played in
explicit chance mode (chance.py): every random draw is a chance node of OpenSpiel's chance player,
with its outcomes listed and uniform: one die per node, and a shuffle of n cards as n - 1 nodes
that each deal one card to one place (the steps of Fisher-Yates), as OpenSpiel's card games deal
one card per node. A draw from a hidden pile takes the card its shuffle put on top. `seed` does
not pick outcomes here (OpenSpiel's chance player does); the seat's information state is
updated once a decision and its chance events are resolved, so it does not count the draws.
"""
from __future__ import annotations

import hashlib
import json

import numpy as np
import pyspiel

from ..engine.game import CHANCE, EXPLICIT, Game, clone
from ..core.model import Action
from ..information.observation import observe
from . import terminal_returns
from .action_index import ActionIndex

_DEFAULTS = {"game": "tic-tac-toe", "players": 0, "variants": "", "options": "", "seed": 0}
_MAX_PLAYERS = 64


def _type(short_name="interpret", *, perfect=False, chance=True, players=(1, _MAX_PLAYERS)):
    return pyspiel.GameType(
        short_name=short_name,
        long_name="interpret: a tabletop game written as content",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=(pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC if chance
                     else pyspiel.GameType.ChanceMode.DETERMINISTIC),
        information=(pyspiel.GameType.Information.PERFECT_INFORMATION if perfect
                     else pyspiel.GameType.Information.IMPERFECT_INFORMATION),
        utility=pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=players[1],
        min_num_players=players[0],
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=False,
        parameter_specification=dict(_DEFAULTS))


def _split(text: str) -> list[str]:
    return [p for p in str(text).split("+") if p]


def _options(text: str) -> dict:
    out = {}
    for pair in _split(text):
        key, sep, value = pair.partition("=")
        if not sep:
            raise ValueError(f"option `{pair}`: write key=value")
        out[key] = value
    return out


def parse_game_string(text: str) -> dict | None:
    """The parameters of `interpret(game=dark-agent,options=level=moyen+x=1)`, the string form the
    docs give, each `key=value` split at its first `=` (OpenSpiel's own reader splits at the last
    one: an option's `k=v` would read as an unknown parameter `options=k`); None for another game."""
    text = text.strip()
    if not (text.startswith("interpret(") and text.endswith(")")):
        return None
    out = {}
    for item in filter(None, (part.strip() for part in text[len("interpret("):-1].split(","))):
        key, sep, value = item.partition("=")
        if not sep or key not in _DEFAULTS:
            raise ValueError(f"interpret: `{item}` is not a parameter (key=value; keys: {', '.join(_DEFAULTS)})")
        if isinstance(_DEFAULTS[key], int):
            if not value.lstrip("-").isdigit():
                raise ValueError(f"interpret: `{item}`: {key} is a whole number")
            value = int(value)
        out[key] = value
    return out


def _load_game(game, *more):
    """pyspiel.load_game, reading interpret's string form itself (parse_game_string)."""
    params = parse_game_string(game) if isinstance(game, str) and not more else None
    return _spiel_load_game("interpret", params) if params is not None else _spiel_load_game(game, *more)


_spiel_load_game = getattr(pyspiel.load_game, "wrapped", pyspiel.load_game)
_load_game.wrapped = _spiel_load_game
pyspiel.load_game = _load_game


def _is_perfect(g: Game) -> bool:
    """Whether every seat always sees everything: no zone hides its cards (the implicit `box`,
    where cards wait out of the game, counts only when cards start there), nothing is concealed
    and every variable is public."""
    cat = g.catalog
    start = g.new_game(0)
    for z in cat.zones:
        if z.visibility != "public" and not (z.key == "box" and not start["z"][z.id]):
            return False
    if cat.conceals:
        return False
    for kind in ("game", "player", "card", "zone"):
        if any(spec.get("visibility", "public") != "public" for spec in cat.variables(kind).values()):
            return False
    return True


class InterpretGame(pyspiel.Game):
    def __init__(self, params=None):
        params = {**_DEFAULTS, **(params or {})}
        players = int(params["players"]) or None
        self.interpret = Game.load(str(params["game"]), players=players,
                                   options=_options(params["options"]) or None,
                                   variants=_split(params["variants"]))
        self.seed = int(params["seed"])
        self.index = ActionIndex(self.interpret)
        n = self.interpret.num_players
        self.perfect = _is_perfect(self.interpret)
        chance = self.interpret.catalog.uses_chance
        self.interpret.chance_bound = self.interpret.chance_outcomes_bound() if chance else None
        info = pyspiel.GameInfo(
            num_distinct_actions=self.index.size,
            max_chance_outcomes=self.interpret.chance_bound or 0,
            num_players=n,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=None,
            max_game_length=100_000)
        super().__init__(_type(perfect=self.perfect, chance=chance), info, params)
        self._initial = None  # the state after setup and each seat's first digest, made once

    def new_initial_state(self):
        if self._initial is None:
            first = InterpretState(self)
            self._initial = (first._st, list(first._seen))
        st, seen = self._initial
        return InterpretState(self, clone(st), list(seen))

    def make_py_observer(self, iig_obs_type=None, params=None):
        recall = iig_obs_type is not None and iig_obs_type.perfect_recall
        return _Observer(recall)


class InterpretState(pyspiel.State):
    def __init__(self, game: InterpretGame, st=None, seen=None):
        super().__init__(game)
        self._g = game.interpret
        self._index = game.index
        self._st = st if st is not None else self._g.new_game(game.seed, chance=EXPLICIT)
        # a digest of what each seat has observed after each move so far (its information state)
        self._seen = seen if seen is not None else [self._digest("", s) for s in range(self._g.num_players)]

    def _digest(self, before: str, seat) -> str:
        return hashlib.blake2b((before + self._obs(seat)).encode(), digest_size=16).hexdigest()

    def _obs(self, seat) -> str:
        return json.dumps(observe(self._g, self._st, seat), sort_keys=True, separators=(",", ":"))

    # ---- the pyspiel.State contract ----
    def current_player(self):
        if self._g.is_terminal(self._st):
            return pyspiel.PlayerId.TERMINAL
        if self._g.is_chance(self._st):
            return pyspiel.PlayerId.CHANCE
        p = self._g.current_player(self._st)
        return int(p)

    def is_chance_node(self):
        return self._g.is_chance(self._st)

    def chance_outcomes(self):
        return self._g.chance_outcomes(self._st)

    def _legal_actions(self, player):
        if self._g.is_terminal(self._st) or player != self._g.current_player(self._st):
            return []
        if player == CHANCE:
            return [k for k, _ in self._g.chance_outcomes(self._st)]
        return sorted(self._index.id_of(a) for a in self._g.legal_actions(self._st))

    def _apply_action(self, action):
        if self._g.is_chance(self._st):
            self._g.apply_in_place(self._st, Action("chance", (str(action),)))
        else:
            self._g.apply_in_place(self._st, self._index.action_of(action))
        if not self._g.is_chance(self._st):  # a decision and its chance events are resolved
            self._seen = [self._digest(d, s) for s, d in enumerate(self._seen)]

    def _action_to_string(self, player, action):
        if player == pyspiel.PlayerId.CHANCE or player == CHANCE:
            node = self._st["flow"].get("node")
            return f"{node['what']}: {action}" if node else f"chance {action}"
        return str(self._index.action_of(action))

    def is_terminal(self):
        return self._g.is_terminal(self._st)

    def returns(self):
        return terminal_returns(self._g, self._st)

    def clone(self):
        return InterpretState(self.get_game(), clone(self._st), list(self._seen))

    def __deepcopy__(self, memo):
        return self.clone()

    def __str__(self):
        return self._obs(None)


class _Observer:
    """Strings only (no tensors): the observation, or the information state with perfect recall."""

    def __init__(self, perfect_recall: bool):
        self.recall = perfect_recall
        self.tensor = np.zeros(0, np.float32)
        self.dict = {}

    def set_from(self, state, player):
        pass

    def string_from(self, state, player):
        if self.recall:
            return state._obs(player) + "\nhistory " + state._seen[player]
        return state._obs(player)


pyspiel.register_game(_type(), InterpretGame)

__all__ = ["InterpretGame", "InterpretState"]
