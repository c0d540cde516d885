"""How fast the search agents think, and what their time goes to (issue 13, item 6).

    python benchmarks/search_speed.py                    # Dark Agent, 4 players, ismcts
    python benchmarks/search_speed.py --game agent-dog --agent mcts --profile

Plays random games to a few decisions with several legal actions, runs the agent there with a
fixed number of iterations, and reports iterations per second of CPU time. With --profile it runs
one decision under cProfile and splits the time among the forward model's parts.

    python benchmarks/search_speed.py --baseline 1d4b993 --iterations 100 --rounds 3

With --baseline REV, this tree and git revision REV (unpacked as bench.py does) each run the agent
in a child process of its own (benchmarks/search_worker.py), on the same core, position by
position, alternately (who goes first alternates too), `--rounds` times over the positions; it
prints the iterations per CPU second of both, per round, and their ratio.

    python benchmarks/search_speed.py --workers 2 --seconds 0.3 --rounds 3

With --workers N, the search on N workers (`ismcts:0.3s@N`, agents/parallel.py) and on one
(`ismcts:0.3s`), each thinking the same time a decision at the same positions, in turn (who goes first
alternates): iterations per second of waiting (wall-clock), summed over the workers, and their ratio.
It measures the machine as it is: run it on an idle one.
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
    ("observation.py", "draw"): "determinize (re-deal unseen cards, check invariants)",
    ("listing.py", "actions"): "legal actions (listed when the flow stops, in apply, or asked)",
    ("game.py", "apply_in_place"): "apply (whole, listing included)",
    ("state.py", "clone"): "clone",
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


def cores_compare(args) -> int:
    """Iterations per wall-clock second of `AGENT:Ss@N` against `AGENT:Ss`, at the same positions."""
    game = Game.load(args.game, players=args.players)
    spots = positions(game, args.positions, 1)
    agents = {w: make_agent(f"{args.agent}:{args.seconds:g}s@{w}", 7) for w in (1, args.workers)}
    done = {w: [0, 0.0] for w in agents}
    try:
        for w, agent in agents.items():  # the workers forked and warmed up, outside the figures
            agent.act(make_decision(game, spots[0]))
        for r in range(args.rounds):
            for i, st in enumerate(spots):
                order = (1, args.workers) if (r + i) % 2 == 0 else (args.workers, 1)
                for w in order:
                    agent = agents[w]
                    before = agent.stats["iterations"] if w == 1 else 0  # one agent counts on, workers per decision
                    t = time.perf_counter()
                    agent.act(make_decision(game, st))
                    done[w][1] += time.perf_counter() - t
                    done[w][0] += agent.stats["iterations"] - before
            one, many = (done[w][0] / done[w][1] for w in (1, args.workers))
            print(f"round {r + 1}: {args.agent} {one:,.0f} iterations/s on 1 worker, {many:,.0f} on {args.workers}: "
                  f"{many / one:.2f}x", flush=True)
    finally:
        for agent in agents.values():
            getattr(agent, "close", lambda: None)()
    return 0


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--game", default="dark-agent")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--agent", default="ismcts")
    ap.add_argument("--iterations", type=int, default=200)
    ap.add_argument("--positions", type=int, default=5)
    ap.add_argument("--depth", type=int, default=None, help="rollout depth (default: the agent's)")
    ap.add_argument("--profile", action="store_true")
    ap.add_argument("--baseline", metavar="REV", help="compare with git revision REV, in the same run")
    ap.add_argument("--rounds", type=int, default=2, help="with --baseline or --workers: passes over the positions")
    ap.add_argument("--workers", type=int, default=None, help="compare the search on N workers with one, wall-clock")
    ap.add_argument("--seconds", type=float, default=0.3, help="with --workers: thinking time a decision")
    args = ap.parse_args(argv)
    if args.baseline:
        return compare(args)
    if args.workers:
        return cores_compare(args)
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


def compare(args) -> int:
    """This tree against `args.baseline`, alternately, position by position (see the module's text)."""
    import json
    import subprocess
    import tempfile
    from bench import ROOT, unpack_revision

    spec = f"{args.agent}:{args.iterations}"
    with tempfile.TemporaryDirectory(prefix="interpret-search-") as tmp:
        short = unpack_revision(args.baseline, Path(tmp))
        trees = {"current": ROOT, f"baseline {short}": Path(tmp) / "tree"}
        procs = {}
        for name, tree in trees.items():
            cmd = [sys.executable, str(Path(__file__).with_name("search_worker.py")), "--tree", str(tree),
                   "--game", args.game, "--players", str(args.players), "--agent", spec,
                   "--positions", str(args.positions)]
            procs[name] = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        try:
            ready = {name: json.loads(p.stdout.readline()) for name, p in procs.items()}
            for name, tree in trees.items():
                if not Path(ready[name]["module"]).resolve().is_relative_to(tree.resolve()):
                    raise SystemExit(f"the worker for {tree} imported {ready[name]['module']}")
            count = min(r["positions"] for r in ready.values())
            rounds = []
            for r in range(args.rounds):
                tally = {name: [0, 0.0] for name in procs}
                for i in range(count):
                    order = list(procs) if (r * count + i) % 2 == 0 else list(reversed(procs))
                    for name in order:
                        procs[name].stdin.write(f"{i}\n")
                        procs[name].stdin.flush()
                        got = json.loads(procs[name].stdout.readline())
                        tally[name][0] += got["iterations"]
                        tally[name][1] += got["cpu_s"]
                rounds.append({name: it / cpu for name, (it, cpu) in tally.items()})
        finally:
            for p in procs.values():
                p.stdin.close()
                p.wait()
    print(f"{spec} in {args.game} ({args.players} players), {count} positions, iterations per CPU second, "
          f"one core, alternately:")
    for r, figures in enumerate(rounds, 1):
        cur, base = figures.values()
        print(f"  round {r}: " + ", ".join(f"{k} {v:,.0f}" for k, v in figures.items())
              + f"; ratio current / baseline {cur / base:.2f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
