"""Issue 32, items 5 and 7: silent wrong results of the command line and the display. A closed
output pipe keeps the command's exit code; `--log` and `--log-seat` on one file are refused before
anything is written; a display text whose rules fail shows a plain sentence to the player and its
position to the designer; the OpenSpiel string form of the docs loads."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.hardening import BASE, POSITION, game_dir, interpret

ROOT = Path(__file__).resolve().parent.parent


def _closed_pipe(argv, cwd) -> int:
    """The exit code of `interpret ARGV` whose output pipe is closed before it writes anything
    (`... 2>&1 | head -0`: the reader has gone by the time the command speaks)."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen([sys.executable, "-m", "interpreter", *map(str, argv)], cwd=cwd, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
    proc.stdout.close()
    return proc.wait(timeout=120)


def test_a_closed_pipe_keeps_the_exit_code_of_a_failed_command(tmp_path):
    broken = game_dir(tmp_path, base=BASE.replace("copies: 3", "copies: three"))
    assert _closed_pipe(["validate", broken], ROOT) == 1


def test_a_closed_pipe_keeps_the_exit_code_of_a_successful_command():
    assert _closed_pipe(["play", "tic-tac-toe", "--auto", "--seed", "1"], ROOT) == 0


def test_a_pipe_closed_after_the_first_line(tmp_path):
    """`interpret validate BROKEN 2>&1 | head -1`, literally."""
    broken = game_dir(tmp_path, base=BASE.replace("copies: 3", "copies: three"))
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    for _ in range(3):
        proc = subprocess.run(["bash", "-o", "pipefail", "-c",
                               f"{sys.executable} -m interpreter validate {broken} 2>&1 | head -1"],
                              cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
        assert proc.returncode == 1 and proc.stdout.count("\n") == 1, proc


def test_a_stream_closed_by_its_owner_during_a_command_ends_it_quietly():
    """A command whose stdout its own library closed (a language server on `exit`) ends without a
    traceback: the last flush finds the stream closed and leaves it."""
    import io

    from interpreter.play.pipes import pipes_may_close
    saved = sys.stdout
    sys.stdout = io.TextIOWrapper(io.BytesIO())
    try:
        with pipes_may_close():
            print("said before it closed")
            sys.stdout.buffer.close()
    finally:
        sys.stdout = saved


@pytest.mark.parametrize("seat_file", ["F", "sub/../F"])
def test_the_log_and_a_seat_account_in_one_file_are_refused_before_writing(tmp_path, capsys, seat_file):
    (tmp_path / "sub").mkdir()
    log = tmp_path / "F"
    code, out, err = interpret(capsys, "play", "tic-tac-toe", "--auto", "-q", "--log", log, "--log-seat", "1",
                               tmp_path / seat_file, "--force")
    assert code == 2 and "name the same file" in err, err
    assert not log.exists()
    log.write_text("an earlier game\n")
    code, out, err = interpret(capsys, "play", "tic-tac-toe", "--auto", "-q", "--log", log, "--log-seat", "1",
                               tmp_path / seat_file, "--force")
    assert code == 2 and log.read_text() == "an earlier game\n", err


def test_two_seat_accounts_in_one_file_and_a_seat_out_of_range(tmp_path, capsys):
    log, g = tmp_path / "F", tmp_path / "G"
    code, out, err = interpret(capsys, "play", "tic-tac-toe", "--auto", "-q", "--log", log,
                               "--log-seat", "1", g, "--log-seat", "2", g)
    assert code == 2 and "--log-seat 1 and --log-seat 2 name the same file" in err and not log.exists(), err
    code, out, err = interpret(capsys, "play", "tic-tac-toe", "--auto", "-q", "--log", log, "--log-seat", "3", g)
    assert code == 2 and "seats are 1 to 2" in err and not log.exists(), err
    code, out, err = interpret(capsys, "play", "tic-tac-toe", "--auto", "-q", "--log", log,
                               "--log-seat", "1", g, "--log-seat", "2", tmp_path / "H")
    assert code == 0 and log.exists() and g.exists() and (tmp_path / "H").exists(), err


FAILING_TEXTS = """functions:
  deep: {params: [n], expr: "deep(n + 1)"}
  big: {params: [n], expr: "length([1] * 3000000)"}
render:
  status: ["round {round}: {deep(1)} and {big(1)}"]
"""


def test_a_display_text_that_fails_shows_a_plain_sentence_and_tells_the_designer(tmp_path, capsys):
    root = game_dir(tmp_path, FAILING_TEXTS)
    code, out, err = interpret(capsys, "play", root, "--auto", "--seed", "1", seconds=30)
    assert code == 0, err
    assert "(cannot be shown) and (cannot be shown)" in out, out
    assert "Error" not in out and "BudgetExceeded" not in out and "<" not in out, out
    status = next(i for i, line in enumerate((BASE + FAILING_TEXTS).splitlines(), 1) if "status:" in line)
    assert f"game.yaml:{status}:" in err and "recurse too deeply" in err and "limit `collection`" in err, err


def test_validate_finds_a_display_text_that_fails_on_the_first_screen(tmp_path, capsys):
    root = game_dir(tmp_path, FAILING_TEXTS)
    code, out, err = interpret(capsys, "validate", root, seconds=30)
    status = next(i for i, line in enumerate((BASE + FAILING_TEXTS).splitlines(), 1) if "status:" in line)
    assert code == 1 and err.count("this text of the display cannot be shown") == 2, err
    assert f"game.yaml:{status}:" in err and POSITION.search(err), err


def test_the_openspiel_string_form_of_the_docs():
    pyspiel = pytest.importorskip("pyspiel")
    import interpreter.adapters.openspiel  # noqa: F401  (registers the game, as docs/observation.md says)
    game = pyspiel.load_game("interpret(game=dark-agent,options=level=moyen)")
    assert game.interpret.m.options["level"] == "moyen" and game.num_players() == 4
    documented = pyspiel.load_game("interpret(game=dark-agent,players=4,variants=teams+no-dice)")
    assert documented.num_players() == 4
    two = pyspiel.load_game("interpret(game=dark-agent,players=2,options=level=averti+rounds=6)")
    assert two.interpret.m.options["rounds"] == 6 and two.num_players() == 2
    assert str(pyspiel.load_game("tic_tac_toe")) == "tic_tac_toe()"  # other games as before
    with pytest.raises(ValueError, match="not a parameter"):
        pyspiel.load_game("interpret(gmae=dark-agent)")


def test_a_game_name_no_file_can_have_in_openspiel():
    pyspiel = pytest.importorskip("pyspiel")
    import interpreter.adapters.openspiel  # noqa: F401
    from interpreter.errors import ContentError
    with pytest.raises(ContentError, match="at most 255 bytes"):
        pyspiel.load_game("interpret", {"game": "a" * 300})
    with pytest.raises(ContentError, match="at most 255 bytes"):
        pyspiel.load_game(f"interpret(game={'a' * 300})")
