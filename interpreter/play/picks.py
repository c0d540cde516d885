"""`--choose N=NAME`: a seat's choices of the setup made from the command line.

Content declares the choices a seat makes before the game (a `choose ... by p` in `flow.setup`, such
as a role or a side chosen by a variant; docs/terminal.md has a bundled example). `--choose 1=NAME`
answers seat 1's setup choices with the item named NAME (its key, or a word of its label as the
choices list it, accents optional), whoever plays the seat, human or bot; a choice it does not name is made as usual, at the
table. A name never offered during the setup is reported when the game starts."""
from __future__ import annotations

import unicodedata

from ..i18n import _
from .common import UsageError


def _plain(text: str) -> str:
    """Lower case, without accents: `Norvège` and `norvege` match."""
    return "".join(c for c in unicodedata.normalize("NFKD", str(text).lower()) if not unicodedata.combining(c))


class Picks:
    """The setup choices given on the command line, per seat; each answers one choice at most."""

    def __init__(self, specs, players: int):
        self.wanted: dict[int, list[str]] = {}
        for spec in specs or ():
            num, sep, name = spec.partition("=")
            if not sep or not num.strip().isdigit() or not name.strip():
                raise UsageError(f"--choose {spec!r}: write N=NAME (seat N chooses NAME during the setup)")
            seat = int(num)
            if not 1 <= seat <= players:
                raise UsageError(f"--choose {spec!r}: there are seats 1 to {players}")
            self.wanted.setdefault(seat - 1, []).append(name.strip())

    def __bool__(self) -> bool:
        return bool(self.wanted)

    def answer(self, game, renderer, st, seat: int | None):
        """(the action, its label) that answers `seat`'s choice now from the command line, or None."""
        if seat not in self.wanted or st["flow"]["phase"] != "setup" or not st["pending"]:
            return None
        choices = [(a, renderer.label(st, seat, a)) for a in game.legal_actions(st)]
        for name in list(self.wanted[seat]):
            key = _plain(name)
            for action, label in choices:
                words = _plain(label).replace("—", " ").replace(":", " ").split()
                if key in (_plain(arg) for arg in action.args) or key in words or key == _plain(label):
                    self.wanted[seat].remove(name)
                    return action, label
        return None

    def check_used(self, game, st) -> list[str]:
        """Once the setup is over: the names that were never offered (a line for each)."""
        if st["flow"]["phase"] == "setup":
            return []
        lines = [_("--choose {seat}={name}: {player} was never offered `{name}` during the setup "
                   "(does a variant or an option of the game let players choose it?)")
                 .format(seat=seat + 1, name=name, player=game.seats[seat].name)
                 for seat, names in self.wanted.items() for name in names]
        self.wanted = {}
        return lines
