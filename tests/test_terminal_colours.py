"""Choosing your colour (Agent DOG, Mise en place: « Chaque joueur choisit une couleur »; variant
couleurs-au-choix, ruling D22) through a real pseudo-terminal: at the table among the colours not yet
taken, or from the command line with `--choose N=COLOUR`; the colour is a quarter of the board."""
from __future__ import annotations

import os
import sys

import pytest

pexpect = pytest.importorskip("pexpect")

PROMPT = r"your choice \([^)]*\): "


def spawn(tmp_path, *args):
    env = dict(os.environ, XDG_STATE_HOME=str(tmp_path / "state"), NO_COLOR="1", PYTHONUNBUFFERED="1")
    return pexpect.spawn(sys.executable, ["-m", "interpreter", "play", "agent-dog", *map(str, args)], env=env,
                         encoding="utf-8", timeout=90, dimensions=(60, 140))


def leave(p):
    p.sendline("q")
    p.expect(r"\(y/N\) ")
    p.sendline("y")
    p.expect(pexpect.EOF)


def test_the_colour_is_chosen_at_the_table_among_those_left(tmp_path):
    p = spawn(tmp_path, "-V", "couleurs-au-choix", "--seed", 2, "--bots", "random", "--log", tmp_path / "g.jsonl")
    p.expect(PROMPT)
    offered = p.before.split("Your choices:")[-1]
    assert all(f"choose your colour: {c}" in offered for c in ("rouge", "bleu", "vert", "jaune")), offered
    p.sendline("choose your colour: vert")
    p.expect(r"p1 Anne: choose your colour: vert")
    p.expect(r"p2 Bob: choose your colour: (rouge|bleu|jaune)")
    p.expect(PROMPT)  # the first round: Anne's pawns are green, the third quarter of the board (row 3)
    assert "you move the vert pawns" in p.before, p.before
    assert "vert: home 0/4, start zone 3" in p.before.split("p1 Anne (you)")[-1].split("p2 Bob")[0], p.before
    leave(p)


def test_the_colour_is_chosen_from_the_command_line(tmp_path):
    p = spawn(tmp_path, "-V", "couleurs-au-choix", "--seed", 2, "--bots", "random", "--choose", "1=jaune",
              "--choose", "2=rouge", "--log", tmp_path / "g.jsonl")
    p.expect(r"p1 Anne: choose your colour: jaune \(chosen on the command line\)")
    p.expect(r"p2 Bob: choose your colour: rouge \(chosen on the command line\)")
    p.expect(PROMPT)
    assert "you move the jaune pawns" in p.before, p.before
    leave(p)
