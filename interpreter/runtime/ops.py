"""The values of the rules language: arithmetic, aggregates and orderings, as generated code and
the statement compiler use them. `none` counts as nothing in arithmetic and compares false."""
from __future__ import annotations

from . import context as rt
from ..limits import DEFAULT, number_failed, size_failed, spend_failed
from ..core.model import Card, Seat, Zone, label_of

# ---- safe operators: `none` compares false and counts as nothing ----------------------

def _cmp(op):
    def f(a, b):
        if a is None or b is None:
            return False
        return op(a, b)
    return f


_COMPARE = {
    "==": lambda a, b: a == b,
    "!=": lambda a, b: a != b,
    "<": _cmp(lambda a, b: a < b),
    "<=": _cmp(lambda a, b: a <= b),
    ">": _cmp(lambda a, b: a > b),
    ">=": _cmp(lambda a, b: a >= b),
}


def _num(v):
    return 0 if v is None else v


def _add(a, b):
    if type(a) is list or type(b) is list:
        return (a or []) + (b or [])
    return _num(a) + _num(b)


_BINOPS = {
    "+": _add,
    "-": lambda a, b: _num(a) - _num(b),
    "*": lambda a, b: _num(a) * _num(b),
    "/": lambda a, b: _num(a) // _num(b),
    "//": lambda a, b: _num(a) // _num(b),
    "%": lambda a, b: _num(a) % _num(b),
}


_NUMBER = DEFAULT.number  # the magnitude cap of numbers computed by the rules (limits.py)


def _arith(ctx, op: str, a, b, loc):
    """`a op b` off the fast path: texts and lists within the size cap, numbers within the
    number cap, and a rule error naming both values when they do not go together."""
    ta, tb = type(a), type(b)
    if op == "+" and ta is tb and (ta is str or ta is list):  # two texts or two lists joined: the frequent case
        size = len(a) + len(b)
        if size > ctx.m.limits.collection:
            size_failed(ctx, loc, "a list or text joined", size)
        ctx.budget = left = ctx.budget - size
        if left < 0:
            spend_failed(ctx, loc, "a list or text joined")
        return a + b
    if (a is None and tb is not list) or (b is None and ta is not list):
        raise rt.RuleRuntimeError(rt.none_in_arithmetic(a, op, b), loc)
    if op == "*" and ((ta in (list, str) and tb is int) or (tb in (list, str) and ta is int)):
        seq, n = (a, b) if ta in (list, str) else (b, a)
        size = len(seq) * max(n, 0)
        rt.check_size(ctx, size, loc, f"{label_of(a)} * {label_of(b)}")
        rt.spend(ctx, size, loc, "a list or text repeated")
    elif op == "+" and (ta in (list, str) or tb in (list, str)):
        size = (len(a) if ta in (list, str) else 0) + (len(b) if tb in (list, str) else 0)
        rt.check_size(ctx, size, loc, "a list or text joined")
        rt.spend(ctx, size, loc, "a list or text joined")
    try:
        r = _BINOPS[op](a, b)
    except (TypeError, ZeroDivisionError, ValueError, OverflowError, MemoryError):
        raise rt.RuleRuntimeError(f"cannot compute {label_of(a)} {op} {label_of(b)}", loc) from None
    if type(r) is int and not -_NUMBER <= r <= _NUMBER:
        number_failed(ctx, loc, f"{label_of(a)} {op} {label_of(b)}")
    return r


def _size(v) -> int:
    try:
        return len(v)
    except TypeError:
        return 0


def _sum(values):
    """`sum`: none counts as nothing. At once when every value is a number (the frequent case)."""
    if type(values) is not list:
        values = list(values)  # gone through twice when a value is not a number
    try:
        return sum(values)
    except TypeError:
        return sum(_num(v) for v in values)


def _agg(fn, empty):
    def f(values):
        values = [v for v in values if v is not None]
        return fn(values) if values else empty
    return f


_AGGREGATES = {
    "count": rt.count_true,
    "sum": _sum,
    "max": _agg(max, None),
    "min": _agg(min, None),
    "any": lambda vs: any(vs),
    "all": lambda vs: all(vs),
    "list": list,
}


def _sort_key(v):
    if isinstance(v, (Card, Zone, Seat)):
        return (1, v.id)
    if v is None:
        return (0, 0)
    return (2, v)


_INT_ONLY = frozenset((int,))  # the types of a list of whole numbers alone (or of an empty one)


def _distinct(vs):
    if type(vs) is not list:  # a generator (`distinct(x for x in ...)`): its values, then as a list
        vs = list(vs)
    if {*map(type, vs)} <= _INT_ONLY:  # numbers only (columns, rows): the same values in the same order, at once
        return sorted(set(vs))
    out = []
    seen = set()
    for v in vs:
        k = (type(v), v.id) if isinstance(v, (Card, Zone, Seat)) else v
        if k not in seen:
            seen.add(k)
            out.append(v)
    return sorted(out, key=_sort_key)


_AGGREGATES["distinct"] = _distinct


