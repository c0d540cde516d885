"""What guides the search (agents/mcts.py) where a uniform tree and random rollouts are noise.

A long game with dozens of moves a decision (a card × a target) gives a few hundred iterations
little to go on: every root action is tried about once, and a random rollout ends the seat's move
at its first chance, before the move's value comes. Three generic aids, all from the content's
score, evaluation and sides (nothing in them knows a game):

- **a prior at the root**: the `normal` level's judgement of each root action (greedy.py: the
  action applied to a state sampled from the decision and the seat's move followed to its end),
  on GUIDE_SAMPLES samples, scaled to [0, 1]. The root tries the actions in that order and adds a
  progressive bias (Chaslot et al. 2008) that fades with the visits: `PRIOR_WEIGHT × prior / (n + 1)`;
- **progressive widening** (Coulom 2007; Chaslot et al. 2008): a node visited n times may have at
  most `1 + WIDEN × √n` children tried among the actions legal in the sample, so that the tree goes
  deep on a few moves before it goes wide on all; the root widens in the prior's order, a node
  below it in a random order;
- **rollouts that keep the move**: each seat in a rollout draws its actions at random but, as
  `normal` does, prefers one after which it still moves (greedy.keep_moving), so a turn reaches
  what it was begun for (an action whose value comes three steps later) before the cut-off.
"""
from __future__ import annotations

import math

from .base import Decision

GUIDE_SAMPLES = 1  # samples of the root prior (greedy's judgement): one keeps it a few ms
PRIOR_SHARE = 0.4  # with a time budget, the prior may take at most this share of it (then it stops)
PRIOR_WEIGHT = 1.0  # the progressive bias at the root, in units of a value (values are in [0, 1])
WIDEN = 1.0  # a node visited n times has at most 1 + WIDEN * sqrt(n) children


def allowed_children(visits: int, widen: float) -> int:
    """How many children a node visited `visits` times may have tried (progressive widening)."""
    return 1 + int(widen * math.sqrt(visits))


def root_prior(judge, decision: Decision, *, deadline: float | None = None) -> dict:
    """Each of the decision's actions -> its prior in [0, 1], from `judge` (a GreedyAgent): its
    judgement of the action scaled from the worst (0) to the best (1); all 1 when it tells none apart.
    With a `deadline` the judge stops there: an action it did not reach gets the mean of the others'."""
    judged = judge.judge(decision, deadline=deadline) or tuple((a, 0.0) for a in decision.actions)
    lo = min(v for _, v in judged)
    hi = max(v for _, v in judged)
    if hi - lo <= 1e-12:
        return {a: 1.0 for a in decision.actions}
    prior = {a: (v - lo) / (hi - lo) for a, v in judged}
    if len(prior) < len(decision.actions):
        mean = sum(prior.values()) / len(prior)
        for a in decision.actions:
            prior.setdefault(a, mean)
    return prior


__all__ = ["root_prior", "PRIOR_SHARE", "allowed_children", "GUIDE_SAMPLES", "PRIOR_WEIGHT", "WIDEN"]
