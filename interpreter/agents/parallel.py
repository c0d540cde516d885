"""Root-parallel search: one search agent per core, their root statistics merged (`ismcts:1s@2`).

    agent = make_agent("ismcts:0.3s@2", seed=7)   # two workers, 0.3 s each, at the same time

Worker 0 searches in this process; workers 1..N-1 are child processes, started at the first
decision (forked: they inherit the loaded game) and kept for the game, each holding its own
`mcts`/`ismcts` agent with a seed of its own (worker 0's is the agent's seed, so `ismcts@1` plays
as `ismcts`). At each decision every worker searches the same decision from its own samples
(its own determinizations, its own dice); the visits and values of the root's actions are summed,
and the action is chosen from the sums as one agent chooses from its own (the most visited; a
secret choice drawn among the most visited). Each worker keeps its tree and is told the action
played, so tree reuse goes on in every worker.

The budget is each worker's: `ismcts:500@2` runs 500 iterations in each of two workers, `ismcts:0.3s@2`
thinks 0.3 s in each, side by side. With a budget in iterations the play is the same for a given
seed and number of workers, whether the workers run in processes or one after the other in this
process (which is what happens where a process may not start children: inside a
multiprocessing pool's worker, or where `fork` is not available).

A worker only ever sees the decision (Decision.portable: what `sample` draws from), as a search
in this process does.
"""
from __future__ import annotations

import multiprocessing
import os
import signal
import weakref

from ..core.model import Action
from .base import Agent, Decision, restore_decision
from .mcts import MCTSAgent

SEED_STRIDE = 0x9E37_79B9  # worker i's seed: the agent's + i * SEED_STRIDE (mod 2**48)


def worker_seed(seed: int, index: int) -> int:
    return (seed + index * SEED_STRIDE) & 0xFFFF_FFFF_FFFF


def cores() -> int:
    """The cores this process may run on."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)


def can_fork() -> bool:
    """Whether this process may start worker processes that inherit the loaded game."""
    return "fork" in multiprocessing.get_all_start_methods() and not multiprocessing.current_process().daemon


def _serve(conn, game, make, seed: int) -> None:
    """A worker process: search the decisions it is sent, report the root's statistics (or do the
    `work` of another agent's worker: `make(seed)` builds what answers the messages). Ctrl-C at
    the table is the player's process's to handle: the worker ignores it, and ends quietly when
    that process goes."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    agent = make(seed)
    while True:
        try:
            msg = conn.recv()
        except (EOFError, OSError):
            break
        if msg is None:
            break
        kind, body = msg
        if kind == "played":
            agent.settle_played(body)
        elif kind == "forget":
            agent.forget()
        else:  # "search": a decision; "work": a decision and the job (agents/rollout.py)
            if kind == "work":
                reply = agent.work(restore_decision(game, body[0]), body[1])
            else:
                reply = agent.root_statistics(restore_decision(game, body))
            try:
                conn.send(reply)
            except (EOFError, OSError):  # the player's process is gone
                break
    conn.close()


class Searcher:
    """One worker's agent, with the two calls the parallel agent needs."""

    def __init__(self, agent: MCTSAgent):
        self.agent = agent
        self._pending = None  # (decision, root) searched, waiting for the action played

    def root_statistics(self, decision: Decision) -> tuple:
        """Search `decision`; per legal action (in the decision's order), (visits, total value, what is
        proven of it: Node.rank), and whether the seat's choice there is secret (decoupled), and the iterations run."""
        before = self.agent.stats["iterations"]
        root = self.agent.think(decision)
        table, secret = self.agent.root_table(root, decision.seat)
        self._pending = (decision, root)
        stats = tuple((table[a].visits, table[a].total, table[a].rank()) if a in table else (0, 0.0, 1)
                      for a in decision.actions)
        return stats, secret, self.agent.stats["iterations"] - before

    def settle_played(self, action: Action) -> None:
        if self._pending is not None:
            decision, root = self._pending
            self.agent.settle(decision, root, action)
            self._pending = None

    def forget(self) -> None:
        self._pending = None
        self.agent.forget()


def _searcher(cls, options: dict, seed: int) -> Searcher:
    return Searcher(cls(seed, **options))


class _Remote:
    """A worker process and its end of the pipe."""

    def __init__(self, ctx, game, make, seed: int):
        self.conn, child = ctx.Pipe()
        self.process = ctx.Process(target=_serve, args=(child, game, make, seed), daemon=True)
        self.process.start()
        child.close()

    def send(self, msg) -> None:
        self.conn.send(msg)

    def recv(self):
        return self.conn.recv()

    def close(self) -> None:
        try:
            self.conn.send(None)
            self.conn.close()
        except (OSError, EOFError, BrokenPipeError):
            pass
        self.process.join(timeout=2)
        if self.process.is_alive():
            self.process.terminate()


class _Local:
    """A worker run in this process, when no worker process may start: same seed, same play."""

    def __init__(self, searcher: Searcher):
        self.searcher = searcher
        self._reply = None

    def send(self, msg) -> None:
        kind, body = msg
        if kind == "played":
            self.searcher.settle_played(body)
        elif kind == "forget":
            self.searcher.forget()
        else:
            self._reply = self.searcher.root_statistics(body[0])  # the decision itself, not its copy

    def recv(self):
        reply, self._reply = self._reply, None
        return reply

    def close(self) -> None:
        pass


def start_workers(game, make, seeds: list) -> list:
    """A forked worker process per seed, each answering with `make(seed)` (call where can_fork())."""
    ctx = multiprocessing.get_context("fork")
    return [_Remote(ctx, game, make, seed) for seed in seeds]


def close_workers(workers: list) -> None:
    """Stop the worker processes of `workers` (and empty it)."""
    for w in workers:
        w.close()
    workers.clear()


class ParallelAgent(Agent):
    """`workers` searches of `base` (an MCTSAgent class) on one decision, merged at the root."""

    keeps_decisions = True

    def __init__(self, base: type, seed: int = 0, *, workers: int, processes: bool = True, **options):
        super().__init__(seed)
        if workers < 1:
            raise ValueError("a parallel search needs at least one worker")
        self.base = base
        self.kind = base.kind
        self.workers = workers
        self.processes = processes
        self.options = options
        self.local = _searcher(base, options, seed)  # worker 0
        self._game = None
        self._others: list = []
        self._finalizer = weakref.finalize(self, close_workers, self._others)
        self.last_values = None
        self.stats = {"iterations": 0, "decisions": 0, "workers": workers}

    def __repr__(self) -> str:
        return f"ParallelAgent({self.kind}, seed={self.seed}, workers={self.workers})"

    @property
    def in_processes(self) -> bool:
        """Whether the other workers run in processes of their own (else one after the other here)."""
        return bool(self._others) and isinstance(self._others[0], _Remote)

    def _start(self, game) -> None:
        close_workers(self._others)
        self.local.agent.evaluator(game)  # a missing or bad evaluation file fails here, before a worker starts
        self._game = game
        if self.processes and can_fork():
            self._others.extend(start_workers(game, _Maker(self.base, self.options),
                                              [worker_seed(self.seed, i) for i in range(1, self.workers)]))
        else:
            self._others.extend(_Local(_searcher(self.base, self.options, worker_seed(self.seed, i)))
                                for i in range(1, self.workers))

    def close(self) -> None:
        """Stop the worker processes (they stop with this process anyway)."""
        close_workers(self._others)
        self._game = None

    def _tell(self, msg, local_msg=None) -> None:
        """Send `msg` to every worker process (`local_msg`, if given, to the workers run here)."""
        for w in list(self._others):
            try:
                w.send(local_msg if local_msg is not None and isinstance(w, _Local) else msg)
            except (EOFError, OSError):
                self._drop(w)

    def _drop(self, worker) -> None:
        self._others.remove(worker)
        worker.close()

    def act(self, decision: Decision) -> Action:
        actions = decision.actions
        if len(actions) == 1:
            self.local.forget()
            self._tell(("forget", None))
            self.last_values = None
            return actions[0]
        if decision.game is not self._game:
            self._start(decision.game)
        payload = decision.portable()
        self._tell(("search", payload), ("search", (decision,)))
        stats, secret, iterations = self.local.root_statistics(decision)
        visits = [v for v, _, _ in stats]
        totals = [t for _, t, _ in stats]
        ranks = [r for _, _, r in stats]
        done = iterations
        for w in list(self._others):
            try:
                their, _, n = w.recv()
            except (EOFError, OSError):  # a worker process gone (killed, out of memory): play on without it
                self._drop(w)
                continue
            done += n
            for i, (v, t, r) in enumerate(their):
                visits[i] += v
                totals[i] += t
                if r != 1 and ranks[i] == 1:  # a proof is exact: a worker that found one is believed
                    ranks[i] = r
        table = {a: _Merged(v, t, r) for a, v, t, r in zip(actions, visits, totals, ranks) if v}
        best = self.local.agent.mixed_action(table, actions) if secret else MCTSAgent.best_action(table, actions)
        self.local.settle_played(best)
        self._tell(("played", best))
        self.last_values = tuple(zip(actions, visits, totals))
        self.stats["iterations"] = done
        self.stats["decisions"] += 1
        return best


class _Merged:
    """A root action's statistics summed over the workers (what best_action and mixed_action read)."""

    __slots__ = ("visits", "total", "proof")

    def __init__(self, visits: int, total: float, proof: int = 1):
        self.visits = visits
        self.total = total
        self.proof = proof  # what a worker proved of the action (Node.rank)

    def rank(self) -> int:
        return self.proof


class _Maker:
    """Builds a worker's searcher in the child (a plain object: nothing to pickle under fork)."""

    def __init__(self, base: type, options: dict):
        self.base = base
        self.options = options

    def __call__(self, seed: int) -> Searcher:
        return _searcher(self.base, self.options, seed)


__all__ = ["ParallelAgent", "cores", "can_fork", "worker_seed", "start_workers", "close_workers"]
