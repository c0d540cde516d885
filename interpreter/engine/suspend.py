"""Decisions that stop at a random draw and continue from there (explicit chance, chance.py).

A rule may draw anywhere (inside an expression, a function, a loop of a procedure), so a decision
stopped at a draw cannot be saved as data and resumed the way a pending choice is (the compiler
splits bodies at `choose` only). Instead such a decision runs in a thread of its own (a `Runner`):
at a draw whose outcome is not known yet, the thread tells the caller which draws it waits for and
sleeps; the caller stands at a chance node; the outcome, once chosen, wakes the thread, which goes
on from where it stopped. The decision runs once, however many draws it makes.

The thread is only a shortcut: the chance node keeps, as data, the decision and its outcomes so
far, and whoever applies an outcome to a state whose thread is gone (taken by a clone of the node,
dropped, lost in a fork, or never started because too many wait) runs the decision again from its
start with those outcomes, as before (the rules are deterministic given them). A waiting thread no
state can reach any more is told to give up: its rules unwind and it waits for the next decision.
"""
from __future__ import annotations

import contextvars
import os
import threading
from queue import SimpleQueue

__all__ = ["Suspended", "start", "handoff", "MAX_WAITING"]

MAX_WAITING = 32  # threads at most, waiting or running; beyond, decisions run again from their start
_ABANDON = object()


class _GiveUp(BaseException):
    """Raised in a waiting decision that no state can reach: no rule handler may catch it."""


class Suspended:
    """A decision stopped at a draw, its thread waiting for the outcomes: the `have` first ones
    it knows. Taken by the first state that applies an outcome (clones of the chance node share
    it); dropped unused, it tells its thread to give up."""

    __slots__ = ("runner", "work", "have", "taken", "pid", "__weakref__")

    def __init__(self, runner: "_Runner", work: dict, have: int):
        self.runner, self.work, self.have = runner, work, have
        self.taken = False
        self.pid = os.getpid()

    def take(self) -> bool:
        """Whether this caller may continue the decision (only once, only in this process)."""
        if self.taken or self.pid != os.getpid():
            return False
        self.taken = True
        return True

    def resume(self, outcomes: list):
        """Hand the thread the outcomes it lacks (of `outcomes`, every one of the decision's so
        far); what it answers (see `start`)."""
        r = self.runner
        r.inbox.put(outcomes[self.have:])
        return r.answer(self.work)

    def __deepcopy__(self, memo):
        return self  # a copy of a chance node shares the one thread

    def __del__(self):
        if not self.taken and self.pid == os.getpid():
            self.runner.inbox.put(_ABANDON)  # SimpleQueue.put may be called from __del__


class _Runner:
    """One thread running decisions, one at a time."""

    def __init__(self):
        self.inbox: SimpleQueue = SimpleQueue()
        self.outbox: SimpleQueue = SimpleQueue()
        threading.Thread(target=self._loop, daemon=True, name="interpret-chance").start()

    def _loop(self):
        while True:
            context, fn, feed = self.inbox.get()
            feed.pause = self._pause
            try:
                answer = ("done", context.run(fn))
            except _GiveUp:
                answer = None
            except BaseException as e:  # handed to the caller, who raises it
                answer = ("error", e)
            finally:
                feed.pause = None
            _release(self)
            if answer is not None:
                self.outbox.put(answer)

    def _pause(self, draws: list, outcomes: list) -> None:
        """In the thread: wait for the outcomes of `draws`, appended to `outcomes`."""
        self.outbox.put(("need", draws))
        got = self.inbox.get()
        if got is _ABANDON:
            raise _GiveUp()
        outcomes.extend(got)

    def answer(self, work: dict):
        """What the decision comes to: ("done", its result), ("need", draws, Suspended) or it
        raises the decision's error."""
        got = self.outbox.get()
        if got[0] == "done":
            return got
        if got[0] == "error":
            raise got[1]
        return ("need", got[1], Suspended(self, work, len(work["_feed"].outcomes)))


_idle: list[_Runner] = []
_count = [0]
_lock = threading.Lock()


def _take() -> _Runner | None:
    with _lock:
        if _idle:
            return _idle.pop()
        if _count[0] >= MAX_WAITING:
            return None
        _count[0] += 1
    return _Runner()


def _release(runner: _Runner) -> None:
    with _lock:
        _idle.append(runner)


def _forget_after_fork() -> None:  # a forked child has none of its parent's threads
    global _lock
    _idle.clear()
    _count[0] = 0
    _lock = threading.Lock()


os.register_at_fork(after_in_child=_forget_after_fork)


_handoff: list = []


def handoff() -> float:
    """The seconds one hand-off to a waiting thread and back costs here (measured once: the least
    of a few), what a decision continued in a thread pays at its start and at each draw."""
    if not _handoff:
        from time import perf_counter
        from ..runtime.draws import Feed
        best = float("inf")
        for _ in range(8):
            work = {"_feed": Feed([])}
            t0 = perf_counter()
            answer = start(lambda: work["_feed"].next(2, "a coin"), work)
            if answer is None:  # every thread taken: a thread is not to be had
                return float("inf")
            answer[2].take()
            answer[2].resume([0])
            best = min(best, (perf_counter() - t0) / 2)
        _handoff.append(best)
    return _handoff[0]


def start(fn, work: dict):
    """Run `fn()` (a decision on `work`, whose `_feed` gives its draws) in a thread that waits at
    a draw not known yet: ("done", result), ("need", draws, Suspended) or the decision's error
    raised; None when every thread is taken (run it here instead)."""
    runner = _take()
    if runner is None:
        return None
    runner.inbox.put((contextvars.copy_context(), fn, work["_feed"]))
    return runner.answer(work)
