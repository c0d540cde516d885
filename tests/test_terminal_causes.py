"""`interpret play` through a real pseudo-terminal (pexpect): what the rules do besides a move is
told with what set it off, in Agent DOG and Agents Secrets as in Dark Agent
(test_terminal_narration.py): a pawn sent back to its start zone by whose move or entry, a pawn
turned over on a hole, a MISSION revealed at the start of a turn, the count when the masks fall."""
from __future__ import annotations

import random
import re
import signal

import pytest

pexpect = pytest.importorskip("pexpect")

from tests.terminal_keys import first_key  # noqa: E402
from tests.test_terminal_sessions import spawn  # noqa: E402  (after the skip without pexpect)

PROMPT = r"your choice \([^)]*\): "
WHICH = r"which one \([^)]*\): "


def saved_game(tmp_path, name: str, *, seed: int, decisions: int, human: int, players: int | None = None):
    """A game saved after `decisions` random moves (random.Random(seed) over the legal actions, the
    listing order being pinned by the golden logs), seat `human` played at the keyboard from there:
    (the log to resume, the game, the state reached)."""
    from interpreter.engine.game import Game
    from interpreter.play.replay import LogWriter
    g = Game.load(name, players=players)
    st = g.new_game(seed=seed)
    rng = random.Random(seed)
    path = tmp_path / "saved.jsonl"
    seats = ["random"] * g.num_players
    seats[human] = "human"
    log = LogWriter(path, game=name, players=g.num_players, options={}, seed=seed, seats=seats)
    for _ in range(decisions):
        p = g.current_player(st)
        action = rng.choice(g.legal_actions(st))
        log.action(g.seats[p].key if p is not None else None, action)
        g.apply_in_place(st, action)
    log.close()
    assert g.current_player(st) == human
    return path, g, st


def screen_before_prompt(p) -> str:
    p.expect([PROMPT, WHICH])
    return p.before


def play_move(tmp_path, name: str, *, seed: int, decisions: int, move: str) -> str:
    """Resume the saved game, play `move` (a choice's label) as seat 1, and return what the terminal
    printed until the next choice."""
    path, g, st = saved_game(tmp_path, name, seed=seed, decisions=decisions, human=0)
    p = spawn(tmp_path, "--resume", path)
    screen = screen_before_prompt(p)
    assert move in screen, screen
    p.sendline(move)
    told = screen_before_prompt(p)
    p.kill(signal.SIGKILL)
    return told


def test_a_pawn_taken_by_a_move_is_told_with_whose_move_it_was(tmp_path):
    """SAUTER ET PRENDRE: Anne's Départ ends on an occupied square; the table is told that her move
    sent that pawn back to its start zone (the old log only said "Anne takes a pawn")."""
    told = play_move(tmp_path, "agent-dog", seed=1, decisions=30, move="Départ 1/11: the pawn on r2c16 to r3c1")
    assert re.search(r"SAUTER ET PRENDRE: Anne's move from r2c16 ends on r3c1: the (rouge|bleu|vert|jaune) pawn "
                     r"there goes back to its start zone", told), told


def test_a_pawn_taken_by_a_new_pawn_entering_is_told_with_the_entry(tmp_path):
    """METTRE DE NOUVEAUX PIONS EN JEU and ruling D14: a new pawn entering on its start square takes
    the pawn of another colour standing there."""
    told = play_move(tmp_path, "agent-dog", seed=2, decisions=201, move="Départ 13: a new pawn on r1c1")
    assert re.search(r"METTRE DE NOUVEAUX PIONS EN JEU: a new rouge pawn enters on r1c1: the (bleu|vert|jaune) "
                     r"pawn there goes back to its start zone \(ruling D14\)", told), told


def test_a_pawn_ending_on_a_hole_is_told_turned_over(tmp_path):
    """PIONS INFILTRÉS: the pawn ending on a hole is turned over; the board draws it as ?."""
    told = play_move(tmp_path, "agent-dog", seed=1, decisions=4, move="Départ 1/11: the pawn on r1c1 to r1c12")
    assert ("PIONS INFILTRÉS: the pawn ending on r1c12, a hole, is turned over: its colour is hidden, "
            "and any player may move it") in told, told


def test_the_missions_of_a_new_turn_are_told_as_they_are_revealed(tmp_path):
    """Agents Secrets, Turn Structure 1: at the start of each turn a MISSION is revealed at each
    destination; the table is told which, not only the board redrawn."""
    p = spawn(tmp_path, "agents-secrets", "--seed", 3, "--bots", "random")
    told = ""
    for _ in range(6):  # two secret choices a turn: the second turn begins within a few
        screen = screen_before_prompt(p)
        told += screen
        if "Turn Structure 1" in screen:
            break
        p.sendline(first_key(screen))
    p.kill(signal.SIGKILL)
    assert re.search(r"Turn Structure 1: a MISSION is revealed at each destination: Rio \d, Berlin \d, "
                     r"Casablanca \d, Hong Kong \d", told), told


def test_when_the_masks_fall_the_table_is_told_where_each_double_agents_missions_go(tmp_path):
    """Agents Secrets with 5 players, Hunt for the Double Agent and Calculating Victory Points: after
    the votes, each company's double agent's missions go to no one (designated) or to the other
    company (not designated), and the smaller company's + 7 is told as it is given."""
    from interpreter.engine.game import Game
    g = Game.load("agents-secrets", players=5)
    st, rng, n = g.new_game(seed=4), random.Random(4), 0
    while not (g.step_name(st) == "vote" and g.current_player(st) == 0):
        g.apply_in_place(st, rng.choice(g.legal_actions(st)))
        n += 1
    path, g, st = saved_game(tmp_path, "agents-secrets", seed=4, decisions=n, human=0, players=5)
    p = spawn(tmp_path, "--resume", path)
    screen = screen_before_prompt(p)
    p.sendline(first_key(screen))
    p.expect("Game over after")
    told = p.before
    p.kill(signal.SIGKILL)
    assert "Calculating Victory Points: the KGB has one player fewer: + 7 victory points (Setup 1)" in told, told
    for company in ("CIA", "KGB"):
        assert re.search(rf"Calculating Victory Points: \w+, (designated, was the {company}'s double agent: their "
                         rf"missions \(\d+ points\) count for no one|the {company}'s double agent, was not "
                         rf"designated: their missions \(\d+ points\) count for the (CIA|KGB))", told), told


def test_the_cards_media_sets_aside_are_told_with_where_they_come_from(tmp_path):
    """Dark Agent §9, §5.2: the Earth turns, the Média arrives on a cell Dan targeted and activates;
    the table is told that it takes back 3 cards, then each card it sets aside and the cell it
    leaves (the choice alone named the card)."""
    path, g, st = saved_game(tmp_path, "dark-agent", seed=2, decisions=33, human=3)
    p = spawn(tmp_path, "--resume", path)
    screen_before_prompt(p)
    p.sendline("Maître de paix: rotate the theatre")
    screen = screen_before_prompt(p)
    assert "§9 Média activates: Dan takes back exactly 3 cards of the theatre (never an objective), set aside " \
           "until placed on empty cells" in screen, screen
    p.sendline(first_key(screen))
    screen = screen_before_prompt(p)
    p.kill(signal.SIGKILL)
    assert re.search(r"§9 Média takes \S+ back from r\dc\d: set aside until placed", screen), screen
