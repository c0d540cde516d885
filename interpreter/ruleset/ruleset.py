"""A game's content as read from its files: each section a mapping that keeps the file and line
of every value (yamlio.MergedMap), checked by the loader (loader.py) and overlaid by variants
(variants.py)."""
from __future__ import annotations

from pathlib import Path

from .. import limits as lim
from ..errors import ErrorList, Location, did_you_mean
from .schema import SECTIONS_LIST, SECTIONS_MAPPING, schema_problems
from .spec import snippet_of, where_of
from .yamlio import MergedMap, SourceText, Snippet, key_location, to_plain


class Ruleset:
    """A game's content, read and checked; compiled per number of players into a GameDefinition."""

    def __init__(self, root: Path):
        self.root = root
        self.name = root.name
        self.title = root.name
        self.files: list[str] = []
        self.meta = {}
        self.constants = MergedMap()
        self.cards = MergedMap()
        self.zones = MergedMap()
        self.vars = {"game": MergedMap(), "player": MergedMap(), "card": MergedMap(), "zone": MergedMap()}
        self.functions = MergedMap()
        self.procedures = MergedMap()
        self.events = MergedMap()
        self.actions = MergedMap()
        self.option_specs = MergedMap()
        self.variants: list[str] = []
        self.problems: list = []
        self.triggers: list = []
        self.invariants: list = []
        self.extra_tags: list = []
        self.board = MergedMap()
        self.flow = MergedMap()
        self.scoring = MergedMap()
        self.render = MergedMap()
        self.analysis = MergedMap()  # what `interpret analyze` reports per seat (facets); no effect on play
        self.tuning = MergedMap()  # what `interpret tune` may change and aims at (ruleset/tuning.py); no effect on play
        self.origins: dict = {}  # (section, name) -> Location where it was defined
        self.limits = lim.DEFAULT  # game.limits, within limits.HARD

    # -- the things the definition's builder asks for
    @property
    def seat_names(self):
        return list(self.meta.get("seat_names") or [])

    @property
    def _players(self) -> dict:
        """`game.players` when it is a mapping; anything else was reported by the schema (a number,
        a text or a list there is read as no range at all)."""
        p = self.meta.get("players")
        return p if isinstance(p, dict) else {}

    @property
    def default_players(self) -> int:
        p = self._players
        n = p.get("default", p.get("min", 2))
        return n if type(n) is int and 1 <= n <= self.limits.players else min(max(self.player_range[0], 2),
                                                                             self.player_range[1])

    @property
    def player_range(self):
        p = self._players
        cap = self.limits.players
        lo, hi = p.get("min", 1), p.get("max", 99)
        lo = lo if type(lo) is int and 1 <= lo <= cap else 1
        hi = hi if type(hi) is int and 1 <= hi <= cap else min(99, cap)
        return lo, hi

    def where_of(self, node, key=None) -> Location:
        return where_of(node, key)

    def snippet(self, node, key, where: str):
        return snippet_of(node, key, where)

    def resolve_options(self, given: dict, players: int) -> dict:
        errors = ErrorList()
        lo, hi = self.player_range
        if not (lo <= players <= hi):
            errors.add(Location("--players"), f"{self.title} is played by {lo} to {hi} players, not {players}")
        out = {}
        for name, spec in self.option_specs.items():
            out[name] = to_plain(spec.get("default"))
        for name, value in given.items():
            spec = self.option_specs.get(name)
            if spec is None:
                errors.add(Location("--option"), f"unknown option `{name}` for {self.title}",
                           hint=did_you_mean(name, self.option_specs) or
                           ("options: " + ", ".join(self.option_specs) if self.option_specs else "this game has no options"))
                continue
            out[name] = self._check_option(name, spec, value, errors)
        errors.raise_if_any()
        return out

    @staticmethod
    def _check_option(name, spec, value, errors):
        choices = spec.get("choices")
        default = spec.get("default")
        if isinstance(value, str) and isinstance(default, bool):
            if value.lower() in ("yes", "true", "on", "1"):
                return True
            if value.lower() in ("no", "false", "off", "0"):
                return False
            errors.add(Location("--option"), f"option {name} is yes or no, not {value!r}")
            return default
        if isinstance(value, str) and (isinstance(default, int) or "min" in spec):
            if value.lstrip("-").isdigit():
                value = int(value)
            elif not choices or value not in choices:
                errors.add(Location("--option"), f"option {name} takes a number, not {value!r}",
                           hint=f"from {spec.get('min')} to {spec.get('max')}" + (
                               f", or one of {', '.join(map(str, choices))}" if choices else ""))
                return default
        if choices and value in choices:
            return value
        if isinstance(value, int) and not isinstance(value, bool):
            lo, hi = spec.get("min"), spec.get("max")
            if (lo is not None and value < lo) or (hi is not None and value > hi):
                errors.add(Location("--option"), f"option {name}={value} is out of range",
                           hint=f"from {lo} to {hi}" + (f", or one of {', '.join(map(str, choices))}" if choices else ""))
                return default
            return value
        if choices:
            errors.add(Location("--option"), f"option {name}={value!r} is not allowed",
                       hint="one of " + ", ".join(map(str, choices)) + (did_you_mean(str(value), map(str, choices)) and
                                                                        " — " + did_you_mean(str(value), map(str, choices)) or ""))
            return default
        return value

    # -- reading
    def add_file(self, doc, file: str, errors: ErrorList):
        self.files.append(file)
        if doc is None:
            return
        if not isinstance(doc, dict):
            errors.add(Location(file, 1, 1), "a content file must be a mapping of sections (cards:, zones:, ...)")
            return
        for p in schema_problems(doc, "content", file):
            errors.problems.append(p)
        if "game" in doc and isinstance(doc["game"], dict):
            if self.meta:
                errors.add(key_location(doc, "game"), "a second `game:` section", hint="only game.yaml declares the game")
            self.meta = doc["game"] or {}
            self.title = str(self.meta.get("title") or self.meta.get("name") or self.name)
        for section in SECTIONS_MAPPING:
            if section not in doc or not isinstance(doc[section], dict):
                continue
            target = {"options": self.option_specs}.get(section, getattr(self, section, None))
            if section == "vars":
                for kind, specs in doc["vars"].items():
                    if kind in self.vars and isinstance(specs, dict):
                        self._merge(self.vars[kind], specs, f"vars.{kind}", errors)
                continue
            self._merge(target, doc[section], section, errors)
        for section in SECTIONS_LIST:
            if section in doc and isinstance(doc[section], list):
                items = doc[section]
                if section == "triggers":
                    for i, t in enumerate(items):
                        if isinstance(t, dict) and "rule" in t:
                            self.triggers.append(Snippet(SourceText.of(t, "rule"), f"{file} triggers[{i}]", t.get("id")))
                        elif isinstance(t, str):
                            self.triggers.append(Snippet(SourceText.of(items, i), f"{file} triggers[{i}]"))
                elif section == "invariants":
                    self.invariants.extend(items)
                else:
                    self.extra_tags.extend(str(x) for x in items)
        for section in ("board", "flow", "scoring", "render", "analysis", "tuning"):
            if section in doc and isinstance(doc[section], dict):
                merged = getattr(self, section)
                for k, v in doc[section].items():
                    if k in merged:
                        first = self.origins.get((section, k))
                        errors.add(key_location(doc[section], k), f"`{section}.{k}` is defined twice",
                                   hint=f"first defined at {first}" if first else "")
                        continue
                    merged[k] = v
                    merged.parents[k] = (doc[section], k)
                    self.origins[(section, k)] = key_location(doc[section], k)

    def _merge(self, target: dict, items: dict, section: str, errors: ErrorList):
        for name, spec in items.items():
            loc = key_location(items, name)
            if name in target:
                first = self.origins.get((section, name))
                errors.add(loc, f"{section} `{name}` is defined twice", hint=f"first defined at {first}" if first else "")
                continue
            target[name] = spec
            if isinstance(target, MergedMap):
                target.parents[name] = (items, name)
            self.origins[(section, name)] = loc
