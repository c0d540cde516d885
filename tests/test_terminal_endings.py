"""What a player sees through a real pseudo-terminal (pexpect), for issue 27's items 4 and 6:
Agent DOG's cards played face up, the tic-tac-toe draw, and the Agents Secrets final count with
the +7 of the smaller company, each company's vote and every player's missions."""
from __future__ import annotations

import os
import re
import sys

import pytest

pexpect = pytest.importorskip("pexpect")

PROMPT = r"your choice \([^)]*\): "  # whatever the keys look like
WHICH = r"which one \([^)]*\): "
HANDOFF = r"press Enter"  # the last player hides their game, the next takes the keyboard
ITEM = re.compile(r"^\s+([^\s.]+)\. (.+?)\s*$", re.M)


def spawn(tmp_path, *args, timeout=90):
    env = dict(os.environ, XDG_STATE_HOME=str(tmp_path / "state"), NO_COLOR="1", PYTHONUNBUFFERED="1")
    return pexpect.spawn(sys.executable, ["-m", "interpreter", "play", *map(str, args)], env=env,
                         encoding="utf-8", timeout=timeout, dimensions=(60, 160), maxread=200000)


def listed(screen: str) -> list[tuple[str, str]]:
    """The (key, label) of each choice listed last on `screen`."""
    tail = re.split(r"Your choices:|\w[^\r\n]*:\r?\n(?=\s+\S+\. )", screen)[-1]
    return ITEM.findall(tail)


def play_first_choices(p, until: str, *, limit: int = 400) -> str:
    """Answer every prompt with its first choice (by its key) until `until` shows; all that was shown."""
    seen = []
    for _ in range(limit):
        i = p.expect([PROMPT, WHICH, until])
        seen.append(p.before)
        if i == 2:
            seen.append(p.after)
            return "".join(seen)
        choices = listed(p.before)
        assert choices, p.before[-2000:]
        p.sendline(choices[0][0])
    raise AssertionError(f"`{until}` never showed in {limit} decisions")


def test_agent_dog_shows_the_cards_the_others_play_face_up(tmp_path):
    p = spawn(tmp_path, "agent-dog", "--seed", 5, "--bots", "random", "--log", tmp_path / "g.jsonl")
    shown = play_first_choices(p, r"last card played this round: (\d+|Départ 1/11|Départ 13|Échange|Copie|Partenaire)\r?\n")
    # each opponent's play names its card as the board does (« Place cette carte face visible »)
    played = re.findall(r"\d+\. p[234] \w+: ([^:\r\n]+): ", shown)
    assert played and all(card != "?" for card in played), played
    assert re.search(r"p[234] \w+: (\d+|Départ 1/11|Départ 13|Échange|Copie|Partenaire): ", shown)
    assert "last card played this round: ?" not in shown
    # the card given to a partner stays face down for the others
    assert re.search(r"p[234] \w+: give a card to \w+", shown)
    p.kill(9)


def test_a_tic_tac_toe_draw_is_told_as_a_draw(tmp_path):
    """Two players at one keyboard (hot seat) play a game where nobody makes a line."""
    p = spawn(tmp_path, "tic-tac-toe", "--seat", "1=human", "--seat", "2=human", "--seed", 1)
    moves = ["r1c1", "r1c2", "r1c3", "r2c2", "r2c1", "r2c3", "r3c2", "r3c1"]  # then r3c3, the only move left
    for n, cell in enumerate(moves):
        while p.expect([PROMPT, HANDOFF]) == 1:
            p.sendline("")
        p.sendline(f"{'XO'[n % 2]} marks {cell}")  # typed as the move's label
    while (i := p.expect([HANDOFF, PROMPT, r"Game over after 9 decisions"])) < 2:
        p.sendline("" if i == 0 else "X marks r3c3")  # the forced last move waits for its player (recap.py)
    p.expect(pexpect.EOF)
    end = p.before
    assert "A draw: nobody wins." in end
    assert re.search(r"^\s+1\. p1 X\s+score 0\r?$", end, re.M) and re.search(r"^\s+1\. p2 O\s+score 0\r?$", end, re.M)
    assert "seat order" not in end and "winner" not in end


def test_agents_secrets_ends_with_the_full_count(tmp_path):
    """Five players: the KGB has one fewer and gets the +7 (Setup 1, Calculating Victory Points)."""
    p = spawn(tmp_path, "agents-secrets", "--players", 5, "--seed", 4, "--bots", "random",
              "--log", tmp_path / "g.jsonl")
    play_first_choices(p, r"Game over after \d+ decisions")
    p.expect(pexpect.EOF)
    end = p.before
    assert re.search(r"Calculating Victory Points: (the (CIA|KGB) wins the game|a tie)", end)
    assert re.search(r"KGB -?\d+ points: common pot -?\d+ \+ its agents' missions -?\d+ \+ the CIA's double "
                     r"agent's missions -?\d+ \+ 7 \(one player fewer, Setup 1\)", end)
    assert re.search(r"CIA -?\d+ points: common pot", end) and "by destination: Rio " in end
    assert re.search(r"Hunt for the Double Agent, CIA: Alice \d+, Boris \d+, Carol \d+: ", end)
    assert re.search(r"Hunt for the Double Agent, KGB: Dimitri \d+, Eve \d+: ", end)
    for name in ("Alice", "Boris", "Carol", "Dimitri", "Eve"):  # every identity and gain, revealed
        assert re.search(rf"^{name}, (Agent|DOUBLE AGENT) \((CIA|KGB)\): missions ", end, re.M), name
