"""The random agent: a legal action chosen uniformly (the easy level)."""
from __future__ import annotations

from ..core.model import Action
from .base import Agent, Decision


class RandomAgent(Agent):
    """Plays a legal action chosen uniformly at random, from its own seeded generator."""

    kind = "random"

    def act(self, decision: Decision) -> Action:
        actions = decision.actions
        return actions[self.rng.randrange(len(actions))]


__all__ = ["RandomAgent"]
