"""What an agent is given, and what every agent is.

An agent never holds a game state. At each of its decisions it gets a `Decision`:
its seat, what that seat knows (`observation`), the legal actions, the game (the
forward model, to search with), and `sample(rng)`, which returns a full state
consistent with what the seat knows (hidden cards re-dealt, future dice unknown):
`game.determinize(state, seat, rng)` on a state the decision keeps to itself.

    decision = make_decision(game, state)
    action = agent.act(decision)

Agents own their randomness (a seeded `random.Random`, never the global one):
the same seed, budget and decisions give the same actions.
"""
from __future__ import annotations

import random
from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from functools import cached_property
from typing import Callable

from ..engine.game import clone
from ..errors import RuleRuntimeError
from ..core.model import Action


def bot_seed(game_seed: int, seat: int) -> int:
    """The seed of the agent at `seat` in the game started with `game_seed`."""
    return (game_seed * 1_000_003 + 7919 * (seat + 1)) & 0xFFFF_FFFF_FFFF


def observe(game, st, seat) -> dict:
    """What `seat` knows of `st` (the game's information model)."""
    return game.observe(st, seat)


def sample_chance(game, st, rng: random.Random) -> None:
    """Resolve the chance nodes `st` stands at (explicit chance only: chance.py), each outcome
    drawn uniformly with the agent's `rng` (every chance outcome is equally likely)."""
    while game.is_chance(st):
        outcomes = game.legal_actions(st)
        game.apply_in_place(st, outcomes[rng.randrange(len(outcomes))], checked=False)


def determinize(game, st, seat, rng: random.Random, memory: dict | None = None) -> dict:
    """A full state consistent with what `seat` knows of `st`, its random generator reseeded;
    `memory`: what the seat remembers of cards it no longer sees (memory.Memory.of)."""
    if memory:
        from ..information.observation import determinize as sample
        return sample(game, st, seat, rng, memory=memory)
    return game.determinize(st, seat, rng)


@dataclass(frozen=True)
class Decision:
    """One decision of one seat, as that seat may know it."""

    seat: int
    actions: tuple  # the legal actions (Action), in the game's stable order
    game: object = field(repr=False)
    _observe: Callable[[], dict] = field(repr=False, compare=False)
    _sample: Callable[[random.Random], dict] = field(repr=False, compare=False)
    _portable: Callable[[], tuple] | None = field(default=None, repr=False, compare=False)

    @cached_property
    def observation(self) -> dict:
        """What the seat knows (computed when first asked: random play never asks)."""
        return self._observe()

    def sample(self, rng: random.Random) -> dict:
        """A full state consistent with the observation, drawn with `rng` (a new state each call,
        the caller's to change)."""
        return self._sample(rng)

    def portable(self) -> tuple:
        """The decision as plain, picklable data, for a search worker in another process to rebuild
        with `restore_decision` (agents/parallel.py). What it holds is what `sample` draws from:
        a worker sees the seat's information only through `sample` and `observation`, as here."""
        if self._portable is None:
            raise TypeError("this decision was not made by make_decision: it cannot be sent to a worker")
        return self._portable()


def make_decision(game, st, seat: int | None = None, *, keep: bool = True, memory=None) -> Decision:
    """The decision of `seat` (default: the seat deciding now) in `st`.

    With `keep` the decision holds a copy of `st`, so that it stays valid after the game moves
    on (agents that reuse their search tree sample past decisions). Without it the caller
    promises not to change `st` while the decision is in use. `memory` (a memory.Memory) is
    what the seats remember: samples keep the cards the seat remembers in their zones."""
    if seat is None:
        seat = game.current_player(st)
    actions = tuple(game.legal_actions(st))
    if not actions:
        raise stuck()
    held = clone(st) if keep else st
    remembered = memory.of(seat) if memory is not None else None
    return _decision(game, seat, actions, held, remembered)


def _decision(game, seat: int, actions: tuple, held: dict, remembered) -> Decision:
    sampler = None  # made at the first sample: what every sample of `held` needs, found once

    def sample(rng):
        nonlocal sampler
        if sampler is None:
            sampler = game.sampler(held, seat, memory=remembered or None)
        return sampler.draw(rng)
    return Decision(seat, actions, game,
                    lambda: observe(game, held, seat),
                    sample,
                    lambda: (seat, actions, held, remembered))


def restore_decision(game, portable: tuple) -> Decision:
    """The decision `Decision.portable()` describes, in the process that holds `game`."""
    seat, actions, held, remembered = portable
    return _decision(game, seat, tuple(actions), held, remembered)


class Agent(ABC):
    """A player that is a program. Subclasses set `kind` and implement `act`."""

    kind = "agent"
    keeps_decisions = False  # whether a Decision is used after `act` returns (make_decision(keep=...))

    def __init__(self, seed: int = 0):
        self.seed = seed
        self.rng = random.Random(seed)

    @abstractmethod
    def act(self, decision: Decision) -> Action:
        """The action this agent chooses among `decision.actions`."""

    def __repr__(self) -> str:
        return f"{type(self).__name__}(seed={self.seed})"


__all__ = ["Agent", "Decision", "make_decision", "restore_decision", "bot_seed", "observe", "determinize", "sample_chance", "stuck"]


def stuck() -> RuleRuntimeError:
    """A live game where nobody can act: the rules stopped the flow at a dead end."""
    return RuleRuntimeError("the game is not over and there is no legal action: the flow stopped where nobody "
                            "can act (an empty round order, a step whose actions are all refused?)")
