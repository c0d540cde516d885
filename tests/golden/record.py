"""Golden logs: seeded random games recorded once, replayed by tests/test_golden.py.

A golden log pins the forward model bit for bit: for each configuration (game, variant,
player count) it keeps, per seed, the actions the seeded random bots chose, a digest of the
state every CHECK_EVERY decisions and at the end, and the result. A change of the engine that
keeps every game identical replays them all; a change of content that changes games must
record them anew, and say why in its commit.

    python tests/golden/record.py            # record every configuration (about a minute)
    python tests/golden/record.py dark-agent # only the configurations of one game
"""
from __future__ import annotations

import gzip
import hashlib
import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent.parent))

from interpreter.engine.game import Game, to_json  # noqa: E402
from interpreter.agents import RandomAgent, bot_seed, make_decision  # noqa: E402

GAMES_PER_CONFIG = 50
CHECK_EVERY = 25
MAX_DECISIONS = 20_000

# (game, variants, players): every bundled game and variant, at a player count it allows
CONFIGS = [
    ("dark-agent", (), 4),
    ("dark-agent", (), 2),
    ("dark-agent", ("all-objectives",), 3),
    ("dark-agent", ("eclair",), 4),
    ("dark-agent", ("expansion-5-10",), 6),
    ("dark-agent", ("hidden-cards",), 4),
    ("dark-agent", ("long",), 2),
    ("dark-agent", ("no-dice",), 4),
    ("dark-agent", ("solo",), 1),
    ("dark-agent", ("teams",), 4),
    ("agents-secrets", (), 6),
    ("agents-secrets", ("le-monde-est-vaste",), 8),
    ("agent-dog", (), 4),
    ("agent-dog", ("2-3-joueurs",), 2),
    ("tic-tac-toe", (), 2),
    ("connect-four", (), 2),
    ("kuhn-poker", (), 2),
    ("leduc-poker", (), 2),
]


def config_name(game: str, variants, players: int) -> str:
    return "+".join((game, *variants)) + f"-{players}p"


def digest(st) -> str:
    return hashlib.sha256(to_json(st).encode()).hexdigest()[:16]


def play(game: Game, seed: int):
    """(actions, digests, result) of one seeded random game, as simulate plays it."""
    st = game.new_game(seed=seed)
    bots = [RandomAgent(bot_seed(seed, i)) for i in range(game.num_players)]
    actions, digests = [], [digest(st)]
    while not game.is_terminal(st):
        if len(actions) >= MAX_DECISIONS:
            raise RuntimeError(f"seed {seed}: no end within {MAX_DECISIONS} decisions")
        action = bots[game.current_player(st)].act(make_decision(game, st, keep=False))
        actions.append(str(action))
        game.apply_in_place(st, action, checked=False)
        if len(actions) % CHECK_EVERY == 0:
            digests.append(digest(st))
    digests.append(digest(st))
    result = {"rounds": st["flow"]["round"], "scores": game.scores(st), "ranking": game.ranking(st)}
    return actions, digests, result


def path_of(name: str) -> Path:
    return HERE / f"{name}.json.gz"


def record(game_name: str, variants, players: int) -> Path:
    game = Game.load(game_name, players=players, variants=variants)
    games = []
    for seed in range(GAMES_PER_CONFIG):
        actions, digests, result = play(game, seed)
        games.append({"seed": seed, "actions": actions, "digests": digests, "result": result})
    path = path_of(config_name(game_name, variants, players))
    data = {"game": game_name, "variants": list(variants), "players": players,
            "check_every": CHECK_EVERY, "games": games}
    # mtime=0: the same games give the same bytes
    with open(path, "wb") as raw, gzip.GzipFile(fileobj=raw, mode="wb", mtime=0) as f:
        f.write(json.dumps(data, separators=(",", ":")).encode())
    return path


def load(path: Path) -> dict:
    with gzip.open(path, "rb") as f:
        return json.loads(f.read())


if __name__ == "__main__":
    only = set(sys.argv[1:])
    for g, v, p in CONFIGS:
        if only and g not in only and config_name(g, v, p) not in only:
            continue
        print("recorded", record(g, v, p).name, flush=True)
