"""Hot seat through a real pseudo-terminal: two humans at one keyboard (`--seat 1,2=human`). When the
first one's decisions are done, the terminal is wiped, scrollback included, and nothing printed after
that (read from the pty's whole output) shows their identity, their hand or their secret move; the
save says whose secrets it holds, at the start and when resumed, and only its owner may read the file."""
from __future__ import annotations

import io
import os
import re
import sys

import pytest

from tests.terminal_keys import first_key, listed  # noqa: E402

pexpect = pytest.importorskip("pexpect")

PROMPT = r"your choice \([^)]*\): "
ERASE_SCROLLBACK = "\033[3J"  # what makes the handoff safe: the screen alone is not enough


def spawn(tmp_path, *args):
    env = dict(os.environ, XDG_STATE_HOME=str(tmp_path / "state"), NO_COLOR="1", PYTHONUNBUFFERED="1")
    p = pexpect.spawn(sys.executable, ["-m", "interpreter", "play", *map(str, args)], env=env,
                      encoding="utf-8", timeout=90, dimensions=(60, 140))
    p.logfile_read = io.StringIO()  # everything the pty printed, from the start
    return p


def seat_block(screen: str, name: str) -> list[str]:
    """The lines of a seat's block in the players' list, from its name line to the next seat's."""
    lines = screen.splitlines()
    start = next(i for i, line in enumerate(lines) if re.match(rf"^[▶ ] p\d {name}\b", line))
    out = [lines[start]]
    for line in lines[start + 1:]:
        if not line.startswith("    "):
            break
        out.append(line.strip())
    return out


def test_the_handoff_wipes_the_scrollback_and_two_humans_play(tmp_path):
    log = tmp_path / "hot.jsonl"
    p = spawn(tmp_path, "agents-secrets", "--players", 4, "--seed", 3, "--seat", "1,2=human", "--bots", "random",
              "--log", log)
    p.expect(r"holds every seat's secrets.*?it is for p1 Alice, p2 Boris")
    p.expect(r"p1 Alice, your turn: press Enter")
    p.sendline("")
    p.expect(PROMPT)
    mine = p.before
    identity, hand = [line for line in seat_block(mine, "Alice")[1:3]]
    assert identity.startswith("identity: (1) ") and hand.startswith("hand: (3) "), mine
    secret_identity = identity.split(") ", 1)[1]
    move = listed(mine)[0][1]
    p.sendline(first_key(mine))
    p.expect(r"p1 Alice: press Enter to hide your game")
    p.sendline("")
    p.expect(r"p2 Boris, your turn: press Enter")
    p.sendline("")
    p.expect(PROMPT)
    p.sendline(first_key(p.before))  # the second human plays too
    p.expect(r"p2 Boris: press Enter to hide your game")
    p.sendline("")
    p.expect([r"p1 Alice, your turn: press Enter", r"p2 Boris, your turn: press Enter"])
    p.sendline("")
    p.expect(PROMPT)
    p.sendline("q")
    p.expect(r"\(y/N\) ")
    p.sendline("y")
    p.expect(pexpect.EOF)
    transcript = p.logfile_read.getvalue()
    assert transcript.count(ERASE_SCROLLBACK) >= 2, "the handoff does not erase the scrollback"
    # what the pty printed after p1's screen was wiped, until p2's was: p2's turn, as the terminal keeps it
    after = transcript.split(ERASE_SCROLLBACK)[1]
    theirs = seat_block(after.split("Your choices:")[0], "Boris")
    assert theirs[2] != hand, "the two hands read the same: choose another seed"
    assert "p2 Boris (you)" in after
    for secret in (hand, f"identity: (1) {secret_identity}", "Alice (you)", f"p1 Alice: {move}"):
        assert secret not in after, f"{secret!r} can still be read after the handoff"

    assert log.stat().st_mode & 0o077 == 0, "the hot-seat save is readable by other users of the machine"
    r = spawn(tmp_path, "--resume", log)
    r.expect(r"this saved game holds every seat's secrets; it belongs to p1 Alice, p2 Boris")
    r.kill(9)
