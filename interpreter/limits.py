"""Every cap and budget of interpret, in one place.

Content is input from anyone (a homebrew variant, a fuzzer): whatever it says, loading it and
playing it must end, in bounded time and memory. Each limit here is generous for real games.

- Load-time caps are checked as content is read, before anything is built: a number of
  players, of copies, a board's side are refused with the file:line:col that asked for them.
- Nesting caps keep the YAML reader, the rules parser and the compiler from recursing
  without bound: deeper input gets a positioned "nested too deeply" error.
- Run-time budgets bound one decision (everything the rules do between two decisions):
  loop iterations, repeats, cards drawn, function calls and events each spend steps; lists,
  ranges and repeats have a size cap; numbers have a magnitude cap.

A game may lower or raise a budget in game.yaml, within the hard limit of each:

    game:
      limits: {steps: 5000000, collection: 2000000}
"""
from __future__ import annotations

from dataclasses import dataclass, fields, replace

from .errors import Location, RuleRuntimeError


@dataclass(frozen=True)
class Limits:
    """The limits in force for one game (the defaults, or what its game.yaml set)."""

    players: int = 64             # seats of a game (game.players.max, --players)
    copies: int = 10_000          # copies of one card (cards.X.copies)
    cards: int = 200_000          # cards of a game, all kinds and owners together
    grid_side: int = 1_000        # a grid's rows and columns, a ring's length
    cells: int = 100_000          # board cells in all
    yaml_depth: int = 64          # nesting of a YAML (or log JSON) document
    rule_depth: int = 100         # nesting of one rules text (parentheses, operators, blocks, calls)
    collection: int = 1_000_000   # items of one list, range or text built by the rules
    repeat: int = 1_000_000       # `repeat N times`: N
    steps: int = 2_000_000        # loop iterations, repeats, draws, calls and events per decision
    number: int = 2 ** 63 - 1     # magnitude of a number computed by the rules

    @classmethod
    def names(cls) -> list[str]:
        return [f.name for f in fields(cls)]


DEFAULT = Limits()

# How far game.yaml may raise each limit. The nesting caps guard Python's own recursion and
# the number cap guards memory: they cannot be raised.
HARD = Limits(players=1_000, copies=1_000_000, cards=2_000_000, grid_side=10_000, cells=1_000_000,
              yaml_depth=DEFAULT.yaml_depth, rule_depth=DEFAULT.rule_depth, collection=20_000_000,
              repeat=100_000_000, steps=200_000_000, number=DEFAULT.number)

WHAT = {
    "players": "players", "copies": "copies of one card", "cards": "cards in all",
    "grid_side": "rows or columns of a board", "cells": "board cells", "yaml_depth": "levels of nesting",
    "rule_depth": "levels of nesting in rules text", "collection": "items in one list",
    "repeat": "repeats", "steps": "steps in one decision", "number": "as the size of a number",
}


def adjusted(spec, where, errors, value_location) -> Limits:
    """The limits of a game from its `game.limits` mapping (checked against HARD);
    `value_location(spec, name)` is where a value was written."""
    if not isinstance(spec, dict) or not spec:
        return DEFAULT
    changes = {}
    for name, value in spec.items():
        loc = value_location(spec, name)
        loc = loc if loc.line else where
        if name not in Limits.names():
            continue  # the schema reports unknown names
        if type(value) is not int or value < 1:
            continue  # the schema reports the type
        hard = getattr(HARD, name)
        if value > hard:
            errors.add(loc, f"limit `{name}` is {value:,}, above its hard limit {hard:,}",
                       hint=f"at most {hard:,} {WHAT[name]}")
            continue
        changes[name] = value
    return replace(DEFAULT, **changes) if changes else DEFAULT


def over(name: str, value, limits: Limits, what: str = "") -> str:
    """The message of a cap exceeded by `value`."""
    cap = getattr(limits, name)
    shown = f"{value:,}" if isinstance(value, int) else str(value)
    hint = "" if getattr(HARD, name) == cap else f"; a game may raise it in game.yaml (game: {{limits: {{{name}: N}}}})"
    return f"{what or WHAT[name]} {shown} is over the limit `{name}` of {cap:,}{hint}"


class BudgetExceeded(RuleRuntimeError):
    """A run-time budget of limits.py was spent: the rules loop, or build something too big."""

    def __init__(self, budget: str, message: str, location: Location | None = None):
        self.budget = budget
        super().__init__(message, location)


def spend_failed(ctx, loc, what: str):
    """Raised by the compiled rules when ctx.budget goes below zero."""
    cap = ctx.m.limits.steps
    raise BudgetExceeded("steps", f"{what}: the rules took more than the budget `steps` of {cap:,} steps in one "
                                  "decision (loops, repeats, draws, calls and events each count); they loop or "
                                  "do too much" + ("" if HARD.steps == cap else
                                                   " (a game may raise it: game: {limits: {steps: N}})"), loc)


def size_failed(ctx, loc, what: str, size: int):
    raise BudgetExceeded("collection", f"{what}: {size:,} items, over the limit `collection` of "
                                       f"{ctx.m.limits.collection:,} items in one list", loc)


def number_failed(ctx, loc, what: str):
    raise BudgetExceeded("number", f"{what}: the result is over the limit `number` ({DEFAULT.number:,})", loc)
