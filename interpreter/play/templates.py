"""The content's texts for the terminal, compiled once per match: templates (text with
`{expressions}` of the rules language) and conditions (one expression), each read for a viewer:
what reads a card the viewer cannot see is `?` in a template, and false in a condition."""
from __future__ import annotations

import re
from dataclasses import dataclass

from ..engine.guard import translate
from ..errors import ContentError, ErrorList, InterpretError, Location, Problem
from ..i18n import _
from ..lang.compiler import Scope
from ..ruleset.yamlio import SourceText

_PIECE = re.compile(r"\{([^{}]*)\}")
HIDDEN = "?"


def unshown() -> str:
    """What a player reads in place of a piece of text whose rule failed (never the error itself)."""
    return _("(cannot be shown)")


class TextFailures:
    """The display's texts whose rules failed while drawing (a recursion, a budget spent, a rule
    error): each failure once, with its position, for the designer (`play` tells them at the end
    of the game, `validate` on the first screens); the player only reads `unshown()`."""

    LIMIT = 50  # different failures kept

    def __init__(self):
        self.seen: dict = {}  # (where, message) -> [Location or None, times]

    def add(self, e: BaseException, where: Location | None) -> None:
        """A failure of the text written at `where`."""
        if not isinstance(e, InterpretError):
            e = translate(e)  # a Python error of the rules: a rule error at the innermost rule
        key = (str(where), str(e))
        if key in self.seen:
            self.seen[key][1] += 1
        elif len(self.seen) < self.LIMIT:
            self.seen[key] = [where, 1]

    def problems(self) -> list[Problem]:
        return [Problem(where or Location("render"), f"this text of the display cannot be shown: {why}")
                for (_at, why), (where, _times) in self.seen.items()]

    def report(self) -> list[str]:
        """One line per failure, for the designer at the end of a game."""
        return [f"warning: {where or 'render'}: this text of the display could not be shown "
                f"({times} time{'s' if times > 1 else ''}): {why}" for (_at, why), (where, times) in self.seen.items()]


@dataclass(frozen=True)
class Template:
    """A text with compiled `{expression}` pieces; `names` are bound to locals 0.. in order."""

    parts: tuple  # str or lang.templates.Piece
    size: int  # locals needed
    where: Location | None = None  # where the text is written

    def render(self, game, st, sight, *, me=None, bound=(), none: str = "-") -> str:
        ctx = game.rules_context(st, me=me, bound=bound, size=self.size)
        out = []
        for p in self.parts:
            if isinstance(p, str):
                out.append(p)
                continue
            try:
                if sight.viewer is None or not p.reads:
                    v = p.value(ctx)
                else:  # what it reads of a card the viewer cannot see hides it (lang/templates.Piece)
                    v, reads = p.read(ctx)
                    hidden = p.hides(reads, sight)
                    if hidden is not None:
                        out.append(HIDDEN)
                        continue
                out.append(none if v is None else sight.text(v))
            except Exception as e:  # a render expression must never stop a game: the designer is told
                _failed(sight, e, self.where)
                out.append(unshown())
        return "".join(out)


@dataclass(frozen=True)
class Condition:
    """One expression of the rules language, true or not for a viewer: what reads a card the
    viewer cannot see does not hold (a mark drawn from a secret would tell it)."""

    piece: object  # lang.templates.Piece
    size: int
    where: Location | None = None  # where the text is written

    def holds(self, game, st, sight, *, me=None, bound=()) -> bool:
        ctx = game.rules_context(st, me=me, bound=bound, size=self.size)
        p = self.piece
        try:
            if sight.viewer is None or not p.reads:
                return bool(p.value(ctx))
            v, reads = p.read(ctx)
            return p.hides(reads, sight) is None and bool(v)
        except Exception as e:  # a render expression must never stop a game: the designer is told
            _failed(sight, e, self.where)
            return False


def _failed(sight, e: BaseException, where) -> None:
    failures = getattr(sight, "failures", None)  # the renderer's TextFailures (render.Sight)
    if failures is not None:
        failures.add(e, where)


def _piece_source(src: SourceText, offset: int, piece: str) -> SourceText:
    """The SourceText of a `{piece}` starting at `offset` in `src.text`, positioned in its file."""
    before = src.text[:offset]
    line = before.count("\n") + 1
    column = offset - (before.rfind("\n") + 1) + 1
    loc = src.locate(line, column)
    return SourceText(piece, loc.file, loc.line, loc.column, False, 0, src.lines)


def _source(game, parent, key, errors: ErrorList) -> SourceText | None:
    """parent[key] (a YAML string) with its position, or None (the problem told to `errors`)."""
    from ..ruleset.yamlio import resolve_parent
    parent, key = resolve_parent(parent, key)  # merged sections and variants know each key's file
    value = parent[key]
    if not isinstance(value, str):
        errors.add(game.catalog.ruleset.where_of(parent, key), f"render: expected a text, got {value!r}")
        return None
    try:
        return SourceText.of(parent, key)
    except Exception:
        return SourceText.plain(str(value), "<render>")


def compile_template(game, parent, key, *, names: tuple[str, ...], errors: ErrorList) -> Template | None:
    """Compile parent[key] (a YAML string) as a template; problems go to `errors`."""
    src = _source(game, parent, key, errors)
    if src is None:
        return None
    scope = Scope(names)
    parts: list = []
    pos = 0
    ok = True
    for mt in _PIECE.finditer(src.text):
        if mt.start() > pos:
            parts.append(src.text[pos:mt.start()])
        pos = mt.end()
        piece_src = _piece_source(src, mt.start(1), mt.group(1))
        try:
            parts.append(game.compile_piece(piece_src, scope))
        except ContentError as e:
            errors.problems.extend(e.problems)
            ok = False
    if pos < len(src.text):
        parts.append(src.text[pos:])
    return Template(tuple(parts), scope.size, Location(src.file, src.line, src.column)) if ok else None


def compile_condition(game, parent, key, *, names: tuple[str, ...], errors: ErrorList) -> Condition | None:
    """Compile parent[key] (a YAML string, one expression) as a condition; problems go to `errors`."""
    src = _source(game, parent, key, errors)
    if src is None:
        return None
    scope = Scope(names)
    try:
        piece = game.compile_piece(src, scope)
    except ContentError as e:
        errors.problems.extend(e.problems)
        return None
    return Condition(piece, scope.size, Location(src.file, src.line, src.column))
