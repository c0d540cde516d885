"""What a game lets its seats know, from its declared visibility: the facts that decide which
algorithms apply to it (the OpenSpiel adapter's information type, the search's solver)."""
from __future__ import annotations


def perfect_information(game) -> bool:
    """Whether every seat always sees everything: no zone hides its cards (the implicit `box`,
    where cards wait out of the game, counts only when cards start there), nothing is concealed,
    every variable is public and no step has the seats choose in secret."""
    cat = game.catalog
    if cat.simultaneous_steps or cat.conceals:
        return False
    start = game.new_game(0)
    for z in cat.zones:
        if z.visibility != "public" and not (z.key == "box" and not start["z"][z.id]):
            return False
    for kind in ("game", "player", "card", "zone"):
        if any(spec.get("visibility", "public") != "public" for spec in cat.variables(kind).values()):
            return False
    return True


def deterministic(game) -> bool:
    """Whether the same actions from the same state always lead to the same state: no rule rolls,
    shuffles or draws at random."""
    return not game.catalog.uses_chance


__all__ = ["perfect_information", "deterministic"]
