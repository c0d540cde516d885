"""The commands `analyze` and `test` print to see a game or a scenario again carry what it depends
on, and each reproduces it: analyze's games to watch again (the longest, the shortest, an example
of each way a game was decided, in the text, summary.json and report.html) and a game that failed
(analysis/repro.py); a scenario that failed, under `test` and `test --coverage` (scenarios/runner.py).
Each printed command is run here, in the folder it was printed in (simulate's and the `new variant`
header's: tests/test_validate_repro.py)."""
from __future__ import annotations

import json
import re
import shlex

import pytest

from interpreter.play import cli

# a dice race whose games depend on everything the command must carry: an option (seat 1's head
# start), a variant (more rounds), the seats' bots (a steady or a risky move), the seed
RACE = """\
game: {name: race, title: Race, players: {min: 2, max: 3, default: 2}}
options:
  bonus: {default: 0, min: 0, max: 6}
vars:
  player: {score: 0, best: 0}
flow:
  setup: seat(1).score = bonus
  round:
    end: "if round >= 3 then finish game end"
actions:
  steady:
    effect: |
      me.score += 1
      finish turn
  risky:
    effect: |
      let d = roll(1)
      me.score += d[0] // 3
      if d[0] > me.best then me.best = d[0] end
      finish turn
scoring:
  score: me.score
  tiebreak: [me.best]
"""
LONG = """\
variant: {name: long, base: race}
changes:
  - op: set
    path: flow.round.end
    value: "if round >= 5 then finish game end"
"""
# fails in the third round, only with bonus 2 and this variant: a command without either plays on
BOOM = LONG.replace("changes:", """changes:
  - op: append
    path: triggers
    value:
      - "on turn_start when round >= 3 and bonus == 2: log \\"{1 // (round - round)}\\""
""")
SCENARIO = """\
scenario:
  title: the head start counts
  players: 3
  seed: 4
  options: {bonus: 2}
  variants: [../variants/long.yaml]
steps:
  - do: steady
  - expect: p1.score == 6  # 2 + 1: wrong on purpose
"""


@pytest.fixture
def race(tmp_path, monkeypatch):
    """A folder holding the race game (race/) and its variants (race/variants/), as the working folder."""
    (tmp_path / "race" / "variants").mkdir(parents=True)
    (tmp_path / "race" / "game.yaml").write_text(RACE, encoding="utf-8")
    (tmp_path / "race" / "variants" / "long.yaml").write_text(LONG, encoding="utf-8")
    (tmp_path / "race" / "variants" / "boom.yaml").write_text(BOOM, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def interpret(capsys, command) -> tuple[int, str, str]:
    """Run a printed command (`interpret ...`) in this process: its exit code, stdout and stderr."""
    words = shlex.split(command) if isinstance(command, str) else list(command)
    assert words[0] == "interpret"
    code = cli.main(words[1:])
    out = capsys.readouterr()
    return code, out.out, out.err


def test_analyzes_games_to_watch_are_the_games_it_counted(race, capsys):
    code, out, _ = interpret(capsys, ["interpret", "analyze", "race", "--variant", "race/variants/long.yaml", "--option",
                                      "bonus=1", "--seat", "2=normal", "--games", "8", "--seed", "0", "--out", "runs/r",
                                      "--quiet"])
    assert code == 0
    printed = re.findall(r"^  (.+) \(seed (\d+)\): (interpret play .*)$", out, re.M)
    records = {r["seed"]: r for r in map(json.loads, (race / "runs" / "r" / "results.jsonl").read_text().splitlines())}
    summary = json.loads((race / "runs" / "r" / "summary.json").read_text())
    report = (race / "runs" / "r" / "report.html").read_text()
    assert [(w["what"], str(w["seed"]), w["command"]) for w in summary["watch"]] == printed
    whats = [what for what, _, _ in printed]
    assert whats[0].startswith("the longest game") and any("decided by tiebreak 1: me.best" in w for w in whats)
    assert any("decided by a shared win" in w for w in whats)
    for what, seed, command in dict((seed, (what, seed, command)) for what, seed, command in printed).values():
        assert f"<code>{command}</code>" in report
        words = shlex.split(command)
        assert {"--variant", "--option", "--seat", "--players"} <= set(words), command
        r = records[int(seed)]
        code, shown, _ = interpret(capsys, command)
        assert code == 0
        assert f"Game over after {r['decisions']} decisions" in shown, what
        for seat, score in zip(r["seats"], r["scores"]):
            assert re.search(rf"\b{seat} .* score {score}\b", shown), (what, seat, score, shown[-300:])


def test_a_game_that_fails_in_analyze_fails_again_with_its_command(race, capsys):
    code, _, err = interpret(capsys, ["interpret", "analyze", "race", "--variant", "race/variants/boom.yaml", "--option",
                                      "bonus=2", "--seat", "1=normal", "--games", "4", "--seed", "7", "--out", "runs/b",
                                      "--quiet"])
    assert code == 1
    failure = re.search(r"game with seed (\d+), after (\d+) decisions: (.*)", err)
    command = re.search(r"\(watch that game with: (.*)\)", err).group(1)
    assert "1 // 0" in failure.group(3) or "cannot compute" in failure.group(3)
    code, _, again = interpret(capsys, command)
    assert code == 1
    assert f"error at decision {int(failure.group(2)) + 1} of the game with seed {failure.group(1)}: " \
           f"{failure.group(3)}" in again


def test_a_failing_scenario_prints_the_command_that_fails_it_again(race, capsys):
    (race / "race" / "scenarios").mkdir()
    (race / "race" / "scenarios" / "head-start.yaml").write_text(SCENARIO, encoding="utf-8")
    code, out, _ = interpret(capsys, "interpret test race")
    assert code == 1
    failure = re.search(r"^  (race/scenarios/head-start\.yaml:\d+.*)$", out, re.M).group(1)
    command = re.search(r"\(run it again with: (.*)\)", out).group(1)
    assert command == "interpret test race/scenarios/head-start.yaml"
    code, again, _ = interpret(capsys, command)
    assert code == 1 and failure in again and "0 passed, 1 failed" in again
    code, report, _ = interpret(capsys, "interpret test --coverage race --variant race/variants/long.yaml --quiet")
    assert code == 1 and failure in report and f"(run it again with: {command})" in report
