"""What one seat may know of a state: hidden information as a view, never a mutation.

A view is derived only from the visibility each zone declares in content:

    public   everyone sees the keys of the cards in it
    owner    the owning seat sees the keys; everyone else sees only the count
    hidden   nobody sees the keys, only the count
    top      everyone sees the key of the top card, and the count
    side     the owning seat and every seat on its side see the keys; others see
             only the count (a seat's side is the content's `scoring.side`,
             evaluated for that seat; without it, each seat is its own side)

Board cells are zones, and follow the same rule. A card variable declared with
`conceals: true` (content: vars.card) hides its card's identity from every view
while it is true, whatever the zone: the card still counts, but its key is None
in its zone's list, its variables are not shown and references to it are None
(a piece turned face down on the board). The view is plain JSON data:

    {"seat": "p1" | None,
     "flow": {"phase", "round", "turn", "step", "order", "deciding"[, "window"][, "simultaneous"]},
        # window: when one is open; simultaneous: {"chosen", "waiting"[, "mine"]} in a simultaneous step
     "zones": {zone key: {"count": n, "cards": [keys]} | {"count": n} | {"count": n, "top": key}},
     "cards": {card key: {card variable: value}},    # only cards this seat can see
     "players": {seat key: {"name": ..., "vars": {...}}},
     "vars": {game variable: value},
     "zone_vars": {zone key: {zone variable: value}},
     "pending": {"player", "prompt", "optional"[, "options"]} | None}

A value that refers to a card the seat cannot see (a variable of type card,
say) is shown as ``None``: keys never travel through a side door. The state's
random generator, forced dice and suspended locals are never part of a view.
"""
from __future__ import annotations

from ..runtime import context as rt
from ..core.model import Card, Seat, Zone, key_of, label_of

from ..runtime import visibility as vis
from ..runtime.visibility import TOP


def _seat_index(game, seat) -> int | None:
    if seat is None:
        return None
    if isinstance(seat, bool) or not isinstance(seat, int) or not (0 <= seat < len(game.m.seats)):
        raise ValueError(f"no seat {seat!r}: seats are 0 to {len(game.m.seats) - 1}, or None for a spectator")
    return seat


def seat_sides(game, state) -> list:
    """Each seat's side in `state`: the content's `scoring.side` for that seat, else the seat itself."""
    return vis.seat_sides(game.m, state)


def concealed_ids(game, state) -> set:
    """The ids of the cards whose identity nobody may see now (a `conceals` card variable is true)."""
    return vis.concealed_ids(game.m, state)


def visible_cards(game, state, seat: int | None) -> set:
    """The keys of the cards `seat` can see in `state` (seat None: a spectator)."""
    return vis.visible_keys(game.m, state, _seat_index(game, seat))


_PLAIN = frozenset((bool, int, float, str, type(None)))


class _Presenter:
    """Turns stored values into JSON, hiding references to cards the seat cannot see."""

    def __init__(self, game, visible_ids: set):
        self.m = game.m
        self.visible = visible_ids

    def value(self, v):
        t = type(v)
        if t in _PLAIN:
            return v
        if t is Card:
            return v.key if v.id in self.visible else None
        if t is Zone or t is Seat:
            return v.key
        if isinstance(v, (list, tuple)):
            return [self.value(x) for x in v]
        if isinstance(v, dict):
            return {str(k): self.value(x) for k, x in v.items()}
        if v is None:
            return None
        if isinstance(v, bool):  # before int: a bool is an int
            return bool(v)
        if isinstance(v, int):  # content numbers may still be YAML scalar subclasses
            return int(v)
        if isinstance(v, float):
            return float(v)
        return str(v)

    def var(self, kind: str, name: str, stored):
        _, dec = self.m.var_codec(kind, name)
        try:
            v = dec(stored) if dec is not None and stored is not None else stored
        except (IndexError, KeyError, TypeError):
            v = stored
        return self.value(v)


def view(game, state, seat: int | None, *, leave_out=()) -> dict:
    """Everything `seat` may know of `state`, as JSON-serialisable data (seat None: a spectator);
    `leave_out`, parts among "players", "vars" and "zone_vars" not computed, left out of the data
    (a caller that has them already: adapters/canonical.py)."""
    seat = _seat_index(game, seat)
    m = game.m
    visible_ids = set()
    zones = {}
    concealed = vis.concealed_ids(game.m, state)
    sides = vis.sides(game.m, state)
    for zone, ids in zip(m.zones, state["z"]):
        shown = {"count": len(ids)}
        if vis.sees_contents(zone, seat) or vis.on_side(zone, seat, sides):
            shown["cards"] = [m.cards[i].key if i not in concealed else None for i in ids]
            visible_ids.update(ids)
        elif zone.visibility == TOP and ids:
            shown["top"] = m.cards[ids[0]].key if ids[0] not in concealed else None
            visible_ids.add(ids[0])
        zones[zone.key] = shown
    visible_ids -= concealed
    present = _Presenter(game, visible_ids)

    cards = {}
    if state["cv"]:
        cvs = [(name, values, m.var_codec("cv", name)[1], m.cvars[name]) for name, values in state["cv"].items()]
        public = all(spec.get("visibility", "public") == "public" for *_, spec in cvs)
        for cid in sorted(visible_ids):
            owner = m.cards[cid].owner  # a card variable declared `visibility: owner` is its owner's
            owner = owner.id if owner is not None else None
            shown = {}
            for name, values, dec, spec in cvs:
                if not public and not _var_shown(spec, owner, seat):
                    continue
                v = values[cid]
                shown[name] = v if type(v) in _PLAIN and (dec is None or v is None) else present.var("cv", name, v)
            cards[m.cards[cid].key] = shown
    out = {"seat": m.seats[seat].key if seat is not None else None, "flow": _flow(game, state, seat),
           "zones": zones, "cards": cards}
    if "players" not in leave_out:
        out["players"] = _players(m, state, seat, present)
    if "vars" not in leave_out:
        out["vars"] = {name: present.var("gv", name, v) for name, v in state["gv"].items()
                       if m.gvars[name].get("visibility", "public") == "public"}
    if "zone_vars" not in leave_out:
        out["zone_vars"] = _zone_vars(m, state, seat, present)
    out["pending"] = _pending(game, state, seat, present)
    return out


def _players(m, state, seat, present: _Presenter) -> dict:
    players = {}
    pvs = _shown_vars(m, "pv", state["pv"], m.pvars)
    for s in m.seats:  # a player variable declared `visibility: owner` is shown to that player only
        sid, shown = s.id, {}
        for name, values, dec, public in pvs:
            if public or (public is not None and seat == sid):
                v = values[sid]
                shown[name] = v if type(v) in _PLAIN and (dec is None or v is None) else present.var("pv", name, v)
        players[s.key] = {"name": s.name, "vars": shown}
    return players


def _zone_vars(m, state, seat, present: _Presenter) -> dict:
    zone_vars = {}
    if state["zv"]:
        zvs = _shown_vars(m, "zv", state["zv"], m.zvars)
        for zone in m.zones:
            owner = zone.owner.id if zone.owner is not None else None
            zid, shown = zone.id, {}
            for name, values, dec, public in zvs:
                if public or (public is not None and seat is not None and seat == owner):
                    v = values[zid]
                    shown[name] = v if type(v) in _PLAIN and (dec is None or v is None) else present.var("zv", name, v)
            zone_vars[zone.key] = shown
    return zone_vars


def _shown_vars(m, kind: str, stored: dict, specs: dict) -> list:
    """(name, values, decoder, public) of each variable of `kind` (pv, zv), in the state's order:
    public True when every seat sees it, False when only its owner does (`visibility: owner`),
    None when nobody (_var_shown); a value needs `Presenter.var` only when not plain or decoded."""
    out = []
    for name, values in stored.items():
        vis = specs[name].get("visibility", "public")
        out.append((name, values, m.var_codec(kind, name)[1],
                    True if vis == "public" else False if vis == "owner" else None))
    return out


_SCALAR = frozenset(("int", "bool", "float", "number", "text", "string", "card", "zone", "cell", "player"))


def _frozen(v):
    """A stored value as a hashable one that tells apart what `v` tells apart: lists and tuples as
    tuples, dicts as their items in order; a value of another kind that cannot be hashed as a new
    object, equal to nothing (a key holding it is never found again)."""
    t = type(v)
    if t in _PLAIN:
        return v
    if t is list or t is tuple:
        return tuple(map(_frozen, v))
    if isinstance(v, dict):
        return (dict, tuple((k, _frozen(x)) for k, x in v.items()))
    try:
        hash(v)
    except TypeError:
        return object()
    return v


class ViewKey:
    """What `view(game, st, seat)` and observation.observe read of a state, for one seat, as a
    hashable key: two states with the same key give that seat the same view, so a view written
    once serves every state of its key (a search meets the same views again and again). The key
    keeps what the view shows, plus raw values where showing them depends on more (every card
    variable, a variable's card references, the flow's own data): it may tell apart states the
    seat sees alike, never the reverse. `key(st)` is None when a choice is pending (its prompt is
    written from the suspended rule's locals): no key then.

    Per zone, by the plan of who identifies its cards (runtime/visibility.zone_plan): its cards
    where the seat sees into it, else their backs (their number when every card has the same
    back), the top card of a `top` zone; where cards can be concealed or zones shown by side,
    each place as the card the seat identifies there or its back, with the seats' sides."""

    def __init__(self, game, seat: int | None):
        m = game.m
        self.m, self.seat = m, _seat_index(game, seat)
        self.backs = [c.back for c in m.cards]
        self.one_back = len(set(self.backs)) <= 1
        self.by_place = bool(getattr(m, "concealing", ())) or any(z.visibility == vis.SIDE for z in m.zones)
        seat = self.seat
        self.zones = []  # per zone: "all" (the seat identifies every card), "top" or "none"
        for rule in vis.zone_plan(m):
            if rule is None or (rule[0] != "top" and seat in rule[1]):
                self.zones.append("all")
            else:
                self.zones.append("top" if rule[0] == "top" else "none")
        owners = [s.id for s in m.seats]
        # the variables shown to the seat, and whether their stored values are hashable as they are
        self.pv = [(name, spec["type"] in _SCALAR) for name, spec in m.pvars.items()
                   if any(_var_shown(spec, o, seat) for o in owners)]
        zone_owners = [z.owner.id if z.owner is not None else None for z in m.zones]
        self.zv = [(name, spec["type"] in _SCALAR) for name, spec in m.zvars.items()
                   if any(_var_shown(spec, o, seat) for o in zone_owners)]
        self.gv = [(name, spec["type"] in _SCALAR) for name, spec in m.gvars.items()
                   if spec.get("visibility", "public") == "public"]
        self.cv = [(name, spec["type"] in _SCALAR) for name, spec in m.cvars.items()]

    def key(self, st):
        if st["pending"]:
            return None
        zones, shown = self._zones(st)
        parts = [zones]
        if self.cv:  # the variables of the cards the seat may identify (shown: None for every card)
            cv = st["cv"]
            for name, scalar in self.cv:
                values = cv[name] if shown is None else tuple([cv[name][c] for c in shown])
                parts.append(values if scalar else _frozen(values))
        for kind, names in (("pv", self.pv), ("zv", self.zv)):
            stored = st[kind]
            for name, scalar in names:
                values = stored[name]
                parts.append(values if scalar else _frozen(values))
        gv = st["gv"]
        for name, scalar in self.gv:
            v = gv[name]
            parts.append(v if scalar or type(v) in _PLAIN else _frozen(v))
        plain = _PLAIN
        parts.append(tuple([(k, v if type(v) in plain else _frozen(v)) for k, v in st["flow"].items()]))
        return tuple(parts)

    def _zones(self, st) -> tuple:
        """(the zones' part of the key, the ids of the cards the seat may identify in zone order,
        or None for every card: where cards can be concealed, every card variable counts)."""
        zl = st["z"]
        backs = self.backs
        if self.by_place:
            unseen = set(vis.unseen_slots(self.m, st, self.seat))
            sides = vis.sides(self.m, st)
            return (tuple(sides) if sides is not None else None,
                    tuple(tuple(backs[c] if (zid, pos) in unseen else c for pos, c in enumerate(ids))
                          for zid, ids in enumerate(zl))), None
        out = []
        shown = []
        one = self.one_back
        for kind, ids in zip(self.zones, zl):
            if kind == "all":
                out.append(ids)
                shown += ids
            elif kind == "top" and ids:
                out.append((ids[0], len(ids) if one else tuple(backs[c] for c in ids[1:])))
                shown.append(ids[0])
            else:
                out.append(len(ids) if one else tuple(backs[c] for c in ids))
        return tuple(out), shown


def _seat_key(m, i):
    if i is None:
        return None
    return m.seats[i].key if i >= 0 else "chance"  # CHANCE (-1): a chance node, explicit chance


def prompt_for(game, state, p: dict, visible: set | None) -> str:
    """The prompt of the pending choice `p`, written for a seat that identifies the cards whose
    ids are in `visible` (None: every card). The prompt's template is evaluated again from the
    values the suspended rule saved (its locals): a card the seat cannot identify reads `a card`,
    whatever its key or name looks like. Nothing changes the state while a choice is pending, so
    the values are those the rule saw when it stopped."""
    m = game.m
    render = m.prompts.get(p["k"])
    if render is None or visible is None:
        return p["prompt"]
    ctx = rt.Ctx(state, m, m.seats[p["me"]] if p["me"] is not None else None)
    ctx.locals = rt.decode(m, p["locals"])
    ctx.memo = {}
    ctx.viewer = visible
    return render(ctx)


def _var_shown(spec, owner: int, seat) -> bool:
    vis = spec.get("visibility", "public")
    return vis == "public" or (vis == "owner" and seat is not None and owner is not None and owner == seat)


def visible_cards_ids(game, state, seat) -> set:
    m = game.m
    return {m.card_by_key[k].id for k in visible_cards(game, state, seat)}


def _flow(game, state, seat=None) -> dict:
    m = game.m
    flow = state["flow"]
    turn = rt.turn_player(m, state)
    out = {
        "phase": flow["phase"],
        "round": flow["round"],
        "order": [_seat_key(m, i) for i in flow.get("order") or []],
        "turn": turn.key if turn is not None else None,
        "step": rt.step_name(m, state) if flow["phase"] == "play" else None,
        "deciding": _seat_key(m, game.current_player(state)),
    }
    if flow.get("win"):  # an out-of-turn window is open (flow.turn.windows)
        out["window"] = m.windows[flow["win"][0][0]].name
    if flow.get("sim"):  # a simultaneous step: who has chosen is public, a choice only its seat's
        out["simultaneous"] = game.simultaneous.public(state, seat)
    return out


def _pending(game, state, seat, present: _Presenter):
    if not state["pending"]:
        return None
    m = game.m
    p = state["pending"][-1]
    out = {"player": _seat_key(m, p["player"]), "prompt": prompt_for(game, state, p, present.visible),
           "optional": p["optional"]}
    if seat is not None and p["player"] == seat:
        # the chooser names each option by its key in `choose KEY`, so it sees them all
        options = rt.decode(m, p["options"])
        out["options"] = [{"key": key_of(v), "label": label_of(v)} for v in options]
        concealed = vis.concealed_ids(game.m, state)
        if concealed:  # not even the chooser may tell a concealed card: content offers its cell instead
            out["options"] = [o if not (type(v) is Card and v.id in concealed) else {"key": None, "label": "?"}
                              for o, v in zip(out["options"], options)]
    return out


__all__ = ["view", "visible_cards", "concealed_ids", "prompt_for", "ViewKey"]
