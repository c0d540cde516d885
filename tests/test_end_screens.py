"""Every bundled game plays to its end screen, whose texts come from content (render.points,
render.end, tie-breaks): a rule error there would only show at the very end of a game."""
from __future__ import annotations

import pytest

from tests.hardening import interpret

GAMES = ["dark-agent", "agent-dog", "agents-secrets", "tic-tac-toe", "connect-four", "kuhn-poker", "leduc-poker"]


@pytest.mark.parametrize("game", GAMES)
def test_an_automatic_game_reaches_its_end_screen(capsys, game):
    code, out, err = interpret(capsys, "play", game, "--auto", "--seed", "3", seconds=60)
    assert code == 0, err
    assert "score" in out
