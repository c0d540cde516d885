"""Guided first games (scenarios/tutorial.py): each bundled tutorial plays to its end with its expected
moves, every lesson's checks hold, `interpret test GAME` runs them with the scenarios, and a change to a
rule a tutorial teaches makes it fail."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from interpreter.play import cli
from interpreter.ruleset.paths import content_dir, schemas_dir
from interpreter.scenarios.runner import GameShelf
from interpreter.scenarios.tutorial import game_tutorials, run_tutorial, text_of

GAMES = ["dark-agent", "agents-secrets", "agent-dog"]

# a rule each tutorial teaches, changed (a variant's change), and what the tutorial says then
MUTATIONS = {
    "dark-agent": ({"op": "replace", "path": "constants.dice_count", "value": 3}, "sentinel in p1.victory"),
    "agents-secrets": ({"op": "replace", "path": "cards.cia_agent_special.props.points", "value": 1},
                       "shown1.cia_points == 3"),
    "agent-dog": ({"op": "replace", "path": "functions.each_for_self.expr", "value": "true"},
                  "anne_gives in p3.gift"),
}


@pytest.mark.parametrize("game", GAMES)
def test_every_seed_game_has_a_tutorial_that_plays_to_its_end(game):
    files = game_tutorials(game)
    assert files, f"{game} has no tutorial"
    for path in files:
        result = run_tutorial(path)
        assert result.ok, [f.render() for f in result.failures]
        assert result.steps >= 10


@pytest.mark.parametrize("game", GAMES)
def test_a_tutorial_fails_when_a_rule_it_teaches_changes(game, tmp_path):
    change, broken = MUTATIONS[game]
    variant = tmp_path / "mutant.yaml"
    variant.write_text(json.dumps({"variant": {"name": "mutant", "title": "a changed rule", "base": game},
                                   "changes": [change]}), encoding="utf-8")
    shelf = GameShelf()

    def mutated(name, players, options, variants):
        return shelf(name, players, options, list(variants) + [str(variant)])
    result = run_tutorial(game_tutorials(game)[0], load_game=mutated)
    assert not result.ok
    assert broken in result.failures[0].message, result.failures[0].render()


def test_interpret_test_runs_a_games_tutorials_with_its_scenarios(capsys):
    assert cli.main(["test", "agents-secrets", "-v"]) == 0
    out = capsys.readouterr().out
    assert "ok   A first turn of Agents Secrets (agents-secrets/tutorials/first-turn.yaml)" in out
    assert cli.main(["test", str(content_dir() / "agent-dog" / "tutorials" / "first-round.yaml"), "-v"]) == 0
    assert "1 passed, 0 failed" in capsys.readouterr().out


def test_a_broken_tutorial_is_reported_at_its_line(tmp_path, capsys):
    folder = tmp_path / "tutorials"
    folder.mkdir()
    bad = folder / "bad.yaml"
    bad.write_text("tutorial: {title: wrong, game: tic-tac-toe}\n"
                   "steps:\n"
                   "  - say: {en: Take the centre., fr: Prenez le centre.}\n"
                   "    point: [r2c2]\n"
                   "    play: take r9c9\n", encoding="utf-8")
    assert cli.main(["test", str(bad)]) == 1
    out = capsys.readouterr().out
    assert "bad.yaml:5:11: `take r9c9` was refused" in out, out
    bad.write_text("tutorial: {title: wrong, game: tic-tac-toe}\nsteps:\n  - say: hello\n    hint: no move\n",
                   encoding="utf-8")
    assert cli.main(["test", str(bad)]) == 1  # a hint without a move to hint at: the schema refuses it
    assert "bad.yaml:3:5: " in capsys.readouterr().out


def test_texts_are_given_in_the_tables_language_english_without_an_entry():
    assert text_of({"en": "Target it", "fr": "Ciblez-la"}, "fr") == "Ciblez-la"
    assert text_of({"en": "Target it"}, "fr") == "Target it"
    assert text_of("Target it", "fr") == "Target it"


def test_the_tutorial_schema_knows_every_scenario_step():
    """The tutorial schema embeds the scenario steps: a step added to scenarios must be added there too."""
    tutorial = json.loads((schemas_dir() / "tutorial.schema.json").read_text(encoding="utf-8"))
    scenario = json.loads((schemas_dir() / "scenario.schema.json").read_text(encoding="utf-8"))
    assert tutorial["properties"]["steps"]["items"]["oneOf"][1:] == scenario["properties"]["steps"]["items"]["oneOf"]
