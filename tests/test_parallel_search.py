"""Root-parallel search (agents/parallel.py): several workers search one decision, their root
statistics summed; deterministic for a seed and a number of workers; tree reuse and the decoupled
secret choices still work in every worker; and MAST rollouts (agents/mcts.py)."""
from __future__ import annotations

import random
from collections import Counter
from pathlib import Path

import pytest

from interpreter.agents import ISMCTSAgent, MCTSAgent, ParallelAgent, make_agent, make_decision
from interpreter.agents.mcts import mast_choice
from interpreter.agents.parallel import can_fork, worker_seed
from interpreter.engine.game import Game


@pytest.fixture(scope="module")
def dark():
    return Game.load("dark-agent", players=4)


def _play(game, agent, *, seed: int, decisions: int, seat: int = 0) -> list[str]:
    """The actions of a game where `agent` holds `seat` and the others play at random."""
    st = game.new_game(seed=seed)
    rng = random.Random(seed)
    out = []
    for _ in range(decisions):
        if game.is_terminal(st):
            break
        p = game.current_player(st)
        if p == seat:
            a = agent.act(make_decision(game, st, p, keep=agent.keeps_decisions))
        else:
            acts = game.legal_actions(st)
            a = acts[rng.randrange(len(acts))]
        out.append(str(a))
        game.apply_in_place(st, a)
    return out


def test_workers_in_processes_play_as_workers_in_turn(dark):
    """The same seed and number of workers give the same play whether the workers are processes
    or run one after the other in this process (where no child process may start)."""
    if not can_fork():
        pytest.skip("no fork here")
    forked = ParallelAgent(ISMCTSAgent, 5, workers=2, iterations=30)
    moves = _play(dark, forked, seed=3, decisions=24)
    assert forked.in_processes and forked.stats["iterations"] == 60
    forked.close()
    inline = ParallelAgent(ISMCTSAgent, 5, workers=2, iterations=30, processes=False)
    assert _play(dark, inline, seed=3, decisions=24) == moves
    assert not inline.in_processes


def test_statistics_of_every_worker_are_summed(dark):
    st = dark.new_game(seed=1)
    while len(dark.legal_actions(st)) < 3:
        dark.apply_in_place(st, dark.legal_actions(st)[0])
    agent = ParallelAgent(ISMCTSAgent, 9, workers=3, iterations=20, processes=False)
    agent.act(make_decision(dark, st))
    assert sum(v for _, v, _ in agent.last_values) == 60  # three workers, 20 iterations each
    alone = [ISMCTSAgent(worker_seed(9, i), iterations=20) for i in range(3)]
    summed = {}
    for one in alone:
        one.act(make_decision(dark, st))
        for a, v, t in one.last_values:
            summed[a] = (summed.get(a, (0, 0.0))[0] + v, summed.get(a, (0, 0.0))[1] + t)
    assert {a: v for a, v, _ in agent.last_values} == {a: v for a, (v, _) in summed.items()}


def test_one_worker_is_the_plain_search(dark):
    one = ParallelAgent(ISMCTSAgent, 4, workers=1, iterations=25)
    assert _play(dark, one, seed=2, decisions=20) == _play(dark, ISMCTSAgent(4, iterations=25), seed=2, decisions=20)


def test_make_agent_reads_the_workers():
    agent = make_agent("mcts:40@2", 1)
    assert isinstance(agent, ParallelAgent) and agent.workers == 2 and agent.base is MCTSAgent
    assert agent.local.agent.iterations == 40
    assert not isinstance(make_agent("mcts:40@1", 1), ParallelAgent)


def test_tree_reuse_goes_on_in_every_worker():
    """Connect four has no hidden move: each worker finds the node the game reached in its own tree."""
    game = Game.load("connect-four")
    agent = ParallelAgent(MCTSAgent, 2, workers=2, iterations=200, processes=False)
    _play(game, agent, seed=0, decisions=8)
    assert agent.local.agent.stats["reused"] >= 2
    assert all(w.searcher.agent.stats["reused"] >= 2 for w in agent._others)


def test_a_secret_choice_is_still_mixed():
    """Matching pennies with a blunder (tests/fixtures/pennies): merged over two workers, the first
    seat still tosses a fair coin and never blunders."""
    game = Game.load(str(Path(__file__).parent / "fixtures" / "pennies"))
    picks = Counter()
    for seed in range(30):
        st = game.new_game(seed=seed)
        agent = ParallelAgent(ISMCTSAgent, seed, workers=2, iterations=150, processes=False)
        picks[agent.act(make_decision(game, st)).name] += 1
    assert picks["blunder"] <= 2 and 8 <= picks["heads"] <= 22, picks


def test_mast_prefers_what_paid_and_tries_what_is_new():
    rng = random.Random(0)
    table = {"a": [3.0, 4], "b": [1.0, 4]}  # a averaged 0.75, b 0.25
    picks = [mast_choice(table, ["a", "b"], rng, 0.0) for _ in range(20)]
    assert set(picks) == {"a"}
    assert mast_choice(table, ["a", "b", "c"], rng, 0.0) == "c"  # never played: worth the best there is
    explored = {mast_choice(table, ["a", "b"], rng, 1.0) for _ in range(40)}
    assert explored == {"a", "b"}


def test_mast_rollouts_change_the_search(dark):
    """With MAST the rollouts follow the averages, so the search differs from uniform rollouts."""
    st = dark.new_game(seed=4)
    while len(dark.legal_actions(st)) < 4:
        dark.apply_in_place(st, dark.legal_actions(st)[0])
    on = ISMCTSAgent(1, iterations=40, mast=True)
    off = ISMCTSAgent(1, iterations=40, mast=False)
    on.act(make_decision(dark, st))
    off.act(make_decision(dark, st))
    assert on.last_values != off.last_values


def test_a_worker_process_gone_does_not_stop_the_game(dark):
    if not can_fork():
        pytest.skip("no fork here")
    agent = ParallelAgent(ISMCTSAgent, 5, workers=3, iterations=10)
    _play(dark, agent, seed=3, decisions=12)
    assert len(agent._others) == 2
    agent._others[0].process.kill()
    agent._others[0].process.join()
    _play(dark, agent, seed=4, decisions=12)
    assert len(agent._others) == 1
    agent.close()
