"""Setting up a position by hand: for tests, scenarios and designers pinning a rule down.

    pos = Position(game, game.new_game(seed=1))
    pos.move("coin#1", "r1c3")
    pos.set("p1", "atk", 2)
    pos.force_dice(4, 5, 2, 6)
    pos.turn("p1", step="act")
    state = pos.state

Names are the stable keys used in actions and logs (card keys, zone keys,
seat keys p1, p2, ...). Errors name what was not found, with a suggestion.
"""
from __future__ import annotations

from ..errors import InterpretError, did_you_mean
from ..core.model import Card, Seat, Zone
from ..core.state import place_card, touch


class PositionError(InterpretError):
    """A position names something that does not exist, or asks for something impossible."""


class Position:
    def __init__(self, game, state: dict):
        self.game = game
        self.catalog = game.catalog
        self.state = state

    # ---- lookups -----------------------------------------------------------------------

    def card(self, key: str) -> Card:
        c = self.catalog.card_by_key.get(key)
        if c is None:
            raise PositionError(f"no card `{key}`" + _hint(key, self.catalog.card_by_key))
        return c

    def zone(self, key: str) -> Zone:
        z = self.catalog.zone(key)
        if z is not None:
            return z
        raise PositionError(f"no zone `{key}`" + _hint(key, [z.key for z in self.catalog.zones]))

    def seat(self, key) -> Seat:
        if isinstance(key, Seat):
            return key
        if isinstance(key, int):
            return self.catalog.seats[key]
        for s in self.catalog.seats:
            if key in (s.key, s.name):
                return s
        raise PositionError(f"no player `{key}`" + _hint(str(key), [s.key for s in self.catalog.seats]))

    def cards(self, zone_key: str) -> list[str]:
        z = self.zone(zone_key)
        return [self.catalog.cards[i].key for i in self.state["z"][z.id]]

    def where(self, card_key: str) -> str | None:
        zid = self.state["loc"][self.card(card_key).id]
        return self.catalog.zones[zid].key if zid >= 0 else None

    def first(self, name: str, zone_key: str | None = None) -> str:
        """The key of the first card named `name` (in a zone, if given)."""
        ids = self.state["z"][self.zone(zone_key).id] if zone_key else range(len(self.catalog.cards))
        for i in ids:
            if self.catalog.cards[i].name == name:
                return self.catalog.cards[i].key
        raise PositionError(f"no card named `{name}`" + (f" in {zone_key}" if zone_key else ""))

    # ---- changes -----------------------------------------------------------------------

    def move(self, card_key: str, zone_key: str, top: bool = False) -> "Position":
        """Put a card in a zone; whatever is on a full board cell goes to the box first."""
        card, zone = self.card(card_key), self.zone(zone_key)
        ids = self.state["z"][zone.id]
        if self.state["loc"][card.id] == zone.id:  # already there: only its place in the zone changes
            place_card(self.state, card.id, zone.id, top)
            return self
        if zone.capacity is not None and len(ids) >= zone.capacity and self.state["loc"][card.id] != zone.id:
            box = self.zone("box")
            self.game.move_card(self.state, self.catalog.cards[ids[-1]], box)
        self.game.move_card(self.state, card, zone, top=top)
        return self

    def clear(self, zone_key: str, to: str = "box") -> "Position":
        z = self.zone(zone_key)
        for i in list(self.state["z"][z.id]):
            self.game.move_card(self.state, self.catalog.cards[i], self.zone(to))
        return self

    def swap(self, a: str, b: str) -> "Position":
        self.game.swap_cards(self.state, self.card(a), self.card(b))
        return self

    def set(self, owner, name: str, value) -> "Position":
        """Set a variable: owner None (the game), a seat key, a card key or a zone key."""
        kind, index = self._var_home(owner, name)
        value = self._resolve(value)
        from ..lang.kinds import declared_type
        typ = declared_type(self.catalog.variables(kind)[name])  # declared, or the kind of its default
        expected = {"int": int, "bool": bool, "str": str, "list": list}.get(typ)
        if expected is not None and value is not None and not (
                isinstance(value, expected) and (expected is not int or not isinstance(value, bool))):
            held = {"int": "a number", "bool": "yes or no", "str": "a text", "list": "a list"}[typ]
            raise PositionError(f"`{name}` holds {held}, not {value!r}")
        self.game.write_variable(self.state, kind=kind, name=name, index=index, value=value)
        return self

    def get(self, owner, name: str):
        kind, index = self._var_home(owner, name)
        return self.game.read_variable(self.state, kind=kind, name=name, index=index)

    def _var_home(self, owner, name):
        m = self.catalog
        if owner is None:
            if name not in m.variables("game"):
                raise PositionError(f"no game variable `{name}`" + _hint(name, m.variables("game")))
            return "game", None
        if isinstance(owner, (int, Seat)) or (isinstance(owner, str) and any(owner in (s.key, s.name) for s in m.seats)):
            if name not in m.variables("player"):
                raise PositionError(f"no player variable `{name}`" + _hint(name, m.variables("player")))
            return "player", self.seat(owner).id
        if isinstance(owner, str) and owner in m.card_by_key:
            if name not in m.variables("card"):
                raise PositionError(f"no card variable `{name}`" + _hint(name, m.variables("card")))
            return "card", m.card_by_key[owner].id
        z = self.zone(owner)
        if name not in m.variables("zone"):
            raise PositionError(f"no zone variable `{name}`" + _hint(name, m.variables("zone")))
        return "zone", z.id

    def _resolve(self, value):
        """Strings naming a seat, a card or a zone become that object; lists element-wise."""
        if isinstance(value, list):
            return [self._resolve(v) for v in value]
        if isinstance(value, str):
            for s in self.catalog.seats:
                if value == s.key:
                    return s
            if value in self.catalog.card_by_key:
                return self.catalog.card_by_key[value]
            z = self.catalog.zone(value)
            if z is not None:
                return z
        return value

    def force_dice(self, *values: int) -> "Position":
        self.state["forced"].extend(int(v) for v in values)
        self.state["flow"]["forced_whole"] = True  # a scenario forces every die of a roll, or none (runtime.roll)
        return self

    def force_shuffle(self, cards, zone: str | None = None) -> "Position":
        """The next shuffle (of `zone`, or of anything: a zone or a `shuffled` list) puts `cards`
        (keys or names) first, in this order; the others follow in the order they were."""
        self.state["forced"].append({"order": [str(c) for c in cards],
                                     "zone": self.zone(zone).key if zone is not None else None})
        return self

    def force_random(self, *values: int) -> "Position":
        """The next `random(n)` draws give these values, in order."""
        self.state["forced"].extend({"random": int(v)} for v in values)
        return self

    def turn(self, seat, step: str | None = None, round: int | None = None, order=None) -> "Position":
        """Make it `seat`'s turn (optionally at a step, a round, with a given order of seats)."""
        touch(self.state)
        flow = self.state["flow"]
        s = self.seat(seat)
        flow["phase"] = "play"
        self.state["pending"] = []
        if round is not None:
            flow["round"] = round
        if order is not None:
            flow["order"] = [self.seat(x).id for x in order]
        if s.id not in flow["order"]:
            flow["order"] = [x.id for x in self.catalog.seats]
        flow["pos"] = flow["order"].index(s.id)
        if step is not None:
            if step not in self.catalog.step_names:
                raise PositionError(f"no step `{step}`" + _hint(step, self.catalog.step_names))
            flow["step"] = self.catalog.step_names.index(step)
        flow["finish"] = None
        # the turn's player decides now: no out-of-turn window is open, none opens before its next action
        if self.catalog.windows:
            flow["win"] = None
            flow["wseen"] = [flow["step"], flow.get("acts", 0)]
        # a simultaneous step starts afresh: its seats choose from the first one (simultaneous.py)
        if flow.get("sim") is not None:
            flow["sim"] = None
        self.game.restart_simultaneous(self.state)
        return self


def _hint(name, known) -> str:
    h = did_you_mean(name, list(known))
    return f"; {h}" if h else ""
