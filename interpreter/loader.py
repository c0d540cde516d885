"""Loading a game's content folder: YAML, JSON Schema, cross references, rules text.

Every problem is collected with file:line:col and reported together.
"""
from __future__ import annotations

from pathlib import Path

from . import limits as lim
from .building import collector_paused
from .dsl.scope import did_you_mean
from .errors import ContentError, ErrorList, Location, Problem
from .overlay import apply_variants, load_variants
from .paths import display_path, game_dir
from .schema import SECTIONS_LIST, SECTIONS_MAPPING, schema_problems
from .yamlio import (MergedMap, SourceText, Snippet, key_location, load_yaml, node_location, resolve_parent, to_plain,
                     value_location)

SKIP_DIRS = {"scenarios", "variants"}


class Ruleset:
    """A game's content, read and checked; compiled per number of players by Match."""

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
        self.origins: dict = {}  # (section, name) -> Location where it was defined
        self.limits = lim.DEFAULT  # game.limits, within limits.HARD

    # -- the things Match asks for
    @property
    def seat_names(self):
        return list(self.meta.get("seat_names") or [])

    @property
    def default_players(self) -> int:
        p = self.meta.get("players") or {}
        n = p.get("default", p.get("min", 2))
        return n if type(n) is int and 1 <= n <= self.limits.players else min(max(self.player_range[0], 2),
                                                                             self.player_range[1])

    @property
    def player_range(self):
        p = self.meta.get("players") or {}
        cap = self.limits.players
        lo, hi = p.get("min", 1), p.get("max", 99)
        lo = lo if type(lo) is int and 1 <= lo <= cap else 1
        hi = hi if type(hi) is int and 1 <= hi <= cap else min(99, cap)
        return lo, hi

    def where_of(self, node, key=None) -> Location:
        if key is not None:
            node, key = resolve_parent(node, key)
        if key is not None and isinstance(node, dict) and key in node:
            return value_location(node, key)
        return node_location(node)

    def snippet(self, node, key, where: str):
        if node is None:
            return None
        node, key = resolve_parent(node, key)
        try:
            value = node[key]
        except (KeyError, IndexError, TypeError):
            return None
        if value is None:
            return None
        if not isinstance(value, str):
            value = str(value)
            return Snippet(SourceText(value, str(self.where_of(node, key).file), self.where_of(node, key).line,
                                      self.where_of(node, key).column, False, 0), where)
        return Snippet(SourceText.of(node, key), where)

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
        for section in ("board", "flow", "scoring", "render", "analysis"):
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


def content_files(root: Path) -> list[Path]:
    files = []
    for p in sorted(root.rglob("*.yaml")):
        rel = p.relative_to(root)
        if rel.parts and rel.parts[0] in SKIP_DIRS:
            continue
        files.append(p)
    return files


@collector_paused
def load_ruleset(game: str | Path, variants=(), keep_going: bool = False) -> Ruleset:
    """Read and check a game folder. Problems raise one ContentError listing all of them;
    with `keep_going`, problems found after the YAML was read are kept in `rs.problems`
    instead, so that a validation can also compile what was read and report everything."""
    root = game_dir(str(game))
    errors = ErrorList()
    if not root.is_dir():
        raise ContentError(Problem(Location(str(game)), "no such game folder",
                                   hint="give a folder holding game.yaml, or a game name under content/"))
    if not (root / "game.yaml").exists():
        raise ContentError(Problem(Location(str(root / "game.yaml")), "missing game.yaml",
                                   hint="a game folder starts with game.yaml holding a `game:` section"))
    rs = Ruleset(root)
    for path in content_files(root):
        display = display_path(path)
        try:
            doc = load_yaml(path, display)
        except ContentError as e:
            errors.problems.extend(e.problems)
            continue
        rs.add_file(doc, display, errors)
    if not rs.meta and not errors.problems:
        errors.add(Location(display_path(root / "game.yaml")), "game.yaml has no `game:` section")
    if rs.meta:
        rs.limits = lim.adjusted(rs.meta.get("limits"), Location(display_path(root / "game.yaml")), errors,
                                value_location)
    if variants and rs.meta:
        base_ok = not errors.problems
        apply_variants(rs, load_variants(rs, variants, errors), errors, base_ok=base_ok)
    if rs.meta:
        check_caps(rs, errors)
    if keep_going and rs.meta:
        rs.problems = list(errors.problems)
        return rs
    errors.raise_if_any()
    rs.problems = []
    return rs


def check_caps(rs: Ruleset, errors: ErrorList) -> None:
    """The load-time caps of limits.py, on the numbers written in the content (numbers given as
    expressions are checked by Match when it evaluates them): nothing huge is ever built."""
    caps = rs.limits

    def check(node, key, name, value=None, what=""):
        value = node.get(key) if value is None else value
        if type(value) is int and value > getattr(caps, name):
            parent, k = resolve_parent(node, key)
            errors.add(value_location(parent, k), lim.over(name, value, caps, what))
            return False
        return True
    players = rs.meta.get("players")
    if isinstance(players, dict):
        for key in ("min", "max", "default"):
            check(players, key, "players", what=f"players.{key}")
        lo, hi, default = (players.get(k) for k in ("min", "max", "default"))
        if type(lo) is int and type(hi) is int and lo > hi:
            errors.add(value_location(*resolve_parent(players, "max")), f"players.max {hi} is below players.min {lo}")
        elif type(default) is int and ((type(lo) is int and default < lo) or (type(hi) is int and default > hi)):
            errors.add(value_location(*resolve_parent(players, "default")),
                       f"players.default {default} is outside players.min-max")
    total = 0
    for name, spec in rs.cards.items():
        if isinstance(spec, dict) and check(spec, "copies", "copies", what=f"copies of `{name}`"):
            copies = spec.get("copies", 1)
            if type(copies) is int:
                total += copies * (rs.player_range[1] if spec.get("per_player") else 1)
    if total > caps.cards:
        errors.add(Location(rs.files[0] if rs.files else rs.name), lim.over("cards", total, caps),
                   hint="count the copies of every card, times the players for cards of each player")
    grid = rs.board.get("grid") if isinstance(rs.board, dict) else None
    if isinstance(grid, dict):
        check(grid, "columns", "grid_side", what="grid columns")
        for spec in grid.get("rows") if isinstance(grid.get("rows"), list) else []:
            if not isinstance(spec, dict):
                continue
            if "rows" in spec:
                lo, hi = _row_bounds(spec.get("rows"))
                if hi is not None and hi - lo + 1 > caps.grid_side:
                    check(spec, "rows", "grid_side", value=hi - lo + 1, what=f"rows {spec.get('rows')}:")
                elif hi is not None and hi > caps.grid_side * 10:
                    check(spec, "rows", "grid_side", value=hi, what="row number")
            elif type(spec.get("row")) is int and spec["row"] > caps.grid_side * 10:
                check(spec, "row", "grid_side", what="row number")
    ring = rs.board.get("ring") if isinstance(rs.board, dict) else None
    if isinstance(ring, dict):
        check(ring, "length", "grid_side", what="ring length")


def _row_bounds(v):
    try:
        lo, hi = str(v).split("-")
        return int(lo), int(hi)
    except ValueError:
        return 0, None


