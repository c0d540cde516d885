"""Running a batch of games and keeping their results in a folder.

    batch = Batch.prepare(Spec(game="dark-agent", players=4), out="runs/da4")
    records = batch.run(games=500, jobs=2)

DIR/run.json holds the configuration; DIR/results.jsonl one JSON line per finished game, in the
order of the games' indices, flushed line by line. Game i starts from seed base + i and the bot of
each seat draws from a generator seeded from that seed, so a result depends on nothing but the
configuration and i: `--jobs` changes the speed, never a byte of the file. Running again on the same
DIR resumes after the last complete line; a DIR holding another configuration is refused.
"""
from __future__ import annotations

import gc
import json
import multiprocessing
import os
from dataclasses import dataclass
from pathlib import Path

from .games import (RESULTS, RUN, AnalysisError, Spec, _init_worker, _play_chunk, _play_line, _worker, chunks,
                    configuration, encode, play_record)
from .labfiles import complete_results, read_run
from ..ruleset.paths import shown, too_long
from .repro import command_of


def _differences(old: dict, new: dict) -> list[str]:
    out = []
    new = json.loads(json.dumps(new, default=str))
    for k in sorted(set(old) | set(new)):
        a, b = old.get(k), new.get(k)
        if a == b:
            continue
        if k == "content":
            out.append("the content files changed since")
        elif isinstance(a, dict) and isinstance(b, dict):
            out += [f"{k} {sub}: {a.get(sub)!r} there, {b.get(sub)!r} now"
                    for sub in sorted(set(a) | set(b)) if a.get(sub) != b.get(sub)]
        else:
            out.append(f"{k}: {a!r} there, {b!r} now")
    return out


@dataclass
class Batch:
    spec: Spec
    out: Path
    game: object
    config: dict
    done: int = 0  # complete lines already in results.jsonl

    @classmethod
    def prepare(cls, spec: Spec, out, game=None) -> "Batch":
        """Load the game, check the folder (a new one, or the same configuration to resume)."""
        out = Path(out)
        game = game or spec.load()
        config = configuration(spec, game)
        if too_long(out):
            raise AnalysisError(f"{shown(out)}: {too_long(out)}")
        if out.exists() and not out.is_dir():
            raise AnalysisError(f"{out}: not a folder (--out names the folder of the results)")
        run, results = out / RUN, out / RESULTS
        try:
            out.mkdir(parents=True, exist_ok=True)
            if run.exists():
                old = read_run(run)  # checked against its schema (labfiles.py)
                if old != json.loads(json.dumps(config, default=str)):
                    diff = _differences(old, config)
                    raise AnalysisError(f"{out} holds results of another configuration ("
                                        + "; ".join(diff) + "): give another --out, or remove that folder")
            elif results.exists():
                raise AnalysisError(f"{results} exists without {RUN}: give another --out, or remove that folder")
            else:
                run.write_text(json.dumps(config, indent=2, default=str) + "\n", encoding="utf-8")
            batch = cls(spec, out, game, config)
            batch.done = batch._complete_lines()
        except OSError as e:
            raise AnalysisError(f"{out}: {e.strerror or e}") from None
        return batch

    def _complete_lines(self) -> int:
        """Count the results already there, each line checked (labfiles.py); then, the folder accepted,
        cut a last line left half-written by an interrupted run."""
        path = self.out / RESULTS
        n, good, _ = complete_results(path, self.config)
        if path.exists() and good < path.stat().st_size:
            with open(path, "r+b") as f:
                f.truncate(good)
        return n

    def records(self, games: int | None = None) -> list[dict]:
        path = self.out / RESULTS
        if not path.exists():
            return []
        out = []
        with open(path, encoding="utf-8") as f:
            for line in f:
                if games is not None and len(out) >= games:
                    break
                out.append(json.loads(line))
        return out

    def run(self, games: int, jobs: int = 1, progress=None, backend: str = "local", address=None,
            meanwhile=None) -> list[dict]:
        """Play games done..games-1, appending each line in index order; return the first `games` records.
        backend "local": `jobs` processes here; "ray": Ray actors (ray_backend.py).
        `meanwhile()`, if given, is called once the games are played elsewhere (worker processes or Ray),
        leaving this process idle: it may return a thread it started, joined before run returns."""
        if backend not in ("local", "ray"):
            raise AnalysisError(f"no backend {backend!r}: local or ray")
        todo = range(self.done, games)
        # The game and everything loaded so far live as long as the batch: out of the collector's sight
        # (gc.freeze), its full collections do not walk them after every few thousand game states, and
        # forked workers do not copy the pages the collector would write to. Only the young generations
        # are collected first: a full collection walks the whole heap (a long-lived process holding many
        # games: ~0.2 s a batch), and what older garbage is frozen with the rest goes at `unfreeze`.
        gc.collect(1)
        gc.freeze()
        pool = self._pool(jobs, len(todo)) if backend == "local" else None  # before the bar's thread: fork quietly
        helper = None
        try:
            if progress is not None:
                progress.start(total=games, done=min(self.done, games))
            if meanwhile is not None and (pool is not None or backend == "ray") and todo:
                helper = meanwhile()
            with open(self.out / RESULTS, "a", encoding="utf-8") as f:
                if backend == "ray" and todo:
                    from .ray_backend import lines as ray_lines
                    lines = ray_lines(self.spec, self.config, todo, jobs=jobs, address=address)
                else:
                    lines = self._lines(todo, pool, jobs)
                for index, line, error in lines:
                    if error is not None:  # with the command that plays that game again (repro.py)
                        again = command_of(self.spec, self.config, self.config["seed"] + index)
                        raise AnalysisError(f"{error}\n(watch that game with: {again})")
                    f.write(line + "\n")
                    f.flush()
                    self.done = index + 1
                    if progress is not None:
                        progress.advance()
        finally:
            if progress is not None:
                progress.stop()
            if pool is not None:
                pool.terminate()
                pool.join()
            if helper is not None:
                helper.join()  # no thread outlives the run: the next batch of a sweep forks again
            gc.unfreeze()
        return self.records(games)

    def _pool(self, jobs: int, games: int):
        if jobs <= 1 or games <= 1:
            return None
        methods = multiprocessing.get_all_start_methods()
        ctx = multiprocessing.get_context("fork" if "fork" in methods else "spawn")
        _worker["game"], _worker["config"] = self.game, self.config  # inherited by forked workers
        try:
            return ctx.Pool(min(jobs, games), initializer=_init_worker, initargs=(self.spec, self.config))
        finally:
            _worker.clear()

    def _lines(self, todo: range, pool, jobs: int):
        if not todo:
            return
        if pool is None:
            _worker["game"], _worker["config"] = self.game, self.config
            try:
                for i in todo:
                    yield _play_line(i)
            finally:
                _worker.clear()
            return
        # Chunks of games, shrinking towards the end, handed to whichever worker is free: few messages,
        # and both workers busy to the last game (imap gives the chunks back in order).
        for lines in pool.imap(_play_chunk, chunks(todo, jobs)):
            yield from lines


def default_jobs() -> int:
    return max(1, len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1))


__all__ = ["Spec", "Batch", "AnalysisError", "play_record", "configuration", "encode", "RESULTS", "RUN"]
