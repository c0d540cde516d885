"""A game definition: a ruleset compiled for a number of players and a choice of options.

It is made of parts, each an object of its own, built in this order by the builder (build.py):

- `world` (world.py): seats, constants, the board graph, zones, cards, variables and the tables
  play reads of them (values by key, cells by tag, who identifies the cards of each zone, walks);
- `symbols` (symbols.py): what each name of the rules language means, for the compiler;
- `links` (linker.py): procedures, events and triggers, compiled and bound to their hooks, with
  two parts it makes and holds, published beside it: `powers` (powers.py), the cards' triggers,
  replacements and modifiers, and `dispatch` (dispatch.py), the chains that run a `do` or an `emit`;
- `rules` (rules.py): the flow, the actions, the out-of-turn windows and the scoring.

The definition itself holds what the parts share while they are built (the ruleset, the number of
players, the options, the limits, the compiler and its problems, the continuations of every
`choose`). What other layers read of a definition (`cards`, `zones`, `seats`, `actions`,
`step_names`, `score`...) they read on it as before: once built, the parts' attributes are its
own too (the same objects), and the parts' methods are answered through it. Nothing of it changes
while a game is played (it refuses to): the game's changing data is the plain state built by
``state.initial``.
"""
from __future__ import annotations

import copy

from .linker import Linker
from .parts import Frozen, freeze

PARTS = ("world", "symbols", "links", "powers", "dispatch", "rules")


class GameDefinition(Frozen):
    # The container that stays as it is: the compiler's record of generated sources (`generated`,
    # for --source; game.evaluate adds to it).
    _UNFROZEN = frozenset({"generated"})
    _IMPURE = Linker._IMPURE  # the built-ins that make a function impure (the compiler reads it)

    def __init__(self, *, ruleset, players, limits, observer=None):
        self.rs = ruleset
        self.limits = limits
        self.observer = observer  # coverage.py: wraps the compiled rules to record which ones run
        self.n = players

    def freeze(self) -> None:
        """Freeze the parts, then take their attributes as its own (the same objects, for other
        layers to read as before), then freeze itself (parts.freeze)."""
        self.symbols.mapping_keys()  # the tables built on first use are built now
        self.powers.copies_of("")
        for part in PARTS:
            freeze(self.__dict__[part])
            self.publish(part)
        freeze(self, self._UNFROZEN)
        object.__setattr__(self, "__class__", GameDefinition)  # no longer Building: no __getattr__

    def answer_from_parts(self) -> None:
        """Hold the parts' methods that other layers ask of a definition (ANSWERS) as its own
        attributes, bound to their parts: the compiler asks them thousands of times while it builds."""
        own = self.__dict__
        for part, names in ANSWERS.items():
            p = own[part]
            for name in names:
                own[name] = getattr(p, name)

    def publish(self, part: str) -> None:
        """Take the attributes of a part (built, or frozen) as its own: the same objects."""
        own = self.__dict__
        for name, v in vars(own[part]).items():
            if name not in ("d", "_frozen") and name not in PARTS:
                own[name] = v

    @property
    def graph(self):
        """The board as a networkx.Graph, made on first use (graph.py)."""
        return self.world.graph

    # what play asks of the world
    def value_by_key(self) -> dict:
        return self.world.value_by_key()

    def tagged_cells(self, tag):
        return self.world.tagged_cells(tag)

    def vars_of(self, kind):
        return self.world.vars_of(kind)

    def var_codec(self, kind, name):
        return self.world.var_codec(kind, name)

    def listening(self, on_entered):
        """A copy of this definition whose `on_entered` hook (called for every card entering a
        zone) is `on_entered` instead: every other part is shared (information/memory.py plays a
        decision with it to follow the cards)."""
        other = copy.copy(self)
        other.__dict__["on_entered"] = on_entered
        return other


# What the compiler (lang/) and other layers ask of a definition, answered by its parts.
ANSWERS = {
    "world": ("evaluate_static",),
    "symbols": ("constant", "constant_names", "builtin_value", "builtin_value_names", "zone_family",
                "zone_family_names", "builtin_function", "builtin_function_names", "attribute_names",
                "mapping_keys", "attr_handlers"),
    "links": ("procedure_suspends", "event_suspends", "register", "direct_caller", "function_caller",
              "inline_body", "_is_pure"),
    "powers": ("copies_of",),
    "dispatch": ("_by_card", "procedure_entry_cps", "event_entry_cps", "procedure_direct",
                 "procedure_entry_cps_plain", "procedure_direct_plain", "super_entry_cps", "super_direct",
                 "event_direct"),
}


def _answered_by(part: str, name: str):
    def answer(self, *args, **kwargs):
        return getattr(self.__dict__[part], name)(*args, **kwargs)
    answer.__name__ = answer.__qualname__ = name
    answer.__doc__ = f"The {part}' `{name}`."
    return answer


for _part, _names in ANSWERS.items():
    for _name in _names:
        setattr(GameDefinition, _name, _answered_by(_part, _name))


class Building(GameDefinition):
    """A GameDefinition while the builder fills its parts: an attribute it does not hold yet is
    looked up in its parts (the compiler reads them while they are built). Once frozen, it is a
    GameDefinition (a class without __getattr__, whose attributes are read at full speed)."""

    def __getattr__(self, name):
        if name[:2] != "__":
            own = self.__dict__
            for part in PARTS:
                p = own.get(part)
                if p is not None:
                    try:
                        return getattr(p, name)
                    except AttributeError:
                        pass
        raise AttributeError(f"a game definition has no attribute {name!r}")
