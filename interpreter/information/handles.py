"""Action arguments as the deciding seat sees them (issue 11 item 3).

An action's id and arguments must never tell the deciding seat (or whoever sees the legal
actions) which card lies somewhere it cannot identify. So an argument that is a card the
decider cannot identify (in a zone it does not see into, or concealed) is not named by its key
but by an **opaque handle**: its place, `ZONE@N` (the N-th card of that zone, from 1), which the
seat can see. The engine does it itself, for every action, window and pending choice: content
cannot leak an identity through an argument by mistake, and it may name such cards freely.

A handle names the place the card has when the seat decides: the action does whatever card is
there. Two states that differ only by which unseen cards lie where give the same ids.

One exception keeps the rules' own naming: when a parameter's options hold *every* card of a
back that the seat cannot identify (Dark Agent's Chine copies the objective of one's choice,
"even absent from the game"), naming them by key tells nothing about where they lie: they are
named by key, in the order of their ids (so the order does not tell either).
"""
from __future__ import annotations

from ..core.model import _INT_KEYS, HANDLE, Card, Seat, Zone, key_of
from ..runtime.visibility import place_of, seat_sides, seats_identifying, unseen_slots, zone_plan


def arg_key(m, st, seat: int | None, v, cache: dict | None = None) -> str:
    """The key of argument value `v` as `seat` sees it: its own key, or a handle `ZONE@N` when it
    is a card `seat` cannot identify in `st`."""
    if type(v) is not Card:
        return key_of(v)
    cid = v.id
    zid = st["loc"][cid]
    rule = zone_plan(m)[zid]
    seen = True
    if rule is not None:
        kind, seats = rule
        if kind == "seats":
            seen = seat in seats
        elif kind == "top":
            seen = st["z"][zid][0] == cid
        else:  # side: the owner, and every seat on its side
            sides = cache.get("_sides") if cache is not None else None
            if sides is None:
                sides = seat_sides(m, st)
                if cache is not None:
                    cache["_sides"] = sides
            seen = seat is not None and bool(seats) and sides[next(iter(seats))] == sides[seat]
    if seen:
        for name in getattr(m, "concealing", ()):
            if st["cv"][name][cid]:
                seen = False
                break
    if seen:
        return v.key
    return f"{m.zones[zid].key}{HANDLE}{st['z'][zid].index(cid) + 1}"


def arg_keys(m, st, seat: int | None, values: list, cache: dict) -> tuple[list, list]:
    """(values, keys) of a parameter's options as `seat` sees them (arg_key), with the exception
    above: the options may come back reordered, never changed."""
    plan, concealing = m.handle_plan, m.concealing
    loc = st["loc"]
    # a game that conceals cards with one card variable: its values by card id
    hide = st["cv"][concealing[0]] if len(concealing) == 1 else None
    keys = []
    add = keys.append
    hidden = None
    int_keys = _INT_KEYS
    for v in values:
        t = type(v)
        if t is Card:
            rule = plan[loc[v.id]]
            if (rule is None or (rule[0] == "seats" and seat in rule[1])) and (
                    not concealing or (hide is not None and not hide[v.id])):
                add(v.key)  # the frequent case: a card in the open, or in the seat's own zone, not concealed
                continue
            k = arg_key(m, st, seat, v, cache)
            if k != v.key:
                hidden = hidden or []
                hidden.append(len(keys))
            add(k)
        elif t is Zone or t is Seat:
            add(v.key)
        elif t is int and v in int_keys:  # a whole number met before: its key kept (key_of)
            add(int_keys[v])
        else:
            add(key_of(v))
    if hidden is None:
        return values, keys
    unseen = cache.get("_unseen")
    if unseen is None:
        unseen = {}
        for z, pos in unseen_slots(m, st, seat):
            c = m.cards[st["z"][z][pos]]
            unseen.setdefault(c.back, set()).add(c.id)
        cache["_unseen"] = unseen
    offered: dict = {}
    for i in hidden:
        offered.setdefault(values[i].back, set()).add(values[i].id)
    named = [i for i in hidden if unseen.get(values[i].back, set()) <= offered[values[i].back]]
    if not named:
        return values, keys
    values = list(values)
    for i, v in zip(named, sorted((values[i] for i in named), key=lambda c: c.id)):
        values[i], keys[i] = v, v.key
    return values, keys


def resolve(m, st, key: str):
    """The card a handle `ZONE@N` names in `st`, or None when `key` is not a handle of a card there."""
    zone_key, sep, pos = key.rpartition(HANDLE)
    if not sep or not pos.isdigit():
        return None
    zone = m.value_by_key().get(zone_key)
    if zone is None or not hasattr(zone, "id") or zone_key in m.card_by_key:
        return None
    ids = st["z"][zone.id]
    i = int(pos) - 1
    return m.cards[ids[i]] if 0 <= i < len(ids) else None


__all__ = ["arg_key", "arg_keys", "resolve", "place_of", "seats_identifying", "HANDLE"]
