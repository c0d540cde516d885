"""Explicit chance: the forward model stops at each random draw, a chance node (see
runtime/draws.py for how every random event is one draw). A state at a chance node is the state
before the decision being resolved, with `flow["node"]`: the decision and its outcomes so far.

A decision that may draw (the setup, one whose name drew before) runs in a greenlet of its own
(suspend.py) that waits at each draw not known yet: applying the outcome continues it from where
it stopped, so it runs once however many draws it makes (a start there costs ~2 us, which a
decision that never draws is spared: it runs in place). The node stays data: where its greenlet
is gone (another copy of the node took it, a written-out state read back, another process) or
greenlet is not installed, applying an outcome runs the decision again from its start with the
outcomes so far (and on in a greenlet from there): the rules are deterministic given them, so
both give the same state.

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
from copy import deepcopy

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
    """A chance node (the data of the module's doc) and, when its decision waits in a greenlet,
    that greenlet (suspend.Suspended): not data, never written out; copies of the node share it."""

    __slots__ = ("waiting",)

    def __reduce__(self):  # pickled: the data alone (a greenlet is not data: it runs again there)
        return (_node, (dict(self),))

    def __deepcopy__(self, memo):  # a deep copy of the node shares the one greenlet
        return _node(deepcopy(dict(self), memo), self.waiting)


def _node(data: dict, waiting=None) -> _Node:
    nd = _Node(data)
    nd.waiting = waiting
    return nd


_OUTCOMES = {str(k): k for k in range(4096)}  # an outcome's text -> the outcome, for the frequent ones

_FRESH = object()  # a fresh decision's `do`, written (str(action)) only if it stops

# by game, the names of the decisions that stopped at a draw: those start in a greenlet
_DREW: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()


def run_explicit(game, st, action, *, start=None, checked=True):
    """Resolve a decision of an explicit-chance state in place: `action` (or a chance outcome at a
    chance node), or the setup (`start`, a function running it on a state); `checked` as for
    Game.apply_in_place (an outcome's decision was accepted when it stopped: never checked
    again). Returns the Step of the decision once it ran to its end, or a Step without events when
    it stopped at a draw.

    A decision runs in a greenlet that waits at each draw not known yet (suspend.py): an outcome
    continues it from where it stopped. Only those that may draw do: the setup, and a decision
    whose name stopped at a draw before in this game; another runs here, and if it does stop at a
    draw (the first of its name to), its first outcome runs it again from its start, in a greenlet
    that goes on from there. So does an outcome whose greenlet is gone (another copy of the node
    took it: a search trying every outcome of a node from copies of it). Without greenlet, each
    outcome runs the decision again from its start with the outcomes so far."""
    nd = st["flow"].get("node")
    if nd is not None and start is None:
        args = action.args  # `chance K`, K a digit string below the node's outcomes; else checked
        k = _OUTCOMES.get(args[0]) if action.name == "chance" and len(args) == 1 else None
        outcomes = nd["outcomes"] + [k if k is not None and k < nd["n"] else outcome_of(st, action)]
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
        if waiting is not None and waiting.take():  # the decision waits at this draw: it goes on
            return _answered(st, action, do, outcomes, waiting.resume(outcomes), waiting.work)
    else:
        if start is None and not checked and "sim" in st["flow"] and (step := game._only_recorded(st, action)) is not None:
            return step  # a secret choice only recorded: no rule runs, nothing is drawn, done in place
        outcomes = []
        do = None if start is not None else _FRESH  # the decision as the node keeps it, once it stops
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
    if do is not _FRESH or action.name in _DREW.get(game, ()):
        answer = suspend.start(decide, work)
        if answer is not None:
            return _answered(st, action, do, outcomes, answer, work)
    try:  # without greenlet: to the first draw not known yet, run again from the start at its outcome
        step = decide()
    except NeedChance as e:
        if do is _FRESH:
            drew = _DREW.get(game)
            if drew is None:
                drew = _DREW[game] = set()
            drew.add(action.name)
        _stop(st, str(action) if do is _FRESH else do, outcomes, [[e.n, e.what]] + e.more, None)
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


def _answered(st, action, do, outcomes, answer, work):
    """`st` after what a decision running in its greenlet answered (suspend.start)."""
    if answer[0] == "need":
        _, draws, waiting = answer
        _stop(st, str(action) if do is _FRESH else do, list(outcomes), draws, waiting)
        return Step(action, CHANCE, [])
    work.pop("_feed", None)
    st.clear()
    st.update(work)
    return answer[1]
