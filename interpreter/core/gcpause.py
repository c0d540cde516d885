"""Building a game's definition creates many long-lived objects at once (YAML trees, typed rules
trees, compiled functions). The cyclic garbage collector would scan them again and again while
they are made and find nothing to free, so it is paused for the time of the build."""
from __future__ import annotations

import functools
import gc


def collector_paused(fn):
    """`fn` runs with the cyclic garbage collector paused (if it was running)."""
    @functools.wraps(fn)
    def run(*args, **kwargs):
        if not gc.isenabled():
            return fn(*args, **kwargs)
        gc.disable()
        try:
            return fn(*args, **kwargs)
        finally:
            gc.enable()
    return run
