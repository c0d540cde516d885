"""What generated code calls off its fast paths (codegen.py): the slow cases of indexing,
negation, comparison, aggregates, membership and calls, each raising a rule error at its position."""
from __future__ import annotations

from .. import runtime as rt
from ..limits import spend_failed
from ..model import Card, Seat, Zone, label_of


def _index_slow(o, k, loc):
    try:
        if type(o) is dict:
            return o[k] if k in o else o.get(str(k))
        return o[k]
    except (IndexError, KeyError, TypeError):
        raise rt.RuleRuntimeError(f"no item {label_of(k)} in {label_of(o)}", loc) from None


def _neg_slow(v, loc):
    if v is None:
        raise rt.RuleRuntimeError(rt.none_in_arithmetic(None, "-", None), loc)
    try:
        return -v
    except TypeError:
        raise rt.RuleRuntimeError(f"cannot negate {label_of(v)}", loc) from None


def _compare_slow(a, b, op, loc):
    """`a op b` for <, <=, >, >=: none compares false; other mismatches are a rule error."""
    if a is None or b is None:
        return False
    try:
        if op == "<":
            return a < b
        if op == "<=":
            return a <= b
        if op == ">":
            return a > b
        return a >= b
    except TypeError:
        raise rt.RuleRuntimeError(f"cannot compare {label_of(a)} {op} {label_of(b)}", loc) from None


def _compare_const_slow(a, v, op, loc):
    return a is not None and _compare_slow(a, v, op, loc)


def _aggregate(agg, values, fname, loc):
    try:
        return agg(values)
    except rt.RuleRuntimeError as e:
        raise rt.relocate(e, loc) from None
    except TypeError:
        raise rt.RuleRuntimeError(f"`{fname}` cannot combine {label_of(values)}", loc) from None


def _aggregate_of(ctx, agg, v, fname, loc, iterable, size):
    values = iterable(v, loc)
    b = ctx.budget - size(values)
    ctx.budget = b
    if b < 0:
        spend_failed(ctx, loc, f"`{fname}`")
    return _aggregate(agg, values, fname, loc)


def _extreme(fn, values):
    values = [v for v in values if v is not None]
    return fn(values) if values else None


def _zone_of(family, p, fname, loc):
    if type(p) is not Seat:
        raise rt.RuleRuntimeError(f"`{fname}(...)` needs a player, got {label_of(p)}", loc)
    return family[p.id]


def _contains(ctx, coll, item, loc):
    if coll is None:
        return False
    if type(coll) is Zone:
        return type(item) is Card and ctx.st["loc"][item.id] == coll.id
    try:
        return item in coll
    except TypeError:
        raise rt.RuleRuntimeError(f"`in` needs a collection or a zone, not {label_of(coll)}", loc) from None


_CALL_ERRORS = (TypeError, AttributeError, ValueError, IndexError, KeyError, OverflowError)


_CAUGHT = _CALL_ERRORS + (rt.RuleRuntimeError,)


def _at_call(e, sites):
    """An error that left a built-in: `e` at the position of the call it left (a rule error)."""
    tb = e.__traceback__
    site = sites.get(tb.tb_lineno) if tb is not None and tb.tb_next is not None else None
    if site is None:
        return e
    fname, loc = site
    if isinstance(e, rt.RuleRuntimeError):
        return rt.relocate(e, loc)
    return rt.RuleRuntimeError(f"`{fname}` failed: {e}", loc)


_HELPERS = {
    "_Card": Card, "_Zone": Zone, "_Seat": Seat, "_index_slow": _index_slow, "_neg_slow": _neg_slow,
    "_compare_slow": _compare_slow, "_compare_const_slow": _compare_const_slow, "_aggregate": _aggregate,
    "_aggregate_of": _aggregate_of, "_contains": _contains, "_extreme": _extreme, "_zone_of": _zone_of,
    "_at_call": _at_call, "_CAUGHT": _CAUGHT,
    "_spend_failed": spend_failed, "_bool": bool, "_type": type, "_getattr": getattr, "_len": len,
    "_EMPTY": frozenset(), "list": list, "int": int, "_list": list, "_map": map,
}


def _size_of(v) -> int:
    try:
        return len(v)
    except TypeError:
        return 0
