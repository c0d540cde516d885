"""An opponent model for hidden roles: samples weighted by how likely each seat's side makes its moves.

Where a seat's side (`scoring.side`) depends on something the deciding seat cannot see (a secret
identity), a uniform determinization gives every hidden assignment the same weight, whatever
the others did. `Belief` keeps, for each other seat and each side it may be on, how well that
side explains what the seat saw the other do since its own previous decision, and a search then
draws its determinizations in proportion (rejection: a sample is kept with probability its weight
over the best weight, at most REJECT_TRIES draws).

How a side is judged, from the deciding seat's two decisions only (never a state it may not see):

1. states are sampled from its previous decision (`Decision.sample`: what it knew then); in each,
   the other seat's side is what that sample deals it;
2. the other seat is brought to its choice of that time (a simultaneous step is rewound and its
   seats choose in their order; turn by turn, the moves before it are drawn), the deciding seat's
   own choice being the one it made;
3. each action of the other seat is judged as `normal` judges (the action applied, the move
   played on at random until the evaluation changes, at most FOLLOW decisions; the margin of the
   other seat's side, as the sample makes it), and the policy is a softmax of those judgements
   (TEMPERATURE points);
4. the actions that explain what was seen are those after which that seat's public variables, as
   the deciding seat sees them, are the ones its observation shows now; the side's likelihood is
   the policy's probability of those actions (mixed with the uniform policy's, FLOOR, so that one
   odd move never rules a side out).

The log-likelihoods add up over the game. A seat whose side is the same in every sample (no
hidden role) is not judged, so games without hidden sides pay nothing. Nothing here knows a game:
sides, evaluation and public variables are the content's.
"""
from __future__ import annotations

import math
import random

from ..engine.game import clone
from ..information.views import seat_sides
from .base import Decision, observe, sample_chance
from .evaluate import Evaluator

SAMPLES = 6  # states sampled from the previous decision to judge the other seats' sides
FOLLOW = 24  # decisions played on after a judged action, until the evaluation changes
TEMPERATURE = 2.0  # of the policy's softmax, in points of the evaluation
FLOOR = 0.1  # the weight of the uniform policy in each likelihood
REJECT_TRIES = 16  # draws to find a sample by its weight
UNEXPLAINED = 1e-3  # the likelihood of a side under which nothing the seat could do explains what was seen
WALK = 200  # decisions at most to bring the other seat to its choice


class Belief:
    """What one seat infers of the others' sides from their moves, over a game."""

    def __init__(self, seat: int, seed: int):
        self.seat = seat
        self.rng = random.Random(seed)
        self.loglik: dict = {}  # (other seat, side) -> sum of log-likelihoods
        self._last = None  # (previous decision, the action played there)
        self._ev = None

    def weight(self, game, st) -> float:
        """The weight of a sample: the likelihood of its sides (relative to the most likely ones)."""
        if not self.loglik:
            return 1.0
        sides = seat_sides(game, st)
        total = 0.0
        for q, side in enumerate(sides):
            total += self.loglik.get((q, side), 0.0)
        best = sum(max((v for (q2, _), v in self.loglik.items() if q2 == q), default=0.0)
                   for q in range(len(sides)))
        return math.exp(min(0.0, total - best))

    def sample(self, decision: Decision, rng: random.Random) -> dict:
        """A state sampled from `decision`, drawn in proportion to its weight."""
        st = decision.sample(rng)
        if not self.loglik:
            return st
        for _ in range(REJECT_TRIES - 1):
            if rng.random() < self.weight(decision.game, st):
                return st
            st = decision.sample(rng)
        return st

    def update(self, decision: Decision) -> None:
        """Judge the moves seen since this seat's previous decision (then remember this one)."""
        if self._last is not None and self._last[0].game is decision.game:
            prev, played = self._last
            self._judge(prev, played, decision)

    def played(self, decision: Decision, action) -> None:
        """The action this seat played at `decision` (the moves after it are judged at the next)."""
        self._last = (decision, action)

    # ---- the likelihood of each side --------------------------------------------------------

    def _judge(self, prev: Decision, played, now: Decision) -> None:
        game = now.game
        if self._ev is None or self._ev.game is not game:
            self._ev = Evaluator(game)
        samples = [prev.sample(self.rng) for _ in range(SAMPLES)]
        n = game.num_players
        seen = list(now.observation["players"].values())  # players in seat order
        for q in range(n):
            if q == self.seat:
                continue
            sides = {seat_sides(game, s)[q] for s in samples}
            if len(sides) < 2:  # no hidden role: nothing to infer
                continue
            found: dict = {}
            for s in samples:
                p = self._explained(game, s, prev.seat, played, q, seen[q])
                if p is not None:
                    found.setdefault(seat_sides(game, s)[q], []).append(p)
            for side, ps in found.items():
                key = (q, side)
                self.loglik[key] = self.loglik.get(key, 0.0) + math.log(max(UNEXPLAINED, sum(ps) / len(ps)))

    def _explained(self, game, st, me: int, played, q: int, seen_q) -> float | None:
        """In a state sampled at the previous decision: the probability that `q`, playing as `normal`
        judges on its side, chose an action that leaves what is seen of it now (0 when none of its
        actions does; None: `q` did not choose before this seat's next decision)."""
        rng = self.rng
        st = self._walk_to(game, st, me, played, q, rng)
        if st is None:
            return None
        acts = game.legal_actions(st)
        rest = max(0, len(game.simultaneous.waiting(st)) - 1)  # the seats after `q` in its simultaneous step
        judged, fits = [], []
        common = rng.getrandbits(48)
        for a in acts:
            s = clone(st)
            game.apply_in_place(s, a, checked=False)
            self._finish_step(game, s, rest, me, played, rng)
            fits.append(list(observe(game, s, self.seat)["players"].values())[q] == seen_q)
            judged.append(self._follow(game, s, q, random.Random(common)))
        if not any(fits):
            return 0.0
        top = max(judged)
        ws = [math.exp((v - top) / TEMPERATURE) for v in judged]
        total = sum(ws)
        policy = sum(w for w, f in zip(ws, fits) if f) / total
        uniform = sum(fits) / len(fits)
        return FLOOR * uniform + (1 - FLOOR) * policy

    @staticmethod
    def _walk_to(game, st, me: int, played, q: int, rng):
        """`st` brought to `q`'s choice: a simultaneous step rewound and its seats choosing in order,
        else the moves before `q`'s drawn at random (this seat's own: the one it played). None when
        `q` does not choose before this seat's next decision."""
        game.simultaneous.rewind(st)
        first = True
        for _ in range(WALK):
            sample_chance(game, st, rng)
            if game.is_terminal(st):
                return None
            p = game.current_player(st)
            if p == q:
                return st
            if p == me:
                if not first:
                    return None
                first = False
                a = played
            else:
                acts = game.legal_actions(st)
                a = acts[rng.randrange(len(acts))]
            game.apply_in_place(st, a, checked=False)
        return None

    @staticmethod
    def _finish_step(game, st, rest: int, me: int, played, rng) -> None:
        """The `rest` choices left in a simultaneous step made (this seat's: the one it made; the others
        at random), so that the step is revealed."""
        for _ in range(rest):
            p = game.current_player(st)
            acts = game.legal_actions(st)
            a = played if p == me and played in acts else acts[rng.randrange(len(acts))]
            game.apply_in_place(st, a, checked=False)
        sample_chance(game, st, rng)

    def _follow(self, game, st, q: int, rng) -> float:
        """`q`'s margin once the evaluation moves after the action (random play, at most FOLLOW decisions)."""
        ev = self._ev
        start = ev.heuristic(st) if not game.is_terminal(st) else None
        for _ in range(FOLLOW):
            if game.is_terminal(st) or ev.heuristic(st) != start:
                break
            acts = game.legal_actions(st)
            game.apply_in_place(st, acts[rng.randrange(len(acts))], checked=False)
        return ev.margin(st, q)


__all__ = ["Belief"]
