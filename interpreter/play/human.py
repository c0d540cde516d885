"""A seat played at the keyboard: the choices as the board names things, help, undo and quitting."""
from __future__ import annotations

import re
import sys

from ..core.model import Action
from ..i18n import _
from .choices import Choice, ChoiceKeys, Group, choices_for, grouped, key_range
from .refusals import Refusals
from .terminal import paint, say

def help_text(example: str) -> str:
    """What `?` prints: the keys and commands, with a move of the choices as `example`."""
    return _("""Type the number of a choice with its letter (`a1`; the number alone when every choice has the
same letter), or a choice as it is written (for example `{example}`).
  b        the board again             l       the choices again
  u        undo your last decision     q       leave the game (it is saved)
  ? NAME   a card or rule: its text, section and where it is now
  rules    the turn, in short          legend  what the board's marks mean
  why MOVE why a move is refused (as the choices or the board write it)   ?  this help""").format(example=example)


KEY = re.compile(r"\d+|[a-z]+\d+\+?")  # a choice's key (choices.py), or its number alone


class Quit(Exception):
    def __init__(self, why: str, code: int):
        self.why = why
        self.code = code


class Undo(Exception):
    """The player asks to take back their last decision."""


class Human:
    """A seat played at the keyboard, seeing only what its view allows."""

    def __init__(self, game, renderer, seat: int, *, stream=None, can_undo=None):
        self.game = game
        self.renderer = renderer
        self.seat = seat
        self.stream = stream if stream is not None else sys.stdin
        self.echo = not self.stream.isatty()
        self.can_undo = can_undo  # () -> None when undo is possible, else why not
        self.keys = ChoiceKeys()  # the stable keys of the decision's context (choices.py)
        self.shown: dict = {}  # every label shown to this seat (lower case) -> its move
        self.refusals = Refusals(game, renderer, seat)  # typed moves read, and refusals told, in its words

    # -- showing

    def show(self, st, items) -> None:
        say("")
        paint(self.renderer.screen(st, self.seat), self.game)
        say("")
        self.list(items)

    def list(self, items, title: str | None = None) -> None:
        say(title if title is not None else _("Your choices:"))
        w = max(len(it.key) for it in items) if items else 1
        lines = [f"  {(it.key + '.').ljust(w + 1)} {it.label}" for it in items]
        paint("\n".join(lines), self.game)

    def read(self, prompt: str) -> str:
        if not self.echo and self.stream is sys.stdin:  # a terminal: line editing and history
            try:
                import readline  # noqa: F401  (line editing for input())
            except ImportError:
                pass
            try:
                return input(prompt).strip()
            except EOFError:
                print()
                raise Quit(_("the input ended before the game did"), 1) from None
        print(prompt, end="", flush=True)
        line = self.stream.readline()
        if not line:
            print()
            raise Quit(_("the input ended before the game did"), 1)
        line = line.strip()
        print(line)  # the transcript shows what was typed
        return line

    # -- choosing

    def context(self, st) -> tuple:
        """The decision's context the keys are stable in: this seat's turn (its round and place)."""
        flow = st["flow"]
        return flow.get("phase"), flow.get("round"), flow.get("pos"), self.seat

    def choose(self, st, *, confirm: bool = False) -> tuple[Action, str, bool]:
        """(the action, its label as shown, whether it was forced: the only legal move, played
        without asking unless `confirm`)."""
        choices = self.keys.assign(self.context(st), choices_for(self.game, self.renderer, st, self.seat))
        for c in choices:
            self.shown[c.label.lower()] = c.action
        if len(choices) == 1 and not confirm:
            say(_("   Only one possible move: {move} (played for you).").format(move=choices[0].label))
            return choices[0].action, choices[0].label, True
        items = grouped(choices)
        self.show(st, items)
        key = self.game.seats[self.seat].key
        while True:
            text = self.read(_("{seat}, your choice ({keys}, ? for help): ").format(seat=key, keys=key_range(items)))
            picked = self.command(st, text, items, choices)
            if picked is None:
                continue
            if isinstance(picked, Group):
                sub = self.pick_in_group(st, picked, choices)
                if sub is None:
                    self.list(items)
                    continue
                picked = sub
            return picked.action, picked.label, False

    def pick_in_group(self, st, group: Group, choices):
        self.list(group.members, title=_("{group}:").format(group=group.label))
        key = self.game.seats[self.seat].key
        while True:
            text = self.read(_("{seat}, which one ({keys}, b to go back): ").format(
                seat=key, keys=key_range(group.members)))
            if text.lower() in ("b", "back", "0"):
                return None
            picked = self.command(st, text, group.members, choices)
            if picked is not None:
                return picked

    def command(self, st, text: str, items, choices):
        """What a typed line asks for: a Choice or Group picked, or None after answering a command."""
        g = self.game
        if not text:
            return None
        low = text.lower()
        word, _sep, rest = text.partition(" ")
        rest = rest.strip()
        if low in ("q", "quit", "exit"):
            answer = self.read(_("Leave the game? It is saved and can be resumed. (y/N) ")).lower()
            if answer in ("y", "yes", "o", "oui"):
                raise Quit(_("you left the game"), 0)
            return None
        if low in ("u", "undo"):
            why = self.can_undo() if self.can_undo else _("undo is not available here")
            if why:
                say(_("Cannot undo: {why}.").format(why=why))
                return None
            raise Undo()
        if low in ("?", "h", "help"):
            say(help_text(choices[0].label if choices else "pass"))
            return None
        if word in ("?", "help") and rest:
            from .helpdesk import describe
            say(describe(g, self.renderer, st, self.seat, rest))
            return None
        if low in ("rules", "r"):
            lines = self.renderer.rules_lines
            say("\n".join(lines) if lines else _("This game's content gives no turn summary (render.rules)."))
            return None
        if low == "legend":
            paint("\n".join(self.renderer.legend(st, self.seat)), g)
            return None
        if word.lower() == "why":
            say(self.why(st, rest, choices))
            return None
        if low in ("b", "board"):
            self.show(st, items)
            return None
        if low in ("l", "list"):
            self.list(items)
            return None
        for c in choices:  # a move as it is written: by its label first, then by its key
            if low in (c.label.lower(), c.raw.lower()) or text == str(c.action):
                return c
        if KEY.fullmatch(low):
            return self.by_key(st, low, items, choices)
        remembered = self.shown.get(low)  # a move shown earlier, not possible now
        moves = [remembered] if remembered is not None else self.refusals.moves(st, text)
        if not moves:
            try:
                moves = [Action.parse(text)]
            except ValueError:
                say(_("`{text}` is neither a choice nor a command (type ? for help).").format(text=text))
                return None
        action, e = self.refusals.best(st, moves)
        if e is None:  # legal though not listed as typed: the listed choice, else the move as typed
            return next((c for c in choices if c.action == action), None) or Choice(action, text, text)
        say(self.refusals.text(st, e, text))
        return None

    def by_key(self, st, low: str, items, choices):
        """The choice or group of key `low` (its number alone when every choice has one letter);
        None after saying why there is none: a key of this context whose move is not possible any
        more is refused with its reasons."""
        letters = {c.key.rstrip("0123456789") for c in choices}
        key = low
        if low.isdigit():
            if len(letters) != 1:
                say(_("There is no choice {key}: type a choice's letter and number, as listed ({keys}).").format(
                    key=low, keys=key_range(items)))
                return None
            key = next(iter(letters)) + low
        for it in items:
            if it.key == key:
                return it
        for c in choices:
            if c.key == key:
                return c
        gone = self.keys.by_key.get(key)
        if gone is not None:
            e = self.refusals.refusal(st, gone.action)
            if e is not None:
                say(self.refusals.text(st, e, gone.label, why=True))  # what the key was given to
                return None
        if low.isdigit():
            numbers = [int(c.key.lstrip("abcdefghijklmnopqrstuvwxyz")) for c in choices]
            say(_("There is no choice {key}: type a number from {first} to {last}.").format(
                key=low, first=min(numbers), last=max(numbers)))
        else:
            say(_("There is no choice {key} now: type a key as listed ({keys}), or a move as it is written.").format(
                key=low, keys=key_range(items)))
        return None

    def why(self, st, text: str, choices) -> str:
        """Why the move `text` (as the choices or the board write it, or a key) is refused now."""
        if not text:
            return _("why MOVE: give a move as the choices or the board write it (`why attack MALLET`).")
        low = text.lower()
        for c in choices:
            if low in (c.label.lower(), c.raw.lower(), c.key) or text == str(c.action):
                return _("`{move}` is allowed now.").format(move=c.label)
        gone = self.keys.by_key.get(low)
        remembered = gone.action if gone is not None else self.shown.get(low)
        moves = [remembered] if remembered is not None else self.refusals.moves(st, text)
        if not moves:
            try:
                moves = [Action.parse(text)]
            except ValueError:
                return _("why MOVE: give a move as the choices or the board write it (`why attack MALLET`).")
        action, e = self.refusals.best(st, moves)
        if e is None:
            return _("`{move}` is allowed now.").format(move=text)
        return self.refusals.text(st, e, text, why=True)
