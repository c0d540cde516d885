"""The choices a seat at the keyboard is offered, each with a stable key.

A key is a letter per kind of move (its action) and a number within that kind: `a1`, `a2`, `b1`...
Within one decision's context (a turn: the same round and turn of the same seat) a move keeps
its key and a key never passes to another move: a kind takes the next letter the first time it
is listed, and the moves of a kind met for the first time take the numbers after those already
given, in the natural order of their arguments. So typing `a7` then `b5` quickly plays what was
on screen, or is refused; never another move.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from ..core.model import Action
from ..i18n import ngettext

GROUP_AT = 16  # longer lists of choices are grouped (by action and its first argument)


@dataclass
class Choice:
    action: Action
    label: str  # as the board names things, for this seat
    raw: str  # the content's label
    key: str = ""  # its stable key in the decision's context (ChoiceKeys)


@dataclass
class Group:
    label: str
    members: list
    key: str = ""


def choices_for(game, renderer, st, seat: int) -> list[Choice]:
    """The legal moves as `seat` reads them, identical ones (same words) merged into the first."""
    seen = {}
    for action, raw in game.legal_actions_with_labels(st):
        shown = renderer.label(st, seat, action)
        if shown not in seen:
            seen[shown] = Choice(action, shown, raw)
    return list(seen.values())


def _natural(text: str) -> tuple:
    """A sort key reading the numbers in `text` as numbers (`r2c10` after `r2c9`)."""
    return tuple((0, int(p), "") if p.isdigit() else (1, 0, p) for p in re.split(r"(\d+)", text) if p)


_ABC = "abcdefghijklmnopqrstuvwxyz"


def letters(i: int) -> str:
    """The letters of the i-th kind of move (from 0): a..z, then aa, ab..."""
    return _ABC[i] if i < 26 else letters(i // 26 - 1) + _ABC[i % 26]


class ChoiceKeys:
    """The keys given in one decision context, and the moves they were given to."""

    def __init__(self):
        self.context = None
        self.kinds: dict = {}  # action name -> its letters
        self.count: dict = {}  # action name -> the last number given
        self.by_action: dict = {}  # Action -> key
        self.by_key: dict = {}  # key -> Choice (every move keyed in this context, listed now or not)

    def assign(self, context, choices: list[Choice]) -> list[Choice]:
        """Give each of `choices` its key in `context` (a new context starts afresh); the
        choices in the order of their keys."""
        if context != self.context:
            self.__init__()
            self.context = context
        new = {}
        for c in choices:
            key = self.by_action.get(c.action)
            if key is None:
                new.setdefault(c.action.name, []).append(c)
            else:
                c.key = key
        for name, fresh in new.items():
            letter = self.kinds.get(name)
            if letter is None:
                letter = self.kinds[name] = letters(len(self.kinds))
            n = self.count.get(name, 0)
            for c in sorted(fresh, key=lambda c: tuple(_natural(a) for a in c.action.args)):
                n += 1
                c.key = f"{letter}{n}"
                self.by_action[c.action] = c.key
            self.count[name] = n
        for c in choices:
            self.by_key[c.key] = c
        order = {name: i for i, name in enumerate(self.kinds)}
        return sorted(choices, key=lambda c: (order[c.action.name], int(c.key.lstrip(_ABC))))


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
    """Choices, or groups of choices sharing an action and its first argument when the list is
    long; a group's key is its first member's followed by `+`."""
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
            n = len(members)
            out.append(Group(ngettext("{head} … ({n} choice)", "{head} … ({n} choices)", n).format(head=head, n=n),
                             members, members[0].key + "+"))
    return out


def key_range(items) -> str:
    """The keys of `items` as a prompt shows them: `a1-c4`."""
    keys = [it.key for it in items]
    return keys[0] if len(keys) == 1 else f"{keys[0]}-{keys[-1]}"


__all__ = ["Choice", "ChoiceKeys", "GROUP_AT", "Group", "choices_for", "grouped", "key_range", "letters"]
