"""Agents: programs that play a seat, from what that seat knows (interpreter.agents.base).

    agent = make_agent("ismcts:1s", seed=bot_seed(game_seed, seat))
    action = agent.act(make_decision(game, state))

`random` (easy), `greedy` (normal), `rollout` (on every core too), `mcts` and `ismcts` (hard) (agents/parallel.py). No agent knows any game:
they use the forward model, the score and the content's optional `scoring.evaluation`.
"""
from __future__ import annotations

from .base import Agent, Decision, bot_seed, make_decision, stuck
from .greedy import GreedyAgent
from .ismcts import ISMCTSAgent
from .mcts import MCTSAgent
from .parallel import ParallelAgent
from .random import RandomAgent
from .rollout import RolloutAgent
from .spec import DEFAULT_LEVEL, KINDS, LEVELS, AgentSpec, AgentSpecError, level_table, parse_spec

AGENTS = {"random": RandomAgent, "greedy": GreedyAgent, "rollout": RolloutAgent, "mcts": MCTSAgent, "ismcts": ISMCTSAgent}


def make_agent(spec, seed: int = 0, **options) -> Agent:
    """An agent from its specification (`ismcts:2s`, a level such as `hard`, or an AgentSpec)."""
    if not isinstance(spec, AgentSpec):
        spec = parse_spec(str(spec))
    cls = AGENTS[spec.kind]
    if cls is RandomAgent:
        return cls(seed)
    if spec.evaluation != "plain":
        options["evaluation"] = spec.evaluation  # ismcts: agents/learnt.py
    if spec.workers > 1 and cls is RolloutAgent:  # one agent, its samples shared out among worker processes
        return cls(seed, iterations=spec.iterations, seconds=spec.seconds, workers=spec.workers, **options)
    if spec.workers > 1:
        return ParallelAgent(cls, seed, workers=spec.workers, iterations=spec.iterations, seconds=spec.seconds,
                             **options)
    return cls(seed, iterations=spec.iterations, seconds=spec.seconds, **options)


def decide(agent: Agent, game, st, memory=None):
    """The action `agent` plays at the decision of `st` (the seat deciding now); `memory` (a
    memory.Memory) is what the seats remember of the cards they saw."""
    return agent.act(make_decision(game, st, keep=agent.keeps_decisions, memory=memory))


__all__ = ["Agent", "Decision", "make_decision", "make_agent", "decide", "bot_seed", "AGENTS", "KINDS", "LEVELS",
           "DEFAULT_LEVEL", "AgentSpec", "AgentSpecError", "level_table", "parse_spec", "RandomAgent", "GreedyAgent", "RolloutAgent", "MCTSAgent",
           "ISMCTSAgent", "ParallelAgent", "stuck"]
