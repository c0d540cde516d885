"""A seat played at the keyboard: the choices as the board names things, help, undo and quitting."""
from __future__ import annotations

import sys
from dataclasses import dataclass

from ..core.model import Action
from .terminal import paint, say

GROUP_AT = 16  # longer lists of choices are grouped (by action and its first argument)

HELP = """Type the number of a choice, or a choice as it is written (for example `{example}`).
  b        the board again             l       the choices again
  u        undo your last decision     q       leave the game (it is saved)
  ? NAME   a card or rule: its text, section and where it is now
  rules    the turn, in short          legend  what the board's marks mean
  why ACTION   why a move is refused   ?       this help"""


class Quit(Exception):
    def __init__(self, why: str, code: int):
        self.why = why
        self.code = code


class Undo(Exception):
    """The player asks to take back their last decision."""


@dataclass
class Choice:
    action: Action
    label: str  # as the board names things, for this seat
    raw: str  # the content's label


@dataclass
class Group:
    label: str
    members: list


def choices_for(game, renderer, st, seat: int) -> list[Choice]:
    """The legal moves as `seat` reads them, identical ones (same words) merged into the first."""
    seen = {}
    for action, raw in game.legal_actions_with_labels(st):
        shown = renderer.label(st, seat, action)
        if shown not in seen:
            seen[shown] = Choice(action, shown, raw)
    return list(seen.values())


def _common_words(labels: list[str]) -> str:
    words = [lab.split(" ") for lab in labels]
    out = []
    for parts in zip(*words):
        if all(p == parts[0] for p in parts):
            out.append(parts[0])
        else:
            break
    return " ".join(out)


def grouped(choices: list[Choice]) -> list:
    """Choices, or groups of choices sharing an action and its first argument when the list is long."""
    if len(choices) <= GROUP_AT:
        return list(choices)
    by = {}
    for c in choices:
        by.setdefault((c.action.name, c.action.args[:1]), []).append(c)
    if len(by) >= len(choices) or len(by) == 1:
        return list(choices)
    heads = {}  # groups whose members read the same way are one group (e.g. pieces of one seat on one cell)
    for members in by.values():
        head = _common_words([m.label for m in members]) or members[0].action.name if len(members) > 1 else None
        heads.setdefault(head if head is not None else id(members), []).extend(members)
    out = []
    for head, members in heads.items():
        if len(members) == 1:
            out.append(members[0])
        else:
            out.append(Group(f"{head} … ({len(members)} choices)", members))
    return out


class Human:
    """A seat played at the keyboard, seeing only what its view allows."""

    def __init__(self, game, renderer, seat: int, *, stream=None, can_undo=None):
        self.game = game
        self.renderer = renderer
        self.seat = seat
        self.stream = stream if stream is not None else sys.stdin
        self.echo = not self.stream.isatty()
        self.can_undo = can_undo  # () -> None when undo is possible, else why not

    # -- showing

    def show(self, st, items) -> None:
        say("")
        paint(self.renderer.screen(st, self.seat), self.game)
        say("")
        self.list(items)

    def list(self, items, title: str = "Your choices:") -> None:
        say(title)
        w = len(str(len(items)))
        lines = [f"  {str(i).rjust(w)}. {it.label}" for i, it in enumerate(items, 1)]
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
                raise Quit("the input ended before the game did", 1) from None
        print(prompt, end="", flush=True)
        line = self.stream.readline()
        if not line:
            print()
            raise Quit("the input ended before the game did", 1)
        line = line.strip()
        print(line)  # the transcript shows what was typed
        return line

    # -- choosing

    def choose(self, st, *, confirm: bool = False) -> tuple[Action, str, bool]:
        """(the action, its label as shown, whether it was forced: the only legal move, played
        without asking unless `confirm`)."""
        choices = choices_for(self.game, self.renderer, st, self.seat)
        if len(choices) == 1 and not confirm:
            say(f"   Only one possible move: {choices[0].label} (played for you).")
            return choices[0].action, choices[0].label, True
        items = grouped(choices)
        self.show(st, items)
        key = self.game.seats[self.seat].key
        while True:
            text = self.read(f"{key}, your choice (1-{len(items)}, ? for help): ")
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
        self.list(group.members, title=f"{group.label}:")
        key = self.game.seats[self.seat].key
        while True:
            text = self.read(f"{key}, which one (1-{len(group.members)}, b to go back): ")
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
        word, _, rest = text.partition(" ")
        rest = rest.strip()
        if low in ("q", "quit", "exit"):
            answer = self.read("Leave the game? It is saved and can be resumed. (y/N) ").lower()
            if answer in ("y", "yes", "o", "oui"):
                raise Quit("you left the game", 0)
            return None
        if low in ("u", "undo"):
            why = self.can_undo() if self.can_undo else "undo is not available here"
            if why:
                say(f"Cannot undo: {why}.")
                return None
            raise Undo()
        if low in ("?", "h", "help"):
            say(HELP.format(example=choices[0].label if choices else "pass"))
            return None
        if word in ("?", "help") and rest:
            from .helpdesk import describe
            say(describe(g, self.renderer, st, self.seat, rest))
            return None
        if low in ("rules", "r"):
            lines = self.renderer.rules_lines
            say("\n".join(lines) if lines else "This game's content gives no turn summary (render.rules).")
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
        if text.isdigit():
            k = int(text)
            if 1 <= k <= len(items):
                return items[k - 1]
            say(f"There is no choice {k}: type a number from 1 to {len(items)}.")
            return None
        for c in choices:
            if low in (c.label.lower(), c.raw.lower()) or text == str(c.action):
                return c
        try:
            action = Action.parse(text)
        except ValueError:
            return None
        reason = g.explain(st, action)
        if reason is None:  # legal though not listed: take it as typed
            return Choice(action, str(action), str(action))
        say(f"Refused: {reason}" + ("" if action.name in g.catalog.action_names else " (type ? for help)"))
        return None

    def why(self, st, text: str, choices) -> str:
        g = self.game
        if not text:
            return "why ACTION: give a move, as the choices write it or as an action (`why ACTION ARGUMENTS`)."
        low = text.lower()
        for c in choices:
            if low in (c.label.lower(), c.raw.lower()) or text == str(c.action):
                return f"`{c.label}` is allowed now."
        try:
            action = Action.parse(text)
        except ValueError:
            return "why ACTION: give a move."
        names = g.catalog.action_names
        if action.name not in names:
            known = ", ".join(sorted(names))
            return f"There is no action `{action.name}` (actions: {known})."
        reason = g.explain(st, action)
        return f"`{text}` is allowed now." if reason is None else f"`{text}` is refused: {reason}"
