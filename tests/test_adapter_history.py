"""A state's history through the OpenSpiel adapter survives a clone: `history()`, `full_history()`,
`history_str()` and `move_number()` of a clone (and of a clone of a clone) are the original's, which
pyspiel's own (C++) keeps for a state moved from the start through C++. A Python clone is a new pyspiel
state, whose own history starts empty, and apply_action called from Python does not pass through C++:
algorithms that read a state's history (tree keys, replays) read ours."""
from __future__ import annotations

import random

import pytest

pyspiel = pytest.importorskip("pyspiel")
import interpreter.adapters.openspiel  # noqa: E402,F401  (registers the game)


@pytest.mark.parametrize("name", ["tic-tac-toe", "kuhn-poker", "leduc-poker"])
def test_a_clone_keeps_the_history(name):
    """`state` is moved by pyspiel's own path (C++ ApplyAction, which keeps pyspiel's history and
    calls back into the state), `ours` by the adapter's apply_action (answered in Python): both,
    and their clones, tell the history pyspiel kept."""
    game = pyspiel.load_game(f"interpret(game={name})")
    rng = random.Random(3)
    state, ours = game.new_initial_state(), game.new_initial_state()
    assert state.is_initial_state() and ours.is_initial_state() and state.clone().is_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes())
            a = rng.choices(outcomes, probs)[0]
        else:
            a = rng.choice(state.legal_actions())
        pyspiel.State.apply_action(state, a)
        ours.apply_action(a)
        native = pyspiel.State.history(state)  # the original was moved from the start: C++ kept it
        for copy in (state, ours, state.clone(), state.clone().clone(), ours.clone()):
            assert copy.history() == native
            assert copy.move_number() == len(native) == pyspiel.State.move_number(state)
            assert copy.history_str() == pyspiel.State.history_str(state)
            assert [(m.player, m.action) for m in copy.full_history()] == \
                [(m.player, m.action) for m in pyspiel.State.full_history(state)]
            assert not copy.is_initial_state()
    clone = state.clone()
    assert clone.history() and clone.is_terminal()


def test_apply_action_takes_what_pyspiels_takes():
    """An id given as a numpy integer is a plain int in the history, as pyspiel's own makes it;
    a number that is not an id is refused."""
    import numpy as np
    game = pyspiel.load_game("interpret(game=tic-tac-toe)")
    state = game.new_initial_state()
    state.apply_action(np.int64(state.legal_actions()[0]))
    assert [type(a) for a in state.history()] == [int]
    with pytest.raises((TypeError, ValueError)):
        state.apply_action(1.5)
