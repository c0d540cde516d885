"""Choosing your agency (Dark Agent §2.2, variant agences-au-choix; ruling R16) through a real
pseudo-terminal: at the table, the human picks it among the offered agencies by its label; from the
command line, `--choose N=NAME` makes seat N's setup choice; a name never offered is reported."""
from __future__ import annotations

import os
import sys

import pytest

from tests.terminal_keys import first_key  # noqa: E402

pexpect = pytest.importorskip("pexpect")

PROMPT = r"your choice \([^)]*\): "


def spawn(tmp_path, *args):
    env = dict(os.environ, XDG_STATE_HOME=str(tmp_path / "state"), NO_COLOR="1", PYTHONUNBUFFERED="1")
    return pexpect.spawn(sys.executable, ["-m", "interpreter", "play", "dark-agent", *map(str, args)], env=env,
                         encoding="utf-8", timeout=90, dimensions=(60, 140))


def leave(p):
    p.sendline("q")
    p.expect(r"\(y/N\) ")
    p.sendline("y")
    p.expect(pexpect.EOF)


def test_the_agency_is_chosen_at_the_table(tmp_path):
    p = spawn(tmp_path, "-V", "agences-au-choix", "--seed", 3, "--bots", "random", "--log", tmp_path / "g.jsonl")
    p.expect(PROMPT)
    offered = p.before.split("Your choices:")[-1]
    assert "choose your agency: Russie — Sans hiérarchie" in offered and "Canada" in offered, offered
    p.sendline("choose your agency: Russie — Sans hiérarchie")
    p.expect(r"p1 Anne: choose your agency: Russie — Sans hiérarchie")
    p.expect(PROMPT)  # the satellites of §2.3, with the agency chosen on the board
    assert "agency: (1) Russie — Sans hiérarchie" in p.before.split("p1 Anne (you)")[-1].split("p2 Bob")[0]
    leave(p)


def test_the_agency_is_chosen_from_the_command_line(tmp_path):
    p = spawn(tmp_path, "-V", "agences-au-choix", "--seed", 3, "--bots", "random", "--choose", "1=norvege",
              "--choose", "3=Canada", "--log", tmp_path / "g.jsonl")
    p.expect(r"p1 Anne: choose your agency: Norvège — Maître hélico \(chosen on the command line\)")
    p.expect(r"p3 Chloé: choose your agency: Canada — Maître de paix \(chosen on the command line\)")
    p.expect(PROMPT)
    assert "agency: (1) Norvège — Maître hélico" in p.before.split("p1 Anne (you)")[-1].split("p2 Bob")[0]
    leave(p)


def test_a_choice_the_setup_never_offers_is_reported(tmp_path):
    p = spawn(tmp_path, "--seed", 3, "--bots", "random", "--choose", "1=russie", "--log", tmp_path / "g.jsonl")
    for _ in range(6):  # the human places their satellites (§2.3): the setup is over after that
        if p.expect([PROMPT, r"--choose 1=russie: Anne was never offered `russie` during the setup"]) == 1:
            break
        p.sendline(first_key(p.before))
    else:
        raise AssertionError("an unused --choose is not reported once the setup is over")
    p.expect(PROMPT)
    leave(p)
