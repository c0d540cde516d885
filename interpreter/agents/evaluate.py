"""How good a position is for each seat: the value search agents back up and greedy maximises.

A finished game is worth 1 to each winner and 0 to the others (0.5 to everyone when nobody
wins: a draw); seats the ranking puts first together, with no `scoring.winner` rule, share the 1.
Where the content says the score itself is the payoff (`scoring.payoff: score`, the chips of a poker
hand), a finished game is worth each seat's score over the mean of the scores, scaled linearly into
[0, 1] by `scoring.payoff_bound`: the search then plays for the most it can expect, not for the most
often ahead. An unfinished one is judged on the declared score, or on the content's
`scoring.evaluation` when it declares one (a designer's hint about the position, in the same
units as the score, evaluated with `me` as each seat): `heuristic(st)` gives these raw numbers,
`values(st)` turns them into a chance of winning per seat in [0, 1] (a softmax over the sides,
so that a one-point lead counts for about as much as the temperature says).
"""
from __future__ import annotations

import math

from ..information.views import seat_sides


class Evaluator:
    def __init__(self, game, temperature: float = 1.0):
        self.game = game
        self.n = game.num_players
        self.temperature = temperature
        self.has_sides = game.catalog.has_sides  # scoring.side declared
        self.informative = False  # whether a cut-off position has ever told the seats apart (mcts.py)
        cat = game.catalog  # scoring.payoff: score -> the bound of a score over the mean (else None: wins count)
        self.payoff_bound = cat.payoff_bound if cat.payoff == "score" else None

    def heuristic(self, st) -> list[float]:
        """Each seat's raw value of `st`: `scoring.evaluation`, else the score."""
        return self.game.estimates(st)

    def flat(self, st) -> bool:
        """Whether an unfinished `st` tells the seats apart not at all (every raw value the same):
        a cut-off there would only say "a draw"."""
        h = self.heuristic(st)
        return max(h) == min(h) if h else True

    def sides(self, st) -> list:
        """Each seat's side (`scoring.side`, else the seat itself)."""
        return seat_sides(self.game, st)

    def terminal_values(self, st) -> list[float]:
        if self.payoff_bound is not None:  # the score is the payoff: linear, so that its mean is maximised
            scores = self.game.scores(st)
            mean, scale = sum(scores) / self.n, 2.0 * self.payoff_bound
            return [min(1.0, max(0.0, 0.5 + (x - mean) / scale)) for x in scores]
        winners = self.game.winners(st)
        if not winners:
            return [0.5] * self.n
        # the winners of a `scoring.winner` rule (a side) each win; seats that only the ranking puts
        # first together (nothing separates them) share one win: two seats tied at the top of two are a draw
        share = 1.0 if self.game.catalog.has_winner_rule else 1.0 / len(winners)
        out = [0.0] * self.n
        for w in winners:
            out[w] = share
        return out

    def values(self, st) -> list[float]:
        """Each seat's value of `st` in [0, 1]."""
        if self.game.is_terminal(st):
            return self.terminal_values(st)
        h = self.heuristic(st)
        sides = self.sides(st) if self.has_sides else None
        t = self.temperature
        if sides is None:
            top = max(h)
            e = [math.exp((x - top) / t) for x in h]
            total = sum(e)
            return [x / total for x in e]
        best = {}
        for s, x in zip(sides, h):  # a side's value: its best member's
            best[s] = max(best.get(s, x), x)
        top = max(best.values())
        e = {s: math.exp((x - top) / t) for s, x in best.items()}
        total = sum(e.values())
        return [e[s] / total for s in sides]

    def margin(self, st, seat: int) -> float:
        """`seat`'s raw value minus the mean of its opponents' (seats of another side); a finished
        game counts a large win or loss (its score, where the score is the payoff). What greedy maximises."""
        if self.game.is_terminal(st):
            if self.payoff_bound is None:
                v = self.terminal_values(st)[seat]
                return 1e6 * (v - 0.5)
            h = self.game.scores(st)  # the score is the payoff: in points, as the heuristic counts
        else:
            h = self.heuristic(st)
        sides = self.sides(st)
        others = [x for s, x in zip(sides, h) if s != sides[seat]]
        return h[seat] - (sum(others) / len(others) if others else 0.0)


__all__ = ["Evaluator"]
