"""Explicit chance: the forward model stops at each random draw, a chance node (see
runtime/draws.py for how every random event is one draw). A state at a chance node is the state
before the decision being resolved, with `flow["node"]`: the decision and its outcomes so far.

A decision stopped at a draw runs again from its start once the outcome is applied, with the
outcomes so far, until its next draw or its end: the rules are deterministic given them. Where
that is known to cost more, it runs again in a thread of its own (suspend.py) that waits at each
later draw: applying an outcome then continues it from where it stopped, so it runs twice however
many draws it makes. A thread's hand-off costs about what a cheap decision costs to run again, so
which do is learnt by name (`_Tally`: how many draws decisions of that name make after their
first, what a run of one to a draw costs, against the hand-offs, suspend.handoff): Agents Secrets'
round ends (a small shuffle after another) do, Leduc's cheap deals do not. Without its thread (a
copy of the node took it, or too many wait), applying an outcome runs the decision again.

Draws known to follow one another with nothing in between (the n - 1 steps of a shuffle, the
dice of one roll: runtime/draws.py) are known when the first stops the decision: the node keeps
them (`more`), and their outcomes are only noted, one chance node each, until the last; then the
decision goes on.

The rules note, in explicit chance only, the piles no seat sees whose order they changed (a
shuffle, a card put in: `flow["stirred"]`, runtime/draws.stir): every other such pile holds its
cards in the order they started in, fewer of them (`ordered_piles`), which a state drawn from a
seat's information state keeps (the OpenSpiel adapter)."""
from __future__ import annotations

import weakref
from time import perf_counter

from ..core.model import Action, Step
from ..core.state import NO_NOTES, NOTES, Notes, clone, touch
from ..errors import IllegalActionError, RefusalKind
from ..runtime.draws import CHANCE, EXPLICIT, STIRRED, Feed, NeedChance
from . import suspend

__all__ = ["outcomes_bound", "node", "outcome_actions", "outcome_of", "run_explicit", "ordered_piles", "put_in_order"]


def outcomes_bound(m) -> int:
    """A bound on the outcomes of one chance node, for adapters that declare one: a shuffle of
    every card of the game, or a die / random(n) up to 100 outcomes."""
    return max(len(m.cards), 100)


# ---- explicit mode: the forward model stops at each draw --------------------------------

def ordered_piles(game, st) -> tuple:
    """The ids of the zones of explicit-chance state `st` that no seat sees and whose order the
    rules never changed (runtime/draws.stir: no shuffle, no card put in): each holds its cards in
    the order they started in, card order (core/state.new_state), fewer of them, and every seat
    knows that order. A state drawn from a seat's information state may deal the unseen cards
    among those places again and put each such pile back in card order: only what was dealt
    unseen so far is drawn (Leduc poker's deck: the five cards a seat does not see make five
    states, not 120 orders). Outside explicit chance nothing is noted: none."""
    flow = st["flow"]
    if flow.get("chance") != EXPLICIT:
        return ()
    stirred = flow.get(STIRRED, ())
    zl = st["z"]
    return tuple(z.id for z in game.catalog.zones
                 if z.visibility == "hidden" and z.id not in stirred and len(zl[z.id]) > 1)


def put_in_order(game, ids) -> tuple:
    """`ids`, the cards of a pile `ordered_piles` names in a state drawn from a seat's information
    state, in card order; the cards of each back keep the places of that back, which the seat sees
    (observation.observe: a face-down card's back): the sample's pile holds, back for back, the
    cards the determinization dealt there."""
    cards = game.catalog.cards
    backs = [cards[c].back for c in ids]
    first = backs[0]
    if all(b == first for b in backs):
        return tuple(sorted(ids))
    by_back: dict = {}
    for c, b in zip(ids, backs):
        by_back.setdefault(b, []).append(c)
    for group in by_back.values():
        group.sort(reverse=True)
    return tuple([by_back[b].pop() for b in backs])


def node(st):
    """The chance node `st` stands at (a dict, see the module's doc), or None."""
    return st["flow"].get("node")


def outcome_actions(st):
    nd = st["flow"]["node"]
    return [Action("chance", (str(k),)) for k in range(nd["n"])]


def outcome_of(st, action) -> int:
    """The outcome an action `chance K` picks at the chance node of `st`, checked."""
    nd = st["flow"]["node"]
    if action.name != "chance" or len(action.args) != 1:
        raise IllegalActionError(action, f"a chance event is pending ({nd['what']}): play `chance K`, "
                                         f"K from 0 to {nd['n'] - 1}", RefusalKind.CHOICE_PENDING)
    k = action.args[0]
    k = int(k) if isinstance(k, str) and k.isdigit() else k
    if type(k) is not int or not 0 <= k < nd["n"]:
        raise IllegalActionError(action, f"{action.args[0]} is not an outcome of {nd['what']}: 0 to {nd['n'] - 1}",
                                 RefusalKind.NOT_AN_OPTION)
    return k


class _Node(dict):
    """A chance node (the data of the module's doc) and, when its decision waits in a thread,
    that thread (suspend.Suspended): not data, never written out; copies of the node share it."""

    __slots__ = ("waiting",)


def _node(data: dict, waiting=None) -> _Node:
    nd = _Node(data)
    nd.waiting = waiting
    return nd


class _Tally:
    """What the decisions of one name (the setup: "") cost a game in explicit mode: how many stopped
    at a draw from their start, their stops in all, and the seconds a run of one takes from its
    start to a draw (a moving average of runs outside a thread that stopped: what a run again costs)."""

    __slots__ = ("drew", "stops", "cost")

    def __init__(self):
        self.drew = self.stops = 0
        self.cost = None

    def worth_a_thread(self, handoff: float) -> bool:
        """Whether a decision of this name that stopped at a draw goes on in a thread when it runs
        again: the runs again it is expected to spare (its stops after the first, on average) cost
        more than the thread's hand-offs (one at its start, one a draw), counted twice: a hand-off
        in a real decision costs more than suspend.handoff's bare one (measured with
        benchmarks/adapter_chance.py). A decision never starts in a thread: most draw seldom, or
        once, and a fresh start in a thread cost Agents Secrets more than it spared."""
        if self.cost is None or not self.drew:
            return False
        more = (self.stops - self.drew) / self.drew
        return more * self.cost > 2 * handoff * (1 + more)

    def measured(self, seconds: float) -> None:
        cost = self.cost
        self.cost = seconds if cost is None else cost + (seconds - cost) / 8


# by game, by the name of a decision: its _Tally
_SEEN: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()


def _tally(game, name: str) -> _Tally:
    seen = _SEEN.get(game)
    if seen is None:
        seen = _SEEN[game] = {}
    tally = seen.get(name)
    if tally is None:
        tally = seen[name] = _Tally()
    return tally


def run_explicit(game, st, action, *, start=None, checked=True):
    """Resolve a decision of an explicit-chance state in place: `action` (or a chance outcome at a
    chance node), or the setup (`start`, a function running it on a state); `checked` as for
    Game.apply_in_place (an outcome's decision was accepted when it stopped: never checked
    again). Returns the Step of
    the decision once it ran to its end, or a Step without events when it stopped at a draw.

    A decision (the setup too) runs here to its first draw. When it runs again after it, it does
    so in a thread that waits at each later draw (suspend.py) only where that is known to cost
    less than running it again at each of them (its name's _Tally); then an outcome continues it
    from where it stopped. Else, or when its thread is gone, it runs again from its start here (a
    search that tries every outcome of a node from copies of it runs all but the first again)."""
    nd = node(st)
    if nd is not None and start is None:
        outcomes = nd["outcomes"] + [outcome_of(st, action)]
        do = nd["do"]
        more = nd.get("more")
        waiting = getattr(nd, "waiting", None)
        if more:  # the next draw is known: no rule runs until the last of them
            flow = dict(st["flow"])
            flow["node"] = _node({"do": do, "outcomes": outcomes, "n": more[0][0], "what": more[0][1],
                                  "more": more[1:]}, waiting)
            st["flow"] = flow
            touch(st)
            return Step(action, CHANCE, [])
        tally = _tally(game, "" if do is None else Action.parse(do).name)
        if waiting is not None and waiting.take():  # the decision waits at this draw: it goes on
            return _answered(st, action, do, outcomes, waiting.resume(outcomes), waiting.work, tally)
    else:
        outcomes = []
        do = None  # the decision as the node keeps it, written when it stops (str(action))
        tally = None  # its name's _Tally: asked only if it stops (a fresh decision never starts in a thread)
    bound = getattr(game, "chance_bound", None)
    work = clone(st)
    if nd is None and (notes := st.get(NOTES, NO_NOTES)) is not NO_NOTES:
        # a fresh decision: what the forward model noted of `st` holds for its copy (Game.apply)
        work[NOTES] = carried = Notes(notes.listing, notes.seat, notes.options)
        carried.sim = notes.sim
    else:
        work["flow"].pop("node", None)
    work["_feed"] = Feed(outcomes, bound)
    if start is not None or (nd is not None and do is None):
        def decide():
            game._start(work)
            return Step(Action("setup"), None, [])
    else:
        act, trusted = (action, checked) if nd is None else (Action.parse(do), False)

        def decide():
            return game._apply_plain(work, act, trusted)
    if outcomes and tally.worth_a_thread(suspend.handoff()):
        answer = suspend.start(decide, work)
        if answer is not None:
            return _answered(st, action, do, outcomes, answer, work, tally)
    t0 = perf_counter()
    try:
        step = decide()
    except NeedChance as e:
        if tally is None:
            tally = _tally(game, "" if start is not None else action.name)
        tally.measured(perf_counter() - t0)
        tally.stops += 1
        if not outcomes:
            tally.drew += 1
        if nd is None and start is None:
            do = str(action)
        _stop(st, do, outcomes, [[e.n, e.what]] + e.more, None)
        return Step(action, CHANCE, [])
    finally:
        work.pop("_feed", None)
    st.clear()
    st.update(work)  # with what the forward model noted of it (its listing): it ran through the forward model
    return step


def _stop(st, do, outcomes, draws, waiting) -> None:
    """Stand `st` at the chance node of the first of `draws` (the others follow it at once)."""
    flow = dict(st["flow"])
    flow["node"] = _node({"do": do, "outcomes": outcomes, "n": draws[0][0], "what": draws[0][1],
                          "more": draws[1:]}, waiting)
    st["flow"] = flow
    touch(st)


def _answered(st, action, do, outcomes, answer, work, tally: _Tally):
    """`st` after what a decision running in its thread answered (suspend.start)."""
    if answer[0] == "need":
        tally.stops += 1
        if not outcomes:
            tally.drew += 1
        _, draws, waiting = answer
        _stop(st, do, list(outcomes), draws, waiting)
        return Step(action, CHANCE, [])
    work.pop("_feed", None)
    st.clear()
    st.update(work)
    return answer[1]
