"""The opponent model of hidden sides (interpreter/agents/belief.py): a side that explains the moves
a seat saw weighs more than one that does not. That it reads nothing the seat cannot see is in
test_agents_no_cheating.py (twin histories)."""
from __future__ import annotations

import random

import pytest

from interpreter.agents import make_decision
from interpreter.agents.belief import Belief
from interpreter.agents.base import observe
from interpreter.engine.game import Game, clone
from interpreter.information.views import seat_sides

SEAT = 0


@pytest.fixture(scope="module")
def game():
    return Game.load("agents-secrets", players=6)


def _two_decisions(game, seed: int):
    """The state at SEAT's first decision, SEAT's action there, and the state at its next decision
    (the other seats' choices of the first wave revealed in between), random players."""
    rng = random.Random(seed)
    st = game.new_game(seed=seed)
    prev = played = None
    while True:
        p = game.current_player(st)
        acts = game.legal_actions(st)
        a = acts[rng.randrange(len(acts))]
        if p == SEAT:
            if prev is not None:
                return prev, played, st
            prev, played = clone(st), a
        game.apply_in_place(st, a, checked=False)


def _went(game, st, q: int):
    """Where seat `q` is seen to be (its public variables in SEAT's observation)."""
    return list(observe(game, st, SEAT)["players"].values())[q]["vars"]


def _judged(game, prev, played, now, seed: int = 3) -> Belief:
    belief = Belief(SEAT, seed)
    first = make_decision(game, prev, SEAT)
    belief.update(first)
    belief.played(first, played)
    belief.update(make_decision(game, now, SEAT))
    return belief


def test_a_side_that_explains_where_a_seat_went_weighs_more(game, monkeypatch):
    prev, played, now = _two_decisions(game, 11)
    went = {q: _went(game, now, q)["at"] for q in range(game.num_players) if q != SEAT}
    target = max(set(went.values()), key=list(went.values()).count)  # where most of them went

    def follow(self, g, st, q, rng):  # a policy in which one side goes to `target`, the other anywhere
        side = seat_sides(g, st)[q]
        return 10.0 if side == "kgb" and _went(g, st, q)["at"] == target else 0.0
    monkeypatch.setattr(Belief, "_follow", follow)
    belief = _judged(game, prev, played, now)
    judged = {q for q, _ in belief.loglik}
    assert judged, "no seat's side was judged"
    for q in judged:
        kgb, cia = belief.loglik[(q, "kgb")], belief.loglik[(q, "cia")]
        if went[q] == target:
            assert kgb > cia, (q, belief.loglik)
        else:
            assert kgb < cia, (q, belief.loglik)
    # and a sample's weight follows: the sides that explain the moves are drawn more often
    decision = make_decision(game, now, SEAT)
    rng = random.Random(0)
    uniform = [belief.weight(game, decision.sample(rng)) for _ in range(40)]
    weighted = [belief.weight(game, belief.sample(decision, rng)) for _ in range(40)]
    assert max(uniform) > 10 * min(uniform)
    assert sum(weighted) > 2 * sum(uniform)
