"""UCT search over the forward model (the `mcts` agent), and the search loop `ismcts` shares.

Open loop: a node is a sequence of actions from the decision, not a state. Each iteration

1. samples a state from the decision (`decision.sample(rng)`: hidden cards guessed, the
   state's random generator reseeded, so future dice are not known: chance is sampled anew
   each time, and a node's statistics average over it);
2. walks down the tree by UCB1 among the actions legal in that state, applying them;
3. adds one node (an action not yet tried there);
4. plays uniformly random actions (with `mast=True`: MAST, `mast_choice`) up to `rollout_depth`
   decisions, or to the end; as long as
   the evaluation has never told the seats apart at a cut-off (a score only the end of the game
   sets: every unfinished position is "a draw"), rollouts play on past the cut-off until it
   does, at most 10 times as deep (the agent's evaluator remembers once it has);
5. evaluates the position (Evaluator.values: 1/0 at the end, else a softmax of the score or
   of `scoring.evaluation`) and adds, at each node, the value for the seat that chose the
   action leading to it (several players: each node is judged by its mover).

Simultaneous secret choices (simultaneous.py) are decoupled, as in simultaneous-move MCTS
(decoupled UCT, Lanctot et al. 2013; Tak, Lanctot, Winands 2014): at the node where such a step
opens, each of its seats chooses by UCB1 on statistics of its own, which do not depend on what
the seats before it chose in secret; the node below is that of the joint choice, revealed to all.
Otherwise, since the forward model asks the seats one after the other, a later seat would answer
in the tree a choice it cannot see. When the decision itself is a later seat's in such a step,
the earlier seats' choices (re-drawn by the sample, at random) are forgotten and chosen again in
the search, each by its own statistics: as players, not at random.

In a game of two seats without chance or hidden information (engine/knowledge.py), the search
also proves (MCTS-Solver, Winands, Björnsson, Saito 2008): a node whose action ends the game keeps
its exact outcome; a node where the seat to move has a proven win is itself proven (that win), and
one whose every action is proven takes the best of them for the seat to move. The selection then
plays a proven win at once and never a proven loss while something else is left, an iteration
that reaches a proven node backs up its outcome without a rollout, and the search stops as soon as
the root is proven. The move played is a proven win if there is one, and a proven loss only when
every move is one.

The action played is the root's most visited (before that, as above, what is proven). A secret choice is drawn among the root's actions
visited at least 4/5 as often as the most visited, in proportion to their visits (the mixed
strategy of decoupled UCT, purified: in matching pennies heads or tails half the time each, the
blunder 1 time in 30; where the search prefers one action clearly, that one). A purification at
1/2 drew nearly at random where visits are flat (16, 12, 11, 10, 9, 9, 8, 7, ... at a first
decision of a six-player bundled game at 100 iterations). Regret matching, which converges to an
equilibrium, was tried first: its importance-sampled regrets (a value divided by a draw's
probability, 0.01 for an exploring draw among ten actions) are too noisy at a hundred iterations
(a side of searching players won 5 of its first 9 games against random players instead of 8).

Between two decisions of the same seat the tree is kept and the search goes on from the node the
game reached, when it can be found: the node whose path, replayed on states sampled from the
previous decision, gives the observation and the actions the seat has now (the information
allows it in games without hidden moves; not from a secret choice at the root, whose children
are joint choices).
"""
from __future__ import annotations

import math
import time

from ..core.model import Action
from ..engine.knowledge import deterministic, perfect_information
from .base import Agent, Decision, sample_chance
from .evaluate import Evaluator
from .belief import Belief
from .greedy import GreedyAgent, keep_moving
from .guide import GUIDE_SAMPLES, PRIOR_SHARE, PRIOR_WEIGHT, allowed_children, root_prior

DEFAULT_ITERATIONS = 1000
DEFAULT_ROLLOUT_DEPTH = 20
EXPLORATION = 0.7  # values are in [0, 1]: about 1/sqrt(2)
SIM_PURIFY = 0.8  # a secret choice is drawn among the actions visited at least 4/5 as often as the most visited
FLAT_DEPTH_FACTOR = 10  # while the evaluation has told nothing, rollouts play on, up to 10 times as deep
REUSE_CANDIDATES = 24  # nodes tried when looking for the position reached since the last decision
REUSE_SAMPLES = 3
MAST_EPSILON = 0.2  # a MAST rollout plays at random one move in five


def derived_seed(seed: int, index: int) -> int:
    """The seed of a helper of the agent seeded `seed` (its judge, its beliefs): drawn from the seed,
    not from the agent's generator, so that a search that never calls on it plays as before."""
    return (seed * 0x9E37_79B1 + index * 0x85EB_CA6B) & 0xFFFF_FFFF_FFFF


def _prove(root: Node, path: list) -> None:
    """MCTS-Solver's update after an iteration, from the deepest node of `path` up: a parent is
    proven when the seat moving there has a proven win, or when all its actions are proven (then
    it takes the best of them for that seat); stops at the first parent that is not proven."""
    for i in range(len(path) - 1, -1, -1):
        child = path[i]
        if child.proven is None:
            return
        parent = path[i - 1] if i else root
        if parent.proven is not None:
            continue
        p = child.mover
        if child.proven[p] >= 1.0:
            parent.proven = child.proven
            continue
        kids = parent.children
        if parent.width == 0 or len(kids) < parent.width:
            return
        best = None
        for ch in kids.values():
            if ch.proven is None:
                return
            if best is None or ch.proven[p] > best[p]:
                best = ch.proven
        parent.proven = best


def mast_choice(table: dict | None, acts, rng, eps: float):
    """A rollout's action by MAST (move-average sampling, Finnsson & Björnsson 2008), epsilon-greedy
    (Tak, Winands, Björnsson 2012): at random with probability `eps`, else the action whose plays
    by this seat have averaged the best value so far in this decision's search (an action never
    played counts as the best there is, 1); ties at random."""
    if table is None or rng.random() < eps:
        return acts[rng.randrange(len(acts))]
    best_v, tied = -1.0, []
    for a in acts:
        e = table.get(a)
        v = e[0] / e[1] if e is not None else 1.0
        if v > best_v:
            best_v, tied = v, [a]
        elif v == best_v:
            tied.append(a)
    return tied[0] if len(tied) == 1 else tied[rng.randrange(len(tied))]


class Node:
    __slots__ = ("mover", "children", "visits", "total", "avail", "sim", "proven", "width")

    def __init__(self, mover):
        self.mover = mover  # the seat that chose the action leading here (None: a joint choice's node)
        self.children = {}  # Action -> Node; at a simultaneous step, the joint choice (a tuple) -> Node
        self.visits = 0
        self.total = 0.0  # sum of the values, for `mover`
        self.avail = 0  # how often the action leading here was legal when its parent was visited
        self.sim = None  # at a simultaneous step: seat -> {Action -> Node}, each seat's own statistics
        self.proven = None  # solving: the exact outcome (each seat's value) with best play from here
        self.width = 0  # solving: how many actions are legal here (all of them tried: all children known)

    def rank(self) -> int:
        """2 for a proven win of the seat whose action leads here, 0 for a proven loss, else 1."""
        if self.proven is None:
            return 1
        v = self.proven[self.mover]
        return 2 if v >= 1.0 else 0 if v <= 0.0 else 1

    def choices(self, seat: int) -> dict:
        """The children of the root that `seat` chooses among (its statistics in a simultaneous step)."""
        if self.sim is not None and seat in self.sim:
            return self.sim[seat]
        return self.children


class MCTSAgent(Agent):
    kind = "mcts"
    keeps_decisions = True  # the last decision is sampled again to find where the game went
    availability = False  # UCB1 over the parent's visits (ISMCTS: over the times an action was available)

    def __init__(self, seed: int = 0, iterations: int | None = None, seconds: float | None = None, *,
                 rollout_depth: int = DEFAULT_ROLLOUT_DEPTH, exploration: float = EXPLORATION,
                 reuse: bool = True, temperature: float = 1.0, mast: bool = False,
                 mast_epsilon: float = MAST_EPSILON, prior: bool = False, widen: float | None = None,
                 keep_move: bool = False, belief: bool = False, solve: bool = True):
        super().__init__(seed)
        if iterations is None and seconds is None:
            iterations = DEFAULT_ITERATIONS
        self.iterations = iterations
        self.seconds = seconds
        self.rollout_depth = rollout_depth
        self.c = exploration
        self.reuse = reuse
        self.temperature = temperature
        self.mast = mast
        self.mast_epsilon = mast_epsilon
        self.prior = prior  # the root's actions judged first by `normal` (guide.py)
        self.widen = widen  # progressive widening (guide.py), None: every legal action is tried
        self.keep_move = keep_move  # rollouts in which each seat prefers to keep the move (guide.py)
        self.belief = belief  # determinizations weighted by an opponent model of hidden sides (belief.py)
        self.solve = solve  # prove wins and losses where the game allows it (MCTS-Solver, above)
        self._solvable = None  # (game, whether it can be solved)
        self._belief = None
        self._judge = None
        self._prior = None  # action -> prior in [0, 1] at the decision being searched
        self._ev = None
        self._last = None  # (decision, root, action played)
        self.last_values = None  # (action, visits, total value) of each root action at the last decision
        self.stats = {"iterations": 0, "seconds": 0.0, "reused": 0, "decisions": 0}

    def evaluator(self, game) -> Evaluator:
        if self._ev is None or self._ev.game is not game:
            self._ev = Evaluator(game, self.temperature)
        return self._ev

    # ---- one decision ----------------------------------------------------------------------

    def act(self, decision: Decision) -> Action:
        actions = decision.actions
        if len(actions) == 1:
            self.forget()
            return actions[0]
        root = self.think(decision)
        table, secret = self.root_table(root, decision.seat)
        best = self.mixed_action(table, actions) if secret else self.best_action(table, actions)
        self.settle(decision, root, best)
        return best

    def think(self, decision: Decision) -> Node:
        """Search `decision` (from the node the game reached in the kept tree, when found) until the
        budget is spent (a time budget counts from here: finding the node takes from it); returns the root."""
        start = time.perf_counter()
        deadline = start + self.seconds if self.seconds else None
        if self.belief:
            self.beliefs(decision.seat).update(decision)
        root = self._reused_root(decision) if self.reuse else None
        self._prior = None  # computed at the root's first turn-based visit (never at a secret choice)
        if root is None:
            root = Node(None)
        else:
            self.stats["reused"] += 1
        n = self.search(decision, root, deadline=deadline)
        self.stats["iterations"] += n
        self.stats["seconds"] += time.perf_counter() - start
        self.stats["decisions"] += 1
        return root

    def solving(self, game) -> bool:
        """Whether the search proves outcomes in `game`: two seats, no chance, nothing hidden."""
        if not self.solve:
            return False
        if self._solvable is None or self._solvable[0] is not game:
            self._solvable = (game, game.num_players == 2 and deterministic(game) and perfect_information(game))
        return self._solvable[1]

    def judge(self) -> GreedyAgent:
        """The `normal` agent whose judgement is the root's prior (its own seed, from this agent's)."""
        if self._judge is None:
            self._judge = GreedyAgent(derived_seed(self.seed, 1), iterations=GUIDE_SAMPLES)
        return self._judge

    def beliefs(self, seat: int) -> Belief:
        """The opponent model of this agent's seat (its own seed, from this agent's)."""
        if self._belief is None or self._belief.seat != seat:
            self._belief = Belief(seat, derived_seed(self.seed, 2))
        return self._belief

    @staticmethod
    def root_table(root: Node, seat: int) -> tuple[dict, bool]:
        """The root's children `seat` chooses among, and whether that is a secret choice (decoupled)."""
        return root.choices(seat), root.sim is not None and seat in root.sim

    def settle(self, decision: Decision, root: Node, played: Action) -> None:
        """Remember the tree and the action played at `decision` (the tree is reused from there)."""
        mine = root.choices(decision.seat)
        self.last_values = tuple((a, mine[a].visits, mine[a].total) if a in mine else (a, 0, 0.0)
                                 for a in decision.actions)
        self._last = (decision, root, played) if self.reuse else None
        if self._belief is not None:
            self._belief.played(decision, played)

    def forget(self) -> None:
        """A decision without choice: the kept tree is not followed past it."""
        self._last = self.last_values = None

    @staticmethod
    def best_action(children: dict, actions) -> Action:
        """The most visited action (then the best valued); before that, a proven win of the seat to
        move, and a proven loss only when every action is one."""
        best, key = actions[0], None
        for a in actions:
            ch = children.get(a)
            k = (ch.rank(), ch.visits, ch.total / ch.visits) if ch is not None and ch.visits else (1, 0, 0.0)
            if key is None or k > key:
                best, key = a, k
        return best

    def mixed_action(self, table: dict, actions) -> Action:
        """A secret choice: drawn among the root's actions visited at least SIM_PURIFY times as often
        as the most visited one, in proportion to their visits."""
        visits = [table[a].visits if a in table else 0 for a in actions]
        top = max(visits)
        if top <= 0:
            return self.best_action(table, actions)
        kept = [(a, x) for a, x in zip(actions, visits) if x >= SIM_PURIFY * top]
        r = self.rng.random() * sum(x for _, x in kept)
        for a, x in kept:
            r -= x
            if r < 0:
                return a
        return kept[-1][0]

    def search(self, decision: Decision, root: Node, *, deadline: float | None = None) -> int:
        """Run iterations from `root` until the budget is spent (the iterations, or the time until
        `deadline`, by default the time budget from now); return how many ran."""
        game = decision.game
        rng = self.rng
        ev = self.evaluator(game)
        values = ev.values
        depth_cap = FLAT_DEPTH_FACTOR * self.rollout_depth
        apply = game.apply_in_place
        legal = game.legal_actions
        current = game.current_player
        over = game.is_terminal
        chance = game.is_chance
        waiting, rewind = game.simultaneous.waiting, game.simultaneous.rewind
        log, sqrt = math.log, math.sqrt
        c = self.c
        avail = self.availability
        depth_max = self.rollout_depth
        iterations = self.iterations
        if deadline is None and self.seconds:
            deadline = time.perf_counter() + self.seconds
        mast = {} if self.mast else None  # seat -> {Action -> [sum of values, count]}: MAST, this decision's
        prior, widen, keep = self._prior, self.widen, self.keep_move
        want_prior = self.prior and prior is None
        draw = self._belief.sample if self.belief else None
        solve = self.solving(game)
        bias = PRIOR_WEIGHT
        eps = self.mast_epsilon
        moves = []
        n = 0
        while True:
            if iterations is not None and n >= iterations:
                break
            if deadline is not None and n > 0 and time.perf_counter() >= deadline:
                break
            if root.proven is not None and n > 0:  # solved: nothing more to learn
                break
            st = decision.sample(rng) if draw is None else draw(decision, rng)
            rewind(st)  # a decision inside a simultaneous step: the seats before it choose again, below
            node = root
            path = []
            moves.clear()
            known = None  # solving: the proven outcome the selection reached, backed up without a rollout
            while not over(st):  # selection, then expansion of one node
                if chance(st):  # explicit chance: an outcome sampled, no node (every outcome is equally likely)
                    acts = legal(st)
                    apply(st, acts[rng.randrange(len(acts))], checked=False)
                    continue
                seats = waiting(st)
                if seats:  # a simultaneous step: every seat of it chooses here, decoupled
                    node, added = self._joint(game, st, node, len(seats), path)
                    if added:
                        break
                    continue
                p = current(st)
                acts = legal(st)
                if solve:
                    node.width = len(acts)
                if want_prior and node is root:  # the root's prior, once (the search's generator untouched)
                    cut = None  # with a time budget, the prior takes at most its share of what is left
                    if deadline is not None:
                        now = time.perf_counter()
                        cut = now + PRIOR_SHARE * max(0.0, deadline - now)
                    prior = self._prior = root_prior(self.judge(), decision, deadline=cut)
                    want_prior = False
                children = node.children
                untried = []
                for a in acts:
                    ch = children.get(a)
                    if ch is None:
                        untried.append(a)
                    elif avail:
                        ch.avail += 1
                if untried and (widen is None
                                or len(acts) - len(untried) < allowed_children(node.visits, widen)):
                    if prior is not None and node is root:  # the root widens in the prior's order
                        a = max(untried, key=lambda u: prior.get(u, 0.0))
                    else:
                        a = untried[rng.randrange(len(untried))]
                    ch = children[a] = Node(p)
                    ch.avail = 1
                    apply(st, a, checked=False)
                    path.append(ch)
                    moves.append((p, a))
                    if solve and over(st):
                        known = ch.proven = values(st)
                    break
                best_a, best_ch, best_v = None, None, -1.0
                guided = prior if node is root else None
                ln = log(node.visits) if node.visits else 0.0
                lost = None  # solving: a proven loss, played only when nothing else is left
                for a in acts:
                    ch = children.get(a)
                    if ch is None:  # not tried yet (progressive widening)
                        continue
                    if solve and ch.proven is not None:
                        if ch.proven[p] >= 1.0:  # a proven win: played at once
                            best_a, best_ch = a, ch
                            break
                        if ch.proven[p] <= 0.0:
                            lost = lost or (a, ch)
                            continue
                    v = ch.total / ch.visits + c * sqrt((log(ch.avail) if avail else ln) / ch.visits)
                    if guided is not None:  # progressive bias: the prior, fading with the visits
                        v += bias * guided.get(a, 0.0) / (ch.visits + 1)
                    if v > best_v:
                        best_a, best_ch, best_v = a, ch, v
                if best_a is None:
                    best_a, best_ch = lost
                apply(st, best_a, checked=False)
                path.append(best_ch)
                moves.append((p, best_a))
                node = best_ch
                if solve and best_ch.proven is not None:
                    known = best_ch.proven
                    break
            depth, cut = 0, depth_max
            while known is None and not over(st):  # rollout
                if depth >= cut:  # the cut-off, unless the evaluation has never told the seats apart
                    if ev.informative or cut >= depth_cap:
                        break
                    if not ev.flat(st):
                        ev.informative = True
                        break
                    cut += 1
                acts = legal(st)
                if chance(st):  # a chance outcome is drawn uniformly, and not counted
                    apply(st, acts[rng.randrange(len(acts))], checked=False)
                    continue
                depth += 1
                if keep:  # the seat prefers an action after which it still moves (guide.py)
                    st = keep_moving(game, st, current(st), acts, rng)
                    continue
                if mast is None:
                    apply(st, acts[rng.randrange(len(acts))], checked=False)
                    continue
                p = current(st)
                a = mast_choice(mast.get(p), acts, rng, eps)
                moves.append((p, a))
                apply(st, a, checked=False)
            vals = values(st) if known is None else known
            if solve:
                _prove(root, path)
            if mast is not None:
                for p, a in moves:
                    q = mast.get(p)
                    if q is None:
                        q = mast[p] = {}
                    e = q.get(a)
                    if e is None:
                        q[a] = [vals[p], 1]
                    else:
                        e[0] += vals[p]
                        e[1] += 1
            root.visits += 1
            for ch in path:
                ch.visits += 1
                if ch.mover is not None:
                    ch.total += vals[ch.mover]
            n += 1
        return n

    def _joint(self, game, st, node: Node, count: int, path: list) -> tuple[Node, bool]:
        """Selection through the `count` secret choices of a simultaneous step opened at `node`: each
        seat by UCB1 (over availability counts) on its own statistics at `node`, blind to the choices
        made before it, an action never tried first (drawn at random among them); then the node of
        the joint choice. Returns that node and whether it was just added (the expansion)."""
        rng, c = self.rng, self.c
        apply, legal, current = game.apply_in_place, game.legal_actions, game.current_player
        log, sqrt = math.log, math.sqrt
        tables = node.sim
        if tables is None:
            tables = node.sim = {}
        joint = []
        for _ in range(count):
            s = current(st)
            acts = legal(st)
            table = tables.get(s)
            if table is None:
                table = tables[s] = {}
            untried = []
            for a in acts:
                ch = table.get(a)
                if ch is None:
                    untried.append(a)
                else:
                    ch.avail += 1
            if untried:
                a = untried[rng.randrange(len(untried))]
                ch = table[a] = Node(s)
                ch.avail = 1
            else:
                a, ch, best_v = None, None, -1.0
                for b in acts:
                    e = table[b]
                    v = e.total / e.visits + c * sqrt(log(e.avail) / e.visits)
                    if v > best_v:
                        a, ch, best_v = b, e, v
            path.append(ch)
            apply(st, a, checked=False)
            joint.append(a)
        key = tuple(joint)
        child = node.children.get(key)
        added = child is None
        if added:
            child = node.children[key] = Node(None)
        path.append(child)
        return child, added

    # ---- tree reuse -------------------------------------------------------------------------

    def _reused_root(self, decision: Decision) -> Node | None:
        """The node of the last tree the game has reached, if it can be recognised."""
        if self._last is None:
            return None
        old, root, played = self._last
        game = decision.game
        if old.game is not game or old.seat != decision.seat:
            return None
        start = root.children.get(played)
        if start is None or start.visits < 2:
            return None
        candidates = []
        frontier = [((), start)]
        limit = 3 * game.num_players
        for _ in range(limit + 1):
            nxt = []
            for path, node in frontier:
                if node.visits >= 2:
                    candidates.append((path, node))
                for a, ch in node.children.items():
                    if ch.visits >= 2:
                        nxt.append((path + (a,), ch))
            nxt.sort(key=lambda pn: -pn[1].visits)
            frontier = nxt[:REUSE_CANDIDATES]
            if not frontier:
                break
        want_actions = list(decision.actions)
        apply, legal, current = game.apply_in_place, game.legal_actions, game.current_player
        from .base import observe
        for path, node in candidates[:REUSE_CANDIDATES]:
            for _ in range(REUSE_SAMPLES):
                st = old.sample(self.rng)
                ok = True
                for step in (played,) + path:
                    for a in (step if type(step) is tuple else (step,)):  # a plain tuple: a joint secret
                        # choice (an Action is a tuple too: a NamedTuple, so `isinstance` cannot tell them apart)
                        if game.is_terminal(st) or a not in legal(st):
                            ok = False
                            break
                        apply(st, a, checked=False)
                        sample_chance(game, st, self.rng)
                    if not ok:
                        break
                if not ok:
                    break  # the path is not playable in this sample; try the next node
                if (current(st) == decision.seat and legal(st) == want_actions
                        and observe(game, st, decision.seat) == decision.observation):
                    return node
        return None


__all__ = ["MCTSAgent", "Node", "DEFAULT_ITERATIONS", "DEFAULT_ROLLOUT_DEPTH"]
