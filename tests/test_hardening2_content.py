"""Issue 32, items 4 and 6: the last internal errors of content and scenarios. `game.players` of
another shape, `params:` written as a text, a division by zero written as such, a name no file can
have, limits a variant raises, and the position of a card power a variant changed: each a content
error with its position (exit 1), never an internal error (exit 3)."""
from __future__ import annotations

import json
import time

import pytest

from interpreter import limits
from interpreter.engine.game import Game
from interpreter.errors import ContentError
from interpreter.ruleset.loader import load_ruleset
from tests.hardening import BASE, POSITION, game_dir, interpret


@pytest.mark.parametrize("players", ["3", '"three"', "[2, 3]"])
@pytest.mark.parametrize("command", [["validate"], ["play", "--auto", "-q"], ["simulate", "-n", "1"]])
def test_game_players_of_another_shape(tmp_path, capsys, players, command):
    root = game_dir(tmp_path, base=BASE.replace("players: {min: 2, max: 3}", f"players: {players}"))
    code, out, err = interpret(capsys, command[0], root, *command[1:])
    assert code == 1 and "is not of type 'object' (at /game/players)" in err and POSITION.search(err), err


@pytest.mark.parametrize("value", [3, "three", [2, 3]])
def test_game_players_set_by_a_variant(tmp_path, capsys, value):
    variant = tmp_path / "v.yaml"
    variant.write_text(json.dumps({"variant": {"name": "v", "base": "tic-tac-toe"},
                                   "changes": [{"op": "set", "path": "game.players", "value": value}]}))
    for argv in (["validate", "tic-tac-toe"], ["play", "tic-tac-toe", "--auto", "-q"]):
        code, out, err = interpret(capsys, *argv, "--variant", variant)
        assert code == 1 and "after the variants" in err and "v.yaml:" in err, err


def test_params_written_as_a_long_text_is_quick_and_clear(tmp_path, capsys):
    long = "abcdefgh" * 20000
    root = game_dir(tmp_path, f"functions:\n  f:\n    params: {long}\n    expr: '1'\n")
    code, out, err = interpret(capsys, "validate", root, seconds=5)
    assert code == 1 and "a list is expected here, not a text" in err, err
    assert "a text of 160,000 characters" in err and len(err) < 2000, err[:500]


def test_a_long_list_of_params_is_checked_in_linear_time(tmp_path):
    """15 times the names take about 8 to 25 times the time (loading the YAML and the rest are not
    all linear in a busy process), not the 225 times of a quadratic check (the duplicate check once
    counted each name in the whole list: 12 s of CPU for 30,000 names at 4e1a0c1, 2 s now)."""
    def seconds(n):
        names = ", ".join(f"p{i}" for i in range(n))
        root = game_dir(tmp_path, f"functions:\n  f:\n    params: [{names}, p0]\n    expr: '1'\n", name=f"g{n}")
        start = time.process_time()
        with pytest.raises(ContentError, match="names its parameter `p0` twice"):
            Game.load(str(root))
        return time.process_time() - start
    small, large = seconds(2000), seconds(30000)
    assert large < 60 * small, (small, large)


def test_a_repeated_parameter_is_still_found(tmp_path, capsys):
    root = game_dir(tmp_path, "procedures:\n  p:\n    params: [a, b, a]\n    effect: pass\n")
    code, out, err = interpret(capsys, "validate", root)
    assert code == 1 and "procedure `p` names its parameter `a` twice" in err, err


@pytest.mark.parametrize("expect", ["1 / 0 == 1", "1 % 0 == 1", "1 // 0 == 1", "5 % (3 - 3) == 0"])
def test_a_division_by_zero_in_a_scenario(tmp_path, capsys, expect):
    path = tmp_path / "s.yaml"
    path.write_text(f"scenario: {{title: t, game: tic-tac-toe, players: 2}}\nsteps:\n  - do: play r1c1\n"
                    f"  - expect: {expect}\n")
    code, out, err = interpret(capsys, "test", path)
    assert code == 1 and "FAIL t" in out and "cannot compute" in out and "s.yaml:4:" in out, out + err


@pytest.mark.parametrize("effect", ["x = 1 // 0", "x = 7 % 0", "x = 0 / 0", "x = f(0)"])
def test_a_division_by_zero_in_rules_is_a_rule_error_at_its_position(tmp_path, capsys, effect):
    root = game_dir(tmp_path, base=BASE.replace("effect: finish turn", f'effect: "{effect}"')
                    + 'functions:\n  f: {params: [n], expr: "10 / n"}\n')
    code, out, err = interpret(capsys, "play", root, "--auto", "-q", "--seed", "1")
    assert code == 1 and "cannot compute" in err and POSITION.search(err), err
    assert "ZeroDivisionError" not in err


LONG = "a" * 300


@pytest.mark.parametrize("argv", [["validate", LONG], ["play", LONG, "--auto", "-q"], ["simulate", LONG, "-n", "1"],
                                  ["test", LONG], ["play", "tic-tac-toe", "--variant", LONG, "--auto", "-q"],
                                  ["validate", f"tic-tac-toe/{LONG}.yaml"], ["new", "variant", LONG, "--base", "tic-tac-toe"]])
def test_a_name_no_file_can_have(tmp_path, capsys, monkeypatch, argv):
    monkeypatch.chdir(tmp_path)
    code, out, err = interpret(capsys, *argv)
    assert code == 1 and ("at most 255 bytes" in err or "at most 255 bytes" in out), err
    assert LONG not in err + out  # quoted cut short


def test_limits_a_variant_raises_are_applied(tmp_path, capsys):
    root = game_dir(tmp_path, base=BASE.replace("copies: 3", "copies: 20000"), name="hardened")
    code, out, err = interpret(capsys, "validate", root)
    assert code == 1 and "limit `copies`" in err, err
    variant = tmp_path / "v.yaml"
    variant.write_text("variant: {name: v, base: hardened}\nchanges:\n"
                       "  - {op: set, path: game.limits, value: {copies: 20000, steps: 3000000}}\n")
    code, out, err = interpret(capsys, "validate", root, "--variant", variant)
    assert code == 0, err
    m = Game.load(str(root), variants=[str(variant)]).m
    assert m.limits.copies == 20000 and m.limits.steps == 3000000 and m.limits.repeat == limits.DEFAULT.repeat


def test_a_limit_a_variant_raises_too_far_is_refused_at_the_variant(tmp_path, capsys):
    variant = tmp_path / "v.yaml"
    variant.write_text("variant: {name: v, base: tic-tac-toe}\nchanges:\n"
                       f"  - {{op: set, path: game.limits, value: {{steps: {limits.HARD.steps + 1}}}}}\n")
    code, out, err = interpret(capsys, "validate", "tic-tac-toe", "--variant", variant)
    assert code == 1 and "above its hard limit" in err and "v.yaml:3:" in err, err


@pytest.mark.parametrize("op", ["set", "replace"])
def test_a_card_power_a_variant_changes_is_reported_in_the_variant(tmp_path, capsys, op):
    """Each of Dark Agent's card powers, its text broken by a variant's `set` or `replace`: the
    error is at the variant's file and line (at 1d4b993, 9 of 20 such mutants said `<content>`).
    One variant breaks them all: validate reports every problem at once."""
    rs = load_ruleset("dark-agent")
    powers = [(name, i, p) for name, card in rs.cards.items() for i, p in enumerate(card.get("powers") or [])]
    assert len(powers) > 20
    changes = []
    for name, i, p in powers:
        key = "rule" if "rule" in p else "value"
        broken = str(p[key]).replace("when", "wh", 1) if key == "rule" and "when" in p[key] else str(p[key]) + " +"
        changes.append({"op": op, "path": f"cards.{name}.powers[{i}].{key}", "value": broken})

    def validate(name: str, batch: list) -> tuple[str, list[int]]:
        """The errors of a variant making `batch`, and the line of each change's broken value."""
        variant = tmp_path / name
        variant.write_text(json.dumps({"variant": {"name": "m", "base": "dark-agent"}, "changes": batch}, indent=1,
                                      ensure_ascii=False))
        lines = variant.read_text().splitlines()
        at = [next(n for n, line in enumerate(lines, 1) if json.dumps(c["path"]) in line) + 1 for c in batch]
        assert all(lines[n - 1].lstrip().startswith('"value"') for n in at)
        code, out, err = interpret(capsys, "validate", "dark-agent", "--variant", variant, seconds=30)
        assert code == 1 and "<content>" not in err, err
        return err, at

    err, at = validate("all.yaml", changes)
    # every one reported, two modifiers of one function included (Belgique's and the Dissuasion's
    # of `starting_atk`: the first one's mistake hid the second's until 2026-12-07)
    assert [c["path"] for c, n in zip(changes, at) if f"all.yaml:{n}:" not in err] == [], err
