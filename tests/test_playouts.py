"""Random playouts of every game in content/: every game ends, invariants hold at every step.

At each step: the content's declared invariants and the engine's own (each card in
exactly one zone, capacities), a clone and a JSON round-trip equal to the state,
and applying to a clone leaves the original untouched. At the end: replaying the
same seed and actions gives the same final state, bit for bit.
"""
from __future__ import annotations

import os

import pytest

from interpreter.engine.game import Game, clone, from_json, to_json
from bundled import cached_ruleset
from interpreter.ruleset.paths import content_dir

GAMES = sorted(p.name for p in content_dir().iterdir() if (p / "game.yaml").exists())
MAX_STEPS = 5000


def cases():
    for name in GAMES:
        rs = cached_ruleset(name)
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
def test_random_playouts_keep_invariants(games, name, players, playout_seeds, checked_playout):
    g = _game(games, name, players)
    for seed in playout_seeds:
        previous = {}

        def round_trips(st, action, step):
            if "json" in previous:  # apply works on a copy: the state before the move is untouched
                assert to_json(previous["state"]) == previous["json"], "apply changed its input"
            previous.update(state=st, json=to_json(st))
            if step % 7 == 0:
                assert from_json(to_json(st)) == st
                assert clone(st) == st
        st, actions = checked_playout(g, seed, max_steps=MAX_STEPS, each=round_trips)
        assert g.is_terminal(st)
        ranking = g.ranking(st)
        assert sorted(ranking) == list(range(players))
        # determinism: same seed, same actions, same game
        again = g.new_game(seed)
        for a in actions:
            g.apply_in_place(again, a)
        assert to_json(again) == to_json(st)
