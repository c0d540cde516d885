"""The `tuning:` section: checked at load with the rest of the content (file:line:col), in game.yaml,
in a tuning.yaml beside it, or added and removed by a variant."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from interpreter.errors import ContentError
from interpreter.play.cli import main
from interpreter.ruleset.loader import load_ruleset
from interpreter.ruleset.tuning import tuning_of

FIXTURE = Path(__file__).parent / "fixtures" / "head-start"


def _game(tmp_path, old: str = "", new: str = "") -> Path:
    game = tmp_path / "head-start"
    shutil.copytree(FIXTURE, game)
    path = game / "game.yaml"
    text = path.read_text()
    assert old in text
    path.write_text(text.replace(old, new))
    return game


def _problems(game, variants=()) -> list[str]:
    with pytest.raises(ContentError) as e:
        load_ruleset(game, variants=variants)
    return [p.render() for p in e.value.problems]


def _line(game: Path, needle: str) -> int:
    return next(i for i, line in enumerate((game / "game.yaml").read_text().splitlines(), 1) if needle in line)


def test_the_fixture_section_is_read():
    t = tuning_of(load_ruleset(FIXTURE))
    assert [(x.name, x.path, x.value, x.low, x.high, x.step) for x in t.tunables] == \
        [("head_start", "constants.head_start", 6, 0, 8, 1)]
    assert t.tunables[0].values() == list(range(9))
    assert [(o.name, o.measure, o.low, o.high) for o in t.objectives] == \
        [("seats", "win_rate", 0.42, 0.58), ("changes", "changes", None, None)]


def test_a_misspelt_path_is_an_error_at_its_line_with_a_suggestion(tmp_path):
    game = _game(tmp_path, "path: constants.head_start", "path: constants.head_strat")
    problems = _problems(game)
    line = _line(game, "head_strat")
    assert len(problems) == 1
    assert f"game.yaml:{line}:13: tunable `head_start`: `constants.head_strat` does not exist" in problems[0]
    assert "did you mean `head_start`" in problems[0]


@pytest.mark.parametrize("old,new,needle,message", [
    ("range: [0, 8]", "range: [0, 4]", "range: [0, 4]", "the rulebook's value 6 is outside [0, 4]"),
    ("range: [0, 8]\n      step: 1", "range: [0, 9]\n      step: 2", "step: 2", ""),
    ("band: [0.42, 0.58]", "band: [42, 58]", "band: [42", "a rate is between 0 and 1"),
    ("facet: seat", "facet: agency", "facet: agency", "no facet `agency`"),
    ("measure: changes", "measure: changes\n      at_most: 2", "at_most: 2", "`changes` takes no bound"),
    ("      step: 1\n", "      step: 1\n      choices: [1, 2]\n", "path: constants.head_start",
     "either `range`"),  # the tunable as a whole
    ("      band: [0.42, 0.58]\n", "      band: [0.42, 0.58]\n      strong: greedy\n", "strong: greedy",
     "`skill_gap` and only it takes `strong` and `weak`"),
    ("      step: 1\n", "      step: 1\n      stride: 2\n", "stride: 2", "unknown key `stride`"),
])
def test_a_bad_tuning_entry_is_an_error_at_its_place(tmp_path, old, new, needle, message):
    game = _game(tmp_path, old, new)
    problems = _problems(game)
    line = _line(game, needle)
    assert len(problems) == 1 and f"game.yaml:{line}:" in problems[0], problems
    assert message in problems[0] or (not message and "whole number of steps of 2" in problems[0]), problems


def test_validate_reports_it_like_any_content_problem(tmp_path, capsys):
    game = _game(tmp_path, "path: constants.head_start", "path: cards.nothing.props.x")
    assert main(["validate", str(game)]) == 1
    err = capsys.readouterr()
    assert f"game.yaml:{_line(game, 'cards.nothing')}:13: tunable `head_start`: `cards.nothing` does not exist" \
        in err.out + err.err


def test_a_tuning_file_beside_the_game_and_variants_that_add_and_remove(tmp_path):
    game = _game(tmp_path)
    text = (game / "game.yaml").read_text()
    head, section = text.split("tuning:\n")
    (game / "game.yaml").write_text(head)
    (game / "tuning.yaml").write_text("tuning:\n" + section)
    assert [t.name for t in tuning_of(load_ruleset(game)).tunables] == ["head_start"]
    (game / "variants").mkdir()
    (game / "variants" / "longer.yaml").write_text(
        "variant: {name: longer, base: head-start}\n"
        "changes:\n"
        "  - {op: add, path: tuning.tunables.rounds, value: {path: constants.rounds, range: [2, 6]}}\n"
        "  - {op: add, path: tuning.objectives.length, value: {measure: rounds, at_most: 5}}\n"
        "  - {op: remove, path: tuning.objectives.changes}\n")
    t = tuning_of(load_ruleset(game, variants=["longer"]))
    assert [x.name for x in t.tunables] == ["head_start", "rounds"]
    assert [(o.name, o.measure, o.high) for o in t.objectives] == [("seats", "win_rate", 0.58), ("length", "rounds", 5)]
    (game / "variants" / "bad.yaml").write_text(
        "variant: {name: bad, base: head-start}\n"
        "changes:\n"
        "  - {op: add, path: tuning.tunables.dice, value: {path: constants.dice, range: [1, 3]}}\n")
    problems = _problems(game, ["bad"])
    assert len(problems) == 1 and "bad.yaml:3:" in problems[0] and "`constants.dice` does not exist" in problems[0]


def test_a_game_without_a_tuning_section_is_refused_by_tune(tmp_path, capsys):
    assert main(["tune", "tic-tac-toe", "--budget", "2", "--out", str(tmp_path / "t")]) == 1
    assert "Tic-tac-toe has no `tuning:` section" in capsys.readouterr().err
