"""`--backend ray`: the same games, played by Ray actors on a cluster (or on a Ray started here).

Each actor loads the game once and checks that its content is the driver's (the same hash as
run.json: a node with other content files is refused); the games are handed out in chunks of
indices and the lines come back in index order (`ActorPool.map`), so results.jsonl is the same,
byte for byte, as a serial run. Needs the extra `pip install "interpret[ray]"` on the driver and on
every node (see docs/analysis.md for a real cluster).
"""
from __future__ import annotations

import os
from pathlib import Path

from .games import AnalysisError, chunks


def _ray():
    try:
        import ray
    except ImportError:
        raise AnalysisError("--backend ray needs Ray: pip install \"interpret[ray]\" (on every node of the cluster)") \
            from None
    return ray


def connect(address: str | None):
    """Connect to the cluster at `address` (host:port, or ray://host:port), or start a Ray on loopback."""
    ray = _ray()
    if ray.is_initialized():
        return ray
    quiet = {"include_dashboard": False, "log_to_driver": False, "configure_logging": False}
    try:
        if address:
            ray.init(address=address, **quiet)
        else:  # a local Ray for this run, on 127.0.0.1; its workers import this very copy of interpret
            here = str(Path(__file__).resolve().parents[2])
            path = os.pathsep.join(p for p in (here, os.environ.get("PYTHONPATH")) if p)
            ray.init(address="local", _node_ip_address="127.0.0.1",
                     runtime_env={"env_vars": {"PYTHONPATH": path}}, **quiet)
    except (ConnectionError, RuntimeError, ValueError) as e:
        raise AnalysisError(f"cannot reach a Ray cluster at {address or 'a new local instance'}: {e}") from None
    return ray


def _actor_class(ray):
    @ray.remote(num_cpus=1)
    class Player:
        def __init__(self, spec, config):
            from interpreter.analysis.games import _init_worker, configuration
            _init_worker(spec, config)
            from interpreter.analysis.games import _worker
            mine = configuration(spec, _worker["game"])["content"]
            self.refused = None if mine == config["content"] else (
                f"a Ray worker has other content files for {config['game']} (hash {mine}, "
                f"the driver's {config['content']}): install the same interpret and game on every node")

        def play(self, indices):
            from interpreter.analysis.games import _play_line
            if self.refused:
                return [(i, None, self.refused) for i in indices]
            return [_play_line(i) for i in indices]

    return Player


def lines(spec, config: dict, todo: range, *, jobs: int, address: str | None):
    """(index, line, error) for each game of `todo`, in order, played by `jobs` actors (0: the cluster's CPUs)."""
    ray = connect(address)
    from ray.util import ActorPool
    n = jobs if jobs > 0 else max(1, int(ray.cluster_resources().get("CPU", 1)))
    n = max(1, min(n, len(todo)))
    Player = _actor_class(ray)
    actors = [Player.remote(spec, config) for _ in range(n)]
    pool = ActorPool(actors)
    try:  # chunks shrinking towards the end (games.chunks), handed to the free actors, given back in order
        for batch in pool.map(lambda actor, chunk: actor.play.remote(list(chunk)), chunks(todo, n)):
            yield from batch
    finally:
        for a in actors:
            ray.kill(a)


def shutdown() -> None:
    try:
        import ray
    except ImportError:
        return
    if ray.is_initialized():
        ray.shutdown()


__all__ = ["connect", "lines", "shutdown"]
