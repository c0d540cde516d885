"""Issue 32, item 3: a lab folder (`interpret analyze ... --out DIR`) is not trusted when it resumes:
run.json and every line of results.jsonl are checked (schemas/lab.schema.json, a depth limit, the
run itself) before anything is played; a line that does not fit is reported at its line number and
the folder is left as it was; never a KeyError or a RecursionError."""
from __future__ import annotations

import json

import pytest

from tests.hardening import interpret


@pytest.fixture(scope="module")
def lab(tmp_path_factory):
    """A lab folder of 4 tic-tac-toe games: its run.json text and its result lines."""
    from interpreter.play import cli
    out = tmp_path_factory.mktemp("lab") / "out"
    assert cli.main(["analyze", "tic-tac-toe", "--games", "4", "--out", str(out), "-q"]) == 0
    return (out / "run.json").read_text(encoding="utf-8"), (out / "results.jsonl").read_text(encoding="utf-8").splitlines()


def folder(tmp_path, run: str, lines: list[str], *, end: str = "\n"):
    out = tmp_path / "out"
    out.mkdir()
    (out / "run.json").write_text(run, encoding="utf-8")
    (out / "results.jsonl").write_bytes(("\n".join(lines) + end).encode("utf-8"))
    return out


def resume(capsys, out, games: int = 6):
    return interpret(capsys, "analyze", "tic-tac-toe", "--games", games, "--out", out, "-q", seconds=60)


def changed(line: str, **changes) -> str:
    value = json.loads(line)
    value.update(changes)
    return json.dumps(value)


@pytest.mark.parametrize("at, make, says", [
    (2, lambda line: json.dumps({"index": 1}), "'seed' is a required property"),
    (2, lambda line: changed(line, winners="p1"), "`winners`: 'p1' is not of type 'array'"),
    (2, lambda line: changed(line, winners=[7]), "`winners` and `ranking` hold seats 0 to 1"),
    (2, lambda line: changed(line, scores=[1]), "one entry for each of the 2 seats"),
    (2, lambda line: changed(line, lead={"changes": 0}), "`lead`: 'winner_leads_from' is a required property"),
    (3, lambda line: changed(line, index=7), "expected the result of game 2, found game 7"),
    (3, lambda line: changed(line, seed=99), "game 2 was played from seed 2, not 99"),
    (3, lambda line: changed(line, agents=["mcts:5", "random"]), "its `agents` are not those of run.json"),
    (2, lambda line: "[" * 100_000 + "]" * 100_000, "nested more than 16 deep"),
    (2, lambda line: "not json", "not JSON"),
    (2, lambda line: "[1, 2]", "is not of type 'object'"),
])
def test_a_result_line_that_does_not_fit_is_reported_at_its_line_and_kept(tmp_path, capsys, lab, at, make, says):
    run, lines = lab
    lines = list(lines)
    lines[at - 1] = make(lines[at - 1])
    out = folder(tmp_path, run, lines)
    before = (out / "results.jsonl").read_bytes()
    code, _out, err = resume(capsys, out)
    assert code == 1 and f"results.jsonl:{at}: " in err and says in err, err
    assert "Traceback" not in err and "KeyError" not in err
    assert (out / "results.jsonl").read_bytes() == before


@pytest.mark.parametrize("text, says", [
    ("[" * 100_000 + "]" * 100_000, "nested more than 16 deep"),
    ("[]", "is not of type 'object'"),
    ('{"format": 2}', "'game' is a required property"),
    ('{"format": "2", "game": 1, "players": 2, "agents": [], "seed": 0, "max_decisions": 1}', "`format`: '2'"),
    ("\udcff", "not UTF-8"),
])
def test_a_run_file_that_does_not_fit_is_refused(tmp_path, capsys, lab, text, says):
    _run, lines = lab
    out = tmp_path / "out"
    out.mkdir()
    (out / "run.json").write_bytes(text.encode("utf-8", "surrogateescape"))
    code, _out, err = resume(capsys, out)
    assert code == 1 and "run.json: not a run file of `interpret analyze`" in err and says in err, err
    assert not (out / "results.jsonl").exists()


def test_a_line_cut_off_by_an_interrupted_run_is_played_again(tmp_path, capsys, lab):
    run, lines = lab
    out = folder(tmp_path, run, lines[:3] + [lines[3][:20]], end="")
    code, _out, err = resume(capsys, out, games=4)
    assert code == 0, err
    assert (out / "results.jsonl").read_text(encoding="utf-8").splitlines() == lines


def test_learn_eval_reads_a_lab_folder_as_strictly(tmp_path, capsys, lab):
    run, lines = lab
    lines = list(lines)
    lines[1] = "[" * 100_000 + "]" * 100_000
    out = folder(tmp_path, run, lines)
    code, _out, err = interpret(capsys, "learn-eval", "tic-tac-toe", "--from", out, seconds=60)
    assert code == 2 and "results.jsonl:2: nested more than 16 deep" in err, err
