"""The `interpret` command, driven as a user would: every subcommand on the mini fixture."""
from __future__ import annotations

import io
import json
import random
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from interpreter.play import cli
from interpreter.engine.game import Game
from interpreter.ruleset.paths import content_dir
from interpreter.play.render import Renderer
from interpreter.analysis.simulate import simulate

MINI = Path(__file__).parent / "fixtures" / "mini"
ROOT = Path(__file__).resolve().parent.parent


def run(capsys, *argv, stdin: str | None = None, monkeypatch=None):
    if stdin is not None:
        monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    code = cli.main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def ranking_lines(out: str) -> list[str]:
    """The `Game over` line, then the ranking's first three lines (after the outcome and the count)."""
    lines = out.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("Game over after"))
    first = next(i for i in range(start, len(lines)) if lines[i].startswith("  1. "))
    return [lines[start]] + lines[first:first + 3]


@pytest.fixture
def broken(tmp_path):
    def make(old: str, new: str) -> Path:
        folder = tmp_path / "broken"
        shutil.copytree(MINI, folder)
        text = (folder / "game.yaml").read_text()
        assert old in text
        (folder / "game.yaml").write_text(text.replace(old, new, 1))
        return folder
    return make


# ---- validate ---------------------------------------------------------------------------

def test_validate_reports_ok_with_a_summary(capsys):
    code, out, err = run(capsys, "validate", MINI)
    assert code == 0, err
    assert out.startswith("OK Mini: 1 file, 8 cards (2 kinds), 3 actions, 1 trigger, 2-3 players")
    assert err == ""


def test_validate_points_at_a_rules_error_with_a_caret(capsys, broken):
    folder = broken("effect: who.score += n", "effect: who.scor += n")
    code, out, err = run(capsys, "validate", folder)
    assert code == 1
    assert "game.yaml:27:17: `scor` is not a variable" in err
    assert "^" in err and "did you mean `score`?" in err
    assert "Traceback" not in err + out


def test_validate_points_at_a_yaml_syntax_error(capsys, broken):
    folder = broken("  spent: {}", "  spent: {")
    code, _, err = run(capsys, "validate", folder)
    assert code == 1
    assert "game.yaml:" in err and "YAML syntax error" in err


def test_validate_checks_the_render_section(capsys, broken):
    folder = broken("bonus {p.bonus}", "bonus {p.bonsu}")
    code, _, err = run(capsys, "validate", folder)
    assert code == 1
    assert "game.yaml:" in err and "`bonsu`" in err and "did you mean `bonus`?" in err


def test_validate_in_a_subprocess_never_shows_a_traceback(broken):
    folder = broken("limit: 1", "limit: one")
    proc = subprocess.run([sys.executable, "-m", "interpreter.play.cli", "validate", str(folder)],
                          capture_output=True, text=True, cwd=ROOT)
    assert proc.returncode == 1
    assert "game.yaml:" in proc.stderr and "/actions/roll/limit" in proc.stderr
    assert "Traceback" not in proc.stderr + proc.stdout


def test_validate_of_a_missing_folder_says_so(capsys, tmp_path):
    code, _, err = run(capsys, "validate", tmp_path / "nowhere")
    assert code == 1
    assert "no such game folder" in err


# ---- play ---------------------------------------------------------------------------------

def test_play_auto_finishes_and_prints_a_ranking(capsys):
    code, out, err = run(capsys, "play", MINI, "--auto", "--seed", 3)
    assert code == 0, err
    assert "seed 3" in out and "── round 1 ──" in out
    ranking = ranking_lines(out)
    assert ranking[1].startswith("  1. p") and ranking[2].startswith("  2. p")
    assert "winner" in ranking[1]


def test_play_without_a_terminal_makes_every_seat_a_bot(capsys, monkeypatch):
    code, out, _ = run(capsys, "play", MINI, "--seed", 1, stdin="", monkeypatch=monkeypatch)
    assert code == 0
    assert "(random), p2 Player 2 (random)" in out and "Game over after" in out


def test_play_is_deterministic_for_a_seed(capsys):
    _, first, _ = run(capsys, "play", MINI, "--auto", "--seed", 11, "--players", 3)
    _, second, _ = run(capsys, "play", MINI, "--auto", "--seed", 11, "--players", 3)
    assert first == second


def test_log_and_replay_reach_the_same_result(capsys, tmp_path):
    log = tmp_path / "game.jsonl"
    code, played, _ = run(capsys, "play", MINI, "--auto", "--seed", 5, "--players", 3, "--option", "goal=8",
                          "--log", log)
    assert code == 0
    header = json.loads(log.read_text().splitlines()[0])
    assert header["seed"] == 5 and header["players"] == 3 and header["options"] == {"goal": "8"}
    code, replayed, err = run(capsys, "replay", log)
    assert code == 0, err
    assert ranking_lines(replayed) == ranking_lines(played)
    assert "The replay reaches the recorded result." in replayed
    # the move lines are the same too
    moves = [line for line in played.splitlines() if line[:5].strip().isdigit()]
    assert moves and moves == [line for line in replayed.splitlines() if line[:5].strip().isdigit()]


def test_replay_reads_a_single_json_document(capsys, tmp_path):
    log = tmp_path / "game.jsonl"
    run(capsys, "play", MINI, "--auto", "--seed", 2, "--log", log)
    lines = [json.loads(x) for x in log.read_text().splitlines()]
    doc = dict(lines[0], actions=[x["action"] for x in lines[1:-1]], result=lines[-1]["result"])
    single = tmp_path / "game.json"
    single.write_text(json.dumps(doc, indent=2))
    code, out, err = run(capsys, "replay", single)
    assert code == 0, err
    assert "The replay reaches the recorded result." in out


def test_replay_of_a_tampered_log_names_the_line_and_the_reason(capsys, tmp_path):
    log = tmp_path / "game.jsonl"
    run(capsys, "play", MINI, "--auto", "--seed", 4, "--log", log)
    lines = log.read_text().splitlines()
    entry = json.loads(lines[1])
    entry["action"] = "take r9c9"
    lines[1] = json.dumps(entry)
    log.write_text("\n".join(lines) + "\n")
    code, _, err = run(capsys, "replay", log)
    assert code == 1
    assert f"{log}:2:1: `take r9c9` is refused: r9c9 is not a possible cell now" in err
    assert "Traceback" not in err


def test_a_game_left_half_way_keeps_a_log_that_replays_so_far(capsys, monkeypatch, tmp_path):
    log = tmp_path / "left.jsonl"
    code, out, _ = run(capsys, "play", MINI, "--seed", 6, "--seat", "1=human", "--log", log,
                       stdin="take r1c1\ntake r2c2\nq\ny\n", monkeypatch=monkeypatch)
    assert code == 0 and "Game stopped after 2 decisions: you left the game." in out
    code, out, err = run(capsys, "replay", log)
    assert code == 0, err
    assert "The log ends after 2 decisions, before the end of the game." in out
    assert "take from r1c1" in out and "take from r2c2" in out


def test_replay_of_a_file_that_is_not_a_log(capsys, tmp_path):
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"game": "x", "players": 2, "seed": 1}\nnot json\n')
    code, _, err = run(capsys, "replay", bad)
    assert code == 1
    assert f"{bad}:2:1: not JSON" in err


# ---- a human at the keyboard -------------------------------------------------------------------

def test_a_refused_move_says_why(capsys, monkeypatch):
    code, out, _ = run(capsys, "play", MINI, "--seed", 1, "--seat", "1=human",
                       stdin="take r9c9\n99\ndance\n?\nq\ny\n", monkeypatch=monkeypatch)
    assert code == 0
    assert "Refused: r9c9 is not a possible cell now (possible: r1c1" in out
    assert "There is no choice 99: type a choice's letter and number, as listed (a1-c1)." in out
    assert "Refused: no action `dance` in this game" in out
    assert "Type the number of a choice" in out
    assert "Game stopped after 0 decisions: you left the game." in out


def test_a_human_plays_a_whole_game_by_number_and_by_text(capsys, monkeypatch):
    code, out, err = run(capsys, "play", MINI, "--seed", 1, "--seat", "2=human",
                         stdin="take r1c1\n" + "1\ndone\n" * 100, monkeypatch=monkeypatch)
    assert code == 0, err
    assert "p2 Player 2 (you)" in out and "Your choices:" in out
    assert "Game over after" in out


def test_hot_seat_hands_the_keyboard_over_between_humans(capsys, monkeypatch):
    code, out, _ = run(capsys, "play", MINI, "--seed", 1, "--seat", "1=human", "--seat", "2=human",
                       stdin="\ndone\n\nq\ny\n", monkeypatch=monkeypatch)
    assert code == 0
    assert "p1 Player 1, your turn: press Enter" in out and "p2 Player 2, your turn: press Enter" in out
    assert "p2 Player 2 (you)" in out


def test_input_that_ends_early_stops_the_game(capsys, monkeypatch):
    code, out, _ = run(capsys, "play", MINI, "--seed", 1, "--seat", "1=human", stdin="1\n",
                       monkeypatch=monkeypatch)
    assert code == 1
    assert "the input ended before the game did" in out


def test_the_human_sees_only_what_its_seat_may_see():
    game = Game.load(str(MINI), players=2)
    r = Renderer(game)
    st = game.new_game(seed=1)
    assert "bag    2 cards" in r.screen(st, 1)  # a hidden pile shows its count only
    for text in ("take r1c1", "take r1c2", "done"):  # p1 fills its purse, owner-only
        game.apply_in_place(st, text)
    own, other = r.screen(st, 0), r.screen(st, 1)
    assert "purse: (2) coin, coin" in own.split("p2 Player 2")[0]
    assert "purse: 2 cards" in other.split("p2 Player 2")[0]
    assert "in your purse: 2 points" in own


def test_a_cell_template_draws_the_board_and_empty_cells(broken):
    folder = broken('grid: {width: 6, empty: "."}', 'grid: {cell: "{cell.card}{cell.marked}", empty: "_"}')
    game = Game.load(str(folder), players=2)
    st = game.new_game(seed=1)
    for text in ("take r1c1", "take r1c2", "take r1c3"):  # the bag is empty after two
        game.apply_in_place(st, text)
    board = Renderer(game).screen(st, 0).split("\n\n")[1].splitlines()
    assert board[0].split() == ["│", "1", "2", "3"]
    row1 = board[2].split()
    assert row1[:2] == ["1", "│"] and row1[4] == "_"
    assert all(c in ("coin", "gem") for c in row1[2:4])


def test_moves_of_others_never_name_a_card_the_human_cannot_see(capsys, monkeypatch):
    secrets = MINI.parent / "secrets"  # every kind of visibility; `bury` and `lock` hide a card
    hidden_moves = 0
    for seed in range(1, 6):
        code, out, _ = run(capsys, "play", secrets, "--seed", seed, "--seat", "1=human", stdin="pass\n1\n" * 100,
                           monkeypatch=monkeypatch)
        assert code == 0 and "Game over after" in out
        for line in out.splitlines():
            if ". p2 Player 2: bury" in line or ". p2 Player 2: lock" in line:
                hidden_moves += 1
                assert line.endswith(" a card")
        assert "p2 Player 2\n    hand: (" not in out  # only a count of the other hand
    assert hidden_moves > 0


# ---- simulate ------------------------------------------------------------------------------

def test_simulate_prints_a_summary(capsys):
    code, out, err = run(capsys, "simulate", MINI, "--games", 30, "--seed", 1, "--players", 3, "--check")
    assert code == 0, err
    assert "30 games of Mini, 3 players" in out and "games/s" in out and "decisions/s" in out
    assert "average length:" in out and "rounds" in out
    for seat in ("p1", "p2", "p3"):
        assert any(line.startswith(seat) for line in out.splitlines())


def test_simulate_json_counts_every_win(capsys):
    code, out, _ = run(capsys, "simulate", MINI, "-n", 40, "--json")
    assert code == 0
    d = json.loads(out)
    assert d["games"] == 40 and len(d["seats"]) == 2
    assert sum(s["wins"] for s in d["seats"]) == 40 + d["shared_wins"]


def test_simulated_game_i_is_the_game_play_auto_shows_for_its_seed(capsys):
    game = Game.load(str(MINI), players=3)
    (result,) = simulate(game, games=1, seed=9).results
    _, out, _ = run(capsys, "play", MINI, "--auto", "--seed", 9, "--players", 3)
    assert f"Game over after {result.decisions} decisions" in out
    first = ranking_lines(out)[1]
    assert first.startswith(f"  1. p{result.ranking[0] + 1} ") and f"score {result.scores[result.ranking[0]]}" in first


def test_a_simulated_game_that_does_not_end_is_reported_with_its_seed(capsys):
    code, _, err = run(capsys, "simulate", MINI, "-n", 3, "--seed", 4, "--max-decisions", 5)
    assert code == 1
    assert "game with seed 4, after 5 decisions: the game did not end within 5 decisions" in err
    assert f"interpret play {MINI} --auto --seed 4 --players 2" in err


def test_bots_do_not_use_the_global_random_generator():
    game = Game.load(str(MINI), players=2)
    random.seed(1)
    a = [(r.decisions, r.scores) for r in simulate(game, games=10, seed=7).results]
    random.seed(2)
    b = [(r.decisions, r.scores) for r in simulate(game, games=10, seed=7).results]
    assert a == b


# ---- the command line itself -----------------------------------------------------------------

@pytest.mark.parametrize("argv", [
    ["play", MINI, "--seat", "9=human"],
    ["play", MINI, "--seat", "1=wizard"],
    ["play", MINI, "--auto", "--seat", "1=human"],
    ["simulate", MINI, "--option", "goal"],
    ["simulate", MINI, "--games", "0"],
])
def test_usage_errors_exit_2(capsys, argv):
    code, _, err = run(capsys, *argv)
    assert code == 2
    assert "error:" in err and "Traceback" not in err


def test_argparse_errors_exit_2(capsys):
    with pytest.raises(SystemExit) as e:
        cli.main(["simulate"])
    assert e.value.code == 2
    assert "GAME" in capsys.readouterr().err


def test_content_errors_from_options_exit_1(capsys):
    code, _, err = run(capsys, "play", MINI, "--auto", "--option", "gaol=3")
    assert code == 1
    assert "unknown option `gaol`" in err and "did you mean `goal`?" in err
    code, _, err = run(capsys, "play", MINI, "--auto", "--players", 7)
    assert code == 1 and "played by 2 to 3 players, not 7" in err


def test_an_internal_error_is_reported_without_traceback(capsys, monkeypatch):
    def boom(path, variants=()):
        raise RuntimeError("kaput")
    from interpreter.play import validate
    monkeypatch.setattr(validate, "validate_game", boom)
    code, _, err = run(capsys, "validate", MINI)
    assert code == 3
    assert "internal error: RuntimeError: kaput" in err and "Traceback" not in err
    with pytest.raises(RuntimeError):
        cli.main(["--debug", "validate", str(MINI)])


@pytest.mark.skipif(not (content_dir() / cli.DEFAULT_GAME).is_dir(), reason="no bundled default game")
def test_the_default_game_plays_and_validates(capsys):
    code, out, err = run(capsys, "play", "--auto", "--quiet", "--seed", 1)
    assert code == 0, err
    assert out.startswith("Game over after")
    code, out, err = run(capsys, "validate", cli.DEFAULT_GAME)
    assert code == 0, err


def test_the_command_skips_the_last_garbage_collections_at_exit():
    """`interpret` freezes the garbage collector when the process exits (its last collections would
    walk every object of the loaded game for nothing); the disk cache is still written before."""
    probe = ("import atexit, gc, sys\n"
             "atexit.register(lambda: print('frozen', gc.get_freeze_count() > 0))\n"
             "from interpreter.play.cli import main\n"
             "sys.exit(main(['validate', 'tic-tac-toe']))\n")
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip().endswith("frozen True"), out.stdout
