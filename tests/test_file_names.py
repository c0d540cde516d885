"""Messages name a bundled game's files as GAME/FILE (`dark-agent/cards.yaml:5:5`), from any
working folder and however interpret is installed, never by an install path such as
site-packages (issue 8). Other files keep the name relative to the working folder."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from interpreter.play import cli
from interpreter.ruleset.paths import content_dir
from interpreter.scenarios.runner import load_scenario
from interpreter.ruleset.yamlio import key_location

ROOT = Path(__file__).resolve().parent.parent
WHERE = pytest.mark.parametrize("cwd", ["elsewhere", "checkout"])  # an install elsewhere; a venv inside the project


def _chdir(monkeypatch, tmp_path, cwd):
    monkeypatch.chdir(tmp_path if cwd == "elsewhere" else ROOT)


def _no_install_path(text: str):
    assert str(content_dir()) not in text and "content/dark-agent" not in text, text
    assert not re.search(r"(^|[\s(])/\S*dark-agent/", text), text


@WHERE
def test_show_names_a_bundled_file_relative_to_the_game_folder(cwd, tmp_path, monkeypatch, capsys):
    _chdir(monkeypatch, tmp_path, cwd)
    assert cli.main(["show", "dark-agent", "cards.kara"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("cards.kara:        # dark-agent/cards.yaml:5:5\n"), out
    _no_install_path(out)


@WHERE
def test_validate_names_a_bundled_file_relative_to_the_game_folder(cwd, tmp_path, monkeypatch, capsys):
    """A variant that removes a function the base rules call: the errors point into the base files."""
    _chdir(monkeypatch, tmp_path, cwd)
    variant = tmp_path / "drop.yaml"
    variant.write_text("variant: {name: drop, base: dark-agent}\nchanges:\n"
                       "  - {op: remove, path: functions.media_optional}\n", encoding="utf-8")
    assert cli.main(["validate", "dark-agent", "--variant", str(variant)]) == 1
    err = capsys.readouterr().err
    assert "\ndark-agent/specials.yaml:26:12: unknown function `media_optional`" in err, err
    _no_install_path(err)


def test_a_bundled_scenario_is_named_relative_to_the_game_folder(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    doc = load_scenario(content_dir() / "dark-agent" / "scenarios" / "anne-first-turn.yaml")
    assert str(key_location(doc, "scenario")).startswith("dark-agent/scenarios/anne-first-turn.yaml:")


def test_a_designers_file_keeps_its_name_relative_to_the_working_folder(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    Path("variants").mkdir()
    Path("variants/mine.yaml").write_text("variant: {name: mine, base: dark-agent}\nchanges:\n"
                                          "  - {op: set, path: cards.kaara.copies, value: 2}\n", encoding="utf-8")
    assert cli.main(["validate", "dark-agent", "--variant", str(tmp_path / "variants" / "mine.yaml")]) == 1
    assert "\nvariants/mine.yaml:3:21: " in capsys.readouterr().err
