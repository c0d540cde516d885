"""Diagnostics: `interpret validate`'s checks on the editor's texts, every mistake once, at its range.

Two passes for an edit: `quick` reads the folder (YAML, schema, cross references: the loader's
problems) and every syntax mistake of the edited file's rules texts, in a few tens of
milliseconds; `full` then runs `validate_game` itself (every rules text compiled for every
player count), once more for each open variant, and checks open scenarios and tutorials."""
from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

from ..errors import ContentError, Location, Problem
from ..ruleset.paths import display_path
from .model import GameModel
from .recover import kind_of, syntax_problems

SYNTAX = "rules syntax error"
_HINTED = re.compile(r"did you mean ((?:`[^`]+`(?: or )?)+)\?")


@dataclass(frozen=True)
class Found:
    problem: Problem
    warning: bool = False

    @property
    def key(self) -> tuple:
        loc = self.problem.location or Location("")
        return loc.file, loc.line, loc.column, self.problem.message

    def suggestions(self) -> list[str]:
        """The names a did-you-mean hint offers (errors.did_you_mean)."""
        m = _HINTED.search(self.problem.hint or "")
        return re.findall(r"`([^`]+)`", m.group(1)) if m else []


def _by_file(model: GameModel, found) -> dict[Path, list[Found]]:
    out: dict[Path, list[Found]] = defaultdict(list)
    seen = set()
    path_of = model.paths_of()
    for f in found:
        if f.key in seen:
            continue
        seen.add(f.key)
        path = path_of(f.problem.location)
        if path is None:
            path = model.root / "game.yaml"  # a problem of the whole game: shown on its first file
        out[path].append(f)
    return out


def _recovered(model: GameModel, paths, reported=None) -> list[Found]:
    """Every syntax mistake of each rules text of these files. With `reported` (validate's
    problems), only for the texts where validate found the first (it stops a text there); without,
    for each text that reads as none of the three kinds (expression, effect, trigger)."""
    out = []
    for path in paths:
        display = display_path(path)
        at = {(p.location.line, p.location.column) for p in reported or ()
              if p.location and p.location.file == display and p.message.startswith(SYNTAX)}
        if reported is not None and not at:
            continue
        for t in model.texts_of(path):
            kind = kind_of(t.path)
            problems = syntax_problems(t.src, kind)
            if not problems:
                continue
            if reported is None and any(not syntax_problems(t.src, k) for k in ("expr", "effect", "trigger")
                                        if k != kind):
                continue  # another kind reads it: the key's kind was guessed wrong
            if reported is None or any((p.location.line, p.location.column) in at for p in problems):
                out += [Found(p) for p in problems]
    return out


def quick(model: GameModel, path: Path) -> dict[Path, list[Found]]:
    """The edited file alone, at once: its YAML, its schema and every syntax mistake of its rules
    texts (a few milliseconds; `full` follows with the rest)."""
    from ..ruleset.schema import schema_problems
    from ..ruleset.yamlio import load_yaml_text
    from .schemas import schema_name_of
    role = model.role_of(path)
    found: list[Found] = []
    try:
        doc = load_yaml_text(model.text_of(path) or "", display_path(path))
    except ContentError as e:
        doc = None
        found += [Found(p) for p in e.problems]
    name = schema_name_of(role or "")
    if doc is not None and name and role != "texts":
        found += [Found(p) for p in schema_problems(doc, name, display_path(path))]
    found += _recovered(model, [path])
    out = _by_file(model, found)
    out.setdefault(Path(path).resolve(), [])
    return out


def full(model: GameModel, *, early=None, stop=None) -> dict[Path, list[Found]] | None:
    """What `interpret validate` reports of the game, of each open variant, and of each open
    scenario or tutorial, with every syntax mistake of each rules text. The folder is read once;
    the game is compiled for its default number of players first, given to `early` (the problems
    found so far), then for each other number unless `stop()` says a newer edit is waiting (then
    None). What the edit cannot change is not checked again: the game's problems while its content
    files read the same (model.content_key), a variant's while it and they do."""
    with model.overlay():  # no lock: requests read the index and the last ruleset meanwhile
        key = model.content_key()
        found = model.checked.get(key)
        if found is None:
            found = _game_problems(model, early=early, stop=stop)
            if found is None:
                return None
            model.checked = {key: found}
        found = list(found)
        for path in [p for p in model.open if model.role_of(p) == "variant"]:
            text = model.open[path]
            seen = model.variants_checked.get(path)
            if seen is None or seen[:2] != (key, text):
                if stop is not None and stop():
                    return None
                seen = model.variants_checked[path] = (key, text, _variant_problems(model, path))
            found += seen[2]
    return _finished(model, found)


def _game_problems(model: GameModel, *, early, stop) -> list[Found] | None:
    """validate's problems of the game: the default number of players first (to `early`), then
    the others one by one; None as soon as `stop()` says a newer edit is waiting."""
    from ..play.validate import player_counts
    rs, found = _loaded(model)
    if rs is None:
        return found
    if stop is not None and stop():  # typed on meanwhile: the newer text is checked instead
        return None
    counts = player_counts(rs)
    first = [rs.default_players] if rs.default_players in counts else counts
    found = _validated(model, rs, only=first)
    rest = [n for n in counts if n not in first]
    if rest and early is not None:
        early(_finished(model, found))
    for n in rest:
        if stop is not None and stop():
            return None
        found += _validated(model, rs, only=[n])
    return found


def _loaded(model: GameModel):
    """(the folder read as the editor holds it, with its problems kept, or None; the problems
    when it could not be read at all). Hover and completion read its names meanwhile."""
    from ..ruleset.loader import load_ruleset
    from ..ruleset.yamlio import shared_trees
    try:
        with shared_trees(model.trees):  # read, never changed: the files that did not change are not read again
            model.rs = load_ruleset(model.root, keep_going=True)
        return model.rs, []
    except ContentError as e:
        return None, [Found(p) for p in e.problems]
    except Exception as e:  # content broken in a way the loader did not foresee
        return None, [_unforeseen(model, e)]


def _validated(model: GameModel, rs, *, only) -> list[Found]:
    """`validate_game` of the folder as the editor holds it (read once, `rs`), for these numbers
    of players."""
    from ..play.validate import validate_ruleset
    try:
        v = validate_ruleset(rs, only=only, where=str(model.root))
        return [Found(w, warning=True) for w in v.warnings]
    except ContentError as e:
        return [Found(p) for p in e.problems]
    except Exception as e:
        return [_unforeseen(model, e)]


def _unforeseen(model: GameModel, e: Exception) -> Found:
    return Found(Problem(Location(display_path(model.root / "game.yaml")),
                         f"the game could not be checked: {type(e).__name__}: {e}"))


def _variant_problems(model: GameModel, path: Path) -> list[Found]:
    """An open variant's own problems: the game validated with it applied."""
    from ..play.validate import validate_game
    display = display_path(path)
    try:
        validate_game(str(model.root), variants=[str(path)])
    except ContentError as e:
        return [Found(p) for p in e.problems if p.location and p.location.file == display]
    except Exception as e:
        return [Found(Problem(Location(display), f"the variant could not be checked: {e}"))]
    return []


def _finished(model: GameModel, found: list[Found]) -> dict[Path, list[Found]]:
    """With the open scenarios' problems and every syntax mistake of the texts validate stopped at."""
    found = found + _scenario_problems(model, list(model.open))
    reported = [f.problem for f in found]
    found += _recovered(model, [p for p in model.open if model.role_of(p)], reported)
    return _by_file(model, found)


def _scenario_problems(model: GameModel, paths) -> list[Found]:
    """A scenario's or tutorial's YAML and schema, as `interpret test` reads them first."""
    from ..ruleset.schema import schema_problems
    from ..ruleset.yamlio import load_yaml_text
    out = []
    for path in paths:
        role = model.role_of(path)
        if role not in ("scenario", "tutorial"):
            continue
        text = model.text_of(path) or ""
        try:
            doc = load_yaml_text(text, display_path(path))
        except ContentError as e:
            out += [Found(p) for p in e.problems]
            continue
        out += [Found(p) for p in schema_problems(doc, role, display_path(path))]
    return out


def problem_files(found: dict) -> set:
    return {p for p, items in found.items() if items}


__all__ = ["Found", "SYNTAX", "full", "problem_files", "quick"]
