"""What a state is worth, read with the content's scoring rules: each seat's score, the ranking
(score, then each declared tie-break), the winners and the analysis facets. These are queries of
the forward model on a state; the definition (GameDefinition) only holds the compiled rules they run."""
from __future__ import annotations

from . import context as rt


def score_of(m, st, seat) -> object:
    if m.score is None:
        return 0
    ctx = rt.Ctx(st, m, seat)
    ctx.locals = [None] * m.score_scope.size
    return m.score(ctx)


def ranking_keys(m, st) -> list[tuple]:
    """Per seat, what the ranking compares: (score, tie-break 1, tie-break 2, ...)."""
    ctx = rt.Ctx(st, m)
    keys = []
    for s in m.seats:
        ctx.me = s
        ctx.locals = [None] * m.score_scope.size
        k = [m.score(ctx) if m.score else 0]
        for f in m.tiebreaks:
            v = f(ctx)
            k.append(int(v) if isinstance(v, bool) else (v or 0))
        keys.append(tuple(k))
    return keys


def ranking(m, st) -> list[int]:
    """Seat indices from first to last: score, then each tie-break in order, then seat order."""
    keys = [(k, -i) for i, k in enumerate(ranking_keys(m, st))]
    return sorted(range(len(m.seats)), key=lambda i: keys[i], reverse=True)


def winners(m, st) -> list[int]:
    """The seats that won: the content's `scoring.winner`, else every seat first on the score and on
    every tie-break: seats that nothing separates share the win (seat order never decides a winner,
    only the order a ranking lists them in)."""
    if m.winner is not None:
        ctx = rt.Ctx(st, m)
        out = []
        for s in m.seats:
            ctx.me = s
            ctx.locals = [None] * m.winner_scope.size
            if m.winner(ctx):
                out.append(s.id)
        return out
    keys = ranking_keys(m, st)
    best = max(keys)
    return [i for i, k in enumerate(keys) if k == best]


def facet_values(m, st) -> dict:
    """{facet: [its value for each seat]}, the content's `analysis.facets` read at the end of a game."""
    out = {}
    ctx = rt.Ctx(st, m)
    for name, f, scope in m.facets:
        values = []
        for s in m.seats:
            ctx.me = s
            ctx.locals = [None] * scope.size
            values.append(f(ctx))
        out[name] = values
    return out
