"""The search proves wins and losses in games of two seats without chance or hidden information
(MCTS-Solver, agents/mcts.py): a proven win is played, a proven loss avoided, a solved root stops
the search; games with dice or hidden cards are never "solved"."""
from __future__ import annotations

import random

from interpreter.agents import MCTSAgent
from interpreter.agents.base import make_decision
from interpreter.agents.mcts import Node, _prove
from interpreter.core.model import Action
from interpreter.engine.game import Game
from interpreter.engine.knowledge import deterministic, perfect_information


def _after(game, cells):
    st = game.new_game(seed=0)
    for c in cells:
        game.apply_in_place(st, Action("play", (c,)))
    return st


def test_a_win_in_one_is_proven_and_ends_the_search():
    game = Game.load("tic-tac-toe")
    # X: r1c1 r1c2, O: r2c1 r2c2; X to move wins at r1c3 (O would win at r2c3)
    st = _after(game, ["r1c1", "r2c1", "r1c2", "r2c2"])
    agent = MCTSAgent(seed=1, iterations=2000)
    root = agent.think(make_decision(game, st))
    assert root.proven == [1.0, 0.0]
    assert agent.stats["iterations"] < 200  # stopped once solved, not at 2000
    assert agent.act(make_decision(game, st)) == Action("play", ("r1c3",))
    plain = MCTSAgent(seed=1, iterations=2000, solve=False)
    assert plain.think(make_decision(game, st)).proven is None and plain.stats["iterations"] == 2000


def test_a_threat_is_answered_even_on_a_tiny_budget():
    """O must block at r1c3 or lose: every other move is proven lost, and never chosen."""
    game = Game.load("tic-tac-toe")
    st = _after(game, ["r1c1", "r2c2", "r1c2"])
    block = Action("play", ("r1c3",))
    solved = [MCTSAgent(seed=s, iterations=35).act(make_decision(game, st)) for s in range(40)]
    assert solved == [block] * 40
    plain = [MCTSAgent(seed=s, iterations=35, solve=False).act(make_decision(game, st)) for s in range(40)]
    assert plain.count(block) < 36  # what the proofs add at this budget (32 of 40 at first)


def test_a_node_whose_every_action_is_proven_takes_the_best_for_the_seat_to_move():
    root = Node(None)
    root.width = 2
    a, b = root.children["a"], root.children["b"] = Node(0), Node(0)
    a.proven, b.proven = [0.0, 1.0], [0.5, 0.5]
    _prove(root, [b])
    assert root.proven == [0.5, 0.5]  # the draw, seat 0's best
    root2 = Node(None)
    root2.width = 3
    root2.children["a"] = Node(0)
    root2.children["a"].proven = [0.0, 1.0]
    _prove(root2, [root2.children["a"]])
    assert root2.proven is None  # two actions not tried yet: nothing is proven


def test_only_games_without_chance_or_secrets_are_solved():
    for name, solvable in [("tic-tac-toe", True), ("connect-four", True), ("kuhn-poker", False),
                           ("agent-dog", False)]:
        game = Game.load(name, players=2 if name != "agent-dog" else 4)
        assert MCTSAgent(seed=0).solving(game) is solvable, name
        assert (deterministic(game) and perfect_information(game)) is (name in ("tic-tac-toe", "connect-four"))
    assert MCTSAgent(seed=0, solve=False).solving(Game.load("tic-tac-toe")) is False


def test_the_solver_keeps_the_search_deterministic():
    game = Game.load("connect-four")
    st = game.new_game(seed=2)
    rng = random.Random(4)
    for _ in range(14):
        game.apply_in_place(st, rng.choice(game.legal_actions(st)))
    first = [MCTSAgent(seed=7, iterations=300).act(make_decision(game, st)) for _ in range(2)]
    assert first[0] == first[1]
