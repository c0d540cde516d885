"""MAST rollouts against uniform ones, at equal iterations, seats rotated (agents/mcts.py).

    python benchmarks/mast.py connect-four --players 2 --agent mcts --iterations 200 --games 19
    python benchmarks/mast.py dark-agent --players 4 --agent ismcts --iterations 40 --games 16

Game g is played from seed g; the seat with MAST is g modulo the players, every other seat runs the
same search without it. Prints won/drawn/lost of the MAST seat and its score (a draw counts half)
with its 95 % Wilson interval.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from interpreter.agents import ISMCTSAgent, MCTSAgent, bot_seed, make_decision  # noqa: E402
from interpreter.engine.game import Game  # noqa: E402
from strength import wilson  # noqa: E402


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("game")
    ap.add_argument("--players", type=int, default=None)
    ap.add_argument("--agent", choices=("mcts", "ismcts"), default="mcts")
    ap.add_argument("--iterations", type=int, default=200)
    ap.add_argument("--games", type=int, default=20)
    args = ap.parse_args(argv)
    cls = MCTSAgent if args.agent == "mcts" else ISMCTSAgent
    game = Game.load(args.game, players=args.players)
    n = game.num_players
    won = drawn = lost = 0
    for g in range(args.games):
        st = game.new_game(seed=g)
        mine = g % n
        agents = [cls(bot_seed(g, s), iterations=args.iterations, mast=(s == mine)) for s in range(n)]
        while not game.is_terminal(st):
            p = game.current_player(st)
            game.apply_in_place(st, agents[p].act(make_decision(game, st, p, keep=True)), checked=False)
        winners = set(game.winners(st))
        if winners == {mine}:
            won += 1
        elif mine in winners or not winners:
            drawn += 1
        else:
            lost += 1
        print(f"game {g + 1}: {won}/{drawn}/{lost}", file=sys.stderr, flush=True)
    total = won + drawn + lost
    lo, hi = wilson(won + drawn / 2, total)
    print(f"MAST {args.agent}:{args.iterations} in {args.game} ({n} players): {won}/{drawn}/{lost}, "
          f"score {100 * (won + drawn / 2) / total:.0f} % [{100 * lo:.0f}, {100 * hi:.0f}]")
    return 0


if __name__ == "__main__":
    sys.exit(main())
