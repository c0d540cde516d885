"""`interpret play` in a real pseudo-terminal (pexpect): a French table (`--lang fr`: the content's
texts and the interface's), and `? kara` answered with the rulebook's text, in either language."""
from __future__ import annotations

import os
import re
import sys

import pytest

from tests.terminal_keys import first_key  # noqa: E402

pexpect = pytest.importorskip("pexpect")

# the choice prompt, whatever its keys and language (other work changes them)
PROMPT = r"(your choice|votre choix) \([^)]*\) ?: "
WHICH = r"(which one|lequel) \([^)]*\) ?: "
CODE = re.compile(r"\.yaml:\d|\bprops:|\btags:|\bon \w+ when\b")


def spawn(tmp_path, *args, lang_env="C.UTF-8"):
    env = dict(os.environ, XDG_STATE_HOME=str(tmp_path / "state"), NO_COLOR="1", PYTHONUNBUFFERED="1",
               LANG=lang_env, LANGUAGE="", LC_ALL="", LC_MESSAGES="")
    return pexpect.spawn(sys.executable, ["-m", "interpreter", "play", *map(str, args)], env=env,
                         encoding="utf-8", timeout=90, dimensions=(60, 160))


def ask(p, line: str) -> str:
    """At the next prompt, type `line`; what the game printed before the following prompt."""
    p.expect([PROMPT, WHICH])
    p.sendline(line)
    p.expect([PROMPT, WHICH])
    out = p.before
    p.sendline("l")  # answer the prompt just reached with something harmless: the choices again
    return out


def leave(p, *, prompted: bool = False):
    """Leave the game (it is saved), at the next prompt or at the one just `prompted`."""
    if not prompted:
        p.expect([PROMPT, WHICH])
    for line, then in (("q", r"\((y/N|o/N)\) "), ("y", pexpect.EOF)):
        p.sendline(line)
        p.expect(then)


def test_a_french_game_of_dark_agent(tmp_path):
    p = spawn(tmp_path, "dark-agent", "--lang", "fr", "--seed", 3, "--bots", "random", "--log", tmp_path / "g.jsonl")
    p.expect([PROMPT, WHICH])
    screen = p.before
    assert "premier joueur : " in screen and "jeton dernier objectif : " in screen  # the content's status line
    assert "votre ATK : " in screen and "first player" not in screen
    p.sendline("rules")
    p.expect("§3 Un tour a 3 étapes :")
    p.expect("La partie s'arrête quand les objectifs convenus sont remportés")
    help_text = ask(p, "? kara")
    flat = " ".join(help_text.split())
    assert "Kara, le Dark Agent, à la tête de l'UTE : niveau 6, défense 25 + 1 dé" in flat
    assert "En ce moment :" in help_text and "KARA : dans r3c4" in help_text
    assert not CODE.search(help_text), help_text
    for _ in range(40):  # on to the first turn: the choices are the content's French labels
        i = p.expect([PROMPT, WHICH])
        if re.search(r"[a-z]+\d+\+?\. (cibler|déplacer un satellite|échanger le satellite|terminer le tour)", p.before):
            break
        p.sendline(first_key(p.before))
    else:
        pytest.fail("no French move listed in 40 decisions")
    leave(p, prompted=True)


def test_the_locale_chooses_french(tmp_path):
    p = spawn(tmp_path, "agent-dog", "--seed", 2, "--bots", "random", "--log", tmp_path / "g.jsonl",
              lang_env="fr_FR.UTF-8")
    p.expect([PROMPT, WHICH])
    assert "donneur : " in p.before and "dealer:" not in p.before
    leave(p, prompted=True)


def test_kara_in_the_rulebook_words(tmp_path):
    p = spawn(tmp_path, "dark-agent", "--seed", 3, "--bots", "random", "--log", tmp_path / "g.jsonl")
    help_text = ask(p, "? kara")
    flat = " ".join(help_text.split())
    assert flat.startswith("? kara KARA §1.1, §6.2 Kara, the Dark Agent, at the head of the UTE") or \
        "KARA §1.1, §6.2 Kara, the Dark Agent, at the head of the UTE" in flat, help_text
    assert "Now:" in help_text and "KARA: in r3c4" in help_text
    assert not CODE.search(help_text), help_text
    attack = ask(p, "? attack")
    assert "§6 Attack a card you have targeted (§6.1)" in " ".join(attack.split())
    assert not CODE.search(attack), attack
    leave(p)


# the interface's fixed words of a game at the terminal, each translated in the French catalogue
ENGLISH = ("your turn", "to play (", "Your choices", "Game over", "turn of", "round ", "Legend:", "seats:",
           "(you)", "empty", "Leave the game?", "Cannot undo", "Type the number of a choice", "the board again",
           "a secret choice", "players, seed", "type ? for help", "saved as it goes", "Log written")


def test_a_french_game_shows_no_english_word_of_the_interface(tmp_path):
    """A whole game of tic-tac-toe in French, with help, an undo refused, a leave declined: none of the
    interface's English words on any screen, from the first line to the end screen."""
    p = spawn(tmp_path, "tic-tac-toe", "--lang", "fr", "--seed", 4, "--bots", "random", "--log", tmp_path / "g.jsonl")
    seen = []
    for line in ("?", "u", "q", "legend"):
        p.expect(PROMPT)
        seen.append(p.before)
        p.sendline(line)
        if line == "q":  # leave? no
            p.expect(r"\((y|o)/N\) ")
            seen.append(p.before)
            p.sendline("n")
    for _ in range(20):
        if p.expect([PROMPT, pexpect.EOF]) == 1:
            break
        seen.append(p.before)
        keys = re.findall(r"^\s+([a-z]+\d+)\. ", p.before, re.M)
        p.sendline(keys[0] if keys else "l")  # the first choice listed (`l`: list them again)
    else:
        pytest.fail("tic-tac-toe did not end in 20 lines typed")
    seen.append(p.before)
    text = "".join(seen)
    assert "votre tour" in text and "Vos choix" in text and "Partie terminée" in text, text
    found = [word for word in ENGLISH if word in text]
    assert not found, (found, text)
