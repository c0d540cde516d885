"""What OpenSpiel sees of each bundled game (issue 33): the figures of docs/research.md.

    python benchmarks/adapter_sizes.py              # a Markdown table, one row per game

For each game: its information type and utility, the size of its action space (action_index.py),
of its observation tensor and of its information-state tensor (tensor.py, plus 128 bits of digest).
"""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import pyspiel  # noqa: E402

import interpreter.adapters.openspiel  # noqa: E402,F401

GAMES = [("tic-tac-toe", ""), ("connect-four", ""), ("agents-secrets", "players=6"), ("dark-agent", "players=4"),
         ("dark-agent", "players=4,variants=hidden-cards"), ("agent-dog", "")]


def row(name: str, params: str) -> str:
    game = pyspiel.load_game(f"interpret(game={name}{',' + params if params else ''})")
    t = game.get_type()
    info = "perfect" if t.information == pyspiel.GameType.Information.PERFECT_INFORMATION else "imperfect"
    utility = str(t.utility).split(".")[-1].lower().replace("_", "-")
    return (f"| {name} {params} | {info} | {utility} | {game.num_distinct_actions():,} | "
            f"{game.observation_tensor_size():,} | {game.information_state_tensor_size():,} |")


def main() -> int:
    print("| game | information | utility | actions | observation tensor | information-state tensor |")
    print("| --- | --- | --- | ---: | ---: | ---: |")
    for name, params in GAMES:
        print(row(name, params), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
