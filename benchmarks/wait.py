"""How long a player waits for a bot: wall-clock seconds of each decision of one bot seat.

    python benchmarks/wait.py                       # hard (the game's) at seat 1 of Dark Agent 4p, three easy seats, seed 0
    python benchmarks/wait.py --bot rollout:0.3s --others normal --decisions 40

A decision with one legal action is not counted (a bot plays it at once). The figure is the
machine's: the load average is printed beside it (the level is a time budget, not iterations), and
the CPU seconds of the player's process a decision (what a decision costs on an idle core; with
worker processes, the player's share of it).
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from interpreter.agents import bot_seed, make_agent, make_decision, parse_spec  # noqa: E402
from interpreter.engine.game import Game  # noqa: E402
from interpreter.play.levels import game_levels  # noqa: E402


def waits(game: Game, bot: str, others: str, *, seed: int, decisions: int, cpu: list | None = None,
          stats: dict | None = None) -> list[float]:
    """The wall-clock seconds of the first `decisions` decisions (two actions or more) of `bot` at seat 0
    (and in `cpu`, if given, the CPU seconds of this process in each: a worker process's are not in it)."""
    st = game.new_game(seed=seed)
    levels = game_levels(game)  # a level is the game's, as `--bots` plays it
    agents = [make_agent(parse_spec(bot if s == 0 else others, levels=levels), bot_seed(seed, s))
              for s in range(game.num_players)]
    out = []
    try:
        while not game.is_terminal(st) and len(out) < decisions:
            p = game.current_player(st)
            decision = make_decision(game, st, p, keep=agents[p].keeps_decisions)
            start, used = time.perf_counter(), time.process_time()
            action = agents[p].act(decision)
            if p == 0 and len(decision.actions) > 1:
                out.append(time.perf_counter() - start)
                if cpu is not None:
                    cpu.append(time.process_time() - used)
            game.apply_in_place(st, action, checked=False)
    finally:
        if stats is not None:
            stats.update(getattr(agents[0], "stats", {}))
        for agent in agents:
            getattr(agent, "close", lambda: None)()
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--game", default="dark-agent")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--bot", default="hard")
    ap.add_argument("--others", default="easy")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--decisions", type=int, default=30)
    args = ap.parse_args(argv)
    game = Game.load(args.game, players=args.players)
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    cpu: list[float] = []
    stats: dict = {}
    times = waits(game, args.bot, args.others, seed=args.seed, decisions=args.decisions, cpu=cpu, stats=stats)
    end = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    if not times:
        print("no decision with a choice")
        return 1
    print(f"{args.bot} at seat 1 of {args.game} {args.players}p against {args.others}, seed {args.seed}: "
          f"{len(times)} decisions, median {statistics.median(times):.3f} s, max {max(times):.3f} s "
          f"(load average {load:.1f} at the start, {end:.1f} at the end); CPU of the player's process a "
          f"decision: median {statistics.median(cpu):.3f} s, max {max(cpu):.3f} s (its worker processes' not counted)")
    if stats:
        print(f"the bot's counts: {stats}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
