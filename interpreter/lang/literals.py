"""Names written as texts in rules, checked at load time against what the game declares:
- the kind of an edge of the board (`neighbors(c, "entry")`, `walk(c, 3, "next")`,
  `distance(a, b, ["next", "entry"])`): the kinds the board's grid, ring and edges make;
- a zone or a card named (`zone_named("pile")`, `card_named("gem")`);
- a text compared with the kind of a card (`c.name == "gem"`), the name of a zone or cell, or a
  value printed on the cards or the cells (`cell.kind == "field"`, `c.side in ["red", "blue"]`):
  the values that name or property has somewhere.
A text none of them has can never match: a CompileError at the text, with did-you-mean. A value
that changes during play (a variable of the same name) or a text computed while playing is left
alone. ValueTypes (valuetypes.py) asks these as it walks an expression; this module reads trees.
"""
from __future__ import annotations

from ..errors import did_you_mean
from . import ast as A
from .scope import CompileError

# the built-ins taking an edge kind (or a list of kinds), and the index of that argument
EDGE_ARGUMENT = {"neighbors": 1, "path": 2, "distance": 2, "walk": 2, "walk_path": 2, "within": 2}
_CARD, _CELL, _ZONE = "card", "cell", "zone"  # valuetypes' names of these types


def _texts(node) -> list:
    """The text literals `node` is made of: a text, or a list of texts written in place."""
    if type(node) is A.Str:
        return [node]
    if type(node) is A.ListOf and all(type(x) is A.Str for x in node.items):
        return list(node.items)
    return []


def _unquoted(token: str) -> str:
    """The text a literal token gives: its quotes off, `\\x` read as x (as Compiler.string reads it)."""
    out, escaped = [], False
    for ch in token[1:-1]:
        if ch == "\\" and not escaped:
            escaped = True
            continue
        out.append(ch)
        escaped = False
    return "".join(out)


def _inside(text):
    """The text literal `text` placed at its first letter, past the quote: the caret, and an editor's
    quick fix (the name there replaced by the one meant), take the name, not the quotes."""
    at = text.at
    return A.Str(text.token, None if at is None else (at[0], at[1] + 1, at[2] + 1, at[3] - 1))


def edge_kinds(board) -> set:
    """The kinds of the board's edges, from its section (`board:` as written, variants applied)."""
    kinds = set()
    if not isinstance(board, dict):
        return kinds
    grid, ring = board.get("grid"), board.get("ring")
    if isinstance(grid, dict):
        kinds.add("orthogonal")
        if str(grid.get("edges", "")) == "all":
            kinds.add("diagonal")
    if isinstance(ring, dict):
        kinds.add(str(ring.get("edges", "next")))
    for edge in board.get("edges") or ():
        if isinstance(edge, dict):
            kinds.add(str(edge.get("kind", "edge")))
    return kinds


class Literals:
    """The checks above for the expressions of one match (its `symbols`: the SymbolTable)."""

    def __init__(self, symbols):
        self.symbols = symbols
        self._values: dict = {}

    def call(self, node) -> None:
        """A built-in call whose argument names an edge kind, a zone or a card."""
        fname = str(node.fn)
        if fname in self.symbols.function_defs:
            return  # a content function of that name: its own parameters
        if fname in EDGE_ARGUMENT and len(node.args) > EDGE_ARGUMENT[fname]:
            self._known(_texts(node.args[EDGE_ARGUMENT[fname]]), self._edge_kinds(), "the board has no edge of kind",
                        "edge kinds")
        elif fname == "zone_named" and len(node.args) == 1:
            self._known(_texts(node.args[0]), self.values(_ZONE, "name"), "no zone is named", "zones")
        elif fname == "card_named" and len(node.args) == 1:
            self._known(_texts(node.args[0]), self.values(_CARD, "key"), "no card is named", "cards")

    def compared(self, attr, other, owner) -> None:
        """`attr == other` (or `!=`, `in`): `attr` an attribute read of a thing of type `owner`,
        `other` texts written in place."""
        if type(attr) is not A.Attr or owner not in (_CARD, _CELL, _ZONE):
            return
        name = str(attr.name)
        known = self.values(_CARD if owner == _CARD else _ZONE, name)
        if known:
            what = {"name": "names", "key": "keys"}.get(name, f"values of `{name}`")
            self._known(_texts(other), known, f"no {'card' if owner == _CARD else owner} has the {name}" if name in
                        ("name", "key") else f"no {'card' if owner == _CARD else owner} has `{name}`", what)

    def values(self, kind, name) -> frozenset:
        """The texts the attribute `name` of the cards (or the zones and cells) has, fixed at load
        time; empty when it is not such an attribute (a variable, a number...)."""
        key = (kind, name)
        if key not in self._values:
            self._values[key] = self._collect(kind, name)
        return self._values[key]

    def _collect(self, kind, name) -> frozenset:
        m = self.symbols
        if kind == _CARD:
            if name in ("name", "key"):
                return frozenset(getattr(c, name) for c in m.cards)
            if name in m.cvars or name not in m.card_props:
                return frozenset()
            found = [c.props[name] for c in m.cards if name in c.props]
        else:
            if name in ("name", "key"):
                return frozenset(n for z in m.zones for n in (z.name, z.key))
            if name in m.zvars or name not in m.zone_attrs:
                return frozenset()
            found = [z.attrs[name] for z in m.zones if name in z.attrs]
        if not all(type(v) is str for v in found):
            return frozenset()  # numbers, or values of several types: not a name
        return frozenset(found)

    def _edge_kinds(self) -> frozenset:
        key = ("edge", "")
        if key not in self._values:
            self._values[key] = frozenset(edge_kinds(self.symbols.rs.board))
        return self._values[key]

    @staticmethod
    def _known(texts, known, said, listed) -> None:
        for text in texts:
            value = _unquoted(str(text.token))
            if known and value not in known:
                hint = did_you_mean(value, known) or (f"{listed}: " + ", ".join(sorted(known)[:12])
                                                      + (", ..." if len(known) > 12 else ""))
                raise CompileError(f'{said} "{value}"', _inside(text), hint=hint)
            if not known:
                raise CompileError(f'{said} "{value}" (there are none)', _inside(text))


__all__ = ["Literals", "edge_kinds", "EDGE_ARGUMENT"]
