"""What the content tells of the rules' events, worded by what set each one off.

`render.narrate:` gives, for an event or a procedure, a text with its parameters bound by name,
or texts per cause:

    narrate:
      rotated: "§3 the Earth turns"                  # told the same way whatever set it off
      activate:
        because:                                     # the cause: the event or procedure that set it
          arrive: "{card} arrives on {cell}: it activates (§5.2)"   # off, or set off its cause...,
        text: "{card} activates"                     # its parameters bound too; `text` without one

An event's cause is what the engine recorded when it ran (core/model.py `Step.causes`): the event
or procedure whose handler or body emitted it, or the flow's hook (`turn_end`, `round_start`...)
that ran it. The entry's text is the one of its closest cause up that chain whose name it lists
(a cause's own cause, and so on); an event set off by the decision itself has none. A parameter of
the cause named like one of the event's is the event's. Each text is written for its viewer (a
card it cannot see is `?`).
"""
from __future__ import annotations

from dataclasses import dataclass

from ..errors import ErrorList, did_you_mean
from .templates import Template, compile_template


@dataclass(frozen=True)
class Because:
    """How an event is told when `cause` set it off: its text, and which of the cause's
    arguments it binds after the event's own (their positions in the cause's arguments)."""

    cause: str
    template: Template
    taken: tuple[int, ...]


@dataclass(frozen=True)
class Telling:
    """How one event is told: per cause (in the order written), else `text` (None: not told)."""

    text: Template | None
    because: tuple[Because, ...] = ()


class Narrations:
    """The `narrate:` section of a game, compiled for one match."""

    def __init__(self, game, table, errors: ErrorList):
        self.game = game
        m = game.catalog
        self.entries: dict[str, Telling] = {}
        for name, entry in (table or {}).items():
            params = self._params(name)
            if params is None:
                known = list(m.events) + list(m.procedures)
                errors.add(m.ruleset.where_of(table, name), f"render.narrate: no event or procedure `{name}`",
                           hint=did_you_mean(str(name), known) or "events: " + ", ".join(m.events))
                continue
            if not isinstance(entry, dict):
                t = compile_template(game, table, name, names=tuple(params), errors=errors)
                if t is not None:
                    self.entries[name] = Telling(t)
                continue
            text = compile_template(game, entry, "text", names=tuple(params), errors=errors) \
                if "text" in entry else None
            self.entries[name] = Telling(text, self._because(entry, params, errors))

    def _params(self, name) -> list | None:
        m = self.game.catalog
        return m.events.get(name, m.procedures.get(name))

    def _because(self, entry, params, errors: ErrorList) -> tuple:
        m = self.game.catalog
        table = entry.get("because") or {}
        out = []
        for cause in table:
            cause_params = self._params(cause)
            if cause_params is None:
                known = list(m.events) + list(m.procedures)
                errors.add(m.ruleset.where_of(table, cause), f"render.narrate: no event or procedure `{cause}` "
                           "to be a cause", hint=did_you_mean(str(cause), known) or "events: " + ", ".join(m.events))
                continue
            taken = tuple(i for i, p in enumerate(cause_params) if p not in params)
            names = tuple(params) + tuple(cause_params[i] for i in taken)
            t = compile_template(self.game, table, cause, names=names, errors=errors)
            if t is not None:
                out.append(Because(str(cause), t, taken))
        return tuple(out)

    def tell(self, st, sight, events, i: int, *, causes=None, me=None) -> str | None:
        """The i-th of `events` (a decision's, in order) told for `sight`'s viewer, or None.
        `causes`: what set each event off, as the engine recorded it (Step.causes); without them
        every event is told by its `text`."""
        name, args = events[i]
        entry = self.entries.get(name)
        if entry is None:
            return None
        if entry.because and causes:
            b, cause_args = self._cause(entry, events, causes, i)
            if b is not None:
                bound = tuple(args) + tuple(cause_args[k] for k in b.taken)
                return b.template.render(self.game, st, sight, me=me, bound=bound)
        if entry.text is None:
            return None
        return entry.text.render(self.game, st, sight, me=me, bound=tuple(args))

    @staticmethod
    def _cause(entry: Telling, events, causes, i: int):
        """(the Because of event i's closest cause the entry lists, that cause's arguments), or
        (None, None): up the chain of recorded causes, an index into `events` or a flow hook's
        (name, args)."""
        wanted = {b.cause: b for b in entry.because}
        cause = causes[i] if i < len(causes) else None
        while cause is not None:
            if type(cause) is int:
                (name, args), cause = events[cause], causes[cause]
            else:
                (name, args), cause = cause, None
            b = wanted.get(name)
            if b is not None:
                return b, args
        return None, None
