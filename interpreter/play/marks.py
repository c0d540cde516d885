"""Lasting marks the content declares, drawn on the screen while their condition holds:

    render:
      marks:
        - cell: "not cell.empty and cell.card.turned"     # a board cell (`cell`) ...
          symbol: "~"                                     # ... gets this after its text
          legend: "~ a card turned into the double agent this turn (§7.2)"
        - player: "p.sends > 0"                           # a seat (`p`): on the seat's line
          symbol: "send waiting"
          legend: "send waiting: ... (§7.1)"

Each is read for the viewer of the screen (`me` is that seat): a condition reading a card the
viewer cannot see does not hold (templates.Condition), so a mark never tells a secret.
"""
from __future__ import annotations

from dataclasses import dataclass

from ..errors import ErrorList
from .templates import Condition, Template, compile_condition, compile_template


@dataclass(frozen=True)
class Mark:
    on: str  # "cell" or "player": what the condition is about
    when: Condition
    symbol: Template
    legend: Template | None


class Marks:
    """The `render.marks` of a game, compiled for one match."""

    def __init__(self, game, entries, errors: ErrorList):
        self.game = game
        self.cells: list[Mark] = []
        self.players: list[Mark] = []
        for entry in entries or ():
            on = "cell" if "cell" in entry else "player"
            names = ("cell",) if on == "cell" else ("p",)
            when = compile_condition(game, entry, on, names=names, errors=errors)
            symbol = compile_template(game, entry, "symbol", names=names, errors=errors)
            legend = compile_template(game, entry, "legend", names=(), errors=errors) if "legend" in entry else None
            if when is not None and symbol is not None:
                (self.cells if on == "cell" else self.players).append(Mark(on, when, symbol, legend))

    def _me(self, sight):
        v = sight.viewer
        return self.game.catalog.seats[v] if v is not None and v >= 0 else None

    def _drawn(self, marks, st, sight, bound) -> str:
        me = self._me(sight)
        return "".join(m.symbol.render(self.game, st, sight, me=me, bound=bound)
                       for m in marks if m.when.holds(self.game, st, sight, me=me, bound=bound))

    def on_cell(self, st, sight, cell) -> str:
        """The marks of a board cell, as `sight`'s viewer sees them ('' for none)."""
        return self._drawn(self.cells, st, sight, (cell,)) if self.cells else ""

    def on_player(self, st, sight, seat) -> str:
        """The marks of a seat, on its line ('' for none)."""
        return self._drawn(self.players, st, sight, (seat,)) if self.players else ""

    def legend(self, st, sight) -> list[str]:
        me = self._me(sight)
        return [m.legend.render(self.game, st, sight, me=me) for m in self.cells + self.players
                if m.legend is not None]
