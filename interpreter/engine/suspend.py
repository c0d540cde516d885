"""Decisions that stop at a random draw and continue from there (explicit chance, chance.py).

A rule may draw anywhere (inside an expression, a function, a loop of a procedure), so a decision
stopped at a draw cannot be saved as data and resumed the way a pending choice is (the compiler
splits bodies at `choose` only). Instead a decision runs in a greenlet of its own (a worker, one
of a pool per thread: a fresh greenlet costs ten times a switch): at a draw whose outcome is not
known yet, the worker switches back to the caller with the draws it waits for; the caller stands
at a chance node; the outcome, once chosen, switches into the worker, which goes on from where it
stopped. The decision runs once, however many draws it makes; a switch there and back costs about
a microsecond.

The greenlet is only a shortcut: the chance node keeps, as data, the decision and its outcomes so
far, and whoever applies an outcome to a state whose worker is gone (taken by another copy of the
node, lost in a fork, in another thread, or greenlet not installed: `start` answers None) runs the
decision again from its start with those outcomes (the rules are deterministic given them). A
waiting worker no state can reach any more is told to give up (`_GiveUp`, a BaseException no rule
handler catches) before the next decision starts in that thread: its rules unwind, their `finally`
blocks run, and it waits for the next decision. A worker collected by greenlet itself (its thread
gone, the program ending) unwinds the same way under greenlet's GreenletExit.

A decision sees the context variables (contextvars: the language spoken, ...) of whoever started
it, copied then, as it would running in place; what it sets stays in its own copy.
"""
from __future__ import annotations

import contextvars
import os
import threading

try:
    from greenlet import GreenletExit, getcurrent as _current, greenlet as _greenlet
except ImportError:  # greenlet is optional (the openspiel and pettingzoo extras): decisions run again
    _greenlet = None

__all__ = ["Suspended", "start", "available"]

_pid = [os.getpid()]
os.register_at_fork(after_in_child=lambda: _pid.__setitem__(0, os.getpid()))


def available() -> bool:
    """Whether decisions can wait at a draw here (greenlet installed)."""
    return _greenlet is not None


class _GiveUp(BaseException):
    """Raised in a waiting decision that no state can reach: no rule handler may catch it."""


class _Workers(threading.local):
    """This thread's workers: those idle, and those waiting at a draw no state can reach any more."""

    def __init__(self):
        self.idle: list = []
        self.dropped: list = []


_workers = _Workers()


class Suspended:
    """A decision stopped at a draw, its worker waiting for the outcomes: the `have` first ones it
    knows. Taken by the first state that applies an outcome (copies of the chance node share it);
    dropped unused, its worker gives up before the next decision of its thread starts."""

    __slots__ = ("worker", "work", "have", "taken", "pid", "dropped")

    def __init__(self, worker, work: dict, have: int, dropped: list):
        self.worker, self.work, self.have, self.dropped = worker, work, have, dropped
        self.taken = False
        self.pid = _pid[0]

    def take(self) -> bool:
        """Whether this caller may continue the decision (only once, in this process and thread)."""
        if self.taken or self.pid != _pid[0] or self.dropped is not _workers.dropped:
            return False
        self.taken = True
        return True

    def resume(self, outcomes: list):
        """Hand the worker the outcomes it lacks (of `outcomes`, every one of the decision's so
        far); what it answers (see `start`)."""
        worker = self.worker
        worker.parent = _current()
        return _answer(worker.switch(outcomes[self.have:]), worker, self.work)

    def __deepcopy__(self, memo):
        return self  # a copy of a chance node shares the one worker

    def __del__(self):
        if not self.taken and self.pid == _pid[0]:
            self.dropped.append(self.worker)  # list.append may be called from __del__, any thread


def _work(fn, feed):
    """A worker's life: run decisions one after the other, each `fn()` with its `feed` pausing at a
    draw not known yet; answer each to whoever switched it in."""
    me, idle = _current(), _workers.idle  # a greenlet lives in the thread it started in
    while True:
        feed.pause = _pause
        try:
            answer = ("done", fn())
        except _GiveUp:
            answer = None
        except GreenletExit:
            raise
        except BaseException as e:  # handed to the caller, who raises it
            answer = ("error", e)
        finally:
            feed.pause = None
        fn = feed = None
        idle.append(me)
        fn, feed = me.parent.switch(answer)


def _pause(draws: list, outcomes: list) -> None:
    """In a worker: wait for the outcomes of `draws`, appended to `outcomes`."""
    outcomes.extend(_current().parent.switch(("need", draws)))


def _answer(got, worker, work: dict):
    """What the decision comes to: ("done", its result), ("need", draws, Suspended) or it raises
    the decision's error."""
    if got[0] == "need":
        return ("need", got[1], Suspended(worker, work, len(work["_feed"].outcomes), _workers.dropped))
    if got[0] == "error":
        raise got[1]
    return got


def start(fn, work: dict):
    """Run `fn()` (a decision on `work`, whose `_feed` gives its draws) in a worker that waits at
    a draw not known yet: ("done", result), ("need", draws, Suspended) or the decision's error
    raised; None without greenlet (run it here instead)."""
    if _greenlet is None:
        return None
    workers = _workers
    here = _current()
    if workers.dropped:
        _give_up(workers.dropped, here)
    idle = workers.idle
    worker = idle.pop() if idle else _greenlet(_work)
    worker.parent = here
    worker.gr_context = contextvars.copy_context()
    return _answer(worker.switch(fn, work["_feed"]), worker, work)


def _give_up(dropped: list, here) -> None:
    """Unwind the workers waiting where no state can reach (their rules' `finally` blocks run):
    back to idle."""
    while dropped:
        worker = dropped.pop()
        if not worker.dead:
            worker.parent = here
            worker.throw(_GiveUp)
