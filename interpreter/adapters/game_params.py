"""The `interpret` game's parameters as OpenSpiel reads them: their defaults, the game's type,
the string form the docs give (`interpret(game=dark-agent,options=level=moyen+x=1)`, read by
`pyspiel.load_game` once this module is imported) and the utility a game's returns range over."""
from __future__ import annotations

import pyspiel

from ..engine.game import Game
from . import SCORE, WIN

DEFAULTS = {"game": "tic-tac-toe", "players": 0, "variants": "", "options": "", "seed": 0,
             "returns": "", "utility_bound": 0.0}  # "" and 0: as the content declares (scoring.payoff)
_MAX_PLAYERS = 64
_Info = pyspiel.GameType.Information
_Utility = pyspiel.GameType.Utility


def game_type(short_name="interpret", *, perfect=False, chance=True, zero_sum=False, players=(1, _MAX_PLAYERS)):
    return pyspiel.GameType(
        short_name=short_name,
        long_name="interpret: a tabletop game written as content",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=(pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC if chance
                     else pyspiel.GameType.ChanceMode.DETERMINISTIC),
        information=_Info.PERFECT_INFORMATION if perfect else _Info.IMPERFECT_INFORMATION,
        utility=_Utility.ZERO_SUM if zero_sum else _Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=players[1],
        min_num_players=players[0],
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=dict(DEFAULTS))


def split(text: str) -> list[str]:
    return [p for p in str(text).split("+") if p]


def options(text: str) -> dict:
    out = {}
    for pair in split(text):
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
        if not sep or key not in DEFAULTS:
            raise ValueError(f"interpret: `{item}` is not a parameter (key=value; keys: {', '.join(DEFAULTS)})")
        if isinstance(DEFAULTS[key], int):
            if not value.lstrip("-").isdigit():
                raise ValueError(f"interpret: `{item}`: {key} is a whole number")
            value = int(value)
        elif isinstance(DEFAULTS[key], float):
            try:
                value = float(value)
            except ValueError:
                raise ValueError(f"interpret: `{item}`: {key} is a number") from None
        out[key] = value
    return out


def _load_game(game, *more):
    """pyspiel.load_game, reading interpret's string form itself (parse_game_string)."""
    params = parse_game_string(game) if isinstance(game, str) and not more else None
    return _spiel_load_game("interpret", params) if params is not None else _spiel_load_game(game, *more)


_spiel_load_game = getattr(pyspiel.load_game, "wrapped", pyspiel.load_game)
_load_game.wrapped = _spiel_load_game
pyspiel.load_game = _load_game


def utility(g: Game, how: str, bound: float) -> tuple[float, float]:
    if how == WIN:
        return -1.0, 1.0
    if how != SCORE:
        raise ValueError(f"returns={how}: write returns=win or returns=score")
    if not 0 < bound < float("inf"):
        raise ValueError("returns=score needs utility_bound, the most a seat can win or lose (a number above 0)")
    return -bound, bound


__all__ = ["DEFAULTS", "game_type", "options", "parse_game_string", "split", "utility"]
