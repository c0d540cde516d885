"""How fast interpret plays: the figures of the README's Performance section.

    python benchmarks/bench.py                 # Dark Agent, 4 players, 1,000 games
    python benchmarks/bench.py --games 200 --json
    python benchmarks/bench.py --game tests/fixtures/mini --players 2

Measured on one core (the simulation runs in a child process pinned to one CPU,
which also gives its peak memory alone):
  - random full games per second and decisions per second (random bots, in place);
  - the cost of clone() and of one JSON round trip (to_json + from_json) of a mid-game state;
  - the time to validate the whole game (load + compile for every player count);
  - the peak resident memory of the simulation process.
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import subprocess
import sys
import time
import timeit
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
try:
    import interpreter  # noqa: F401
except ImportError:  # run from a checkout without installing
    sys.path.insert(0, str(ROOT))

from interpreter.bots import RandomBot, bot_seed  # noqa: E402
from interpreter.cli import load_game, validate_game  # noqa: E402
from interpreter.engine import clone, from_json, to_json  # noqa: E402
from interpreter.paths import content_dir  # noqa: E402
from interpreter.simulate import simulate  # noqa: E402

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
    game = load_game(game_name, players, {})
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


def _child(*args) -> dict:
    proc = subprocess.run([sys.executable, __file__, *map(str, args)], capture_output=True, text=True)
    if proc.returncode:
        raise SystemExit(f"benchmark child failed:\n{proc.stderr}")
    return json.loads(proc.stdout)


def mid_game_state(game, seed: int = 1):
    """A state half-way through a random game."""
    def playout(limit):
        st = game.new_game(seed=seed)
        bots = [RandomBot(bot_seed(seed, i)) for i in range(game.num_players)]
        n = 0
        while not game.is_terminal(st) and n < limit:
            game.apply_in_place(st, bots[game.current_player(st)].choose(game, st), checked=False)
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
    # validation in a fresh process: load + compile for every player count, grammar build included
    v = _child("--child-validate", "--game", game_name)
    game = load_game(game_name, players, {})
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
        ("peak memory of the simulation", f"{r['rss_peak_mb']:.1f} MB RSS ({r['rss_loaded_mb']:.1f} MB once loaded)"),
    ]
    w = max(len(k) for k, _ in rows)
    return "\n".join(f"{k.ljust(w)}  {v}" for k, v in rows)


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    default = DEFAULT_GAME if (content_dir() / DEFAULT_GAME).is_dir() else str(ROOT / "tests" / "fixtures" / "mini")
    p.add_argument("--game", default=default, help=f"game name or folder (default: {Path(default).name})")
    p.add_argument("--players", type=int, help="number of players (default: the game's, 4 for Dark Agent)")
    p.add_argument("--games", type=int, default=1000, help="games in the simulation (default 1000)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--json", action="store_true", help="print the figures as JSON")
    p.add_argument("--child-simulate", action="store_true", help=argparse.SUPPRESS)
    p.add_argument("--child-validate", action="store_true", help=argparse.SUPPRESS)
    a = p.parse_args(argv)
    if a.child_simulate:
        print(json.dumps(child_simulate(a.game, players=a.players, games=a.games, seed=a.seed)))
        return 0
    if a.child_validate:
        print(json.dumps(child_validate(a.game)))
        return 0
    r = run(a.game, players=a.players, games=a.games, seed=a.seed)
    print(json.dumps(r, indent=2) if a.json else table(r))
    return 0


if __name__ == "__main__":
    sys.exit(main())
