"""§16 « 5 à 10 joueurs » (variants/expansion-5-10.yaml): random playouts for 5 to 10 players, alone and
with the no-dice (§15.1) and teams (§13) variants. At every step the content's invariants hold, and
explicitly « jamais plus de 3 satellites par colonne » (§4.1) on every column of the wider board;
every game ends. Bounded: two seeds per player count (the second at Averti with the Spécial and the
Casier), one with each other variant, so the suite stays fast."""
from __future__ import annotations

import functools
from pathlib import Path

import pytest

from interpreter.engine.game import Game
from interpreter.ruleset.loader import load_ruleset
from interpreter.definition.build import build_definition

VARIANTS = Path(__file__).resolve().parents[2] / "content" / "dark-agent" / "variants"
MAX_STEPS = 5000
COUNTS = range(5, 11)
SEED_OPTIONS = {0: {}, 1: {"level": "averti", "optional_objectives": True}}


@functools.lru_cache(maxsize=None)
def ruleset(variants: tuple):
    return load_ruleset("dark-agent", variants=variants)


def game(players: int, variants: tuple, options: tuple = ()) -> Game:
    return Game(build_definition(ruleset(variants), players, dict(options) or None))


def space_cells(g):
    return [c for c in g.m.cells if "space" in c.tags]


def playout(g: Game, seed: int) -> dict:
    from conftest import play_checked
    n = g.num_players
    columns = n + 3                                      # §16: 8 columns at 5 players ... 13 at 10
    spaces = space_cells(g)
    assert len(g.m.columns) == columns and len(spaces) == columns

    def at_most_three(st, action, step):
        over = [c.key for c in spaces if len(st["z"][c.id]) > 3]
        assert not over, f"seed {seed} step {step} after {action}: more than 3 satellites in {over} (§4.1)"
    st, _ = play_checked(g, seed, max_steps=MAX_STEPS, each=at_most_three)
    assert g.is_terminal(st)
    assert sorted(g.ranking(st)) == list(range(n))
    placed = sum(len(st["z"][c.id]) for c in spaces)
    assert placed == 3 * n                               # §16: no neutral satellite, 3 per player
    return st


@pytest.mark.parametrize("players", COUNTS)
@pytest.mark.parametrize("seed", sorted(SEED_OPTIONS))
def test_expansion_playouts(players, seed):
    playout(game(players, ("expansion-5-10",), tuple(SEED_OPTIONS[seed].items())), seed)


@pytest.mark.parametrize("players", COUNTS)
def test_expansion_with_no_dice_playouts(players):
    g = game(players, ("expansion-5-10", "no-dice"))
    assert not any(c.name == "lance_roquettes" for c in g.m.cards)     # §15.1 still takes them all out
    playout(g, players)


TEAM_SIZES = {5: 2, 6: 3, 7: 3, 8: 4, 9: 2, 10: 5}       # §13.1: complete teams, or a smaller last one


@pytest.mark.skipif(not (VARIANTS / "teams.yaml").exists(), reason="variants/teams.yaml not written yet")
@pytest.mark.parametrize("players", COUNTS)
def test_expansion_with_teams_playouts(players):
    g = game(players, ("expansion-5-10", "teams"), (("team_size", TEAM_SIZES[players]),))
    playout(g, 100 + players)
