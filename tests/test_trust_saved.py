"""Issue 32, item 1: a saved game is not trusted. `play --resume` checks a log as `replay` does (one
checker, replay.play_back), never lets the log name a longer search than the command line allows,
and never changes a file before accepting it."""
from __future__ import annotations

import json

import pytest

from interpreter.play import session
from tests.hardening import interpret

# The stopped game is played once, on one worker (--dist loadgroup, pyproject.toml)
pytestmark = pytest.mark.xdist_group("test_trust_saved")


@pytest.fixture(scope="module")
def started(tmp_path_factory):
    """The lines of a tic-tac-toe game stopped after 3 decisions (bots only)."""
    from interpreter.play import cli
    path = tmp_path_factory.mktemp("saved") / "started.jsonl"
    assert cli.main(["play", "tic-tac-toe", "--auto", "--seed", "1", "-q", "--log", str(path),
                     "--max-decisions", "3"]) == 1
    return path.read_text(encoding="utf-8").splitlines()


def write(tmp_path, lines, *, end="\n", name="saved.jsonl"):
    path = tmp_path / name
    path.write_bytes(("\n".join(lines) + end).encode("utf-8"))
    return path


def with_header(lines, **changes):
    head = json.loads(lines[0])
    head.update(changes)
    return [json.dumps(head)] + lines[1:]


def test_a_saved_game_resumes_to_its_end_and_replays(tmp_path, capsys, started):
    path = write(tmp_path, started)
    code, out, err = interpret(capsys, "play", "--resume", path, "-q", seconds=60)
    assert code == 0, err
    code, out, err = interpret(capsys, "replay", path, "-q", seconds=60)
    assert code == 0 and "reaches the recorded result" in out, err


@pytest.mark.parametrize("line, player, says", [
    (2, "p2", "`play r2c3` is recorded for p2, but p1 decides here"),
    (3, None, None),  # a line that names no seat is not checked for one (the one-document form)
])
def test_a_line_recorded_for_the_wrong_seat_is_refused_by_replay_and_resume(tmp_path, capsys, started,
                                                                            line, player, says):
    lines = list(started)
    entry = json.loads(lines[line - 1])
    entry["player"] = player
    lines[line - 1] = json.dumps(entry)
    path = write(tmp_path, lines)
    before = path.read_bytes()
    replayed = interpret(capsys, "replay", path, "-q", seconds=60)
    if says is None:
        assert replayed[0] == 0, replayed[2]
        return
    assert replayed[0] == 1 and f"{path}:{line}:1: {says}" in replayed[2], replayed[2]
    resumed = interpret(capsys, "play", "--resume", path, "-q", seconds=60)
    assert resumed[0] == 1 and f"{path}:{line}:1: {says}" in resumed[2], resumed[2]
    assert path.read_bytes() == before


def test_a_text_that_is_not_a_log_is_refused_and_left_as_it_was(tmp_path, capsys):
    for text in (b"some notes\nwithout a final line break", b"one line only", b"{\"game\": 1}\n{\"act"):
        path = tmp_path / "notes.txt"
        path.write_bytes(text)
        code, out, err = interpret(capsys, "play", "--resume", path, "-q")
        assert code == 1, err
        assert path.read_bytes() == text


def test_a_line_cut_off_by_a_crash_goes_only_when_the_game_resumes(tmp_path, capsys, started):
    path = write(tmp_path, started + ['{"n": 4, "player": "p2", "act'], end="")
    code, out, err = interpret(capsys, "play", "--resume", path, "-q", seconds=60)
    assert code == 0, err
    lines = path.read_text(encoding="utf-8").splitlines()
    assert lines[:4] == started and json.loads(lines[4])["n"] == 4 and "result" in lines[-1]
    assert interpret(capsys, "replay", path, "-q", seconds=60)[0] == 0
    refused = with_header(started, seats=["random", "nobody"])
    path = write(tmp_path, refused + ['{"n": 4, "player": "p2", "act'], end="", name="refused.jsonl")
    before = path.read_bytes()
    assert interpret(capsys, "play", "--resume", path, "-q")[0] == 1
    assert path.read_bytes() == before  # refused: not even the cut-off line was cut


def test_a_one_document_log_is_not_continued(tmp_path, capsys, started):
    head = json.loads(started[0])
    head["actions"] = [json.loads(line)["action"] for line in started[1:]]
    path = tmp_path / "doc.json"
    path.write_text(json.dumps(head, indent=1), encoding="utf-8")
    before = path.read_bytes()
    code, out, err = interpret(capsys, "play", "--resume", path, "-q")
    assert code == 1 and "one JSON document" in err, err
    assert path.read_bytes() == before


def test_a_budget_in_a_saved_game_is_cut_to_the_command_lines_limits(tmp_path, capsys, started, monkeypatch):
    """A log naming a search of 10^11 iterations on 10^5 workers resumes with the most the command line
    allows, and says so; the agents are made with those specifications."""
    made = []

    def record(kind, seed):
        made.append(kind)
        return session.RandomAgent(seed)

    monkeypatch.setattr(session, "make_agent", record)
    path = write(tmp_path, with_header(started, seats=["mcts:100000000000@100000", "ismcts:99999s"]))
    code, out, err = interpret(capsys, "play", "--resume", path, "-q", seconds=60)
    assert code == 0, err
    assert made[:2] == ["mcts:1000000@64", "ismcts:60s"], made
    assert "seat 1 of the saved game searches with mcts:100000000000@100000: it resumes with mcts:1000000@64" in err


def test_the_command_line_refuses_a_search_over_its_limits(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(session, "make_agent", lambda kind, seed: session.RandomAgent(seed))  # never searched
    code, out, err = interpret(capsys, "play", "tic-tac-toe", "--seat", "2=mcts:100000000000", "--auto")
    assert code == 2 and "at most 1,000,000 iterations, 60 seconds and 64 workers" in err, err


def test_a_seat_that_names_no_agent_is_refused_at_its_key(tmp_path, capsys, started):
    path = write(tmp_path, with_header(started, seats=["random", "rm -rf"]))
    code, out, err = interpret(capsys, "play", "--resume", path, "-q")
    assert code == 1 and f"{path}:1:" in err and "the log's `seats`: seat 2: no agent 'rm -rf'" in err, err
