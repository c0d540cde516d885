"""Where a card action's card must be for it to give anything: read at load from its rules.

A card action is one of a few dozen definitions the listing of a step walks at every decision,
and most of them give nothing most of the time because their card is elsewhere. Two forms of
the rules say where the card must be:

- a requirement `this in Z` (or a conjunct of it: `... and this in Z`), or a call of a plain
  function whose body is `PARAM in Z` with `this` as its argument (`won(me, this)` for a body
  `objective in player.victory`): the card, bound at load, must lie in Z;
- `from: Z` (the card is the first copy of its name in Z): one of its copies must lie in Z;

where Z is a shared zone (`deck`) or one of the deciding seat's zones (`me.reserve`). The
listing (listing.py) then checks the card's location (``st["loc"]``, one lookup per copy) before
anything else of the definition, instead of computing its requirements and domains: an action
whose card is elsewhere gives nothing either way, so the legal actions are the same. What is no
longer computed for it is the budget its requirements spent, and the errors they might have
raised.

`presence(...)` gives (card ids, zone): zone is a zone id (a shared zone) or a tuple of zone ids
by seat id (a zone of each seat), or None when the rules say nothing this simple.
"""
from __future__ import annotations

from ..lang import ast as A
from ..lang.analysis import Inside, placements
from ..core.model import Zone

_MAX_COPIES = 8  # more copies: one test each is no longer cheaper than what it spares


def presence(m, *, card, bound_from: bool, from_tree, requires, scope):
    """(card ids, zone) where `card` (its name) must be for the action to give anything, or None.

    `from_tree`: the parsed text of `from:` (bound_from), `requires`: the parsed requirements
    (the trees the compiler read: their placements are a fact of the analysis, lang/analysis.py),
    `scope`: the action's scope (`this` bound to the card unless bound_from)."""
    if card is None:
        return None
    if bound_from:
        copies = m.copies_of(card)
        zone = _zone(m, from_tree, scope, None)
        if zone is None or not copies or len(copies) > _MAX_COPIES:
            return None
        return tuple(c.id for c in copies), zone
    this = scope.bound.get("this")
    if this is None or "this" in scope.slots:
        return None
    for tree in requires:
        for placed in placements(tree):
            zone = _this_in(m, placed, scope)
            if zone is not None:
                return (this.id,), zone
    return None


def _this_in(m, placed, scope):
    """The zone of `this in Z`, or of a call of a plain function whose body says it."""
    if type(placed) is Inside:
        return _zone(m, placed.place, scope, None) if placed.name == "this" and "this" not in scope.slots else None
    fn = placed.fn
    spec, typed = m.spec.functions.get(fn), m.function_defs.get(fn)  # its body typed: linker.function_defs
    if spec is None or spec.modifiable or m.powers.modifiers.get(fn) or typed is None or typed.tree is None:
        return None
    params = [str(p) for p in typed.params]
    if len(params) != len(placed.names):
        return None
    args = dict(zip(params, placed.names))
    for inner in placements(typed.tree):
        if type(inner) is Inside and args.get(inner.name) == "this" and "this" not in scope.slots:
            return _zone(m, inner.place, scope, args)
    return None


def _zone(m, node, scope, args):
    """The zone `node` names whoever decides: a shared zone, or a zone of `me` (ids by seat).
    `args`: inside a function's body, its parameters -> the names passed in the action (names
    only); None in the action's own text."""
    if type(node) is A.Attr and type(node.obj) is A.Name:
        who = str(node.obj.name)
        if args is not None and who in args:
            who = args[who]  # a parameter: what the action passed
        elif args is None and (who in scope.slots or who in scope.bound):
            return None
        family = str(node.name)
        if (who == "me" and "me" not in scope.slots and "me" not in scope.bound
                and family not in m.pvars and family in m.player_zones and not _seat_attr(family)):
            return tuple(z.id for z in m.player_zones[family])
        return None
    if type(node) is A.Name:
        name = str(node.name)
        if args is not None and name in args:
            return None
        if args is None and (name in scope.slots or name in scope.bound):
            return None
        if name == "me" or name in m.gvars or name in m.constants:
            return None
        zone = m.zone_by_name.get(name)
        return zone.id if type(zone) is Zone else None
    return None


def _seat_attr(name) -> bool:
    from ..runtime.library import _SEAT_ATTRS
    return name in _SEAT_ATTRS
