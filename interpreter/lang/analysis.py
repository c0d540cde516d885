"""One pass over a typed tree: what the compiler and the match need to know about a text.

`facts(node)` walks a tree once and keeps the answer with the node (trees are shared by every
match that parses the same text, so each text is analysed once per process):
- the names it reads, the functions it calls, the procedures it runs and the events it emits;
- whether it asks a player (`choose`);
- whether it loops (`where`, `[... for ...]`, an aggregate) or reads the state (attributes,
  indexes, calls, tag tests): a text that does neither, and reads only constants, has a value
  known at load time;
- whether it only reads (names, attributes, literals): an argument that can be read twice;
- its size in nodes (small functions are compiled in place).

What depends on other texts (does a procedure wait for a choice through what it calls? is a
function pure through the functions it calls?) is settled by Match from these facts.
"""
from __future__ import annotations

from dataclasses import dataclass

from . import ast as A

_LOOPS = (A.Where, A.ListFor, A.Aggregate)
_READS_STATE = (A.Attr, A.Call, A.Aggregate, A.Index, A.ListFor, A.Where, A.IsTag)
_PLAIN = (A.Name, A.Attr, A.Num, A.Str, A.Const, A.Neg)


@dataclass(frozen=True)
class Facts:
    names: frozenset
    calls: frozenset
    does: frozenset
    emits: frozenset
    chooses: bool
    loops: bool
    reads_state: bool
    plain: bool
    size: int

    def static(self, constants) -> bool:
        """A value known at load time: literals, operators and the given constants only."""
        return not self.reads_state and all(n in constants for n in self.names)


def facts(node) -> Facts:
    """The facts of a tree (a node, or a list of statements)."""
    if isinstance(node, list):
        return _merge([facts(s) for s in node])
    try:
        return node._facts
    except AttributeError:
        pass
    names, calls, does, emits = set(), set(), set(), set()
    chooses = loops = reads = False
    plain = True
    size = 0
    for n in node.walk():
        size += 1
        t = type(n)
        if t is A.Name:
            names.add(str(n.name))
        elif t is A.Call:
            calls.add(str(n.fn))
        elif t is A.Do:
            does.add(str(n.name))
        elif t is A.Emit:
            emits.add(str(n.name))
        elif t is A.Choose:
            chooses = True
        loops = loops or isinstance(n, _LOOPS)
        reads = reads or isinstance(n, _READS_STATE)
        plain = plain and isinstance(n, _PLAIN)
    out = Facts(frozenset(names), frozenset(calls), frozenset(does), frozenset(emits), chooses, loops, reads,
                plain, size)
    node._facts = out
    return out


def _merge(items) -> Facts:
    if not items:
        return Facts(frozenset(), frozenset(), frozenset(), frozenset(), False, False, False, True, 0)
    return Facts(frozenset().union(*(f.names for f in items)), frozenset().union(*(f.calls for f in items)),
                 frozenset().union(*(f.does for f in items)), frozenset().union(*(f.emits for f in items)),
                 any(f.chooses for f in items), any(f.loops for f in items), any(f.reads_state for f in items),
                 all(f.plain for f in items), sum(f.size for f in items))
