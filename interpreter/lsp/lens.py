"""A code lens per rule (action, requirement, trigger, power, procedure, function): how many of the
game's scenarios exercise it, from the coverage recorder (scenarios/coverage.py), with a command
running those scenarios."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from ..ruleset.paths import display_path

RUN = "interpret.runScenarios"


@dataclass(frozen=True)
class Lens:
    line: int  # 0-based
    column: int
    title: str
    scenarios: tuple  # the scenario files (absolute paths) that exercise the rule


def coverage(model):
    """The coverage of the game's scenarios, computed once (on the saved files) and kept until a
    file of the game is saved."""
    with model.coverage_lock:
        if model.coverage is None:
            from ..scenarios.coverage import run_coverage
            model.coverage = run_coverage(str(model.root))
        return model.coverage


def lenses(model, path: Path) -> list[Lens]:
    report = coverage(model)
    display = display_path(path)
    out = []
    for rule in report.rules:
        loc = rule.location
        if loc.file != display or not loc.line:
            continue
        shown = sorted(report.recorder.scenarios_of(rule))
        files = tuple(str(report.recorder.files.get(s, s)) for s in shown)
        n = len(shown)
        what = rule.kind if rule.kind != "requirement" else "requirement"
        title = f"{n} scenario{'s' if n != 1 else ''} exercise{'s' if n == 1 else ''} this {what}" if n else \
            f"no scenario exercises this {what}"
        out.append(Lens(loc.line - 1, max(loc.column - 1, 0), title, files))
    return out


def run(files) -> str:
    """Run scenario files (`interpret test` on each): one line per failure, then a summary."""
    from ..errors import ContentError
    from ..scenarios.runner import run_file
    failed = []
    for f in files:
        try:
            result = run_file(Path(f))
        except ContentError as e:
            failed.append(f"{f}: {e.problems[0].render() if e.problems else e}")
            continue
        if not result.ok:
            failed.append(result.failures[0].render())
    passed = len(files) - len(failed)
    return "\n".join(failed + [f"{passed} of {len(files)} scenario{'s' if len(files) != 1 else ''} passed"])


__all__ = ["Lens", "RUN", "coverage", "lenses", "run"]
