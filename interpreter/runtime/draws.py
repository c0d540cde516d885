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
  drawn so far, "n": ..., "what": ...}`: applying an outcome continues the decision where it
  stopped, in the greenlet it waits in (engine/suspend.py), or where that is gone (a copy of the
  node, greenlet not installed) runs it again from its start with the outcomes so far (the rules
  are deterministic given them) until the next draw or its end. So a draw may stand anywhere in the rules (inside an expression, a function, a refill).
- **forced** (scenarios, `state["forced"]`): the head of the queue gives the next event of its kind:
  an int is a die's value, `{"order": [card keys], "zone": key|None}` puts those cards first (in
  that order) in the next shuffle, `{"random": k}` is the next `random(n)`.
"""
from __future__ import annotations

from ..core import rng
from ..errors import RuleRuntimeError

CHANCE = -1  # `current_player` at a chance node (OpenSpiel's kChancePlayerId)
SAMPLED, EXPLICIT = "sampled", "explicit"

__all__ = ["CHANCE", "SAMPLED", "EXPLICIT", "NeedChance", "Feed", "below", "shuffle_list", "forced_random", "stir",
           "STIRRED"]

STIRRED = "stirred"  # flow key, explicit chance: the zones no seat sees whose order the rules changed (`stir`)


class NeedChance(BaseException):
    """Raised by a draw in explicit mode when its outcome is not known yet. A BaseException: no
    handler of the rules (which catch Exception) may swallow it on its way to the engine."""

    def __init__(self, n: int, what: str, more=()):
        super().__init__(n, what)
        self.n = n
        self.what = what
        self.more = list(more)  # the draws known to follow at once, [n, what] each (a shuffle's next steps)


class Feed:
    """The outcomes of a decision's draws so far, handed out in order while it runs. `pause`, when
    the decision runs in a greenlet of its own (engine/suspend.py), waits there for the outcomes
    not known yet instead of stopping the decision."""

    __slots__ = ("outcomes", "i", "bound", "pause")

    def __init__(self, outcomes, bound=None):
        self.outcomes = outcomes
        self.i = 0
        self.bound = bound
        self.pause = None

    def next(self, n: int, what: str) -> int:
        i = self.i
        if i >= len(self.outcomes):
            self.need([[n, what]])
        self.i = i + 1
        return self.outcomes[i]

    def need(self, draws: list) -> None:
        """Stop at the first of `draws` ([n, what] each, drawn one after the other with nothing
        in between), none of whose outcomes is known yet: the chance node knows the others. With
        `pause`, return once their outcomes are known."""
        n, what = draws[0]
        if self.bound is not None and n > self.bound:
            raise RuleRuntimeError(f"{what}: a chance node with {n:,} outcomes, more than the "
                                   f"{self.bound:,} this game declares (max_chance_outcomes)")
        if self.pause is None:
            raise NeedChance(n, what, draws[1:])
        self.pause(draws, self.outcomes)


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


def in_a_row(ctx, count: int, n: int, what: str) -> None:
    """The next `count` draws (of `n` outcomes each, `what`) follow one another with nothing in
    between (the dice of one roll): with a feed, their chance nodes are known when the first stops
    the decision, as a shuffle's are, so that the decision does not run again at each of them."""
    feed = ctx.st.get("_feed")
    if feed is not None and count > 1 and n > 0 and (known := len(feed.outcomes) - feed.i) < count:
        feed.need([[n, what]] * (count - known))


def stir(st, zone) -> None:
    """Explicit chance (the state has a feed): note that the rules changed the order of `zone` if
    no seat sees it (a shuffle, a card put in). A pile no seat sees that was never stirred holds
    its cards in the order they started in (card order: core/state.new_state), only fewer: every
    seat knows that order, so a state drawn from a seat's information state keeps it (the OpenSpiel
    adapter's resampler), and only what was dealt unseen is drawn again."""
    if zone.visibility == "hidden":
        flow = st["flow"]
        had = flow.get(STIRRED, ())
        if zone.id not in had:
            flow[STIRRED] = tuple(sorted((*had, zone.id)))


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
    if n < 2:  # nothing to shuffle: no draw
        return
    feed = st["_feed"]
    known = len(feed.outcomes) - feed.i
    if known < n - 1:  # the draws of this shuffle follow one another: its chance nodes are known at once
        head, tail = f"shuffle {what}: the item for place ", f" of {n}"
        feed.need([[i + 1, f"{head}{i + 1}{tail}"] for i in range(n - 1 - known, 0, -1)])
    # every outcome is known now (`need` returned with them, or they were): taken in order, as
    # `below` would (the text of a draw is written only for a chance node)
    outcomes, at = feed.outcomes, feed.i
    feed.i = at + n - 1
    for i in range(n - 1, 0, -1):
        j = outcomes[at]
        at += 1
        items[i], items[j] = items[j], items[i]


def _force_order(ctx, items, wanted, what, zone):
    """Put the cards (or values) named in `wanted` first, in that order; the others keep theirs.
    A name is a card's key, or a card's name (the first such card not yet placed)."""
    from ..core.model import Card, key_of
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
