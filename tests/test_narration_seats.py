"""Narration per viewer in `interpret play` (issue 11 item 4): hot seat narrates for the table
until a player takes the keyboard, `--log` says it holds the spoilers, `--log-seat` writes one
seat's own account."""
from __future__ import annotations

import json
import subprocess
import sys


def _play(tmp_path, *args, stdin=""):
    return subprocess.run([sys.executable, "-m", "interpreter", "play", *args], cwd=tmp_path, input=stdin,
                          capture_output=True, text=True, timeout=300)


def test_log_header_says_it_holds_the_spoilers(tmp_path):
    r = _play(tmp_path, "agents-secrets", "--players", "4", "--auto", "--seed", "3", "--quiet", "--log", "g.jsonl")
    assert r.returncode == 0, r.stderr
    header = json.loads((tmp_path / "g.jsonl").read_text(encoding="utf-8").splitlines()[0])
    assert "full information" in header["spoilers"]
    assert subprocess.run([sys.executable, "-m", "interpreter", "replay", "g.jsonl"], cwd=tmp_path,
                          capture_output=True, text=True, timeout=300).returncode == 0


def test_a_seats_account_names_only_what_that_seat_saw(tmp_path):
    r = _play(tmp_path, "agents-secrets", "--players", "4", "--auto", "--seed", "3", "--quiet",
              "--log-seat", "2", "p2.txt", "--log-seat", "3", "p3.txt")
    assert r.returncode == 0, r.stderr
    p2 = (tmp_path / "p2.txt").read_text(encoding="utf-8")
    p3 = (tmp_path / "p3.txt").read_text(encoding="utf-8")
    mine = [line for line in p2.splitlines() if ". p2 Boris: play " in line]
    assert mine and all("a card" not in line for line in mine)  # its own moves in full
    theirs = [line for line in p2.splitlines() if ". p3 Carol: play" in line]
    # the others' choices are secret (a simultaneous step): neither the card nor the destination
    assert theirs and all("play: a secret choice" in line for line in theirs)
    assert p2 != p3
    assert _play(tmp_path, "agents-secrets", "--players", "4", "--auto", "--log-seat", "2", "p2.txt").returncode == 1
    assert _play(tmp_path, "agents-secrets", "--players", "4", "--auto", "--log-seat", "9", "x.txt").returncode == 2


def test_hot_seat_narrates_for_the_table_before_anyone_takes_the_keyboard(tmp_path):
    # seats 1 and 2 are bots and move first; 3 and 4 are humans who quit at once
    r = _play(tmp_path, "agents-secrets", "--players", "4", "--seed", "3", "--seat", "1=random",
              "--seat", "2=random", "--seat", "3=human", "--seat", "4=human", stdin="\nq\ny\n")
    before = r.stdout.split("your turn: press Enter")[0]
    bot_moves = [line for line in before.splitlines() if ": play" in line]
    assert bot_moves and all("play: a secret choice" in line for line in bot_moves), before
