"""Rules help in the rulebook's words: every card and every move of the seed games carries its
player-facing text (content `text:`, with its section), and `? NAME` shows that text, in the table's
language, never YAML or rules-language code with file:line:col."""
from __future__ import annotations

import re

import pytest

from interpreter import Game, i18n
from interpreter.play.helpdesk import describe
from interpreter.play.render import Renderer
from interpreter.ruleset.loader import load_ruleset

SEED_GAMES = ["dark-agent", "agents-secrets", "agent-dog"]
# how each rulebook names its parts: Dark Agent by §, the other two by their headings
CITES = {"dark-agent": r"§\d", "agents-secrets": r"Setup|Effects of ACTION Cards|Turn Structure|Hunt for the Double",
         "agent-dog": r"[A-ZÉ]{4,}|1\. Distribution"}
CODE = re.compile(r"\.yaml:\d|\bprops:|\beffect:|\bon \w+ when\b|\{[a-z_.]+\}")


@pytest.mark.parametrize("game", SEED_GAMES)
def test_every_card_and_move_has_its_rulebook_text(game):
    rs = load_ruleset(game, language="en")
    missing = [f"cards.{k}" for k, v in rs.cards.items() if not str(v.get("text") or "").strip()]
    missing += [f"actions.{k}" for k, v in rs.actions.items() if not str(v.get("text") or "").strip()]
    assert missing == []
    uncited = [k for k, v in list(rs.cards.items()) + list(rs.actions.items())
               if not re.search(CITES[game], str(v["text"]))]
    assert uncited == [], "each text cites the rulebook's section"


def _help(game, name, *, players=4, seed=3, viewer=0):
    g = Game.load(game, players=players)
    r = Renderer(g)
    return describe(g, r, g.new_game(seed=seed), viewer, name)


def test_kara_in_the_rulebook_words():
    text = _help("dark-agent", "kara")
    assert text.startswith("KARA\n")
    assert "Kara, the Dark Agent, at the head of the UTE: level 6, defence 25 + 1 die" in " ".join(text.split())
    assert "KARA: in r3c4" in text  # where she is now, as the board names the cell
    assert not CODE.search(text), text


def test_kara_in_french():
    i18n.set_language("fr")
    try:
        text = _help("dark-agent", "kara")
    finally:
        i18n.set_language("en")
    assert "Kara, le Dark Agent, à la tête de l'UTE : niveau 6, défense 25 + 1 dé" in " ".join(text.split())
    assert "En ce moment :" in text
    assert not CODE.search(text), text


def test_a_move_by_its_name_or_its_first_words():
    attack = _help("dark-agent", "attack")
    assert attack.startswith("attack\n") and "§6 Attack a card you have targeted" in attack
    assert not CODE.search(attack), attack
    assert "§3 Finish" in _help("dark-agent", "end the turn")


def test_a_card_by_the_name_the_board_shows():
    text = _help("agent-dog", "Départ 13")
    assert text.startswith("Départ 13\n") and "Départ 13: move a pawn exactly 13 squares" in " ".join(text.split())
    spy = _help("dark-agent", "S2")
    assert "S2/p1: in spies of Anne" in spy


def test_what_the_viewer_cannot_see_is_only_counted():
    text = _help("agents-secrets", "Tueur", players=4)
    assert "you cannot see" in text
    assert ": in " not in text  # no card of the hidden hands is placed


def test_nothing_named_so():
    assert _help("dark-agent", "gem").startswith("Nothing named `gem` in Dark Agent")
