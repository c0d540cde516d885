"""Issue 32: a path no file can have (a NUL character, a lone surrogate, a name over 255 bytes) given
to any option that names a file or a folder ends with a clear error and exit 1 (a usage error, 2,
for learn-eval's own checks), never a traceback, and nothing is written. A process's arguments
cannot hold a NUL; a caller in Python (`cli.main`) can, and the check is made there, before any
command runs."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.hardening import interpret

ROOT = Path(__file__).resolve().parent.parent

COMMANDS = [  # {} is the impossible path
    ["play", "--resume", "{}"],
    ["play", "tic-tac-toe", "--auto", "-q", "--log", "{}"],
    ["play", "tic-tac-toe", "--auto", "-q", "--log-seat", "1", "{}"],
    ["replay", "{}"],
    ["validate", "{}"],
    ["validate", "tic-tac-toe", "--variant", "{}"],
    ["analyze", "tic-tac-toe", "--games", "2", "--out", "{}"],
    ["learn-eval", "tic-tac-toe", "--from", "{}"],
    ["learn-eval", "tic-tac-toe", "--games", "4", "--out", "{}"],
    ["schema", "--out", "{}"],
    ["new", "variant", "v", "--base", "tic-tac-toe", "--out", "{}"],
    ["test", "{}"],
]


def _argv(command, path):
    return [path if word == "{}" else word for word in command]


@pytest.mark.parametrize("command", COMMANDS, ids=lambda c: " ".join(c[:2]))
@pytest.mark.parametrize("path", ["a\0b.jsonl", "a\ud800b", "sub/a\0"], ids=["nul", "surrogate", "nul-at-end"])
def test_an_impossible_character_in_a_path_is_a_clear_error(tmp_path, capsys, monkeypatch, command, path):
    monkeypatch.chdir(tmp_path)
    code, out, err = interpret(capsys, *_argv(command, path), seconds=30)
    assert code == 1 and "an argument cannot hold a NUL character" in err, (code, err)
    assert "Traceback" not in err and "internal error" not in err
    assert list(tmp_path.iterdir()) == []  # nothing written


@pytest.mark.parametrize("command", COMMANDS, ids=lambda c: " ".join(c[:2]))
def test_a_name_too_long_for_a_file_is_a_clear_error(tmp_path, capsys, monkeypatch, command):
    monkeypatch.chdir(tmp_path)
    code, out, err = interpret(capsys, *_argv(command, "x" * 300), seconds=30)
    assert code in (1, 2) and ("too long" in err or "at most 255 bytes" in err), (code, err)
    assert "Traceback" not in err and "internal error" not in err
    assert list(tmp_path.iterdir()) == []


def test_a_name_of_bytes_that_are_not_utf8_through_the_real_command(tmp_path):
    """A file name a shell can give but UTF-8 cannot read (b'\\xff'): refused or written, never a traceback."""
    name = os.fsdecode(b"saved-\xff.jsonl")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    run = subprocess.run([sys.executable, "-m", "interpreter", "replay", name], cwd=tmp_path, env=env,
                         capture_output=True, timeout=120)
    assert run.returncode == 1 and b"cannot read the log" in run.stderr and b"Traceback" not in run.stderr
