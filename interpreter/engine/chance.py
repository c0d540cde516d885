"""Explicit chance: the forward model stops at each random draw, a chance node (see
runtime/draws.py for how every random event is one draw). A state at a chance node is the state
before the decision being resolved, with `flow["node"]`; applying an outcome re-runs that decision
from its start with the outcomes so far, until the next draw or its end.

Draws known to follow one another with nothing in between (the n - 1 steps of a shuffle) are
known when the first stops the decision: the node keeps them (`more`), and their outcomes are
only noted, one chance node each, until the last; then the decision runs again. So a shuffle of
n cards costs one run more, not n - 1."""
from __future__ import annotations

from ..core.model import Action, Step
from ..core.state import clone, touch
from ..errors import IllegalActionError, RefusalKind
from ..runtime.draws import CHANCE, Feed, NeedChance

__all__ = ["outcomes_bound", "node", "outcome_actions", "outcome_of", "run_explicit"]


def outcomes_bound(m) -> int:
    """A bound on the outcomes of one chance node, for adapters that declare one: a shuffle of
    every card of the game, or a die / random(n) up to 100 outcomes."""
    return max(len(m.cards), 100)


# ---- explicit mode: the forward model stops at each draw --------------------------------

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


def run_explicit(game, st, action, *, start=None):
    """Resolve a decision of an explicit-chance state in place: `action` (or a chance outcome at a
    chance node), or the setup (`start`, a function running it on a state). Returns the Step of
    the decision once it ran to its end, or a Step without events when it stopped at a draw."""
    nd = node(st)
    if nd is not None and start is None:
        outcomes = nd["outcomes"] + [outcome_of(st, action)]
        do = nd["do"]
        more = nd.get("more")
        if more:  # the next draw is known: no rule runs until the last of them
            flow = dict(st["flow"])
            flow["node"] = {"do": do, "outcomes": outcomes, "n": more[0][0], "what": more[0][1], "more": more[1:]}
            st["flow"] = flow
            touch(st)
            return Step(action, CHANCE, [])
    else:
        outcomes = []
        do = None if start is not None else str(action)
    bound = getattr(game, "chance_bound", None)
    work = clone(st)
    work["flow"].pop("node", None)
    work["_feed"] = Feed(outcomes, bound)
    try:
        if do is None:
            game._start(work)
            step = Step(Action("setup"), None, [])
        else:
            step = game._apply_plain(work, Action.parse(do), True)
    except NeedChance as e:
        flow = dict(st["flow"])
        flow["node"] = {"do": do, "outcomes": outcomes, "n": e.n, "what": e.what, "more": e.more}
        st["flow"] = flow
        touch(st)
        return Step(action, CHANCE, [])
    finally:
        work.pop("_feed", None)
    st.clear()
    st.update(work)  # with what the forward model noted of it (its listing): it ran through the forward model
    return step
