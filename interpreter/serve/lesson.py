"""A guided game at the web table: a tutorial (scenarios/tutorial.py) played in the page.

The tutorial is played once with its expected moves (tutorial.Script): since only the move a
lesson teaches goes on, that recording is the whole guided game, and the table walks it. The
learner's seat gets the moves of the position like at any table; a legal move that is not the
taught one is refused with the lesson's hint (in the table's language), the taught one moves the
walk on: the scripted moves of the other seats are narrated, each lesson's text comes with the
places it points at, until the next decision of the learner or the end (the outro).

`hello` carries `tutorial` (title, intro, the rulebook's section) and, with every `update`,
`lesson` (the text now, and the places it points at: the page highlights them). A guided game is
not kept on disk: it starts again from its beginning."""
from __future__ import annotations

from pathlib import Path

from ..i18n import _, speaking
from ..play.common import HUMAN
from ..play.render import Renderer
from ..scenarios.runner import ScenarioFailed
from ..scenarios.tutorial import (Asked, Moved, Script, Told, Tutorial, game_tutorials, hint_for, is_taught,
                                  load_game_for, load_tutorial, text_of)
from .table import SPECTATOR, Seat, Table, Viewer, new_token

SCRIPTED = "bot:normal"  # the kind the lobby shows for the seats the tutorial plays


class LessonError(ValueError):
    """A guided game that cannot be played (plain English, for the host)."""


def tutorials_of(ref: str) -> list[dict]:
    """What the lobby lists of a game's tutorials: name, and title in each language."""
    out = []
    for path in game_tutorials(ref):
        try:
            title = (load_tutorial(path).get("tutorial") or {}).get("title")
        except Exception:  # a tutorial that does not read is not offered (`interpret test` says why)
            continue
        out.append({"name": path.stem, "title": {lang: text_of(title, lang) or path.stem for lang in ("en", "fr")}})
    return out


def find_tutorial(ref: str, name) -> Path:
    for path in game_tutorials(ref):
        if path.stem == name:
            return path
    raise LessonError(f"no tutorial {name!r} for this game")


class Lesson(Table):
    """A tutorial walked at the web table, for one learner (and any spectators)."""

    def __init__(self, *, tid: str, game, ref: str, path: Path, doc, lang: str):
        meta = doc.get("tutorial") or {}
        script = Script()
        with speaking(lang):
            tutorial = Tutorial(game, path, doc, script)
            try:
                tutorial.run()
            except ScenarioFailed as e:
                raise LessonError(f"this tutorial no longer matches the rules: {e.failure.render()}") from None
            self.guide = {"title": tutorial.title, "intro": text_of(meta.get("intro")),
                          "section": _("(from the rulebook: {section})").format(section=meta["section"])
                          if meta.get("section") else "",
                          "outro": text_of(meta.get("outro"))}
        self.frames = script.frames
        self.learner = tutorial.seat.id
        seats = [Seat(HUMAN if i == self.learner else SCRIPTED, new_token()) for i in range(game.num_players)]
        super().__init__(tid=tid, game=game, ref=ref, variants=list(meta.get("variants") or []),
                         options=dict(meta.get("options") or {}), seed=int(meta.get("seed") or 0), seats=seats,
                         timer=None, lang=lang)

    def _restart(self, actions: list[str]) -> None:
        """The walk from the tutorial's beginning to the learner's first decision."""
        with speaking(self.lang):
            self.renderer = Renderer(self.game)
            self.st = self.frames[0].state if self.frames else self.game.new_game(seed=self.seed)
            self.n, self.at = 0, 0
            self.actions: list[str] = []
            self.asked: Asked | None = None
            self.lesson: dict | None = None
            self.viewers = {seat: Viewer(self, seat) for seat in [*range(self.game.num_players), SPECTATOR]}
            self._remember()
            for v in self.viewers.values():
                v.narrator.new_round(self.st)
            self._walk()

    def _walk(self) -> None:
        """Tell the frames up to the learner's next decision (or the end)."""
        self.asked = None
        while self.at < len(self.frames):
            f = self.frames[self.at]
            if isinstance(f, Asked):
                self.st, self.asked = f.state, f
                return
            self.at += 1
            if isinstance(f, Told):
                self.st = f.state
                self._remember()
                self.lesson = {"text": f.text, "places": f.places}
                for v in self.viewers.values():
                    if f.text:
                        v.entries.append({"n": self.n, "text": f.text, "lesson": True})
            elif isinstance(f, Moved):
                shown = self._shown(f.before, f.player, f.action)
                self.st = f.after
                self.n += 1
                self.actions.append(str(f.action))
                self._remember()
                self._told(f.player, f.action, shown, f.events, f.causes)

    # -- what the hub asks of a table

    def over(self) -> bool:
        return self.asked is None

    def deciding(self) -> int | None:
        return self.learner if self.asked is not None else None

    def waiting_on_bot(self) -> bool:
        return False  # the tutorial plays the other seats itself

    def find(self, seat: int, *, key: str | None = None, text: str | None = None):
        """The taught move when the learner asks for it; another legal move gets the lesson's hint."""
        action, refused = super().find(seat, key=key, text=text)
        if refused is not None or self.asked is None:
            return action, refused
        with speaking(self.lang):
            label = self.renderer.label(self.st, seat, action)
            wanted = self.renderer.label(self.st, seat, self.asked.expected)
            if is_taught(action, self.asked.expected, label=label, wanted=wanted):
                return self.asked.expected, None
            hint = hint_for(self.asked.hint, wanted)
            return None, {"type": "refused", "counter": self.counter,
                          "text": _("Not this move: {move}.").format(move=label), "reasons": [hint]}

    def play(self, action) -> None:
        """The taught move: the walk goes on (the recording tells the move itself)."""
        with speaking(self.lang):
            self.at += 1
            self._walk()

    def why_no_undo(self, seat: int) -> str | None:
        with speaking(self.lang):
            return _("a guided game only goes forward")

    def hello(self, seat: int | None, *, deadline_ms: int | None = None) -> dict:
        return {**super().hello(seat, deadline_ms=deadline_ms), "lesson": self.lesson,
                "tutorial": {k: self.guide[k] for k in ("title", "intro", "section")}}

    def update(self, seat: int | None, since: dict, *, deadline_ms: int | None = None) -> dict:
        return {**super().update(seat, since, deadline_ms=deadline_ms), "lesson": self.lesson}

    def end(self) -> dict:
        """The outro, and that the guided game is finished."""
        with speaking(self.lang):
            lines = [self.guide["outro"]] if self.guide["outro"] else []
            lines.append(_("Guided game finished: {title}.").format(title=self.guide["title"]))
        return {"type": "end", "counter": self.counter, "lines": lines, "tutorial": True}


def start_lesson(games, *, tid: str, name, tutorial, lang: str) -> Lesson:
    """A guided game of the lobby's game `name`: its tutorial `tutorial`, in `lang`."""
    ref = games.check(name, [])
    path = find_tutorial(ref, tutorial)
    doc = load_tutorial(path)

    def load(_name, players, options, variants):
        return games.load(ref, players=players, options=options or {}, variants=list(variants or ()), lang=lang)

    return Lesson(tid=tid, game=load_game_for(path, doc, load), ref=ref, path=path, doc=doc, lang=lang)


__all__ = ["Lesson", "LessonError", "find_tutorial", "start_lesson", "tutorials_of"]
