"""A move typed at the keyboard, read as the board writes things, and why it is refused, in the
player's words.

A player types a move as its label reads (`take r1c2`, `give CARD to NAME`), by the names the board shows (cards by their titles, cells as `r2c1`) or by its
action's name and keys. `Refusals.moves` finds the moves such a text may mean; `Refusals.text`
says why one is refused: every requirement that fails, each with its content reason (and §),
written for that seat (game.refusal, engine/legality.py), or the kind of refusal in a sentence.
"""
from __future__ import annotations

import itertools
import re

from ..core.model import Action
from ..errors import RefusalKind
from ..i18n import _

_MOST = 64  # moves tried for one typed text, at most


_KINDS = {  # a refusal of each kind that no content reason explains, in a sentence (said in the table's language)
    RefusalKind.GAME_OVER: lambda: _("the game is over"),
    RefusalKind.NOT_YOUR_TURN: lambda: _("it is not your decision now"),
    RefusalKind.CHOICE_PENDING: lambda: _("another choice must be made first"),
    RefusalKind.NOT_AN_OPTION: lambda: _("it is not one of the options of this choice"),
    RefusalKind.WRONG_STEP: lambda: _("this move is not played at this point of the turn"),
    RefusalKind.LIMIT_REACHED: lambda: _("this move was already played as many times as a turn allows"),
    RefusalKind.WRONG_ARGUMENTS: lambda: _("this move does not name what it is played on"),
}


def _kind_text(e, shown: str, reader, by_key) -> str:
    """A refusal that no content reason explains, in a sentence (`reader` writes its values,
    `by_key` finds a value by its key)."""
    if e.kind is RefusalKind.UNKNOWN_ACTION:
        return _("no action `{name}` in this game (type ? for help)").format(name=getattr(e.action, "name", shown))
    if e.kind is RefusalKind.OUT_OF_DOMAIN and e.facts:
        key, values = e.facts["key"], e.facts["values"]
        value = by_key.get(key)
        possible = ", ".join(reader.text(v) for v in values[:12]) or _("none")
        return _("{value} is not a possible {what} now (possible: {possible})").format(
            value=key if value is None else reader.text(value), what=e.facts["param"], possible=possible)
    said = _KINDS.get(e.kind)
    return said() if said is not None else _("the rules do not allow it now")


class Refusals:
    """What `seat` types, read as the board writes things, and why a move is refused to it, in
    its words."""

    def __init__(self, game, renderer, seat: int):
        self.game = game
        self.renderer = renderer
        self.seat = seat
        self._words = None  # action name -> (the words its label starts with, the other words of its label)

    def text(self, st, e, shown: str, *, why: bool = False) -> str:
        """The refusal `e` (game.refusal, its reasons written for the seat) of a move written
        `shown`: `Refused: REASON`, or one line per reason when there are several (`why`: the
        answer to `why MOVE`, which names the move)."""
        reader = self.renderer.reader(st, self.seat)
        reasons = list(e.reasons) or [_kind_text(e, shown, reader, self.game.catalog.value_by_key)]
        if len(reasons) == 1:
            if why:
                return _("`{move}` is refused: {reason}").format(move=shown, reason=reasons[0])
            return _("Refused: {reason}").format(reason=reasons[0])
        head = _("`{move}` is refused:").format(move=shown) if why else _("Refused:")
        return "\n".join([head] + [_("  - {reason}").format(reason=r) for r in reasons])

    def refusal(self, st, action: Action):
        """game.refusal of `action` for the seat, its reasons written for it (None: legal)."""
        return self.game.refusal(st, action, reader=self.renderer.reader(st, self.seat))

    def label_words(self) -> dict:
        """action name -> (the words its label starts with, before any {field}; the other words
        of its label), lower case, from the content's labels."""
        if self._words is None:
            rs = self.game.catalog.ruleset
            specs = [(n, s) for n, s in rs.actions.items() if isinstance(s, dict)]
            for card in rs.cards.values():
                if isinstance(card, dict):
                    specs += [(n, s) for n, s in (card.get("actions") or {}).items() if isinstance(s, dict)]
            self._words = {}
            for name, spec in specs:
                label = str(spec.get("label") or "")
                literal = set(re.sub(r"\{[^{}]*\}", " ", label).lower().split())
                self._words[name] = (label.split("{", 1)[0].strip().lower(), literal)
        return self._words

    def board_names(self, st) -> dict:
        """A name the board shows to the seat (lower case) -> the keys of what it names: the cards
        it identifies (by title, with and without their owner), the board's cells, the seats;
        keys name themselves."""
        names: dict = {}
        reader = self.renderer.reader(st, self.seat)
        for c in self.game.catalog.cards:
            if c.id in reader:
                shown = reader.card(c)
                for n in {shown, shown.split("/")[0], c.key}:
                    names.setdefault(n.lower(), []).append(c.key)
        for z in self.game.catalog.cells:
            names.setdefault(self.renderer.cell_name(z).lower(), []).append(z.key)
        for s in self.game.seats:
            names.setdefault(s.key.lower(), []).append(s.key)
        return names

    def moves(self, st, text: str) -> list[Action]:
        """The moves `text` may mean, most likely first: an action found by the words its label
        starts with (or its name), then what the rest names, in order."""
        params = {a.name: len(a.params) for a in self.game.catalog.actions}
        low = " ".join(text.lower().split())
        names = None
        out = []
        for name, (head, literal) in self.label_words().items():
            heads = [h for h in (head, name.lower(), name.lower().replace("_", " ")) if h]
            heads += [h.split()[0] for h in heads]  # its first word alone: `exchange sat/p1 sat/p3`
            start = max((h for h in heads if low == h or low.startswith(h + " ")), key=len, default=None)
            if start is None or name not in params:
                continue
            if names is None:
                names = self.board_names(st)
            rest = "" if low == start else text.split(None, len(start.split()))[-1]
            tokens = _tokens(rest, names, literal)
            if len(tokens) < params[name]:  # too few things named: refused as such
                out.append(Action(name, tuple(t[0] for t in tokens)))
            for picked in itertools.combinations(tokens, params[name]):
                for keys in itertools.product(*picked):
                    out.append(Action(name, tuple(keys)))
                    if len(out) >= _MOST:
                        return out
        return out

    def best(self, st, moves: list[Action]):
        """(the move, None) for the first legal one of `moves`, else (the move whose refusal says
        the most: content reasons first (the fewest of them), then a value refused, then anything
        else, its refusal)."""
        ranked = []
        for i, a in enumerate(moves):
            e = self.refusal(st, a)
            if e is None:
                return a, None
            rank = 0 if e.reasons else 1 if e.kind is RefusalKind.OUT_OF_DOMAIN else 2
            ranked.append((rank, len(e.reasons), i, a, e))  # of moves alike, the nearest to legal
        if not ranked:
            return None, None
        *_, a, e = min(ranked, key=lambda r: r[:3])
        return a, e


def _tokens(rest: str, names: dict, literal: set) -> list:
    """The things `rest` names, in order: each the keys it may stand for. Names of several words
    are read greedily (`Centre de contrôle`); words of the label itself are skipped."""
    words = rest.split()
    out = []
    i = 0
    while i < len(words):
        for j in range(len(words), i, -1):
            text = " ".join(words[i:j]).lower()
            if text in names:
                out.append(names[text])
                i = j
                break
        else:
            if words[i].lower() not in literal:
                out.append([words[i]])
            i += 1
    return out


__all__ = ["Refusals"]
