"""Issue 32's Done-when, item 2: "the resume of a tampered log never plays a move `replay` would
refuse, and never runs longer than the command line allows". Each tampering of a saved game is
given to both commands: `play --resume` refuses what `replay` refuses, at the same line and for
the same reason, before anything plays and without changing the file; and a log naming searches
far over the command line's limits resumes within them (the limits lowered here, so that the
test is quick: without the cut, the resume runs past the CPU timer)."""
from __future__ import annotations

import json

import pytest

from interpreter.play import common
from tests.fuzzing import interpret as timed
from tests.hardening import interpret


@pytest.fixture(scope="module")
def started(tmp_path_factory):
    """The lines of a connect-four game stopped after 6 decisions (bots only)."""
    from interpreter.play import cli
    path = tmp_path_factory.mktemp("saved") / "started.jsonl"
    assert cli.main(["play", "connect-four", "--auto", "--seed", "4", "-q", "--log", str(path),
                     "--max-decisions", "6"]) == 1
    return path.read_text(encoding="utf-8").splitlines()


def _edit(lines, i, **changes):
    entry = json.loads(lines[i])
    entry.update(changes)
    lines[i] = json.dumps(entry)


TAMPERINGS = {  # name -> (how the lines change, whether `replay` refuses the log)
    "another seat": (lambda lines: _edit(lines, 2, player="p1"), True),
    "no such action": (lambda lines: _edit(lines, 4, action="drop 99"), True),
    "not an action": (lambda lines: _edit(lines, 2, action=""), True),
    "moved": (lambda lines: lines.insert(1, lines.pop(2)), True),
    "doubled": (lambda lines: lines.insert(3, lines[3]), True),
    "another game": (lambda lines: lines.__setitem__(0, json.dumps({**json.loads(lines[0]), "game": "tic-tac-toe"})),
                     True),
    "a column filled": (lambda lines: [_edit(lines, i, action="drop 1") for i in range(1, 7)], False),
    "another seed": (lambda lines: lines.__setitem__(0, json.dumps({**json.loads(lines[0]), "seed": 5})), False),
    "untouched": (lambda lines: None, False),
}


@pytest.mark.parametrize("name", list(TAMPERINGS))
def test_resume_refuses_what_replay_refuses_at_the_same_line(tmp_path, capsys, started, name):
    tamper, refused = TAMPERINGS[name]
    lines = list(started)
    tamper(lines)
    path = tmp_path / "saved.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    before = path.read_bytes()
    replayed = interpret(capsys, "replay", path, "-q", seconds=30)
    resumed = interpret(capsys, "play", "--resume", path, "-q", seconds=30)
    assert (replayed[0] == 1) == refused, replayed
    if not refused:  # the game resumes, plays to its end, and `replay` accepts what it wrote
        assert resumed[0] == 0, resumed[2]
        assert interpret(capsys, "replay", path, "-q", seconds=30)[0] == 0
        return
    refusal = [line for line in replayed[2].splitlines() if line.startswith("error: ")][0].removeprefix("error: ")
    assert resumed[0] == 1 and refusal in resumed[2], (refusal, resumed[2])
    assert path.read_bytes() == before


@pytest.mark.parametrize("seats", [["mcts:100000000000", "ismcts:99999s"],  # no workers: without the cut,
                                   ["ismcts:100000000000", "greedy:100000000000"]])  # a timer, not a fork bomb
def test_resume_never_searches_longer_than_the_command_line_allows(tmp_path, started, monkeypatch, seats):
    monkeypatch.setattr(common, "MAX_ITERATIONS", 30)
    monkeypatch.setattr(common, "MAX_SECONDS", 0.05)
    monkeypatch.setattr(common, "MAX_WORKERS", 1)
    head = {**json.loads(started[0]), "seats": seats}
    path = tmp_path / "saved.jsonl"
    path.write_text("\n".join([json.dumps(head)] + started[1:]) + "\n", encoding="utf-8")
    o = timed("saved", 0, ["play", "--resume", path, "-q"])  # a 10 s CPU timer
    assert o.problem == "" and o.code == 0, (o.problem, o.err[-600:])
    assert "it resumes with" in o.err
