"""Guided first games: a scenario whose steps also teach (schemas/tutorial.schema.json).

A tutorial is a YAML file in a game's tutorials/ folder. It sets a position with the scenario steps
(runner.py: place, move, set, turn, dice, do, expect...), then lessons, each a mapping of:

    - say: {en: "Your piece is on r3c3: take it.", fr: "..."}
      point: [r3c3]                 # cells (or zones) the text is about, shown with what they hold
      play: take r3c3               # the learner's move ($alias for a card, as in a scenario)
      hint: {en: "Type the move that takes r3c3."}    # when the learner plays something else
      then: [p1.score == 1]         # expectations once it is played

A text is a string (English) or one entry per language ({en: ..., fr: ...}), shown in the table's
language (i18n.language()), English when it has no entry for it.

`interpret learn GAME` plays it with a learner at the keyboard (play/learn.py); `interpret test`
plays it with the expected moves (a `Learner` that always knows the answer) and checks every step,
so a rule change that breaks a tutorial fails like a scenario.
"""
from __future__ import annotations

import re
from pathlib import Path

from dataclasses import dataclass

from ..core.model import Action
from ..engine.game import clone
from ..errors import ContentError
from ..i18n import _, language
from ..ruleset.paths import display_path, game_dir
from ..ruleset.schema import schema_problems
from ..ruleset.yamlio import load_yaml, to_plain
from .runner import SHELF, Result, Runner, ScenarioFailed, game_of, run_paths

LESSON_KEYS = ("say", "point", "play", "hint", "then")


def text_of(value, lang: str | None = None) -> str:
    """A content text in the table's language: a string, or a {language: text} mapping (English
    when the language has no entry)."""
    if value is None:
        return ""
    if isinstance(value, dict):
        lang = lang or language()
        return str(value.get(lang) or value.get("en") or next(iter(value.values()), ""))
    return str(value)


def tutorial_files(paths) -> list[Path]:
    """The tutorials of game folders (their tutorials/ folder), and tutorial files given as such."""
    out = []
    for p in paths:
        p = Path(p)
        if p.is_file():
            out.append(p)
        elif (p / "tutorials").is_dir():
            out.extend(sorted((p / "tutorials").glob("*.yaml")))
        elif p.is_dir() and p.name == "tutorials":
            out.extend(sorted(p.glob("*.yaml")))
    return out


def game_tutorials(game: str) -> list[Path]:
    """A game's tutorials (a bundled game's name or a folder)."""
    folder = game_dir(game)
    return sorted((folder / "tutorials").glob("*.yaml")) if (folder / "tutorials").is_dir() else []


def load_tutorial(path: Path):
    doc = load_yaml(path, display_path(path))
    problems = schema_problems(doc, "tutorial", display_path(path))
    if problems:
        raise ContentError(problems)
    return doc


class Learner:
    """Who answers a tutorial's lessons. This one knows every answer (`interpret test`); the
    terminal's asks a person (play/learn.py)."""

    def start(self, tutorial: "Tutorial") -> None:
        pass

    def tell(self, tutorial: "Tutorial", text: str, cells: list) -> None:
        pass

    def choose(self, tutorial: "Tutorial", expected: Action, hint: str) -> Action:
        return expected

    def moved(self, tutorial: "Tutorial", *, before, player, action, events, causes=None, mine: bool) -> None:
        pass

    def finish(self, tutorial: "Tutorial") -> None:
        pass


def is_taught(chosen: Action, expected: Action, *, label: str, wanted: str) -> bool:
    """Whether the learner's move is the one the lesson teaches: that action, or one that reads the
    same to the learner (another copy of the same card)."""
    return chosen == expected or label == wanted


def hint_for(hint: str, wanted: str) -> str:
    """What the learner is told after another move: the lesson's hint, else the move it teaches."""
    return _("Hint: {hint}").format(hint=hint or _("this step teaches another move: {move}.").format(move=wanted))


@dataclass
class Told:
    """A lesson's text, and the places (zones) it points at, as the state was then."""
    state: dict
    text: str
    places: list


@dataclass
class Asked:
    """The learner's decision: the move the lesson teaches and its hint (in the table's language)."""
    state: dict
    expected: Action
    hint: str


@dataclass
class Moved:
    """A move played (the learner's or a scripted one), its events and their causes."""
    before: dict
    after: dict
    player: int | None
    action: Action
    events: list
    causes: list
    mine: bool


class Script(Learner):
    """A tutorial recorded as it is played with its expected moves, for a front end that cannot wait
    inside the runner for its learner (the web table walks it, serve/lesson.py): `frames`, in order,
    each Told, Asked or Moved. Only the taught move goes on, so the recording is the whole tutorial."""

    def __init__(self):
        self.frames: list = []

    def tell(self, tutorial, text, cells) -> None:
        self.frames.append(Told(clone(tutorial.pos.state), text, [z.key for z in cells]))

    def choose(self, tutorial, expected, hint):
        self.frames.append(Asked(clone(tutorial.pos.state), expected, hint))
        return expected

    def moved(self, tutorial, *, before, player, action, events, causes=None, mine) -> None:
        self.frames.append(Moved(before, clone(tutorial.pos.state), player, action, list(events), list(causes or []),
                                 mine))


class Tutorial(Runner):
    """A tutorial played: the scenario runner's steps, and lessons put to a Learner."""

    def __init__(self, game, path: Path, doc, learner: Learner | None = None):
        super().__init__(game, path, doc)
        self.meta = doc.get("tutorial") or {}
        self.learner = learner or Learner()
        self.seat = self._learner_seat()

    def _learner_seat(self):
        key = str(self.meta.get("learner", "p1"))
        for s in self.game.seats:
            if s.key == key:
                return s
        self.fail(self.meta, "learner", f"no seat `{key}` in a game of {self.game.num_players} players")

    @property
    def title(self) -> str:
        return text_of(self.meta.get("title"))

    def run(self):
        self.learner.start(self)
        super().run()
        self.learner.finish(self)

    def step(self, parent, index, step):
        if isinstance(step, dict) and any(k in step for k in LESSON_KEYS):
            self.lesson(parent, index, step)
        else:
            super().step(parent, index, step)

    def lesson(self, parent, index, step):
        cells = []
        for i, name in enumerate(step.get("point") or []):
            z = self.place(str(name))
            if z is None:
                self.fail(step["point"], i, f"no cell or zone `{name}` to point at")
            cells.append(z)
        if step.get("say") is not None or cells:
            self.learner.tell(self, text_of(step.get("say")), cells)
        if step.get("play") is None:
            return
        g, st = self.game, self.pos.state
        text = self.text(step["play"])
        try:
            expected = Action.parse(text)
        except ValueError:
            self.fail(step, "play", "an empty action")
        mover = g.current_player(st)
        if mover != self.seat.id:
            who = g.seats[mover].key if mover is not None else "chance"
            self.fail(step, "play", f"the learner ({self.seat.key}) is asked to play `{text}`, and {who} decides now")
        reason = g.explain(st, expected)
        if reason is not None:
            self.fail(step, "play", f"`{text}` was refused: {reason}")
        chosen = self.learner.choose(self, expected, text_of(step.get("hint")))
        self.do(step, "play", str(chosen))
        for j, _ in enumerate(step.get("then") or []):
            self.expect(step["then"], j)

    def place(self, name: str):
        """A zone by its key or name, or a board cell as the board names it (`r1c4`: row, column)."""
        m = self.game.catalog
        z = m.zone(name) or m.zone_by_name.get(name)
        if z is None and re.fullmatch(r"r\d+c\d+", name):
            r, c = map(int, name[1:].split("c"))
            z = next((z for z in m.cells if z.attrs.get("row") == r and z.attrs.get("column") == c), None)
        return z

    def do(self, node, key, text):
        before = self.pos.state
        player = self.game.current_player(before)
        seen = len(self.events)
        super().do(node, key, text)
        self.learner.moved(self, before=before, player=player, action=Action.parse(text), events=self.events[seen:],
                           causes=[c - seen if type(c) is int else c for c in self.causes[seen:]],
                           mine=player == self.seat.id)


def load_game_for(path: Path, doc, load_game=None):
    meta = doc.get("tutorial") or {}
    variants = [str(path.parent / v) if (path.parent / str(v)).is_file() else str(v) for v in meta.get("variants") or []]
    return (load_game or SHELF)(game_of(path, {"scenario": meta}), meta.get("players"), to_plain(meta.get("options")),
                                variants)


def run_tutorial(path: Path, learner: Learner | None = None, load_game=None) -> Result:
    """Play one tutorial with `learner` (default: the expected moves), every step checked."""
    path = Path(path)
    doc = load_tutorial(path)
    meta = doc.get("tutorial") or {}
    result = Result(display_path(path), text_of(meta.get("title"), "en") or path.stem)
    tutorial = Tutorial(load_game_for(path, doc, load_game), path, doc, learner)
    try:
        tutorial.run()
    except ScenarioFailed as e:
        result.failures.append(e.failure)
    result.steps = tutorial.done
    return result


def run_tutorial_paths(paths) -> list[Result]:
    """The tutorials of game folders (or tutorial files), each played with its expected moves."""
    return run_paths(paths, files=tutorial_files, run=run_tutorial)


__all__ = ["Asked", "Learner", "Moved", "Script", "Told", "Tutorial", "game_tutorials", "hint_for", "is_taught",
           "load_tutorial", "run_tutorial", "run_tutorial_paths", "text_of", "tutorial_files"]
