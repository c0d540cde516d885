"""What a seat knows, and states sampled from it.

Both are derived from the visibility content declares (views.py explains the rules):

- `observe(game, st, seat)` is the seat's observation: the view of views.py, where every card
  the seat cannot identify shows only its back. It is the only input bots and remote clients get.
- `unseen_slots(game, st, seat)` lists the places (zone, position) whose card the seat cannot
  identify: cards in zones it does not see into, and concealed cards anywhere.
- `relabel(game, st, mapping)` renames cards throughout a state (zones, card variables,
  references held by variables and by a suspended rule), so that the card that was `a` is now
  `mapping[a]`. The state of each place moves with the place: only identities change.
- `determinize(game, st, seat, rng)` samples a state consistent with what `seat` sees: the cards
  it cannot identify are dealt again at random among the unseen places, a card only where one
  with the same back was, and the state's random generator is reseeded (so future dice and
  shuffles are not known either). It depends only on what the seat sees: two states that differ
  by a relabelling of unseen cards of the same back give the same sample for the same `rng`.

What a seat saw earlier and no longer sees (a card it watched go into a hand) is remembered by a
memory.Memory kept beside the game (never in the state); `determinize(..., memory=...)` keeps
each remembered card in its zone.
"""
from __future__ import annotations

import random
import weakref
from operator import itemgetter

from ..runtime import context as rt
from ..core.state import clone
from ..errors import RuleRuntimeError
from ..core.rng import seed_state
from ..runtime import visibility as vis
from .views import _seat_index, view

__all__ = ["observe", "unseen_slots", "identified_place", "identified_places", "relabel", "determinize", "Sampler"]


def observe(game, st, seat: int | None, *, unseen=None, leave_out=()) -> dict:
    """The observation of `seat` (None: a spectator): the view, plus the back of every card the
    seat cannot identify, by zone and position (`"backs"`, None where the card is identified);
    `unseen`, `unseen_slots(game, st, seat)` when the caller has it, and `leave_out`, parts of the
    view not computed (views.view; canonical.py)."""
    out = view(game, st, seat, leave_out=leave_out)
    m = game.m
    backs: dict[str, list] = {}
    for z, pos in (unseen if unseen is not None else unseen_slots(game, st, seat)):
        zone = m.zones[z]
        row = backs.get(zone.key)
        if row is None:
            row = backs[zone.key] = [None] * len(st["z"][z])
        row[pos] = m.cards[st["z"][z][pos]].back
    for key, row in backs.items():
        out["zones"][key]["backs"] = row
    return out


def unseen_slots(game, st, seat: int | None) -> list[tuple[int, int]]:
    """The (zone id, position) of every card `seat` cannot identify in `st`."""
    return vis.unseen_slots(game.m, st, _seat_index(game, seat))


def identified_place(game, st, seat: int, cid: int) -> tuple[int, int] | None:
    """(zone id, position) of card `cid` in `st` when `seat` identifies it there, else None."""
    m = game.m
    zid, pos, concealed, sides = vis.place_of(m, st, m.cards[cid])
    if zid >= 0 and _seat_index(game, seat) in vis.seats_identifying(m, zid, pos, concealed, sides):
        return zid, pos
    return None


def identified_places(game, st, seat: int, cids) -> list[tuple[int, int, int]]:
    """(zone id, position, card id) of each card of `cids` that `seat` identifies in `st`: what
    `identified_place` tells of each, read in one pass (zone plan and concealment as
    runtime/visibility.py writes them, the plan read once per seat: `_seat_plan`), for adapters
    that place pieces at every listing."""
    m = game.m
    loc, zones = st["loc"], st["z"]
    plan = _seat_plan(m, seat)
    concealing = getattr(m, "concealing", ())
    hiding = [st["cv"][name] for name in concealing] if concealing else None
    sides = None
    out = []
    for cid in cids:
        zid = loc[cid]
        if zid < 0:
            continue
        rule = plan[zid]
        if rule is _EVERY:
            pos = zones[zid].index(cid)
        elif rule is _NONE:
            continue
        elif rule is _TOP:
            if zones[zid][0] != cid:
                continue
            pos = 0
        else:  # a zone shown to its owner's side: `rule` is that owner
            if sides is None:
                sides = vis.seat_sides(m, st)
            if sides[rule] != sides[seat]:
                continue
            pos = zones[zid].index(cid)
        if hiding and any(v[cid] for v in hiding):
            continue
        out.append((zid, pos, cid))
    return out


_EVERY, _NONE, _TOP = "every", "none", "top"  # what a seat identifies in a zone (`_seat_plan`)
_PLANS: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()  # definition -> seat -> its plan


def _seat_plan(m, seat: int) -> tuple:
    """Per zone, what `seat` identifies there (runtime/visibility.zone_plan read for one seat):
    _EVERY card, _NONE, the _TOP card only, or, in a zone shown by side that is not its own,
    every card when on the side of the zone's owner (that owner's seat id)."""
    plans = _PLANS.get(m)
    if plans is None:
        plans = _PLANS[m] = {}
    plan = plans.get(seat)
    if plan is None:
        out = []
        for rule in m.handle_plan:
            if rule is None:
                out.append(_EVERY)
                continue
            kind, seats = rule
            if kind == "top":
                out.append(_TOP)
            elif seat in seats:
                out.append(_EVERY)
            elif kind == "side" and seats:
                out.append(next(iter(seats)))
            else:
                out.append(_NONE)
        plan = plans[seat] = tuple(out)
    return plan


def _remap_tagged(v, f):
    """A stored value (cards tagged {"c": id}, see runtime.encode) with every card renamed by f."""
    t = type(v)
    if t is dict:
        if "c" in v and len(v) == 1:
            return {"c": f(v["c"])}
        return {k: _remap_tagged(x, f) for k, x in v.items()}
    if t is list:
        return [_remap_tagged(x, f) for x in v]
    return v


_REMAPPERS = {  # how a stored variable of declared type `typ` is renamed (runtime.codec stores it)
    "card": lambda v, f: None if v is None else f(v),
    "cards": lambda v, f: [f(i) for i in v],
    "list": _remap_tagged,
    "any": _remap_tagged,
}  # numbers, strings, zones, players: nothing to rename


def _remapper(typ: str):
    """How a stored variable of declared type `typ` is renamed, or None (nothing to rename)."""
    return _REMAPPERS.get(typ)


def relabel(game, st, mapping: dict) -> dict:
    """A copy of `st` where card id `a` is renamed `mapping[a]` (a permutation of card ids;
    ids not in the mapping keep their name). Only the zones that hold a renamed card get new
    contents: the others are shared, as a clone shares them (core/state.py)."""
    m = game.m
    f = mapping.get
    g = lambda i: f(i, i)  # noqa: E731
    out = clone(st)
    old_loc = st["loc"]
    zl = out["z"]
    for zid in {old_loc[a] for a in mapping}:  # shared tuples, as in every state (state.py)
        zl[zid] = tuple([f(c, c) for c in zl[zid]])
    loc = out["loc"]
    for a, b in mapping.items():
        loc[b] = old_loc[a]
    # each table of card variables permuted in one call: the value of card a is now card b's
    perm = list(range(len(old_loc)))
    for a, b in mapping.items():
        perm[b] = a
    permuted = itemgetter(*perm) if len(perm) > 1 else (lambda t: tuple(t[i] for i in perm))
    cv = out["cv"]
    for name, values in st["cv"].items():
        new = permuted(values)
        fix = _REMAPPERS.get(m.cvars[name]["type"])
        if fix is not None:
            new = tuple([fix(v, g) if v is not None else v for v in new])
        cv[name] = new
    for kind, table in (("pv", m.pvars), ("zv", m.zvars)):
        for name, values in st[kind].items():
            fix = _remapper(table[name]["type"])
            if fix is not None:
                out[kind][name] = tuple([fix(v, g) if v is not None else v for v in values])
    for name, v in st["gv"].items():
        fix = _remapper(m.gvars[name]["type"])
        if fix is not None and v is not None:
            out["gv"][name] = fix(v, g)
    if st["pending"]:
        out["pending"] = _remap_tagged(st["pending"], g)
    if st["flow"].get("sim"):  # the secret choices of a simultaneous step (simultaneous.py)
        out["flow"]["sim"] = _remap_tagged(st["flow"]["sim"], g)
    return out


def _remembered_first(places: list, new: list, memory: dict, rng: random.Random) -> list:
    """`new` (the cards dealt to `places`, in order) changed so that each remembered card
    (memory: card id -> zone id) lands on a place of its zone, drawn with `rng`; the others keep
    their shuffled order on the places left."""
    remembered = {}
    for cid in new:
        z = memory.get(cid)
        if z is not None:
            remembered.setdefault(z, []).append(cid)
    if not remembered:
        return new
    out: list = [None] * len(places)
    for z in sorted(remembered):
        free = [i for i, (zz, _) in enumerate(places) if zz == z and out[i] is None]
        cards = remembered[z]
        if len(free) < len(cards):  # memory out of date for this state: keep what fits
            cards = cards[:len(free)]
        for i, cid in zip(rng.sample(free, len(cards)), cards):
            out[i] = cid
    placed = {cid for cid in out if cid is not None}
    rest = iter(cid for cid in new if cid not in placed)
    return [cid if cid is not None else next(rest) for cid in out]


MAX_TRIES = 200  # samples tried before giving up on the content's invariants


def _rules_hold(game, st) -> bool:
    """Whether the content's declared invariants hold in `st`: what the rules say must be true
    (the double agent is in play, not in the box) is knowledge a sample must respect."""
    m = game.m
    ctx = rt.Ctx(st, m)
    for f, _message, size, per_player in m.invariants:
        for s in (m.seats if per_player else [None]):
            ctx.me = s
            ctx.locals = [None] * size
            try:
                if not f(ctx):
                    return False
            except RuleRuntimeError:
                return False
    return True


def determinize(game, st, seat: int | None, rng: random.Random, *, memory: dict | None = None) -> dict:
    """A full state consistent with what `seat` sees in `st`, sampled with `rng`.

    `memory` (memory.Memory.of(seat): card id -> zone id) is what the seat remembers of cards it
    saw and no longer sees: each such card is dealt again only among the unseen places of its
    zone. Samples that break one of the content's invariants are drawn again (up to MAX_TRIES;
    then the last one is returned, as any sample is consistent with the observation). The secret
    choices other seats made in a pending simultaneous step are drawn again among their legal
    actions in the sample: the seat only knows that they have chosen."""
    return Sampler(game, st, seat, memory=memory).draw(rng)


class Sampler:
    """`determinize(game, st, seat, ..., memory=memory)` for many draws of one state: the places
    the seat cannot identify, grouped by back, are found once (a search samples the same decision
    at each iteration). Each `draw(rng)` gives what `determinize` gives with that `rng` (the same
    draws, in the same order). `st` must not change while the sampler is in use (a decision holds
    a copy of its own: agents/base.py)."""

    __slots__ = ("game", "st", "seat", "memory", "groups")

    def __init__(self, game, st, seat: int | None, *, memory: dict | None = None):
        self.game, self.st, self.seat, self.memory = game, st, seat, memory
        m = game.m
        by_back: dict[str, list] = {}
        zl = st["z"]
        for z, pos in unseen_slots(game, st, seat):
            cid = zl[z][pos]
            by_back.setdefault(m.cards[cid].back, []).append((z, cid))
        # per back, in the order of the backs: its places, and its unseen cards whatever their arrangement
        self.groups = tuple((places, tuple(sorted(cid for _, cid in places))) for _, places in sorted(by_back.items()))

    @property
    def deal_only(self) -> bool:
        """Whether a draw is the deal of the unseen cards alone: no invariant of the content to
        hold, no secret choice to draw again, nothing remembered."""
        return not self.game.m.invariants and not self.st["flow"].get("sim") and not self.memory

    def draw(self, rng: random.Random) -> dict:
        """A full state consistent with what the seat sees (determinize)."""
        game = self.game
        invariants = game.m.invariants
        for _ in range(MAX_TRIES - 1):
            out = self._sample(rng)
            if not invariants or _rules_hold(game, out):
                break
        else:
            out = self._sample(rng)
        if out["flow"].get("sim"):
            game.simultaneous.redraw(out, _seat_index(game, self.seat), rng)
        return out

    def _sample(self, rng: random.Random) -> dict:
        memory = self.memory
        mapping = {}
        for places, cards in self.groups:
            new = list(cards)
            rng.shuffle(new)
            if memory:
                new = _remembered_first(places, new, memory, rng)
            for (_, a), b in zip(places, new):
                if a != b:
                    mapping[a] = b
        st = self.st
        out = relabel(self.game, st, mapping) if mapping else clone(st)
        out["rng"] = seed_state(rng.getrandbits(64))
        return out
