"""`interpret validate` in fresh processes, this tree against a git revision, interleaved.

    python benchmarks/validate_bench.py --baseline main            # Dark Agent, .pyc written
    python benchmarks/validate_bench.py --baseline main --no-pyc   # PYTHONDONTWRITEBYTECODE=1, no .pyc

Each tree gets its own disk cache (warmed by two runs first) and, with --no-pyc, has its
__pycache__ folders removed first, so that every module is compiled at each start (as in an
environment that sets PYTHONDONTWRITEBYTECODE=1 on a tree never byte-compiled). Then the two
trees run in turn, `--runs` times each: wall time and the process's CPU time (user + system).
Prints the best and the median of each, and the ratios baseline / current.
"""
from __future__ import annotations

import argparse
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench import unpack_revision  # noqa: E402


def once(tree: Path, game: str, cache: Path, pyc: bool) -> tuple[float, float]:
    env = dict(os.environ, PYTHONPATH=str(tree), INTERPRET_CACHE_DIR=str(cache))
    if pyc:
        env.pop("PYTHONDONTWRITEBYTECODE", None)
    else:
        env["PYTHONDONTWRITEBYTECODE"] = "1"
    r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    proc = subprocess.run([sys.executable, "-m", "interpreter", "validate", game], cwd=tree, env=env,
                          capture_output=True, text=True)
    wall = time.perf_counter() - t
    r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    if proc.returncode:
        raise SystemExit(f"validate failed in {tree}:\n{proc.stderr}")
    return wall, (r1.ru_utime - r0.ru_utime) + (r1.ru_stime - r0.ru_stime)


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--baseline", required=True, help="a git revision to compare with")
    p.add_argument("--game", default="content/dark-agent")
    p.add_argument("--runs", type=int, default=7)
    p.add_argument("--no-pyc", action="store_true", help="PYTHONDONTWRITEBYTECODE=1 and no __pycache__")
    a = p.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        (tmp / "base").mkdir()
        short = unpack_revision(a.baseline, tmp / "base")
        trees = {"current": ROOT, f"baseline {short}": tmp / "base" / "tree"}
        if a.no_pyc:
            for tree in trees.values():
                for d in (tree / "interpreter").rglob("__pycache__"):
                    shutil.rmtree(d, ignore_errors=True)
        caches = {name: tmp / f"cache{i}" for i, name in enumerate(trees)}
        for name, tree in trees.items():
            for _ in range(2):
                once(tree, a.game, caches[name], not a.no_pyc)
        times: dict[str, list] = {name: [] for name in trees}
        for _ in range(a.runs):
            for name, tree in trees.items():
                times[name].append(once(tree, a.game, caches[name], not a.no_pyc))
    mode = "no .pyc, PYTHONDONTWRITEBYTECODE=1" if a.no_pyc else ".pyc written"
    print(f"interpret validate {a.game}: fresh processes, disk cache warm, {mode}, {a.runs} runs each, alternately")
    figures = {}
    for name, runs in times.items():
        wall = sorted(w for w, _ in runs)
        cpu = sorted(c for _, c in runs)
        figures[name] = (wall[0], wall[len(wall) // 2], cpu[0], cpu[len(cpu) // 2])
        print(f"{name:<20} wall best {wall[0]:.3f} s, median {wall[len(wall) // 2]:.3f} s; "
              f"CPU best {cpu[0]:.3f} s, median {cpu[len(cpu) // 2]:.3f} s")
    cur, base = figures["current"], figures[f"baseline {short}"]
    print("ratio baseline / current: wall best {:.2f}×, median {:.2f}×; CPU best {:.2f}×, median {:.2f}×".format(
        *(b / c for b, c in zip(base, cur))))
    return 0


if __name__ == "__main__":
    sys.exit(main())
