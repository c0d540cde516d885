"""A homebrew in coverage and mutation: `interpret test --coverage/--mutate GAME --variant V
[SCENARIOS...]` runs the homebrew's own scenarios (each naming its variants) beside the game's,
and reports the homebrew's rules among the game's (scenarios/coverage.py)."""
from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pytest

from interpreter.play import cli
from interpreter.scenarios.coverage import run_coverage, run_mutation

GAME = Path(__file__).resolve().parent / "fixtures" / "coverage"

VARIANT = """\
variant:
  name: bonus
  title: Bonus
  base: cov
changes:
  - op: add
    path: actions.bonus
    value:
      require:
        - check: "me.score > 0"
          reason: "a bonus after a point"
      effect: me.score += 5
"""

SCENARIO = """\
scenario:
  title: a bonus after a take
  game: {game}
  variants: [../variants/bonus.yaml]
steps:
  - turn: {{player: p1}}
  - refused: {{do: bonus, reason: a bonus after a point}}
  - do: take
  - do: bonus
  - expect: p1.score == 6
"""


@pytest.fixture
def homebrew(tmp_path, monkeypatch):
    """A homebrew folder (variants/, scenarios/) outside the game, the working folder."""
    (tmp_path / "variants").mkdir()
    (tmp_path / "scenarios").mkdir()
    (tmp_path / "variants" / "bonus.yaml").write_text(VARIANT, encoding="utf-8")
    (tmp_path / "scenarios" / "bonus.yaml").write_text(textwrap.dedent(SCENARIO.format(game=GAME)), encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def bonus_rules(report):
    return {(r.kind, r.name): report.exercised(r) for r in report.rules if "bonus" in r.name}


def test_the_homebrews_scenarios_exercise_its_rules(homebrew):
    report = run_coverage(str(GAME), ["variants/bonus.yaml"], scenarios=["scenarios/bonus.yaml"])
    assert not report.failures
    assert len(report.scenarios) == 3  # the game's two and the homebrew's
    assert bonus_rules(report) == {("action", "bonus"): True, ("requirement", "bonus[0]"): True}
    req = next(r for r in report.rules if r.kind == "requirement" and r.name.startswith("bonus"))
    assert report.exercised(req, True) and report.exercised(req, False)
    assert str(req.location).startswith("variants/bonus.yaml:")


def test_without_its_scenarios_the_homebrew_is_never_played(homebrew):
    report = run_coverage(str(GAME), ["variants/bonus.yaml"])
    assert bonus_rules(report) == {("action", "bonus"): False, ("requirement", "bonus[0]"): False}


def test_the_command_takes_scenarios_after_the_variant(homebrew, capsys):
    code = cli.main(["test", "--coverage", str(GAME), "--variant", "variants/bonus.yaml", "scenarios/bonus.yaml", "-q"])
    out = capsys.readouterr().out
    assert code == 0, out
    assert "by 3 scenarios" in out and "bonus: never played" not in out
    # the homebrew's scenario alone names its game
    code = cli.main(["test", "--coverage", "scenarios/bonus.yaml", "--variant", "variants/bonus.yaml", "--json", "-q"])
    data = json.loads(capsys.readouterr().out)
    assert code == 0 and data["scenarios"] == 3
    assert {r["name"]: r["gap"] for r in data["rules"] if "bonus" in r["name"]} == {"bonus": None, "bonus[0]": None}


def test_mutation_kills_the_homebrews_mutants_with_its_scenarios(homebrew):
    report = run_mutation(str(GAME), ["variants/bonus.yaml"], scenarios=["scenarios/bonus.yaml"])
    mine = [m for m in report.mutants if m.rule.name.startswith("bonus")]
    assert [(m.mutation, m.status, Path(m.killed_by).name) for m in mine] == [
        ("remove", "killed", "bonus.yaml"), ("negate", "killed", "bonus.yaml")]
