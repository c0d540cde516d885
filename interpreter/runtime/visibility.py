"""Who identifies which card in a state, from the visibility each zone declares (see
information/views.py for the rules in full). These are functions of a compiled definition `m` and
a state: the rules' `sees` asks them while they run, the views and observations of the
information layer are built on them, and a message remembers with them who could read it.

    public   everyone identifies the cards in the zone
    owner    the owning seat does
    side     the owning seat and every seat on its side (`scoring.side`)
    top      everyone identifies the top card
    hidden   nobody does

A card variable declared `conceals: true` hides its card from everyone while it is true."""
from __future__ import annotations

from . import context as rt

PUBLIC, OWNER, HIDDEN, TOP, SIDE = "public", "owner", "hidden", "top", "side"

__all__ = ["PUBLIC", "OWNER", "HIDDEN", "TOP", "SIDE", "sees_contents", "on_side", "seat_sides", "sides",
           "visible_ids", "concealed_ids", "visible_keys", "unseen_slots", "zone_plan", "plan_of", "place_of",
           "seats_identifying"]


def sees_contents(zone, seat: int | None) -> bool:
    """Whether `seat` (None: a spectator) sees the key of every card in `zone`."""
    if zone.visibility == PUBLIC:
        return True
    if zone.visibility == OWNER or zone.visibility == SIDE:
        return seat is not None and zone.owner is not None and zone.owner.id == seat
    return False


def on_side(zone, seat: int | None, sides: list | None) -> bool:
    """Whether `seat` sees a `side` zone as one of its owner's side (`sides`: see `sides`)."""
    return (zone.visibility == SIDE and sides is not None and seat is not None and zone.owner is not None
            and sides[zone.owner.id] == sides[seat])


def seat_sides(m, state) -> list:
    """Each seat's side in `state`: the content's `scoring.side` for that seat, else the seat itself."""
    side = getattr(m, "side", None)
    if side is None:
        return [s.id for s in m.seats]
    ctx = rt.Ctx(state, m)
    out = []
    for s in m.seats:
        ctx.me = s
        ctx.locals = [None] * m.score_scope.size
        v = side(ctx)
        v = tuple(v) if isinstance(v, list) else v
        out.append(v if v is not None else ("seat", s.id))  # no side: alone, never "equal" to another none
    return out


def sides(m, state) -> list | None:
    """Each seat's side in `state` (seat_sides), or None when no zone is shown by side."""
    if not any(z.visibility == SIDE for z in m.zones):
        return None
    return seat_sides(m, state)


def visible_ids(zone, ids: list, seat: int | None, sides: list | None = None) -> list:
    """The ids of `ids` (the cards of `zone`) that `seat` identifies, concealment aside."""
    if sees_contents(zone, seat) or on_side(zone, seat, sides):
        return ids
    if zone.visibility == TOP:
        return ids[:1]
    return []


def concealed_ids(m, state) -> set:
    """The ids of the cards whose identity nobody may see now (a `conceals` card variable is true)."""
    values = state["cv"]
    return {cid for name in getattr(m, "concealing", ()) for cid, v in enumerate(values[name]) if v}


def visible_keys(m, state, seat: int | None) -> set:
    """The keys of the cards `seat` can see in `state` (seat None: a spectator)."""
    out = set()
    concealed = concealed_ids(m, state)
    by_side = sides(m, state)
    for zone, ids in zip(m.zones, state["z"]):
        for cid in visible_ids(zone, ids, seat, by_side):
            if cid not in concealed:
                out.add(m.cards[cid].key)
    return out


def unseen_slots(m, st, seat: int | None) -> list[tuple[int, int]]:
    """The (zone id, position) of every card `seat` cannot identify in `st`, read from the
    definition's zone plan (`zone_plan`); the seats' sides are asked only of a `side` zone that
    holds cards."""
    concealed = concealed_ids(m, st) if getattr(m, "concealing", ()) else None
    plan = zone_plan(m)
    by_side = None
    out = []
    add = out.append
    for zid, ids in enumerate(st["z"]):
        if not ids:
            continue
        rule = plan[zid]
        n = len(ids)
        if rule is None:
            first = n
        else:
            kind, seats = rule
            if seat in seats:
                first = n
            elif kind == "top":
                first = 1
            elif kind == "side" and seat is not None and seats:  # on the owner's side
                if by_side is None:
                    by_side = seat_sides(m, st)
                first = n if by_side[next(iter(seats))] == by_side[seat] else 0
            else:
                first = 0
        if concealed:
            for pos, cid in enumerate(ids):
                if pos >= first or cid in concealed:
                    add((zid, pos))
        else:
            for pos in range(first, n):
                add((zid, pos))
    return out


def zone_plan(m):
    """Per zone: None when every seat identifies its cards, else the seats that see into it
    (a frozenset), "top" (everyone sees the first card) or "side"; built with the definition
    (`handle_plan`, from plan_of)."""
    return m.handle_plan


def plan_of(zones) -> tuple:
    """The zone_plan of a definition's zones, computed once when it is built."""
    plan = []
    for z in zones:
        if z.visibility == PUBLIC:
            plan.append(None)
        elif z.visibility in (OWNER, SIDE):
            seats = frozenset((z.owner.id,)) if z.owner is not None else frozenset()
            plan.append(("side", seats) if z.visibility == SIDE else ("seats", seats))
        elif z.visibility == TOP:
            plan.append(("top", frozenset()))
        else:
            plan.append(("seats", frozenset()))
    return tuple(plan)


def place_of(m, st, card) -> tuple:
    """(zone id, position, concealed, the seats' sides or None) of `card` in `st`: what
    seats_identifying needs to tell, later, who identified the card in `st`."""
    zid = st["loc"][card.id]
    if zid < 0:
        return zid, 0, True, None
    concealed = any(st["cv"][name][card.id] for name in getattr(m, "concealing", ()))
    rule = zone_plan(m)[zid]
    by_side = seat_sides(m, st) if rule is not None and rule[0] == "side" else None
    return zid, st["z"][zid].index(card.id), concealed, by_side


def seats_identifying(m, zid: int, pos: int, concealed: bool, sides) -> frozenset:
    """The seats (None: a spectator) that identify a card at `place_of` (zone id, position...)."""
    if concealed or zid < 0:
        return frozenset()
    everyone = [None] + [s.id for s in m.seats]
    rule = zone_plan(m)[zid]
    if rule is None or (rule[0] == "top" and pos == 0):
        return frozenset(everyone)
    kind, seats = rule
    if kind == "seats":
        return seats
    if kind == "side" and seats:
        owner = next(iter(seats))
        return frozenset(s.id for s in m.seats if sides[s.id] == sides[owner])
    return frozenset()
