"""Every variant of Agents Secrets and Agent DOG plays to the end with random bots, for every player
count it allows, keeping the invariants (Dark Agent's variants have their own tests in
tests/dark_agent/)."""
from __future__ import annotations

import random
from pathlib import Path

import pytest

from interpreter.engine.game import Game
from bundled import cached_ruleset

ROOT = Path(__file__).resolve().parent.parent / "content"


def cases():
    for path in sorted(ROOT.glob("*/variants/*.yaml")):
        game = path.parent.parent.name
        if game == "dark-agent":
            continue
        rs = cached_ruleset(game, variants=[path.stem])
        lo, hi = rs.player_range
        for players in sorted({lo, hi}):
            yield game, path.stem, players


@pytest.mark.parametrize("game,variant,players", list(cases()))
def test_variant_games_end_and_keep_invariants(game, variant, players):
    g = Game.load(game, players=players, variants=[variant])
    for seed in range(2):
        st = g.new_game(seed)
        rng = random.Random(seed)
        for step in range(6000):
            if g.is_terminal(st):
                break
            g.apply_in_place(st, rng.choice(g.legal_actions(st)))
            if step % 5 == 0:
                assert not g.check_invariants(st), (seed, step)
        assert g.is_terminal(st), f"seed {seed}: no end"
