"""Names while compiling: local slots, the compile error, and suggestions for misspelt names."""
from __future__ import annotations

from dataclasses import KW_ONLY, dataclass

_MISS = object()


@dataclass(frozen=True)
class Arg:
    """What stands for a name while a text is written in place of it: a parameter of a function
    compiled in place (its argument), or the variable of a loop written out (one of its items).
    - `text`: the Python text read in its place;
    - `value`: its value when known at load time (an item of a constant list or range), else _MISS;
    - `temp`: the temporary holding it once computed, when the argument is computed where the
      parameter is first read (repeated.py), else None;
    - `kind`: the kind of its value, when known (kindfacts.py)."""
    text: str
    _: KW_ONLY
    value: object = _MISS
    temp: str | None = None
    kind: object = None


class CompileError(Exception):
    def __init__(self, message: str, node=None, hint: str = ""):
        self.message = message
        self.node = node
        self.hint = hint
        self.src = None  # the text it was raised in: set when it leaves that text (stamped())
        self.kind = "expr"
        super().__init__(message)


class Scope:
    """Local names of one body (action, trigger, procedure, function): name -> slot; and the text
    being compiled (`src`, `kind`: "expr" when its positions are offsets in a folded expression),
    where compile and run-time errors point.

    Two scopes may share one frame: `reading(src)` is the same locals seen from another text (a
    {piece} of a template, a card's `while`), so their slots and frame size are one."""

    def __init__(self, names=(), src=None, kind: str = "expr", replacing=None):
        self.slots: dict[str, int] = {}
        self._size = [0]  # shared with the scopes reading other texts (reading())
        self.inlined: dict = {}  # names written in place: name -> its Arg
        self.bound: dict = {}  # names bound to a value known at load time (`this`: the card of a power)
        self.src = src
        self.kind = kind
        self.replacing = replacing  # (procedure, index) in an `instead of` rule: what `super` runs
        self.kinds: dict = {}  # slot -> the kind of what it holds (a parameter bound from its domain)
        self.loop_kinds: dict = {}  # slot -> the kind of its items, while a loop binding it is written
        for n in names:
            self.add(n)

    @property
    def size(self) -> int:
        return self._size[0]

    @size.setter
    def size(self, n: int) -> None:
        self._size[0] = n

    def reading(self, src, kind: str = "expr") -> "Scope":
        """The same locals (one frame), compiled from another text `src`."""
        view = object.__new__(Scope)
        view.__dict__.update(self.__dict__)
        view.src, view.kind = src, kind
        return view

    def add(self, name: str) -> int:
        if name not in self.slots:
            self.slots[name] = self.size
            self.size += 1
        return self.slots[name]

    def hidden(self) -> int:
        self.size += 1
        return self.size - 1


def stamped(src, kind: str, compile_):
    """`compile_()`, a CompileError leaving it marked as raised in the text `src` (unless a text
    nested in it, a {piece} or an inlined function, already marked it)."""
    try:
        return compile_()
    except CompileError as e:
        if e.src is None:
            e.src, e.kind = src, kind
        raise
