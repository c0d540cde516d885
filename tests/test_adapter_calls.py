"""What a search asks of the OpenSpiel adapter's states at every node, answered from what the state
already knows (adapters/openspiel.py): the same answers as pyspiel's own path through C++, with
fewer trips back into Python, and an information-state string written once per node."""
from __future__ import annotations

import random

import pytest

pyspiel = pytest.importorskip("pyspiel")
import interpreter.adapters.openspiel as adapter  # noqa: E402  (registers "interpret")


def _walk(params: str, *, seed: int, limit: int):
    """The states of one random game through the adapter (each a fresh clone), the first and then
    of chance nodes in a row only the last (a setup deals card by card)."""
    game = pyspiel.load_game(f"interpret({params})")
    pick = random.Random(seed)
    state = game.new_initial_state()
    out = [state.clone()]
    while not state.is_terminal() and len(out) < limit:
        state.apply_action(pick.choice(state.legal_actions()))
        if state.is_chance_node() and len(out) > 1 and out[-1].is_chance_node():
            out[-1] = state.clone()  # chance nodes in a row: the last one kept
        else:
            out.append(state.clone())
    return game, out


def _answers(state, n: int, *, ours: bool) -> list:
    """What legal_actions and the strings answer for every player (and a pseudo-player), from the
    adapter's methods or from pyspiel's own (C++ calling back into the state)."""
    base = pyspiel.State
    out = []
    for p in [None, *range(n), pyspiel.PlayerId.CHANCE]:
        try:
            out.append(state.legal_actions(p) if ours and p is not None else
                       state.legal_actions() if ours else
                       base.legal_actions(state) if p is None else base.legal_actions(state, p))
        except pyspiel.SpielError as e:
            out.append(("refused", str(e).split("\n")[0][:60]))
    for p in [None, *range(n), n]:
        for name in ("information_state_string", "observation_string"):
            try:
                f = getattr(state, name) if ours else getattr(base, name).__get__(state)
                out.append(f() if p is None else f(p))
            except pyspiel.SpielError:
                out.append(("refused", name))
    return out


@pytest.mark.parametrize("params,limit", [("game=leduc-poker", 30), ("game=tic-tac-toe", 12),
                                          ("game=dark-agent,players=4", 12)])
def test_the_answers_given_in_python_are_pyspiels(params, limit):
    """At every state of a random game (decisions, chance nodes, the end): legal_actions with and
    without a player, and both strings for every seat, are those pyspiel's own path gives; a
    pseudo-player or a seat out of range is refused by both."""
    game, states = _walk(params, seed=5, limit=limit)
    n = game.num_players()
    for i, state in enumerate(states):
        mine = _answers(state.clone(), n, ours=True)
        theirs = _answers(state.clone(), n, ours=False)
        assert mine == theirs, f"state {i}"
    assert states[-1].is_terminal() or len(states) == limit


def test_a_node_asked_again_is_answered_without_a_trip_through_cpp(monkeypatch):
    """legal_actions() asks the deciding seat once (pyspiel's C++ asks current_player three times and
    is_terminal once, each a trip back into Python); an information-state string asked again of
    the same node writes no view and folds nothing (ISMCTSBot asks it two or three times a node)."""
    _, states = _walk("game=leduc-poker", seed=6, limit=6)
    state = next(s for s in states if not s.is_chance_node() and not s.is_terminal())
    asked = []
    real = adapter.InterpretState.current_player
    monkeypatch.setattr(adapter.InterpretState, "current_player", lambda self: (asked.append(1), real(self))[1])
    state.legal_actions()
    assert len(asked) == 1
    seat = state.current_player()
    first = state.information_state_string(seat)
    folds = []
    fold = adapter.InterpretState._fold
    monkeypatch.setattr(adapter.InterpretState, "_fold", lambda self, s: (folds.append(s), fold(self, s))[1])
    assert state.information_state_string(seat) == first
    assert state.clone().information_state_string(seat) == first
    assert folds == []


def test_a_state_drawn_again_is_not_written_again(monkeypatch):
    """Leduc's samples for a seat are the five cards its opponent may hold (the deck kept in card
    order): their deals are few, so each draw is read from the sampler's number and known by its
    places' cards before it is written. Once the five are drawn twice, a draw writes no state (no
    relabelling of the cards), and still stands at the seat's information state, each of the
    five as often as the numbers fall."""
    from collections import Counter
    import interpreter.adapters.sampling as sampling
    _, states = _walk("game=leduc-poker", seed=3, limit=8)
    state = next(s for s in states if not s.is_chance_node() and not s.is_terminal())
    seat = state.current_player()
    mine = state.information_state_string(seat)
    numbers = iter([(k * 0.6180339887) % 1.0 for k in range(600)])
    for _ in range(100):
        state.resample_from_infostate(seat, lambda: next(numbers))
    import interpreter.information.observation as observation
    written = []
    relabel = observation.relabel
    for module in (sampling, observation):  # the adapter's and the sampler's own (observation.Sampler)
        monkeypatch.setattr(module, "relabel", lambda *a: (written.append(1), relabel(*a))[1])
    hands = Counter()
    for _ in range(500):
        sample = state.resample_from_infostate(seat, lambda: next(numbers))
        assert sample.information_state_string(seat) == mine
        hands[tuple(sample._st["z"])] += 1
    assert written == []
    assert len(hands) == 5 and all(70 <= n <= 130 for n in hands.values()), hands


def test_a_state_of_a_few_keeps_its_memo_from_its_first_draw():
    """Where a seat's samples are few (Leduc: five), each will be drawn again: the first draw of
    each already keeps a memo of what follows it (infostate.py), so the search's first line
    through it is not played again; where they are many (Dark Agent), only a state drawn twice
    keeps one."""
    for params, few in (("game=leduc-poker", True), ("game=dark-agent,players=4", False)):
        state, pick = pyspiel.load_game(f"interpret({params})").new_initial_state(), random.Random(3)
        while state.is_chance_node():
            state.apply_action(pick.choice(state.legal_actions()))
        seat = state.current_player()
        numbers = iter([(k * 0.6180339887) % 1.0 for k in range(20)])
        firsts = [state.resample_from_infostate(seat, lambda: next(numbers)) for _ in range(3)]
        assert all((s._box.trail.last.memo is not None) == few for s in firsts), params


def test_a_deal_drawn_again_is_not_dealt_again(monkeypatch):
    """A draw read from its number (Leduc: few deals) is the same deal for every number of the same
    remainder modulo the deals (sampling.Sampling.deal reads its digits): once a remainder's state is
    known, a number of that remainder takes it without dealing the cards again, and the state is
    the one dealing gives."""
    import interpreter.adapters.sampling as sampling
    _, states = _walk("game=leduc-poker", seed=3, limit=8)
    state = next(s for s in states if not s.is_chance_node() and not s.is_terminal())
    seat = state.current_player()
    numbers = [(k * 0.6180339887) % 1.0 for k in range(200)]
    for u in numbers:
        state.resample_from_infostate(seat, lambda u=u: u)
    sampling_ = state._box.sampling[seat]
    deals = sampling_.deals
    assert deals == 120  # the five unseen cards' orders, one group
    dealt = []
    deal = sampling.Sampling.deal
    monkeypatch.setattr(sampling.Sampling, "deal", lambda self, n: (dealt.append(n), deal(self, n))[1])
    for u in numbers:
        again = state.resample_from_infostate(seat, lambda u=u: u)
        fresh = sampling.Sampling(state._g, state._st, seat, state._fold(seat), state._trail)
        assert again._st["z"] == fresh.draw(u).st["z"]
    assert len(dealt) == len(numbers)  # only the fresh samplings dealt


def test_the_states_of_one_game_share_what_their_listings_learn():
    """Every state of one OpenSpiel game, whichever initial state it comes from, keeps one `_Parts`:
    the ids its listings learnt (what each action is, `_known`) serve the next game played."""
    game = pyspiel.load_game("interpret(game=leduc-poker)")
    first, second = game.new_initial_state(), game.new_initial_state()
    assert first._parts is second._parts
    pick = random.Random(1)
    while not first.is_terminal():
        first.apply_action(pick.choice(first.legal_actions()))
    learnt = dict(first._parts.plain)
    assert learnt and second._parts.plain == learnt
