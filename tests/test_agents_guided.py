"""The guided search (interpreter/agents/guide.py): a prior from the `normal` judgement at the root,
progressive widening, rollouts that keep the move. Strength is measured by benchmarks/strength.py;
these tests hold each mechanism's behaviour."""
from __future__ import annotations

from interpreter.agents import MCTSAgent, make_decision
from interpreter.agents.guide import allowed_children
from interpreter.engine.game import Game


def _opening():
    game = Game.load("tic-tac-toe")
    return game, game.new_game(seed=0)


def test_widening_tries_few_children_first():
    game, st = _opening()  # nine legal moves
    narrow = MCTSAgent(1, iterations=16, widen=1.0)
    root = narrow.think(make_decision(game, st))
    assert len(root.children) == allowed_children(15, 1.0) == 4  # widened at 0, 1, 4 and 9 visits
    full = MCTSAgent(1, iterations=16).think(make_decision(game, st))
    assert len(full.children) == 9


def _x_wins_next(game):
    """X to move with a winning cell (row 1 completed by the third X), one of several free cells."""
    st = game.new_game(seed=0)
    for cell in ("r1c1", "r2c1", "r1c2", "r3c3"):  # X, O, X, O
        action = next(a for a in game.legal_actions(st) if cell in str(a))
        game.apply_in_place(st, action)
    return st


def test_the_root_widens_in_the_order_of_normals_judgement():
    game = Game.load("tic-tac-toe")
    st = _x_wins_next(game)
    decision = make_decision(game, st)
    win = next(a for a in decision.actions if "r1c3" in str(a))
    firsts = set()
    for seed in range(8):
        root = MCTSAgent(seed, iterations=1, prior=True).think(decision)
        firsts |= set(root.children)
    assert firsts == {win}  # the winning move is judged best, so tried first, whatever the seed
    unguided = set()
    for seed in range(8):
        unguided |= set(MCTSAgent(seed, iterations=1).think(decision).children)
    assert len(unguided) > 1


def test_the_judge_stops_at_a_hard_deadline():
    import time
    from interpreter.agents.greedy import GreedyAgent
    from interpreter.agents.guide import root_prior
    game, st = _opening()
    decision = make_decision(game, st)
    judge = GreedyAgent(3, iterations=1)
    judged = judge.judge(decision, deadline=time.perf_counter())  # already passed: one action judged
    assert len(judged) == 1
    prior = root_prior(GreedyAgent(3, iterations=1), decision, deadline=time.perf_counter())
    assert set(prior) == set(decision.actions)  # the others get the judged ones' mean
    assert len(GreedyAgent(3, iterations=1).judge(decision)) == len(decision.actions)


def test_the_roots_prior_keeps_to_the_time_budget(monkeypatch):
    """The prior (the `normal` judgement of every root action, each followed to the end of the move)
    is cut at its share of a time budget: with a judgement that costs 50 ms an action, nine actions
    would take 0.45 s before the search begins; a 0.1 s budget ends well before that."""
    import time
    from interpreter.agents import greedy
    slow = greedy.GreedyAgent.follow

    def follow(self, *args, **kw):
        time.sleep(0.05)
        return slow(self, *args, **kw)
    monkeypatch.setattr(greedy.GreedyAgent, "follow", follow)
    game, st = _opening()
    agent = MCTSAgent(1, seconds=0.1, prior=True)
    t = time.perf_counter()
    agent.act(make_decision(game, st))
    assert time.perf_counter() - t < 0.3
