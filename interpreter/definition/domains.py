"""The values each action's arguments can ever take, read from the content alone (issue 33, item 6).

Libraries that want a fixed action space (adapters/action_index.py) number every action a game
may offer. The numbering must hold every legal action of every state, so it is made of
over-approximations: for each parameter of each action, a finite set of values that holds every
value its domain can give, whatever the state. They come from the domain's text:

- `cards`, `cells`, `players`, a constant, a zone's `.cards`, `contents(...)`, `tagged_cells(...)`,
  a list written out, `+` of lists, `x if c else y`, `[v for x in c]`, `flatten`, `distinct`...
  are followed into the values they give; a content function is followed into its body (unless a
  card may modify it), its parameters bound to what its arguments may be;
- `C where cond` keeps the values for which `cond` may hold: what a value's own fixed facts decide
  (`it is TAG`, `it.owner`, a card's properties, `and`, `or`, `not`, a content predicate followed
  into its body) drops it; what reads the state keeps it;
- anything else gives every value of its type (every card, every cell...), or of every type when
  its type is not known.

A card a seat cannot identify is given to it by its place (`ZONE@N`, information/handles.py): a
card parameter also takes the places of the zones its cards may lie in that hide a card from a seat
(a zone not public, or any zone when some card variable conceals its card).

arguments.py gives, per action name, the keys each argument may take, from these.
"""
from __future__ import annotations

import operator
import re
from typing import NamedTuple

from ..core.model import HANDLE, Card, Seat, Zone, key_of
from ..runtime.library import _CARD_ATTRS, _SEAT_ATTRS, _ZONE_ATTRS
from ..lang import ast as A
from ..lang import valuetypes as T
from ..lang.kinds import declared_type
from ..lang.scope import Scope

MAX_INT_ARG = 100  # a number nothing bounds is numbered from 0 to this (board columns, counts...)
_DEPTH = 16  # content functions followed into each other at most this deep
_SEQUENCE = ("distinct", "sorted", "reversed", "shuffled", "take", "drop", "without")  # the items of their first argument
_LISTING = _SEQUENCE + ("contents", "tagged_cells", "flatten", "range")  # built-ins giving a list (and row_cells...)
_LISTS = (A.Where, A.ListFor, A.ListOf)  # (an Aggregate of _SEQUENCE too: `value`)
# what a built-in gives (its items, for a list), where the compiler's types do not say
_GIVES = {"walk": T.CELL, "cell": T.CELL, "walk_path": T.CELL, "path": T.CELL, "neighbors": T.CELL, "within": T.CELL,
          "row_cells": T.CELL, "column_cells": T.CELL, "tagged_cells": T.CELL, "seat": T.PLAYER,
          "seat_after": T.PLAYER, "seats_from": T.PLAYER, "card_named": T.CARD, "cards_in": T.CARD,
          "zone_named": T.ZONE, "roll": T.NUMBER, "random": T.NUMBER, "distance": T.NUMBER, "index_of": T.NUMBER,
          "abs": T.NUMBER, "length": T.NUMBER, "score_of": T.NUMBER, "text": T.TEXT, "sees": T.BOOL,
          "is_winner": T.BOOL}
_ARITH = {"+": operator.add, "-": operator.sub, "*": operator.mul, "//": operator.floordiv, "%": operator.mod}


class Vals(NamedTuple):
    """What a value may be (or the items of a collection): `values`, known values (cards, zones,
    seats, numbers, texts, yes/no, none); `places`: the zones its cards may lie in (None:
    anywhere); `numbers`: any small whole number too; `texts`: any text too (never numbered)."""

    values: frozenset = frozenset()
    places: frozenset | None = frozenset()
    numbers: bool = False
    texts: bool = False
    own: bool = False  # its places are the deciding seat's own zones (`me.hand`)
    shown: bool = False  # its cards are never concealed (`C where not it.V`, V concealing)

    def __or__(self, other: "Vals") -> "Vals":
        places = None if self.places is None or other.places is None else self.places | other.places
        return Vals(self.values | other.values, places, self.numbers or other.numbers, self.texts or other.texts,
                    self.own and other.own, self.shown and other.shown)

    @property
    def single(self):
        """The one value it may be, else None (no value is None: a `none` is `(None,)`)."""
        if len(self.values) == 1 and not self.numbers and not self.texts:
            return tuple(self.values)
        return None


NOTHING = Vals()


class Domains:
    """The over-approximations of one definition `m` (a built GameDefinition)."""

    def __init__(self, m, lying: dict | None = None, changed: dict | None = None):
        self.m = m
        self.cards = frozenset(m.cards)
        self.lying = lying  # card -> the zones it may lie in (reach.py); None: any zone
        self.changed = changed  # card variable -> the cards whose value may leave its default; None: any
        self.depth = 0
        self.memo = {}
        self.held = None

    # ---- whole types ------------------------------------------------------------------------

    def every(self, t) -> Vals:
        """Every value of type `t` (valuetypes.py); every value of every type when not known."""
        m = self.m
        if t == T.CARD:
            return Vals(self.cards | {None}, None)
        if t == T.CELL:
            return Vals(frozenset(m.cells) | {None})
        if t == T.ZONE:
            return Vals(frozenset(m.zones) | {None})
        if t == T.PLAYER:
            return Vals(frozenset(m.seats) | {None})
        if t == T.NUMBER:
            return Vals(frozenset({None}), numbers=True)
        if t == T.BOOL:
            return Vals(frozenset({True, False, None}))
        if t == T.TEXT:
            return Vals(frozenset({None}), texts=True)
        return Vals(self.cards | frozenset(m.zones) | frozenset(m.seats) | {True, False, None}, None,
                    numbers=True, texts=True)

    def typed(self, node, scope, item: bool) -> Vals:
        """Every value of the type the compiler gives `node` (or its items), where it can."""
        if type(node) is A.Call and str(node.fn) in _GIVES and self.body(str(node.fn), len(node.args)) is None:
            return self.every(_GIVES[str(node.fn)])
        try:
            types = self.m.compiler.types
            t = types.item_of(node, scope) if item else types.of(node, scope, {})
        except Exception:  # a name it does not know here: any type
            t = None
        if type(t) is T.List:
            t = None
        return self.every(t)

    # ---- the items of a collection -------------------------------------------------------------

    def items(self, node, env: dict, scope) -> Vals:
        t = type(node)
        if t is A.Where:
            return self.kept(self.items(node.coll, env, scope), node.cond, "it", env, scope)
        if t is A.ListFor or (t is A.Aggregate and str(node.fn) in _SEQUENCE):
            return self.each(node.value, str(node.var), node.coll, node.cond, env, scope, flat=False)
        if t is A.ListOf:
            out = NOTHING
            for i in node.items:
                out |= self.value(i, env, scope)
            return out
        if t is A.BinOp and str(node.op) == "+":
            return self.items(node.left, env, scope) | self.items(node.right, env, scope)
        if t is A.Ternary:
            return self.items(node.then, env, scope) | self.items(node.otherwise, env, scope)
        if t is A.Name:
            return self._named_items(node, env, scope)
        if t is A.Attr and str(node.name) == "cards":
            zones = self.value(node.obj, env, scope)
            return self.cards_in(zones)
        if t is A.Call:
            return self._call_items(node, env, scope)
        return self.typed(node, scope, item=True)

    def _named_items(self, node, env, scope) -> Vals:
        m, name = self.m, str(node.name)
        if name in env:  # a name bound here: what it may be or hold
            return env[name]
        if name in scope.slots or name == "me" or name in m.gvars:
            return self.typed(node, scope, item=True)
        if name == "cards":
            return Vals(self.cards, None)
        if name == "cells":
            return Vals(frozenset(m.cells))
        if name == "players":
            return Vals(frozenset(m.seats))
        v = m.constant(name)
        if name in ("rows", "columns"):
            v = list(getattr(m, name))
        if type(v) in (list, tuple):
            return self.known(v)
        return self.typed(node, scope, item=True)

    def _call_items(self, node, env, scope) -> Vals:
        fn, args = str(node.fn), node.args
        body = self.body(fn, len(args))
        if body is not None:
            return self.inlined(body, args, env, scope, self.items)
        if fn == "contents" and len(args) == 1:  # of a zone or of a list of zones
            zones = self.items(args[0], env, scope)
            if not any(type(z) is Zone for z in zones.values):
                zones = self.value(args[0], env, scope)
            return self.cards_in(zones)
        if fn == "tagged_cells" and len(args) == 1 and type(args[0]) is A.Str:
            return Vals(frozenset(self.m.tagged_cells(_text(args[0]))))
        if fn in _SEQUENCE and args:
            return self.items(args[0], env, scope)
        if fn in ("row_cells", "column_cells"):
            return self.value(node, env, scope)
        if fn == "flatten" and len(args) == 1:
            inner = args[0]
            if type(inner) is A.ListFor:
                return self.each(inner.value, str(inner.var), inner.coll, inner.cond, env, scope, flat=True)
            if type(inner) is A.Where and type(inner.coll) is A.ListFor:
                lf = inner.coll  # a list of lists filtered as lists: their items still hold every value
                return self.each(lf.value, str(lf.var), lf.coll, lf.cond, env, scope, flat=True)
            if type(inner) is A.ListOf:
                out = NOTHING
                for i in inner.items:
                    out |= self.items(i, env, scope)
                return out
        if fn == "range" and len(args) == 2:
            low, high = (self.value(a, env, scope).single for a in args)
            if low and high and type(low[0]) is int and type(high[0]) is int and high[0] - low[0] <= 10 * MAX_INT_ARG:
                return Vals(frozenset(range(low[0], high[0] + 1)))
            return Vals(numbers=True)
        return self.typed(node, scope, item=True)

    def each(self, value, var, coll, cond, env, scope, flat: bool) -> Vals:
        """`[value for var in coll where cond]` (flat: the items of each value)."""
        src = self.items(coll, env, scope)
        if cond is not None:
            src = self.kept(src, cond, var, env, scope)
        out = NOTHING
        of = self.items if flat else self.value
        for x in self.expanded(src):
            out |= of(value, {**env, var: Vals(frozenset({x}), src.places)}, scope)
        if src.numbers or src.texts:
            out |= of(value, {**env, var: Vals(numbers=src.numbers, texts=src.texts)}, scope)
        return out

    def expanded(self, vals: Vals):
        return sorted(vals.values, key=_order)

    def cards_in(self, zones: Vals) -> Vals:
        """The cards that may lie in any of `zones`."""
        places = frozenset(z for z in zones.values if type(z) is Zone)
        if self.lying is None:
            return Vals(self.cards, places, own=zones.own)
        return Vals(frozenset().union(*(self.held_in(z) for z in places)), places, own=zones.own)

    def held_in(self, z) -> frozenset:
        """The cards that may lie in zone `z`."""
        if self.lying is None:
            return self.cards
        held = self.held
        if held is None:
            held = {}
            for c, where in self.lying.items():
                for w in where:
                    held.setdefault(w, set()).add(c)
            held = self.held = {w: frozenset(cs) for w, cs in held.items()}
        return held.get(z, frozenset())

    def kept(self, src: Vals, cond, var: str, env, scope) -> Vals:
        """The values of `src` for which `cond` (reading each as `var`) may hold."""
        keep = frozenset(x for x in src.values if self.truth(cond, {**env, var: Vals(frozenset({x}), src.places)},
                                                             scope) is not False)
        concealing = getattr(self.m, "concealing", ())
        shown = bool(concealing) and all(any(_reads_not(c, var, v) for c in _conjuncts(cond)) for v in concealing)
        return src._replace(values=keep, shown=src.shown or shown)

    # ---- one value ---------------------------------------------------------------------------

    def value(self, node, env: dict, scope) -> Vals:
        """What `node` may be; for a list, what it may hold (a name bound to either holds both)."""
        m, t = self.m, type(node)
        if (t in _LISTS or (t is A.BinOp and str(node.op) == "+" and type(node.left) in _LISTS)
                or (t is A.Aggregate and str(node.fn) in _SEQUENCE)):
            return self.items(node, env, scope)
        if t is A.Num:
            return Vals(frozenset({node.value}))
        if t is A.Neg and type(node.operand) is A.Num:
            return Vals(frozenset({-node.operand.value}))
        if t is A.Str:
            return Vals(frozenset({_text(node)}))
        if t is A.Const:
            return Vals(frozenset({node.value}))
        if t is A.Name:
            name = str(node.name)
            if name in env:
                return env[name]
            if name == "me" and name not in scope.slots:
                return Vals(frozenset(m.seats) | {None})
            if name in scope.bound:
                return Vals(frozenset({scope.bound[name]}), None)
            if name not in scope.slots and name not in m.gvars:
                v = m.constant(name)
                if type(v) in (Card, Zone, Seat, int, str, bool):
                    return Vals(frozenset({v}), None)
                if type(v) in (list, tuple) and all(_scalar(x) or type(x) in (Card, Zone, Seat) for x in v):
                    return self.known(v)  # a constant list: what it holds
                if name in ("rows", "columns", "cells", "players", "cards"):
                    return self._named_items(node, env, scope)
            if name in m.gvars and name not in scope.slots:
                return self.every(_declared(m.gvars[name]))
            return self.typed(node, scope, item=False)
        if t is A.Attr:
            return self._attr(node, env, scope)
        if t is A.Ternary:
            return self.value(node.then, env, scope) | self.value(node.otherwise, env, scope)
        if t is A.BinOp and str(node.op) in _ARITH:
            a, b = self.value(node.left, env, scope), self.value(node.right, env, scope)
            if not (a.numbers or b.numbers or a.texts or b.texts) and len(a.values) * len(b.values) <= 64 and all(
                    type(v) is int for v in a.values | b.values):
                try:
                    return Vals(frozenset(_ARITH[str(node.op)](x, y) for x in a.values for y in b.values))
                except ZeroDivisionError:
                    pass
        if t is A.Call:
            fn, args = str(node.fn), node.args
            body = self.body(fn, len(args))
            if body is not None:
                return self.inlined(body, args, env, scope, self.value)
            if fn in ("first", "last") and len(args) == 1:
                return self.items(args[0], env, scope) | Vals(frozenset({None}))
            if fn == "find" and args:  # the first card of a zone, or of a list, with a name
                where = self.value(args[0], env, scope)
                cards = frozenset(c for c in where.values if type(c) is Card)
                return (self.cards_in(where) | Vals(cards, where.places if cards else frozenset())
                        | Vals(frozenset({None})))
            if fn == "cell" and len(args) == 2:  # the cells at those rows and columns (any, when not known)
                rows, cols = (self.value(a, env, scope) for a in args)
                return Vals(frozenset(z for (r, c), z in m.cell_at.items()
                                      if (rows.numbers or r in rows.values) and (cols.numbers or c in cols.values)) | {None})
            if fn == "length" and len(args) == 1 and type(args[0]) is A.Name:
                whole = self._named_items(args[0], env, scope)  # a list of the board or a constant: its length
                if str(args[0].name) not in env and type(m.constant(str(args[0].name))) in (list, tuple) or str(
                        args[0].name) in ("columns", "rows", "cells", "players"):
                    return Vals(frozenset({len(whole.values)}))
            if fn in ("row_cells", "column_cells") and len(args) == 1:
                at = self.value(args[0], env, scope)
                table = getattr(m, fn)
                if at.numbers:
                    return Vals(frozenset(m.cells))
                return Vals(frozenset(c for v in at.values for c in table.get(v, ())))
            if fn in _LISTING:
                return self._call_items(node, env, scope)
        return self.typed(node, scope, item=False)

    def _attr(self, node, env, scope) -> Vals:
        m, name = self.m, str(node.name)
        if (type(node.obj) is A.Name and str(node.obj.name) == "me" and "me" not in env and "me" not in scope.slots
                and name in m.player_zones and name not in m.pvars):
            return Vals(frozenset(m.player_zones[name]), own=True)  # the deciding seat's own zone
        obj = self.value(node.obj, env, scope)
        if (obj.numbers or obj.texts) and name in m.mapping_keys():
            return self.every(None)  # perhaps a mapping's key: any value
        out = set()
        places = frozenset()
        for o in obj.values:
            t = type(o)
            if o is None:
                out.add(None)
            elif t is Card:
                if name in ("cell", "zone"):
                    where = obj.places if obj.places is not None else frozenset(m.zones)
                    if self.lying is not None:
                        where = where & self.lying[o]
                    out |= {z for z in where if name == "zone" or z.is_cell}
                    out.add(None)
                elif name in ("owner", "name", "key", "id"):
                    out.add(getattr(o, name))
                elif name in m.cvars:
                    default = m.cvars[name]["default"]
                    if self.changed is None or o in self.changed.get(name, ()) or not _scalar(default):
                        return self.every(_declared(m.cvars[name]))
                    out.add(default)
                elif name in m.card_props and _scalar(o.props.get(name)):
                    out.add(o.props.get(name))
                elif name in _CARD_ATTRS or name in m.card_props:
                    return self.typed(node, scope, item=False)
            elif t is Zone:
                if name in ("cards", "card", "top"):
                    out |= self.held_in(o)
                    if name != "cards":
                        out.add(None)
                    places = None if places is None else places | {o}
                elif name in ("owner", "name", "key", "id", "capacity"):
                    out.add(getattr(o, name))
                elif name in m.zvars:
                    return self.every(_declared(m.zvars[name]))
                elif (name in m.zone_attrs or (o.is_cell and name in ("row", "column"))) and _scalar(o.attrs.get(name)):
                    out.add(o.attrs.get(name))
                elif name in _ZONE_ATTRS or name in m.zone_attrs or name in ("row", "column"):
                    return self.typed(node, scope, item=False)
            elif t is Seat:
                if name in ("name", "key", "id"):
                    out.add(getattr(o, name))
                elif name == "index":
                    out.add(o.id + 1)
                elif name in m.pvars:
                    return self.every(_declared(m.pvars[name]))
                elif name in m.player_zones:
                    out.add(m.player_zones[name][o.id])
                elif name in _SEAT_ATTRS:
                    return self.typed(node, scope, item=False)
            # no such attribute (an error in play: no value), or a number, a text or yes/no
        return Vals(frozenset(out), places if any(type(v) is Card for v in out) else frozenset())

    # ---- what a condition may be -----------------------------------------------------------

    def truth(self, node, env, scope):
        """True or False when `node` is so whatever the state, else None."""
        t = type(node)
        if t is A.Const and node.value in (True, False):
            return node.value
        if t is A.Not:
            v = self.truth(node.operand, env, scope)
            return None if v is None else not v
        if t is A.And:
            a = self.truth(node.left, env, scope)
            if a is False:
                return False
            b = self.truth(node.right, env, scope)
            return False if b is False else (True if a and b else None)
        if t is A.Or:
            a = self.truth(node.left, env, scope)
            if a is True:
                return True
            b = self.truth(node.right, env, scope)
            return True if b is True else (False if a is False and b is False else None)
        if t is A.IsTag:
            obj = self.value(node.obj, env, scope)
            if obj.numbers or obj.texts or not obj.values:
                return None
            has = {str(node.tag) in (getattr(o, "tags", None) or ()) for o in obj.values}
            if len(has) != 1:
                return None
            return has.pop() != node.negated
        if t is A.Compare and str(node.op) in ("==", "!=", "<", "<=", ">", ">="):
            a, b = self.value(node.left, env, scope).single, self.value(node.right, env, scope).single
            if a is None or b is None:
                return None
            return _compared(a[0], str(node.op), b[0])
        if t is A.Call:
            body = self.body(str(node.fn), len(node.args))
            if body is not None:
                return self.inlined(body, node.args, env, scope, self.truth)
        if t in (A.Attr, A.Name):  # a value read as yes/no
            v = self.value(node, env, scope)
            if not v.numbers and not v.texts and v.values:
                truths = {bool(x) for x in v.values if type(x) in (bool, int, type(None))}
                if len(truths) == 1 and all(type(x) in (bool, int, type(None)) for x in v.values):
                    return truths.pop()
        return None

    # ---- content functions -------------------------------------------------------------------

    def body(self, fn: str, arity: int):
        """(parameter names, body tree) of a content function no card may change, else None."""
        m = self.m
        fd = m.function_defs.get(fn)
        spec = m.spec.functions.get(fn)
        if fd is None or fd.tree is None or spec is None or spec.modifiable or m.powers.modifiers.get(fn):
            return None
        params = tuple(str(p) for p in fd.params)
        return (params, fd.tree) if len(params) == arity else None

    def inlined(self, body, args, env, scope, how):
        """`how` (items, value or truth) of a function's body, its parameters bound to what its
        arguments may be (in the caller's names); too deep: what nothing is known of."""
        params, tree = body
        if self.depth >= _DEPTH:
            return None if how == self.truth else self.every(None)
        bound = tuple(self.value(a, env, scope) for a in args)
        key = (id(tree), how.__name__, bound)
        if key in self.memo:
            return self.memo[key]
        self.depth += 1
        try:
            out = self.memo[key] = how(tree, dict(zip(params, bound)), Scope())
        finally:
            self.depth -= 1
        return out

    def known(self, values) -> Vals:
        return Vals(frozenset(values), None)

    # ---- keys --------------------------------------------------------------------------------

    def keys(self, vals: Vals) -> set:
        """The keys of the values `vals` may be, with the places of its cards a seat may not see."""
        out = set()
        for v in vals.values:
            if type(v) in (Card, Zone, Seat, int, bool, str, type(None)):
                out.add(key_of(v))
        if vals.numbers:
            out |= {str(i) for i in range(MAX_INT_ARG + 1)}
        if any(type(v) is Card for v in vals.values):
            out |= self.handles(vals)
        return out

    def handles(self, vals: Vals) -> set:
        """`ZONE@N` for each zone its cards may lie in where a seat may not identify them (not
        its own zone, when the deciding seat's: `own`), N up to the cards that zone may hold."""
        m = self.m
        out = set()
        for c in vals.values:
            if type(c) is not Card:
                continue
            where = self.lying[c] if self.lying is not None else m.zones
            if vals.places is not None:
                where = [z for z in where if z in vals.places]
            hidden = not vals.shown and self.concealable(c)
            for z in where:
                plan = m.handle_plan[z.id]
                if hidden or not (plan is None or (vals.own and plan[0] in ("seats", "side") and z.owner is not None
                                                   and z.owner.id in plan[1])):  # its owner sees it
                    out |= self.places_in(z)
        return out

    def concealable(self, c) -> bool:
        """Whether some card variable that conceals its card may conceal `c`."""
        m = self.m
        return any(m.cvars[v]["default"] or self.changed is None or c in self.changed.get(v, ())
                   for v in getattr(m, "concealing", ()))

    def places_in(self, z) -> set:
        """The handles of zone `z`: one per card it may hold."""
        key = ("places", z)
        if key not in self.memo:
            held = len(self.held_in(z))
            self.memo[key] = {f"{z.key}{HANDLE}{n}" for n in range(1, min(z.capacity or held, held) + 1)}
        return self.memo[key]


def _conjuncts(node) -> list:
    return _conjuncts(node.left) + _conjuncts(node.right) if type(node) is A.And else [node]


def _reads_not(node, var: str, name: str) -> bool:
    """`not var.name`."""
    if type(node) is not A.Not:
        return False
    inner = node.operand
    return (type(inner) is A.Attr and str(inner.name) == name and type(inner.obj) is A.Name
            and str(inner.obj.name) == var)


def _scalar(v) -> bool:
    return type(v) in (int, str, bool, type(None))


def _declared(spec):
    return {"int": T.NUMBER, "bool": T.BOOL, "str": T.TEXT, "card": T.CARD, "cell": T.CELL, "zone": T.ZONE,
            "player": T.PLAYER}.get(declared_type(spec))


def _text(node: A.Str) -> str:
    return re.sub(r"\\(.)", r"\1", str(node.token)[1:-1])  # as the compiler reads it (Compiler.string)


def _compared(a, op: str, b):
    if op == "==":
        return a is b if type(a) in (Card, Zone, Seat) or type(b) in (Card, Zone, Seat) else a == b
    if op == "!=":
        return not _compared(a, "==", b)
    if type(a) is not int or type(b) is not int:
        return None
    return {"<": a < b, "<=": a <= b, ">": a > b, ">=": a >= b}[op]


def _order(v):
    return (type(v).__name__, getattr(v, "id", 0), str(v))
