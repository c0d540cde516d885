"""What each name of the rules language means in a match: constants, built-ins, attributes.

A part of the GameDefinition (definition.py), which answers the compiler with it; it reads the
definition's world (`self.world`).
"""
from __future__ import annotations

from ..runtime import context as rt
from ..runtime.library import _BUILTINS, _CARD_ATTRS, _SEAT_ATTRS, _ZONE_ATTRS
from ..lang.scope import _MISS
from ..core.model import Card, Seat, Zone
from .parts import Part


class Symbols(Part):
    def __init__(self, d, world):
        super().__init__(d)
        self.world = world

    # ---- names the compiler resolves ---------------------------------------------------

    def constant(self, name):
        if name in self.world.constants:
            return self.world.constants[name]
        if name in self.world.zone_by_name:
            return self.world.zone_by_name[name]
        if name in self.world.unique_cards:
            return self.world.unique_cards[name]
        return _MISS

    def constant_names(self):
        return list(self.world.constants) + list(self.world.zone_by_name) + list(self.world.unique_cards)

    _BUILTIN_VALUES = ("cells", "players", "cards", "round", "current", "rows", "columns", "step", "game_over")

    def builtin_value(self, name):
        if name == "cells":
            cells = self.world.cells
            return lambda ctx: cells
        if name == "players":
            seats = self.world.seats
            return lambda ctx: seats
        if name == "cards":
            cards = self.world.cards
            return lambda ctx: cards
        if name == "rows":
            rows = self.world.rows
            return lambda ctx: rows
        if name == "columns":
            cols = self.world.columns
            return lambda ctx: cols
        if name == "round":
            return lambda ctx: ctx.st["flow"]["round"]
        d = self.d
        if name == "current":
            return lambda ctx: rt.turn_player(d, ctx.st)
        if name == "step":
            return lambda ctx: rt.step_name(d, ctx.st)
        if name == "game_over":
            return lambda ctx: ctx.st["flow"]["phase"] == "over"
        return None

    def builtin_value_names(self):
        return list(self._BUILTIN_VALUES)

    def zone_family(self, name):
        return self.world.player_zones.get(name)

    def zone_family_names(self):
        return list(self.world.player_zones)

    def builtin_function(self, name):
        return _BUILTINS.get(name)

    def builtin_function_names(self):
        return list(_BUILTINS)

    def attribute_names(self):
        return (list(_CARD_ATTRS) + list(_ZONE_ATTRS) + list(_SEAT_ATTRS) + list(self.world.cvars) + list(self.world.pvars)
                + list(self.world.zvars) + list(self.world.card_props) + list(self.world.zone_attrs) + list(self.world.player_zones)
                + list(self.mapping_keys()))

    def mapping_keys(self) -> frozenset:
        """The keys of every mapping in the constants and the variables' defaults: the only other
        names `x.name` may read (a mapping's entry), so that any other attribute is a typo."""
        cache = self.__dict__.get("_mapping_keys")
        if cache is None:
            keys = set()
            todo = list(self.world.constants.values())
            for table in (self.world.gvars, self.world.pvars, self.world.cvars, self.world.zvars):
                todo.extend(spec.get("default") for spec in table.values())
            while todo:
                v = todo.pop()
                if isinstance(v, dict):
                    keys.update(str(k) for k in v)
                    todo.extend(v.values())
                elif isinstance(v, list):
                    todo.extend(v)
            cache = self._mapping_keys = frozenset(keys)
        return cache

    def _var_reader(self, kind, name):
        """(ctx, owner) -> the variable `name` of a card, zone or player (kind cv, zv, pv)."""
        _, dec = self.world.var_codec(kind, name)
        if dec is None:
            return lambda ctx, o: ctx.st[kind][name][o.id]
        return lambda ctx, o: dec(ctx.st[kind][name][o.id])

    def attr_handlers(self, name):
        """(kind of card access, zone handler, seat handler, generic getter) for `x.name`.

        The kind of card access lets the compiler inline the common cases:
        ("prop", None) a printed property, ("var", None) a plain card variable,
        ("call", h) anything else, or None.
        """
        card_h = _CARD_ATTRS.get(name)
        if card_h is None and name in self.world.cvars:
            card_h = self._var_reader("cv", name)
        if card_h is None and name in self.world.card_props:
            card_h = lambda ctx, o: o.props.get(name)
        zone_h = _ZONE_ATTRS.get(name)
        if zone_h is None and name in self.world.zvars:
            zone_h = self._var_reader("zv", name)
        if zone_h is None and name in self.world.zone_attrs:
            zone_h = lambda ctx, o: o.attrs.get(name)
        seat_h = _SEAT_ATTRS.get(name)
        if seat_h is None and name in self.world.pvars:
            seat_h = self._var_reader("pv", name)
        if seat_h is None and name in self.world.player_zones:
            fam = self.world.player_zones[name]
            seat_h = lambda ctx, o: fam[o.id]
        card_kind = None
        if card_h is not None:
            if name in _CARD_ATTRS:
                card_kind = ("call", card_h)
            elif name in self.world.cvars:
                card_kind = ("var", None) if self.world.var_codec("cv", name)[1] is None else ("call", card_h)
            else:
                card_kind = ("prop", None)
        if name.startswith("__") or (card_h is None and zone_h is None and seat_h is None
                                     and name not in self.mapping_keys()):
            return None, None, None, None

        def get(ctx, o):
            t = type(o)
            if t is Card:
                if card_h is None:
                    raise KeyError(name)
                return card_h(ctx, o)
            if t is Zone:
                if zone_h is None:
                    raise KeyError(name)
                return zone_h(ctx, o)
            if t is Seat:
                if seat_h is None:
                    raise KeyError(name)
                return seat_h(ctx, o)
            if o is None:
                return None
            if t is dict:
                return o[name]
            raise KeyError(name)
        return card_kind, zone_h, seat_h, get
