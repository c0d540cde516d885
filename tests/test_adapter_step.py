"""A move through the OpenSpiel adapter costs little more than the engine's own (issue 33): what
the forward model noted of a state (its listing: core/state.Notes) goes with its clones, so the
first move after a clone (a search clones at every iteration, `new_initial_state` is a clone) is
done as a trusted one, nothing listed or verified again; and the game played is the same."""
from __future__ import annotations

import random

import pytest

pyspiel = pytest.importorskip("pyspiel")
import interpreter.adapters.openspiel  # noqa: E402,F401  (registers the game)
from interpreter.core.state import NO_NOTES, NOTES  # noqa: E402


def _listing(state):
    return state._st.get(NOTES, NO_NOTES).listing


@pytest.mark.parametrize("params", ["game=tic-tac-toe", "game=connect-four"])
def test_a_clone_keeps_what_the_forward_model_noted(params):
    game = pyspiel.load_game(f"interpret({params})")
    state = game.new_initial_state()
    assert _listing(state) is not None
    rng = random.Random(2)
    while not state.is_terminal():
        copy = state.clone()
        assert _listing(copy) == _listing(state) and _listing(copy) is not None
        assert copy._st[NOTES] is not state._st[NOTES]  # its own: a move on one leaves the other's
        a = rng.choice(state.legal_actions())
        copy.apply_action(a)
        assert _listing(state) is not None
        state.apply_action(a)
        assert str(copy) == str(state) and copy.returns() == state.returns()


def test_the_first_move_after_a_clone_is_trusted(monkeypatch):
    """Every move of a game replayed by ids on fresh clones is done as a trusted one: the forward
    model's `_bind` (which verifies) never runs."""
    game = pyspiel.load_game("interpret(game=tic-tac-toe)")
    rng = random.Random(4)
    state, moves = game.new_initial_state(), []
    while not state.is_terminal():
        moves.append(rng.choice(state.legal_actions()))
        state.apply_action(moves[-1])
    binds = []
    g = state._g
    bind = g._bind
    monkeypatch.setattr(g, "_bind", lambda *a, **k: binds.append(1) or bind(*a, **k))
    replay = game.new_initial_state()
    for a in moves:
        replay.clone()  # a clone of the state, as a search takes, at every move
        replay = replay.clone()
        replay.apply_action(a)
    assert not binds
    assert str(replay) == str(state) and replay.returns() == state.returns()


def test_a_move_from_python_makes_no_trip_through_cpp(monkeypatch):
    """apply_action called from Python is answered in Python: pyspiel's own asks current_player
    through C++ (a trip back into Python) before calling _apply_action, which knows it already."""
    import interpreter.adapters.openspiel as adapter
    game = pyspiel.load_game("interpret(game=connect-four)")
    state = game.new_initial_state()
    asked = []
    real = adapter.InterpretState.current_player
    monkeypatch.setattr(adapter.InterpretState, "current_player", lambda self: (asked.append(1), real(self))[1])
    rng = random.Random(1)
    for _ in range(6):
        a = rng.choice(state.legal_actions())
        del asked[:]
        state.apply_action(a)
        assert asked == []
    assert state.move_number() == 6 and len(state.history()) == 6


def test_a_state_stopped_at_a_draw_knows_it_stands_at_a_chance_node(monkeypatch):
    """A chance outcome that leaves the state at another draw (a shuffle is a draw per card) notes
    that the chance player moves next: the next outcome is applied without asking the flow."""
    from interpreter.adapters.openspiel import InterpretState
    game = pyspiel.load_game("interpret(game=agents-secrets,players=6)")
    state = game.new_initial_state()
    rng = random.Random(1)
    state.apply_action(rng.randrange(len(state.chance_outcomes())))
    assert state.is_chance_node()
    asked = []
    current = InterpretState.current_player
    monkeypatch.setattr(InterpretState, "current_player", lambda self: (asked.append(1), current(self))[1])
    n = 0
    while state.is_chance_node():
        assert state._box.player == pyspiel.PlayerId.CHANCE
        state.apply_action(rng.randrange(len(state.chance_outcomes())))
        n += 1
    assert n > 10 and not asked
