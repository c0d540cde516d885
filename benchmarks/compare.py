"""interpret side by side with hand-written games: random playouts, one core, CPU time.

    python benchmarks/compare.py                  # about 20 s in all
    python benchmarks/compare.py --seconds 60 --json

Contenders, each playing whole random games (moves drawn from its own random.Random(seed)):
  - interpret on content/tic-tac-toe and content/connect-four, through the public forward model
    (`legal_actions`, then `apply_in_place(..., checked=False)`: the fast path bots use);
  - the plain Python classes of benchmarks/plain_games.py;
  - OpenSpiel's `python_tic_tac_toe` (written in Python) and `connect_four` (C++), when the
    optional `open_spiel` package is installed (`pip install ".[openspiel]"`).

The contenders run in turns of short slices of CPU time (time.process_time), round after round,
so that whatever else the machine does hits them all alike. A step is one move applied; creating
each new game is counted in the time. The ratios compare steps per second: interpret's divided by
the other's (below 1: interpret is slower).
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import random
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT))   # measure this checkout's interpreter, whatever is installed
sys.path.insert(0, str(HERE))

from interpreter.engine.game import Game  # noqa: E402
from plain_games import ConnectFour, TicTacToe  # noqa: E402

GAMES = ("tic-tac-toe", "connect-four")


# ---- one random game, for each kind of contender --------------------------------------------

def load_content(name: str) -> Game:
    """A bundled game of this checkout (`tic-tac-toe`, `connect-four`)."""
    return Game.load(str(ROOT / "content" / name))


def interpret_playout(game: Game, rng: random.Random, seed: int = 0) -> int:
    """One random game through the forward model; returns the number of moves."""
    st = game.new_game(seed)
    steps = 0
    is_terminal, legal_actions, apply_in_place = game.is_terminal, game.legal_actions, game.apply_in_place
    while not is_terminal(st):
        actions = legal_actions(st)
        apply_in_place(st, actions[rng.randrange(len(actions))], checked=False)
        steps += 1
    return steps


def plain_playout(cls, rng: random.Random) -> int:
    g = cls()
    steps = 0
    while not g.is_terminal():
        actions = g.legal_actions()
        g.apply(actions[rng.randrange(len(actions))])
        steps += 1
    return steps


def openspiel_playout(game, rng: random.Random) -> int:
    state = game.new_initial_state()
    steps = 0
    while not state.is_terminal():
        actions = state.legal_actions()
        state.apply_action(actions[rng.randrange(len(actions))])
        steps += 1
    return steps


def load_openspiel(name: str):
    """An OpenSpiel game, or None when open_spiel is not installed."""
    try:
        import pyspiel
        import open_spiel.python.games  # noqa: F401  (registers the python_* games)
    except ImportError:
        return None
    return pyspiel.load_game(name)


# ---- the same moves in the plain classes and in the content (tests/test_benchmarks.py) ------

def content_action(game_name: str, move: int) -> str:
    """The content's action for a plain class's move: a cell 0..8, a column 0..6."""
    if game_name == "tic-tac-toe":
        r, c = divmod(move, 3)
        return f"play r{r + 1}c{c + 1}"
    return f"drop {move + 1}"


def plain_class(game_name: str):
    return TicTacToe if game_name == "tic-tac-toe" else ConnectFour


def content_winner(game: Game, st) -> int | None:
    """The seat index of the winner of a finished content game, None for a draw."""
    winners = game.winners(st)
    assert len(winners) <= 1, winners
    return winners[0] if winners else None


# ---- measuring ------------------------------------------------------------------------------

@dataclass
class Contender:
    name: str            # e.g. "interpret", "plain class", "OpenSpiel python"
    game: str            # "tic-tac-toe" or "connect-four"
    play: object         # play(rng) -> moves in one random game
    seed: int = 1
    steps: int = 0
    games: int = 0
    seconds: float = 0.0
    rng: random.Random = field(default=None, repr=False)

    @property
    def steps_per_second(self) -> float:
        return self.steps / self.seconds if self.seconds else 0.0

    @property
    def us_per_step(self) -> float:
        return self.seconds / self.steps * 1e6 if self.steps else 0.0


def contenders(*, seed: int = 1, openspiel: bool = True) -> list[Contender]:
    """Every contender available here, in table order."""
    out = []
    ttt, c4 = load_content("tic-tac-toe"), load_content("connect-four")
    out.append(Contender("interpret", "tic-tac-toe", lambda rng: interpret_playout(ttt, rng)))
    out.append(Contender("plain class", "tic-tac-toe", lambda rng: plain_playout(TicTacToe, rng)))
    os_ttt = load_openspiel("python_tic_tac_toe") if openspiel else None
    if os_ttt is not None:
        out.append(Contender("OpenSpiel python", "tic-tac-toe", lambda rng: openspiel_playout(os_ttt, rng)))
    out.append(Contender("interpret", "connect-four", lambda rng: interpret_playout(c4, rng)))
    out.append(Contender("plain class", "connect-four", lambda rng: plain_playout(ConnectFour, rng)))
    os_c4 = load_openspiel("connect_four") if openspiel else None
    if os_c4 is not None:
        out.append(Contender("OpenSpiel C++", "connect-four", lambda rng: openspiel_playout(os_c4, rng)))
    for c in out:
        c.seed = seed
        c.rng = random.Random(seed)
    return out


def measure(cs: list[Contender], *, seconds: float, slice_seconds: float = 0.05) -> list[Contender]:
    """Run the contenders in turns of `slice_seconds` of CPU time each until each has had its
    share of `seconds`. Whole games only: a slice ends after the game that crosses it."""
    clock = time.process_time
    share = seconds / len(cs)
    for c in cs:  # warm up (first calls, caches), not counted
        c.play(random.Random(-1))
    while any(c.seconds < share for c in cs):
        for c in cs:
            if c.seconds >= share:
                continue
            start = clock()
            end = start + slice_seconds
            steps = games = 0
            now = start
            while now < end:
                steps += c.play(c.rng)
                games += 1
                now = clock()
            c.seconds += now - start
            c.steps += steps
            c.games += games
    return cs


def ratios(cs: list[Contender]) -> list[tuple[str, float]]:
    """interpret's steps/s divided by each other contender's, game by game."""
    out = []
    for game in GAMES:
        mine = next((c for c in cs if c.game == game and c.name == "interpret"), None)
        if mine is None:
            continue
        for c in cs:
            if c.game == game and c is not mine and c.steps:
                out.append((f"{game}: interpret / {c.name}", mine.steps_per_second / c.steps_per_second))
    return out


def summary(cs: list[Contender]) -> dict:
    return {
        "python": platform.python_version(),
        "cpu": _cpu_name(),
        "date": time.strftime("%Y-%m-%d"),
        "contenders": [{"name": c.name, "game": c.game, "games": c.games, "steps": c.steps,
                        "cpu_seconds": round(c.seconds, 3), "steps_per_second": round(c.steps_per_second, 1),
                        "us_per_step": round(c.us_per_step, 2)} for c in cs],
        "ratios": {name: round(r, 4) for name, r in ratios(cs)},
    }


def table(cs: list[Contender]) -> str:
    lines = [f"{'game':<14} {'contender':<18} {'games':>8} {'steps/s':>12} {'µs/step':>9}"]
    for c in cs:
        lines.append(f"{c.game:<14} {c.name:<18} {c.games:>8,} {c.steps_per_second:>12,.0f} {c.us_per_step:>9.2f}")
    lines.append("")
    lines.append("ratio of steps/s (interpret's / the other's)")
    for name, r in ratios(cs):
        lines.append(f"  {name:<44} {r:8.3f}×" + (f"   ({1 / r:.1f}× slower)" if r < 1 else ""))
    return "\n".join(lines)


def _cpu_name() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def _pin_one_core() -> None:
    if hasattr(os, "sched_setaffinity"):
        try:
            os.sched_setaffinity(0, {sorted(os.sched_getaffinity(0))[-1]})
        except OSError:
            pass


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--seconds", type=float, default=20.0, help="CPU time budget for all contenders together (default 20)")
    p.add_argument("--seed", type=int, default=1, help="seed of every contender's random moves (default 1)")
    p.add_argument("--no-openspiel", action="store_true", help="leave OpenSpiel out even when it is installed")
    p.add_argument("--json", action="store_true", help="print the figures as JSON")
    a = p.parse_args(argv)
    _pin_one_core()
    cs = measure(contenders(seed=a.seed, openspiel=not a.no_openspiel), seconds=a.seconds)
    if a.json:
        print(json.dumps(summary(cs), indent=2))
    else:
        s = summary(cs)
        print(f"random playouts, one core, CPU time; {s['cpu']}, Python {s['python']}, {s['date']}")
        print(table(cs))
        if not any(c.name.startswith("OpenSpiel") for c in cs):
            print("(OpenSpiel is not installed: pip install open_spiel)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
