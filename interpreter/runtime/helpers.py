"""What generated code calls off its fast paths (codegen.py): the slow cases of indexing,
negation, comparison, aggregates, membership and calls, each raising a rule error at its position."""
from __future__ import annotations

from . import context as rt
from ..limits import BudgetExceeded, spend_failed
from ..core.model import Card, Seat, Zone, label_of
from ..core.state import put
from .ops import _num


def _spend_seq(ctx, total, parts):
    """Spends merged into one (`ctx.budget -= total`) went below zero: undo, then spend each part
    as written, to fail at the same one, with the same budget left, as the parts one by one."""
    ctx.budget += total
    for n, loc, what in parts:
        ctx.budget = b = ctx.budget - n
        if b < 0:
            spend_failed(ctx, loc, what)


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
    except (rt.RuleRuntimeError, TypeError) as e:
        raise _aggregate_failed(e, values, fname, loc) from None


def _aggregate_failed(e, values, fname, loc):
    if isinstance(e, rt.RuleRuntimeError):
        return rt.relocate(e, loc)
    return rt.RuleRuntimeError(f"`{fname}` cannot combine {label_of(values)}", loc)


def _aggregate_of(ctx, agg, v, fname, loc, iterable, size):
    if type(v) is list:  # the frequent case: what `iterable` and `size` give for a list, at once
        values = v
        ctx.budget = b = ctx.budget - len(v)
    else:
        values = iterable(v, loc)
        ctx.budget = b = ctx.budget - size(values)
    if b < 0:
        spend_failed(ctx, loc, f"`{fname}`")
    try:
        return agg(values)
    except (rt.RuleRuntimeError, TypeError) as e:
        raise _aggregate_failed(e, values, fname, loc) from None


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
    "_spend_failed": spend_failed, "_spend_seq": _spend_seq, "_bool": bool, "_type": type, "_getattr": getattr, "_setattr": setattr, "_len": len,
    "_EMPTY": frozenset(), "list": list, "int": int, "_list": list, "_tuple": tuple, "_map": map,
}


def _size_of(v) -> int:
    try:
        return len(v)
    except TypeError:
        return 0


# ---- what generated statements call (statements.py) ---------------------------------------

_FINISH_RANKS = {"step": 1, "turn": 2, "round": 3, "game": 4}


def _finish(flow, what):
    """`finish WHAT`: the flow ends the widest of what was asked (step < turn < round < game)."""
    if _FINISH_RANKS[what] > _FINISH_RANKS.get(flow.get("finish") or "", 0):
        flow["finish"] = what


def _for_items(ctx, v, loc, iterable):
    """The items a `for` statement goes through (a copy), its budget spent."""
    items = list(v) if type(v) is list else list(iterable(v, loc))
    b = ctx.budget - len(items) - 1
    ctx.budget = b
    if b < 0:
        spend_failed(ctx, loc, f"`for` over {len(items):,} items")
    return items


def repeat_budget(ctx, n, loc):
    """Spend the budget of `repeat n times` (over the limit `repeat`: a budget error)."""
    cap = ctx.m.limits.repeat
    if n > cap:
        raise BudgetExceeded("repeat", f"repeat {n:,} times: over the limit `repeat` of {cap:,}", loc)
    b = ctx.budget - max(n, 0) - 1
    ctx.budget = b
    if b < 0:
        spend_failed(ctx, loc, f"repeat {n:,} times")


def _repeat_times(ctx, n, loc):
    """The range of `repeat n times`, its budget spent."""
    if n is not None and type(n) is not int:
        raise rt.RuleRuntimeError(f"repeat needs a number of times, not {label_of(n)}", loc)
    n = _num(n)
    repeat_budget(ctx, n, loc)
    return range(n)


def _set_global(ctx, name, enc, typ, v, loc):
    try:
        ctx.st["gv"][name] = enc(v)
    except (AttributeError, TypeError):
        raise rt.RuleRuntimeError(f"`{name}` holds a {typ}, not {label_of(v)}", loc) from None


def _set_var(ctx, o, v, by_type, name, loc):
    """`o.name = v` for a variable of cards, players or zones (by_type: type -> table, codec, type)."""
    entry = by_type.get(type(o))
    if entry is None:
        raise rt.RuleRuntimeError(f"cannot set `{name}` on {o!r}", loc)
    kind, enc, typ = entry
    try:
        v = enc(v) if enc else v
    except (AttributeError, TypeError):
        raise rt.RuleRuntimeError(f"`{name}` holds a {typ}, not {label_of(v)}", loc) from None
    put(ctx.st[kind], name, o.id, v)  # the variable's table is a tuple: replaced, never changed in place


def _move(ctx, w, z, top, loc):
    try:
        if type(w) is list:
            for c in w:
                rt.move(ctx, c, z, top)
        else:
            rt.move(ctx, w, z, top)
    except rt.RuleRuntimeError as e:
        if e.location is not None:
            raise
        raise rt.RuleRuntimeError(str(e), loc) from None


def _swap(ctx, a, b, loc):
    try:
        rt.swap(ctx, a, b)
    except rt.RuleRuntimeError as e:
        raise rt.RuleRuntimeError(str(e), loc) from None


def _cycle(ctx, zones, backward, loc):
    if not isinstance(zones, list) or not all(type(z) is Zone for z in zones):
        raise rt.RuleRuntimeError(f"cycle needs a list of zones, not {label_of(zones)}", loc)
    rt.cycle(ctx, zones, backward)


def _shuffle(ctx, z, loc):
    if type(z) is not Zone:
        raise rt.RuleRuntimeError(f"shuffle needs a zone, not {label_of(z)}", loc)
    rt.shuffle(ctx, z)


def _draw(ctx, k, a, b, loc):
    if type(k) is not int or type(a) is not Zone or type(b) is not Zone:
        raise rt.RuleRuntimeError(f"draw needs a number and two zones, not {label_of(k)}, {label_of(a)}, "
                                  f"{label_of(b)}", loc)
    try:
        rt.draw(ctx, k, a, b)
    except rt.RuleRuntimeError as e:
        raise rt.relocate(e, loc) from None


_HELPERS.update({
    "_finish": _finish, "_for_items": _for_items, "_repeat_times": _repeat_times, "_set_global": _set_global,
    "_set_var": _set_var, "_move": _move, "_swap": _swap, "_cycle": _cycle, "_shuffle": _shuffle, "_draw": _draw,
    "_Stop": rt.Stop, "_RuleRuntimeError": rt.RuleRuntimeError,
})
