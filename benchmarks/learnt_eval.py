"""Does the learnt evaluation help the search? One `ismcts,eval=learnt` seat against plain `ismcts` seats
at the same budget, the tested seat rotating from game to game (issue 29, item 3).

    python benchmarks/learnt_eval.py --games 20 --budget 0.1s          # Dark Agent, 4 players
    python benchmarks/learnt_eval.py --game agents-secrets --players 6 --budget 50

Game g (seed SEED + g) puts the learnt seat at seat g mod N; every other seat plays the same agent with
the plain evaluation (the score so far at a rollout's cut-off). A budget in seconds measures whether the
evaluation pays for what it costs (it reads every seat's features at each cut-off); a budget in
iterations, whether it judges better. Prints the win rate with its 95 % Wilson interval, the even rate
(1/N), each side's search iterations per second, and the command that plays the match again.
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from interpreter.agents import bot_seed, make_agent, make_decision  # noqa: E402
from interpreter.analysis.stats import wilson  # noqa: E402
from interpreter.engine.game import Game  # noqa: E402


def play(game: Game, *, tested: str, others: str, seat: int, seed: int, stats: dict) -> bool | None:
    """One game; True when the tested seat wins alone or with others, None when nobody wins."""
    st = game.new_game(seed=seed)
    agents = [make_agent(tested if s == seat else others, bot_seed(seed, s)) for s in range(game.num_players)]
    while not game.is_terminal(st):
        p = game.current_player(st)
        a = agents[p].act(make_decision(game, st, p, keep=agents[p].keeps_decisions))
        game.apply_in_place(st, a, checked=False)
    for s, agent in enumerate(agents):
        side = "learnt" if s == seat else "plain"
        for k in ("iterations", "seconds"):
            stats[side][k] += getattr(agent, "stats", {}).get(k, 0)
        getattr(agent, "close", lambda: None)()
    winners = game.winners(st)
    return (seat in winners) if winners else None


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--game", default="dark-agent")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--budget", default="0.1s", help="each seat's ismcts budget: iterations (150) or time (0.1s)")
    args = ap.parse_args(argv)
    game = Game.load(args.game, players=args.players)
    tested, others = f"ismcts:{args.budget},eval=learnt", f"ismcts:{args.budget}"
    stats = {side: {"iterations": 0, "seconds": 0.0} for side in ("learnt", "plain")}
    wins = losses = none = 0
    start = time.perf_counter()
    for g in range(args.games):
        won = play(game, tested=tested, others=others, seat=g % game.num_players, seed=args.seed + g, stats=stats)
        if won is None:
            none += 1
        elif won:
            wins += 1
        else:
            losses += 1
        print(f"  game {g + 1}/{args.games} (seed {args.seed + g}, learnt seat p{g % game.num_players + 1}): "
              f"{'won' if won else 'no winner' if won is None else 'lost'}", file=sys.stderr, flush=True)
    n = wins + losses + none
    lo, hi = wilson(wins, n)
    speed = {side: (s["iterations"] / s["seconds"] if s["seconds"] else 0.0) for side, s in stats.items()}
    print(f"{game.title}, {game.num_players} players: 1 seat {tested} vs {game.num_players - 1} seats {others}, "
          f"seats rotated")
    print(f"won {wins} of {n} ({none} without a winner): {100 * wins / max(1, n):.0f} % [{100 * lo:.0f}, {100 * hi:.0f}] "
          f"(even: {100 / game.num_players:.0f} %)")
    print(f"search speed: learnt {speed['learnt']:.0f} iterations/s, plain {speed['plain']:.0f} iterations/s "
          f"({time.perf_counter() - start:.0f} s in all)")
    print(f"command: python benchmarks/learnt_eval.py --game {args.game} --players {args.players} "
          f"--games {args.games} --seed {args.seed} --budget {args.budget}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
