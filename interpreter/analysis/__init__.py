"""The balance lab: many games between bots, kept in a folder, and statistics to trust.

    from interpreter.analysis import Spec, analyze
    result = analyze(Spec("dark-agent", players=4), games=500, out="runs/da4", jobs=2)
    print(result.text)

runner.py plays the games and keeps results.jsonl; stats.py holds the statistics; summary.py turns
the records into summary.json, games.csv and text; outcome.py says what decided each game.
"""
from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path

from .games import AnalysisError, Spec
from .repro import watch_list
from .runner import Batch
from .summary import summarize, text_report, write_csv, write_summary


@dataclass
class Analysis:
    out: Path
    records: list
    summary: dict
    seconds: float
    played: int  # games played by this run (the others were resumed from the folder)
    files: list

    @property
    def text(self) -> str:
        return text_report(self.summary)


def analyze(spec: Spec, *, games: int, out, jobs: int = 1, progress=None, game=None, backend: str = "local",
            address=None) -> Analysis:
    """Run (or resume) a batch of `games` games into `out` and write its summary files."""
    batch = Batch.prepare(spec, out, game=game)
    before = batch.done
    start = time.perf_counter()
    from .plots import import_meanwhile  # the report's matplotlib, imported while the workers play
    records = batch.run(games, jobs=jobs, progress=progress, backend=backend, address=address,
                        meanwhile=import_meanwhile)
    seconds = time.perf_counter() - start
    played = max(0, min(games, batch.done) - before)
    summary = summarize(records, batch.config)
    summary["watch"] = watch_list(records, spec, batch.config)  # each with the command that plays it again
    timing = {"backend": backend, "jobs": jobs, "played": played, "resumed": min(before, games), "seconds": round(seconds, 3),
              "games_per_second": round(played / seconds, 2) if seconds > 0 and played else None}
    from .report import write_report
    files = [batch.out / "results.jsonl", write_summary(summary, batch.out, timing), write_csv(records, batch.out),
             write_report(summary, records, batch.out)]
    return Analysis(batch.out, records, summary, seconds, played, files)


__all__ = ["analyze", "Analysis", "Spec", "Batch", "AnalysisError"]
