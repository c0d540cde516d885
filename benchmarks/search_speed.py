"""How fast the search agents think, and what their time goes to (issue 13, item 6).

    python benchmarks/search_speed.py                    # Dark Agent, 4 players, ismcts
    python benchmarks/search_speed.py --game agent-dog --agent mcts --profile

Plays random games to a few decisions with several legal actions, runs the agent there with a
fixed number of iterations, and reports iterations per second of CPU time. With --profile it runs
one decision under cProfile and splits the time among the forward model's parts.
"""
from __future__ import annotations

import argparse
import cProfile
import pstats
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from interpreter.agents import make_agent, make_decision  # noqa: E402
from interpreter.engine.game import Game, clone  # noqa: E402

PARTS = {  # function (file suffix, name) -> part of the forward model
    ("observation.py", "determinize"): "determinize (re-deal unseen cards, check invariants)",
    ("engine.py", "_has_action"): "legal actions (listed when the flow stops, in apply)",
    ("engine.py", "legal_actions"): "legal actions (asked)",
    ("engine.py", "apply_in_place"): "apply (whole, listing included)",
    ("engine.py", "clone"): "clone",
    ("evaluate.py", "values"): "evaluation",
}


def positions(game, count: int, seed: int):
    rng = random.Random(seed)
    out = []
    st = game.new_game(seed=seed)
    while len(out) < count and not game.is_terminal(st):
        acts = game.legal_actions(st)
        if len(acts) > 1 and rng.random() < 0.1:
            out.append(clone(st))
        game.apply_in_place(st, rng.choice(acts))
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--game", default="dark-agent")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--agent", default="ismcts")
    ap.add_argument("--iterations", type=int, default=200)
    ap.add_argument("--positions", type=int, default=5)
    ap.add_argument("--depth", type=int, default=None, help="rollout depth (default: the agent's)")
    ap.add_argument("--profile", action="store_true")
    args = ap.parse_args(argv)
    game = Game.load(args.game, players=args.players)
    opts = {} if args.depth is None else {"rollout_depth": args.depth}
    total_it = total_cpu = 0.0
    for i, st in enumerate(positions(game, args.positions, 1)):
        agent = make_agent(f"{args.agent}:{args.iterations}", i, **opts)
        t = time.process_time()
        agent.act(make_decision(game, st))
        cpu = time.process_time() - t
        total_it += agent.stats["iterations"]
        total_cpu += cpu
        print(f"position {i + 1}: {len(game.legal_actions(st))} actions, {agent.stats['iterations'] / cpu:,.0f} "
              f"iterations/s")
    print(f"{args.agent} in {args.game} ({args.players} players), rollout depth "
          f"{agent.rollout_depth}: {total_it / total_cpu:,.0f} iterations per second of CPU time")
    if args.profile:
        st = positions(game, 1, 2)[0]
        agent = make_agent(f"{args.agent}:{args.iterations}", 0, **opts)
        pr = cProfile.Profile()
        pr.enable()
        agent.act(make_decision(game, st))
        pr.disable()
        stats = pstats.Stats(pr).stats
        whole = max(ct for (_, _, name), (_, _, _, ct, _) in stats.items() if name == "act")
        print(f"\none decision under cProfile ({whole:.2f} s), cumulative share of each part:")
        for (file, _, name), (_, _, _, ct, _) in sorted(stats.items(), key=lambda kv: -kv[1][3]):
            for (suffix, fname), part in PARTS.items():
                if file.endswith(suffix) and name == fname:
                    print(f"  {100 * ct / whole:5.1f} %  {part}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
