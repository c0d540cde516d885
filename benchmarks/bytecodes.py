"""How much work random play does, in bytecodes: a measure of the engine's work that a busy machine
does not disturb (issue 29).

    python benchmarks/bytecodes.py                          # Dark Agent, 4 players, 3 games
    python benchmarks/bytecodes.py --game agent-dog --games 1 --top 20
    python benchmarks/bytecodes.py --baseline fd434a5        # this tree against a revision

Plays random games (the moves drawn from random.Random(seed), as bench.py's do) with CPython's
opcode tracing on, and counts the bytecodes each function runs: per decision in all, the share of
the listing of legal actions (everything run under engine/listing.py), and the functions that run
the most, a generated one named by the position of the content it was written from (the listing's
share is 0 for a tree without engine/listing.py). Timing is
what counts in the end (bench.py), but on a shared machine its figures move by 5-10 % from one run
to the next: this count is the same in every run, so a change of a few percent in the generated
code can be seen, and what it changed. It does not see the cost of calls and of C code (a frame
costs several bytecodes' time): fewer bytecodes from more calls can be slower.

With --baseline REV, the same games are counted with the interpreter of git revision REV (unpacked
as bench.py does), in a child process, and the ratio of the totals is printed.
"""
from __future__ import annotations

import argparse
import collections
import json
import os
import random
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent


def count(tree: str, *, game_name: str, players: int | None, games: int, seed: int, top: int) -> dict:
    """The bytecodes of `games` random games played by the interpreter of `tree`."""
    sys.path.insert(0, os.path.abspath(tree))
    from interpreter import Game
    import interpreter
    assert Path(interpreter.__file__).resolve().parent.parent == Path(tree).resolve(), interpreter.__file__
    game = Game.load(game_name, players=players)

    def play(s: int) -> int:
        rng = random.Random(s)
        st = game.new_game(s)
        n = 0
        while not game.is_terminal(st):
            actions = game.legal_actions(st)
            game.apply_in_place(st, actions[rng.randrange(len(actions))], checked=False)
            n += 1
        return n

    play(10**6)  # the listers and the code of the rules written before counting
    per_code = collections.Counter()
    names = {}
    listing = [0, 0]  # depth in the listing's frames, bytecodes counted there

    def trace(frame, event, arg):
        frame.f_trace_opcodes = True
        if frame.f_code.co_filename.endswith(os.path.join("engine", "listing.py")):
            listing[0] += 1
            return listed
        return opcode

    def opcode(frame, event, arg):
        if event == "opcode":
            code = frame.f_code
            per_code[code] += 1
            if listing[0]:
                listing[1] += 1
            if code not in names:
                where = frame.f_globals.get("_WHERE") if code.co_filename == "<interpret rules>" else None
                names[code] = f"{code.co_name} ({where or os.path.basename(code.co_filename) + ':' + str(code.co_firstlineno)})"
        return opcode

    def listed(frame, event, arg):  # the tracer of a frame of listing.py: it stays (opcode's would replace it)
        if event == "return":
            listing[0] -= 1
        opcode(frame, event, arg)
        return listed

    sys.settrace(trace)
    try:
        decisions = sum(play(s) for s in range(seed, seed + games))
    finally:
        sys.settrace(None)
    total = sum(per_code.values())
    return {"decisions": decisions, "per_decision": total / decisions, "listing_share": listing[1] / total,
            "top": [(names[c], n / decisions) for c, n in per_code.most_common(top)]}


def table(r: dict, label: str) -> str:
    lines = [f"{label}: {r['decisions']:,} decisions, {r['per_decision']:,.0f} bytecodes a decision, "
             f"{100 * r['listing_share']:.1f} % of them listing legal actions"]
    lines += [f"  {n:8.1f}  {name}" for name, n in r["top"]]
    return "\n".join(lines)


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--game", default="dark-agent")
    p.add_argument("--players", type=int)
    p.add_argument("--games", type=int, default=3)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--top", type=int, default=15, help="functions shown (default 15)")
    p.add_argument("--baseline", metavar="REV", help="count the same games with git revision REV too")
    p.add_argument("--tree", help=argparse.SUPPRESS)  # a child's tree
    p.add_argument("--json", action="store_true", help=argparse.SUPPRESS)
    a = p.parse_args(argv)
    options = dict(game_name=a.game, players=a.players, games=a.games, seed=a.seed, top=a.top)
    if a.tree is not None:
        print(json.dumps(count(a.tree, **options)))
        return 0
    mine = count(str(HERE.parent), **options)
    print(table(mine, "this tree"))
    if a.baseline:
        sys.path.insert(0, str(HERE))
        from bench import unpack_revision
        with tempfile.TemporaryDirectory(prefix="interpret-baseline-") as tmp:
            label = unpack_revision(a.baseline, Path(tmp))
            tree = str(Path(tmp) / "tree")  # where unpack_revision puts it
            args = [sys.executable, __file__, "--tree", tree, "--game", a.game, "--games", str(a.games),
                    "--seed", str(a.seed), "--top", str(a.top)] + (["--players", str(a.players)] if a.players else [])
            base = json.loads(subprocess.run(args, check=True, capture_output=True, text=True, cwd=tree).stdout)
        print(table(base, f"baseline {label}"))
        same = "yes" if base["decisions"] == mine["decisions"] else "NO (the games differ)"
        print(f"bytecodes a decision, this tree / baseline: {mine['per_decision'] / base['per_decision']:.3f} "
              f"(same games: {same})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
