"""Shapes of expressions the code generator writes more directly (a part of ExprCodegen,
codegen.py).

- `cell(c.row + i, c.column + j)`, i and j known at load time and c a cell of the grid: a table
  by zone id of the cell that far from each cell;
- `first(Z.cards)` / `last(Z.cards)`: the zone's first (last) card id, no list of its cards built;
- `length(X where C) == 0` (`!= 0`, `> 0`): the `where` stops at the first item (loops.py).

Constant spends of the budget one after the other are merged into one by a pass over the typed
lines of a function (pieces.py).
"""
from __future__ import annotations

from . import ast as A


class Shortcuts:
    """Shapes written more directly, for the ExprCodegen `g`."""

    def __init__(self, g):
        self.g, self.c, self.symbols = g, g.c, g.symbols

    def length_of_where(self, node):
        """The `where` of `length(X where C)` (the built-in `length`), else None."""
        from ..runtime.library import _length
        if type(node) is A.Call and str(node.fn) == "length" and len(node.args) == 1 and type(node.args[0]) is A.Where \
                and "length" not in self.symbols.function_defs and (self.symbols.builtin_function("length") or (None,))[0] is _length:
            return node.args[0]
        return None

    def end_card(self, fname, fn, argnodes, args, scope):
        """`first(Z.cards)` / `last(Z.cards)`, Z a zone (or none): its first (last) card, read
        from the zone's list of card ids without building the list of its cards; else None."""
        from ..runtime.library import _first, _last
        if not (len(argnodes) == 1 and (fn is _first or fn is _last) and type(argnodes[0]) is A.Attr
                and str(argnodes[0].name) == "cards" and "cards" not in self.symbols.vars_of("zv")
                and self.g.known.kind_of(argnodes[0].obj, scope) in ("zv", "cell")):
            return None
        i = 0 if fn is _first else -1
        z, ids = self.g.tmp(), self.g.tmp()
        card = f"(_CARDS[{ids}[{i}]] if ({ids} := ctx.st['z'][{z}.id]) else None)"
        return f"({card} if ({z} := {self.g.x(argnodes[0].obj, scope)}) is not None else None)"

    def cell_shifted(self, argnodes, scope):
        """`cell(c.row + i, c.column + j)` with i, j known at load time and c a cell of the grid: a
        table by zone id of the cell i rows and j columns away from each cell (or none), read
        with c's id (nothing computed at run time can overflow: i and j are constants); c
        itself when that is each cell's own place (`cell(c.row, c.column)`)."""
        shift = self.g.known.cell_shift(argnodes, scope)
        if shift is None:
            return None
        name, table, itself = shift
        o = self.g.x(name, scope)
        if not self.g.plain(o):
            return None
        return o if itself else f"{self.g.const(table)}[{o}.id]"
