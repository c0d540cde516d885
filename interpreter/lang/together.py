"""Requirements checked together: the conditions a listing checks one after another at one level
of an action (engine/listing.py), written as one generated function (issue 29).

A listing calls each requirement's function in turn, the first false one stopping it; at a
parameter's level that is once per value of its domain (in the flagship game, an exchange of two
cards has three requirements for each pair, about 75 calls a listing). Each call costs a Python frame
and reads again what the others read (`ctx.locals`, the cards' places, the same cell of the same
card). Here the requirements' typed trees are written as the operands of one `and`, each in a view
of the action's scope on its own text (its positions, its errors, as its own function has them),
so one call checks them all, in the same order, stopping at the same one, spending the same budget;
what they read in common is read once (repeated.py shares it as in any `a and b`).

The separate functions stay: `verify` and `explain` say which requirement failed, with its reason.
"""
from __future__ import annotations

from .scope import stamped


def together(g, parts, scope):
    """f(ctx): whether every one of `parts` ((tree, text, kinds), in order: a requirement's typed
    tree, the text it was read from and the kinds of the parameters it may rely on) is true, the
    first false one ending it, written by the ExprCodegen `g` in a frame of `scope`. An error
    nobody foresaw is reported at the first part (each part's own errors at their positions)."""
    views = []
    for tree, src, kinds in parts:
        view = scope.reading(src)
        view.kinds = kinds
        g.c.types.check(tree, view)
        views.append(view)
    saved = g.saved()
    g._reset(parts[0][0], views[0])
    try:
        text = g.region(lambda: _all(g, parts, views))
        return g._build(text, "requirements checked together (a listing's)")
    finally:
        g.restore(saved)


def _all(g, parts, views) -> str:
    """`(a and b and c)` of the parts' texts: each evaluated only when those before it were true,
    so it may use what they computed (repeated.py `run_of`, over texts of several sources)."""
    (tree, src, _), view = parts[0], views[0]
    text = stamped(src, "expr", lambda: g.xc(tree, view))
    saved = dict(g.avail)
    try:
        for (tree, src, _), view in zip(parts[1:], views[1:]):
            text = f"({text} and {stamped(src, 'expr', lambda: g.xc(tree, view))})"
    finally:
        g.avail = saved
    return text


__all__ = ["together"]
