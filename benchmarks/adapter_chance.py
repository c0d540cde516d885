"""What explicit chance costs (issue 33): random games played in explicit-chance mode (every draw a
chance node, engine/chance.py), with each decision in a greenlet that goes on at each outcome (the
default, engine/suspend.py), and with every decision run again at each of its draws (as without
greenlet installed); the same games in sampled mode for reference. CPU seconds, the least of
`--repeat` runs, the three interleaved.

    python benchmarks/adapter_chance.py                      # Leduc poker, 200 games
    python benchmarks/adapter_chance.py --game agents-secrets --players 6 --games 5
"""
from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from interpreter.engine import suspend  # noqa: E402
from interpreter.engine.game import Game  # noqa: E402


def play(g: Game, mode: str, games: int) -> tuple[float, int]:
    """(CPU seconds, rule runs of decisions) of `games` random games in `mode`."""
    runs = [0]
    plain = g._apply_plain
    g._apply_plain = lambda *a: (runs.__setitem__(0, runs[0] + 1), plain(*a))[1]
    pick = random.Random(1)
    t = time.process_time()
    try:
        for seed in range(games):
            st = g.new_game(seed, chance=mode)
            while not g.is_terminal(st):
                if g.is_chance(st):
                    g.apply_in_place(st, f"chance {pick.randrange(len(g.chance_outcomes(st)))}")
                else:
                    acts = g.legal_actions(st)
                    g.apply_in_place(st, acts[pick.randrange(len(acts))], checked=False)
    finally:
        del g._apply_plain
    return time.process_time() - t, runs[0]


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--game", default="leduc-poker")
    ap.add_argument("--players", type=int, default=0)
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args(argv)
    g = Game.load(args.game, players=args.players or None)
    play(g, "explicit", max(1, args.games // 10))  # warm
    start = suspend.start
    best: dict = {}
    for _ in range(args.repeat):
        for name in ("explicit", "explicit, no greenlet", "sampled"):
            if name == "explicit, no greenlet":
                suspend.start = lambda fn, work: None
            try:
                seconds, runs = play(g, name.split(",")[0], args.games)
            finally:
                suspend.start = start
            if name not in best or seconds < best[name][0]:
                best[name] = (seconds, runs)
    for name, (seconds, runs) in best.items():
        print(f"{args.game:14} {name:21} {seconds:7.3f} s CPU  {runs:7} rule runs of decisions")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
