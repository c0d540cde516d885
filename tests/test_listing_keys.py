"""Issue 29: the keys a listing gives a parameter's values (information/handles.py `arg_keys`) in a game
that conceals cards with one variable (Agent DOG's infiltrated pawns): a card in the open and not
concealed is named by its key at once, the others through `arg_key` as before, with the same keys
(and the same values, in the same order) for every seat in every state."""
from __future__ import annotations

from interpreter.engine.game import Game
from interpreter.information import handles
from tests.walks import random_states


class _Twice:
    """The definition `m`, its concealing variable named twice."""

    def __init__(self, m):
        self._m = m
        self.concealing = m.concealing * 2

    def __getattr__(self, name):
        return getattr(self._m, name)


def test_a_game_that_conceals_names_its_cards_as_before_and_its_open_cards_at_once(monkeypatch):
    g = Game.load("agent-dog", players=4)
    m = g.m
    assert len(m.concealing) == 1
    cards = list(m.cards)
    slow = handles.arg_key
    calls = []

    def counted(*args, **kwargs):
        calls.append(args[3])
        return slow(*args, **kwargs)
    monkeypatch.setattr(handles, "arg_key", counted)
    concealing = m.concealing
    states = concealed = 0
    for n, st in enumerate(random_states(g, 4, 300)):
        hide = st["cv"][concealing[0]]
        hidden = [c for c in cards if hide[c.id]]
        if n % 10 and len(hidden) < 2:
            continue
        # not every concealed card offered: those offered are named by their place (handles.py)
        offered = [c for c in cards if not hidden or c is not hidden[0]]
        for seat in [None, *range(g.num_players)]:
            calls.clear()
            fast = handles.arg_keys(m, st, seat, offered, {})
            concealed += sum(1 for c, k in zip(*fast) if hide[c.id] and k != c.key)
            # only the cards the seat may not see, or concealed ones, are asked of arg_key
            assert all(hide[c.id] or m.handle_plan[st["loc"][c.id]] is not None for c in calls)
            assert len(calls) < len(offered)
            # as two concealing variables (the same one twice): every card through arg_key, as before
            assert handles.arg_keys(_Twice(m), st, seat, offered, {}) == fast
        states += 1
    assert states >= 15 and concealed > 0  # infiltrated pawns were met, named by their place
