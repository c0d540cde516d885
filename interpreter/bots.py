"""Players that are programs. They use the same forward model as everyone else.

A bot owns its randomness (a seeded ``random.Random``), never the global one,
so that a game with bots is reproducible from its seeds alone.
"""
from __future__ import annotations

import random

from .errors import RuleRuntimeError
from .model import Action


def bot_seed(game_seed: int, seat: int) -> int:
    """The seed of the bot at `seat` in the game started with `game_seed`."""
    return (game_seed * 1_000_003 + 7919 * (seat + 1)) & 0xFFFF_FFFF_FFFF


class RandomBot:
    """Plays a legal action chosen uniformly at random."""

    kind = "random"

    def __init__(self, seed: int = 0):
        self.rng = random.Random(seed)

    def choose(self, game, st) -> Action:
        actions = game.legal_actions(st)
        if not actions:
            raise stuck()
        return actions[self.rng.randrange(len(actions))]

    def choose_with_label(self, game, st) -> tuple[Action, str]:
        actions = game.legal_actions_with_labels(st)
        if not actions:
            raise stuck()
        return actions[self.rng.randrange(len(actions))]


def stuck() -> RuleRuntimeError:
    """A live game where nobody can act: the rules stopped the flow at a dead end."""
    return RuleRuntimeError("the game is not over and there is no legal action: the flow stopped where nobody "
                            "can act (an empty round order, a step whose actions are all refused?)")


BOTS = {"random": RandomBot}


def make_bot(kind: str, seed: int):
    try:
        return BOTS[kind](seed)
    except KeyError:
        raise ValueError(f"no bot {kind!r}; bots: {', '.join(BOTS)}") from None


__all__ = ["RandomBot", "BOTS", "make_bot", "bot_seed"]
