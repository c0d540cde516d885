"""Kuhn poker and Leduc hold'em written as content (content/kuhn-poker, content/leduc-poker),
against OpenSpiel's native `kuhn_poker` and `leduc_poker` (issue 33): the same game trees and
information states through the adapter, and OpenSpiel's CFR converging on them exactly as it does
on the native games."""
from __future__ import annotations

import random

import pytest

pyspiel = pytest.importorskip("pyspiel")

import interpreter.adapters.openspiel  # noqa: E402,F401  (registers "interpret")
from open_spiel.python import policy  # noqa: E402
from open_spiel.python.algorithms import cfr, exploitability, expected_game_score  # noqa: E402

UTILITY = {"kuhn-poker": 2.0, "leduc-poker": 13.0}  # the most a seat can win or lose, in chips


def _ours(name: str):
    """The content game through the adapter, its returns the chips won (the content's score)."""
    return pyspiel.load_game(f"interpret(game={name},returns=score,utility_bound={UTILITY[name]})")


def _interpret_type():
    return next(t for t in pyspiel.registered_games() if t.short_name == "interpret")


def _has_score_returns() -> bool:
    return "returns" in _interpret_type().parameter_specification


needs_score_returns = pytest.mark.skipif(
    not _has_score_returns(),
    reason="the adapter does not take the returns from the content's score yet (issue 33 item 5)")


def _tree(game) -> dict:
    """Every history of the game: its decision, chance and terminal nodes, each player's distinct
    information states, and the chance-weighted returns (the game's value under uniform play)."""
    counts = {"decision": 0, "chance": 0, "terminal": 0}
    infostates = [set() for _ in range(game.num_players())]
    uniform_value = [0.0] * game.num_players()
    stack = [(game.new_initial_state(), 1.0)]
    while stack:
        state, p = stack.pop()
        if state.is_terminal():
            counts["terminal"] += 1
            for i, r in enumerate(state.returns()):
                uniform_value[i] += p * r
        elif state.is_chance_node():
            counts["chance"] += 1
            stack.extend((state.child(a), p * q) for a, q in state.chance_outcomes())
        else:
            counts["decision"] += 1
            infostates[state.current_player()].add(state.information_state_string())
            legal = state.legal_actions()
            stack.extend((state.child(a), p / len(legal)) for a in legal)
    return {"counts": counts, "infostates": [len(s) for s in infostates], "uniform_value": uniform_value}


@pytest.fixture(scope="module")
def trees():
    return {}


def _tree_of(trees, name, native):
    if name not in trees:
        ours = _ours(name) if _has_score_returns() else pyspiel.load_game(f"interpret(game={name})")
        trees[name] = (_tree(ours), _tree(pyspiel.load_game(native)))
    return trees[name]


@pytest.mark.parametrize("name,native,infostates", [("kuhn-poker", "kuhn_poker", 12),
                                                    ("leduc-poker", "leduc_poker", 936)])
def test_the_content_game_has_the_native_tree_and_information_states(trees, name, native, infostates):
    """Node for node the native game's tree (decisions, chance nodes, ends), and OpenSpiel's count
    of information states: 12 for Kuhn poker, 936 for Leduc (whose two suits are told apart)."""
    ours, theirs = _tree_of(trees, name, native)
    assert sum(theirs["infostates"]) == infostates
    assert ours["counts"] == theirs["counts"]
    assert ours["infostates"] == theirs["infostates"]


@needs_score_returns
@pytest.mark.parametrize("name,native", [("kuhn-poker", "kuhn_poker"), ("leduc-poker", "leduc_poker")])
def test_the_returns_are_the_chips_won_as_native(trees, name, native):
    """Returns are the chips won or lost, zero-sum: both seats playing uniformly at random have the
    native game's values."""
    ours, theirs = _tree_of(trees, name, native)
    assert ours["uniform_value"] == pytest.approx(theirs["uniform_value"], abs=1e-12)
    game = _ours(name)
    assert game.get_type().utility == pyspiel.GameType.Utility.ZERO_SUM
    assert (game.min_utility(), game.max_utility()) == (-UTILITY[name], UTILITY[name])


CFR_PLUS_ITERATIONS = 68  # where CFR+'s average policy on native kuhn_poker first falls below 0.001


@needs_score_returns
def test_cfr_on_kuhn_poker_reaches_the_game_value_as_native():
    """OpenSpiel's CFR+ (python/algorithms/cfr.py) as shipped, through the adapter and on the native
    game side by side: the same exploitability, below 0.001 after 68 iterations, and player 1's
    value -1/18 (Kuhn 1950)."""
    ours, native = _ours("kuhn-poker"), pyspiel.load_game("kuhn_poker")
    solvers = {"ours": cfr.CFRPlusSolver(ours), "native": cfr.CFRPlusSolver(native)}
    first = {}
    for i in range(CFR_PLUS_ITERATIONS):
        for s in solvers.values():
            s.evaluate_and_update_policy()
        if i == 0:
            first = {"ours": exploitability.exploitability(ours, solvers["ours"].average_policy()),
                     "native": exploitability.exploitability(native, solvers["native"].average_policy())}
    last = {"ours": exploitability.exploitability(ours, solvers["ours"].average_policy()),
            "native": exploitability.exploitability(native, solvers["native"].average_policy())}
    assert first["ours"] == pytest.approx(first["native"], abs=1e-9)
    assert last["ours"] == pytest.approx(last["native"], abs=1e-9)
    assert last["ours"] < 0.001 < first["ours"]
    policy = solvers["ours"].average_policy()
    value = expected_game_score.policy_value(ours.new_initial_state(), [policy, policy])
    assert value[0] == pytest.approx(-1 / 18, abs=1e-3)
    assert value[0] + value[1] == pytest.approx(0.0, abs=1e-12)


@needs_score_returns
def test_cfr_on_leduc_lowers_the_exploitability_as_native():
    """Two iterations of OpenSpiel's CFR on Leduc hold'em, through the adapter and on the native
    game: the average policy's exploitability is then the native one, below the uniform policy's
    (CFR's average policy after its first iteration), which both games give alike. One best
    response through the adapter: about 20 s of the test's time."""
    ours, native = _ours("leduc-poker"), pyspiel.load_game("leduc_poker")
    solvers = {"ours": cfr.CFRSolver(ours), "native": cfr.CFRSolver(native)}
    solvers["native"].evaluate_and_update_policy()
    uniform = exploitability.exploitability(native, solvers["native"].average_policy())
    assert uniform == pytest.approx(exploitability.exploitability(native, policy.UniformRandomPolicy(native)))
    solvers["native"].evaluate_and_update_policy()
    for _ in range(2):
        solvers["ours"].evaluate_and_update_policy()
    after = {"ours": exploitability.exploitability(ours, solvers["ours"].average_policy()),
             "native": exploitability.exploitability(native, solvers["native"].average_policy())}
    assert after["ours"] == pytest.approx(after["native"], abs=1e-9)
    assert after["ours"] < uniform - 0.1


@pytest.mark.parametrize("name", ["kuhn-poker", "leduc-poker"])
def test_openspiel_random_sim_test(name):
    pyspiel.random_sim_test(pyspiel.load_game(f"interpret(game={name})"), num_sims=5, serialize=False,
                            verbose=False)


@pytest.mark.parametrize("name", ["kuhn-poker", "leduc-poker"])
def test_pettingzoo_api_test(name):
    pytest.importorskip("pettingzoo")
    from pettingzoo.test import api_test
    from interpreter.adapters.pettingzoo import env
    api_test(env(name), num_cycles=100, verbose_progress=False)


def _has_tensors() -> bool:
    return _interpret_type().provides_information_state_tensor


@pytest.mark.skipif(not _has_tensors(), reason="the adapter gives no information-state tensors yet (issue 33 item 4)")
@needs_score_returns
def test_rl_environment_runs_episodes_of_kuhn_poker():
    """OpenSpiel's rl_environment.Environment takes the game: episodes of random play, each
    observation an information-state vector of the declared size, each end paying the chips won."""
    from open_spiel.python import rl_environment
    game = _ours("kuhn-poker")
    env = rl_environment.Environment(game)
    size = game.information_state_tensor_size()
    rng = random.Random(3)
    ends = set()
    for _ in range(30):
        step = env.reset()
        while not step.last():
            seat = step.observations["current_player"]
            assert len(step.observations["info_state"][seat]) == size
            step = env.step([rng.choice(step.observations["legal_actions"][seat])])
        assert sum(step.rewards) == 0
        ends.add(abs(step.rewards[0]))
    assert ends == {1.0, 2.0}
