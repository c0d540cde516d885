"""Our games inside the libraries researchers use: OpenSpiel (`openspiel.py`) and PettingZoo
(`pettingzoo.py`). Each is an optional extra; both go through the one forward model and give
each seat its observation (observation.py), never the state.

`action_index.py` numbers every action a game can offer, for libraries that want a fixed
action space; `tensor.py` turns an observation into numbers; `canonical.py` writes states and
views without telling identical pieces apart; `infostate.py` keeps each seat's information state;
`sampling.py` draws states from it (OpenSpiel's `resample_from_infostate`).
"""
from __future__ import annotations

WIN, SCORE = "win", "score"  # what the returns are made of (`returns_of`)


def terminal_returns(game, st) -> list[float]:
    """What each seat gets at the end, for libraries that want numbers: +1 for each winner and -1
    for each other seat; 0 for all when every seat or no seat wins (a draw), and before the end
    (a lone seat gets +1 or -1).
    So a two-seat game is zero-sum whatever its content says of its ends."""
    n = game.num_players
    if not game.is_terminal(st):
        return [0.0] * n
    winners = set(game.winners(st))
    if n > 1 and len(winners) in (0, n):
        return [0.0] * n
    return [1.0 if s in winners else -1.0 for s in range(n)]


def score_returns(game, st) -> list[float]:
    """Each seat's score at the end minus the mean of the seats' scores (0 before the end): a game
    whose scores are the chips each seat holds (or won), chips being conserved, gets the chips each
    seat won or lost. Zero-sum by construction."""
    n = game.num_players
    if not game.is_terminal(st):
        return [0.0] * n
    scores = [float(v) if isinstance(v, (int, float)) else 0.0 for v in game.scores(st)]
    mean = sum(scores) / n
    return [s - mean for s in scores]


def declared_returns(game) -> tuple[str, float]:
    """What the content says a finished game is worth (`scoring.payoff`): (SCORE, its bound) where
    the score is the payoff (the chips of a poker hand), else (WIN, 0.0)."""
    cat = game.catalog
    if cat.payoff == "score":
        return SCORE, float(cat.payoff_bound)
    return WIN, 0.0


def returns_of(game, st, how: str = WIN) -> list[float]:
    return score_returns(game, st) if how == SCORE else terminal_returns(game, st)


def is_zero_sum(game, how: str = WIN) -> bool:
    """Whether every end's returns sum to 0: score returns always (centred); win returns when two
    seats play (one wins and the other loses, or neither: 0 each)."""
    return how == SCORE or game.num_players == 2
