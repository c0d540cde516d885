"""The names of a game folder: where each is defined (a key of a content section) and every place
it is written (keys, rules text, plain values) across content, texts, variants, scenarios and
tutorials. Definition, references and rename read it."""
from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

from .documents import Spot

# the content sections whose keys are names the rules text and other files use
SECTIONS = ("cards", "zones", "functions", "procedures", "events", "constants", "actions", "options")
VAR_KINDS = ("game", "player", "card", "zone")
ATTRIBUTE_SECTIONS = {"vars.player", "vars.card", "vars.zone"}  # read after a dot: `me.score`
RENAMEABLE = {"cards", "procedures", "functions", "events", "zones", "vars.game", "vars.player", "vars.card",
              "vars.zone", "constants", "actions"}


def section_of(path: tuple) -> str | None:
    """The symbol section a key at `path` defines (`cards`, `vars.player`), or None."""
    if len(path) == 2 and path[0] in SECTIONS:
        return path[0]
    if len(path) == 3 and path[0] == "vars" and path[1] in VAR_KINDS:
        return f"vars.{path[1]}"
    return None


@dataclass(frozen=True)
class Place:
    path: Path
    spot: Spot


@dataclass(frozen=True)
class Symbol:
    section: str
    name: str

    def __str__(self) -> str:
        return f"{self.section}.{self.name}"


class Index:
    """Built from every file's walk (documents.walk), anew when a file changed."""

    def __init__(self, walked: dict):  # path -> (role, Walked)
        self.defs: dict[Symbol, list[Place]] = defaultdict(list)
        self.by_name: dict[str, list[Place]] = defaultdict(list)
        self.spots: dict[Path, list[Spot]] = {}
        for path, (role, w) in walked.items():
            self.spots[path] = sorted(w.spots, key=lambda s: (s.line, s.column))
            for s in w.spots:
                self.by_name[s.name].append(Place(path, s))
                section = section_of(s.path) if s.what == "key" else None
                if section and role == "content":
                    self.defs[Symbol(section, s.name)].append(Place(path, s))

    def spot_at(self, path: Path, line: int, column: int) -> Spot | None:
        for s in self.spots.get(path, ()):
            if s.line == line and s.column <= column <= s.column + s.length:
                return s
        return None

    def symbols_named(self, name: str) -> list[Symbol]:
        return [sym for sym in self.defs if sym.name == name]

    def symbol_at(self, path: Path, spot: Spot) -> Symbol | None:
        """What the name at a spot designates: a definition's own key, else the symbol of that name
        that can be written there (an attribute after a dot: a variable of players, cards or zones)."""
        if spot.what == "key":
            section = section_of(spot.path)
            if section:
                return Symbol(section, spot.name)
        found = self.symbols_named(spot.name)
        if spot.what == "rules":
            fits = [s for s in found if (s.section in ATTRIBUTE_SECTIONS) == spot.after_dot]
            found = fits or ([] if spot.after_dot else found)
        elif spot.what == "key":
            found = [s for s in found if len(spot.path) >= 2 and _texts_key(spot.path, s)] or []
        return found[0] if found else None

    def references(self, sym: Symbol, *, definitions: bool = True) -> list[Place]:
        out = []
        for place in self.by_name.get(sym.name, ()):
            s = place.spot
            if s.what == "key":
                section = section_of(s.path)
                if section == sym.section and definitions:
                    out.append(place)
                elif section is None and _texts_key(s.path, sym):
                    out.append(place)
                continue
            if s.what == "rules" and s.after_dot != (sym.section in ATTRIBUTE_SECTIONS):
                continue
            if s.what == "value" and "params" in s.path:
                continue  # a parameter: a local name, whatever it shadows
            out.append(place)
        return sorted(out, key=lambda p: (str(p.path), p.spot.line, p.spot.column))

    def definition(self, sym: Symbol) -> Place | None:
        places = self.defs.get(sym)
        return places[0] if places else None


def _texts_key(path: tuple, sym: Symbol) -> bool:
    """A key naming the symbol outside its definition: a language's texts (`cards: {NAME: {title}}`)
    or a variant's value that adds to a section."""
    section = sym.section.split(".")[0]
    return len(path) >= 2 and path[-2] == (sym.section.split(".")[-1] if section == "vars" else section)


__all__ = ["ATTRIBUTE_SECTIONS", "Index", "Place", "RENAMEABLE", "SECTIONS", "Symbol", "section_of"]
