"""Rule coverage and mutation testing of a game's scenarios, for designers.

`interpret test --coverage GAME` runs the game's scenarios with every rule unit of the content
instrumented, and reports which ones the scenarios exercised, each with the file:line:col of its text:

- an action: played (its effect ran) at least once;
- a requirement of an action: evaluated true at least once, and false at least once
  (reported separately: a requirement never seen false is never shown to refuse anything);
- a trigger: fired (its condition held and its body ran);
- a card's power (`powers:`, and those of its lasting effects): a trigger or replacement fired,
  a modifier applied (its card's condition held); a card's action counts as an action;
- a procedure: its body ran; a function: it was called.

`interpret test --mutate GAME` then changes the content one rule at a time (a requirement is
removed, i.e. becomes `true`, or negated, `not (check)`; a trigger or a card's power is removed), compiles
it again, and runs only the scenarios where the change can show (those that evaluated the
requirement, false for a removal; those where the trigger fired). A mutant that no scenario
notices survives: the rule it changed is not pinned down by any scenario; one that no scenario can
notice (the rule is never reached that way) survives without running anything.

The instrumentation works on the rule units a GameDefinition registers (its actions and their
requirements, trigger handlers, procedure bodies, functions): its builder calls `instrument_bodies`
and `instrument_rules` of its observer when it has one, and does nothing else differently.
The mutations are made on the content (the ruleset read from YAML), never on compiled code.
"""
from __future__ import annotations

import sys
import time
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

from ..errors import ContentError, Location
from ..ruleset.loader import load_ruleset
from ..ruleset.yamlio import SourceText, key_location, resolve_parent
from .runner import again_command

KINDS = ("action", "requirement", "trigger", "power", "procedure", "function")


@dataclass(frozen=True)
class Rule:
    """A unit of the content that scenarios may exercise. `key` identifies it in any match
    compiled from the same files: the name of an action, procedure or function, the position
    of a requirement's or a trigger's text."""

    kind: str
    name: str
    location: Location
    text: str = ""

    @property
    def key(self) -> str:
        if self.kind in ("requirement", "trigger", "power"):
            return f"{self.location.file}:{self.location.line}:{self.location.column}"
        return self.name


def _where(src: SourceText) -> Location:
    return Location(src.file, src.line, src.column)


def _short(text: str, width: int = 70) -> str:
    text = " ".join(str(text).split())
    return text if len(text) <= width else text[: width - 1] + "…"


def _name_location(table, name) -> Location:
    node, key = resolve_parent(table, name)
    try:
        return key_location(node, key)
    except Exception:
        return Location(str(name))


def action_specs(rs):
    """(name, spec, card name or None, group spec or None) of every action a match lists: the
    rules' actions (a group, `members: group`, is no action of its own) and the cards' actions."""
    groups = {n: s for n, s in rs.actions.items() if (s or {}).get("members") == "group"}
    for name, spec in rs.actions.items():
        if name not in groups:
            yield name, spec, None, groups.get((spec or {}).get("group"))
    for cname, cspec in rs.cards.items():
        for name, spec in ((cspec or {}).get("actions") or {}).items():
            yield name, spec, cname, groups.get((spec or {}).get("group"))


def requirement_sources(rs):
    """(action name, index, parent node, key) of each requirement's text, as written; the index
    is the requirement's place in the action as compiled (its group's limit and requirements
    first), so a group's requirement comes once per member action."""
    for name, spec, _card, group in action_specs(rs):
        i = 1 if (group or {}).get("limit") else 0
        for holder in (group or {}, spec or {}):
            for j, req in enumerate(holder.get("require") or []):
                if isinstance(req, dict):
                    node, key = resolve_parent(req, "check")
                else:
                    node, key = resolve_parent(holder["require"], j)
                yield name, i, node, key
                i += 1


def power_sources(rs):
    """(card name, powers list, index, parent node, key) of each card power's text (a trigger's
    rule, a modifier's value), the card's own powers and its lasting effects' (powers.py)."""
    for cname, cspec in rs.cards.items():
        lists = [(cspec or {}).get("powers") or []]
        lists += [(e or {}).get("powers") or [] for e in ((cspec or {}).get("effects") or {}).values()]
        for powers in lists:
            for i, p in enumerate(powers):
                node, key = resolve_parent(p, "rule" if "rule" in p else "value")
                yield cname, powers, i, node, key


def _texts(value):
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for v in value.values():
            yield from _texts(v)
    elif isinstance(value, (list, tuple)):
        for v in value:
            yield from _texts(v)


def rule_functions(rs) -> set:
    """The functions that the rules call, directly or through other functions. The others
    serve only the render templates or the invariants, which no scenario runs."""
    import re
    texts = list(_texts([rs.actions, rs.procedures, rs.flow, rs.scoring])) + [s.src.text for s in rs.triggers]
    texts += list(_texts([{k: v for k, v in (c or {}).items() if k in ("powers", "actions", "effects", "while")}
                          for c in rs.cards.values()]))
    names = set(rs.functions)
    calls = re.compile(r"\b([A-Za-z_][A-Za-z0-9_]*)\s*\(")
    reached, todo = set(), [n for t in texts for n in calls.findall(t) if n in names]
    while todo:
        n = todo.pop()
        if n in reached:
            continue
        reached.add(n)
        todo.extend(c for t in _texts(rs.functions[n]) for c in calls.findall(t) if c in names)
    return reached


def rules_of(rs) -> list[Rule]:
    """Every rule unit of a ruleset (its variants applied), in file order per kind. Functions
    that only the render templates or the invariants call are left out (see rule_functions)."""
    out = []
    for name, _spec, card, _group in action_specs(rs):
        table = rs.cards[card]["actions"] if card else rs.actions
        out.append(Rule("action", name, _name_location(table, name)))
    seen = set()
    for name, i, node, key in requirement_sources(rs):
        src = SourceText.of(node, key)
        rule = Rule("requirement", f"{name}[{i}]", _where(src), _short(src.text))
        if rule.key not in seen:  # a group's requirement: once
            seen.add(rule.key)
            out.append(rule)
    for snip in rs.triggers:
        out.append(Rule("trigger", _short(snip.src.text.strip().split("\n")[0], 60), _where(snip.src),
                        _short(snip.src.text)))
    for card, powers, i, node, key in power_sources(rs):
        src = SourceText.of(node, key)
        p = powers[i]
        head = src.text.strip().split("\n")[0] if key == "rule" else f"modify {p.get('modify')}: {src.text.strip()}"
        out.append(Rule("power", f"{card}: {_short(head, 60)}", _where(src), _short(src.text)))
    for name in rs.procedures:
        out.append(Rule("procedure", name, _name_location(rs.procedures, name)))
    used = rule_functions(rs)
    for name in rs.functions:
        if name in used:
            out.append(Rule("function", name, _name_location(rs.functions, name)))
    return out


class Recorder:
    """The observer a GameDefinition is compiled with: wraps each rule unit to record, per scenario,
    that it ran (and, for a requirement, with which outcome)."""

    def __init__(self):
        self.current = None  # the scenario running now
        self.hits: dict = defaultdict(set)  # (kind, key, outcome) -> scenarios
        self.files: dict = {}  # a scenario as shown -> its file

    def _count(self, kind, key, fn, outcome=None):
        if fn is None:
            return None
        hits = self.hits[(kind, key, outcome)]

        def counted(*args):
            hits.add(self.current)
            return fn(*args)
        return counted

    def instrument_bodies(self, m):
        """Trigger handlers and procedure bodies, before the definition chains them together."""
        for kind in ("on", "instead"):
            for name, items in m.triggers[kind].items():
                for (_, snip, binding), h in zip(items, m._handlers[kind].get(name, [])):
                    what = "trigger" if binding is None else "power"
                    key = Rule(what, "", _where(snip.src)).key
                    h.body = self._count(what, key, h.body)
                    h.direct = self._count(what, key, h.direct)
        for name, h in m._bodies.items():
            h.body = self._count("procedure", name, h.body)
            h.direct = self._count("procedure", name, h.direct)

    def instrument_modifier(self, src, fn):
        """A card's modifier (powers.py): counted when it applies."""
        return self._count("power", Rule("power", "", _where(src)).key, fn)

    def instrument_rules(self, m):
        """Actions, their requirements and functions, once the match is compiled."""
        for name, entry in list(m._functions.items()):
            if entry is not None:
                f, nargs, size = entry
                m._functions[name] = (self._count("function", name, f), nargs, size)
        where = {(a, i): Rule("requirement", "", _where(SourceText.of(node, key))).key
                 for a, i, node, key in requirement_sources(m.rs)}
        for a in m.actions:
            a.effect = self._count("action", a.name, a.effect)
            a.requires = [(self._requirement(where.get((a.name, i), f"{a.name}[{i}]"), f), reason, level)
                          for i, (f, reason, level) in enumerate(a.requires)]
            a.__post_init__()  # the requirements by level, from the wrapped ones

    def _requirement(self, key, f):
        yes, no = self.hits[("requirement", key, True)], self.hits[("requirement", key, False)]

        def checked(ctx):
            value = f(ctx)
            (yes if value else no).add(self.current)
            return value
        return checked

    def scenarios_of(self, rule: Rule, outcome=None) -> set:
        if rule.kind == "requirement" and outcome is None:
            return self.hits.get((rule.kind, rule.key, True), set()) | self.hits.get((rule.kind, rule.key, False), set())
        return self.hits.get((rule.kind, rule.key, outcome), set())


# ---- running the scenarios ----------------------------------------------------------------

class Loader:
    """Builds the Game a scenario asks for, from rulesets read once per set of variants.
    With a mutant (`mutate`), each match is compiled from the content with that mutation made."""

    def __init__(self, observer=None):
        self.observer = observer
        self.rulesets: dict = {}
        self.games: dict = {}
        self.mutant = None
        self.invalid = ""  # the mutant does not compile: why

    def mutate(self, mutant):
        self.mutant, self.invalid = mutant, ""
        self.games = {}

    def ruleset(self, game, variants):
        key = (str(game), tuple(variants or ()))
        if key not in self.rulesets:
            self.rulesets[key] = load_ruleset(game, variants=variants or ())
        return self.rulesets[key]

    def __call__(self, game, players, options, variants):
        from ..engine.game import Game
        key = (str(game), players, tuple(sorted((options or {}).items())), tuple(variants or ()))
        if key not in self.games:
            rs = self.ruleset(game, variants)
            if self.mutant is None:
                self.games[key] = Game.from_ruleset(rs, players=players, options=options or None,
                                                    observer=self.observer)
            else:
                with self.mutant.applied(rs):
                    try:
                        self.games[key] = Game.from_ruleset(rs, players=players, options=options or None)
                    except ContentError as e:
                        self.invalid = e.problems[0].render() if e.problems else str(e)
                        raise
        return self.games[key]


def _run(path, loader) -> str | None:
    """Run one scenario: None when it passes, else the first failure."""
    from .runner import run_file
    try:
        result = run_file(path, load_game=loader)
    except ContentError as e:
        return e.problems[0].render() if e.problems else str(e)
    except Exception as e:  # a mutant may break a rule in any way: it fails the scenario
        return f"{type(e).__name__}: {e}"
    return None if result.ok else result.failures[0].render()


def game_and_scenarios(paths) -> tuple[str, list]:
    """`GAME [SCENARIOS...]` of `test --coverage/--mutate`: the game (a folder, a bundled name, its
    game.yaml) and the scenario files or folders after it; or, when the first path is a scenario
    file or folder (a homebrew's own), the game that scenario names, and every path a scenario."""
    from ..ruleset.loader import game_folder
    from ..ruleset.paths import game_dir
    from .runner import game_of, load_scenario, scenario_files
    first = Path(paths[0])
    folder = game_dir(game_folder(str(first)))
    if (folder / "game.yaml").is_file():
        return str(folder), list(paths[1:])
    files = scenario_files([first])
    if not files:
        raise ContentError(_not_a_game(first))
    return game_of(files[0], load_scenario(files[0])), list(paths)


def _not_a_game(path):
    from ..errors import Problem
    return Problem(Location(str(path)), "neither a game nor a scenario",
                   hint="give a game folder (with game.yaml) or a bundled game's name, then scenario files")


def _scenarios(game_folder: Path, more=()) -> list[Path]:
    """The game's scenario files, then those under `more` (each file once)."""
    from .runner import scenario_files
    files = scenario_files([game_folder]) if (game_folder / "scenarios").is_dir() else []
    seen = {f.resolve() for f in files}
    for f in scenario_files(more):
        if f.resolve() not in seen:
            seen.add(f.resolve())
            files.append(f)
    return files


@dataclass
class CoverageReport:
    game: str
    rules: list
    recorder: Recorder
    scenarios: list
    failures: dict = field(default_factory=dict)  # scenario -> failure, scenarios that fail as they are
    seconds: float = 0.0
    not_rules: list = field(default_factory=list)  # functions only render templates or invariants call

    def exercised(self, rule: Rule, outcome=None) -> bool:
        return bool(self.recorder.scenarios_of(rule, outcome))

    def summary(self) -> dict:
        out = {}
        for kind in KINDS:
            rules = [r for r in self.rules if r.kind == kind]
            if kind == "power" and not rules:  # a game whose cards have no powers: no line for them
                continue
            if kind == "requirement":
                for outcome, label in ((True, "requirement true"), (False, "requirement false")):
                    n = sum(self.exercised(r, outcome) for r in rules)
                    out[label] = (n, len(rules))
            else:
                out[kind] = (sum(self.exercised(r) for r in rules), len(rules))
        return out

    def unexercised(self) -> list[tuple[Rule, str]]:
        """(rule, what was never seen) for each gap, in file order."""
        out = []
        for r in self.rules:
            if r.kind == "requirement":
                t, f = self.exercised(r, True), self.exercised(r, False)
                if not (t and f):
                    out.append((r, "never evaluated" if not (t or f) else ("never true" if not t else "never false")))
            elif not self.exercised(r):
                out.append((r, {"action": "never played", "trigger": "never fired", "power": "never applied",
                                "procedure": "never run", "function": "never called"}[r.kind]))
        return sorted(out, key=lambda x: (x[0].location.file, x[0].location.line, x[0].location.column))

    def to_json(self) -> dict:
        summary = self.summary()
        gaps = {id(r): what for r, what in self.unexercised()}
        return {
            "game": self.game,
            "scenarios": len(self.scenarios),
            "failed": [{"scenario": str(s), "failure": f} for s, f in self.failures.items()],
            "not_counted": self.not_rules,
            "summary": {k: {"exercised": n, "total": t, "percent": _pct(n, t)} for k, (n, t) in summary.items()},
            "rules": [dict(kind=r.kind, name=r.name, location=str(r.location), text=r.text,
                           scenarios=len(self.recorder.scenarios_of(r)),
                           **({"true": len(self.recorder.scenarios_of(r, True)),
                               "false": len(self.recorder.scenarios_of(r, False))} if r.kind == "requirement" else {}),
                           gap=gaps.get(id(r)))
                      for r in self.rules],
        }

    def render(self) -> str:
        lines = [f"rule coverage of {self.game} by {len(self.scenarios)} scenarios ({self.seconds:.1f} s)"]
        lines.append(summary_line(self.summary()))
        if self.not_rules:
            lines.append(f"not counted, called by no rule (render templates, invariants): {', '.join(self.not_rules)}")
        for s, f in self.failures.items():
            lines.append(f"FAIL {s}\n  {f}\n  (run it again with: {again_command(s)})")
        gaps = self.unexercised()
        if gaps:
            lines.append(f"not exercised ({len(gaps)}):")
            for r, what in gaps:
                label = r.name if r.kind != "requirement" else f"{r.name.split('[')[0]} requires {r.text}"
                lines.append(f"  {r.location}  {r.kind} {label}: {what}")
        return "\n".join(lines)


def _pct(n, t) -> float:
    return round(100.0 * n / t, 1) if t else 100.0


def summary_line(summary: dict) -> str:
    return " · ".join(f"{k} {n}/{t}" + (f" ({_pct(n, t):.0f}%)" if t else "") for k, (n, t) in summary.items())


def run_coverage(game: str, variants=(), progress=None, *, scenarios=()) -> CoverageReport:
    """Run the game's scenarios, and those of `scenarios` (files or folders: a homebrew's own,
    each naming its variants), with every rule unit instrumented; the rules reported are the
    game's with `variants` applied, the homebrew's among them."""
    from ..ruleset.paths import game_dir
    start = time.perf_counter()
    folder = game_dir(str(game))
    rs = load_ruleset(folder, variants=variants)
    recorder = Recorder()
    loader = Loader(observer=recorder)
    files = _scenarios(folder, scenarios)
    report = CoverageReport(rs.title, rules_of(rs), recorder, files,
                            not_rules=sorted(set(rs.functions) - rule_functions(rs)))
    from ..ruleset.paths import display_path
    for i, real in enumerate(files):
        path = Path(display_path(real))  # as the rules' positions are shown: relative to the working folder
        recorder.current = str(path)
        recorder.files[str(path)] = real
        if progress:
            progress(f"coverage: scenario {i + 1}/{len(files)} {path}", transient=True)
        failure = _run(real, loader)
        if failure is not None:
            report.failures[str(path)] = failure
    recorder.current = None
    if progress:
        progress(f"coverage: {len(files)} scenarios run")
    report.seconds = time.perf_counter() - start
    return report


# ---- mutation testing ------------------------------------------------------------------------

@dataclass
class Mutant:
    rule: Rule
    mutation: str  # "remove" (a requirement becomes `true`, a trigger is dropped) or "negate" (`not (...)`)
    status: str = ""  # killed, survived, uncovered (survived: no scenario exercises the rule), invalid
    ran: int = 0  # scenarios run against it
    killed_by: str = ""

    @property
    def survived(self) -> bool:
        return self.status in ("survived", "uncovered")

    def describe(self) -> str:
        if self.rule.kind == "requirement":
            action = self.rule.name.split("[")[0]
            if self.mutation == "negate":
                return f"requirement of `{action}` negated: not ({self.rule.text})"
            return f"requirement of `{action}` removed: {self.rule.text}"
        return f"{self.rule.kind} removed: {self.rule.name}"

    def applied(self, rs):
        """A context manager: this mutation made on `rs`'s content, undone on exit."""
        return _Applied(self, rs)


class _Applied:
    """Context manager: the mutation made on one ruleset's content, undone on exit."""

    def __init__(self, mutant: Mutant, rs):
        self.mutant = mutant
        self.rs = rs
        self.undo = None

    def __enter__(self):
        rule = self.mutant.rule
        rs = self.rs
        if rule.kind == "requirement":
            for _, _, node, key in requirement_sources(rs):
                src = SourceText.of(node, key)
                if Rule("requirement", "", _where(src)).key == rule.key:
                    old = node[key]
                    # removed: always true (the list itself is left as it is, so positions stay exact)
                    node[key] = f"not ({str(old).strip()})" if self.mutant.mutation == "negate" else "true"
                    self.undo = lambda node=node, key=key, old=old: node.__setitem__(key, old)
                    break
        elif rule.kind == "power":
            for _, powers, i, node, key in power_sources(rs):
                if Rule("power", "", _where(SourceText.of(node, key))).key == rule.key:
                    p = powers.pop(i)
                    self.undo = lambda powers=powers, i=i, p=p: powers.insert(i, p)
                    break
        else:
            for i, snip in enumerate(rs.triggers):
                if Rule("trigger", "", _where(snip.src)).key == rule.key:
                    del rs.triggers[i]
                    self.undo = lambda i=i, snip=snip: rs.triggers.insert(i, snip)
                    break
        return self

    def __exit__(self, *exc):
        if self.undo is not None:
            self.undo()
        return False


@dataclass
class MutationReport:
    game: str
    coverage: CoverageReport
    mutants: list
    seconds: float = 0.0

    def counts(self) -> dict:
        c = {"killed": 0, "survived": 0, "uncovered": 0, "invalid": 0}
        for m in self.mutants:
            c[m.status] += 1
        return c

    @property
    def score(self) -> float:
        valid = [m for m in self.mutants if m.status != "invalid"]
        return _pct(sum(m.status == "killed" for m in valid), len(valid))

    def to_json(self) -> dict:
        return {
            "game": self.game,
            "mutants": len(self.mutants),
            **self.counts(),
            "score": self.score,
            "failed": [{"scenario": s, "failure": f} for s, f in self.coverage.failures.items()],
            "results": [{"kind": m.rule.kind, "mutation": m.mutation, "location": str(m.rule.location),
                         "rule": m.rule.text or m.rule.name, "status": m.status, "scenarios_run": m.ran,
                         "killed_by": m.killed_by or None} for m in self.mutants],
        }

    def render(self) -> str:
        c = self.counts()
        lines = [f"mutation testing of {self.game}: {len(self.mutants)} mutants, {c['killed']} killed, "
                 f"{c['survived'] + c['uncovered']} survived ({c['uncovered']} that no scenario reaches)"
                 + (f", {c['invalid']} invalid" if c["invalid"] else "")
                 + f"; mutation score {self.score:.0f}% ({self.seconds:.1f} s)"]
        for s, f in self.coverage.failures.items():
            lines.append(f"FAIL {s} (left out: fails with no mutation)\n  {f}\n  (run it again with: {again_command(s)})")
        survivors = [m for m in self.mutants if m.survived]
        if survivors:
            lines.append(f"surviving mutants ({len(survivors)}):")
            for m in sorted(survivors, key=lambda m: (m.rule.location.file, m.rule.location.line)):
                why = ("no scenario reaches it" if m.status == "uncovered" else f"{m.ran} scenario(s) ran, none failed")
                lines.append(f"  {m.rule.location}  {m.describe()}  [{why}]")
        return "\n".join(lines)


def run_mutation(game: str, variants=(), progress=None, *, scenarios=()) -> MutationReport:
    """Negate each requirement and remove each trigger in turn; run the scenarios that exercise it
    (the game's, and those of `scenarios`: see run_coverage)."""
    start = time.perf_counter()
    cov = run_coverage(game, variants, progress=progress, scenarios=scenarios)
    rec = cov.recorder
    loader = Loader()
    mutants = []
    for r in cov.rules:
        if r.kind == "requirement":
            mutants += [Mutant(r, "remove"), Mutant(r, "negate")]
        elif r.kind in ("trigger", "power"):
            mutants.append(Mutant(r, "remove"))
    for i, m in enumerate(mutants):
        # the scenarios where the change can show: a removed requirement only where it was false
        seen = rec.scenarios_of(m.rule, False if (m.rule.kind, m.mutation) == ("requirement", "remove") else None)
        scenarios = sorted(s for s in seen if s not in cov.failures)
        if not scenarios:
            m.status = "uncovered"
        else:
            loader.mutate(m)
            m.status = "survived"
            for s in scenarios:
                m.ran += 1
                failure = _run(rec.files.get(s, Path(s)), loader)
                if loader.invalid:
                    m.status, m.killed_by = "invalid", loader.invalid
                    break
                if failure is not None:
                    m.status, m.killed_by = "killed", s
                    break
            loader.mutate(None)
        if progress:
            progress(f"mutant {i + 1}/{len(mutants)} {m.status:9} {m.rule.location}  {m.describe()}")
    return MutationReport(cov.game, cov, mutants, time.perf_counter() - start)


def stderr_progress(text: str, transient: bool = False) -> None:
    """Progress on stderr: a transient line is overwritten by the next one on a terminal, and
    left out elsewhere (a log keeps only the lasting lines)."""
    tty = sys.stderr.isatty()
    if transient and not tty:
        return
    sys.stderr.write(("\r\x1b[K" if tty else "") + text + ("" if transient else "\n"))
    sys.stderr.flush()
