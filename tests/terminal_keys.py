"""Reading the choices a pseudo-terminal screen lists (`  a1. label`): the pty tests answer a prompt
with a key the screen shows, since keys are letters and numbers stable within a turn (play/choices.py)."""
from __future__ import annotations

import re

LISTED = re.compile(r"^\s+([a-z]+\d+\+?)\.\s+(.*?)\r?$", re.M)  # a choice as listed: its key, then its label


def listed(screen: str) -> list[tuple[str, str]]:
    """(key, label) of the last list of choices on `screen` (the one the prompt below it asks about)."""
    block, end = [], None
    for m in LISTED.finditer(screen):
        if end is None or screen[end:m.start()].strip():
            block = []
        block.append((m.group(1), m.group(2)))
        end = m.end()
    return block


def first_key(screen: str) -> str:
    """The key of the first choice of the last list on `screen`."""
    choices = listed(screen)
    assert choices, f"no choices listed on the screen:\n{screen[-2000:]}"
    return choices[0][0]
