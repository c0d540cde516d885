"""The greedy agent (the normal level): one ply on the score, or on `scoring.evaluation`.

Each legal action is applied to states sampled from the decision (so hidden cards and dice
are guessed, never read) and judged by the seat's margin over its opponents (Evaluator.margin).
The best mean wins; ties are broken at random, from the agent's own generator.
"""
from __future__ import annotations

import time

from ..engine.game import clone
from ..core.model import Action
from .base import Agent, Decision, sample_chance
from .evaluate import Evaluator

DEFAULT_SAMPLES = 4


class GreedyAgent(Agent):
    kind = "greedy"

    def __init__(self, seed: int = 0, iterations: int | None = None, seconds: float | None = None):
        super().__init__(seed)
        self.samples = iterations if iterations is not None else (None if seconds else DEFAULT_SAMPLES)
        self.seconds = seconds
        self._ev = None
        self.last_values = None  # each action's total margin at the last decision (for tests and tools)

    def evaluator(self, game) -> Evaluator:
        if self._ev is None or self._ev.game is not game:
            self._ev = Evaluator(game)
        return self._ev

    def act(self, decision: Decision) -> Action:
        actions = decision.actions
        if len(actions) == 1:
            self.last_values = None
            return actions[0]
        game = decision.game
        ev = self.evaluator(game)
        apply = game.apply_in_place
        totals = [0.0] * len(actions)
        deadline = time.perf_counter() + self.seconds if self.seconds else None
        k = 0
        while True:
            if self.samples is not None and k >= self.samples:
                break
            if deadline is not None and k > 0 and time.perf_counter() >= deadline:
                break
            st = decision.sample(self.rng)
            for i, a in enumerate(actions):
                s = clone(st)
                apply(s, a, checked=False)
                sample_chance(game, s, self.rng)
                totals[i] += ev.margin(s, decision.seat)
            k += 1
        self.last_values = tuple(zip(actions, totals))
        best = max(totals)
        tied = [a for a, t in zip(actions, totals) if t >= best - 1e-9 * max(1.0, abs(best))]
        return tied[self.rng.randrange(len(tied))]


__all__ = ["GreedyAgent", "DEFAULT_SAMPLES"]
