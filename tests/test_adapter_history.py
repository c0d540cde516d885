"""A state's history through the OpenSpiel adapter survives a clone: `history()`, `full_history()`,
`history_str()` and `move_number()` of a clone (and of a clone of a clone) are the original's, which
pyspiel's own (C++) keeps for the state moved from the start. A Python clone is a new pyspiel state,
whose own history starts empty: algorithms that read a clone's history (tree keys, replays) read ours."""
from __future__ import annotations

import random

import pytest

pyspiel = pytest.importorskip("pyspiel")
import interpreter.adapters.openspiel  # noqa: E402,F401  (registers the game)


@pytest.mark.parametrize("name", ["tic-tac-toe", "kuhn-poker", "leduc-poker"])
def test_a_clone_keeps_the_history(name):
    game = pyspiel.load_game(f"interpret(game={name})")
    rng = random.Random(3)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes())
            state.apply_action(rng.choices(outcomes, probs)[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
        native = pyspiel.State.history(state)  # the original was moved from the start: C++ kept it
        for copy in (state.clone(), state.clone().clone()):
            assert copy.history() == state.history() == native
            assert copy.move_number() == len(native) == pyspiel.State.move_number(state)
            assert copy.history_str() == pyspiel.State.history_str(state)
            assert [(m.player, m.action) for m in copy.full_history()] == \
                [(m.player, m.action) for m in pyspiel.State.full_history(state)]
    clone = state.clone()
    assert clone.history() and clone.is_terminal()
