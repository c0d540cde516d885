"""Issue 12, item 5: replay logs have a schema (schemas/log.schema.json); corrupted logs give a
positioned, clear error and exit 1, never an internal error."""
from __future__ import annotations

import json

import pytest

from interpreter.play.replay import read_log
from tests.hardening import interpret


@pytest.fixture(scope="module")
def good(tmp_path_factory):
    from interpreter.play import cli
    path = tmp_path_factory.mktemp("logs") / "good.log"
    assert cli.main(["play", "tic-tac-toe", "--auto", "--seed", "3", "-q", "--log", str(path)]) == 0
    return path.read_text(encoding="utf-8").splitlines()


def write(tmp_path, lines, name="bad.log"):
    path = tmp_path / name
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def header(lines, **changes):
    head = json.loads(lines[0])
    head.update(changes)
    return [json.dumps(head)] + lines[1:]


@pytest.mark.parametrize("changes, says", [
    ({"options": ["a"]}, "`options`: ['a'] is not of type 'object'"),
    ({"variants": 5}, "`variants`: 5 is not of type 'array'"),
    ({"variants": "teams"}, "`variants`: 'teams' is not of type 'array'"),
    ({"seats": 5}, "`seats`: 5 is not of type 'array'"),
    ({"result": [1]}, "`result`: [1] is not of type 'object'"),
    ({"seed": True}, "`seed`: True is not of type 'integer'"),
    ({"players": "2"}, "`players`: '2' is not of type 'integer'"),
    ({"players": 99}, "the log's `players`"),
    ({"players": 3}, "the log's `players`: Tic-tac-toe is played by 2 to 2 players, not 3"),
    ({"game": "/no/such/game"}, "the log's `game`: no such game folder"),
    ({"options": {"nope": 1}}, "the log's `options`: unknown option `nope`"),
])
def test_a_bad_header_is_reported_at_its_key(tmp_path, capsys, good, changes, says):
    path = write(tmp_path, header(good, **changes))
    code, out, err = interpret(capsys, "replay", path)
    assert code == 1, err
    assert says in err, err
    key = next(iter(changes))
    column = path.read_text().splitlines()[0].index(f'"{key}"') + 1
    assert f"bad.log:1:{column}:" in err, err


def test_a_header_without_its_keys(tmp_path, capsys):
    path = write(tmp_path, ['{"game": "tic-tac-toe", "seed": 1}'])
    code, out, err = interpret(capsys, "replay", path)
    assert code == 1 and "bad.log:1:1: the log's header has no `players`" in err, err


@pytest.mark.parametrize("line, says", [
    ('{"result": [1]}', "the result line: `result`"),
    ('{"n": 1, "action": 5}', "an action line: `action`: 5"),
    ('{"n": 1, "action": "play r1c1", "extra": 1}', "Additional properties"),
    ("[1, 2]", "expected a JSON object"),
])
def test_a_bad_line_is_reported_at_its_line(tmp_path, capsys, good, line, says):
    path = write(tmp_path, good[:3] + [line])
    code, out, err = interpret(capsys, "replay", path)
    assert code == 1, err
    assert says in err and "bad.log:4:" in err, err


@pytest.mark.parametrize("encoding", ["utf-16", "utf-32"])
def test_a_log_in_another_encoding(tmp_path, capsys, good, encoding):
    path = tmp_path / "wide.log"
    path.write_bytes("\n".join(good).encode(encoding))
    code, out, err = interpret(capsys, "replay", path)
    assert code == 1 and "wide.log:1:1: the log is not UTF-8 text" in err, err


def test_a_binary_file(tmp_path, capsys):
    path = tmp_path / "binary.log"
    path.write_bytes(bytes(range(256)) * 8)
    code, out, err = interpret(capsys, "replay", path)
    assert code == 1 and "binary.log:" in err and ("not UTF-8" in err or "NUL" in err), err


def test_the_good_log_still_replays_and_keeps_where_its_keys_are(tmp_path, capsys, good):
    path = write(tmp_path, good, "good.log")
    code, out, err = interpret(capsys, "replay", path, "-q")
    assert code == 0, err
    rec = read_log(path)
    assert rec.where["players"].line == 1 and rec.where["players"].column > 1


def test_the_log_schema_is_written_by_interpret_schema(tmp_path, capsys):
    code, out, err = interpret(capsys, "schema", "--out", tmp_path / "schemas")
    assert code == 0
    schema = json.loads((tmp_path / "schemas" / "log.schema.json").read_text())
    assert set(schema["$defs"]) >= {"header", "action", "result"}


@pytest.mark.parametrize("device", ["/dev/full", "/dev/zero"])
def test_a_device_that_never_ends_is_not_read_for_ever(capsys, device, monkeypatch):
    """Found by the fuzz suite: `replay /dev/full` read zeros until the memory ran out."""
    import os

    from interpreter.play import replay
    if not os.path.exists(device):
        pytest.skip(f"needs {device}")
    monkeypatch.setattr(replay, "MAX_LOG_BYTES", 2 ** 20)
    code, out, err = interpret(capsys, "replay", device)
    assert code == 1 and "larger than" in err, err


def test_a_variant_or_a_scenario_that_is_a_device(capsys, monkeypatch):
    import os

    from interpreter.ruleset import yamlio
    if not os.path.exists("/dev/zero"):
        pytest.skip("needs /dev/zero")
    monkeypatch.setattr(yamlio, "MAX_YAML_BYTES", 2 ** 20)
    code, out, err = interpret(capsys, "validate", "tic-tac-toe", "--variant", "/dev/zero")
    assert code == 1 and "larger than 1 MB" in err, err
