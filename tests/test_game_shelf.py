"""The scenario runner's games: loaded once per settings, kept for the most recent few only."""
from pathlib import Path

from interpreter.scenarios.runner import GameShelf

MINI = str(Path(__file__).parent / "fixtures" / "mini")


def test_a_shelf_keeps_its_most_recent_games_only():
    shelf = GameShelf(limit=2)
    two = shelf(MINI, 2, None, ())
    assert shelf(MINI, 2, {}, ()) is two  # the same settings: the same game, not loaded again
    three = shelf(MINI, 3, None, ())
    shelf(MINI, 2, None, ())  # two is the most recent again
    shelf(MINI, 2, {"goal": 7}, ())  # three, the least recent, leaves
    assert len(shelf.games) == 2
    assert shelf(MINI, 3, None, ()) is not three
    assert shelf(MINI, 2, None, ()) is not two  # and two left when three came back
