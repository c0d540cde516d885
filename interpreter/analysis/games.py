"""One game of a batch: what a batch is (Spec), its configuration, playing one seeded game to
a result line, and the per-process worker state shared by the local pool and Ray actors."""
from __future__ import annotations

import gc
import hashlib
import json
from dataclasses import dataclass, field
from pathlib import Path

from ..errors import InterpretError
from .simulate import MAX_DECISIONS, SimulationError, play_out
from .outcome import LeadTracker, decided_by, facet_values


RESULTS = "results.jsonl"
RUN = "run.json"
FORMAT = 2  # 2: each result says how the lead went (`lead`)


class AnalysisError(InterpretError):
    """A batch cannot be run or resumed: a folder of another configuration, a game that failed..."""


@dataclass(frozen=True)
class Spec:
    """What a batch plays: the game, its player count, options, variants, each seat's agent, the seeds."""

    game: str
    players: int | None = None
    options: dict = field(default_factory=dict)
    variants: tuple = ()
    agents: tuple = ()  # one bot kind per seat; empty: random bots everywhere
    seed: int = 0
    max_decisions: int = MAX_DECISIONS

    def load(self):
        from ..engine.game import Game
        return Game.load(self.game, self.players, dict(self.options), tuple(self.variants))


def _fingerprint(game, variants) -> str:
    """A hash of the content files (base game and the variants used): changed content, other results."""
    from ..ruleset.loader import content_files
    from ..ruleset.variants import variant_path
    root = game.catalog.root
    paths = list(content_files(root))
    for v in variants:
        paths.append(variant_path(root, str(v)))
    h = hashlib.sha256()
    for p in paths:
        h.update(str(Path(p).relative_to(root) if Path(p).is_relative_to(root) else Path(p).name).encode())
        h.update(b"\0")
        h.update(Path(p).read_bytes())
    return h.hexdigest()[:16]


def configuration(spec: Spec, game) -> dict:
    """The configuration written to run.json: everything a result depends on."""
    agents = list(spec.agents) or ["random"] * game.num_players
    return {
        "format": FORMAT,
        "game": game.catalog.name,
        "title": game.title,
        "players": game.num_players,
        "options": game.catalog.options,
        "variants": list(spec.variants),
        "agents": agents,
        "seed": spec.seed,
        "max_decisions": spec.max_decisions,
        "content": _fingerprint(game, spec.variants),
    }


# ---- one game -----------------------------------------------------------------------------

def play_record(game, config: dict, index: int) -> dict:
    """Play game `index` of the batch and describe it (the line of results.jsonl)."""
    seed = config["seed"] + index
    # seat i's agent is seeded bot_seed(seed, i) (simulate.make_agents)
    lead = LeadTracker(game)
    r = play_out(game, seed, agents=config["agents"], max_decisions=config["max_decisions"], keep_state=True,
                 observe=lead.observe)
    return {
        "index": index,
        "seed": seed,
        "seats": [s.key for s in game.seats],
        "agents": config["agents"],
        "options": config["options"],
        "variants": config["variants"],
        "scores": r.scores,
        "ranking": r.ranking,
        "winners": r.winners,
        "decisions": r.decisions,
        "rounds": r.rounds,
        "decided_by": decided_by(game, r.state, r.winners),
        "lead": lead.result(r.state, r.winners),
        "facets": facet_values(game, r.state),
    }


def encode(record: dict) -> str:
    return json.dumps(record, separators=(",", ":"), ensure_ascii=False, default=str)


# The worker side of a process pool: each process loads the game once.
_worker: dict = {}


def _init_worker(spec: Spec, config: dict) -> None:
    if _worker.get("config") is config and "game" in _worker:
        return  # a forked process: it has the parent's game already, compiled
    _worker["game"] = spec.load()
    _worker["config"] = config
    gc.collect()
    gc.freeze()  # the game lives as long as the process: out of the collector's sight (see runner.Batch.run)


def chunks(todo: range, workers: int, largest: int = 16) -> list[range]:
    """`todo` cut into chunks handed out to `workers`: large first (few messages), shrinking to one
    game at the end (guided scheduling), so that no worker is left with a long chunk when the others
    are done. Each chunk is a quarter of the games left per worker, at most `largest`."""
    out, start, stop = [], todo.start, todo.stop
    while start < stop:
        size = max(1, min(largest, (stop - start) // (4 * max(1, workers))))
        out.append(range(start, min(stop, start + size)))
        start += size
    return out


def _play_chunk(indices: range) -> list[tuple[int, str | None, str | None]]:
    return [_play_line(i) for i in indices]


def _play_line(index: int) -> tuple[int, str | None, str | None]:
    try:
        return index, encode(play_record(_worker["game"], _worker["config"], index)), None
    except SimulationError as e:  # exceptions with keyword arguments do not cross processes: send the text
        return index, None, f"{e}"
    except InterpretError as e:
        return index, None, f"game {index} (seed {_worker['config']['seed'] + index}): {e}"


# ---- the folder -----------------------------------------------------------------------------
