"""Random playouts of every game in content/: every game ends, invariants hold at every step.

At each step: the content's declared invariants and the engine's own (each card in
exactly one zone, capacities), a clone and a JSON round-trip equal to the state,
and applying to a clone leaves the original untouched. At the end: replaying the
same seed and actions gives the same final state, bit for bit.
"""
from __future__ import annotations

import os
import random

import pytest

from interpreter.engine import Game, clone, from_json, to_json
from interpreter.loader import load_ruleset
from interpreter.paths import content_dir

GAMES = sorted(p.name for p in content_dir().iterdir() if (p / "game.yaml").exists())
MAX_STEPS = 5000


def cases():
    for name in GAMES:
        rs = load_ruleset(name)
        lo, hi = rs.player_range
        for players in range(lo, hi + 1):
            yield name, players


@pytest.fixture(scope="module")
def playout_seeds():
    """4 seeds per game and player count; INTERPRET_PLAYOUTS=N for a longer soak."""
    return range(int(os.environ.get("INTERPRET_PLAYOUTS", "4")))


@pytest.fixture(scope="module")
def games():
    return {}


def _game(games, name, players):
    if (name, players) not in games:
        games[(name, players)] = Game.load(name, players=players)
    return games[(name, players)]


@pytest.mark.parametrize("name,players", list(cases()))
def test_random_playouts_keep_invariants(games, name, players, playout_seeds):
    g = _game(games, name, players)
    for seed in playout_seeds:
        rng = random.Random(seed)
        st = g.new_game(seed)
        actions = []
        for step in range(MAX_STEPS):
            if g.is_terminal(st):
                break
            legal = g.legal_actions(st)
            assert legal, f"seed {seed} step {step}: no legal action in a live game ({g.step_name(st)})"
            action = rng.choice(legal)
            before = to_json(st)
            new = g.apply(st, action)
            assert to_json(st) == before, "apply changed its input"
            st = new
            actions.append(action)
            bad = g.check_invariants(st)
            assert not bad, f"seed {seed} step {step} after {action}: {bad}"
            if step % 7 == 0:
                assert from_json(to_json(st)) == st
                assert clone(st) == st
        else:
            pytest.fail(f"seed {seed}: no end after {MAX_STEPS} decisions")
        assert g.is_terminal(st)
        ranking = g.ranking(st)
        assert sorted(ranking) == list(range(players))
        # determinism: same seed, same actions, same game
        again = g.new_game(seed)
        for a in actions:
            g.apply_in_place(again, a)
        assert to_json(again) == to_json(st)
