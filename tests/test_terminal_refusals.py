"""Refusals and choice keys as a player meets them, through a real pseudo-terminal (pexpect).

Dark Agent, seed 1, resumed after the 12 decisions of a game of random bots (so the position is
the same every time): Anne (p1, the human) is at her act step. CONTROL (the Centre de contrôle)
is in r1c1 with a sentinel (T2) next to it in r1c2, and Anne has no engaged spy.
"""
from __future__ import annotations

import json
import os
import re
import subprocess
import sys

import pytest

pexpect = pytest.importorskip("pexpect")

PROMPT = r"your choice \([^)]*\): "
LISTED = r"^\s+([a-z]+\d+\+?)\.\s+(.*?)\r?$"  # a choice as listed: its key, then its label


@pytest.fixture
def anne(tmp_path):
    """The game at Anne's act step, played at the terminal: the pexpect session at her prompt."""
    auto = tmp_path / "auto.jsonl"
    subprocess.run([sys.executable, "-m", "interpreter", "play", "dark-agent", "--seed", "1", "--auto",
                    "--max-decisions", "12", "--log", str(auto), "-q"], capture_output=True, timeout=300)
    head, *moves = auto.read_text().splitlines()
    header = json.loads(head)
    header["seats"] = ["human", "random", "random", "random"]
    log = tmp_path / "anne.jsonl"
    log.write_text("\n".join([json.dumps(header), *moves]) + "\n")
    env = dict(os.environ, XDG_STATE_HOME=str(tmp_path / "state"), NO_COLOR="1", PYTHONUNBUFFERED="1")
    p = pexpect.spawn(sys.executable, ["-m", "interpreter", "play", "--resume", str(log)], env=env,
                      encoding="utf-8", timeout=120, dimensions=(60, 160))
    p.expect(PROMPT)
    assert "target CONTROL in r1c1" in p.before, "the position this test is about changed:\n" + p.before
    yield p
    p.kill(9)


def type_in(p, line: str) -> str:
    """Type `line` at the prompt; what the game answers before its next prompt."""
    p.sendline(line)
    p.expect(PROMPT)
    return p.before.split(line, 1)[-1]


def listed(screen: str) -> dict:
    return {label: key for key, label in re.findall(LISTED, screen.split("Your choices:")[-1], re.M)}


def test_why_a_blocked_attack_names_the_sentinel_its_cell_and_the_missing_spy(anne):
    type_in(anne, "target CONTROL in r1c1")  # a move typed as its label reads
    told = type_in(anne, "why attack CONTROL")  # the objective as the board names it
    assert "`attack CONTROL` is refused:" in told
    assert re.search(r"CONTROL is blocked by T2 on r1c2: [^\r\n]*\(§6\.1\)", told), told
    assert re.search(r"at least one engaged spy [^\r\n]*§6\.1", told), told
    assert "not a possible" not in told and "centre_controle" not in told and "sentinel_2#" not in told


def test_without_an_engaged_spy_a_sentinel_targeted_is_refused_for_that_alone(anne):
    screen = type_in(anne, "target T2 in r1c3")
    told = type_in(anne, "attack T2")  # several sentinels read T2: the one targeted is meant
    assert re.search(r"Refused: an attack needs at least one engaged spy or a double agent \(§6\.1", told), told
    assert "blocked" not in told and "not a target" not in told
    assert "target T2 in r1c3" not in listed(screen)


def test_a_move_typed_by_its_label_when_it_is_no_longer_possible_is_explained(anne):
    type_in(anne, "target CONTROL in r1c1")
    told = type_in(anne, "target CONTROL in r1c1")
    assert "Refused:" in told and "did you mean" not in told and "no action" not in told
    assert "r1c1 is already targeted this turn (§5.1)" in told
    assert "you have no targeting left in column 1" in told


def test_keys_stay_with_their_moves_within_the_turn(anne):
    before = listed(anne.before)
    key = before["target CONTROL in r1c1"]
    after = listed(type_in(anne, key))  # played by its key
    assert "target CONTROL in r1c1" not in after
    kept = set(before) & set(after)
    assert kept and all(after[label] == before[label] for label in kept), (before, after)
    assert key not in after.values()  # a key is never given to another move in the turn
    told = type_in(anne, key)  # typed again: refused with its reasons, never another move played
    assert "`target CONTROL in r1c1` is refused:" in told and "already targeted this turn (§5.1)" in told
    assert "Your choices:" not in told
