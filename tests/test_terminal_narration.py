"""`interpret play` through a real pseudo-terminal (pexpect): the causes of what happens told (a
Média set off by the Earth turning, a die changed by a Lance-roquettes), a lasting mark drawn on
the board, and the recap of the others' moves just above the board before the player's choices,
with a pause before a forced move that ends the turn."""
from __future__ import annotations

import random
import re
import signal

import pytest

from tests.terminal_keys import first_key  # noqa: E402

pexpect = pytest.importorskip("pexpect")

from tests.test_terminal_sessions import spawn  # noqa: E402  (after the skip without pexpect)

PROMPT = r"your choice \([^)]*\): "
WHICH = r"which one \([^)]*\): "


def saved_game(tmp_path, *, seed: int, decisions: int, human: int):
    """A Dark Agent game saved after `decisions` random moves (random.Random(seed) over the legal
    actions, the listing order being pinned by the golden logs), seat `human` played at the
    keyboard from there: (the log to resume, the state reached)."""
    from interpreter.engine.game import Game
    from interpreter.play.replay import LogWriter
    g = Game.load("dark-agent")
    st = g.new_game(seed=seed)
    rng = random.Random(seed)
    path = tmp_path / "saved.jsonl"
    seats = ["random"] * g.num_players
    seats[human] = "human"
    log = LogWriter(path, game="dark-agent", players=g.num_players, options={}, seed=seed, seats=seats)
    for _ in range(decisions):
        p = g.current_player(st)
        action = rng.choice(g.legal_actions(st))
        log.action(g.seats[p].key if p is not None else None, action)
        g.apply_in_place(st, action)
    log.close()
    assert g.current_player(st) == human
    return path, g, st


def prompt(p) -> str:
    p.expect([PROMPT, WHICH])
    return p.before


def test_a_media_set_off_by_the_earth_turning_is_told_with_its_cause(tmp_path):
    """§5.2: the Canada's power turns the Earth; the Média arrives on a cell Dan targeted and
    activates. The table is told why, not a Média choosing cards out of nowhere."""
    path, g, st = saved_game(tmp_path, seed=2, decisions=33, human=3)
    assert "canada" in {a.name for a in g.legal_actions(st)}
    p = spawn(tmp_path, "--resume", path)
    screen = prompt(p)
    assert "Maître de paix: rotate the theatre" in screen
    p.sendline("Maître de paix: rotate the theatre")
    p.expect(r"§3 the Earth turns")
    p.expect(r"MEDIA arrives on r\dc\d, which Dan targeted: it activates \(§5\.2\)")
    screen = prompt(p)
    assert "Média: take a card" in screen
    p.kill(signal.SIGKILL)


def test_a_die_changed_by_a_lance_roquettes_is_shown_as_rolled_and_counted(tmp_path):
    """§8.2 Lance-roquettes: the lowest die of the next roll becomes a 6; the attack's dice show the
    change (`3, 1→6, 6, 6`)."""
    path, g, st = saved_game(tmp_path, seed=8, decisions=204, human=0)
    p = spawn(tmp_path, "--resume", path)
    screen = prompt(p)
    assert "play Lance-roquettes" in screen
    p.sendline("play Lance-roquettes")
    screen = prompt(p)
    attack = re.search(r"^\s+[a-z]+\d+\+?\. (attack \S+ in r\dc\d \(ATK \d+\))\r?$", screen, re.M)
    assert attack, screen
    p.sendline(attack.group(1))
    p.expect(r"§6\.3 Anne attacks [^:\r\n]+: dice ((\d|\d→6), ){3}(\d|\d→6), total \d+ against defence \d+")
    told = p.after
    assert re.search(r"\d→6", told), told
    p.kill(signal.SIGKILL)


def test_the_super_satellite_is_marked_on_the_board(tmp_path):
    """§4.3: a super-satellite makes its column wholly visible for the turn; the board marks the
    column's space cell (◆), explained in the legend."""
    p = spawn(tmp_path, "dark-agent", "--seed", 5, "--bots", "random", "--log", tmp_path / "g.jsonl")
    p.expect("Legend: ")
    p.expect(r"◆ a super-satellite on the column")
    for _ in range(40):
        screen = prompt(p)
        if re.search(r"^0 │ .*◆", screen, re.M):
            pytest.fail("a super-satellite marked before anyone played one")
        choice = re.search(r"^\s+([a-z]+\d+\+?)\. super-satellite on column (\d+)\r?$", screen, re.M)
        if choice:
            p.sendline(choice.group(1))
            break
        p.sendline(first_key(screen))
    else:
        pytest.fail("no super-satellite offered in 40 decisions")
    screen = prompt(p)
    space = re.search(r"^0 │ (.*)$", screen.split("══ Dark Agent")[-1], re.M).group(1)
    cells = re.split(r"\s{2,}", space.strip())
    assert cells[int(choice.group(2)) - 1].endswith("◆"), space
    p.kill(signal.SIGKILL)


def test_the_recap_of_the_others_moves_comes_just_above_the_board(tmp_path):
    """Before the player's choices: what the others did since the player last decided, then the
    board, then the choices; and a forced move that ends the turn waits for the player, the board
    shown, instead of ending the turn by itself."""
    p = spawn(tmp_path, "dark-agent", "--seed", 5, "--bots", "random", "--log", tmp_path / "g.jsonl")
    recap = paused = None
    for _ in range(60):
        screen = prompt(p)
        if "Your turn ends with your only possible move" in screen and paused is None:
            paused = screen.split("Your turn ends with your only possible move")[-1]
        if "since your last decision" in screen and "── round 2 ──" in screen:
            recap = screen
            break
        p.sendline(first_key(screen))
    assert recap, "no recap before the player's choices in round 2"
    after = recap.split("── since your last decision ──")[-1]
    order = [after.index(text) for text in ("p2 Bob: ", "p4 Dan: ", "══ Dark Agent", "Your choices:")]
    assert order == sorted(order), order
    told = after.split("══ Dark Agent")[0]
    assert "p1 Anne:" not in told  # the player's own moves are not told back
    assert re.search(r"p3 Chloé: [^\r\n]*·", told)  # a seat's moves in a row: one line
    assert paused is not None, "no pause before a forced move that ends the turn"
    assert "══ Dark Agent" in paused and re.search(r"^\s+[a-z]+\d+\+?\. end the turn\r?$", paused, re.M)
    p.kill(signal.SIGKILL)
