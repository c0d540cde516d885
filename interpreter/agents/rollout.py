"""Policy rollout (the `rollout` agent): `normal`'s best few moves, each played on past the others' replies.

Rollout in Bertsekas's sense (Bertsekas, Tsitsiklis, Wu 1997; Tesauro and Galperin 1996): a base
policy is improved by trying each candidate action and following the base policy afterwards, for
every seat, then keeping the action whose continuation ends best. Here:

1. `normal`'s judgement (greedy.py: each action applied and the seat's own move followed to its
   end, on CANDIDATE_SAMPLES sampled states) names the `width` best actions: the candidates;
2. each candidate is applied to a state sampled from the decision and the game is played on by a
   cheap version of `normal` for every seat (`policy_step`: the same judgement on the sampled state
   itself, one draw, the mover's own move followed `depth` decisions deep) until the seat is to move
   again after the others have (the end of the round, as the seat lives it), at most `horizon`
   decisions, or the end of the game;
3. the candidate is worth its side's margin there (Evaluator.margin: the content's score or
   `scoring.evaluation`, by `scoring.side`), averaged over the samples; every candidate of a sample
   is followed with the same draws (common random numbers), so two candidates are compared on the
   same luck. The best mean wins; a tie goes to `normal`'s order.

What it sees that `normal` does not: what the others do with the position the move leaves them (an
objective left open to them, a reply the move makes possible). Nothing in it knows a game. The
budget is samples a decision (`rollout:6`: each candidate followed on 6 sampled states) or time
(`rollout:0.3s`: `normal`'s judgement cut at JUDGE_SHARE of it, then whole samples until the time is
spent; when not even one fits, `normal`'s choice).

On every core (`rollout:4@2`, `rollout:0.3s@all`): the samples are independent, so
worker processes follow them, forked at the first decision and kept for the game (parallel.py's
machinery), each sent the portable decision and the candidates, never more than `sample` draws from.
Sample k has its own generator (`sample_rng`: one draw of the agent's a decision, and k), whoever
follows it: worker j takes samples j, j + W, ...; the margins are summed in the order of k. With a
budget in samples the play is the same whatever the number of workers (`rollout:4@2` plays as
`rollout:4`); the budget is the decision's, shared out (a time budget: every worker follows samples
until the same deadline). `normal`'s judgement of the root stays in the player's process.
"""
from __future__ import annotations

import random
import time
import weakref

from ..core.model import Action
from ..engine.game import clone
from .base import Agent, Decision
from .evaluate import Evaluator
from .greedy import GreedyAgent
from .parallel import can_fork, close_workers, start_workers, worker_seed

DEFAULT_SAMPLES = 4  # sampled states each candidate is followed on
DEFAULT_WIDTH = 3  # the candidates: normal's best few
DEFAULT_HORIZON = 40  # decisions of a rollout at most
DEFAULT_DEPTH = 2  # decisions of the mover's own move the rollout's policy follows when it judges an action
CANDIDATE_SAMPLES = 4  # normal's own judgement of the root (greedy.DEFAULT_SAMPLES)
JUDGE_SHARE = 0.3  # with a time budget, normal's judgement of the root may take at most this share of it
POLICY_ACTIONS = 12  # the rollout's policy judges at most this many actions a decision (drawn at random)


class RolloutAgent(Agent):
    kind = "rollout"

    def __init__(self, seed: int = 0, iterations: int | None = None, seconds: float | None = None, *,
                 width: int = DEFAULT_WIDTH, horizon: int = DEFAULT_HORIZON, depth: int = DEFAULT_DEPTH,
                 evaluation: str = "plain", workers: int = 1, processes: bool = True):
        super().__init__(seed)
        if workers < 1:
            raise ValueError("a parallel rollout needs at least one worker")
        self.samples = iterations if iterations is not None else (None if seconds else DEFAULT_SAMPLES)
        self.seconds = seconds
        self.width = width
        self.horizon = horizon
        self.evaluation = evaluation  # the margin at the horizon: over the others' mean ("plain") or the best of them ("leader")
        self.judge = GreedyAgent(seed ^ 0x5DEECE66D, iterations=CANDIDATE_SAMPLES)  # normal, for the candidates
        self.policy = GreedyAgent(seed, depth=depth)  # its `follow` is the rollout's judgement of an action
        self.workers = workers  # samples followed at once, in worker processes forked at the first decision
        self.processes = processes  # False: every sample followed here (the same play for a budget in samples)
        self.options = {"width": width, "horizon": horizon, "depth": depth, "evaluation": evaluation}
        self._game = None
        self._pool: list = []  # the worker processes 1..workers-1 (parallel.py)
        self._finalizer = weakref.finalize(self, close_workers, self._pool)
        self.last_values = None  # each candidate's (action, mean margin, samples) at the last decision
        self.stats = {"decisions": 0, "rollouts": 0, "workers": workers}

    @property
    def in_processes(self) -> bool:
        """Whether worker processes follow some of the samples (else every one is followed here)."""
        return bool(self._pool)

    def act(self, decision: Decision) -> Action:
        actions = decision.actions
        if len(actions) == 1:
            self.last_values = None
            return actions[0]
        start = time.perf_counter()
        deadline = start + self.seconds if self.seconds else None
        judged = self.judge.judge(decision, deadline=None if deadline is None else start + JUDGE_SHARE * self.seconds)
        order = list(range(len(judged)))
        self.rng.shuffle(order)  # actions judged alike: drawn at random
        ranked = sorted(order, key=lambda i: -judged[i][1])
        candidates = [judged[i][0] for i in ranked[:self.width]]
        if len(candidates) == 1:  # one action judged in the time given
            self.last_values = ((candidates[0], 0.0, 0),)
            return candidates[0]
        totals = self.follow_candidates(decision, candidates, deadline=deadline)
        best = max(range(len(candidates)), key=lambda i: (totals[i], -i))  # a tie (no sample in time): normal's order
        return candidates[best]

    def follow_candidates(self, decision: Decision, candidates: list, *, deadline: float | None) -> list:
        """Each candidate's summed margin over the samples (also kept, as means, in `last_values`).
        Sample k is drawn from its own generator (`sample_rng`: the decision's draw and k), so that
        it is the same whichever worker follows it: worker j takes samples j, j + W, j + 2W, ..."""
        base = self.rng.getrandbits(48)
        remote = self._send(decision, candidates, base, deadline)
        results = self.work(decision, (candidates, base, 0, self.workers if remote else 1, self.samples, deadline))
        for w in list(remote):
            try:
                results.extend(w.recv())
            except (EOFError, OSError):  # a worker process gone: play on with the samples of the others
                self._pool.remove(w)
                w.close()
        results.sort()
        totals = [0.0] * len(candidates)
        for _, margins in results:
            totals = [t + m for t, m in zip(totals, margins)]
        k = len(results)
        self.stats["rollouts"] += k * len(candidates)
        self.stats["decisions"] += 1
        self.last_values = tuple((a, t / max(1, k), k) for a, t in zip(candidates, totals))
        return totals

    def _send(self, decision: Decision, candidates: list, base: int, deadline: float | None) -> list:
        """The worker processes sent their share of this decision's samples (none: all followed here)."""
        if self.workers < 2 or not self.processes or not can_fork():
            return []
        if decision.game is not self._game:
            close_workers(self._pool)
            self._game = decision.game
            self._pool.extend(start_workers(self._game, _RolloutWorker(self.options), list(range(1, self.workers))))
        payload = decision.portable()
        for j, w in enumerate(list(self._pool), start=1):
            try:
                w.send(("work", (payload, (candidates, base, j, self.workers, self.samples, deadline))))
            except (EOFError, OSError):
                self._pool.remove(w)
                w.close()
        return list(self._pool)

    def work(self, decision: Decision, job: tuple) -> list:
        """[(k, each candidate's margin)] for the samples k = first, first + stride, ... that the budget
        holds (`count` in all, or until the deadline: a sample is kept whole or not at all)."""
        candidates, base, first, stride, count, deadline = job
        game = decision.game
        ev = self.policy.evaluator(game)
        out = []
        k = first
        while True:
            if count is not None and k >= count:
                break
            if deadline is not None and time.perf_counter() >= deadline:
                break
            rng = sample_rng(base, k)
            st = decision.sample(rng)
            common = rng.getrandbits(48)
            margins = []
            for action in candidates:
                if deadline is not None and time.perf_counter() >= deadline:
                    break  # candidates are compared on the same luck
                s = clone(st)
                game.apply_in_place(s, action, checked=False)
                m = self.play_out(game, s, decision.seat, ev, random.Random(common), deadline=deadline)
                if m is None:
                    break
                margins.append(m)
            if len(margins) < len(candidates):
                break
            out.append((k, margins))
            k += stride
        return out

    def close(self) -> None:
        """Stop the worker processes (they stop with this process anyway)."""
        close_workers(self._pool)
        self._game = None

    def play_out(self, game, st, seat: int, ev: Evaluator, rng: random.Random, *,
                 deadline: float | None = None) -> float | None:
        """`seat`'s margin once every seat has played on from `st` by the rollout's policy until
        `seat` moves again after someone else did (or `horizon` decisions, or the end); None when
        the `deadline` passes first."""
        current, over, clock = game.current_player, game.is_terminal, time.perf_counter
        others_moved = False
        for _ in range(self.horizon):
            if over(st):
                break
            if deadline is not None and clock() >= deadline:
                return None
            if not game.is_chance(st) and not game.simultaneous.waiting(st):
                mover = current(st)
                if mover != seat:
                    others_moved = True
                elif others_moved:
                    break
            st = policy_step(game, st, self.policy, ev, rng)
        return ev.margin(st, seat) if self.evaluation == "plain" else lead(ev, st, seat)


def sample_rng(base: int, k: int) -> random.Random:
    """The generator of sample k of a decision whose draw is `base`: its sampled state, then the
    common draws of its candidates' play-outs."""
    return random.Random(worker_seed(base, k))


class _RolloutWorker:
    """Builds a worker process's rollout agent (forked: nothing to pickle); `work` is all it is asked."""

    def __init__(self, options: dict):
        self.options = options

    def __call__(self, seed: int) -> RolloutAgent:
        return RolloutAgent(seed, iterations=1, **self.options)  # its budget comes with each job


def lead(ev: Evaluator, st, seat: int) -> float:
    """`seat`'s raw value over the best of the other sides' (a finished game: a large win or loss)."""
    if ev.game.is_terminal(st):
        return ev.margin(st, seat)
    h = ev.heuristic(st)
    sides = ev.sides(st)
    others = [x for s, x in zip(sides, h) if s != sides[seat]]
    return h[seat] - (max(others) if others else 0.0)


def policy_step(game, st, policy: GreedyAgent, ev: Evaluator, rng: random.Random) -> dict:
    """`st` after one decision of the rollout's policy: chance and the secret choices still to come
    of a simultaneous step at random; otherwise `normal`'s judgement on `st` itself (it is a sample
    already), one draw, among at most POLICY_ACTIONS actions drawn at random. A new state or `st` changed."""
    acts = game.legal_actions(st)
    if len(acts) == 1 or game.is_chance(st) or game.simultaneous.waiting(st):
        game.apply_in_place(st, acts[rng.randrange(len(acts))] if len(acts) > 1 else acts[0], checked=False)
        return st
    acts = rng.sample(list(acts), min(len(acts), POLICY_ACTIONS))  # a tie goes to the first drawn
    mover = game.current_player(st)
    common = rng.getrandbits(48)
    best, chosen = None, None
    for a in acts:
        s = clone(st)
        game.apply_in_place(s, a, checked=False)
        v = policy.follow(game, s, mover, ev, random.Random(common))
        if best is None or v > best:
            best, chosen = v, a
    game.apply_in_place(st, chosen, checked=False)
    return st


__all__ = ["RolloutAgent", "policy_step"]
