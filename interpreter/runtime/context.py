"""What compiled rules run against: the execution context and the zone primitives.

State is plain data (lists, dicts, ints); cards, zones and seats are held there by
integer id. These primitives are the only code that moves cards, so that the
index from card to zone (``st["loc"]``) is always right.
"""
from __future__ import annotations

from . import draws as chance
from ..errors import RuleRuntimeError
from ..limits import DEFAULT, BudgetExceeded, size_failed, spend_failed
from ..core.model import Card, Seat, Zone, label_of


class Stop(Exception):
    """`stop`: leave the current body (action, trigger or procedure)."""


class Ctx:
    """Everything a compiled closure needs while it runs."""

    __slots__ = ("st", "m", "me", "locals", "stack", "events", "causes", "cause", "marks", "memo", "budget",
                 "viewer")

    def __init__(self, st, m, me=None, locals_=None):
        self.budget = getattr(m, "limits", DEFAULT).steps  # steps left in this decision (limits.py)
        self.memo = None  # a dict while nothing can change the state (listing legal actions)
        self.st = st
        self.m = m
        self.me = me
        self.locals = locals_ if locals_ is not None else []
        self.stack = []  # return frames (continuation id, caller locals) of suspendable calls
        self.events = []  # (event name, args) in the order they happened
        # what set each event off, parallel to `events`: the index of the event whose handler
        # emitted it, a flow hook's (name, args) (`run_effect`), or None (the decision itself)
        self.causes = []
        self.cause = None  # what sets off the events emitted now (one of the above)
        self.marks = None  # (stack depth, cause to restore, next mark) of calls that may wait (linker.ret)
        self.viewer = None  # while texts are written for one seat: the ids of the cards it can identify


def no_handlers(ctx, args) -> None:
    """What `emit E(...)` runs for an event E that nothing handles (no trigger, no card's power):
    nothing. Generated code that finds it does not call it (lang/statements.py)."""


def turn_player(m, st):
    """The seat whose turn it is (a Seat), or None outside play."""
    flow = st["flow"]
    order = flow.get("order") or []
    pos = flow.get("pos", 0)
    if flow.get("phase") != "play" or pos >= len(order):
        return None
    return m.seats[order[pos]]


def step_name(m, st):
    """The name of the current step of the turn, or None."""
    i = st["flow"].get("step", 0)
    return m.step_names[i] if 0 <= i < len(m.step_names) else None


def spend(ctx, n: int, loc, what: str) -> None:
    """Spend `n` steps of the decision's budget (a loop's iterations, a repeat, cards drawn)."""
    b = ctx.budget - n
    ctx.budget = b
    if b < 0:
        spend_failed(ctx, loc, what)


def check_size(ctx, n: int, loc, what: str) -> None:
    if n > ctx.m.limits.collection:
        size_failed(ctx, loc, what, n)


def count_true(values) -> int:
    """`count(xs)`: how many items are `true` (`none` counts as false). Any other item is an error:
    counting cards, numbers or texts by their truth hid bugs (0 and "" did not count); `length`
    counts items."""
    n = 0
    for v in values:
        if v is True:
            n += 1
        elif v is not False and v is not None:
            raise RuleRuntimeError(f"count() counts true values, and {label_of(v)} is not one: "
                                   f"write length(...) to count items, or count(condition for x in ...)")
    return n


def none_in_arithmetic(a, op: str, b) -> str:
    """The message for `none` in arithmetic: a missing value used as a number (it used to count 0,
    which hid unset variables and misspelt attributes)."""
    what = f"-{label_of(a)}" if a is None and b is None and op == "-" else f"{label_of(a)} {op} {label_of(b)}"
    return (f"cannot compute {what}: a value is none (missing); give the variable a default, "
            f"or write (x if x != none else 0)")


def relocate(e: RuleRuntimeError, loc) -> RuleRuntimeError:
    """The same error at the rule's position (raised by a primitive that does not know it)."""
    if e.location is not None or loc is None:
        return e
    if isinstance(e, BudgetExceeded):
        return BudgetExceeded(e.budget, str(e), loc)
    return RuleRuntimeError(str(e), loc)


# ---- value encoding for saving locals of a suspended choice -------------------------

def encode(v):
    """A value as a suspended choice stores it: cards, zones and players tagged by id ({"c": id},
    {"z": id}, {"p": id}), lists and tuples as lists. The items of a list are encoded in its loop
    (no call for a plain item: a suspended rule's locals are mostly flat lists)."""
    t = type(v)
    if v is None or t is int or t is bool or t is str:  # the most frequent: as they are
        return v
    if t is Card:
        return {"c": v.id}
    if t is Zone:
        return {"z": v.id}
    if t is Seat:
        return {"p": v.id}
    if t is list or t is tuple:
        out = []
        add = out.append
        for x in v:
            tx = type(x)
            if x is None or tx is int or tx is bool or tx is str:
                add(x)
            elif tx is Card:
                add({"c": x.id})
            elif tx is Zone:
                add({"z": x.id})
            elif tx is Seat:
                add({"p": x.id})
            else:
                add(encode(x))
        return out
    return v


def decode(m, v):
    """The value `encode` stored (its items decoded in its loop, as `encode` does)."""
    t = type(v)
    if t is dict:
        if "c" in v:
            return m.cards[v["c"]]
        if "z" in v:
            return m.zones[v["z"]]
        if "p" in v:
            return m.seats[v["p"]]
        return v
    if t is list:
        out = []
        add = out.append
        for x in v:
            tx = type(x)
            if tx is dict and len(x) == 1:
                c = x.get("c")
                if c is not None:
                    add(m.cards[c])
                    continue
                z = x.get("z")
                if z is not None:
                    add(m.zones[z])
                    continue
                p = x.get("p")
                if p is not None:
                    add(m.seats[p])
                    continue
            if tx is dict or tx is list:
                add(decode(m, x))
            else:
                add(x)
        return out
    return v


# ---- typed storage of variables ---------------------------------------------------

def codec(m, typ: str):
    """(encode, decode) for a variable of the given declared type."""
    if typ == "card":
        return (lambda v: None if v is None else v.id), (lambda v: None if v is None else m.cards[v])
    if typ in ("zone", "cell"):
        return (lambda v: None if v is None else v.id), (lambda v: None if v is None else m.zones[v])
    if typ == "player":
        return (lambda v: None if v is None else v.id), (lambda v: None if v is None else m.seats[v])
    if typ == "cards":
        return (lambda v: [c.id for c in v]), (lambda v: [m.cards[i] for i in v])
    if typ in ("zones", "cells"):
        return (lambda v: [z.id for z in v]), (lambda v: [m.zones[i] for i in v])
    if typ == "players":
        return (lambda v: [p.id for p in v]), (lambda v: [m.seats[i] for i in v])
    if typ == "list":
        return (lambda v: encode(list(v))), (lambda v: decode(m, v))
    if typ == "any":  # whatever it holds: cards, zones and players are stored by id, tagged
        return encode, (lambda v: decode(m, v))
    return None, None


# ---- primitives --------------------------------------------------------------------

def move(ctx, card, zone, top=False):
    if type(card) is not Card:
        if card is None:
            return
        raise RuleRuntimeError(f"cannot move {card!r}: not a card")
    if type(zone) is not Zone:
        raise RuleRuntimeError(f"cannot move {card} to {zone!r}: not a zone")
    st = ctx.st
    loc = st["loc"]
    cid, zid = card.id, zone.id
    old = loc[cid]
    if old == zid:
        return
    zl = st["z"]
    dest = zl[zid]
    if zone.capacity is not None and len(dest) >= zone.capacity:
        raise RuleRuntimeError(f"cannot move {card} to {zone}: it is full ({zone.capacity})")
    if old >= 0:  # zones' contents are tuples, replaced, never changed in place (state.py)
        ids = zl[old]
        if ids[0] == cid:  # the top card, the frequent case
            zl[old] = ids[1:]
        else:
            i = ids.index(cid)
            zl[old] = ids[:i] + ids[i + 1:]
    zl[zid] = (cid,) + dest if top else dest + (cid,)
    loc[cid] = zid
    if "_feed" in st:  # explicit chance: a pile no seat sees is no longer in its first order
        chance.stir(st, zone)
    if ctx.m.on_entered is not None:
        ctx.m.on_entered(ctx, card, zone)


def swap(ctx, a, b):
    st = ctx.st
    zl = st["z"]
    loc = st["loc"]
    if type(a) is Card and type(b) is Card:
        za, zb = loc[a.id], loc[b.id]
        if za == zb:
            la = list(zl[za])
            ia, ib = la.index(a.id), la.index(b.id)
            la[ia], la[ib] = b.id, a.id
            zl[za] = tuple(la)
        else:
            la, lb = list(zl[za]), list(zl[zb])
            la[la.index(a.id)], lb[lb.index(b.id)] = b.id, a.id
            zl[za], zl[zb] = tuple(la), tuple(lb)
        loc[a.id], loc[b.id] = zb, za
        if "_feed" in st:
            chance.stir(st, ctx.m.zones[za])
            chance.stir(st, ctx.m.zones[zb])
        if ctx.m.on_entered is not None and za != zb:
            ctx.m.on_entered(ctx, a, ctx.m.zones[zb])
            ctx.m.on_entered(ctx, b, ctx.m.zones[za])
        return
    if type(a) is Zone and type(b) is Zone:
        zl[a.id], zl[b.id] = zl[b.id], zl[a.id]
        for i in zl[a.id]:
            loc[i] = a.id
        for i in zl[b.id]:
            loc[i] = b.id
        if "_feed" in st:
            chance.stir(st, a)
            chance.stir(st, b)
        if ctx.m.on_entered is not None:
            for z in (a, b):
                for i in list(zl[z.id]):
                    ctx.m.on_entered(ctx, ctx.m.cards[i], z)
        return
    raise RuleRuntimeError(f"cannot swap {a!r} with {b!r}: both must be cards, or both zones")


def cycle(ctx, zones, backward=False):
    """Contents of zones[i] go to zones[i+1], the last to the first (`backward`: the other way)."""
    zones = list(zones)
    if len(zones) < 2:
        return
    if backward:
        zones.reverse()
    st = ctx.st
    zl = st["z"]
    loc = st["loc"]
    ids = [z.id for z in zones]
    contents = [zl[i] for i in ids]
    n = len(ids)
    for k in range(n):
        dest = ids[(k + 1) % n]
        zl[dest] = contents[k]
        for c in contents[k]:
            loc[c] = dest
    if "_feed" in st:
        for z in zones:
            chance.stir(st, z)
    if ctx.m.on_entered is not None:
        for k in range(n):
            z = ctx.m.zones[ids[(k + 1) % n]]
            for c in list(contents[k]):
                ctx.m.on_entered(ctx, ctx.m.cards[c], z)


def shuffle(ctx, zone):
    zl = ctx.st["z"]
    if len(zl[zone.id]) < 2 and not ctx.st["forced"]:
        return  # nothing to draw (a forced order is still taken, shuffle_list)
    ids = list(zl[zone.id])
    chance.shuffle_list(ctx, ids, zone.key, zone)
    zl[zone.id] = tuple(ids)
    if "_feed" in ctx.st:
        chance.stir(ctx.st, zone)


def draw(ctx, n, src, dst):
    """Move up to n cards from the top of src to dst; refill src from its declared discard."""
    drawn = []
    st = ctx.st
    b = ctx.budget - max(n, 0)  # spend(), its text written only when it fails
    ctx.budget = b
    if b < 0:
        spend_failed(ctx, None, f"draw {n:,}")
    zl = st["z"]
    # as many as there is room for (the loop below stops when the destination is full, before it refills)
    k = n if dst.capacity is None else min(n, dst.capacity - len(zl[dst.id]))
    if ctx.m.on_entered is None and src.id != dst.id and 0 < k <= len(zl[src.id]):
        # the frequent case: k cards taken from the top at once, put on the bottom in order (as k
        # moves of the top card would), nothing to tell a hook
        ids = zl[src.id]
        taken, loc, to = ids[:k], st["loc"], dst.id
        zl[src.id] = ids[k:]
        zl[to] = zl[to] + taken
        if "_feed" in st:
            chance.stir(st, dst)
        cards = ctx.m.cards
        for cid in taken:
            loc[cid] = to
            drawn.append(cards[cid])
        return drawn
    for _ in range(n):
        if dst.capacity is not None and len(st["z"][dst.id]) >= dst.capacity:
            break
        if not st["z"][src.id] and src.refill_from is not None:
            other = ctx.m.zone_by_name[src.refill_from]
            if src.capacity is None and ctx.m.on_entered is None and other.id != src.id:
                ids = zl[other.id]  # every card at once, in order, as one move after the other would
                zl[src.id], zl[other.id] = zl[src.id] + ids, ()
                if "_feed" in st:
                    chance.stir(st, src)
                loc = st["loc"]
                for cid in ids:
                    loc[cid] = src.id
            else:
                for cid in list(st["z"][other.id]):
                    move(ctx, ctx.m.cards[cid], src)
            shuffle(ctx, src)
        if not st["z"][src.id]:
            break
        card = ctx.m.cards[st["z"][src.id][0]]
        move(ctx, card, dst)
        drawn.append(card)
    return drawn


def roll(ctx, n, sides=6):
    st = ctx.st
    out = []
    forced = st["forced"]
    if type(n) is int and n <= ctx.m.limits.collection and (b := ctx.budget - max(n, 0)) >= 0:
        ctx.budget = b  # what the two checks below do when they pass, without writing their texts
    else:
        check_size(ctx, n, None, f"roll({n:,})")
        spend(ctx, max(n, 0), None, f"roll({n:,})")
    taken = 0
    for _ in range(n):
        if forced and type(forced[0]) is int:
            out.append(forced.pop(0))
            taken += 1
            continue
        if taken and st["flow"].get("forced_whole"):  # a scenario forced some dice of this roll, not all
            raise RuleRuntimeError(f"a roll of {n} dice, and only {taken} forced ({', '.join(map(str, out))}): "
                                   f"force every die of the roll, or none")
        if len(out) == taken and "_feed" in st:  # explicit chance: the other dice follow the first (known at once)
            chance.in_a_row(ctx, n - taken, sides, f"a die (d{sides})")
        out.append(chance.below(ctx, sides, f"a die (d{sides})") + 1)
    return out


def random_below(ctx, n):
    v = chance.forced_random(ctx, n)
    return v if v is not None else chance.below(ctx, n, f"random({n})")

