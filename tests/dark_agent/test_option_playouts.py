"""Random 4-player games at every level, with all 16 agencies, field powers and both optional
objectives: every game ends and the invariants hold at every step (issue: Dark Agent complete)."""
from __future__ import annotations

import os
import random

import pytest

from interpreter.engine.game import Game

SEEDS = range(int(os.environ.get("INTERPRET_PLAYOUTS", "3")))
OPTIONS = {"agencies": "all", "field_powers": True, "optional_objectives": True, "rounds": 12}


@pytest.fixture(scope="module")
def games():
    return {level: Game.load("dark-agent", players=4, options={**OPTIONS, "level": level})
            for level in ("debutant", "moyen", "averti")}


@pytest.mark.parametrize("level", ["debutant", "moyen", "averti"])
def test_full_game_playouts(games, level):
    g = games[level]
    played = set()
    for seed in SEEDS:
        st = g.new_game(seed)
        rng = random.Random(seed)
        for step in range(5000):
            if g.is_terminal(st):
                break
            action = rng.choice(g.legal_actions(st))
            played.add(action.name)
            g.apply_in_place(st, action)
            bad = g.check_invariants(st)
            assert not bad, f"{level} seed {seed} step {step} after {action}: {bad}"
        assert g.is_terminal(st), f"{level} seed {seed}: no end"
    assert {"target", "attack", "end_turn"} <= played
