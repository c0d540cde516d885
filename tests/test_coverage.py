"""Rule coverage and mutation testing (interpreter/scenarios/coverage.py, `interpret test --coverage/--mutate`).

The fixture game tests/fixtures/coverage has two scenarios whose reach is known exactly:
both take a coin (take, gain, the `log` trigger), one is refused a second take (take's
"once per turn" requirement seen false), the other ends its turn with `done`. Nothing plays
`cheat`, calls `double` or `penalty`, or scores 100 points.
"""
from __future__ import annotations

import json
from pathlib import Path

from interpreter.play import cli
from interpreter.scenarios.coverage import run_coverage, run_mutation

GAME = Path(__file__).parent / "fixtures" / "coverage"


def _gaps(report):
    return {(r.kind, r.name, what, str(r.location).replace(str(GAME), "tests/fixtures/coverage"))
            for r, what in report.unexercised()}


def test_coverage_reports_exactly_the_rules_the_scenarios_did_not_exercise():
    report = run_coverage(str(GAME))
    assert not report.failures
    gaps = {(kind, name, what) for kind, name, what, _ in _gaps(report)}
    assert gaps == {
        ("function", "double", "never called"),
        ("procedure", "penalty", "never run"),
        ("trigger", "on scored when who.score >= 100: who.score = 0", "never fired"),
        ("requirement", "take[0]", "never false"),
        ("action", "cheat", "never played"),
        # the flow lists every action of the step at each decision: cheat's requirement is read
        # (false) there, and done's is seen false before a coin is taken
        ("requirement", "cheat[0]", "never true"),
    }
    assert report.summary() == {
        "action": (2, 3), "requirement true": (3, 4), "requirement false": (3, 4),
        "trigger": (1, 2), "procedure": (1, 2), "function": (1, 2),
    }
    # `shown` is called by the render template only: not a rule, not counted
    assert report.not_rules == ["shown"]


def test_coverage_gives_each_rule_its_position_in_the_content():
    where = {(kind, name): loc for kind, name, _, loc in _gaps(run_coverage(str(GAME)))}
    assert where[("requirement", "take[0]")].endswith("game.yaml:36:10")
    assert where[("trigger", "on scored when who.score >= 100: who.score = 0")].endswith("game.yaml:28:6")
    assert where[("action", "cheat")].endswith("game.yaml:47:3")


def test_coverage_records_which_scenario_saw_a_requirement_false():
    report = run_coverage(str(GAME))
    once = next(r for r in report.rules if r.name == "take[1]")
    # the refused take; the engine also checks it after a take, when it lists what is still legal
    assert "take.yaml" in {Path(s).name for s in report.recorder.scenarios_of(once, False)}
    assert {Path(s).name for s in report.recorder.scenarios_of(once, True)} == {"take.yaml", "done.yaml"}


def test_mutate_finds_the_survivors():
    report = run_mutation(str(GAME))
    status = {(m.rule.name, m.mutation): m.status for m in report.mutants}
    assert status == {
        ("take[0]", "remove"): "uncovered",    # never false: removing it changes nothing seen
        ("take[0]", "negate"): "killed",
        ("take[1]", "remove"): "killed",       # the refused second take notices
        ("take[1]", "negate"): "killed",
        ("done[0]", "remove"): "survived",     # `done` listed before a take: nobody checks it was not
        ("done[0]", "negate"): "killed",
        ("cheat[0]", "remove"): "survived",    # cheat becomes legal: no scenario asks whether it is
        ("cheat[0]", "negate"): "survived",
        ('on scored: log "{who.name} scored"', "remove"): "survived",  # fired twice, checked by nobody
        ("on scored when who.score >= 100: who.score = 0", "remove"): "uncovered",
    }
    assert report.counts() == {"killed": 4, "survived": 4, "uncovered": 2, "invalid": 0}
    assert report.score == 40.0
    # a mutant is undone after its run: the content reads as written again
    assert not run_coverage(str(GAME)).failures


def test_cli_coverage(capsys):
    code = cli.main(["test", "--coverage", str(GAME), "-q"])
    out = capsys.readouterr().out
    assert code == 0
    assert "action 2/3 (67%) · requirement true 3/4 (75%) · requirement false 3/4 (75%)" in out
    assert "game.yaml:36:10  requirement take requires bag.count > 0: never false" in out
    code = cli.main(["test", "--coverage", str(GAME), "--json", "-q"])
    data = json.loads(capsys.readouterr().out)
    assert code == 0
    assert data["summary"]["trigger"] == {"exercised": 1, "total": 2, "percent": 50.0}
    assert {r["name"]: r["gap"] for r in data["rules"] if r["kind"] == "procedure"} == {"gain": None,
                                                                                         "penalty": "never run"}


def test_cli_mutate(capsys):
    code = cli.main(["test", "--mutate", str(GAME)])
    out, err = capsys.readouterr()
    assert code == 0
    assert "10 mutants, 4 killed, 6 survived (2 that no scenario reaches); mutation score 40%" in out
    assert 'game.yaml:27:6  trigger removed: on scored: log "{who.name} scored"  [2 scenario(s) ran, none failed]' in out
    assert "mutant 10/10" in err  # progress on stderr
    code = cli.main(["test", "--mutate", str(GAME), "--json", "-q"])
    data = json.loads(capsys.readouterr().out)
    assert (data["killed"], data["survived"], data["uncovered"], data["score"]) == (4, 4, 2, 40.0)


def test_cli_coverage_flags_go_together(capsys):
    assert cli.main(["test", "--coverage", "--mutate", str(GAME)]) == 2
    assert cli.main(["test", "--json", str(GAME)]) == 2
    capsys.readouterr()


def test_cli_coverage_of_a_game_without_scenarios_fails(capsys):
    assert cli.main(["test", "--coverage", str(GAME.parent / "mini"), "-q"]) == 1
    assert "no scenario files" in capsys.readouterr().err


def test_a_bundled_game_is_covered_from_any_folder(monkeypatch):
    # its scenarios are shown as `agent-dog/scenarios/...` (paths.display_path), and still run
    monkeypatch.chdir(Path(__file__).resolve().parent.parent)
    report = run_coverage("agent-dog")
    assert not report.failures and report.summary()["action"] == (9, 9)


CARDS = Path(__file__).parent / "fixtures" / "coverage-cards"


def test_card_powers_and_card_actions_are_rules_of_their_own():
    """A card's powers (its triggers and modifiers, those of its lasting effects too) and its
    actions appear in the report, each at its own place in the card's entry (issue 10)."""
    report = run_coverage(str(CARDS))
    assert not report.failures
    gaps = {(kind, name, what, loc.split("game.yaml:")[1])
            for kind, name, what, loc in (( r.kind, r.name, w, str(r.location)) for r, w in report.unexercised())}
    assert gaps == {
        ("action", "polish", "never played", "16:7"),
        ("action", "toss", "never played", "30:7"),
        ("action", "done", "never played", "50:3"),
        ("power", "ring: modify income: value * 100", "never applied", "24:20"),   # a lasting effect's
        ("power", "dud: on paid when this in hand: me.score = 0", "never applied", "28:16"),
    }
    assert report.summary()["power"] == (2, 4) and report.summary()["action"] == (1, 4)
    applied = {r.name for r in report.rules if r.kind == "power" and report.exercised(r)}
    assert applied == {"ring: modify income: value + 1", "ring: on paid: me.score += 10"}


def test_mutate_removes_card_powers_one_at_a_time():
    report = run_mutation(str(CARDS))
    status = {m.rule.name: m.status for m in report.mutants if m.rule.kind == "power"}
    assert status == {"ring: modify income: value + 1": "killed", "ring: on paid: me.score += 10": "killed",
                      "ring: modify income: value * 100": "uncovered",
                      "dud: on paid when this in hand: me.score = 0": "uncovered"}
