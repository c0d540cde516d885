"""Issue 29: the requirements a listing checks at one level of an action are written as one generated
function (lang/together.py): one call per value of the domain instead of one per requirement, and
the same actions, labels and budget as each requirement called alone (`verify` and `explain` still
call each alone, to say which one failed)."""
from __future__ import annotations


import pytest

from interpreter.engine import listing
from interpreter.engine.game import Game
from interpreter.engine.plan import ActionPlan
from interpreter.runtime import context as rt
from tests.walks import random_states


def _decisions(g, seed, limit):
    """(state, deciding player) at the first `limit` decisions of a seeded random game."""
    for st in random_states(g, seed, limit):
        if not st["pending"] and not st["flow"].get("sim") and not st["flow"].get("win"):
            yield st, rt.turn_player(g.m, st)


def test_the_requirements_of_a_level_are_checked_by_one_call():
    g = Game.load("dark-agent", players=4)
    a = g.m.action_by_name["exchange_satellite"]
    other = ActionPlan.of(a).params[1]  # §4.1: three requirements for each pair of satellites
    assert len(other.checks) == 3 and len(other.listed) == 1
    calls = {"together": 0, "alone": 0}

    def counted(f, key):
        def call(ctx):
            calls[key] += 1
            return f(ctx)
        return call
    a.listed = [list(level) for level in a.listed]
    a.listed[2] = [counted(a.listed[2][0], "together")]
    a.requires = [(counted(f, "alone"), reason, level) for f, reason, level in a.requires]
    a.__post_init__()
    g.listings.forget()
    listed = sum(any(x.name == a.name for x in g.legal_actions(st)) for st, _ in _decisions(g, 0, 120))
    assert listed > 3 and calls["together"] > 20 and calls["alone"] == 0


@pytest.mark.parametrize("game, players", [("dark-agent", 4), ("agent-dog", 4)])
def test_requirements_checked_together_list_what_each_alone_lists(game, players):
    g = Game.load(game, players=players)
    m = g.m
    assert any(a.listed for a in m.actions)  # some level of some action is checked together
    listers = {}
    for step in m.step_names:
        actions = tuple(m.actions_by_step[step])
        together = listing._write(m, actions)
        kept = [a.listed for a in actions]
        for a in actions:
            a.listed = []
        try:
            listers[step] = (together, listing._write(m, actions))  # each requirement alone
        finally:
            for a, k in zip(actions, kept):
                a.listed = k
    n = 0
    for st, player in _decisions(g, 0, 150):
        together, alone = listers[rt.step_name(m, st)]
        x, y = rt.Ctx(st, m, player), rt.Ctx(st, m, player)
        x.memo, y.memo = {}, {}
        assert together(x, [], True, False) == alone(y, [], True, False)  # the same actions, labels, order
        assert x.budget == y.budget  # the same budget spent
        n += 1
    assert n > 80
