"""Agent specifications as the command line writes them.

    random            uniform among the legal actions
    greedy            one ply on the score (or the content's `scoring.evaluation`)
    greedy:16         ... averaged over 16 sampled states per action
    rollout:6         normal's best few actions, each played on past the others' replies, on 6 sampled states
    rollout:4@all     ... the 4 samples shared out among one worker per core (the budget is the decision's)
    mcts:5000         UCT, 5000 iterations a decision
    ismcts:2s         information-set MCTS, 2 seconds a decision (`1.5s`, `500ms` too)
    ismcts:0.3s@2     ... searched by 2 workers at once, each 0.3 s (agents/parallel.py); `@all`: one per core
    ismcts:1s,eval=learnt   ... a rollout's cut-off judged by the game's learnt evaluation (agents/learnt.py;
                      `eval=plain`: by the score so far)
    rollout:4,eval=leader   ... the end of each rollout judged by the margin over the leading other side
                      (`eval=plain`: over the others' mean, as normal judges)

Levels set every computer seat at once: easy = random, normal = greedy, hard = ismcts:0.3s@all
(a search on every core of the machine, 0.3 s a decision), unless the game names its own
(`game.levels` in its game.yaml, level by level: Dark Agent's hard is the policy rollout
`rollout:0.3s@all,eval=leader`, measured stronger there and weaker where the search proves outcomes,
connect four; docs/agents.md, "Levels"). `level_table` is a game's table; `parse_spec(text,
levels=table)` reads a level as that game's agent.
"""
from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass

from ..errors import InterpretError

KINDS = ("random", "greedy", "rollout", "mcts", "ismcts")
LEVELS = {"easy": "random", "normal": "greedy", "hard": "ismcts:0.3s@all"}  # every game's, unless it names its own (docs/agents.md, "Levels")
SEARCHERS = ("mcts", "ismcts")  # the kinds that may search with several workers
PARALLEL = SEARCHERS + ("rollout",)  # ... and the rollout, whose samples several workers follow
EVALUATIONS = ("plain", "learnt")  # how `ismcts` judges a rollout's cut-off (`,eval=`)
KIND_EVALUATIONS = {"ismcts": EVALUATIONS, "rollout": ("plain", "leader")}  # rollout: the margin over the others' mean, or over the leader
DEFAULT_LEVEL = "hard"


class AgentSpecError(InterpretError):
    """An agent specification that names no agent or a budget that cannot be read."""


@dataclass(frozen=True)
class AgentSpec:
    kind: str
    iterations: int | None = None  # a budget in iterations (samples for greedy) ...
    seconds: float | None = None   # ... or in seconds of thinking a decision
    workers: int = 1  # searches run at once, their statistics merged at the root (mcts, ismcts); rollout: samples
    evaluation: str = "plain"  # ismcts: the cut-off judged by the score so far, or the learnt evaluation


    def __str__(self) -> str:
        text = self.kind
        if self.iterations is not None:
            text = f"{self.kind}:{self.iterations}"
        elif self.seconds is not None:
            text = f"{self.kind}:{self.seconds:g}s"
        text = f"{text}@{self.workers}" if self.workers != 1 else text
        return f"{text},eval={self.evaluation}" if self.evaluation != "plain" else text


_BUDGET = re.compile(r"^(?:(\d+)|(\d+(?:\.\d*)?|\.\d+)\s*(s|ms))$")


def level_table(declared: Mapping[str, str] | None = None) -> dict[str, str]:
    """A game's levels: level name -> the agent's specification, LEVELS overridden by what the game
    declares (`declared`, its `game.levels`, each already read by `parse_spec(text, levels={})`)."""
    return {**LEVELS, **(declared or {})}


def parse_spec(text: str, *, levels: Mapping[str, str] | None = None) -> AgentSpec:
    """`ismcts:1.5s` -> AgentSpec("ismcts", seconds=1.5); a level (`hard`) is the agent `levels`
    names for it (a game's `level_table`; default LEVELS; `{}`: a level is no agent here)."""
    levels = LEVELS if levels is None else levels
    raw = text
    text = text.strip().lower()
    text, _, extra = text.partition(",")
    if text.strip() in levels:  # a level may name its evaluation too (`hard`), which one given after it replaces
        text, _, own = levels[text.strip()].strip().lower().partition(",")
        extra = extra or own
    text, at, count = text.partition("@")
    workers = _workers(raw, text.partition(":")[0].strip(), count) if at else 1
    spec = _budget(raw, text, levels)
    evaluation = _evaluation(raw, spec.kind, extra) if extra else "plain"
    if workers != 1 or evaluation != "plain":
        return AgentSpec(spec.kind, spec.iterations, spec.seconds, workers, evaluation)
    return spec


def _evaluation(raw: str, kind: str, extra: str) -> str:
    name, eq, value = extra.partition("=")
    if kind not in KIND_EVALUATIONS:
        raise AgentSpecError(f"{raw!r}: only ismcts and rollout take `eval=` (`ismcts:1s,eval=learnt`)")
    allowed = KIND_EVALUATIONS[kind]
    if name.strip() != "eval" or not eq or value.strip() not in allowed:
        raise AgentSpecError(f"{raw!r}: after the comma comes `eval=` and an evaluation "
                             f"({', '.join(allowed)}): `{kind}:1s,eval={allowed[1]}`")
    return value.strip()


def _workers(raw: str, kind: str, count: str) -> int:
    from .parallel import cores
    count = count.strip()
    if kind not in PARALLEL:
        raise AgentSpecError(f"{raw!r}: only {' and '.join(SEARCHERS)} search with several workers, and "
                             f"rollout follows its samples with several (`ismcts:1s@2`, `rollout:4@2`)")
    if count == "all":
        return cores()
    if not count.isdigit() or int(count) < 1:
        raise AgentSpecError(f"{raw!r}: after `@` comes a number of workers (`ismcts:1s@2`) or `all` "
                             f"(one per core)")
    return int(count)


def _budget(raw: str, text: str, levels: Mapping[str, str]) -> AgentSpec:
    kind, sep, budget = text.partition(":")
    kind = kind.strip()
    if kind not in KINDS:
        or_level = f", or a level {', '.join(levels)}" if levels else ""
        raise AgentSpecError(f"no agent {raw!r}: agents are {', '.join(KINDS)} (with a budget such as "
                             f"`mcts:5000` or `ismcts:2s`){or_level}")
    if not sep:
        return AgentSpec(kind)
    if kind == "random":
        raise AgentSpecError(f"{raw!r}: the random agent takes no budget")
    m = _BUDGET.match(budget.strip())
    if not m:
        raise AgentSpecError(f"{raw!r}: a budget is a number of iterations (`{kind}:5000`) "
                             f"or a time (`{kind}:2s`, `{kind}:1.5s`, `{kind}:500ms`)")
    if m.group(1) is not None:
        n = int(m.group(1))
        if n < 1:
            raise AgentSpecError(f"{raw!r}: the budget must be at least 1 iteration")
        return AgentSpec(kind, iterations=n)
    seconds = float(m.group(2)) / (1000 if m.group(3) == "ms" else 1)
    if seconds <= 0:
        raise AgentSpecError(f"{raw!r}: the time budget must be more than 0")
    return AgentSpec(kind, seconds=seconds)


__all__ = ["AgentSpec", "AgentSpecError", "parse_spec", "level_table", "KINDS", "LEVELS", "DEFAULT_LEVEL",
           "EVALUATIONS"]
