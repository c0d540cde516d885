"""What decided a finished game, and the facets the content declares for each seat.

`decided_by` is generic: it compares what the engine's ranking compares (the score, then each
tie-break the content declares under `scoring.tiebreak`, in order, then the seat order).
"""
from __future__ import annotations

SCORE = "score"
SEAT_ORDER = "seat order"
WINNER_RULE = "winner rule"
NO_WINNER = "no winner"


def tiebreak_label(game, j: int) -> str:
    """The name of tie-break j (1-based) in results: its number and its rules text."""
    texts = game.m.rs.scoring.get("tiebreak") or []
    text = " ".join(str(texts[j - 1]).split()) if j - 1 < len(texts) else "?"
    return f"tiebreak {j}: {text}"


def decided_by(game, st, winners: list[int]) -> str:
    """"score", "tiebreak J: TEXT", "seat order" (the full ranking key was equal), or, for content
    whose winners are declared by `scoring.winner`, "winner rule" / "no winner"."""
    m = game.m
    if m.winner is not None:
        return WINNER_RULE if winners else NO_WINNER
    keys = m.ranking_keys(st)
    if len(keys) < 2:
        return SCORE
    order = sorted(range(len(keys)), key=lambda i: (keys[i], -i), reverse=True)
    first, second = keys[order[0]], keys[order[1]]
    for j, (a, b) in enumerate(zip(first, second)):
        if a != b:
            return SCORE if j == 0 else tiebreak_label(game, j)
    return SEAT_ORDER


def is_tiebreak(decision: str) -> bool:
    return decision.startswith("tiebreak ") or decision == SEAT_ORDER


def plain(value):
    """A facet's value as JSON: a card, zone or seat by its name or key; lists element by element."""
    from ..model import Card, Seat, Zone
    if isinstance(value, Card):
        return value.name
    if isinstance(value, (Zone, Seat)):
        return value.key
    if isinstance(value, (list, tuple, set, frozenset)):
        items = [plain(v) for v in value]
        return sorted(items, key=str) if isinstance(value, (set, frozenset)) else items
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    return str(value)


def facet_values(game, st) -> dict:
    """{facet: [value per seat]} for the facets the content declares under `analysis.facets`."""
    return {name: [plain(v) for v in values] for name, values in game.m.facet_values(st).items()}
