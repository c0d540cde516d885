"""Issue 12, item 2: parsing and compiling never recurse without bound. Deep rules text, a huge
scenario expectation and a deeply nested log end with a positioned "nested too deeply" error."""
from __future__ import annotations

import pytest

from tests.hardening import BASE, POSITION, game_dir, interpret

N = 1000


def proc(body_lines: list[str]) -> str:
    return "procedures:\n  p:\n    effect: |\n" + "".join(f"      {line}\n" for line in body_lines)


@pytest.mark.parametrize("extra", [
    'functions:\n  f: {params: [], expr: "' + " + ".join(["1"] * N) + '"}\n',
    'functions:\n  f: {params: [], expr: "' + "not " * N + 'true"}\n',
    'functions:\n  f: {params: [a], expr: "' + "f(" * N + "1" + ")" * N + '"}\n',
    'functions:\n  f: {params: [], expr: "' + "[" * N + "]" * N + '"}\n',
    'functions:\n  f: {params: [], expr: "' + "-" * N + '1"}\n',
    proc(["if true then"] * N + ["pass"] + ["end"] * N),
    proc(["for c in cards do"] * N + ["pass"] + ["end"] * N),
    'functions:\n  f: {params: [], expr: "' + "[" * 100_000 + '"}\n',
], ids=["sum", "not", "calls", "lists", "negations", "ifs", "fors", "open-brackets"])
def test_deep_rules_text_is_a_positioned_error(tmp_path, capsys, extra):
    code, out, err = interpret(capsys, "validate", game_dir(tmp_path, extra), seconds=10)
    assert code == 1, err
    assert POSITION.search(err), err
    if "100000" not in extra and "[" * 1000 not in extra or "]" in extra:
        assert "nested too deeply" in err or "syntax error" in err, err


def test_deep_parentheses_alone_do_not_nest(tmp_path, capsys):
    extra = 'functions:\n  f: {params: [], expr: "' + "(" * N + "1" + ")" * N + '"}\n'
    code, out, err = interpret(capsys, "validate", game_dir(tmp_path, extra))
    assert code == 0, err


def test_the_error_points_at_the_start_of_the_deep_part(tmp_path, capsys):
    extra = 'functions:\n  f: {params: [], expr: "' + " + ".join(["1"] * N) + '"}\n'
    code, out, err = interpret(capsys, "validate", game_dir(tmp_path, extra))
    line = len(BASE.splitlines()) + 2
    column = extra.splitlines()[1].index('"') + 2
    assert f"game.yaml:{line}:{column}: rules text nested too deeply" in err, err
    assert max(map(len, err.splitlines())) < 200  # the source line is cut around the caret


def test_a_scenario_expectation_of_20000_terms(tmp_path, capsys):
    root = game_dir(tmp_path)
    (root / "scenarios").mkdir()
    (root / "scenarios" / "big.yaml").write_text(
        "scenario: {title: big, players: 2}\nsteps:\n  - expect: \"" + " + ".join(["1"] * 20_000) + " > 0\"\n")
    code, out, err = interpret(capsys, "test", root)
    assert code == 1
    assert "big.yaml:3:14: rules text nested too deeply" in out, out


@pytest.mark.parametrize("text", ["[" * 100_000, '{"game": "tic-tac-toe", "players": 2, "seed": 1}\n{"action": '
                                  + "[" * 100_000 + "}", "{" * 100_000])
def test_a_log_of_100000_nested_brackets(tmp_path, capsys, text):
    log = tmp_path / "deep.log"
    log.write_text(text)
    code, out, err = interpret(capsys, "replay", log)
    assert code == 1, err
    assert "nested too deeply" in err and "deep.log:" in err, err
