"""The greedy agent (the normal level): each action judged at the end of the seat's move.

Each legal action is applied to states sampled from the decision (so hidden cards and dice are
guessed, never read) and the position is followed to the end of the seat's move (`follow`):

- chance is drawn at random;
- a simultaneous step the action was part of is completed by the other seats' secret choices,
  drawn at random (so a ballot is judged by what the count does with it, not before the count);
- while the seat keeps the move (its own turn goes on), it plays on at random, preferring the
  actions that keep the move (so a turn is not judged by its first step when the value comes
  three steps later), at most `depth` decisions.

The action is worth the margin of the seat's side over the others (Evaluator.margin: the declared
score or `scoring.evaluation`, by `scoring.side`) at the first position where the move could stop,
plus half of what the rest of the move could add to it at best (LOOKAHEAD_WEIGHT: value in hand
counts more than value in reach, so that of two actions the one that scores now comes first when
the move could score the other later too); the best mean over the samples wins, ties at random from
the agent's own generator. With `depth=0` it is the plain one-ply greedy: the position right after
the action (chance drawn).

What counts as value, and whose side a seat is on, is the content's: the score, the evaluation,
the sides. A move that makes its own side lose points (a double agent voting for himself) is
worth less than one that does not, whatever the game.
"""
from __future__ import annotations

import random
import time

from ..engine.game import clone
from ..core.model import Action
from .base import Agent, Decision, sample_chance
from .evaluate import Evaluator

DEFAULT_SAMPLES = 4
DEFAULT_DEPTH = 12  # decisions of the seat's own move followed after the action judged
LOOKAHEAD_WEIGHT = 0.5  # what the rest of the move could add counts half
RETRIES = 3  # draws to find an action that keeps the move before taking one that ends it


class GreedyAgent(Agent):
    kind = "greedy"

    def __init__(self, seed: int = 0, iterations: int | None = None, seconds: float | None = None, *,
                 depth: int = DEFAULT_DEPTH):
        super().__init__(seed)
        self.samples = iterations if iterations is not None else (None if seconds else DEFAULT_SAMPLES)
        self.seconds = seconds
        self.depth = depth
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
        judged = self.judge(decision)
        best = max(t for _, t in judged)
        tied = [a for a, t in judged if t >= best - 1e-9 * max(1.0, abs(best))]
        return tied[self.rng.randrange(len(tied))]

    def judge(self, decision: Decision, *, deadline: float | None = None) -> tuple:
        """Each action of `decision` with its total margin over the samples (also kept as
        `last_values`). A `deadline` (a `perf_counter` time) is a hard one: the actions are then
        judged in an order drawn from the agent's generator, and those not reached by the deadline
        are left out (at least one is judged)."""
        actions = decision.actions
        game = decision.game
        ev = self.evaluator(game)
        apply = game.apply_in_place
        order = list(range(len(actions)))
        if deadline is not None:
            self.rng.shuffle(order)
        totals = [0.0] * len(actions)
        reached = len(actions)
        own = time.perf_counter() + self.seconds if self.seconds else None
        clock = time.perf_counter
        k = 0
        while True:
            if self.samples is not None and k >= self.samples:
                break
            if own is not None and k > 0 and clock() >= own:
                break
            if deadline is not None and k > 0 and clock() >= deadline:
                break
            st = decision.sample(self.rng)
            common = self.rng.getrandbits(48)  # each action's move followed with the same draws
            for j, i in enumerate(order[:reached]):
                if deadline is not None and j > 0 and clock() >= deadline:
                    reached = j  # this sample and the ones before it judged only the first j
                    break
                s = clone(st)
                apply(s, actions[i], checked=False)
                totals[i] += self.follow(game, s, decision.seat, ev, random.Random(common))
            k += 1
        kept = sorted(order[:reached])
        self.last_values = tuple((actions[i], totals[i]) for i in kept)
        return self.last_values

    def follow(self, game, st, seat: int, ev: Evaluator, rng: random.Random) -> float:
        """What the move begun in `st` is worth to `seat`: its margin where the move could first stop,
        plus LOOKAHEAD_WEIGHT times what the best later position of the move adds (changes `st`;
        chance and the move's own draws from `rng`)."""
        if self.depth <= 0:
            sample_chance(game, st, rng)
            return ev.margin(st, seat)
        apply, legal, current = game.apply_in_place, game.legal_actions, game.current_player
        over, chance, waiting = game.is_terminal, game.is_chance, game.simultaneous.waiting
        first = best = None
        steps = 0
        while True:
            if over(st):
                v = ev.margin(st, seat)
                return v if first is None else first + LOOKAHEAD_WEIGHT * (max(best, v) - first)
            acts = legal(st)
            if chance(st) or waiting(st):  # dice, or the secret choices still to come in this step: at random
                apply(st, acts[rng.randrange(len(acts))], checked=False)
                continue
            v = ev.margin(st, seat)
            if first is None:
                first = best = v
            elif v > best:
                best = v
            if current(st) != seat or steps >= self.depth:
                return first + LOOKAHEAD_WEIGHT * (best - first)
            steps += 1
            st = keep_moving(game, st, seat, acts, rng)


def keep_moving(game, st, seat: int, acts, rng: random.Random) -> dict:
    """`st` after one of `acts` drawn at random, preferring one after which `seat` still moves (a new
    state; `st` is left as it was)."""
    s = st
    for _ in range(RETRIES if len(acts) > 1 else 1):
        s = clone(st)
        game.apply_in_place(s, acts[rng.randrange(len(acts))], checked=False)
        sample_chance(game, s, rng)
        if not game.is_terminal(s) and game.current_player(s) == seat and not game.simultaneous.waiting(s):
            return s
    return s


__all__ = ["GreedyAgent", "keep_moving", "DEFAULT_SAMPLES", "DEFAULT_DEPTH"]
