"""The homebrew example of docs/homebrew.md works as the page says, and every Dark Agent variant
validates alone and in every pair that does not declare a conflict (the project's own CI check)."""
from __future__ import annotations

import itertools
from pathlib import Path

import pytest

from interpreter.play import cli
from interpreter.errors import ContentError
from interpreter.engine.game import Game
from interpreter.scenarios.runner import run_paths

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "docs" / "examples" / "homebrew"
VARIANTS = sorted(p.stem for p in (ROOT / "content" / "dark-agent" / "variants").glob("*.yaml"))


def test_the_example_validates_and_its_scenario_passes(capsys):
    assert cli.main(["validate", "dark-agent", "--variant", str(EXAMPLE / "variants" / "kara-enragee.yaml")]) == 0
    results = run_paths([EXAMPLE / "scenarios"])
    assert results and all(r.ok for r in results), [f.render() for r in results for f in r.failures]


def test_the_example_refuses_no_dice_with_both_files(capsys):
    code = cli.main(["validate", "dark-agent", "--variant", str(EXAMPLE / "variants" / "kara-enragee.yaml"), "--variant", "no-dice"])
    err = capsys.readouterr().err
    assert code == 1
    assert "kara-enragee.yaml:11:" in err and "cannot be combined" in err
    assert "both change `cards.kara.props.defense`" in err and "no-dice.yaml:" in err


def test_new_variant_writes_a_file_that_validates(tmp_path, capsys):
    out = tmp_path / "mine.yaml"
    assert cli.main(["new", "variant", "mine", "--base", "dark-agent", "--out", str(out)]) == 0
    assert out.read_text().startswith("# A homebrew variant of dark-agent")
    assert cli.main(["validate", "dark-agent", "--variant", str(out)]) == 0


def test_schema_writes_the_schemas(tmp_path, capsys):
    assert cli.main(["schema", "--out", str(tmp_path)]) == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "content.schema.json", "evaluation.schema.json", "lab.schema.json", "log.schema.json", "scenario.schema.json",
        "texts.schema.json", "tuning.schema.json", "tutorial.schema.json", "variant.schema.json"]


def _declared_conflict(a, b):
    try:
        Game.load("dark-agent", variants=[a, b])
    except ContentError as e:
        return e
    return None


@pytest.mark.parametrize("name", VARIANTS)
def test_every_variant_validates_alone(name):
    assert cli.main(["validate", "dark-agent", "--variant", name]) == 0


@pytest.mark.parametrize("a,b", list(itertools.combinations(VARIANTS, 2)))
def test_every_pair_of_variants_validates_or_is_refused_by_a_declared_conflict(a, b):
    error = _declared_conflict(a, b)
    if error is not None:
        messages = " ".join(p.message for p in error.problems)
        assert "cannot be combined" in messages or "both change" in messages or "requires" in messages, messages


@pytest.mark.parametrize("path", sorted((ROOT / "content").glob("*/variants/*.yaml")),
                         ids=lambda p: f"{p.parent.parent.name}/{p.stem}")
def test_every_bundled_variant_of_every_game_validates(path, capsys):
    game = path.parent.parent.name
    assert cli.main(["validate", game, "--variant", path.stem]) == 0, capsys.readouterr().err


def test_two_homebrew_cards_compose(capsys):
    """Issue 10: a homebrew agency and a homebrew equipment, one file each, load together and
    both powers work in one game (scenarios/both.yaml), each alone too."""
    suisse, fumigene = (str(EXAMPLE / "variants" / f) for f in ("agence-suisse.yaml", "fumigene.yaml"))
    assert cli.main(["validate", "dark-agent", "--variant", suisse, "--variant", fumigene]) == 0
    for scenario in ("suisse.yaml", "fumigene.yaml", "both.yaml"):
        results = run_paths([EXAMPLE / "scenarios" / scenario])
        assert results and all(r.ok for r in results), [f.render() for r in results for f in r.failures]
