"""What a game definition is made of: the base of its parts (frozen once built), the compiled
handlers, actions, steps and windows, and the read-only tables."""
from __future__ import annotations

from dataclasses import dataclass, field

from ..lang.analysis import facts

RESETS = ("never", "action", "turn", "round")


class _AlreadyReported(Exception):
    """A part failed to compile and its problems are already in the list."""


@dataclass
class Handler:
    cond: object  # f(ctx) or None
    body: object  # CPS entry
    direct: object  # direct entry or None when it may suspend
    nargs: int
    nslots: int
    where: str = ""


@dataclass
class ActionDef:
    name: str
    steps: frozenset | None
    params: list  # [(name, slot, domain f)]
    requires: list  # [(f, reason template)]
    limit: int | None
    label: object
    effect: object
    nslots: int
    section: str = ""
    requires_by_level: list = field(default_factory=list)  # checks to run once i parameters are bound
    static_false: list = field(default_factory=list)  # requirements false by the options alone
    presence: tuple | None = None  # (card ids, zone id or zone ids by seat): where its card must be (presence.py)
    fixed: tuple = ()  # per parameter: (values, where, what, value by key) when its domain is the same in every state, else None
    why_not: tuple = ()  # per parameter: ((check, reason), ...), the conditions its values meet (`reasons`), else None
    listed: list = field(default_factory=list)  # per level: the functions a listing calls (rules.py `_listed`)

    def __post_init__(self):
        self.requires_by_level = [[f for f, _, lv in self.requires if lv == i] for i in range(len(self.params) + 1)]


@dataclass
class StepDef:
    name: str
    skip: object
    sim: object = None  # a simultaneous step (flow.turn.steps[i].simultaneous): a SimultaneousDef


@dataclass
class SimultaneousDef:
    """A step where every seat of a set chooses in secret; the choices are revealed together
    (simultaneous.py)."""

    seats: object  # (f, scope size): the seats that choose, in the order they are asked; None: every seat
    reveal: object  # the effect run after every chosen action, or None
    where: object = None  # the step's Location, for errors


@dataclass
class WindowDef:
    """An out-of-turn window (flow.turn.windows): while a turn goes on, other seats may act."""

    name: str
    steps: frozenset | None  # the turn's steps in which it opens; None: every step
    each: str  # "step": once, when the step begins; "action": also after each action of the turn's player
    seats: object  # (f, scope size): the seats that may act, in the order they are asked
    actions: tuple  # the names of the actions played in it
    decline: str  # the name of the move that declines (always legal in the window)
    where: object = None  # the window's Location, for errors


class ReadOnlyDict(dict):
    """A dict that refuses changes: a built definition's tables. A dict still (read as fast, and
    written as JSON where one is handed out, as `options`), its copies are itself."""

    __slots__ = ()

    def _refuse(self, *args, **kwargs):
        raise TypeError("a game definition's tables do not change once built")

    __setitem__ = __delitem__ = __ior__ = _refuse
    clear = pop = popitem = setdefault = update = _refuse

    def __copy__(self):
        return self

    def __deepcopy__(self, memo):
        return self

    def __reduce__(self):
        return type(self), (dict(self),)


def freeze(obj, keep=frozenset()) -> None:
    """Make `obj`'s containers read-only, in place of the originals (lists become tuples, dicts
    ReadOnlyDicts, sets frozensets), but for the attributes named in `keep`; then refuse to set
    any attribute of it (a Part, or the GameDefinition)."""
    for name, v in list(vars(obj).items()):
        if name in keep:
            continue
        t = type(v)
        if t is list:
            v = tuple(v)
        elif t is dict:
            v = ReadOnlyDict(v)
        elif t is set:
            v = frozenset(v)
        else:
            continue
        object.__setattr__(obj, name, v)
    object.__setattr__(obj, "_frozen", True)


class Frozen:
    """An object that refuses to change once `freeze` has run on it."""

    def __setattr__(self, name, value):
        if self.__dict__.get("_frozen"):
            raise AttributeError(f"a game definition does not change once built (setting {name!r})")
        object.__setattr__(self, name, value)

    def __delattr__(self, name):
        raise AttributeError(f"a game definition does not change once built (deleting {name!r})")


class Part(Frozen):
    """A part of a game definition (world, symbols, linked handlers, compiled rules): made by the
    builder (build.py) for the definition `d` it belongs to, filled, then frozen with it."""

    def __init__(self, d):
        self.d = d


class CompileMemo:
    """What the compiler asked of the content's functions, kept for its next questions: whether a
    function is compiled in place at its call sites (`inline`, by name and whether it is called
    with a loop's variable) and whether it is pure (`purity`, by name). Its answers depend on the
    content alone, never on a state, and are at most two per function. It goes on growing after
    the definition is built, since texts shown to players are compiled when first needed."""

    __slots__ = ("inline", "purity")

    def __init__(self):
        self.inline: dict = {}
        self.purity: dict = {}


def _names_in(tree) -> set:
    return set(facts(tree).names)

