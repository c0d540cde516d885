"""Chance as a player (chance.py): explicit chance nodes, the same games as the seeded generator."""
import random

import pytest

from interpreter import Game
from interpreter.runtime.draws import CHANCE, STIRRED
from interpreter.errors import IllegalActionError
from interpreter.core.rng import below, seed_state

GAMES = [("dark-agent", 4, ()), ("dark-agent", 3, ("hidden-cards",)), ("agents-secrets", 4, ()),
         ("agent-dog", 4, ()), ("connect-four", 2, ())]


def _strip(st):
    out = dict(st)
    out.pop("rng")
    # explicit chance's own notes: its mode, the hidden piles the rules disordered (draws.stir)
    out["flow"] = {k: v for k, v in st["flow"].items() if k not in ("chance", STIRRED)}
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


PICKS = """
game: {name: t}
cards:
  a: {}
  b: {}
  c: {}
  d: {}
zones:
  pile: {visibility: hidden}
  order: {visibility: public}
vars: {game: {picked: 0, mixed: []}}
flow:
  setup: |
    for c in cards do move c to pile end
actions:
  mix: {effect: "shuffle pile"}
  pick: {effect: picked = random(10)}
  mixed: {effect: "mixed = shuffled(pile.cards)"}
  end_turn: {effect: finish turn}
"""


def test_scenarios_force_shuffles_and_random_draws(make_game):
    from interpreter.scenarios.position import Position
    game = make_game(PICKS)
    pos = Position(game, game.new_game(seed=1))
    pos.force_shuffle(["c", "a"], "pile").force_random(7, 0).force_shuffle(["d"])
    st = game.apply(pos.state, "mix")
    keys = [game.m.cards[i].key for i in st["z"][game.m.zone_by_name["pile"].id]]
    assert keys[:2] == ["c", "a"] and sorted(keys[2:]) == ["b", "d"]
    st = game.apply(st, "pick")
    assert st["gv"]["picked"] == 7
    st = game.apply(st, "pick")
    assert st["gv"]["picked"] == 0
    st = game.apply(st, "mixed")  # a list shuffled: forced by a shuffle of anything
    assert game.evaluate(st, "[c.key for c in mixed]")[0] == "d"
    assert st["forced"] == []
    # random(n) forced out of its range: a clear rule error
    pos = Position(game, game.new_game(seed=1)).force_random(10)
    with pytest.raises(Exception, match=r"give 0 to 9"):
        game.apply(pos.state, "pick")


def test_forced_shuffles_follow_their_kind_in_order(make_game):
    """A forced die waits for a roll: a shuffle met first draws from the generator, as before."""
    game = make_game(PICKS)
    st = game.new_game(seed=2, forced=[{"random": 3}])
    st = game.apply(st, "mix")
    assert st["forced"] == [{"random": 3}]
    assert game.apply(st, "pick")["gv"]["picked"] == 3


def test_a_scenario_whose_forced_shuffle_is_never_drawn_fails(tmp_path, write_game):
    from interpreter.scenarios.runner import run_file
    folder = write_game(PICKS)
    tmp_path = folder / "scenarios"
    tmp_path.mkdir()
    (tmp_path / "s.yaml").write_text(
        "scenario: {title: unused}\nsteps:\n  - shuffle: {pile: [a]}\n  - do: pick\n", encoding="utf-8")
    (tmp_path / "t.yaml").write_text(
        "scenario: {title: used}\nsteps:\n  - shuffle: {pile: [b, a]}\n  - do: mix\n"
        "  - expect: first(pile.cards).key == \"b\"\n", encoding="utf-8")
    bad = run_file(tmp_path / "s.yaml", None)
    assert not bad.ok and "forced and never drawn: shuffle of pile (a)" in bad.failures[0].message
    good = run_file(tmp_path / "t.yaml", None)
    assert good.ok, [f.render() for f in good.failures]


@pytest.mark.parametrize("kind", ["random", "greedy:4", "mcts:60", "ismcts:60"])
def test_agents_play_through_explicit_chance_nodes(kind):
    """Agents decide at player nodes of an explicit-chance game; their searches sample the chance
    nodes they meet (here a Dark Agent game where the dice and reshuffles stop the rules)."""
    from interpreter.agents import make_agent
    from interpreter.agents.base import make_decision, sample_chance
    g = Game.load("dark-agent", players=4)
    st = g.new_game(7, chance="explicit")
    rr = random.Random(1)
    agents = [make_agent(kind, seed=s) for s in range(4)]
    met = 0
    for _ in range(60):
        if g.is_terminal(st):
            break
        if g.is_chance(st):
            met += 1
            sample_chance(g, st, rr)
            continue
        d = make_decision(g, st)
        a = agents[d.seat].act(d)
        assert a in d.actions
        last = getattr(agents[d.seat], "_last", None)
        if last is not None:  # the search tree has nodes for the seats' choices only, never chance's
            stack = [last[1]]
            while stack:
                node = stack.pop()
                assert all(ch.mover >= 0 and str(k).split()[0] != "chance" for k, ch in node.children.items())
                stack.extend(node.children.values())
        st = g.apply(st, a)
    assert met > 0
