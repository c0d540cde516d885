"""The information states of the OpenSpiel adapter, kept on demand (adapters/infostate.py): a state
copies nothing for the history it may be asked about until it is asked, and a history asked late
reads what the seats observed along it as one asked at every move does."""
from __future__ import annotations

import random

import pytest

pyspiel = pytest.importorskip("pyspiel")
import interpreter.adapters.openspiel  # noqa: E402,F401  (registers "interpret")


def _moves(game, *, seed: int, limit: int) -> list[int]:
    pick = random.Random(seed)
    state, moves = game.new_initial_state(), []
    while not state.is_terminal() and len(moves) < limit:
        moves.append(pick.choice(state.legal_actions()))
        state.apply_action(moves[-1])
    return moves


@pytest.mark.parametrize("params,limit", [("game=leduc-poker", 40), ("game=dark-agent,players=4", 70),
                                          ("game=agents-secrets,players=6", 60)])
def test_a_history_asked_late_is_the_history_asked_at_every_move(params, limit, monkeypatch):
    """The same moves played twice: once with every seat's information state asked after each
    move (each link takes a copy of the state as it passes), once asked only at the end, and once
    in the middle for one seat, so that the links passed unasked are played again from the copy
    before them. Every seat's string is the same at the end; the late one played moves again."""
    game = pyspiel.load_game(f"interpret({params})")
    moves = _moves(game, seed=3, limit=limit)
    seats = range(game.num_players())
    eager, late = game.new_initial_state(), game.new_initial_state()
    parts = late._parts
    replayed = []
    replay = type(parts).replay
    monkeypatch.setattr(type(parts), "replay", lambda self, st, ms: (replayed.append(len(ms)), replay(self, st, ms)))
    for i, a in enumerate(moves):
        for s in seats:
            eager.information_state_string(s)
        eager.apply_action(a)
        late.apply_action(a)
        if i == len(moves) // 2:
            late.information_state_string(1)
    assert [late.information_state_string(s) for s in seats] == [eager.information_state_string(s) for s in seats]
    assert sum(replayed) > len(moves) // 4


def test_a_rollout_copies_no_state_until_a_seat_is_asked():
    """Random moves through the adapter, nothing asked: no link of the history holds a copy of a
    state (a search's rollouts pay none); asked, the last link holds one."""
    game = pyspiel.load_game("interpret(game=dark-agent,players=4)")
    state = game.new_initial_state()
    for a in _moves(game, seed=4, limit=250):
        state.apply_action(a)
    trail = state._box.trail
    assert trail.pending is not None  # the lazy links: made when somebody folds, copies or settles
    trail.settle()
    links, link = [], trail.last
    while link is not None:
        links.append(link)
        link = link.before
    copies = [k for k in links[:-1] if k.st is not None]  # the first link holds the state it started from
    # a decision stopped at a draw keeps its copy (the chance node it stands at)
    assert len(links) > 40 and len(copies) <= len(links) // 4, (len(copies), len(links))
    state.information_state_string(0)
    assert state._box.trail.last.st is not None


def test_a_state_drawn_again_plays_on_from_a_clone():
    """A state `resample_from_infostate` draws a second time stands at the first draw's history
    (infostate.Trail.at, under a memo): cloned and moved, its seats' information states are those
    of the first draw moved alike."""
    game = pyspiel.load_game("interpret(game=kuhn-poker)")
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.legal_actions()[0])
    seat, draws = state.current_player(), random.Random(1)
    first: dict = {}
    for _ in range(12):
        sample = state.resample_from_infostate(seat, draws.random)
        moved = sample.clone()
        moved.apply_action(moved.legal_actions()[0])
        strings = [moved.information_state_string(s) for s in range(2)]
        assert first.setdefault(str(sample), strings) == strings
    assert len(first) < 12  # some state was drawn again


def test_a_rollout_makes_no_link_until_it_is_asked():
    """Random moves through the adapter, nothing asked and nothing cloned: each decision is noted
    as its moves (a tuple), no link is made (infostate.Trail.pending); a clone, or an information
    state asked, makes them, shared by the state and its clones, and what they give is the same."""
    game = pyspiel.load_game("interpret(game=tic-tac-toe)")
    moves = _moves(game, seed=2, limit=9)
    state, eager = game.new_initial_state(), game.new_initial_state()
    first = state._box.trail.last
    for i, a in enumerate(moves):
        state.apply_action(a)
        eager.apply_action(a)
        eager.information_state_string(i % 2)
        assert state._box.trail.last is first
    copy = state.clone()
    assert state._box.trail.pending is None and copy._box.trail.last is state._box.trail.last is not first
    assert [state.information_state_string(s) for s in (0, 1)] == \
        [eager.information_state_string(s) for s in (0, 1)] == [copy.information_state_string(s) for s in (0, 1)]
