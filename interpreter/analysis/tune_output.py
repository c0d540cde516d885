"""What a tuning study leaves a designer: content.

For each proposed trade-off, DIR/proposals/tuned-K.yaml: a variant that sets the changed values,
with a comment over each change giving the values before and after and every objective's figures
(rates with their 95 % intervals, on fresh seeds) for the rulebook's values and for the proposal. It
is checked by loading the game with it (so `play`, `analyze` and `test --variant` take it as it is).

Guard rails: the game's scenarios (its scenarios/ folder: the rulebook's worked examples) are run
with the proposal applied after the variants each one names; a scenario that passes with the rulebook's
values and fails with the proposal is marked, in the file's header and in the report.

Rules coverage: the first games of a proposal's fresh batch are played again (same seeds, same
agents: the same games) with every rule unit instrumented (scenarios/coverage.py), so the report can
say which actions, requirements, triggers... the games played never reached.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

from ..errors import ContentError
from .tune_eval import FRESH, Evaluation, overlay_text

COVERAGE_GAMES = 20


@dataclass
class Proposal:
    name: str
    path: Path
    evaluation: Evaluation  # on fresh seeds
    problems: list = field(default_factory=list)  # the file does not load: why (should not happen)
    broken: list = field(default_factory=list)  # (scenario, failure) the proposal breaks
    coverage: dict = field(default_factory=dict)  # kind -> (exercised, total)
    unreached: list = field(default_factory=list)  # (location, kind, name) never reached by the games


def pct(x) -> str:
    return "-" if x is None else f"{100 * x:.1f} %"


def figure(row, measure_kind: str) -> str:
    """A row's value with its interval: `54.5 % (51.0–57.9)`, or `7.9 (7.5–8.3)` for a mean."""
    if row.value is None:
        return "-"
    if measure_kind in ("rounds", "decisions"):
        return f"{row.value:.2f} ({row.low:.2f}–{row.high:.2f})"
    if measure_kind == "changes":
        return f"{row.value}"
    return f"{pct(row.value)} ({100 * row.low:.1f}–{100 * row.high:.1f})"


def objective_lines(tuning, ev: Evaluation) -> list[str]:
    by = {m.objective: m for m in ev.measures}
    out = []
    for o in tuning.objectives:
        if o.measure == "changes":
            continue
        m = by[o.name]
        rows = ", ".join(f"{r.label} {figure(r, o.measure)}" for r in m.rows)
        out.append(f"{o.name} ({o.describe()}): {rows}: {m.verdict}")
    return out


def _header(study, result, ev: Evaluation, k: int) -> str:
    c = study.config
    lines = [f"Proposal {k} of `interpret tune` for {c['title']} ({c['players']} players, agents "
             f"{', '.join(c['agents'])}{', variants ' + ', '.join(Path(v).stem for v in c['variants']) if c['variants'] else ''}).",
             f"Figures on fresh seeds ({c['seed'] + FRESH} and on), 95 % intervals; "
             f"the rulebook's values over {result.before.games} games, this proposal's over {ev.games}.",
             "Before (the rulebook's values):"]
    lines += ["  " + x for x in objective_lines(study.tuning, result.before)]
    lines += ["After (this proposal):"] + ["  " + x for x in objective_lines(study.tuning, ev)]
    lines.append("Every objective inside its band on fresh seeds." if ev.inside else
                 "NOT every objective is inside its band on fresh seeds: a trade-off, read the figures.")
    return "\n".join(lines)


def write_proposals(study, result) -> list[Proposal]:
    folder = study.out / "proposals"
    folder.mkdir(parents=True, exist_ok=True)
    for old in folder.glob("tuned-*.yaml"):
        old.unlink()
    out = []
    for k, ev in enumerate(result.finalists, start=1):
        name = f"tuned-{k}"
        comments = {}
        for tname, (before, after) in ev.changes.items():
            t = study.tuning.tunable(tname)
            comments[t.path] = [f"{tname}{' (' + t.title + ')' if t.title else ''}: {json.dumps(before)} in the "
                                f"rulebook, {json.dumps(after)} proposed"
                                + (" (with the other changes below: the figures are the proposal's)"
                                   if len(ev.changes) > 1 else "")]
            comments[t.path] += [f"before: {x}" for x in objective_lines(study.tuning, result.before)]
            comments[t.path] += [f"after:  {x}" for x in objective_lines(study.tuning, ev)]
        text = overlay_text(game=study.config["game"], name=name, requires=study.evaluator.requires,
                            title=f"Tuned by interpret tune ({', '.join(f'{n} {a}' for n, (_, a) in ev.changes.items())})",
                            changes=[(study.tuning.tunable(n).path, a) for n, (_, a) in ev.changes.items()],
                            comments=comments, header=_header(study, result, ev, k))
        path = folder / f"{name}.yaml"
        path.write_text(text, encoding="utf-8")
        out.append(Proposal(name, path, ev))
    for p in out:
        check(study, p)
        marks = [f"DOES NOT LOAD: {x}" for x in p.problems] + [
            f"BREAKS the scenario {scenario}: {failure}" for scenario, failure in p.broken]
        if marks:  # the guard rails' verdict, first thing in the file
            p.path.write_text(marked(p.path.read_text(encoding="utf-8"), marks), encoding="utf-8")
    return out


def marked(text: str, marks: list[str]) -> str:
    """A variant's text with `marks` above it as comments, every line of each (a failure may run over
    several: the legal moves listed under a refusal)."""
    return "".join(f"# {line}\n" for m in marks for line in m.splitlines()) + text


def check(study, p: Proposal) -> None:
    """Load the game with the proposal, run the scenarios against it, and measure its rules coverage."""
    from ..ruleset.loader import load_ruleset
    variants = tuple(study.spec.variants) + (str(p.path.resolve()),)
    try:
        rs = load_ruleset(study.spec.game, variants=variants)
    except ContentError as e:
        p.problems = [pr.render() for pr in e.problems]
        return
    p.broken = broken_scenarios(study, p.path)
    p.coverage, p.unreached = coverage(study, rs, p.evaluation)


def _scenario_results(game: str, extra: tuple) -> dict:
    from ..scenarios.runner import GameShelf, run_file, run_paths, scenario_files
    from ..ruleset.paths import game_dir
    folder = game_dir(game)
    if not (folder / "scenarios").is_dir():
        return {}
    shelf = GameShelf()

    def run(path):
        return run_file(path, load_game=lambda name, players, options, variants:
                        shelf(name, players, options, tuple(variants) + extra))
    return {r.path: r for r in run_paths([folder / "scenarios"], files=scenario_files, run=run)}


def broken_scenarios(study, proposal: Path) -> list[tuple[str, str]]:
    """(scenario, first failure) for each scenario that passes with the rulebook's values and fails with
    the proposal (after the study's variants and the scenario's own)."""
    if study.scenario_base is None:  # the rulebook's results: run once for every proposal
        study.scenario_base = _scenario_results(study.spec.game, tuple(study.spec.variants))
    base = study.scenario_base
    tuned = _scenario_results(study.spec.game, tuple(study.spec.variants) + (str(proposal.resolve()),))
    out = []
    for path, r in tuned.items():
        if not r.ok and (path not in base or base[path].ok):
            first = r.failures[0]
            out.append((f"{path} ({r.title})", first.render() if hasattr(first, "render") else str(first)))
    return out


def coverage(study, rs, ev: Evaluation, games: int = COVERAGE_GAMES) -> tuple[dict, list]:
    """The rule units the first `games` games of the fresh batch reach (played again with a recorder)."""
    from ..engine.game import Game
    from ..scenarios.coverage import CoverageReport, Recorder, rules_of
    from .simulate import play_out
    recorder = Recorder()
    recorder.current = "games"
    game = Game.from_ruleset(rs, players=study.config["players"], options=dict(study.spec.options) or None,
                             observer=recorder)
    seed = study.spec.seed + FRESH  # the fresh batch's first games, played again
    for i in range(min(games, ev.games)):
        play_out(game, seed + i, agents=study.config["agents"], max_decisions=study.spec.max_decisions)
    report = CoverageReport(rs.title, rules_of(rs), recorder, ["games"])
    unreached = [(str(r.location), r.kind, r.name, what) for r, what in report.unexercised()]
    return {k: list(v) for k, v in report.summary().items()}, unreached


def summary_json(study, result, proposals: list[Proposal]) -> Path:
    data = {"config": study.config, "stopped": result.stopped,
            "before": result.before.as_dict(),
            "proposals": [dict(p.evaluation.as_dict(), name=p.name, file=str(p.path), problems=p.problems,
                               broken_scenarios=[list(b) for b in p.broken], coverage=p.coverage)
                          for p in proposals],
            "trials": [{"number": n, "params": params, "values": values} for n, params, values in result.trials]}
    path = study.out / "tune.json"
    path.write_text(json.dumps(data, indent=2, ensure_ascii=False, default=str) + "\n", encoding="utf-8")
    return path


def proposal_text(study, result, proposals: list[Proposal]) -> str:
    lines = [f"{study.config['title']}: {len(result.trials)} candidates; {result.stopped}.", "",
             "the rulebook's values (fresh seeds):"] + ["  " + x for x in objective_lines(study.tuning, result.before)]
    if not proposals:
        lines += ["", "no proposal: no candidate changed a value and did better"]
    for p in proposals:
        ev = p.evaluation
        lines += ["", f"{p.name} ({p.path}): " + ", ".join(f"{n} {json.dumps(b)} -> {json.dumps(a)}"
                                                          for n, (b, a) in ev.changes.items())
                  + f"; {ev.games} games on fresh seeds"]
        lines += ["  " + x for x in objective_lines(study.tuning, ev)]
        if p.problems:
            lines.append("  DOES NOT LOAD: " + "; ".join(p.problems))
        for scenario, failure in p.broken:
            lines.append(f"  BREAKS the scenario {scenario}: {failure}")
    return "\n".join(lines)


__all__ = ["Proposal", "write_proposals", "summary_json", "proposal_text", "figure", "objective_lines", "marked"]
