"""Chance as a player: every random event of the rules is one draw `below(n)`, a chance node.

Every random event reduces to uniform draws of an integer in [0, n):
- a die of `roll(k, sides)` is one draw below `sides` (one die per node, as OpenSpiel rolls);
- `random(n)` is one draw below n;
- a shuffle (`shuffle ZONE`, `shuffled(list)`, a pile refilled from its discard) of n items is
  n - 1 draws, the steps of Fisher-Yates: for place i = n-1 .. 1, which of the i + 1 items not yet
  placed goes there. Each step deals one item to one place, as OpenSpiel's card games deal one
  card per chance node; a draw from a hidden pile takes the card a shuffle put on top.

Who picks the outcome (the chance "seat"):
- **sampled** (the default): the state's own seeded generator (`state["rng"]`, rng.py), in exactly
  the sequence it always drew, so every seeded game, replay and golden log stays bit for bit.
- **explicit** (`game.new_game(seed, chance="explicit")`, the OpenSpiel adapter): the rules stop at
  each draw; `game.is_chance(st)`, `game.chance_outcomes(st)` -> [(k, 1/n)], and
  `game.apply(st, "chance k")` picks outcome k. A state at a chance node is the state before the
  decision being resolved, with `flow["node"] = {"do": the decision, "outcomes": the outcomes
  drawn so far, "n": ..., "what": ...}`: applying an outcome re-runs that decision from its start
  with the outcomes so far (the rules are deterministic given them) until the next draw or its
  end. So a draw may stand anywhere in the rules (inside an expression, a function, a refill),
  and a decision with k draws costs k re-runs in explicit mode only.
- **forced** (scenarios, `state["forced"]`): the head of the queue gives the next event of its kind:
  an int is a die's value, `{"order": [card keys], "zone": key|None}` puts those cards first (in
  that order) in the next shuffle, `{"random": k}` is the next `random(n)`.
"""
from __future__ import annotations

from . import rng
from .errors import IllegalActionError, RefusalKind, RuleRuntimeError

CHANCE = -1  # `current_player` at a chance node (OpenSpiel's kChancePlayerId)
SAMPLED, EXPLICIT = "sampled", "explicit"

__all__ = ["CHANCE", "SAMPLED", "EXPLICIT", "NeedChance", "below", "shuffle_list", "forced_random",
           "outcomes_bound"]


class NeedChance(BaseException):
    """Raised by a draw in explicit mode when its outcome is not known yet. A BaseException: no
    handler of the rules (which catch Exception) may swallow it on its way to the engine."""

    def __init__(self, n: int, what: str):
        super().__init__(n, what)
        self.n = n
        self.what = what


class Feed:
    """The outcomes of a decision's draws so far, handed out in order while it is re-run."""

    __slots__ = ("outcomes", "i", "bound")

    def __init__(self, outcomes, bound=None):
        self.outcomes = outcomes
        self.i = 0
        self.bound = bound

    def next(self, n: int, what: str) -> int:
        i = self.i
        if i < len(self.outcomes):
            self.i = i + 1
            return self.outcomes[i]
        if self.bound is not None and n > self.bound:
            raise RuleRuntimeError(f"{what}: a chance node with {n:,} outcomes, more than the "
                                   f"{self.bound:,} this game declares (max_chance_outcomes)")
        raise NeedChance(n, what)


def below(ctx, n: int, what: str) -> int:
    """One uniform draw in [0, n): from the state's generator, or the decision's feed."""
    st = ctx.st
    feed = st.get("_feed")
    if feed is None:
        st["rng"], v = rng.below(st["rng"], n)
        return v
    if n <= 0:
        raise ValueError("n must be positive")
    return feed.next(n, what)


def shuffle_list(ctx, items: list, what: str, zone=None) -> None:
    """Shuffle `items` in place (card ids of `zone`, or values of a list), as rng.shuffle does."""
    st = ctx.st
    forced = st["forced"]
    if forced and type(forced[0]) is dict and "order" in forced[0]:
        want = forced[0]
        if want.get("zone") is None or (zone is not None and want["zone"] == zone.key):
            forced.pop(0)
            _force_order(ctx, items, want["order"], what, zone)
            return
    if "_feed" not in st:
        st["rng"] = rng.shuffle(st["rng"], items)
        return
    n = len(items)
    for i in range(n - 1, 0, -1):
        j = below(ctx, i + 1, f"shuffle {what}: the item for place {i + 1} of {n}")
        items[i], items[j] = items[j], items[i]


def _force_order(ctx, items, wanted, what, zone):
    """Put the cards (or values) named in `wanted` first, in that order; the others keep theirs.
    A name is a card's key, or a card's name (the first such card not yet placed)."""
    from .model import Card, key_of
    m = ctx.m
    values = [m.cards[i] for i in items] if zone is not None else list(items)
    left = list(range(len(values)))
    first = []
    for k in wanted:
        hit = next((i for i in left if key_of(values[i]) == k), None)
        if hit is None:
            hit = next((i for i in left if type(values[i]) is Card and values[i].name == k), None)
        if hit is None:
            have = ", ".join(sorted({key_of(v) for v in values})[:20]) or "nothing"
            raise RuleRuntimeError(f"a scenario forced the order of the shuffle of {what} with {k}, "
                                   f"which it does not hold (it holds: {have})")
        left.remove(hit)
        first.append(hit)
    items[:] = [items[i] for i in first + left]


def forced_random(ctx, n: int) -> int | None:
    """The outcome a scenario forced for the next `random(n)`, or None."""
    forced = ctx.st["forced"]
    if forced and type(forced[0]) is dict and "random" in forced[0]:
        k = forced.pop(0)["random"]
        if not (type(k) is int and 0 <= k < n):
            raise RuleRuntimeError(f"a scenario forced random({n}) to give {k}: give 0 to {n - 1}")
        return k
    return None


def outcomes_bound(m) -> int:
    """A bound on the outcomes of one chance node, for adapters that declare one: a shuffle of
    every card of the game, or a die / random(n) up to 100 outcomes."""
    return max(len(m.cards), 100)


# ---- explicit mode: the forward model stops at each draw --------------------------------

def node(st):
    """The chance node `st` stands at (a dict, see the module's doc), or None."""
    return st["flow"].get("node")


def outcome_actions(st):
    from .model import Action
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
    from .engine import Step
    from .model import Action
    from .state import clone
    nd = node(st)
    if nd is not None and start is None:
        outcomes = nd["outcomes"] + [outcome_of(st, action)]
        do = nd["do"]
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
        flow["node"] = {"do": do, "outcomes": outcomes, "n": e.n, "what": e.what}
        st["flow"] = flow
        game.forget_listing(st)
        return Step(action, CHANCE, [])
    finally:
        work.pop("_feed", None)
    st.clear()
    st.update(work)
    game.forget_listing(st)
    return step
