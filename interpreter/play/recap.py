"""What happened since a human last decided, told again just before their choices, and a pause
before a forced move that ends their turn.

Each human seat has its own narrator (narration.py), which writes what that seat saw of every
move into the seat's recap: the moves of the others with what they set off, and what the seat's
own moves set off after it decided (a rotation at the end of its turn). Before the seat's next
choices the recap is printed, then cleared; the board the choices come with follows it, so the
last thing above the choices is the board, not forty lines of narration.
"""
from __future__ import annotations

from ..engine.game import clone
from ..i18n import _, ngettext
from .narration import Narrator, turn_key
from .terminal import say

TOLD = "told"  # a chunk of a recap that is what moves set off, not moves
SHOWN = 16  # lines of a recap shown at most (the newest); the others are further up the screen


class Recap:
    """The recaps of the human seats of a game, each from that seat's narration only."""

    def __init__(self, game, renderer, seats):
        self.game = game
        self.narrators = {seat: Narrator(game, renderer, viewer=seat, out=lambda *lines: None) for seat in seats}
        # per seat: its recap so far, as [(the seat that moved (None: chance), or TOLD for what moves set
        # off; [texts])]
        self.lines: dict[int, list] = {seat: [] for seat in seats}
        self.others: dict[int, int] = {seat: 0 for seat in seats}  # moves of other seats in the recap
        self._labels: dict[int, str] = {}

    def before(self, st, player, label: str, action) -> None:
        """Before a move is applied: its label as each seat may read it."""
        self._labels = {seat: n.hide(st, player, label, action) for seat, n in self.narrators.items()}

    def after(self, st, *, player, events, causes=None) -> None:
        """After the move: what each seat saw of it, added to the seat's recap (the moves a seat
        makes in a row are one line of it)."""
        for seat, narrator in self.narrators.items():
            told = narrator.events(st, events, player, causes=causes)
            lines = self.lines[seat]
            if player != seat:
                self.others[seat] += 1
                if not lines or lines[-1][0] != player:
                    lines.append((player, []))
                lines[-1][1].append(self._labels.get(seat, ""))
            if told:
                if not lines or lines[-1][0] != TOLD:
                    lines.append((TOLD, []))
                lines[-1][1].extend(told)

    def before_choices(self, st, seat: int, renderer, *, pause: bool) -> bool:
        """Print the recap of `seat` before its choices; whether its only move ends its turn, so
        that it should be confirmed (with `pause`: at a terminal) after the board is seen."""
        from .human import choices_for
        from .terminal import paint
        lines = self.take(seat)
        if lines:
            paint("\n".join(lines), self.game)
        if not pause:
            return False
        choices = choices_for(self.game, renderer, st, seat)
        if len(choices) != 1 or not ends_turn(self.game, st, seat, choices[0].action):
            return False
        say(_("   Your turn ends with your only possible move: here is the board before it."))
        return True

    def take(self, seat: int) -> list[str]:
        """The recap of `seat` to print before its choices (nothing when no other seat moved since
        it last decided), then forgotten."""
        chunks, others = self.lines[seat], self.others[seat]
        self.lines[seat], self.others[seat] = [], 0
        if not others:
            return []
        m = self.game.catalog
        lines = []
        for player, texts in chunks:
            if player == TOLD:
                lines.extend("    " + text for text in texts)
            else:
                who = f"{m.seats[player].key} {m.seats[player].name}" if player is not None else "—"
                lines.append(_("{who}: {moves}").format(who=who, moves=" · ".join(texts)))
        out = [_("── since your last decision ──")]
        if len(lines) > SHOWN:
            hidden = len(lines) - SHOWN
            out.append(ngettext("   (… {count} earlier line, further up)",
                                "   (… {count} earlier lines, further up)", hidden).format(count=hidden))
            lines = lines[-SHOWN:]
        return out + ["   " + line for line in lines]


def ends_turn(game, st, seat: int, action) -> bool:
    """Whether `action`, the only move of `seat`, ends its turn (the next decision is another
    seat's, or the game is over): the player should see the board first."""
    after = clone(st)
    game.apply_in_place(after, action)
    return game.is_terminal(after) or game.current_player(after) != seat or turn_key(after) != turn_key(st)
