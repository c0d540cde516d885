"""Writing to the terminal: plain lines, and screens coloured per seat with rich when the output is
a terminal (NO_COLOR, or output to a file or a pipe, gives plain text)."""
from __future__ import annotations

import os
import re
import sys

SEAT_COLOURS = ["bold red", "bold blue", "bold green", "bold yellow", "bold magenta", "bold cyan",
                "bold white", "red", "blue", "green"]

_console = None


def say(*lines) -> None:
    for line in lines:
        print(line, flush=True)


def _rich_console():
    global _console
    if _console is None:
        from rich.console import Console
        _console = Console(highlight=False, soft_wrap=True)
    return _console


def colour_wanted() -> bool:
    return sys.stdout.isatty() and not os.environ.get("NO_COLOR") and os.environ.get("TERM") != "dumb"


def paint(text: str, game) -> None:
    """Print `text`, each seat's key and name in its colour when the output is a terminal."""
    if not colour_wanted():
        say(text)
        return
    from rich.text import Text
    t = Text(text)
    for s in game.seats:
        style = SEAT_COLOURS[s.id % len(SEAT_COLOURS)]
        t.highlight_regex(r"(?<![\w#.])" + re.escape(s.key) + r"(?![\w#])", style)
        if s.name:
            t.highlight_regex(r"(?<!\w)" + re.escape(s.name) + r"(?!\w)", style)
    _rich_console().print(t)


# Wipe the screen and the terminal's scrollback (xterm's "erase saved lines", ED 3), then home the
# cursor: what the last player saw cannot be scrolled back to.
WIPE = "\033[H\033[2J\033[3J\033[H"


def wipe() -> None:
    """Clear the screen and the scrollback, when the output is a terminal (a file keeps everything)."""
    if sys.stdout.isatty():
        sys.stdout.write(WIPE)
        sys.stdout.flush()
