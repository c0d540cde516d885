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
        self.more: list = []  # the errors of further statements of the same text (Failures)
        super().__init__(message)


class Failures:
    """The errors of one text's statements, found in one pass: while a body is compiled, a
    statement that fails is recorded and written as nothing, and the body goes on with the next;
    the first error then leaves the text carrying the others (`CompileError.more`). The compiled
    code of a text that failed is never run: the definition's builder reports the problems and
    stops. Outside a body (an expression compiled alone), an error leaves at once, as before."""

    def __init__(self):
        self.open: list | None = None  # the errors of the body being compiled, None outside one

    def run(self, compile_):
        """`compile_()` (a body); its recorded errors raised together once it is written."""
        if self.open is not None:  # a body within the body being compiled: one list
            return compile_()
        self.open = found = []
        try:
            out = compile_()
        except CompileError as e:
            found.append(e)
            raise self._together(found) from None
        finally:
            self.open = None
        if found:
            raise self._together(found)
        return out

    def record(self, e: CompileError, scope) -> bool:
        """Keep `e` (raised in `scope`'s text) and go on, when a body is being compiled."""
        if self.open is None:
            return False
        if e.src is None:
            e.src, e.kind = scope.src, scope.kind
        key = (e.message, id(e.node), id(e.src))  # a statement compiled again (an `if` whose test failed)
        if all((f.message, id(f.node), id(f.src)) != key for f in self.open):
            self.open.append(e)
        return True

    def attempt(self, compile_, scope, default=None):
        """`compile_()`, or `default` when it fails inside a body (its error recorded)."""
        try:
            return compile_()
        except CompileError as e:
            if not self.record(e, scope):
                raise
            return default

    @staticmethod
    def _together(found: list) -> CompileError:
        first = found[0]
        first.more = first.more + [x for e in found[1:] for x in [e] + e.more]
        return first


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
        self.types: dict = {}  # a body's name -> the type of what it holds, where known (valuetypes.py)
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
