"""How fast interpret plays: the figures of the README's Performance section.

    python benchmarks/bench.py                 # Dark Agent, 4 players, 1,000 games
    python benchmarks/bench.py --games 200 --json
    python benchmarks/bench.py --game tests/fixtures/mini --players 2
    python benchmarks/bench.py --baseline 4048e28 --games 200   # this tree against a revision

Measured on one core (the simulation runs in a child process pinned to one CPU,
which also gives its peak memory alone):
  - random full games per second and decisions per second (random bots, in place);
  - the cost of clone() and of one JSON round trip (to_json + from_json) of a mid-game state;
  - the time to validate the whole game (load + compile for every player count);
  - the peak resident memory of the simulation process.

With --baseline REV, only the speed of random games is measured, for this tree and for the git
revision REV (unpacked with `git archive` into a temporary folder), in the same run: two child
processes (benchmarks/playout_worker.py), each with its own tree first on sys.path, play the same
seeds in alternate chunks of a few games, on the same core, in CPU time. It prints both and the
ratio current / baseline of decisions per second.
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import subprocess
import sys
import tarfile
import tempfile
import time
import timeit
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if (ROOT / "interpreter").is_dir():  # measure this checkout, whatever version is installed
    sys.path.insert(0, str(ROOT))

from interpreter.agents import RandomAgent, bot_seed, make_decision  # noqa: E402
from interpreter.play.cli import validate_game  # noqa: E402
from interpreter.engine.game import Game, clone, from_json, to_json  # noqa: E402
from interpreter.ruleset.paths import content_dir  # noqa: E402
from interpreter.analysis.simulate import simulate  # noqa: E402

DEFAULT_GAME = "dark-agent"


def _pin_one_core() -> None:
    if hasattr(os, "sched_setaffinity"):
        try:
            cpus = sorted(os.sched_getaffinity(0))
            os.sched_setaffinity(0, {cpus[-1]})
        except OSError:
            pass


def _maxrss_mb() -> float:
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return rss / 1024 / (1024 if sys.platform == "darwin" else 1)  # bytes on macOS, KiB elsewhere


def child_simulate(game_name: str, *, players: int | None, games: int, seed: int) -> dict:
    """Run in the child process: load, then play `games` random games; report time and memory."""
    _pin_one_core()
    game = Game.load(game_name, players=players)
    loaded_mb = _maxrss_mb()
    summary = simulate(game, games=games, seed=seed)
    return {"games": summary.games, "decisions": summary.decisions, "seconds": summary.seconds,
            "rounds_avg": sum(r.rounds for r in summary.results) / summary.games,
            "rss_loaded_mb": loaded_mb, "rss_peak_mb": _maxrss_mb()}


def child_validate(game_name: str) -> dict:
    """Run in a fresh child process: validate once, cold, as `interpret validate` does."""
    _pin_one_core()
    start = time.perf_counter()
    v = validate_game(game_name)
    cold = time.perf_counter() - start
    start = time.perf_counter()
    validate_game(game_name)
    return {"title": v.title, "cold_s": cold, "warm_s": time.perf_counter() - start}


def command_validate(game_name: str, repeat: int = 5) -> dict:
    """The whole `interpret validate GAME` command in fresh processes (Python's start and the imports
    included), the best of `repeat`: with nothing in the disk cache (INTERPRET_CACHE=off), and with
    the cache a first run filled (interpreter/ruleset/cache.py)."""
    def best(env) -> float:
        times = []
        for _ in range(repeat):
            start = time.perf_counter()
            proc = subprocess.run([sys.executable, "-m", "interpreter.play.cli", "validate", game_name],
                                  capture_output=True, text=True, env=env)
            times.append(time.perf_counter() - start)
            if proc.returncode:
                raise SystemExit(f"validate failed:\n{proc.stdout}{proc.stderr}")
        return min(times)
    with tempfile.TemporaryDirectory() as cache:
        env = dict(os.environ, INTERPRET_CACHE_DIR=cache, PYTHONPATH=str(ROOT))
        cold = best(dict(env, INTERPRET_CACHE="off"))
        best(env)  # fills the cache
        cached = best(env)
    return {"command_cold_s": cold, "command_cached_s": cached}


def _child(*args, env=None) -> dict:
    proc = subprocess.run([sys.executable, __file__, *map(str, args)], capture_output=True, text=True, env=env)
    if proc.returncode:
        raise SystemExit(f"benchmark child failed:\n{proc.stderr}")
    return json.loads(proc.stdout)


def mid_game_state(game, seed: int = 1):
    """A state half-way through a random game."""
    def playout(limit):
        st = game.new_game(seed=seed)
        bots = [RandomAgent(bot_seed(seed, i)) for i in range(game.num_players)]
        n = 0
        while not game.is_terminal(st) and n < limit:
            game.apply_in_place(st, bots[game.current_player(st)].act(make_decision(game, st, keep=False)), checked=False)
            n += 1
        return st, n
    _, length = playout(10**9)
    st, _ = playout(length // 2)
    return st


def per_call_us(fn, min_time: float = 0.3) -> float:
    timer = timeit.Timer(fn)
    number, _ = timer.autorange()
    while True:
        best = min(timer.repeat(repeat=5, number=number))
        if best * 5 >= min_time or number > 10**7:
            return best / number * 1e6
        number *= 2


def run(game_name: str, *, players: int | None, games: int, seed: int) -> dict:
    _pin_one_core()
    # validation in a fresh process: load + compile for every player count, grammar build included,
    # nothing read from the disk cache
    v = _child("--child-validate", "--game", game_name, env=dict(os.environ, INTERPRET_CACHE="off"))
    v.update(command_validate(game_name))
    game = Game.load(game_name, players=players)
    st = mid_game_state(game)
    text = to_json(st)
    clone_us = per_call_us(lambda: clone(st))
    json_us = per_call_us(lambda: from_json(to_json(st)))
    assert from_json(text) == st
    sim = _child("--child-simulate", "--game", game_name, "--games", games, "--seed", seed,
                 *(["--players", players] if players else []))
    return {
        "game": v["title"],
        "players": game.num_players,
        "python": platform.python_version(),
        "machine": platform.machine(),
        "cpu": _cpu_name(),
        "games": sim["games"],
        "games_per_second": sim["games"] / sim["seconds"],
        "decisions_per_second": sim["decisions"] / sim["seconds"],
        "decisions_per_game": sim["decisions"] / sim["games"],
        "rounds_per_game": sim["rounds_avg"],
        "clone_us": clone_us,
        "json_round_trip_us": json_us,
        "state_json_bytes": len(text.encode()),
        "validate_ms": v["cold_s"] * 1000,
        "validate_warm_ms": v["warm_s"] * 1000,
        "validate_command_ms": v["command_cold_s"] * 1000,
        "validate_command_cached_ms": v["command_cached_s"] * 1000,
        "rss_loaded_mb": sim["rss_loaded_mb"],
        "rss_peak_mb": sim["rss_peak_mb"],
    }


def _cpu_name() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def table(r: dict) -> str:
    rows = [
        ("game", f"{r['game']}, {r['players']} players, default options"),
        ("machine", f"{r['cpu']} ({r['machine']}), Python {r['python']}, one core"),
        ("random games / s", f"{r['games_per_second']:,.1f}  ({r['games']:,} games)"),
        ("decisions / s", f"{r['decisions_per_second']:,.0f}"),
        ("game length", f"{r['decisions_per_game']:.1f} decisions, {r['rounds_per_game']:.2f} rounds"),
        ("clone() of a mid-game state", f"{r['clone_us']:.1f} µs"),
        ("JSON round trip of it", f"{r['json_round_trip_us']:.1f} µs ({r['state_json_bytes']:,} bytes)"),
        ("validate (load + compile)", f"{r['validate_ms']:.0f} ms in a fresh process ({r['validate_warm_ms']:.0f} ms again)"),
        ("`interpret validate` command", f"{r['validate_command_ms']:.0f} ms with nothing cached, "
                                         f"{r['validate_command_cached_ms']:.0f} ms with the disk cache"),
        ("peak memory of the simulation", f"{r['rss_peak_mb']:.1f} MB RSS ({r['rss_loaded_mb']:.1f} MB once loaded)"),
    ]
    w = max(len(k) for k, _ in rows)
    return "\n".join(f"{k.ljust(w)}  {v}" for k, v in rows)


# ---- --baseline REV: this tree against a git revision, in the same run ------------------------

class Worker:
    """A child process playing random games with the interpreter of one source tree."""

    def __init__(self, tree: Path, *, game: str, players: int | None):
        args = [sys.executable, str(Path(__file__).with_name("playout_worker.py")), "--tree", str(tree), "--game", game]
        if players:
            args += ["--players", str(players)]
        self.proc = subprocess.Popen(args, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        self.ready = self._answer()
        self.games = self.decisions = 0
        self.cpu_s = 0.0
        self.digests = []

    def _answer(self) -> dict:
        line = self.proc.stdout.readline()
        if not line:
            raise SystemExit(f"benchmark worker failed (exit {self.proc.wait()}); see the error above")
        return json.loads(line)

    def play(self, first: int, count: int) -> None:
        self.proc.stdin.write(f"{first} {count}\n")
        self.proc.stdin.flush()
        r = self._answer()
        self.games += r["games"]
        self.decisions += r["decisions"]
        self.cpu_s += r["cpu_s"]
        self.digests.append(r["digest"])

    def close(self) -> None:
        self.proc.stdin.close()
        self.proc.wait()

    def figures(self) -> dict:
        return {"games": self.games, "decisions": self.decisions, "cpu_s": round(self.cpu_s, 3),
                "games_per_second": self.games / self.cpu_s, "decisions_per_second": self.decisions / self.cpu_s}


def unpack_revision(rev: str, dest: Path) -> str:
    """Unpack the tree of git revision `rev` of this checkout into `dest`; returns its short hash."""
    def git(*args, **kw):
        proc = subprocess.run(["git", "-C", str(ROOT), *args], capture_output=True, **kw)
        if proc.returncode:
            err = proc.stderr.decode() if isinstance(proc.stderr, bytes) else proc.stderr
            raise SystemExit(f"git {' '.join(args)}: {err.strip()}")
        return proc.stdout
    short = git("rev-parse", "--short", f"{rev}^{{commit}}", text=True).strip()
    archive = dest / "tree.tar"
    archive.write_bytes(git("archive", "--format=tar", short))
    with tarfile.open(archive) as tar:
        try:
            tar.extractall(dest / "tree", filter="data")
        except TypeError:  # Python before 3.11.4: no filters (the archive is our own repository's)
            tar.extractall(dest / "tree")
    return short


def compare_with_baseline(rev: str, *, game_name: str, players: int | None, games: int, seed: int,
                          chunk: int = 5) -> dict:
    """The same random games (seeds seed .. seed + games - 1) with this tree and with `rev`,
    alternately, chunk by chunk; figures of both and the ratio of decisions per second."""
    with tempfile.TemporaryDirectory(prefix="interpret-baseline-") as tmp:
        short = unpack_revision(rev, Path(tmp))
        current = Worker(ROOT, game=game_name, players=players)
        baseline = Worker(Path(tmp) / "tree", game=game_name, players=players)
        try:
            for w, tree in ((current, ROOT), (baseline, Path(tmp) / "tree")):  # each runs its own tree
                if not Path(w.ready["module"]).resolve().is_relative_to(tree.resolve()):
                    raise SystemExit(f"the worker for {tree} imported {w.ready['module']}")
            for i, first in enumerate(range(seed, seed + games, chunk)):
                count = min(chunk, seed + games - first)
                pair = (current, baseline) if i % 2 == 0 else (baseline, current)  # who goes first alternates
                for w in pair:
                    w.play(first, count)
        finally:
            current.close()
            baseline.close()
    cur, base = current.figures(), baseline.figures()
    return {"game": game_name, "players": current.ready["players"], "seeds": [seed, seed + games - 1], "chunk": chunk,
            "baseline_rev": short, "current": cur, "baseline": base,
            "ratio_decisions_per_second": cur["decisions_per_second"] / base["decisions_per_second"],
            "same_games": current.digests == baseline.digests,
            "python": platform.python_version(), "cpu": _cpu_name()}


def baseline_table(r: dict) -> str:
    lines = [f"{r['game']}, {r['players']} players, random games, seeds {r['seeds'][0]}-{r['seeds'][1]} "
             f"in chunks of {r['chunk']}, alternately; one core, CPU time; {r['cpu']}, Python {r['python']}",
             f"{'tree':<22} {'games':>6} {'decisions':>10} {'CPU s':>8} {'games/s':>9} {'decisions/s':>12}"]
    for name, f in ((f"current ({ROOT.name})", r["current"]), (f"baseline {r['baseline_rev']}", r["baseline"])):
        lines.append(f"{name:<22} {f['games']:>6} {f['decisions']:>10,} {f['cpu_s']:>8.2f} "
                     f"{f['games_per_second']:>9.2f} {f['decisions_per_second']:>12,.0f}")
    lines.append(f"ratio current / baseline (decisions/s): {r['ratio_decisions_per_second']:.2f}×")
    lines.append("same games on both sides (decisions and scores): "
                 + ("yes" if r["same_games"] else "NO: the two trees play these seeds differently"))
    return "\n".join(lines)


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    default = DEFAULT_GAME if (content_dir() / DEFAULT_GAME).is_dir() else str(ROOT / "tests" / "fixtures" / "mini")
    p.add_argument("--game", default=default, help=f"game name or folder (default: {Path(default).name})")
    p.add_argument("--players", type=int, help="number of players (default: the game's, 4 for Dark Agent)")
    p.add_argument("--games", type=int, default=1000, help="games in the simulation (default 1000)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--json", action="store_true", help="print the figures as JSON")
    p.add_argument("--baseline", metavar="REV", help="compare the speed of random games with git revision REV, in the same run")
    p.add_argument("--chunk", type=int, default=5, help="with --baseline: games per turn of each side (default 5)")
    p.add_argument("--child-simulate", action="store_true", help=argparse.SUPPRESS)
    p.add_argument("--child-validate", action="store_true", help=argparse.SUPPRESS)
    a = p.parse_args(argv)
    if a.child_simulate:
        print(json.dumps(child_simulate(a.game, players=a.players, games=a.games, seed=a.seed)))
        return 0
    if a.child_validate:
        print(json.dumps(child_validate(a.game)))
        return 0
    if a.baseline:
        r = compare_with_baseline(a.baseline, game_name=a.game, players=a.players, games=a.games, seed=a.seed,
                                  chunk=a.chunk)
        print(json.dumps(r, indent=2) if a.json else baseline_table(r))
        return 0
    r = run(a.game, players=a.players, games=a.games, seed=a.seed)
    print(json.dumps(r, indent=2) if a.json else table(r))
    return 0


if __name__ == "__main__":
    sys.exit(main())
