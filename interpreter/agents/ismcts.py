"""Single-observer information-set MCTS (the `ismcts` agent, the hard level).

The deciding seat is the only observer. Every iteration searches a new determinization
(`decision.sample(rng)`: the hidden cards re-dealt among the places the seat cannot see, the
dice reseeded) down one shared tree whose nodes are keyed by action ids: since ids never tell
a hidden identity, a node gathers all the worlds the seat cannot tell apart. An action is not
legal in every determinization, so UCB1 counts, for each action, the visits of its parent in
which it was available (availability counts), not all the parent's visits.

Simultaneous secret choices are hidden from the others' observations, and determinization
re-draws them; in the tree each seat of such a step chooses on statistics of its own, blind to
the choices made before it (decoupled UCT: MCTSAgent's `_joint`).
The rest (rollouts cut at a depth and evaluated, values per mover, tree reuse) is MCTSAgent's.

Guided by default (guide.py): the root's actions are tried in the order of the `normal` level's
judgement, with a progressive bias from it, and every node widens progressively (`prior=False,
widen=None` for the plain search). Against three `normal` seats in a four-player bundled game the
plain search won 0 of 5 games at 300 iterations a decision, the guided one 2 of 9 (docs/agents.md:
too few games to call it better). The opponent model of hidden sides (belief.py) is an option
(`belief=True`).

With `evaluation="learnt"` (`ismcts:1s,eval=learnt`) a cut-off is judged by the game's learnt
evaluation (agents/learnt.py) instead of the score so far.
"""
from __future__ import annotations

from .guide import WIDEN
from .mcts import MCTSAgent


class ISMCTSAgent(MCTSAgent):
    kind = "ismcts"
    availability = True

    def __init__(self, seed: int = 0, iterations: int | None = None, seconds: float | None = None, *,
                 prior: bool = True, widen: float | None = WIDEN, evaluation: str = "plain", **options):
        super().__init__(seed, iterations, seconds, prior=prior, widen=widen, **options)
        self.evaluation = evaluation  # "plain" (the score so far) or "learnt" (agents/learnt.py)

    def evaluator(self, game):
        if self.evaluation == "plain":
            return super().evaluator(game)
        if self._ev is None or self._ev.game is not game:
            from .learnt import LearntEvaluator, load_model
            self._ev = LearntEvaluator(game, load_model(game))
        return self._ev


__all__ = ["ISMCTSAgent"]
