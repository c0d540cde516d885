"""A game's content names its own levels (`game.levels`, issue 29 item 5): `--bots hard`, `--seat
N=hard`, simulate and the web table's seat menu play the agent the game names for the level;
a variant may change a level; a level naming no agent, or a level's name misspelt, is the
designer's error at its file:line:col (exit 1); a game without `levels:` keeps interpret's."""
from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

from interpreter.agents import LEVELS, parse_spec
from interpreter.engine.game import Game
from interpreter.play.levels import game_levels
from tests.hardening import interpret

CONTENT = Path(__file__).resolve().parent.parent / "content"
VARIANT = """\
variant: {{name: {name}, title: {name}, base: {base}}}
changes:
  - {{op: set, path: {path}, value: {value}}}
"""


def _game(tmp_path, levels: str | None = "{hard: greedy}", *, name: str = "lv"):
    """Tic-tac-toe under another name, its `game:` section given `levels: LEVELS` (None: none)."""
    root = tmp_path / name
    shutil.copytree(CONTENT / "tic-tac-toe", root, ignore=shutil.ignore_patterns("scenarios", "texts.*"))
    text = (root / "game.yaml").read_text(encoding="utf-8").replace("name: tic-tac-toe", f"name: {name}")
    if levels is not None:
        text = text.replace("game:\n", f"game:\n  levels: {levels}\n", 1)
    (root / "game.yaml").write_text(text, encoding="utf-8")
    return root


def _variant(root: Path, name: str, *, path: str, value: str) -> None:
    (root / "variants").mkdir(exist_ok=True)
    (root / "variants" / f"{name}.yaml").write_text(VARIANT.format(name=name, base=root.name, path=path, value=value),
                                                   encoding="utf-8")


def _seats(capsys, tmp_path, *argv) -> list:
    """The seats `interpret play ... --auto` wrote in its log's header."""
    log = tmp_path / "g.jsonl"
    code, _out, err = interpret(capsys, "play", *argv, "--auto", "--seed", 1, "--log", log, "--force")
    assert code == 0, err
    return json.loads(log.read_text(encoding="utf-8").splitlines()[0])["seats"]


def test_a_game_that_names_its_hard_level_is_played_by_that_agent(capsys, tmp_path):
    root = _game(tmp_path, "{hard: greedy}")
    assert _seats(capsys, tmp_path, root, "--bots", "hard") == ["greedy", "greedy"]
    assert _seats(capsys, tmp_path, root, "--seat", "2=hard") == ["random", "greedy"]
    assert _seats(capsys, tmp_path, root, "--bots", "easy") == ["random", "random"]  # the others stay interpret's


def test_simulate_plays_the_games_level(capsys, tmp_path):
    """`simulate --bots hard` plays the same games as `--bots greedy` when the game's hard is greedy
    (and other games than random's: the comparison tells the agents apart)."""
    root = _game(tmp_path, "{hard: greedy}")

    def summary(bots: str) -> dict:
        code, out, err = interpret(capsys, "simulate", root, "--games", 4, "--seed", 3, "--bots", bots, "--json")
        assert code == 0, err
        s = json.loads(out)
        return {"seats": s["seats"], "decisions": s["decisions_avg"]}
    greedy = summary("greedy")
    assert summary("hard") == greedy and summary("random") != greedy


def test_a_variant_changes_a_level(capsys, tmp_path):
    root = _game(tmp_path, "{hard: greedy, normal: greedy}")
    _variant(root, "deep", path="game.levels.hard", value="'mcts:7'")
    assert _seats(capsys, tmp_path, root, "--variant", "deep", "--bots", "hard") == ["mcts:7", "mcts:7"]
    assert _seats(capsys, tmp_path, root, "--variant", "deep", "--bots", "normal") == ["greedy", "greedy"]
    bare = _game(tmp_path, None, name="bare")  # a game without levels, given some by a variant
    _variant(bare, "quick", path="game.levels", value="{hard: 'greedy:2'}")
    assert _seats(capsys, tmp_path, bare, "--variant", "quick", "--bots", "hard") == ["greedy:2", "greedy:2"]


@pytest.mark.parametrize("levels, where, said", [
    ("{hard: 'rolout:4'}", 9, "game.levels.hard: no agent 'rolout:4'"),
    ("{hard: 'ismcts:2parsecs'}", 9, "game.levels.hard: 'ismcts:2parsecs': a budget is"),
    ("{normal: hard}", 9, "game.levels.normal: 'hard' is a level, not an agent"),
    ("{hard: 'ismcts:90s'}", 9, "game.levels.hard: 'ismcts:90s' searches longer than a seat may"),
    ("{hrad: greedy}", 9, "'hrad' was unexpected"),  # a level's name misspelt: the schema's
])
def test_a_level_that_names_no_agent_is_refused_where_it_is_written(capsys, tmp_path, levels, where, said):
    root = _game(tmp_path, levels)
    for argv in (["validate", root], ["play", root, "--auto", "--seed", 1], ["simulate", root, "--games", 1]):
        code, _out, err = interpret(capsys, *argv)
        assert code == 1, (argv, err)
        assert said in err and re.search(rf"lv/game\.yaml:{where}:\d+: ", err), (argv, err)
    if "hrad" in levels:
        assert "did you mean `hard`?" in err


def test_a_variants_bad_level_is_refused_in_the_variant(capsys, tmp_path):
    root = _game(tmp_path, "{hard: greedy}")
    _variant(root, "typo", path="game.levels.hard", value="'mcts:5O'")
    code, _out, err = interpret(capsys, "validate", root, "--variant", "typo")
    assert code == 1 and re.search(r"variants/typo\.yaml:3:\d+: game\.levels\.hard: 'mcts:5O'", err), err


def test_a_game_without_levels_keeps_interprets(capsys, tmp_path):
    game = Game.load("tic-tac-toe")
    assert dict(game.catalog.levels) == {} and game_levels(game) == LEVELS
    assert _seats(capsys, tmp_path, "tic-tac-toe", "--bots", "normal") == ["greedy", "greedy"]
    from interpreter.play.common import seat_kinds
    kinds = seat_kinds([], 2, auto=False, interactive=True, levels=game_levels(game))
    assert kinds == ["human", str(parse_spec("ismcts:0.3s@all"))]


def test_dark_agents_hard_is_the_policy_rollout():
    """Ruling B1 (docs/rulings.md): Dark Agent names its hard level; its other levels are interpret's."""
    levels = game_levels(Game.load("dark-agent", players=2))
    assert levels == {**LEVELS, "hard": "rollout:0.3s@all,eval=leader"}
    spec = parse_spec("hard", levels=levels)
    assert (spec.kind, spec.seconds, spec.evaluation) == ("rollout", 0.3, "leader")


def test_the_web_tables_hard_bot_is_the_games_hard(tmp_path):
    pytest.importorskip("starlette")
    pytest.importorskip("httpx")
    from starlette.testclient import TestClient

    from interpreter.agents import GreedyAgent
    from interpreter.serve.app import build_app
    from interpreter.serve.hub import Hub
    from interpreter.serve.lobby import Games
    host = "the-host-token-for-tests-0123456789"
    root = _game(tmp_path, "{hard: greedy}")
    hub = Hub(games=Games([str(root)]), data=tmp_path / "data", lang="en")
    with TestClient(build_app(hub, host_token=host)) as c:
        menu = {g["name"]: g["bots"] for g in c.get("/api/games").json()}
        assert menu["lv"] == ["easy", "normal", "hard"]  # the seat menu offers the level by its name
        r = c.post("/api/tables", json={"game": "lv", "seats": ["human", "bot:hard"], "seed": 1},
                   headers={"X-Host-Token": host})
        assert r.status_code == 201, r.text
        table = hub.tables[r.json()["table"]]
        assert isinstance(table.agent(1), GreedyAgent)
        logs = sorted((tmp_path / "data").rglob("*.jsonl"))
        assert logs and json.loads(logs[0].read_text(encoding="utf-8").splitlines()[0])["seats"] == ["human", "greedy"]
