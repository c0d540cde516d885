"""Issue 12, item 1 (load): caps checked as content loads, before anything is built, with the
position of the number that asks for too much; nesting too deep for the YAML reader."""
from __future__ import annotations

import pytest

from interpreter import limits
from interpreter.engine.game import Game
from interpreter.errors import ContentError
from tests.hardening import BASE, POSITION, game_dir, interpret


@pytest.mark.parametrize("old, new, says", [
    ("copies: 3", "copies: 1000000000000", "limit `copies`"),
    ("copies: 3", 'copies: "1000000 * 1000000"', "limit `copies`"),
    ("max: 3", "max: 9223372036854775808", "limit `players`"),
    ("actions:", "board:\n  grid:\n    columns: 3\n    rows:\n      - {rows: 1-1000000000}\nactions:", "limit `grid_side`"),
    ("actions:", "board:\n  grid:\n    columns: 1000000000\n    rows:\n      - {rows: 1-3}\nactions:", "limit `grid_side`"),
    ("actions:", "board:\n  grid:\n    columns: 1000\n    rows:\n      - {rows: 1-1000}\nactions:", "limit `cells`"),
    ("actions:", "board:\n  ring: {length: 100000000}\nactions:", "limit `grid_side`"),
])
def test_huge_numbers_in_content_are_refused_at_once_with_their_position(tmp_path, capsys, old, new, says):
    root = game_dir(tmp_path, base=BASE.replace(old, new, 1))
    code, out, err = interpret(capsys, "validate", root, seconds=5)
    assert code == 1, err
    assert says in err and POSITION.search(err), err
    assert "Traceback" not in err


def test_a_game_may_raise_a_limit_within_its_hard_limit(tmp_path, capsys):
    raised = BASE.replace("copies: 3", "copies: 20000").replace("max: 3}", "max: 3}, limits: {copies: 20000}")
    code, out, err = interpret(capsys, "validate", game_dir(tmp_path, base=raised))
    assert code == 0, err
    lowered = BASE.replace("max: 3}", "max: 3}, limits: {copies: 2}")
    code, out, err = interpret(capsys, "validate", game_dir(tmp_path, base=lowered, name="low"))
    assert code == 1 and "limit `copies` of 2" in err, err
    too_much = BASE.replace("max: 3}", f"max: 3}}, limits: {{steps: {limits.HARD.steps + 1}}}")
    code, out, err = interpret(capsys, "validate", game_dir(tmp_path, base=too_much, name="hard"))
    assert code == 1 and "above its hard limit" in err and POSITION.search(err), err


def test_the_limits_of_a_game_are_those_of_its_game_yaml(tmp_path):
    root = game_dir(tmp_path, base=BASE.replace("max: 3}", "max: 3}, limits: {steps: 5000, repeat: 7}"))
    m = Game.load(str(root)).m
    assert m.limits.steps == 5000 and m.limits.repeat == 7 and m.limits.copies == limits.DEFAULT.copies


def test_players_beyond_the_cap_are_refused_before_seats_are_made(tmp_path):
    root = game_dir(tmp_path, base=BASE.replace("max: 3", "max: 100000"))
    with pytest.raises(ContentError, match="limit `players`"):
        Game.load(str(root))
    with pytest.raises(ContentError, match="players"):
        Game.load(str(game_dir(tmp_path, name="ok")), players=2 ** 63)


@pytest.mark.parametrize("shape", ["flow", "block", "dashes"])
def test_a_yaml_document_nested_2000_deep_is_a_positioned_error(tmp_path, capsys, shape):
    n = 2000
    if shape == "flow":
        deep = "constants:\n  deep: " + "[" * n + "]" * n + "\n"
    elif shape == "block":
        deep = "constants:\n  deep:\n" + "".join("  " * (i + 2) + "-\n" for i in range(n))
    else:
        deep = "constants:\n  deep:\n    " + "- " * n + "1\n"
    code, out, err = interpret(capsys, "validate", game_dir(tmp_path, deep), seconds=5)
    assert code == 1, err
    assert "nested too deeply" in err and POSITION.search(err), err


def test_the_bundled_content_is_far_from_the_nesting_cap():
    from pathlib import Path

    from interpreter.ruleset.yamlio import _depth_bound
    root = Path(__file__).resolve().parent.parent / "content"
    assert max(_depth_bound(p.read_text(encoding="utf-8")) for p in root.rglob("*.yaml")) < limits.DEFAULT.yaml_depth


@pytest.mark.parametrize("players, says", [
    ("{min: 2, max: 1, default: 2}", "players.max 1 is below players.min 2"),
    ("{min: 2, max: 3, default: 5}", "players.default 5 is outside"),
])
def test_a_player_range_that_holds_no_count(tmp_path, capsys, players, says):
    """Found by the fuzz suite: min above max left `validate` nothing to build (an internal error)."""
    root = game_dir(tmp_path, base=BASE.replace("players: {min: 2, max: 3}", f"players: {players}"))
    code, out, err = interpret(capsys, "validate", root)
    assert code == 1 and says in err and POSITION.search(err), err
