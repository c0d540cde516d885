"""A bot playing for what the content says a game is worth against the same bot playing for the win.

    python benchmarks/payoff_ab.py kuhn-poker --agent ismcts:100 --hands 1000
    python benchmarks/payoff_ab.py leduc-poker --agent normal --hands 1000

The game is loaded twice: as bundled (its `scoring.payoff`, e.g. `score` in the poker hands: the
chips) and as a copy without its `payoff` lines (the default, `win`: a hand won is all that counts).
Seat 1 and seat 2 alternate between the two, hand by hand (seeds 0..N-1, the bots' seeds from the
hand's); both decide on the same state, each through its own game. Printed: the mean score per hand
of the bot playing for the payoff, with its 95 % interval.
"""
from __future__ import annotations

import argparse
import re
import shutil
import statistics
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from interpreter.agents import bot_seed, make_agent, make_decision  # noqa: E402
from interpreter.engine.game import Game  # noqa: E402


def without_payoff(name: str, folder: Path) -> Game:
    root = folder / name
    shutil.copytree(ROOT / "content" / name, root)
    text = (root / "game.yaml").read_text(encoding="utf-8")
    text, n = re.subn(r"\n  payoff(_bound)?: .*", "", text)
    if not n:
        raise SystemExit(f"payoff_ab.py: {name} declares no scoring.payoff")
    (root / "game.yaml").write_text(text, encoding="utf-8")
    return Game.load(str(root))


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("game")
    ap.add_argument("--agent", default="ismcts:100")
    ap.add_argument("--hands", type=int, default=1000)
    args = ap.parse_args(argv)
    payoff = Game.load(args.game)
    with tempfile.TemporaryDirectory() as tmp:
        wins = without_payoff(args.game, Path(tmp))
        got = []
        for seed in range(args.hands):
            mine = seed % 2  # the seat playing for the payoff
            st = payoff.new_game(seed=seed)
            agents = [make_agent(args.agent, bot_seed(seed, s)) for s in range(payoff.num_players)]
            while not payoff.is_terminal(st):
                p = payoff.current_player(st)
                a = agents[p].act(make_decision(payoff if p == mine else wins, st, p))
                payoff.apply_in_place(st, a)
            got.append(payoff.scores(st)[mine])
    mean, half = statistics.mean(got), 1.96 * statistics.stdev(got) / len(got) ** 0.5
    print(f"{args.game}: {args.agent} playing for the payoff ({payoff.catalog.payoff}) against {args.agent} "
          f"playing for the win, {args.hands} games, seats alternated: {mean:+.2f} ± {half:.2f} a game "
          f"(`python benchmarks/payoff_ab.py {args.game} --agent {args.agent} --hands {args.hands}`)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
