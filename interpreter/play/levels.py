"""A game's levels: interpret's defaults (agents/spec.py LEVELS: easy, normal, hard), each replaced
by the agent the content names for it (`game.levels` in game.yaml, overlaid by variants).

The definition carries them as written, with their places (definition/build.py: the layers below
the agents know no agent); they are read here, where a command loads a game and may import the
agents: `interpret validate` reports a level that names no agent with the content's other problems,
and every command that seats bots (play, simulate, analyze, learn-eval, the web table) resolves a
level through `game_levels(game)`, which refuses such a game with the same located problem.
"""
from __future__ import annotations

from dataclasses import replace

from ..agents import LEVELS, AgentSpecError, level_table, parse_spec
from ..errors import ContentError, Problem
from .common import MAX_ITERATIONS, MAX_SECONDS, bounded

HINT = ("a level names an agent: random, greedy, rollout:4, mcts:5000, ismcts:0.3s@all, "
        "rollout:0.3s@all,eval=leader (docs/agents.md)")


def level_problems(game) -> list[Problem]:
    """What is wrong with the levels `game` declares, each at its file:line:col: a specification that
    names no agent (a level's name is no agent here: levels do not name each other), or a search
    longer than a seat may run."""
    problems = []
    for name, level in game.catalog.levels.items():
        try:
            spec = parse_spec(level.spec, levels={})
        except AgentSpecError as e:
            named = level.spec.strip().lower().partition(",")[0].strip()
            why = f"{level.spec!r} is a level, not an agent" if named in LEVELS else str(e)
            problems.append(Problem(level.where, f"game.levels.{name}: {why}", hint=HINT))
            continue
        if replace(bounded(spec), workers=spec.workers) != spec:  # `@all`: as many as the machine has
            problems.append(Problem(level.where, f"game.levels.{name}: {level.spec!r} searches longer than a seat "
                                                 f"may: at most {MAX_ITERATIONS:,} iterations or {MAX_SECONDS:g} "
                                                 f"seconds a decision"))
    return problems


def game_levels(game) -> dict[str, str]:
    """The levels of `game`: level name -> the agent's specification (LEVELS, each replaced by the
    game's own); a ContentError with every level that names no agent."""
    problems = level_problems(game)
    if problems:
        raise ContentError(problems)
    return level_table({name: level.spec for name, level in game.catalog.levels.items()})


__all__ = ["game_levels", "level_problems"]
