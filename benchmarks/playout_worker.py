"""A child process of `bench.py --baseline`: plays random games with the interpreter of one tree.

    python benchmarks/playout_worker.py --tree DIR --game dark-agent --players 4

DIR is a source tree of interpret (this checkout, or a git revision unpacked by bench.py): its
`interpreter` package and its content are used, whatever is installed. The worker loads the game,
answers `{"ready": ...}`, then reads lines `FIRST_SEED COUNT` on stdin and answers each with one
JSON line: the games played (seeds FIRST_SEED ... FIRST_SEED + COUNT - 1), their decisions, a
digest of their results and the CPU time they took. Only the public forward model is used
(`Game.load`, `new_game`, `is_terminal`, `legal_actions`, `apply_in_place`, `scores`), so that
an older or a newer tree runs the very same workload: the moves are drawn from
random.Random(seed), one generator per game.
"""
from __future__ import annotations

import argparse
import hashlib
import inspect
import json
import os
import random
import sys
import time


def use_tree(tree: str) -> None:
    """Import `interpreter` from `tree` first, and run on one core (the last one this process may use)."""
    sys.path.insert(0, os.path.abspath(tree))
    if hasattr(os, "sched_setaffinity"):
        try:
            os.sched_setaffinity(0, {sorted(os.sched_getaffinity(0))[-1]})
        except OSError:
            pass


def main() -> int:
    p = argparse.ArgumentParser()
    p.add_argument("--tree", required=True)
    p.add_argument("--game", default="dark-agent")
    p.add_argument("--players", type=int)
    a = p.parse_args()
    use_tree(a.tree)
    start = time.process_time()
    from interpreter import Game  # the public face: the same import in every tree
    game = Game.load(a.game, players=a.players)
    import interpreter
    # the fast path bots use (the action comes from legal_actions: no second check), if the tree has it
    fast = {"checked": False} if "checked" in inspect.signature(game.apply_in_place).parameters else {}

    def play(seed: int) -> tuple[int, list]:
        rng = random.Random(seed)
        st = game.new_game(seed)
        decisions = 0
        while not game.is_terminal(st):
            actions = game.legal_actions(st)
            game.apply_in_place(st, actions[rng.randrange(len(actions))], **fast)
            decisions += 1
        return decisions, game.scores(st)

    play(10**6)  # warm up, not counted
    print(json.dumps({"ready": True, "module": os.path.dirname(interpreter.__file__), "players": game.num_players,
                      "load_cpu_s": time.process_time() - start}), flush=True)
    for line in sys.stdin:
        first, count = map(int, line.split())
        digest = hashlib.sha256()
        decisions = 0
        start = time.process_time()
        for seed in range(first, first + count):
            n, scores = play(seed)
            decisions += n
            digest.update(repr((seed, n, scores)).encode())
        cpu = time.process_time() - start
        print(json.dumps({"games": count, "decisions": decisions, "cpu_s": cpu,
                          "digest": digest.hexdigest()}), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
