"""What OpenSpiel sees of each bundled game (issue 33): the figures of docs/research.md.

    python benchmarks/adapter_sizes.py              # two Markdown tables

The first table, one row per bundled game: its information type and utility, the size of its
action space (action_index.py), of its observation tensor and of its information-state tensor
(tensor.py, plus 128 bits of digest). The second, the action space of every bundled game and of
each variant whose count differs from its game's, with the largest blocks (the actions whose
arguments take the most ids) and the time taken to number them.
"""
from __future__ import annotations

import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import pyspiel  # noqa: E402

import interpreter.adapters.openspiel  # noqa: E402,F401
from interpreter.adapters.action_index import ActionIndex  # noqa: E402
from interpreter.engine.game import Game  # noqa: E402

GAMES = [("tic-tac-toe", ""), ("connect-four", ""), ("kuhn-poker", "returns=score,utility_bound=2.0"),
         ("leduc-poker", "returns=score,utility_bound=13.0"), ("agents-secrets", "players=6"),
         ("dark-agent", "players=4"), ("dark-agent", "players=4,variants=hidden-cards"), ("agent-dog", "")]
PLAYERS = {"agents-secrets": 6, "dark-agent": 4}  # the player count of the first table
VARIANT_PLAYERS = {"solo": 1, "expansion-5-10": 6, "2-3-joueurs": 3}  # a variant's own player count


def row(name: str, params: str) -> str:
    game = pyspiel.load_game(f"interpret(game={name}{',' + params if params else ''})")
    t = game.get_type()
    info = "perfect" if t.information == pyspiel.GameType.Information.PERFECT_INFORMATION else "imperfect"
    utility = str(t.utility).split(".")[-1].lower().replace("_", "-")
    return (f"| {name} {params} | {info} | {utility} | {game.num_distinct_actions():,} | "
            f"{game.observation_tensor_size():,} | {game.information_state_tensor_size():,} |")


def space(name: str, players: int | None, variants=()) -> tuple[int, str, float]:
    """(ids, the largest blocks, seconds to number them) of a game."""
    g = Game.load(name, players=players, variants=list(variants))
    start = time.process_time()
    ix = ActionIndex(g)
    spent = time.process_time() - start
    blocks = sorted(ix.sizes().items(), key=lambda kv: -kv[1])[:3]
    shown = ", ".join(f"{n} {s:,} ({' × '.join(str(len(ix.values[n, i])) for i in range(ix.arity[n])) or '1'})"
                      for n, s in blocks if s > 1)
    return ix.size, shown, spent


def spaces() -> list[str]:
    out = []
    for folder in sorted(p for p in (ROOT / "content").iterdir() if (p / "game.yaml").exists()):
        name = folder.name
        base, shown, spent = space(name, PLAYERS.get(name))
        out.append(f"| {name} | | {base:,} | {shown} | {spent:.2f} |")
        for variant in sorted(p.stem for p in (folder / "variants").glob("*.yaml")) if (folder / "variants").is_dir() else []:
            players = VARIANT_PLAYERS.get(variant, PLAYERS.get(name))
            size, shown, spent = space(name, players, (variant,))
            if size != base or players != PLAYERS.get(name):
                count = f" ({players} player{'s' if players != 1 else ''})" if players != PLAYERS.get(name) else ""
                out.append(f"| {name} | {variant}{count} | {size:,} | {shown} | {spent:.2f} |")
    return out


def main() -> int:
    print("| game | information | utility | actions | observation tensor | information-state tensor |")
    print("| --- | --- | --- | ---: | ---: | ---: |")
    for name, params in GAMES:
        print(row(name, params), flush=True)
    print()
    print("| game | variant | actions | largest blocks (ids: keys per argument) | seconds to number |")
    print("| --- | --- | ---: | --- | ---: |")
    for line in spaces():
        print(line, flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
