"""Random playouts of Dark Agent's team (§13) and solo (§14) variants, alone and with the variants they
are expected to compose with: every game ends, and the content's invariants hold at every step.

The list of expected compositions is explicit (COMPOSE): a variant pair that stops loading, or a game
that stops ending, fails here. Two seeds per case keep the suite fast; INTERPRET_PLAYOUTS=N plays N.
"""
from __future__ import annotations

import functools
import os

import pytest

from interpreter.engine.game import Game
from interpreter.ruleset.paths import content_dir

VARIANTS = content_dir() / "dark-agent" / "variants"
EXPANSION = (VARIANTS / "expansion-5-10.yaml").exists()   # §16, written in parallel: used once it exists
HIDDEN = (VARIANTS / "hidden-cards.yaml").exists()        # §15.2, likewise
MAX_STEPS = 6000
SEEDS = range(int(os.environ.get("INTERPRET_PLAYOUTS", "2")))

# (variants, a player count they are played with): the combinations expected to load and play together
COMPOSE = [(("teams", "no-dice"), 4), (("solo", "no-dice"), 1)]
if EXPANSION:
    COMPOSE += [(("teams", "expansion-5-10"), 6), (("teams", "expansion-5-10", "no-dice"), 8)]
if HIDDEN:
    COMPOSE += [(("teams", "hidden-cards"), 4), (("solo", "hidden-cards"), 1)]


def cases():
    for dice in ((), ("no-dice",)):
        for players in (2, 3, 4):                                # §13: up to 4 players on the base board
            yield ("teams", *dice), players, {}
        yield ("solo", *dice), 1, {}                             # §14
    if EXPANSION:
        for players in range(5, 11):                             # §16 « équipes comprises »; each count once,
            dice = ("no-dice",) if players % 2 == 0 else ()      # with and without dice in turn (a wide board
            yield ("teams", "expansion-5-10", *dice), players, {}   # takes a while to compile)
    if HIDDEN:                                                   # §15.2 with teams and solo
        yield ("teams", "hidden-cards"), 4, {}
        yield ("solo", "hidden-cards"), 1, {}
    yield ("teams",), 4, {"team_size": 3}                        # §13.1: an incomplete last team (3 + 1)
    yield ("teams",), 3, {"team_size": 5}                        # fewer players than a team: one team
    if EXPANSION:
        yield ("teams", "expansion-5-10"), 7, {"team_size": 3}   # §13.1: 1-3-5, 2-4-6 and 7 alone


@functools.lru_cache(maxsize=None)
def game(variants: tuple, players: int, options: tuple = ()) -> Game:
    return Game.load("dark-agent", players=players, options=dict(options) or None, variants=variants)


def _id(case):
    variants, players, options = case
    return "+".join(variants) + f"-{players}p" + "".join(f"-{k}={v}" for k, v in options.items())


@pytest.mark.parametrize("variants,players", COMPOSE, ids=["+".join(v) for v, _ in COMPOSE])
def test_the_expected_variants_compose(variants, players):
    g = game(variants, players)
    assert g.num_players == players


CASES = list(cases())


@pytest.mark.parametrize("variants,players,options", CASES, ids=[_id(c) for c in CASES])
def test_random_playouts_end_and_keep_invariants(variants, players, options, checked_playout):
    g = game(variants, players, tuple(sorted(options.items())))
    for seed in SEEDS:
        assert g.check_invariants(g.new_game(seed)) == []
        st, _ = checked_playout(g, seed, max_steps=MAX_STEPS)
        winners = g.winners(st)
        if "teams" in variants:
            # §13.2: the whole best team wins, and only it
            sides = [g.evaluate(st, f"side_of(seat({i + 1}))") for i in range(players)]
            assert winners and {sides[i] for i in winners} == {sides[winners[0]]}
            assert winners == [i for i in range(players) if sides[i] == sides[winners[0]]]
        else:
            assert set(winners) <= {0}                           # §14.3: the one player wins, or not
