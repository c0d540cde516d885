"""The web table tells the designer, in the server's log, the display texts whose rules failed
(the players read "(cannot be shown)"), once each with its position, when the game ends, as
`interpret play` does at the terminal (issue 32, item 5)."""
from __future__ import annotations

import logging

from interpreter.engine.game import Game
from interpreter.serve.table import Seat, Table
from tests.hardening import BASE, game_dir
from tests.test_hardening2_cli import FAILING_TEXTS


def test_a_failing_display_text_is_told_in_the_servers_log_at_the_end(tmp_path, caplog):
    root = game_dir(tmp_path, FAILING_TEXTS)
    game = Game.load(str(root))
    seats = [Seat("human", f"token-of-seat-{i}-xxxxxxxx") for i in range(game.num_players)]
    table = Table(tid="t1", game=game, ref="g", variants=[], options={}, seed=1, seats=seats, timer=None, lang="en")
    assert "(cannot be shown)" in str(table.picture(0))
    with caplog.at_level(logging.WARNING, logger="interpret.serve"):
        while not table.over():
            assert not caplog.records  # told at the end, not at each drawing
            table.play(game.legal_actions(table.st)[0])
    status = next(i for i, line in enumerate((BASE + FAILING_TEXTS).splitlines(), 1) if "status:" in line)
    lines = [r.getMessage() for r in caplog.records]
    assert len(lines) == 2, lines  # the two failing pieces, once each, however many times drawn
    assert all(f"game.yaml:{status}:" in line and line.startswith("table t1 (g): warning:") for line in lines), lines
    assert any("recurse too deeply" in line for line in lines) and any("limit `collection`" in line for line in lines)
