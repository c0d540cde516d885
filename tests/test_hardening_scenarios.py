"""Issue 12, item 7: scenarios and content files. A scenario without steps, forced dice that do not
match the roll, a badly typed `set`, a flow that never settles, a control character: each is a
positioned error."""
from __future__ import annotations

from pathlib import Path

import pytest

from interpreter.engine.game import Game
from interpreter.errors import RuleRuntimeError
from tests.hardening import BASE, POSITION, game_dir, interpret

BELGIQUE = Path(__file__).resolve().parent.parent / "content" / "dark-agent" / "scenarios" / "agencies" / "belgique.yaml"


def scenario(tmp_path, text: str, name: str = "s.yaml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_a_scenario_without_steps(tmp_path, capsys):
    path = scenario(tmp_path, "scenario: {title: empty, game: tic-tac-toe, players: 2}\nsteps: []\n")
    code, out, err = interpret(capsys, "test", path)
    assert code == 1 and "s.yaml:2:8:" in out and "non-empty" in out, out


def test_forced_dice_fewer_than_the_roll(tmp_path, capsys):
    text = BELGIQUE.read_text(encoding="utf-8").replace("scenario: {", "scenario: {game: dark-agent, ", 1)
    assert "  - dice: [3, 3, 3, 4]" in text
    path = scenario(tmp_path, text.replace("  - dice: [3, 3, 3, 4]", "  - dice: [6]"))
    code, out, err = interpret(capsys, "test", path, seconds=30)
    assert code == 1, out
    assert "a roll of 4 dice, and only 1 forced (6)" in out and "s.yaml:" in out, out
    code, out, err = interpret(capsys, "test", scenario(tmp_path, text, "all.yaml"), seconds=30)
    assert code == 0, out  # every die forced: fine


def test_a_set_of_the_wrong_type(tmp_path, capsys):
    path = scenario(tmp_path, "scenario: {title: set, game: dark-agent, players: 2}\nsteps:\n"
                              "  - set: {p1.atk: [1, 2]}\n")
    code, out, err = interpret(capsys, "test", path, seconds=30)
    assert code == 1 and "s.yaml:3:5: `atk` holds a number, not [1, 2]" in out, out


def test_a_flow_that_never_settles_has_a_position(tmp_path):
    base = BASE.replace('    end: "if round >= 3 then finish game end"\n',
                        '    end: "pass"\n  turn:\n    start: "finish turn"\n')
    game = Game.load(str(game_dir(tmp_path, base=base)))
    with pytest.raises(RuleRuntimeError, match="did not settle") as info:
        game.new_game(seed=1)
    assert info.value.location is not None and info.value.location.line > 0


@pytest.mark.parametrize("char", ["\x01", "\x00", "\x7f", "\x1b"])
def test_a_control_character_in_a_content_file(tmp_path, capsys, char):
    root = game_dir(tmp_path, base=BASE.replace("noop: {effect: finish turn}", f"noop: {{effect: finish{char} turn}}"))
    code, out, err = interpret(capsys, "validate", root)
    assert code == 1 and "control character" in err, err
    line = next(i for i, text in enumerate(BASE.splitlines(), 1) if "noop:" in text)
    assert f"game.yaml:{line}:" in err and POSITION.search(err), err


def test_a_control_character_in_a_scenario(tmp_path, capsys):
    path = scenario(tmp_path, 'scenario: {title: ctl, game: tic-tac-toe, players: 2}\nsteps:\n  - expect: "tr\x01ue"\n')
    code, out, err = interpret(capsys, "test", path)
    assert code == 1 and "s.yaml:3:16: a control character (0x01)" in out, out
