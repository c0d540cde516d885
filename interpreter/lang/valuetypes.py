"""The types of values an expression gives, where known at load time, and the mistakes they show.

A value is a number, yes/no, a text, a card, a cell of the board, a zone, a player, or a list of
one of those (`List`); an expression whose type is not known is None, and nothing is said of it. A
type may also stand for that or none (`cell.card`: a card, or none on an empty cell): none fails
where the type fails (arithmetic, counting), so what the type cannot do, that value cannot either. What cannot work whatever the state is a CompileError at the expression, at `validate`:
- `count(...)` of a list whose items are not yes/no (`count` counts true values; `length` counts
  items: changes.md), or a sum of things that are not numbers;
- arithmetic with a card, a cell, a zone or a player, or a text where a number is needed;
- an order (`<`, `>=`...) between a number and a thing or a text.

The names in scope say what they hold: a body's `let`, `for` and `choose` names (`Scope.types`,
filled as the statements are written), the parameters bound from their domains and the names
written in place (their kinds: kindfacts.py), the card of a power (`this`). This module only reads
trees; the code generator asks `check` of each expression and statement before writing it, and
writes the same code as without it.
"""
from __future__ import annotations

from typing import NamedTuple

from ..core.model import Card, Seat, Zone
from . import ast as A
from .analysis import NODES
from .changes import COUNT_OF_ITEMS
from .kindfacts import Ints
from .literals import Literals
from .scope import _MISS, CompileError

NUMBER, BOOL, TEXT, CARD, CELL, ZONE, PLAYER = "number", "yes/no", "text", "card", "cell", "zone", "player"
THINGS = (CARD, CELL, ZONE, PLAYER)  # never a number, a text or a list
_WORDS = {NUMBER: "a number", BOOL: "yes/no (true or false)", TEXT: "a text", CARD: "a card", CELL: "a cell",
          ZONE: "a zone", PLAYER: "a player"}
_ARITH = ("+", "-", "*", "/", "//", "%")
_ORDERS = ("<", "<=", ">", ">=")


class List(NamedTuple):
    """A list whose items are all of type `item` (None: not known; Mixed: of known types, several)."""
    item: object = None


class Mixed(NamedTuple):
    """The items of a list of several known types (`[1, true]`): only `count` asks them."""
    types: frozenset


def _list_of(types: set) -> List:
    """The type of a list whose items have these types."""
    if len(types) == 1:
        return List(next(iter(types)))
    return List(Mixed(frozenset(types)) if types and None not in types else None)


def word(t) -> str:
    """A type in words: `a card`, `a list of cells`."""
    if type(t) is List:
        return f"a list of {_PLURALS.get(t.item, 'values')}" if t.item is not None else "a list"
    return _WORDS.get(t, "a value")


_PLURALS = {NUMBER: "numbers", BOOL: "yes/no values", TEXT: "texts", CARD: "cards", CELL: "cells", ZONE: "zones",
            PLAYER: "players"}


def of_value(v):
    """The type of a value known at load time (a constant, a zone or card named, a bound card)."""
    t = type(v)
    if t is bool:
        return BOOL
    if t is int:
        return NUMBER
    if t is str:
        return TEXT
    if t is Card:
        return CARD
    if t is Zone:
        return CELL if v.is_cell else ZONE
    if t is Seat:
        return PLAYER
    if t in (list, tuple):
        return _list_of({of_value(x) for x in v})
    return None


def of_kind(kind):
    """The type of a kind of kindfacts.py (its "or none" kinds too: see the module)."""
    if kind in ("card", "cv"):
        return CARD
    if kind == "cell":
        return CELL
    if kind in ("zv", "pv"):
        return ZONE if kind == "zv" else PLAYER
    if type(kind) is Ints:
        return NUMBER if kind.n is None else List(NUMBER)
    return None


_DECLARED = {"int": NUMBER, "bool": BOOL, "str": TEXT, "card": CARD, "cell": CELL, "zone": ZONE, "player": PLAYER,
             "cards": List(CARD), "cells": List(CELL), "zones": List(ZONE), "players": List(PLAYER)}


def _joined(a, b):
    """The type of a value that is one of two (a branch of `x if c else y`)."""
    return a if a == b else None


class ValueTypes:
    """The types of the expressions of one match (its `symbols`), asked by the code generator."""

    def __init__(self, symbols):
        self.symbols = symbols
        self._props = None
        self.literals = Literals(symbols)  # names written as texts (an edge kind, a card's name...)

    # ---- checks ----------------------------------------------------------------------------

    def check(self, node, scope) -> None:
        """Every expression in `node` (an expression, or a statement's own expressions: those of
        the statements it holds are checked when each is written), a CompileError at the first
        that cannot work."""
        if isinstance(node, A.Stmt):
            for child in node.children():
                if isinstance(child, A.Expr):
                    self._walk(child, scope, {})
            if type(node) is A.Assign and str(node.op) != "=":  # `x += v`: x + v
                self._pair(str(node.op)[:-1], node.target, node.value, scope, {})
        else:
            self._walk(node, scope, {})

    def bind(self, node, scope) -> None:
        """The types of the names a statement binds (`let`, `for`, `choose`), before it is written:
        its own body reads a `for`'s variable, and `let x = x + 1` reads the outer x."""
        t = type(node)
        if t is A.Let:
            self._bind(scope, str(node.name), self.of(node.value, scope, {}))
        elif t is A.For:
            self._bind(scope, str(node.var), self._item(self.of(node.coll, scope, {})))
        elif t is A.Choose:
            self._bind(scope, str(node.var), self._item(self.of(node.options, scope, {})))
        elif t is A.Assign and type(node.target) is A.Name and str(node.target.name) in scope.types:
            name = str(node.target.name)
            if str(node.op) != "=" or self.of(node.value, scope, {}) != scope.types[name]:
                scope.types[name] = None  # it may hold something else from here on

    @staticmethod
    def _bind(scope, name, t) -> None:
        before = scope.types.get(name, _MISS)
        scope.types[name] = t if before is _MISS or before == t else None  # bound twice: either

    def _walk(self, node, scope, env) -> None:
        t = type(node)
        decl = NODES.get(t)
        loop = decl.loop(node) if decl is not None and decl.loop is not None else None
        if loop is not None:
            self._walk(loop.coll, scope, env)
            inner = dict(env)
            inner[loop.var] = self._item(self.of(loop.coll, scope, env))
            for part in loop.parts:
                if part is not None:
                    self._walk(part, scope, inner)
        else:
            for child in node.children():
                self._walk(child, scope, env)
        if t is A.BinOp:
            self._arith(node, scope, env)
        elif t is A.Neg:
            self._operand(node, self.of(node.operand, scope, env), "-")
        elif t is A.Compare and str(node.op) in _ORDERS:
            self._order(node, scope, env)
        elif t is A.Compare:  # `==`, `!=`: a text against a name or a printed value
            for attr, other in ((node.left, node.right), (node.right, node.left)):
                if type(attr) is A.Attr:
                    self.literals.compared(attr, other, self.of(attr.obj, scope, env))
        elif t is A.In and type(node.item) is A.Attr:
            self.literals.compared(node.item, node.coll, self.of(node.item.obj, scope, env))
        elif t is A.Call and str(node.fn) in ("count", "sum") and len(node.args) == 1 \
                and str(node.fn) not in self.symbols.function_defs:
            listed = self.of(node.args[0], scope, env)
            item = listed.item if type(listed) is List else None
            for one in (sorted(item.types, key=str) if type(item) is Mixed else [item]):  # `[1, true]`: the 1
                self._counted(node, str(node.fn), one, node.args[0])
        elif t is A.Aggregate and str(node.fn) in ("count", "sum"):
            inner = dict(env)
            inner[str(node.var)] = self._item(self.of(node.coll, scope, env))
            self._counted(node, str(node.fn), self.of(node.value, scope, inner), node.value)
        if t is A.Call:
            self.literals.call(node)

    def _counted(self, node, fn, item, where) -> None:
        if fn == "count" and item is not None and item != BOOL:
            raise CompileError(f"`count` counts true values (yes/no), and these are {_PLURALS.get(item, 'values')}",
                               where, hint=COUNT_OF_ITEMS)
        if fn == "sum" and (item in THINGS or item == TEXT or type(item) is List):
            raise CompileError(f"`sum` adds numbers, and these are {_PLURALS.get(item, 'values')}", where)

    def _operand(self, node, t, op) -> None:
        if t in THINGS or t == TEXT or type(t) is List:
            raise CompileError(f"`{op}` needs a number, and this is {word(t)}", node,
                               hint="read a number of it (a property, a variable, `length(...)`)")

    def _arith(self, node, scope, env) -> None:
        if str(node.op) in _ARITH:
            self._pair(str(node.op), node.left, node.right, scope, env)

    def _pair(self, op, left, right, scope, env) -> None:
        a, b = self.of(left, scope, env), self.of(right, scope, env)
        for side, t in ((left, a), (right, b)):
            if t in THINGS:
                raise CompileError(f"`{op}` needs numbers, and this is {word(t)}", side,
                                   hint="read a number of it (a property, a variable, `length(...)`)")
        numeric = (NUMBER, BOOL)
        if a is None or b is None or (a in numeric and b in numeric):
            return
        seq = (a == TEXT or type(a) is List, b == TEXT or type(b) is List)
        ok = (op == "+" and (a == b == TEXT or type(a) is type(b) is List)) \
            or (op == "*" and ((a == NUMBER and seq[1]) or (b == NUMBER and seq[0])))
        if not ok:
            bad = left if a not in numeric else right
            raise CompileError(f"`{op}` cannot go between {word(a)} and {word(b)}", bad,
                               hint="a text joins a text (`+`), a list a list; write text(...) to make a text of a number")

    def _order(self, node, scope, env) -> None:
        a, b = self.of(node.left, scope, env), self.of(node.right, scope, env)
        for side, t in ((node.left, a), (node.right, b)):
            if t in THINGS or type(t) is List:
                raise CompileError(f"`{node.op}` compares numbers (or texts), and this is {word(t)}", side,
                                   hint="compare a number of it (a property, a variable, `length(...)`)")
        if a is not None and b is not None and {a, b} == {NUMBER, TEXT}:
            raise CompileError(f"`{node.op}` cannot compare a number with a text", node)

    # ---- types -----------------------------------------------------------------------------

    def item_of(self, node, scope):
        """The type of the items of the collection `node` gives (a parameter's domain), or None."""
        return self._item(self.of(node, scope, {}))

    @staticmethod
    def _item(t):
        item = t.item if type(t) is List else None
        return None if type(item) is Mixed else item

    def of(self, node, scope, env):
        """The type of what `node` gives, or None when not known for sure (`env`: the names bound
        by the loops around it, inside the expression)."""
        t = type(node)
        if t is A.Num:
            return NUMBER
        if t is A.Str:
            return TEXT
        if t is A.Const:
            return BOOL if node.value in (True, False) else None
        if t is A.Name:
            return self._name(str(node.name), scope, env)
        if t in (A.Compare, A.In, A.IsTag, A.Not):
            return BOOL
        if t is A.And or t is A.Or:
            return _joined(self.of(node.left, scope, env), self.of(node.right, scope, env))
        if t is A.Ternary:
            return _joined(self.of(node.then, scope, env), self.of(node.otherwise, scope, env))
        if t is A.Neg:
            return NUMBER if self.of(node.operand, scope, env) == NUMBER else None
        if t is A.BinOp:
            a, b = self.of(node.left, scope, env), self.of(node.right, scope, env)
            if str(node.op) in _ARITH and a == b == NUMBER:
                return NUMBER
            return a if str(node.op) == "+" and a == b and (a == TEXT or type(a) is List) else None
        if t is A.Where:
            return List(self._item(self.of(node.coll, scope, env)))
        if t is A.ListOf:
            return _list_of({self.of(x, scope, env) for x in node.items})
        if t is A.ListFor and node.cond is None and type(node.value) is A.Name \
                and str(node.value.name) == str(node.var):  # `[x for x in xs]`: xs's items, of several types too
            coll = self.of(node.coll, scope, env)
            return coll if type(coll) is List else List(None)
        if t is A.ListFor or t is A.Aggregate:
            inner = dict(env)
            inner[str(node.var)] = self._item(self.of(node.coll, scope, env))
            value = self.of(node.value, scope, inner)
            if t is A.ListFor:
                return List(value)
            return {"count": NUMBER, "sum": NUMBER, "any": BOOL, "all": BOOL, "list": List(value)}.get(
                str(node.fn), value if str(node.fn) in ("max", "min") else None)
        if t is A.ExtremeBy:
            return self._item(self.of(node.coll, scope, env))
        if t is A.Attr:
            return self._attr(self.of(node.obj, scope, env), str(node.name))
        if t is A.Call:
            return self._call(node, scope, env)
        return None

    def _name(self, name, scope, env):
        if name in env:
            return env[name]
        if name in scope.inlined:
            return of_kind(scope.inlined[name].kind)
        if name in scope.slots:
            slot = scope.slots[name]
            if name in scope.types:
                return scope.types[name]
            return of_kind(scope.kinds.get(slot)) or of_kind(scope.loop_kinds.get(slot))
        if name in scope.bound:
            return of_value(scope.bound[name])
        m = self.symbols
        if name == "me":
            return PLAYER
        if name in m.gvars:
            return self._declared(m.gvars[name])
        value = m.constant(name)
        if value is not _MISS:
            return of_value(value)
        return {"cells": List(CELL), "players": List(PLAYER), "cards": List(CARD), "rows": List(NUMBER),
                "columns": List(NUMBER), "round": NUMBER, "game_over": BOOL}.get(name)

    def _attr(self, obj, name):
        m = self.symbols
        if obj == CARD:
            if name in ("name", "key", "owner", "zone", "cell", "id"):
                return {"name": TEXT, "key": TEXT, "owner": PLAYER, "zone": ZONE, "cell": CELL, "id": NUMBER}[name]
            if name in m.cvars:
                return self._declared(m.cvars[name])
            return self._prop(name)
        if obj in (CELL, ZONE):
            known = {"cards": List(CARD), "card": CARD, "top": CARD, "count": NUMBER, "empty": BOOL, "full": BOOL,
                     "name": TEXT, "key": TEXT, "owner": PLAYER, "id": NUMBER, "neighbors": List(CELL)}
            if name in known:
                return known[name]
            return self._declared(m.zvars[name]) if name in m.zvars else None
        if obj == PLAYER:
            if name in ("name", "key", "index", "id", "next", "previous"):
                return {"name": TEXT, "key": TEXT, "index": NUMBER, "id": NUMBER, "next": PLAYER, "previous": PLAYER}[name]
            if name in m.pvars:
                return self._declared(m.pvars[name])
            if name in m.player_zones:
                return ZONE
        return None

    @staticmethod
    def _declared(spec):
        """The type a variable is declared with (`type:`; the things and lists of things are
        checked when stored), else None."""
        typ = spec.get("type") if isinstance(spec, dict) else None
        return _DECLARED.get(typ)

    def _prop(self, name):
        """The type of a card property when every card that has it has one of the same type."""
        if self._props is None:
            seen: dict = {}
            for card in self.symbols.cards:
                for k, v in card.props.items():
                    seen.setdefault(k, set()).add(of_value(v))
            self._props = {k: ts.pop() if len(ts) == 1 else None for k, ts in seen.items()}
        return self._props.get(name)

    def _call(self, node, scope, env):
        fname = str(node.fn)
        m = self.symbols
        if fname in m.function_defs:
            return None
        if m.zone_family(fname) is not None:  # `hand(p)`: that player's zone
            return ZONE
        if fname in ("length", "count", "sum", "distance", "index_of", "random", "score_of"):
            return None if fname in ("distance", "index_of", "score_of") else NUMBER
        if fname == "range":
            return List(NUMBER)
        if fname in ("cards_in", "contents"):
            return List(CARD)
        if fname in ("row_cells", "column_cells", "neighbors", "tagged_cells", "path", "within", "walk_path"):
            return List(CELL)
        if fname in ("first", "last") and len(node.args) == 1:
            return self._item(self.of(node.args[0], scope, env))  # an item, or none
        if fname in ("cell", "seat", "seat_after"):
            return CELL if fname == "cell" else PLAYER
        if fname == "card_named":
            return CARD
        if fname in ("reversed", "take", "drop", "without", "shuffled", "sorted") and node.args:
            first = self.of(node.args[0], scope, env)
            return first if type(first) is List else None
        if fname == "text":
            return TEXT
        if fname in ("is_winner", "sees"):
            return BOOL
        if fname in ("seats_from",):
            return List(PLAYER)
        return None


__all__ = ["List", "ValueTypes", "of_value", "word"]
