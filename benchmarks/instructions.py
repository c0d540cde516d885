"""How much work random play does, in machine instructions counted by valgrind (issue 29): what the
CPU runs, frames and C code included, the same in every run however busy the machine is.

    python benchmarks/instructions.py --game agent-dog --games 3
    python benchmarks/instructions.py --game dark-agent --games 20 --baseline c5d7f3c

Plays random games (the moves drawn from random.Random(seed), as bytecodes.py's) in a child process
run under `valgrind --tool=cachegrind --cache-sim=no`, with PYTHONHASHSEED=0, after one game played
outside the count (the listers and the code of the rules written, the disk cache of compiled rules
filled: a cache of its own, made for the count). The figure is the instructions (`I refs`) of that child less those of the same child
playing no game (loading Python and the game): the instructions of the games alone. Two runs agree
within about 0.02 %. A change of a frame or of a call, which bytecodes.py does not see, shows here.

With --baseline REV, the same games are counted with the interpreter of git revision REV (unpacked
as bench.py does) and the ratio baseline / this tree is printed: above 1, this tree does less work.
The games must be the same: their decisions and final scores are compared. valgrind must be
installed; a count takes about 50 times the games' own time.
"""
from __future__ import annotations

import argparse
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
_REFS = re.compile(r"I\s+refs:\s+([\d,]+)")


def play(game_name: str, players: int | None, games: int, seed: int) -> dict:
    """Random games with the interpreter importable here: one outside the count, then seeds seed ..
    seed + games - 1; their decisions and final scores."""
    import inspect
    from interpreter import Game
    game = Game.load(game_name, players=players)
    fast = {"checked": False} if "checked" in inspect.signature(game.apply_in_place).parameters else {}

    def one(s: int):
        rng = random.Random(s)
        st = game.new_game(s)
        n = 0
        while not game.is_terminal(st):
            actions = game.legal_actions(st)
            game.apply_in_place(st, actions[rng.randrange(len(actions))], **fast)
            n += 1
        return n, [float(x) for x in game.scores(st)]

    one(10**6)  # the listers and the code of the rules written before counting
    played = [one(s) for s in range(seed, seed + games)]
    return {"decisions": sum(n for n, _ in played), "scores": [sc for _, sc in played]}


def refs(text: str) -> int:
    """The instructions (`I refs`) in valgrind's cachegrind summary."""
    found = _REFS.search(text)
    if found is None:
        raise RuntimeError(f"no `I refs` in valgrind's output:\n{text[-2000:]}")
    return int(found.group(1).replace(",", ""))


def _child(tree: str, options: list[str], valgrind: bool, cache: str) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=tree, PYTHONHASHSEED="0", INTERPRET_CACHE_DIR=cache)
    cmd = [sys.executable, __file__, "--child", *options]
    if valgrind:
        cmd = ["valgrind", "--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=/dev/null", *cmd]
    return subprocess.run(cmd, check=True, capture_output=True, text=True, cwd=tree, env=env)


def count(tree: str, *, game_name: str, players: int | None, games: int, seed: int) -> dict:
    """The instructions of `games` random games played by the interpreter of `tree` (valgrind)."""
    if shutil.which("valgrind") is None:
        raise SystemExit("valgrind is not installed (apt-get install valgrind)")
    options = ["--game", game_name, "--seed", str(seed)] + (["--players", str(players)] if players else [])
    # A disk cache of its own: one shared with other processes (a test suite writing its entries)
    # would make the count with games and the count without them load different things.
    with tempfile.TemporaryDirectory(prefix="interpret-instructions-cache-") as cache:
        played = json.loads(_child(tree, options + ["--games", str(games)], False, cache).stdout)  # fills it
        with_games = refs(_child(tree, options + ["--games", str(games)], True, cache).stderr)
        without = refs(_child(tree, options + ["--games", "0"], True, cache).stderr)
    return {**played, "instructions": with_games - without, "load": without}


def line(r: dict, label: str) -> str:
    return (f"{label}: {r['decisions']:,} decisions, {r['instructions']:,} instructions "
            f"({r['instructions'] / max(r['decisions'], 1):,.0f} a decision; loading {r['load']:,})")


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--game", default="dark-agent")
    p.add_argument("--players", type=int)
    p.add_argument("--games", type=int, default=3)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--baseline", metavar="REV", help="count the same games with git revision REV too")
    p.add_argument("--child", action="store_true", help=argparse.SUPPRESS)  # plays, prints decisions and scores
    a = p.parse_args(argv)
    if a.child:
        print(json.dumps(play(a.game, a.players, a.games, a.seed)))
        return 0
    options = dict(game_name=a.game, players=a.players, games=a.games, seed=a.seed)
    mine = count(str(HERE.parent), **options)
    print(line(mine, "this tree"))
    if a.baseline:
        sys.path.insert(0, str(HERE))
        from bench import unpack_revision
        with tempfile.TemporaryDirectory(prefix="interpret-baseline-") as tmp:
            label = unpack_revision(a.baseline, Path(tmp))
            base = count(str(Path(tmp) / "tree"), **options)  # where unpack_revision puts it
        print(line(base, f"baseline {label}"))
        same = "yes" if (base["decisions"], base["scores"]) == (mine["decisions"], mine["scores"]) else \
            "NO (the games differ)"
        print(f"instructions, baseline / this tree: {base['instructions'] / mine['instructions']:.3f} "
              f"(same games: {same})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
