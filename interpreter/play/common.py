"""What the commands share: usage errors, printing, loading a game from the command line."""
from __future__ import annotations

import sys

from ..agents import DEFAULT_LEVEL, AgentSpecError, parse_spec
from ..errors import InterpretError
from ..i18n import _, ngettext
from ..ruleset.loader import game_folder  # noqa: F401  (the commands' import)

DEFAULT_GAME = "dark-agent"
HUMAN = "human"
# The most a seat may search a decision, on the command line and in a saved game (a resumed log
# never names a longer search than the command line could)
MAX_ITERATIONS = 1_000_000
MAX_SECONDS = 60.0
MAX_WORKERS = 64


class UsageError(InterpretError):
    """The command line asks for something impossible (exit code 2)."""


def _out(*lines) -> None:
    for line in lines:
        print(line)


def _err(text: str) -> None:
    print(text, file=sys.stderr)


# ---- loading ---------------------------------------------------------------------------

def parse_options(items) -> dict:
    options = {}
    for item in items or ():
        name, sep, value = item.partition("=")
        if not sep or not name:
            raise UsageError(_("--option {item!r}: write NAME=VALUE (give the game before --option)").format(item=item))
        options[name.strip()] = value.strip()
    return options


def require_extra(command: str, extra: str, modules) -> None:
    """An InterpretError naming the extra to install when one of `modules` is missing (the commands
    of an optional extra: `interpret serve` needs `web`, `interpret lsp` needs `lsp`)."""
    import importlib.util
    missing = [name for name in modules if importlib.util.find_spec(name) is None]
    if missing:
        raise InterpretError(f"interpret {command} needs {', '.join(missing)}: install the `{extra}` extra "
                             f"(pip install \"interpret[{extra}]\", or pip install \".[{extra}]\" in a checkout)")


def _n(k: int, word: str) -> str:
    return f"{k} {word}" + ("" if k == 1 else "s")


def decisions(n: int) -> str:
    """`n decisions`, in the table's language (a field of a sentence that counts them)."""
    return ngettext("{n} decision", "{n} decisions", n).format(n=n)


def rounds(n: int) -> str:
    """`n rounds`, in the table's language."""
    return ngettext("{n} round", "{n} rounds", n).format(n=n)


def _agent_spec(text: str, what: str, levels) -> str:
    try:
        spec = parse_spec(text, levels=levels)
    except AgentSpecError as e:
        raise UsageError(f"{what}: {e}") from None
    if bounded(spec) != spec:
        raise UsageError(_("{what}: a seat searches at most {iterations} iterations, {seconds} seconds and "
                           "{workers} workers a decision").format(what=what, iterations=f"{MAX_ITERATIONS:,}",
                                                                   seconds=f"{MAX_SECONDS:g}", workers=MAX_WORKERS))
    return str(spec)


def bounded(spec):
    """`spec` (an AgentSpec) with its budget and workers cut to the limits above."""
    from dataclasses import replace
    return replace(spec, iterations=None if spec.iterations is None else min(spec.iterations, MAX_ITERATIONS),
                   seconds=None if spec.seconds is None else min(spec.seconds, MAX_SECONDS),
                   workers=min(spec.workers, MAX_WORKERS))


def seat_kinds(specs, players: int, *, auto: bool, interactive: bool, bots: str | None = None,
               humans_allowed: bool = True, levels=None) -> list[str]:
    """Who plays each seat: `human` or an agent specification (`random`, `greedy`, `mcts:5000`,
    `ismcts:2s`). The seats given `human` are the humans, and the only ones: `--seat 2=human` alone
    plays seat 2 against bots; a hot seat names each human seat (`--seat 1,2=human`). Without any,
    seat 1 is the human at a terminal. `bots` (a level `easy|normal|hard` or a specification) plays every seat not
    given by `--seat`; without it the computer seats are the strong bots (the `hard` level) when a
    human plays at a terminal, and random bots otherwise (`--auto`, input that is not a terminal,
    `simulate`): batch games stay fast. A level is the agent `levels` names for it (the game's:
    play/levels.game_levels; default: every game's, agents/spec.py LEVELS)."""
    kinds: dict[int, str] = {}
    for spec in specs or ():
        nums, sep, kind = spec.partition("=")
        kind = kind.strip().lower()
        nums = [num.strip() for num in nums.split(",")]  # `1,2=human`: several seats at once (hot seat)
        if not sep or not all(num.isdigit() for num in nums):
            raise UsageError(_("--seat {spec!r}: write N=human or N=AGENT (random, greedy, mcts:5000, ismcts:2s), "
                               "N from 1 to {players} (or N,M,...=KIND)").format(spec=spec, players=players))
        if kind == HUMAN:
            if not humans_allowed:
                raise UsageError(_("--seat {spec!r}: every seat of a simulation is a bot").format(spec=spec))
        else:
            kind = _agent_spec(kind, f"--seat {spec!r}", levels)
        for num in nums:
            if not 1 <= int(num) <= players:
                raise UsageError(_("--seat {spec!r}: there are seats 1 to {players}").format(spec=spec, players=players))
            kinds[int(num) - 1] = kind
    others = _agent_spec(bots, f"--bots {bots!r}", levels) if bots else None
    if auto and HUMAN in kinds.values():
        raise UsageError(_("--auto makes every seat a bot: drop the --seat N=human"))
    if auto or not humans_allowed or (not interactive and HUMAN not in kinds.values()):
        return [kinds.get(i, others or "random") for i in range(players)]
    if HUMAN not in kinds.values() and 0 not in kinds:
        kinds[0] = HUMAN
    default = str(parse_spec(DEFAULT_LEVEL, levels=levels)) if interactive else "random"
    return [kinds.get(i, others or default) for i in range(players)]
