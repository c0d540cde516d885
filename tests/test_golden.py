"""The forward model replays the golden logs bit for bit (tests/golden/record.py).

Each configuration's seeded random games are played again: the bots must choose the same
actions (so listing order is pinned too), the state digests must match every few decisions,
and the result must be the same. By default the first games of each configuration are
checked; `--golden-all` checks all of them.
"""
from __future__ import annotations

import pytest

from interpreter.engine.game import Game
from tests.golden.record import CONFIGS, config_name, load, path_of, play

BOUNDED = 6


def pytest_generate_tests(metafunc):
    if "golden" in metafunc.fixturenames:
        names = [config_name(*c) for c in CONFIGS]
        metafunc.parametrize("golden", CONFIGS, ids=names)


def test_golden_games_replay_bit_for_bit(golden, request):
    game_name, variants, players = golden
    data = load(path_of(config_name(game_name, variants, players)))
    game = Game.load(game_name, players=players, variants=variants)
    games = data["games"] if request.config.getoption("--golden-all") else data["games"][:BOUNDED]
    for rec in games:
        actions, digests, result = play(game, rec["seed"])
        n = next((i for i, (a, b) in enumerate(zip(actions, rec["actions"])) if a != b), None)
        assert n is None and len(actions) == len(rec["actions"]), (
            f"seed {rec['seed']}: decision {n if n is not None else min(len(actions), len(rec['actions']))}"
            f" differs from the golden log")
        assert digests == rec["digests"], f"seed {rec['seed']}: a state differs from the golden log"
        assert result == rec["result"], f"seed {rec['seed']}: the result differs"
