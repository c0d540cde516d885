"""Building Dark Agent positions for the rulebook's worked examples."""
from __future__ import annotations

import functools

from interpreter.engine.game import Game
from interpreter.scenarios.position import Position


@functools.lru_cache(maxsize=None)
def game(players: int = 4, **options) -> Game:
    return Game.load("dark-agent", players=players, options=options or None)


def after_setup(players: int = 4, seed: int = 0, **options) -> Position:
    """A game right after setup, setup choices made by taking the first option each time."""
    g = game(players, **options)
    st = g.new_game(seed)
    while st["pending"]:
        st = g.apply(st, g.legal_actions(st)[0])
    return Position(g, st)


def clear_space(pos: Position) -> None:
    """Every satellite back to the box: the example then places exactly its own."""
    for c in pos.catalog.cells:
        if "space" in c.tags:
            pos.clear(c.key)


def give_agency(pos: Position, seat: str, agency: str) -> None:
    for s in pos.catalog.seats:
        for key in pos.cards(f"agency.{s.key}"):
            if key == agency:
                pos.move(key, "box")
    pos.clear(f"agency.{seat}")
    pos.move(agency, f"agency.{seat}")


def play(pos: Position, *actions: str) -> Position:
    g = pos.game
    for a in actions:
        reason = g.explain(pos.state, _action(a))
        assert reason is None, f"{a} refused: {reason}"
        pos.state = g.apply(pos.state, a)
    return pos


def _action(text):
    from interpreter.core.model import Action
    return Action.parse(text)


def ev(pos: Position, expr: str, seat: int | None = None):
    return pos.game.evaluate(pos.state, expr, me=seat)


def place(pos: Position, name: str, cell: str) -> str:
    """Put a card named `name` on `cell`: from the box if one is there, else swapped from where it lies."""
    here = pos.cards(cell)
    if here and pos.catalog.card_by_key[here[0]].name == name:
        return here[0]
    try:
        key = pos.first(name, "box")
    except Exception:
        key = next(c.key for c in pos.catalog.cards if c.name == name and pos.where(c.key) != cell)
    if here and pos.where(key) and pos.catalog.zones[pos.state["loc"][pos.card(key).id]].is_cell:
        pos.swap(key, here[0])
    else:
        pos.move(key, cell)
    return key
