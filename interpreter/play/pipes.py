"""Output into a pipe that closes early (`interpret validate GAME | head -1`).

The command goes on and ends with its own exit code: a reader that stopped reading does not turn
a failed validation into a success. What the command still writes goes nowhere (the stream's
descriptor is pointed at the null device, so that Python's own flush at exit finds nothing to
complain about)."""
from __future__ import annotations

import contextlib
import os
import sys


class _Closable:
    """A text stream that, once its reader has gone (BrokenPipeError), swallows what is written."""

    def __init__(self, stream):
        self._stream = stream
        self.closed_pipe = False

    def _gone(self) -> None:
        self.closed_pipe = True
        try:
            fd = self._stream.fileno()
        except (AttributeError, OSError, ValueError):
            return
        null = os.open(os.devnull, os.O_WRONLY)
        try:
            os.dup2(null, fd)
        finally:
            os.close(null)

    def write(self, text):
        if self.closed_pipe:
            return len(text)
        try:
            return self._stream.write(text)
        except BrokenPipeError:
            self._gone()
            return len(text)

    def writelines(self, lines):
        for line in lines:
            self.write(line)

    def flush(self):
        if self.closed_pipe or getattr(self._stream, "closed", False):  # closed by its owner (a server's exit)
            return
        try:
            self._stream.flush()
        except BrokenPipeError:
            self._gone()

    def __getattr__(self, name):
        return getattr(self._stream, name)


@contextlib.contextmanager
def pipes_may_close():
    """sys.stdout and sys.stderr, for the time of a command, keep going when their reader leaves."""
    saved = sys.stdout, sys.stderr
    sys.stdout, sys.stderr = _Closable(sys.stdout), _Closable(sys.stderr)
    try:
        yield
    finally:
        for wrapped in (sys.stdout, sys.stderr):
            if isinstance(wrapped, _Closable):
                wrapped.flush()
        sys.stdout, sys.stderr = saved
