"""Ruling AS1: Agents Secrets is played by 4 to 12. Setup 2 deals each company its DOUBLE AGENT card among
as many AGENT cards as it has players: with 3, the KGB's only player would be its double agent and nobody
would play for the KGB. From 4, both companies have a loyal member."""
from __future__ import annotations

import pytest

from interpreter.engine.game import Game
from interpreter.errors import ContentError


def test_three_players_are_refused():
    with pytest.raises(ContentError) as info:
        Game.load("agents-secrets", players=3)
    (problem,) = info.value.problems
    assert problem.message == "Agents Secrets is played by 4 to 12 players, not 3"


@pytest.mark.parametrize("players", range(4, 13))
def test_both_companies_have_a_loyal_member(players):
    g = Game.load("agents-secrets", players=players)
    st = g.new_game(seed=players)
    while st["pending"]:
        st = g.apply(st, g.legal_actions(st)[0])
    for company in ("cia", "kgb"):
        loyal = f'length(members("{company}") where not is_double(it))'
        assert g.evaluate(st, loyal) >= 1
        assert g.evaluate(st, f'length(members("{company}") where is_double(it))') == 1
