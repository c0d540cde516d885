"""A child process of `search_speed.py --baseline`: runs a search agent with the interpreter of one tree.

    python benchmarks/search_worker.py --tree DIR --game dark-agent --players 4 --agent ismcts:100

DIR is a source tree of interpret (this checkout, or a git revision unpacked by search_speed.py):
its `interpreter` package and its content are used, whatever is installed. The worker loads the
game, finds the positions (random play from seed 1, as search_speed.py's `positions`), answers
`{"ready": ...}`, then reads lines `POSITION` on stdin and answers each with one JSON line: the
iterations the agent ran at that position and the CPU time they took. Only the public forward
model and `make_agent` / `make_decision` are used, so that an older or a newer tree runs the same
workload.
"""
from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time

from playout_worker import use_tree


def main() -> int:
    p = argparse.ArgumentParser()
    p.add_argument("--tree", required=True)
    p.add_argument("--game", default="dark-agent")
    p.add_argument("--players", type=int)
    p.add_argument("--agent", default="ismcts:100")
    p.add_argument("--positions", type=int, default=5)
    a = p.parse_args()
    use_tree(a.tree)
    import interpreter
    from interpreter import Game
    from interpreter.agents import make_agent, make_decision
    game = Game.load(a.game, players=a.players)
    rng = random.Random(1)
    positions = []
    st = game.new_game(seed=1)
    while len(positions) < a.positions and not game.is_terminal(st):
        acts = game.legal_actions(st)
        if len(acts) > 1 and rng.random() < 0.1:
            positions.append(make_decision(game, st))  # a copy of the state: it stays as it is
        game.apply_in_place(st, rng.choice(acts))
    print(json.dumps({"ready": True, "module": os.path.dirname(interpreter.__file__),
                      "positions": len(positions)}), flush=True)
    for line in sys.stdin:
        i = int(line)
        agent = make_agent(a.agent, i)
        start = time.process_time()
        agent.act(positions[i])
        cpu = time.process_time() - start
        print(json.dumps({"iterations": agent.stats["iterations"], "cpu_s": cpu}), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
