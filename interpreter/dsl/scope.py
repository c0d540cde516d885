"""Names while compiling: local slots, the compile error, and suggestions for misspelt names."""
from __future__ import annotations

import difflib

_MISS = object()


class CompileError(Exception):
    def __init__(self, message: str, node=None, hint: str = ""):
        self.message = message
        self.node = node
        self.hint = hint
        self.src = None  # set when it leaves the text it was raised in
        self.kind = "expr"
        super().__init__(message)


def did_you_mean(name: str, known) -> str:
    close = difflib.get_close_matches(name, sorted(set(known)), n=3, cutoff=0.6)
    if close:
        return "did you mean " + " or ".join(f"`{c}`" for c in close) + "?"
    return ""


class Scope:
    """Local names of one body (action, trigger, procedure, function): name -> slot."""

    def __init__(self, names=()):
        self.slots: dict[str, int] = {}
        self.size = 0
        self.inlined: dict = {}  # an inlined function's parameters: name -> its argument's Python text
        self.bound: dict = {}  # names bound to a value known at load time (`this`: the card of a power)
        for n in names:
            self.add(n)

    def add(self, name: str) -> int:
        if name not in self.slots:
            self.slots[name] = self.size
            self.size += 1
        return self.slots[name]

    def hidden(self) -> int:
        self.size += 1
        return self.size - 1
