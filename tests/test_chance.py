"""Chance as a player (chance.py): explicit chance nodes, the same games as the seeded generator."""
import random

import pytest

from interpreter import Game
from interpreter.chance import CHANCE
from interpreter.errors import IllegalActionError
from interpreter.rng import below, seed_state

GAMES = [("dark-agent", 4, ()), ("dark-agent", 3, ("hidden-cards",)), ("agents-secrets", 4, ()),
         ("agent-dog", 4, ()), ("connect-four", 2, ())]


def _strip(st):
    out = dict(st)
    out.pop("rng")
    out["flow"] = {k: v for k, v in st["flow"].items() if k != "chance"}
    return out


def _play_both(g, seed, decisions):
    """The same game twice: sampled (the state's generator), and explicit with each chance node
    answered by the same generator, drawn in the same order. Returns both states and the count
    of chance nodes met."""
    pick = random.Random(seed)
    a = g.new_game(seed)
    b = g.new_game(seed, chance="explicit")
    r = seed_state(seed)
    nodes = 0

    def settle(b, r, nodes):
        while g.is_chance(b):
            assert g.current_player(b) == CHANCE
            outcomes = g.chance_outcomes(b)
            assert abs(sum(p for _, p in outcomes) - 1.0) < 1e-9
            r, k = below(r, len(outcomes))
            b = g.apply(b, f"chance {k}")
            nodes += 1
        return b, r, nodes

    b, r, nodes = settle(b, r, nodes)
    for _ in range(decisions):
        assert _strip(a) == _strip(b)
        if g.is_terminal(a):
            break
        acts = g.legal_actions(a)
        assert acts == g.legal_actions(b)
        act = acts[pick.randrange(len(acts))]
        a = g.apply(a, act)
        b = g.apply(b, act)
        b, r, nodes = settle(b, r, nodes)
    assert a["rng"] == r  # the generator drew exactly what the chance nodes were answered with
    return a, b, nodes


@pytest.mark.parametrize("name,players,variants", GAMES)
def test_explicit_chance_answered_by_the_generator_is_the_sampled_game(name, players, variants):
    g = Game.load(name, players=players, variants=variants)
    total = 0
    for seed in (1, 2):
        a, b, nodes = _play_both(g, seed, 150)
        assert _strip(a) == _strip(b)
        total += nodes
    if name != "connect-four":
        assert total > 20  # setup shuffles at least
    else:
        assert total == 0


def test_a_chance_node_lists_its_outcomes_and_refuses_a_player_action():
    g = Game.load("dark-agent", players=4)
    st = g.new_game(3, chance="explicit")
    assert g.is_chance(st) and g.current_player(st) == CHANCE
    n = len(g.chance_outcomes(st))
    assert n > 1
    assert [str(a) for a in g.legal_actions(st)] == [f"chance {k}" for k in range(n)]
    with pytest.raises(IllegalActionError, match="chance event is pending"):
        g.apply(st, "end_turn")
    with pytest.raises(IllegalActionError, match="not an outcome"):
        g.apply(st, f"chance {n}")
    labels = g.legal_actions_with_labels(st)
    assert labels[0][1].startswith("shuffle")
    # a sampled game never stops at chance
    assert not g.is_chance(g.new_game(3)) and g.chance_outcomes(g.new_game(3)) == []


def test_dice_are_one_die_per_node():
    g = Game.load("dark-agent", players=4)
    st = g.new_game(5, chance="explicit")
    rr = random.Random(5)
    seen = set()
    for _ in range(3000):
        if g.is_terminal(st):
            break
        if g.is_chance(st):
            nd = st["flow"]["node"]
            if nd["what"].startswith("a die"):
                seen.add(nd["n"])
            st = g.apply(st, f"chance {rr.randrange(nd['n'])}")
            continue
        acts = g.legal_actions(st)
        attacks = [a for a in acts if a.name == "attack"]
        st = g.apply(st, (attacks or acts)[rr.randrange(len(attacks or acts))])
    assert seen == {6}
