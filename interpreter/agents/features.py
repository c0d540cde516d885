"""What a learnt evaluation reads of a position: each seat's features, from what that seat sees.

A feature is named in the content's words: a zone's name, a tag, a variable (agents/learnt.py lists
the kinds). `Reader.features(obs, seat)` reads them in the seat's observation (`game.observe`): the
definition, used to record the positions a model is fitted on. `Reader.fast(st, seat)` reads the same
values in a state through the information layer's visibility (which cards the seat identifies, which
variables it is shown), without building the whole observation, a tenth of the cost: what the search
calls at each rollout's cut-off. tests/test_learnt_eval.py holds the two equal over positions of
every bundled game, and both unchanged when what a seat cannot see is swapped.
"""
from __future__ import annotations

from ..core.model import Seat
from ..information.views import concealed_ids, visible_cards

BOARD = "board"  # the zone name that stands for every cell
NUMERIC = ("int", "bool", "float")  # declared variable types stored as the number they are
ROUND = ("round", None, None, None, None)
PLACE = ("place in turn order", None, None, None, None)


class Key(tuple):
    """A feature: (kind, zone, tag, variable, value), None where the kind has no such part. The
    readers build plain tuples (equal, and hashed alike); a Key names one in words."""

    __slots__ = ()

    def __new__(cls, kind: str, zone=None, tag=None, variable=None, value=None):
        return tuple.__new__(cls, (kind, zone, tag, variable, value))

    @property
    def kind(self):
        return self[0]

    def as_json(self) -> dict:
        out = {"kind": self[0]}
        for name, v in zip(("zone", "tag", "variable", "value"), self[1:]):
            if v is not None:
                out[name] = v
        return out

    @classmethod
    def from_json(cls, d: dict) -> "Key":
        return cls(d["kind"], d.get("zone"), d.get("tag"), d.get("variable"), d.get("value"))

    def text(self) -> str:
        """The feature in a designer's words (the report of learn-eval, evaluation.json's `text`)."""
        kind, zone, tag, var, value = self
        where = "on the board" if zone == BOARD else f"in {zone}"
        return {
            "player variable": f"their {var}",
            "player variable is": f"their {var} is {value}",
            "game variable": f"the game's {var}",
            "game variable is them": f"the game's {var} is them",
            "cards": f"{tag + ' ' if tag else ''}cards in their {zone}",
            "their cards": f"their {tag + ' ' if tag else ''}cards {where}",
            "their cards with": f"their cards with {var}",
            "cards whose": f"cards whose {var} is them",
            "round": "the round",
            "place in turn order": "their place in the turn order",
        }[kind]


def _number(v) -> bool:
    return isinstance(v, (int, float))  # a bool too


def _plan(typ, *, word: bool = False) -> str | None:
    """How a variable of declared type `typ` gives features: "number" (stored as the number it is),
    "word" (a player's word), "player" (a game variable naming a seat), "any" (read and looked at),
    None (never: a card, a list...)."""
    if typ in NUMERIC:
        return "number"
    if typ == "str":
        return "word" if word else None
    if typ == "player":
        return None if word else "player"
    return "any" if typ in ("any", None) else None


def _add(out: dict, k, v: float) -> None:
    out[k] = out.get(k, 0.0) + v


class Reader:
    """Reads the features of a seat (one per game: its cards, zones and variables)."""

    def __init__(self, game):
        c = game.catalog
        self.game = game
        self.seats = tuple(s.key for s in c.seats)
        self.zones = {z.key: (z.owner.key if z.owner is not None else None, BOARD if z.is_cell else z.name)
                      for z in c.zones}
        self.cards = {k.key: (k.owner.key if k.owner is not None else None, tuple(sorted(k.tags)))
                      for k in c.cards}
        self.card_keys = tuple(k.key for k in c.cards)
        self.specs = {kind: dict(c.variables(kind)) for kind in ("player", "game", "card")}
        self.types = {kind: {n: s.get("type") for n, s in vs.items()} for kind, vs in self.specs.items()}
        self.tags = frozenset(t for k in c.cards for t in k.tags)
        self.own_zone_names = frozenset(name for owner, name in self.zones.values() if owner is not None)
        self.shared_zone_names = frozenset(name for owner, name in self.zones.values() if owner is None)
        # the fast path's tables: per seat, its own zones (id, name); the shared zones (id, name)
        self.own_zones = [[(z.id, name) for z in c.zones for owner, name in [self.zones[z.key]] if owner == s]
                          for s in self.seats]
        self.shared_zones = [(z.id, self.zones[z.key][1]) for z in c.zones if z.owner is None]
        self.card_ids = {k.key: k.id for k in c.cards}
        self.card_owner_index = tuple(k.owner.id if k.owner is not None else None for k in c.cards)
        self.card_tags = tuple(self.cards[k][1] for k in self.card_keys)
        self.by_side = any(z.visibility == "side" for z in c.zones)  # else each seat sees a spectator's cards and its own zones'
        self.owner_zones = [[z.id for z in c.zones if z.visibility == "owner" and z.owner is not None
                             and z.owner.id == s] for s in range(len(self.seats))]
        self.conceals = c.conceals
        # the variables a seat is shown (public, or its own when `owner`), and how each is read
        self.player_plan = [(n, _plan(t, word=True)) for n, t in self.types["player"].items()
                            if self.specs["player"][n].get("visibility", "public") in ("public", "owner")
                            and _plan(t, word=True)]
        self.game_plan = [(n, _plan(t)) for n, t in self.types["game"].items()
                          if self.specs["game"][n].get("visibility", "public") == "public" and _plan(t)]

    # ---- from the observation (the definition) ------------------------------------------------

    def features(self, obs: dict, seat: int) -> dict:
        """{key: value} of every feature `seat` has in `obs`, its own observation (a feature worth 0 may
        be left out); a key is a plain tuple equal to its Key (`Key(*key)` names it)."""
        me = self.seats[seat]
        out = {}
        ptypes, gtypes, ctypes = self.types["player"], self.types["game"], self.types["card"]
        for name, v in obs["players"][me]["vars"].items():
            if _number(v):
                out[("player variable", None, None, name, None)] = float(v)
            elif isinstance(v, str) and ptypes.get(name) == "str":
                out[("player variable is", None, None, name, v)] = 1.0
        for name, v in obs["vars"].items():
            if _number(v):
                out[("game variable", None, None, name, None)] = float(v)
            elif v == me and gtypes.get(name) == "player":
                out[("game variable is them", None, None, name, None)] = 1.0
        zones, cards = self.zones, self.cards
        for zkey, shown in obs["zones"].items():
            owner, name = zones[zkey]
            keys = shown.get("cards")
            if keys is None:
                top = shown.get("top")
                keys = (top,) if top is not None else ()
            if owner == me:
                _add(out, ("cards", name, None, None, None), shown["count"])
                for ck in keys:
                    if ck is not None:
                        for tag in cards[ck][1]:
                            _add(out, ("cards", name, tag, None, None), 1.0)
            elif owner is None:
                for ck in keys:
                    if ck is not None and cards[ck][0] == me:
                        _add(out, ("their cards", name, None, None, None), 1.0)
                        for tag in cards[ck][1]:
                            _add(out, ("their cards", name, tag, None, None), 1.0)
        for ck, values in obs["cards"].items():
            mine = cards[ck][0] == me
            for name, v in values.items():
                if _number(v):
                    if mine and v:
                        _add(out, ("their cards with", None, None, name, None), float(v))
                elif v == me and ctypes.get(name) == "player":
                    _add(out, ("cards whose", None, None, name, None), 1.0)
        flow = obs["flow"]
        out[ROUND] = float(flow["round"] or 0)
        order = flow.get("order") or ()
        if me in order:
            out[PLACE] = float(order.index(me))
        return out

    # ---- from a state, through the visibility rules (the search's cut-offs) ----------------------

    def _value(self, st, kind: str, name: str, index, raw, visible: set):
        """A variable's value as the observation shows it (views._Presenter), from its stored `raw`."""
        if self.types[kind].get(name) in NUMERIC or raw is None:
            return raw
        v = self.game.read_variable(st, kind=kind, name=name, index=index)
        if isinstance(v, Seat):
            return v.key
        if isinstance(v, (str, int, float)):
            return v
        key = getattr(v, "key", None)  # a card shows its key only to a seat that identifies it
        return key if key is not None and (key in visible or key not in self.card_ids) else None

    @staticmethod
    def _shown(spec: dict, owner, me) -> bool:
        vis = spec.get("visibility", "public")
        return vis == "public" or (vis == "owner" and owner is not None and owner == me)

    def visible(self, st) -> list[set]:
        """The keys of the cards each seat identifies in `st` (views.visible_cards for every seat: what
        a spectator identifies, and each seat's own zones shown to their owner, once for all seats)."""
        game = self.game
        if self.by_side:
            return [visible_cards(game, st, s) for s in range(len(self.seats))]
        shown = visible_cards(game, st, None)
        concealed = concealed_ids(game, st) if self.conceals else ()
        keys, z = self.card_keys, st["z"]
        out = []
        for zones in self.owner_zones:
            mine = set(shown)
            for zid in zones:
                for cid in z[zid]:
                    if cid not in concealed:
                        mine.add(keys[cid])
            out.append(mine)
        return out

    def fast(self, st) -> list[dict]:
        """`[features(game.observe(st, s), s) for each seat s]`, read from `st` through what each seat
        identifies (a tenth of the cost: the search's cut-offs)."""
        visible = self.visible(st)
        outs = [{} for _ in self.seats]
        self._variables(st, outs, visible)
        z = st["z"]
        keys, tags, owners = self.card_keys, self.card_tags, self.card_owner_index
        for seat, (out, seen) in enumerate(zip(outs, visible)):
            for zid, name in self.own_zones[seat]:
                cards = z[zid]
                _add(out, ("cards", name, None, None, None), len(cards))
                for cid in cards:
                    if keys[cid] in seen:
                        for tag in tags[cid]:
                            _add(out, ("cards", name, tag, None, None), 1.0)
        for zid, name in self.shared_zones:
            for cid in z[zid]:
                o = owners[cid]
                if o is not None and keys[cid] in visible[o]:
                    out = outs[o]
                    _add(out, ("their cards", name, None, None, None), 1.0)
                    for tag in tags[cid]:
                        _add(out, ("their cards", name, tag, None, None), 1.0)
        if st["cv"]:
            self._card_variables(st, outs, visible)
        flow = st["flow"]
        r = float(flow["round"] or 0)
        order = list(flow.get("order") or ())
        for seat, out in enumerate(outs):
            out[ROUND] = r
            if seat in order:
                out[PLACE] = float(order.index(seat))
        return outs

    def _variables(self, st, outs: list, visible: list) -> None:
        """The features read from player and game variables (those shown to each seat)."""
        pv = st["pv"]
        for name, kind in self.player_plan:
            values = pv[name]
            for seat, out in enumerate(outs):
                v = values[seat] if kind == "number" else \
                    self._value(st, "player", name, seat, values[seat], visible[seat])
                if _number(v):
                    out[("player variable", None, None, name, None)] = float(v)
                elif kind == "word" and isinstance(v, str):
                    out[("player variable is", None, None, name, v)] = 1.0
        gv = st["gv"]
        for name, kind in self.game_plan:
            raw = gv[name]
            if kind == "number":
                if _number(raw):
                    for out in outs:
                        out[("game variable", None, None, name, None)] = float(raw)
                continue
            for seat, out in enumerate(outs):
                v = self._value(st, "game", name, None, raw, visible[seat])
                if _number(v):
                    out[("game variable", None, None, name, None)] = float(v)
                elif kind == "player" and v == self.seats[seat]:
                    out[("game variable is them", None, None, name, None)] = 1.0

    def _card_variables(self, st, outs: list, visible: list) -> None:
        """The features read from card variables: over each seat's own identified cards, and the
        identified cards whose variable names the seat (views.view shows a card's variables only to
        the seats that identify it, each variable to whom its `visibility` shows it)."""
        cspecs, ctypes = self.specs["card"], self.types["card"]
        ids, owners, seats = self.card_ids, self.card_owner_index, self.seats
        cv = st["cv"]
        public = all(cspecs[name].get("visibility", "public") == "public" for name in cv)
        seen = [[ids[key] for key in v] for v in visible]
        mine = [[cid for cid in cards if owners[cid] == s] for s, cards in enumerate(seen)]
        for name, values in cv.items():
            typ = ctypes.get(name)
            spec = cspecs[name]
            if typ in NUMERIC:  # a number: only the seat's own cards count
                k = ("their cards with", None, None, name, None)
                for s, cards in enumerate(mine):
                    if not public and not self._shown(spec, seats[s], seats[s]):
                        continue
                    out = outs[s]
                    for cid in cards:
                        v = values[cid]
                        if v and _number(v):
                            _add(out, k, float(v))
                continue
            if typ not in ("player", "any", None):
                continue  # a word, a card, a list...: no feature
            for s, cards in enumerate(seen):
                me, out = seats[s], outs[s]
                for cid in cards:
                    raw = values[cid]
                    owner = owners[cid]
                    if raw is None or not public and not self._shown(spec, seats[owner] if owner is not None
                                                                     else None, me):
                        continue
                    v = self._value(st, "card", name, cid, raw, visible[s])
                    if _number(v):
                        if v and owner == s:
                            _add(out, ("their cards with", None, None, name, None), float(v))
                    elif v == me and typ == "player":
                        _add(out, ("cards whose", None, None, name, None), 1.0)

    def problem(self, key) -> str | None:
        """What is wrong with a feature for this game (a zone, tag or variable it does not have, or
        one no seat is shown), or None."""
        kind, zone, tag, var, value = key
        for family, kinds in (("player", ("player variable", "player variable is")),
                              ("game", ("game variable", "game variable is them")),
                              ("card", ("their cards with", "cards whose"))):
            if kind in kinds:
                spec = self.specs[family].get(var)
                if spec is None:
                    return f"the game has no {family} variable {var!r}"
                if spec.get("visibility", "public") not in ("public", "owner"):
                    return f"the {family} variable {var!r} is shown to nobody"
        if kind == "cards" and zone not in self.own_zone_names:
            return f"the game has no zone {zone!r} of each player's"
        if kind == "their cards" and zone not in self.shared_zone_names:
            return f"the game has no shared zone {zone!r}"
        if tag is not None and tag not in self.tags:
            return f"no card of the game has the tag {tag!r}"
        return None


def seat_features(game, st, seat: int, reader: "Reader | None" = None) -> dict:
    """The features of `seat` in `st`, read from its observation only."""
    return (reader or Reader(game)).features(game.observe(st, seat), seat)


__all__ = ["Key", "Reader", "seat_features", "BOARD"]
