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
