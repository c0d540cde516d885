"""A progress bar on stderr (rich) while a batch runs: games done, games per second, time left.

Shown only when stderr is a terminal; otherwise (a pipe, a log file, CI) nothing is printed.
"""
from __future__ import annotations

import sys
import time


def _speed_column():
    """A rich column: games per second since the bar started (games resumed from a file do not count)."""
    from rich.progress import ProgressColumn
    from rich.text import Text

    class GamesPerSecond(ProgressColumn):
        def render(self, task):
            played = task.completed - task.fields.get("resumed", 0)
            elapsed = task.elapsed or 0
            return Text(f"{played / elapsed if elapsed > 0 else 0:.1f} games/s", style="progress.data.speed")

    return GamesPerSecond()


class BatchProgress:
    """start(total, done) / advance() / stop(); silent unless `enabled` (default: stderr is a terminal)."""

    def __init__(self, label: str = "games", enabled: bool | None = None, stream=None):
        self.stream = stream or sys.stderr
        self.enabled = self.stream.isatty() if enabled is None else enabled
        self.label = label
        self._progress = None
        self._task = None
        self.started = None

    def start(self, total: int, done: int = 0) -> None:
        self.started = time.perf_counter()
        if not self.enabled:
            return
        from rich.console import Console
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
        self._progress = Progress(TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(),
                                  TextColumn("games"), _speed_column(), TextColumn("left"), TimeRemainingColumn(),
                                  console=Console(file=self.stream), transient=False,
                                  refresh_per_second=4)  # its thread redraws the bar: 4 times a second is plenty
        self._progress.start()
        self._task = self._progress.add_task(self.label, total=total, completed=done, resumed=done)

    def advance(self, k: int = 1) -> None:
        if self._progress is not None:
            self._progress.advance(self._task, k)

    def stop(self) -> None:
        if self._progress is not None:
            self._progress.stop()
            self._progress = None
