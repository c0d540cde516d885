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


def _local_ip(address: str) -> str | None:
    """The address of this machine's interface towards `address` (host:port), or None to let Ray choose."""
    import socket
    host, _, port = address.rpartition(":")
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:  # no packet is sent
            s.connect((host or address, int(port) if port.isdigit() else 6379))
            return s.getsockname()[0]
    except (OSError, ValueError):
        return None


def connect(address: str | None):
    """Connect to the cluster at `address` (host:port, or ray://host:port), or start a Ray on loopback."""
    ray = _ray()
    if ray.is_initialized():
        return ray
    quiet = {"include_dashboard": False, "log_to_driver": False, "configure_logging": False}
    try:
        if address and not address.startswith("ray://"):
            # this driver joins the cluster as a node: with the address of the interface that reaches the
            # head (127.0.0.1 for a head on loopback), not the one Ray guesses from a route to the internet
            ray.init(address=address, _node_ip_address=_local_ip(address), **quiet)
        elif address:
            ray.init(address=address, **quiet)
        else:  # a local Ray for this run, on 127.0.0.1; its workers import this very copy of interpret
            here = str(Path(__file__).resolve().parents[2])
            path = os.pathsep.join(p for p in (here, os.environ.get("PYTHONPATH")) if p)
            ray.init(address="local", _node_ip_address="127.0.0.1",
                     runtime_env={"env_vars": {"PYTHONPATH": path}}, **quiet)
    except (ConnectionError, RuntimeError, ValueError) as e:
        raise AnalysisError(f"cannot reach a Ray cluster at {address or 'a new local instance'}: {e}") from None
    return ray


_kept: dict = {"actors": [], "cls": None}  # the actors of this driver, kept from one batch to the next


def _actor_class(ray):
    if _kept["cls"] is not None:
        return _kept["cls"]

    @ray.remote(num_cpus=1)
    class Player:
        """Plays the games of whichever batch it is given; kept between the batches of one driver (a sweep's
        values, a tuning study's candidates), so that a worker process starts once, not once a batch."""

        def __init__(self):
            self.batch = None
            self.refused = None

        def prepare(self, spec, config):
            import gc
            from interpreter.analysis.games import _init_worker, _worker, configuration
            if self.batch == (spec, config):
                return True
            gc.unfreeze()  # the last batch's game goes
            _worker.clear()
            _init_worker(spec, config)
            mine = configuration(spec, _worker["game"])["content"]
            self.refused = None if mine == config["content"] else (
                f"a Ray worker has other content files for {config['game']} (hash {mine}, "
                f"the driver's {config['content']}): install the same interpret and game on every node")
            self.batch = (spec, config)
            return True

        def play(self, indices):
            from interpreter.analysis.games import _play_line
            if self.refused:
                return [(i, None, self.refused) for i in indices]
            return [_play_line(i) for i in indices]

    _kept["cls"] = Player
    return Player


def _forget(ray) -> None:
    for a in _kept["actors"]:
        ray.kill(a)
    _kept["actors"] = []


def lines(spec, config: dict, todo: range, *, jobs: int, address: str | None):
    """(index, line, error) for each game of `todo`, in order, played by `jobs` actors (0: the cluster's CPUs)."""
    ray = connect(address)
    from ray.util import ActorPool
    n = jobs if jobs > 0 else max(1, int(ray.cluster_resources().get("CPU", 1)))
    n = max(1, min(n, len(todo)))
    Player = _actor_class(ray)
    while len(_kept["actors"]) < n:
        _kept["actors"].append(Player.remote())
    actors = _kept["actors"][:n]
    try:  # chunks shrinking towards the end (games.chunks), handed to the free actors, given back in order
        ray.get([a.prepare.remote(spec, config) for a in actors])
        pool = ActorPool(actors)
        for batch in pool.map(lambda actor, chunk: actor.play.remote(list(chunk)), chunks(todo, n)):
            yield from batch
    except ray.exceptions.RayError as e:  # an actor or a node lost: the games written so far are kept
        _forget(ray)
        raise AnalysisError(f"the Ray cluster failed while playing ({type(e).__name__}: "
                            f"{str(e).splitlines()[0] if str(e) else ''}); run the same command again to resume") \
            from None
    except BaseException:  # stopped half-way (Ctrl-C, an error in a line): the actors may hold unread chunks
        _forget(ray)
        raise


def shutdown() -> None:
    try:
        import ray
    except ImportError:
        return
    if ray.is_initialized():
        _forget(ray)
        ray.shutdown()
    _kept["cls"] = None


__all__ = ["connect", "lines", "shutdown"]
