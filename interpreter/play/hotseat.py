"""Hot seat: several humans at one keyboard, each seeing only their own secrets.

When a human's decisions are over (the next decision is another seat's), that player presses Enter
and the terminal is wiped, scrollback included (terminal.wipe), so that scrolling up shows nothing
of their hand, identity or secret move; what follows is told as the whole table sees it, until the
next human takes the keyboard. A saved hot-seat game holds every seat's secrets: the players are told
so when it is saved and when it is resumed."""
from __future__ import annotations

import os
import sys

from ..i18n import _
from .render import PUBLIC
from .terminal import say, wipe


class HotSeat:
    """The keyboard passed between the human seats of one game (`humans`: their seat numbers)."""

    def __init__(self, game, narrator, humans, read):
        self.game = game
        self.narrator = narrator
        self.humans = list(humans)
        self.read = read  # prompt -> line typed (a Human's read)
        self.narrator.viewer = PUBLIC  # nobody's eyes until a player takes the keyboard

    def _name(self, seat: int) -> str:
        s = self.game.seats[seat]
        return f"{s.key} {s.name}"

    def hide(self) -> None:
        """The player at the keyboard is done: they press Enter, their screen is wiped."""
        viewer = self.narrator.viewer
        if viewer in (None, PUBLIC):
            return
        if sys.stdout.isatty():  # a file or a pipe keeps every line anyway: nothing to hide there
            self.read("\n" + _("── {player}: press Enter to hide your game, then pass the keyboard ")
                      .format(player=self._name(viewer)))
            wipe()
        self.narrator.viewer = PUBLIC

    def before(self, seat: int | None, *, human: bool) -> None:
        """Before seat `seat` decides: hand the keyboard over if it is another human's turn."""
        if seat == self.narrator.viewer:
            return
        self.hide()
        if human:
            self.read("\n" + _("── {player}, your turn: press Enter (the others look away) ")
                      .format(player=self._name(seat)))
            self.narrator.viewer = seat

    def at_end(self) -> None:
        """The game is over: the last player's secrets are hidden before the result is shown to all."""
        self.hide()

    def warn_save(self, path: str, *, resumed: bool) -> None:
        names = ", ".join(self._name(s) for s in self.humans)
        if resumed:
            say(_("(warning: this saved game holds every seat's secrets; it belongs to {players}, "
                  "and only they should read it)").format(players=names))
        else:
            try:  # the save is for this table: other users of the machine may not read it
                os.chmod(path, 0o600)
            except OSError:
                pass
            say(_("(warning: {path} holds every seat's secrets, hands and hidden choices included: "
                  "it is for {players} only, to resume this game; do not read it or show it)")
                .format(path=path, players=names))
