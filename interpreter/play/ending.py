"""The end of a game as the end screen tells it: which tie-break separated seats with equal scores."""
from __future__ import annotations


def tiebreak_names(game) -> list[str]:
    """Each tie-break in order: the content's words (`render.tiebreaks`), else its expression."""
    rs = game.catalog.ruleset
    named = [str(x) for x in ((rs.render or {}).get("tiebreaks") or [])]
    exprs = [str(x) for x in ((rs.scoring or {}).get("tiebreak") or [])]
    return [named[i] if i < len(named) else e for i, e in enumerate(exprs)]


def ending_lines(game, st, ranking: list[int]) -> list[str]:
    """A line per pair of neighbours in the ranking with equal scores: what put one before the other."""
    try:
        keys = game.ranking_keys(st)
    except Exception:  # a tie-break that cannot be read here is not worth stopping the end screen
        return []
    names = tiebreak_names(game)
    lines = []
    for a, b in zip(ranking, ranking[1:]):
        ka, kb = keys[a], keys[b]
        if ka[0] != kb[0]:
            continue
        sa, sb = game.seats[a], game.seats[b]
        for i in range(1, len(ka)):
            if ka[i] != kb[i]:
                what = names[i - 1] if i - 1 < len(names) else f"tie-break {i}"
                lines.append(f"Tie at {ka[0]} between {sa.key} and {sb.key}: broken by tie-break {i}, {what} "
                             f"({sa.key} {_value(ka[i])}, {sb.key} {_value(kb[i])}).")
                break
        else:
            lines.append(f"Tie at {ka[0]} between {sa.key} and {sb.key}, equal on every tie-break: "
                         f"seat order decides.")
    return lines


def _value(v) -> str:
    return str(v)
