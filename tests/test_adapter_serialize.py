"""A state of a content game serialized as OpenSpiel serializes any state (`serialize_game_and_state`,
`pickle`), read back, and played on: the same game from there, bit for bit, for every seat.
OpenSpiel's own `random_sim_test` with its default `serialize=True` serializes every state of a game."""
from __future__ import annotations

import pickle
import random

import pytest

pyspiel = pytest.importorskip("pyspiel")

import interpreter.adapters.openspiel  # noqa: E402,F401  (registers "interpret")


def _everything(state) -> tuple:
    """What any caller can ask of a state: its text, history, player, legal actions, returns, and
    every seat's information state and observation."""
    n = state.get_game().num_players()
    seats = range(n)
    return (str(state), state.history(), state.current_player(), state.is_terminal(),
            [] if state.is_terminal() or state.is_chance_node() else state.legal_actions(),
            state.returns(), [state.information_state_string(p) for p in seats],
            [state.observation_string(p) for p in seats])


def _random_step(state, rng) -> None:
    if state.is_chance_node():
        outcomes = state.chance_outcomes()
        state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
    else:
        actions = state.legal_actions()
        state.apply_action(actions[rng.randrange(len(actions))])


@pytest.mark.parametrize("name", ["tic-tac-toe", "kuhn-poker", "leduc-poker", "agents-secrets"])
def test_openspiel_random_sim_test_serializing_every_state(name):
    pyspiel.random_sim_test(pyspiel.load_game(f"interpret(game={name})"), num_sims=1, serialize=True, verbose=False)


@pytest.mark.parametrize("name,steps", [("dark-agent", 60), ("agents-secrets", 30), ("agent-dog", 400),
                                        ("leduc-poker", 3)])
@pytest.mark.parametrize("how", ["openspiel", "pickle"])
def test_a_state_read_back_plays_on_as_the_original(name, steps, how):
    """Mid-game (a chance node among the states met), read back, then both played on with the same
    moves to the end: the same answers at every step."""
    game = pyspiel.load_game(f"interpret(game={name})")
    rng = random.Random(7)
    state = game.new_initial_state()
    for _ in range(steps):
        if state.is_terminal():
            break
        _random_step(state, rng)
    if how == "openspiel":
        _, copy = pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(game, state))
    else:
        copy = pickle.loads(pickle.dumps(state))
        assert copy.get_game() is game  # joined to the game loaded, not loaded again
    assert type(copy) is type(state) and copy is not state
    seed = rng.random()
    for one in (state, copy):
        play = random.Random(seed)
        answers = [_everything(one)]
        while not one.is_terminal():
            _random_step(one, play)
            answers.append(_everything(one))
        if one is state:
            expected = answers
    assert answers == expected


def test_a_state_drawn_by_resample_from_infostate_reads_back_as_itself():
    game = pyspiel.load_game("interpret(game=leduc-poker)")
    state = game.new_initial_state()
    rng = random.Random(3)
    while state.is_chance_node() or state.current_player() != 1:
        _random_step(state, rng)
    drawn = state.resample_from_infostate(1, pyspiel.UniformProbabilitySampler(0, 1))
    copy = pickle.loads(pickle.dumps(drawn))
    assert _everything(copy) == _everything(drawn)
