"""The one description of an action that listing, verifying and trusted binding read (issue 26).

An `ActionPlan` is made from a definition (definition/parts.py `ActionDef`): its requirements
that read no parameter (`checks`), then its parameters in order, each with its domain (computed
in the state, or `fixed`: the same values and keys in every state) and the requirements that
become checkable once it is bound (`Param.checks`: the definition's `requires_by_level`, with
their reasons). The listing (listing.py) is generated from it: level-0 checks, then one nested
loop per parameter over its domain, each followed by its checks. Verifying (legality.py
`Binder.bind`) walks the same plan for one action's arguments: each parameter bound from its
domain, then the same checks, in the order they are declared (a player reads them so: the first
that fails gives the reason). What the listing omits, `verify` refuses, and `explain` says why.
"""
from __future__ import annotations

from typing import NamedTuple

from ..core.model import key_of


class Param(NamedTuple):
    name: str
    slot: int  # the local the argument's value is bound to
    domain: object  # f(ctx): its values, computed in the state
    fixed: tuple | None  # (values, where, what, value by key) when the same in every state (ActionDef.fixed)
    keys: tuple | None  # the keys of the fixed values, in order (key_of): the same for every seat
    checks: tuple  # ((f, reason), ...): the requirements checkable once it is bound, in declared order
    why_not: tuple | None = None  # ((check, reason), ...): the conditions its values meet, said of a value refused
    listed: tuple = ()  # what the listing calls for `checks`: the same requirements, several written as one


class ActionPlan(NamedTuple):
    name: str
    limit: int | None
    nslots: int
    presence: tuple | None  # where its card must be (presence.py), or None
    label: object
    checks: tuple  # ((f, reason), ...): the requirements that read no parameter
    params: tuple  # (Param, ...)
    in_order: tuple  # ((f, reason), ...): every check of every level, in declared order (verify's)
    listed: tuple = ()  # what the listing calls for `checks` (definition/rules.py `_listed`)

    @staticmethod
    def of(a) -> "ActionPlan":
        declared = {id(f): (i, reason) for i, (f, reason, _) in enumerate(a.requires)}
        levels = a.requires_by_level or [[] for _ in range(len(a.params) + 1)]

        def checks(level) -> tuple:
            return tuple((f, declared[id(f)][1]) for f in levels[level])
        listed = a.listed or [[f for f, _ in checks(level)] for level in range(len(levels))]
        fixed = a.fixed or (None,) * len(a.params)
        why_not = a.why_not or (None,) * len(a.params)
        params = tuple(Param(pname, slot, dom, fx, tuple(key_of(v) for v in fx[0]) if fx is not None else None,
                             checks(i + 1), why_not[i], tuple(listed[i + 1]))
                       for i, ((pname, slot, dom), fx) in enumerate(zip(a.params, fixed)))
        every = sorted(((f, declared[id(f)]) for level in levels for f in level), key=lambda e: e[1][0])
        return ActionPlan(a.name, a.limit, a.nslots, a.presence, a.label, checks(0), params,
                          tuple((f, reason) for f, (_, reason) in every), tuple(listed[0]))


__all__ = ["ActionPlan", "Param"]
