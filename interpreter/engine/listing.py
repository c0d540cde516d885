"""The legal actions of a step, listed by one generated function per step (issue 9, item 3).

`Listings.actions` asks `Listings.step(i)` for ``list_step(ctx, out, lab, first)``, written
once per step (on first use) as Python source, in the way dsl/codegen.py writes rules:

    def _listing(ctx, out, lab, first):
        st = ctx.st
        used = st[_k1]
        seat = ctx.me.id if ctx.me is not None else None
        memo = ctx.memo
        if used.get(_k2, 0) < 1:                          # a definition under its limit this turn
            ctx.locals = L = [None] * 3
            if _k3(ctx):                                  # its requirements that read no parameter
                for v0, k0 in _zip(*_arg_keys(_m, st, seat, _k4(ctx) or (), memo)):
                    L[0] = v0
                    if not _k5(ctx):                      # those that read the first one
                        continue
                    act = _k7.get(k0)                     # its actions, made once per arguments
                    if act is None:
                        act = _made(_k7, k0, _k2, (k0,))
                    out.append((act, _k6(ctx) if lab else None))
                    if first:
                        return out
                L[0] = None
        ...
        return out

A domain computed in the state is checked in the text as `_domain` (rules.py) checks it: a list
spends one step per value, anything else goes through `domain_other` (the same errors).
A domain that is the same in every state and holds no card (`cells`, `players`, `columns`, a
constant list: `ActionDef.fixed`) is not computed: the loop runs over its (value, key) pairs,
made when the lister is written, after spending the budget its values would have spent; with
one parameter, over (value, key, action) triples, so that its actions are made once too. Any
other action is made once per arguments and kept by its definition (`_made`, at most `_KEPT`):
building an Action (a tuple subclass) costs more than finding it.

It walks the definitions as a player reads them (the same order, the same requirements at the same
parameter, the same budget spent by domains and requirements), without walking data: each
definition's parameters are nested loops, each requirement a call of its compiled check. The
text holds only generated names and integers; every value (names, checks, domains) is a global.
"""
from __future__ import annotations

from ..definition.rules import domain_other
from ..lang.codegen import _compiled
from ..information.handles import arg_keys
from ..limits import spend_failed
from ..core.model import Action
from .plan import ActionPlan
from ..runtime import context as rt

_new_action = tuple.__new__


class Listings:
    """The generated listers of a definition: one per step, one per out-of-turn window, each
    written on first use and kept (they depend on the definition alone, never on a state).
    A part of Game (`game.listings`), used by the flow, the binder and the simultaneous steps."""

    def __init__(self, m):
        self.m = m
        self._listers = {}  # step index, step name, ("window", i) -> its lister

    def step(self, i: int):
        """The lister of the step at index `i` (no step, out of range: the actions of no step)."""
        f = self._listers.get(i)
        if f is None:
            m = self.m
            name = m.step_names[i] if 0 <= i < len(m.step_names) else None  # rt.step_name
            f = self._listers[i] = self.named(name)
        return f

    def named(self, step):
        """The lister of the step named `step`."""
        return self._get(step, self.m.actions_by_step.get(step, ()))

    def window(self, i: int):
        """The lister of the actions of the i-th out-of-turn window."""
        return self._get(("window", i), self.m.window_actions[i])

    def _get(self, key, actions):
        f = self._listers.get(key)
        if f is None:
            f = self._listers[key] = _write(self.m, tuple(actions))
        return f

    def forget(self) -> None:
        """Write every lister again on its next use (tests that change how they are written)."""
        self._listers.clear()

    def actions(self, st, player, *, labels: bool, first_only: bool = False, viewer=None, bare=False) -> list:
        """The legal (Action, label) pairs of the current step's actions, with `me` = `player`
        (`bare`: the actions alone; `viewer`: the ids of the cards the labels may name)."""
        lister = self._listers.get(st["flow"].get("step", 0))
        if lister is None:
            lister = self.step(st["flow"].get("step", 0))
        capped = lister.capped
        if capped is not None:  # every definition limited: nothing to list once all are used up
            used = st["used"]
            for name, limit in capped:
                if used.get(name, 0) < limit:
                    break
            else:
                return []
        ctx = rt.Ctx(st, self.m, player)
        ctx.memo = {}
        ctx.viewer = viewer
        if bare:
            return lister.bare(ctx, [])
        return lister(ctx, [], labels and not first_only, first_only)


def _write(m, actions, index=None, fixed=True):
    """The lister of `actions`. `index`: check first where each card action's card must be
    (presence.py); by default, unless an observer (coverage.py) counts the requirements and
    functions that each listing runs. `fixed`: a domain that is the same in every state
    (`ActionDef.fixed`) is a constant of the text, its keys (and with one parameter its actions)
    made once; without it, computed at each listing as any other (tests compare the two)."""
    if index is None:
        index = getattr(m, "observer", None) is None
    env = {"_m": m, "_arg_keys": arg_keys, "_zip": zip, "_spend_failed": spend_failed, "_made": _made, "_made2": _made2, "_NOTHING": _NOTHING,
           "_type": type, "_len": len, "_list": list, "_domain_other": domain_other,
           "__builtins__": {}}
    names = {}

    def const(v) -> str:
        key = (type(v), v) if type(v) is str or (type(v) is tuple and all(type(i) is int for i in v)) else id(v)
        name = names.get(key)
        if name is None:
            name = names[key] = f"_k{len(names) + 1}"
            env[name] = v
        return name

    # `_listing` gives (action, label) pairs (labels if `lab`, only the first if `first`); `_bare`,
    # the same walk, gives the actions alone: the flow's listing at each decision
    kept = {a.name: {} for a in actions}  # per definition: its actions made so far, by their arguments
    plans = tuple(ActionPlan.of(a) for a in actions)  # what `verify` walks too (plan.py)
    source = (_text(plans, index, fixed, const, kept, bare=False)
              + _text(plans, index, fixed, const, kept, bare=True))
    exec(_compiled(source), env)
    f = env["_listing"]
    f.bare = env["_bare"]
    f._interpret_source = source
    # every definition limited per turn: ((name, limit), ...), to see at once that none is left
    f.capped = tuple((a.name, a.limit) for a in actions) if all(a.limit is not None for a in actions) else None
    return f


def _text(actions, index, fixed, const, kept, bare: bool) -> str:
    head = "def _bare(ctx, out):" if bare else "def _listing(ctx, out, lab, first):"
    lines = [head, "    st = ctx.st", f"    used = st[{const('used')}]",
             "    seat = ctx.me.id if ctx.me is not None else None",
             "    memo = ctx.memo if ctx.memo is not None else {}", "    loc = st['loc']"]
    zones = {}  # zone ids by seat (presence) -> the local naming the deciding seat's one (None: no seat)
    for a in actions:
        if index and a.presence is not None and type(a.presence[1]) is tuple and const(a.presence[1]) not in zones:
            z = zones[const(a.presence[1])] = f"z{len(zones)}"
            # and whether it holds a card: a test of several cards' places is not made for an empty zone
            lines += [f"    {z} = {const(a.presence[1])}[seat] if seat is not None else None",
                      f"    h{z} = st['z'][{z}] if {z} is not None else None"]
    for a in actions:
        ind = "    "
        if a.limit is not None:
            lines.append(f"{ind}if used.get({const(a.name)}, 0) < {int(a.limit)}:")
            ind += "    "
        if index and a.presence is not None:
            lines.append(f"{ind}if {_present(a.presence, const, zones)}:")
            ind += "    "
        # no slot: nothing reads or writes one, the empty tuple serves
        lines.append(f"{ind}ctx.locals = L = [None] * {int(a.nslots)}" if a.nslots else f"{ind}ctx.locals = ()")
        if a.listed:
            lines.append(f"{ind}if {' and '.join(f'{const(f)}(ctx)' for f in a.listed)}:")
            ind += "    "
        lines += [f"{ind}h{i} = None" for i, p in enumerate(a.params) if _hoisted(i, p, fixed)]
        _loops(a, 0, ind, lines, const, fixed=fixed, kept=kept[a.name], bare=bare)
    lines.append("    return out")
    return "\n".join(lines) + "\n"


def _present(presence, const, zones) -> str:
    """The test that one of the card ids lies in the zone (a zone id, or zone ids by seat: the
    deciding seat's one is the local `zones[...]`, None with no seat, when nothing is known)."""
    ids, zone = presence
    if type(zone) is tuple:
        z = zones[const(zone)]
        if len(ids) > 1:  # one of them among the zone's cards (hz: their ids; none for an empty zone)
            return f"{z} is None or (h{z} and not {const(frozenset(int(i) for i in ids))}.isdisjoint(h{z}))"
        return "".join(f"loc[{int(i)}] == {z} or " for i in ids) + f"{z} is None"
    return " or ".join(f"loc[{int(i)}] == {int(zone)}" for i in ids)


def _loops(a, i, ind, lines, const, fixed, kept, made=False, bare=False):
    """The loop of parameter i of the plan `a` (and those after it), at indentation `ind`.
    `fixed`: a fixed domain is a constant (else computed as any other); `kept`: the definition's
    actions made so far, by their arguments (a dict); `made`: the action is the loop's `made`
    (made once, when the lister is written); `bare`: the action alone is listed."""
    n = len(a.params)
    if i == n:
        if made:
            action = "made"
        elif n == 0:
            action = const(Action(a.name, ()))
        else:  # made once per arguments, then found by them (Actions are immutable tuples)
            action, d = "act", const(kept)
            if n == 1:
                lines += [f"{ind}act = {d}.get(k0)", f"{ind}if act is None:",
                          f"{ind}    act = _made({d}, k0, {const(a.name)}, (k0,))"]
            elif n == 2:  # by the first argument's actions (r0, looked up once for all the second's)
                lines += [f"{ind}act = r0.get(k1)", f"{ind}if act is None:",
                          f"{ind}    act = _made2({d}, k0, k1, {const(a.name)})",
                          f"{ind}    r0 = {d}[k0]"]
            else:
                keys = "".join(f"k{j}, " for j in range(n))
                lines += [f"{ind}act = {d}.get(t := ({keys}))", f"{ind}if act is None:",
                          f"{ind}    act = _made({d}, t, {const(a.name)}, t)"]
        if bare:
            lines.append(f"{ind}out.append({action})")
            return
        label = f"{const(a.label)}(ctx) if lab else None"
        lines += [f"{ind}out.append(({action}, {label}))",
                  f"{ind}if first:", f"{ind}    return out"]
        return
    param = a.params[i]
    slot, dom = param.slot, param.domain
    entry = param.fixed if fixed else None
    compiled = getattr(dom, "compiled", None)
    if n == 2 and i == 1 and not made:  # the actions made so far with the first argument
        lines.append(f"{ind}r0 = {const(kept)}.get(k0, _NOTHING)")
    # the last parameter's values, when listing actions alone and no requirement reads it, are
    # written in no slot: the loop runs over their keys alone
    keys_only = bare and i == n - 1 and not param.listed
    if entry is None and compiled is None:
        lines.append(f"{ind}for k{i} in _arg_keys(_m, st, seat, {const(dom)}(ctx) or (), memo)[1]:" if keys_only else
                     f"{ind}for v{i}, k{i} in _zip(*_arg_keys(_m, st, seat, {const(dom)}(ctx) or (), memo)):")
    elif entry is None:  # rules.py `_domain`'s check written in place: a list spends one step per value
        computed = [f"d{i} = {const(compiled)}(ctx)", f"if _type(d{i}) is _list:", f"    if d{i}:",
                    f"        ctx.budget = b = ctx.budget - _len(d{i})", "        if b < 0:",
                    f"            _spend_failed(ctx, {const(dom.where)}, {const(dom.what)})",
                    f"elif d{i} is not None:",
                    f"    d{i} = _domain_other(d{i}, {const(dom.pname)}, {const(dom.where)})"]
        if _hoisted(i, param, fixed):
            # read no earlier parameter, drawn nothing: its values and their keys, computed at the first
            # pass, hold for the others (nothing changes the state while listing), each spending again
            # what computing it again would spend; one that would go over the budget is computed, to fail
            # where it would. A call remembered by the first (`ctx.memo` grew) is answered from the memo
            # from then on, which spends less: the second pass computes it again, and its cost is the
            # one spent from then on (every call it makes is then remembered: the third spends as much)
            again = [f"h{i} = _arg_keys(_m, st, seat, d{i}, memo) if d{i} else ()"]
            lines += [f"{ind}if h{i} is None:", f"{ind}    s{i} = ctx.budget", f"{ind}    w{i} = _len(memo)",
                      *(f"{ind}    {x}" for x in computed), f"{ind}    w{i} = _len(memo) != w{i}",
                      f"{ind}    {again[0]}", f"{ind}    s{i} -= ctx.budget",
                      f"{ind}elif w{i}:", f"{ind}    s{i} = ctx.budget",
                      *(f"{ind}    {x}" for x in computed), f"{ind}    s{i} -= ctx.budget", f"{ind}    w{i} = False",
                      f"{ind}elif (b := ctx.budget - s{i}) >= 0:", f"{ind}    ctx.budget = b",
                      f"{ind}else:", *(f"{ind}    {x}" for x in computed + again),
                      f"{ind}for k{i} in h{i}[1] if h{i} else ():" if keys_only else
                      f"{ind}for v{i}, k{i} in _zip(*h{i}) if h{i} else ():"]
        else:
            lines += [f"{ind}{x}" for x in computed]
            lines.append(f"{ind}for k{i} in _arg_keys(_m, st, seat, d{i}, memo)[1] if d{i} else ():" if keys_only else
                         f"{ind}for v{i}, k{i} in _zip(*_arg_keys(_m, st, seat, d{i}, memo)) if d{i} else ():")
    else:
        # the same values in every state, none a card: their keys are the same for every seat
        values, where, what, _ = entry
        if values:  # spent as `_domain` spends: one step per value
            lines += [f"{ind}ctx.budget = b = ctx.budget - {int(len(values))}", f"{ind}if b < 0:",
                      f"{ind}    _spend_failed(ctx, {const(where)}, {const(what)})"]
        keys = param.keys
        if n == 1:  # one parameter: its actions too are the same in every state
            actions = tuple((v, k, Action(a.name, (k,))) for v, k in zip(values, keys))
            lines.append(f"{ind}for made in {const(tuple(x for _, _, x in actions))}:" if keys_only else
                         f"{ind}for v{i}, k{i}, made in {const(actions)}:")
        else:
            lines.append(f"{ind}for k{i} in {const(tuple(keys))}:" if keys_only else
                         f"{ind}for v{i}, k{i} in {const(tuple(zip(values, keys)))}:")
    if not keys_only:
        lines.append(f"{ind}    L[{int(slot)}] = v{i}")
    for f in param.listed:
        lines += [f"{ind}    if not {const(f)}(ctx):", f"{ind}        continue"]
    _loops(a, i + 1, ind + "    ", lines, const, fixed, kept, made=entry is not None and n == 1, bare=bare)
    if not keys_only:
        lines.append(f"{ind}L[{int(slot)}] = None")


def _hoisted(i: int, param, fixed: bool) -> bool:
    """Whether parameter i's domain is computed once per listing (a later parameter's domain
    computed in the state, which reads no parameter before it and draws nothing: rules.py)."""
    return i > 0 and (param.fixed is None or not fixed) and getattr(param.domain, "compiled", None) is not None \
        and getattr(param.domain, "invariant", False)


_KEPT = 4096  # actions kept per definition, at most (a domain of many values lists its actions afresh)
_KEPT2 = 256  # with two parameters: first arguments kept, and actions kept for each one, at most
_NOTHING: dict = {}  # the actions of a first argument not met yet (never written)


def _made2(kept: dict, k0: str, k1: str, name: str) -> Action:
    """The action `name k0 k1`, made and kept under k0, then k1."""
    inner = kept.get(k0)
    if inner is None:
        if len(kept) >= _KEPT2:
            kept.clear()
        inner = kept[k0] = {}
    elif len(inner) >= _KEPT2:
        inner.clear()
    act = inner[k1] = _new_action(Action, (name, (k0, k1)))
    return act


def _made(kept: dict, key, name: str, args: tuple) -> Action:
    """The action `name args`, made and kept under `key`."""
    if len(kept) >= _KEPT:
        kept.clear()
    act = kept[key] = _new_action(Action, (name, args))
    return act


__all__ = ["Listings"]
