"""The policy rollout (interpreter/agents/rollout.py): `normal`'s best moves played on past the
others' replies. Strength is measured by benchmarks/strength.py; these tests hold the mechanism."""
from __future__ import annotations

import time

from interpreter.agents import GreedyAgent, RolloutAgent, make_agent, make_decision, parse_spec
from interpreter.engine.game import Game


def _o_threatens(game):
    """X to move, three cells free, no win for X, and O wins at r3c1 unless X takes it first."""
    st = game.new_game(seed=0)
    for cell in ("r1c1", "r1c3", "r1c2", "r2c2", "r2c3", "r2c1"):  # X, O, X, O, X, O
        action = next(a for a in game.legal_actions(st) if cell in str(a))
        game.apply_in_place(st, action)
    return st


def test_the_rollout_sees_the_reply_its_move_allows():
    """`normal` judges X's three moves alike (nothing scores before O's reply) and plays any of them;
    the rollout follows each with O's own judgement, which takes the win left open: it blocks."""
    game = Game.load("tic-tac-toe")
    decision = make_decision(game, _o_threatens(game))
    assert len(decision.actions) == 3
    block = next(a for a in decision.actions if "r3c1" in str(a))
    assert {RolloutAgent(seed, iterations=1).act(decision) for seed in range(10)} == {block}
    assert {GreedyAgent(seed).act(decision) for seed in range(10)} != {block}
    cut = {RolloutAgent(seed, iterations=1, horizon=0).act(decision) for seed in range(10)}
    assert cut != {block}  # without the play-out, the same tie as normal's


def test_the_rollout_keeps_to_its_time_and_falls_back_on_normals_choice():
    game = Game.load("dark-agent", players=4)
    st = game.new_game(seed=2)
    while len(game.legal_actions(st)) < 4 or game.is_chance(st):
        game.apply_in_place(st, game.legal_actions(st)[0], checked=False)
    decision = make_decision(game, st)
    agent = make_agent("rollout:0.2s", seed=1)
    t = time.perf_counter()
    action = agent.act(decision)
    assert time.perf_counter() - t < 1.0  # a rollout stops at the deadline (one takes ~40 ms of CPU here)
    assert action in [a for a, _, _ in agent.last_values] and len(agent.last_values) == 3
    assert str(parse_spec("rollout:6")) == "rollout:6"


def test_a_rollout_cut_by_the_deadline_leaves_normals_choice(monkeypatch):
    """With a policy that takes 0.5 s a decision, no rollout of a 0.3 s budget ends: the sample
    is dropped (candidates are compared on whole samples only) and normal's best is played."""
    from interpreter.agents import rollout
    slow = rollout.policy_step

    def policy_step(*args, **kw):
        time.sleep(0.5)
        return slow(*args, **kw)
    monkeypatch.setattr(rollout, "policy_step", policy_step)
    game = Game.load("tic-tac-toe")
    decision = make_decision(game, _o_threatens(game))
    agent = RolloutAgent(1, seconds=0.3)  # normal's judgement of the three moves: a few ms of its 90
    t = time.perf_counter()
    action = agent.act(decision)
    assert time.perf_counter() - t < 1.2  # the first rollout's first step, then stopped (whole: 3 s at least)
    assert [k for _, _, k in agent.last_values] == [0, 0, 0]
    assert action == agent.last_values[0][0]  # normal's order (all three judged alike, drawn)


def test_the_leader_evaluation_counts_the_best_other_side():
    from interpreter.agents.evaluate import Evaluator
    from interpreter.agents.rollout import lead
    game = Game.load("dark-agent", players=4)
    st = game.new_game(seed=2)
    st["pv"]["score"] = [3, 9, 1, 2]
    ev = Evaluator(game)
    assert lead(ev, st, 0) == 3 - 9 and lead(ev, st, 1) == 9 - 3
    assert ev.margin(st, 0) == 3 - 4  # normal's margin: over the others' mean
    assert make_agent("rollout:4,eval=leader").evaluation == "leader"
    import pytest
    from interpreter.agents import AgentSpecError
    with pytest.raises(AgentSpecError):
        parse_spec("greedy,eval=leader")
    with pytest.raises(AgentSpecError):
        parse_spec("rollout:4,eval=learnt")


# ---- the samples shared out among worker processes (`rollout:4@2`) --------------------------

def _mid_game_decisions(game, *, seed: int, count: int, after: int = 60) -> list:
    """Decisions of a random game past its opening (`after` decisions), with four actions or more."""
    import random
    rng = random.Random(seed)
    st = game.new_game(seed=seed)
    out, n = [], 0
    while len(out) < count and not game.is_terminal(st):
        acts = game.legal_actions(st)
        n += 1
        if n > after and len(acts) > 3 and not game.is_chance(st):
            out.append(make_decision(game, st))
            n = after - 20
        game.apply_in_place(st, acts[rng.randrange(len(acts))])
    return out


def _judgements(agent, decisions) -> list:
    try:
        return [(agent.act(d), agent.last_values) for d in decisions]
    finally:
        agent.close()


def test_samples_followed_in_worker_processes_give_the_serial_judgement():
    """Each sample has its own draws, whoever follows it: two workers (one a forked process) give
    the same candidates, the same mean margins and the same choice as one, for a budget in samples."""
    from interpreter.agents.parallel import can_fork
    if not can_fork():
        import pytest
        pytest.skip("no fork here")
    game = Game.load("dark-agent", players=4)
    decisions = _mid_game_decisions(game, seed=2, count=2)
    serial = _judgements(RolloutAgent(5, iterations=2, horizon=6), decisions)
    forked = RolloutAgent(5, iterations=2, horizon=6, workers=2)
    first = forked.act(decisions[0])
    assert len(forked._pool) == 1 and forked._pool[0].process.is_alive()  # the other worker is a process
    assert [(first, forked.last_values)] + _judgements(forked, decisions[1:]) == serial
    assert not forked._pool  # closed
    assert {k for _, _, k in serial[0][1]} == {2}
    assert make_agent("rollout:4@2", 1).workers == 2 and str(parse_spec("rollout:0.3s@2")) == "rollout:0.3s@2"
