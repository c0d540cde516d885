"""The bundled games' rulesets as the test modules' parametrisations read them at collection (player
counts, default players): each game and variant is loaded once per process, not once per module that
asks (seven modules ask, each xdist worker collects them all)."""
from __future__ import annotations

from functools import lru_cache

from interpreter.ruleset.loader import load_ruleset


@lru_cache(maxsize=None)
def _ruleset(game: str, variants: tuple[str, ...]):
    return load_ruleset(game, variants=list(variants))


def cached_ruleset(game: str, variants=()):
    """load_ruleset(game, variants=...), shared: read it, never change it."""
    return _ruleset(game, tuple(variants))
