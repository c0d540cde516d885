"""How `interpret analyze --jobs 2` scales against a serial run (issue 14 asks for >= 1.8x on 2 cores).

    python benchmarks/analysis_scaling.py                # Dark Agent, 4 players, 500 games
    python benchmarks/analysis_scaling.py --games 200 --jobs 2

Runs the same batch serially and with --jobs N into two temporary folders, checks that the results
files are identical, and prints the wall times, their ratio, the CPU seconds spent (the run's own
and its worker processes'), and the serial part (loading the game, summary and report: the wall time
that --jobs cannot share). Measure on an idle machine: with other work on the cores, the wall-time
ratio says more about the neighbours than about interpret; the CPU times say what parallel overhead costs.
"""
from __future__ import annotations

import argparse
import os
import resource
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from interpreter.analysis import Spec, analyze  # noqa: E402


def _cpu() -> float:
    me, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime


def _timed(spec: Spec, games: int, out: Path, jobs: int) -> tuple[float, float, float]:
    """Wall seconds, CPU seconds (this process and its workers), and the wall seconds of the serial part
    (loading the game, the summary and the report: everything but the games)."""
    cpu, wall = _cpu(), time.perf_counter()
    result = analyze(spec, games=games, out=out, jobs=jobs)
    wall = time.perf_counter() - wall
    return wall, _cpu() - cpu, wall - result.seconds


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", default="dark-agent")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--games", type=int, default=500)
    ap.add_argument("--jobs", type=int, default=2)
    args = ap.parse_args()
    spec = Spec(args.game, args.players)
    with tempfile.TemporaryDirectory() as tmp:
        serial_wall, serial_cpu, serial_part = _timed(spec, args.games, Path(tmp) / "serial", 1)
        par_wall, par_cpu, par_part = _timed(spec, args.games, Path(tmp) / "jobs", args.jobs)
        same = (Path(tmp) / "serial" / "results.jsonl").read_bytes() == (Path(tmp) / "jobs" / "results.jsonl").read_bytes()
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"{args.games} games of {args.game}, {args.players} players; load average {load:.1f} on "
          f"{os.cpu_count()} cores")
    print(f"serial:   {serial_wall:7.1f} s wall, {serial_cpu:7.1f} s CPU; serial part {serial_part:.2f} s")
    print(f"--jobs {args.jobs}: {par_wall:7.1f} s wall, {par_cpu:7.1f} s CPU; serial part {par_part:.2f} s "
          f"({100 * par_part / par_wall:.0f}% of the wall time)")
    print(f"speed-up {serial_wall / par_wall:.2f}x (wall); parallel overhead {100 * (par_cpu / serial_cpu - 1):+.0f}% CPU; "
          f"results identical: {same}")
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
