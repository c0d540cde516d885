"""The keys each argument of each action may ever take, read from the content alone (issue 33,
item 6): what adapters/action_index.py numbers.

Each parameter's domain is read by domains.py (its text) with what reach.py found of the rules
(where each card may lie, which cards' variables may change, what a `choose` may offer); a card
action played `from:` a zone takes one of the card's copies there first. The keys are sorted, so
the same content gives the same keys in every process.
"""
from __future__ import annotations

from ..core.model import Zone
from ..lang.parser import parse
from ..lang.scope import Scope
from .domains import Domains, Vals
from .reach import reach


def argument_keys(m) -> dict:
    """Action name -> a tuple per argument position of the keys it may take (sorted), for every
    action of `m`, `choose` (when the rules ask one) and each window's `decline`."""
    actions = list(_parameters(m))
    lying, changed, options = reach(m, lambda dom: _effects(m, dom, actions))
    dom = Domains(m, lying, changed)
    out = {}
    for name, params, _ in actions:
        out[name] = tuple(tuple(sorted(dom.keys(v), key=_key_order)) for v in _bound(m, dom, params).values())
    if options is not None:  # a pending choice (`choose`): any option of any of them, or none
        out["choose"] = (tuple(sorted(dom.keys(options) | {"none"}, key=_key_order)),)
    for w in m.windows:
        out.setdefault(w.decline, ())
    return out


def _bound(m, dom: Domains, params) -> dict:
    """{parameter name: Vals} of an action's parameters, in order, each read with those before it
    bound to theirs."""
    env = {}
    for pname, tree, card, optional in params:
        if card is not None:  # the card of an action played `from:` a zone: one of its copies there
            places = dom.value(tree, {}, Scope()) if tree is not None else Vals(places=None)
            vals = Vals(frozenset(m.copies_of(card)), frozenset(z for z in places.values if type(z) is Zone)
                        if not places.numbers else None, own=places.own)
        else:
            vals = dom.items(tree, env, Scope())
        if optional:  # `optional: true`: none too
            vals |= Vals(frozenset({None}))
        env[pname] = vals
    return env


def _effects(m, dom: Domains, actions) -> dict:
    """(file, line, column, text) of each action's effect (and of its group's) -> [the
    {name: Vals} of its parameters] (reach.py binds them where the effect is walked)."""
    out = {}
    for _, params, effects in actions:
        env = None
        for src in effects:
            if env is None:
                env = _bound(m, dom, params)
            out.setdefault((src.file, src.line, src.column, src.text), []).append(env)
    return out


def _key_order(k: str):
    return (not k.isdigit(), int(k) if k.isdigit() else 0, k)


def _parameters(m):
    """(action name, [(parameter name, domain tree, card)], [source of its effects]) of every
    action of `m`; `card`: for the card of an action played `from:` a zone (its first argument),
    the card's name, and the tree is the zone's."""
    specs = {name: (spec, None) for name, spec in m.spec.actions.items()}
    for c in m.spec.cards.values():
        for spec in c.actions:
            specs[spec.name] = (spec, c.name)
    for a in m.actions:
        spec, card = specs[a.name]
        trees = {p.name: parse(p.text(f"action {a.name}.params.{p.name}").src, "expr") for p in spec.params}
        optional = {p.name for p in spec.params if p.optional}
        group = m.spec.actions.get(spec.group) if spec.group is not None else None
        holder = spec if spec.has_from or group is None else group  # as rules.py reads `from:`
        params = []
        for i, (pname, _, _) in enumerate(a.params):
            if i == 0 and card is not None and holder.has_from:
                snip = holder.text("from", label=f"action {a.name}.from")
                params.append(("this", parse(snip.src, "expr") if snip is not None else None, card, False))
            else:
                params.append((pname, trees.get(pname), None, pname in optional))
        effects = [snip.src for snip in (spec.text("effect", label=f"action {a.name}.effect"),
                                         group.text("effect", label=f"action {a.name}.effect")
                                         if group is not None and group.has_effect else None) if snip is not None]
        yield a.name, params, effects
