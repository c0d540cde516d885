"""Our games inside the libraries researchers use: OpenSpiel (`openspiel.py`) and PettingZoo
(`pettingzoo.py`). Each is an optional extra; both go through the one forward model and give
each seat its observation (observation.py), never the state.

`action_index.py` numbers every action a game can offer, for libraries that want a fixed
action space.
"""


def terminal_returns(game, st) -> list[float]:
    """What each seat gets at the end, for libraries that want numbers: +1 for each winner and -1
    for each other seat; 0 for all when every seat wins (a draw) and before the end."""
    n = game.num_players
    if not game.is_terminal(st):
        return [0.0] * n
    winners = set(game.winners(st))
    if len(winners) == n:
        return [0.0] * n
    return [1.0 if s in winners else -1.0 for s in range(n)]
