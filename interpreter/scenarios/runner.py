"""Scenario files: a position, forced dice, moves, and expectations that pin a rule down.

A scenario is a YAML file (schemas/scenario.schema.json), usually in a game's
scenarios/ folder:

    scenario:
      title: a gem is worth 3
      section: "§2"
      players: 2
      seed: 3
    steps:
      - place: {card: gem, on: r1c3, as: prize}
      - set: {p1.score: 0}
      - turn: {player: p1, step: pick}
      - dice: [6]
      - do: take r1c3
      - expect: prize in p1.purse
      - expect: p1.score == 3
      - refused: {do: take r1c3, reason: "not a possible"}

Expectations are rules-language expressions over the state; `p1`, `p2`, ... name
the seats and every `as:` alias names a card. A failure reports the scenario's
file:line, the expectation and the values it saw.
"""
from __future__ import annotations

import re
import shlex
from collections import OrderedDict
from dataclasses import dataclass, field
from pathlib import Path

from ..lang import ast as A
from ..lang.scope import Scope
from ..lang.parser import ParseFailure, parse
from ..errors import ContentError, Location, Problem, RuleRuntimeError
from ..ruleset.schema import schema_problems
from ..ruleset.paths import display_path, shown, too_long
from ..core.model import Action, Card, label_of
from .position import Position, PositionError
from ..ruleset.yamlio import SourceText, load_yaml, to_plain, value_location


@dataclass
class Failure:
    location: Location
    message: str

    def render(self) -> str:
        return f"{self.location}: {self.message}"


@dataclass
class Result:
    path: str
    title: str
    failures: list = field(default_factory=list)
    steps: int = 0

    @property
    def ok(self) -> bool:
        return not self.failures

    @property
    def again(self) -> str:
        """The command that runs this scenario file again, alone (again_command)."""
        return again_command(self.path)


def again_command(path) -> str:
    """`interpret test FILE`: a scenario (or tutorial) file names its own game, variants, options,
    players and seed, so running the file alone plays it again as it failed (from the same folder)."""
    return " ".join(shlex.quote(w) for w in ("interpret", "test", display_path(Path(path))))


class ScenarioFailed(Exception):
    def __init__(self, failure: Failure):
        self.failure = failure
        super().__init__(failure.render())


def scenario_files(paths) -> list[Path]:
    """Scenario files under the given game folders, scenario folders or files."""
    out = []
    for p in paths:
        p = Path(p)
        if too_long(p):
            raise ContentError(Problem(Location(shown(p)), f"no such scenario file or folder: {too_long(p)}"))
        if p.is_file():
            out.append(p)
        elif (p / "scenarios").is_dir():
            out.extend(sorted((p / "scenarios").rglob("*.yaml")))
        elif p.is_dir():
            out.extend(sorted(p.rglob("*.yaml")))
        else:
            raise ContentError(Problem(Location(str(p)), "no such scenario file or folder"))
    return out


def game_of(path: Path, doc) -> str:
    meta = doc.get("scenario") or {}
    if meta.get("game"):
        return str(meta["game"])
    for parent in path.resolve().parents:
        if (parent / "game.yaml").exists():
            return str(parent)
    raise ContentError(Problem(Location(str(path)), "cannot tell which game this scenario is for",
                               hint="put it in a game's scenarios/ folder, or give `scenario: {game: NAME}`"))


class GameShelf:
    """A loader for run_file: the games scenarios are played in, each loaded once per (game, players,
    options, variants) and kept while it is among the `limit` most recently asked for. Whoever runs
    scenarios owns one; run_file without a loader uses the module's own (`SHELF`)."""

    def __init__(self, limit: int = 8):
        self.limit = limit
        self.games: OrderedDict = OrderedDict()

    def __call__(self, name: str, players, options, variants):
        from ..engine.game import Game
        key = (name, players, tuple(sorted((options or {}).items())), tuple(variants or ()))
        game = self.games.pop(key, None)
        if game is None:
            game = Game.load(name, players=players, options=options or None, variants=variants or ())
        self.games[key] = game  # the most recent last
        while len(self.games) > self.limit:
            self.games.popitem(last=False)
        return game


SHELF = GameShelf()


def load_scenario(path: Path):
    doc = load_yaml(path, display_path(path))
    problems = schema_problems(doc, "scenario", display_path(path))
    if problems:
        raise ContentError(problems)
    return doc


def run_file(path: Path, load_game=None) -> Result:
    """Run one scenario file. `load_game(game, players, options, variants)` builds its Game
    (default: SHELF, a GameShelf); coverage.py passes one that records or mutates the rules."""
    path = Path(path)
    doc = load_scenario(path)
    meta = doc.get("scenario") or {}
    result = Result(display_path(path), str(meta.get("title", path.stem)))
    variants = [str(path.parent / v) if (path.parent / str(v)).is_file() else str(v) for v in meta.get("variants") or []]
    game = (load_game or SHELF)(game_of(path, doc), meta.get("players"), to_plain(meta.get("options")), variants)
    runner = Runner(game, path, doc)
    try:
        runner.run()
    except ScenarioFailed as e:
        result.failures.append(e.failure)
    result.steps = runner.done
    return result


class Runner:
    def __init__(self, game, path: Path, doc):
        self.game = game
        self.path = str(path)
        self.doc = doc
        self.meta = doc.get("scenario") or {}
        self.aliases: dict[str, Card] = {}
        self.done = 0
        self.events: list = []
        self.causes: list = []  # what set each of `events` off (Step.causes, indices into `events`)

    # ---- helpers -------------------------------------------------------------------

    def fail(self, node, key, message: str):
        raise ScenarioFailed(Failure(value_location(node, key), message))

    def text(self, s: str) -> str:
        """Replace $alias by the card's key in an action text."""
        def sub(m):
            name = m.group(1)
            if name in self.aliases:
                return self.aliases[name].key
            return m.group(0)
        return re.sub(r"\$([a-z_][a-z0-9_]*)", sub, str(s))

    def names(self) -> dict:
        out = {s.key: s for s in self.game.seats}
        out.update(self.aliases)
        return out

    def compile(self, node, key):
        """Compile an expression of the scenario with p1.. and the aliases bound."""
        names = self.names()
        scope = Scope(list(names))
        src = SourceText.of(node, key)
        f = self.game.compile_expression(src, scope)
        values = list(names.values())
        size = scope.size

        def run(st):
            return f(self.game.rules_context(st, me=self.game.turn_seat(st), bound=values, size=size))
        return run, src

    def card_ref(self, node, key, name: str) -> str:
        """A card named in a forced shuffle: an alias (`$name` or `name`: its key), a card's key or
        a card's name."""
        name = str(name)
        if name.startswith("$"):
            name = name[1:]
        if name in self.aliases:
            return self.aliases[name].key
        m = self.game.catalog
        if name not in m.card_by_key and not any(c.name == name for c in m.cards):
            from ..errors import did_you_mean
            hint = did_you_mean(name, set(c.name for c in m.cards) | set(self.aliases))
            self.fail(node, key, f"no card `{name}`" + (f" — {hint}" if hint else ""))
        return name

    def card(self, node, key, name: str, dest: str | None = None) -> str:
        if name in self.aliases:
            return self.aliases[name].key
        m = self.game.catalog
        if name in m.card_by_key:
            return name
        taken = {c.id for c in self.aliases.values()}
        dest_id = self.pos.zone(dest).id if dest else None
        named = [c for c in m.cards if c.name == name and c.id not in taken
                 and (dest_id is None or self.pos.state["loc"][c.id] != dest_id)]
        box = self.pos.zone("box").id
        loc = self.pos.state["loc"]

        def disturbance(c):  # a copy from the box first, then from a pile, a board cell last
            z = loc[c.id]
            return 0 if z == box else (2 if z >= 0 and m.zones[z].is_cell else 1)
        if named:
            return min(named, key=lambda c: (disturbance(c), c.id)).key
        from ..errors import did_you_mean
        self.fail(node, key, f"no card `{name}`" + (" — " + did_you_mean(name, set(c.name for c in m.cards)) if did_you_mean(name, set(c.name for c in m.cards)) else ""))

    # ---- running -------------------------------------------------------------------

    def run(self):
        meta = self.meta
        g = self.game
        st = g.new_game(int(meta.get("seed", 0)))
        # setup choices: the first option each time (a scenario that cares sets the position)
        while st["pending"] and st["flow"]["phase"] == "setup":
            st = g.apply(st, g.legal_actions(st)[0])
        self.pos = Position(g, st)
        for i, step in enumerate(self.doc.get("steps") or []):
            self.step(self.doc["steps"], i, step)
            self.done += 1
        unused = [f for f in self.pos.state["forced"] if type(f) is dict]
        if unused:  # a forced shuffle or random draw the rules never met: the scenario tests nothing
            what = ", ".join(f"shuffle of {f['zone'] or 'anything'} ({', '.join(f['order'])})" if "order" in f
                             else f"random {f['random']}" for f in unused)
            self.fail(self.doc, "steps", f"forced and never drawn: {what}")
        for i, _ in enumerate(self.doc.get("expect") or []):
            self.expect(self.doc["expect"], i)
        for i, name in enumerate(self.doc.get("events") or []):
            if not any(e[0] == name for e in self.events):
                seen = sorted({e[0] for e in self.events})
                self.fail(self.doc["events"], i, f"event `{name}` did not happen (events seen: {', '.join(seen) or 'none'})")

    def step(self, parent, index, step):
        pos = self.pos
        if not isinstance(step, dict) or len(step) != 1:
            self.fail(parent, index, "a step is one of do, refused, legal, expect, dice, shuffle, random, place, move, clear, set, turn")
        (kind, value), = step.items()
        try:
            if kind == "do":
                self.do(step, "do", self.text(value))
            elif kind == "refused":
                self.refused(step["refused"])
            elif kind == "legal":
                self.legal(step, "legal", self.text(value), True)
            elif kind == "not_legal":
                self.legal(step, "not_legal", self.text(value), False)
            elif kind == "expect":
                if isinstance(value, list):
                    for j, _ in enumerate(value):
                        self.expect(value, j)
                else:
                    self.expect(step, "expect")
            elif kind == "dice":
                pos.force_dice(*value)
            elif kind == "shuffle":  # {ZONE: [cards]} or [cards]: the next shuffle's order, these first
                for zone, cards in (value.items() if isinstance(value, dict) else [(None, value)]):
                    pos.force_shuffle([self.card_ref(cards, i, c) for i, c in enumerate(cards)], zone)
            elif kind == "random":
                pos.force_random(*value)
            elif kind == "place":
                key = pos_place(pos, self.card(value, "card", value["card"], value["on"]), value["on"])
                if value.get("as"):
                    self.aliases[value["as"]] = pos.card(key)
            elif kind == "move":
                key = self.card(value, "card", value["card"], value["to"] if not value.get("top") else None)
                pos.move(key, value["to"], top=bool(value.get("top")))
                if value.get("as"):
                    self.aliases[value["as"]] = pos.card(key)
            elif kind == "alias":
                for name, ref in value.items():
                    self.aliases[name] = pos.card(self.card(value, name, ref))
            elif kind == "clear":
                for z in (value if isinstance(value, list) else [value]):
                    pos.clear(z)
            elif kind == "set":
                for target, v in value.items():
                    owner, _, var = str(target).rpartition(".")
                    owner = self.aliases[owner].key if owner in self.aliases else (owner or None)
                    pos.set(owner, var, self.text(v) if isinstance(v, str) else to_plain(v))
            elif kind == "turn":
                pos.turn(value["player"], step=value.get("step"), round=value.get("round"), order=value.get("order"))
            elif kind == "play_until":
                self.play_until(step, value)
            else:
                self.fail(parent, index, f"unknown step `{kind}`")
        except PositionError as e:
            self.fail(parent, index, str(e))

    def do(self, node, key, text):
        g = self.game
        try:
            action = Action.parse(text)
        except ValueError:
            self.fail(node, key, "an empty action")
        reason = g.explain(self.pos.state, action)
        if reason is not None:
            legal = ", ".join(str(a) for a in g.legal_actions(self.pos.state)[:15])
            self.fail(node, key, f"`{text}` was refused: {reason}\n    legal now: {legal}")
        try:
            from ..engine.game import clone
            new = clone(self.pos.state)
            step = g.apply_in_place(new, action)
            base = len(self.events)
            self.events.extend(step.events)
            self.causes.extend(c + base if type(c) is int else c for c in step.causes)
            self.pos.state = new
        except RuleRuntimeError as e:
            self.fail(node, key, f"`{text}` failed while resolving: {e}")

    def refused(self, spec):
        text = self.text(spec["do"])
        reason = self.game.explain(self.pos.state, Action.parse(text))
        if reason is None:
            self.fail(spec, "do", f"`{text}` was expected to be refused, and it is legal")
        want = spec.get("reason")
        if want and str(want).lower() not in reason.lower():
            self.fail(spec, "reason", f"`{text}` is refused, but for another reason: {reason!r} (expected it to mention {want!r})")

    def legal(self, node, key, text, want: bool):
        reason = self.game.explain(self.pos.state, Action.parse(text))
        if want and reason is not None:
            self.fail(node, key, f"`{text}` was expected to be legal, and it is refused: {reason}")
        if not want and reason is None:
            self.fail(node, key, f"`{text}` was expected to be refused, and it is legal")

    def expect(self, parent, key):
        try:
            f, src = self.compile(parent, key)
            value = f(self.pos.state)
        except ContentError as e:
            raise ScenarioFailed(Failure(e.problems[0].location or value_location(parent, key), e.problems[0].message))
        except RuleRuntimeError as e:
            self.fail(parent, key, f"cannot evaluate `{parent[key]}`: {e}")
        if value is True:
            return
        detail = self.explain_compare(parent, key)
        shown = "false" if value is False else label_of(value)
        self.fail(parent, key, f"expected `{parent[key]}`, it is {shown}" + (f" ({detail})" if detail else ""))

    def explain_compare(self, parent, key) -> str:
        """For `a OP b`, the two values seen."""
        try:
            tree = parse(SourceText.of(parent, key), "expr")
        except ParseFailure:
            return ""
        if type(tree) is A.Compare:
            sides = (tree.left, tree.right)
        elif type(tree) is A.In:
            sides = (tree.item, tree.coll)
        else:
            return ""
        text = str(parent[key])
        parts = []
        for side in sides:
            if side.at is None:
                return ""
            piece = text[side.at[2]:side.at[3]]
            names = self.names()
            scope = Scope(list(names))
            try:
                f = self.game.compile_expression(SourceText.plain(piece), scope)
                st = self.pos.state
                ctx = self.game.rules_context(st, me=self.game.turn_seat(st), bound=list(names.values()),
                                              size=scope.size)
                parts.append(f"{piece} = {label_of(f(ctx))}")
            except Exception:
                return ""
        return "; ".join(parts)

    def play_until(self, node, spec):
        """Play the first legal action (or `end_turn`-like `prefer`) until a condition holds."""
        f, _ = self.compile(spec, "until")
        prefer = spec.get("prefer")
        g = self.game
        for _ in range(int(spec.get("max", 500))):
            if f(self.pos.state):
                return
            if g.is_terminal(self.pos.state):
                break
            acts = g.legal_actions(self.pos.state)
            choice = next((a for a in acts if prefer and str(a) == prefer), acts[0])
            self.pos.state = g.apply(self.pos.state, choice)
        self.fail(spec, "until", f"`{spec['until']}` never became true")


def pos_place(pos: Position, key: str, cell: str) -> str:
    """Put a card on a cell; a card already on another cell swaps places with what is there."""
    here = pos.cards(cell)
    if here and here[0] == key:
        return key
    src = pos.where(key)
    src_zone = pos.zone(src) if src else None
    if here and src_zone is not None and src_zone.is_cell:
        pos.swap(key, here[0])
    else:
        pos.move(key, cell)
    return key


def run_paths(paths, *, files=scenario_files, run=run_file) -> list[Result]:
    """Run the files `files(paths)` finds with `run` (tutorial.py: the tutorials), a content error as a failure."""
    results = []
    for f in files(paths):
        try:
            results.append(run(f))
        except ContentError as e:
            r = Result(str(f), f.stem)
            r.failures.extend(Failure(p.location or Location(str(f)), p.message) for p in e.problems)
            results.append(r)
    return results
