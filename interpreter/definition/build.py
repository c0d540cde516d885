"""The builder of a game definition (definition.py): a ruleset compiled for a number of players and
a choice of options, part by part (world, symbols, linked handlers, compiled rules), then frozen."""
from __future__ import annotations

from typing import NamedTuple

from .. import limits as lim
from ..core.gcpause import collector_paused
from ..lang.compiler import Compiler
from ..errors import ContentError, ErrorList, Location, Problem
from ..ruleset.spec import ContentSpec, where_of
from .definition import Building, GameDefinition
from .linker import Linker
from .parts import CompileMemo
from .rules import CompiledRules
from .symbols import Symbols
from .world import World


class Level(NamedTuple):
    """A level the content names (`game.levels`): its agent's specification as written, and where."""

    spec: str
    where: Location


def declared_levels(ruleset) -> dict:
    """`game.levels` as the variants left it: level name -> Level. Plain text: what it names is the
    agents' to read (play/levels.py checks each one at load; the layers here know no agent)."""
    node = ruleset.meta.get("levels")
    if not isinstance(node, dict):  # anything else was reported by the schema
        return {}
    return {name: Level(text, where_of(node, name)) for name, text in node.items() if isinstance(text, str)}


@collector_paused
def build_definition(ruleset, players: int, options: dict | None = None, *, observer=None,
                     spec: ContentSpec | None = None) -> GameDefinition:
    """The definition of `ruleset` for `players` and `options` (ContentError with every problem
    found, if any). `observer` (coverage.py) wraps the compiled rules to record which ones run."""
    limits = getattr(ruleset, "limits", lim.DEFAULT)
    d = Building(ruleset=ruleset, players=players, limits=limits, observer=observer)
    d.errors = ErrorList()
    d.compile_memo = CompileMemo()  # the compiler's questions about functions, answered once
    d.world = world = World(d)
    d.symbols = Symbols(d, world)
    d.links = links = Linker(d, world)
    d.powers, d.dispatch = links.powers, links.dispatch  # made by the linker, parts beside it
    d.rules = rules = CompiledRules(d, world, links)
    d.answer_from_parts()
    d.compiler = Compiler(d)
    out = d.compiler.output  # what the compiler produces (lang/output.py), read here by its names
    d.conts = out.conts  # continuations of the statements that may wait for a choice
    d.prompts = out.prompts  # continuation id of a `choose` -> its prompt's template (views.prompt_for)
    d.generated = out.generated  # every generated module, for `validate --source` (lang/sources.py)
    if type(players) is not int or not 1 <= players <= limits.players:
        raise ContentError(Problem(Location("--players"), lim.over("players", players, limits)
                                   if type(players) is int and players > 0 else
                                   f"the number of players must be a whole number from 1, not {players!r}"))
    d.options = ruleset.resolve_options(options or {}, players)
    d.spec = spec if spec is not None else ContentSpec.of(ruleset)  # the typed sections (ruleset/spec.py)
    d.levels = declared_levels(ruleset)
    world.build()
    d.publish("world")  # read by the compiler from now on: at once, not through Building.__getattr__
    links._collect_rules()
    for name in ("function_defs", "procedure_params", "event_params", "ret"):  # asked by the compiler at
        setattr(d, name, getattr(links, name))  # every call it compiles: read at once, not through __getattr__
    links._compile_all()  # even when building found problems: report the rules' problems too
    rules.compile()
    if observer is not None and not d.errors.problems:
        observer.instrument_rules(d)
    d.errors.raise_if_any()
    d.uses_chance = out.uses_chance  # some rule rolls, shuffles or draws at random (a text compiled
    # during play, game.evaluate("roll(2, 6)"), no longer changes it: the definition is frozen below)
    d.freeze()
    return d
