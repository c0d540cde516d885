"""What decided a finished game, and the facets the content declares for each seat.

`decided_by` is generic: it compares what the engine's ranking compares (the score, then each
tie-break the content declares under `scoring.tiebreak`, in order); seats that nothing separates
share the win.
"""
from __future__ import annotations

SCORE = "score"
SHARED = "a shared win"
WINNER_RULE = "winner rule"
NO_WINNER = "no winner"


def tiebreak_label(game, j: int) -> str:
    """The name of tie-break j (1-based) in results: its number and its rules text."""
    texts = game.catalog.ruleset.scoring.get("tiebreak") or []
    text = " ".join(str(texts[j - 1]).split()) if j - 1 < len(texts) else "?"
    return f"tiebreak {j}: {text}"


def decided_by(game, st, winners: list[int]) -> str:
    """"score", "tiebreak J: TEXT", "a shared win" (the full ranking key was equal), or, for content
    whose winners are declared by `scoring.winner`, "winner rule" / "no winner"."""
    if game.catalog.has_winner_rule:
        return WINNER_RULE if winners else NO_WINNER
    keys = game.ranking_keys(st)
    if len(keys) < 2:
        return SCORE
    order = sorted(range(len(keys)), key=lambda i: (keys[i], -i), reverse=True)
    first, second = keys[order[0]], keys[order[1]]
    for j, (a, b) in enumerate(zip(first, second)):
        if a != b:
            return SCORE if j == 0 else tiebreak_label(game, j)
    return SHARED


def is_tiebreak(decision: str) -> bool:
    return decision.startswith("tiebreak ") or decision == SHARED


def plain(value):
    """A facet's value as JSON: a card, zone or seat by its name or key; lists element by element."""
    from ..core.model import Card, Seat, Zone
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
    return {name: [plain(v) for v in values] for name, values in game.facet_values(st).items()}


class LeadTracker:
    """Who leads at the end of each round (the best score; ties share the lead), watched during play.

    `observe` is given to play_out; `result(winners)` then says how often the lead changed hands and
    from which round on the winner led alone to the end ("how early the winner is known")."""

    def __init__(self, game):
        self.game = game
        self.round = None
        self.leaders: list[list[int]] = []  # per finished round: the seats with the best score

    def _leaders(self, st) -> list[int]:
        scores = self.game.scores(st)
        numbers = [v for v in scores if isinstance(v, (int, float))]
        if not numbers:
            return []
        best = max(numbers)
        return [i for i, v in enumerate(scores) if v == best]

    def observe(self, st) -> None:
        r = st["flow"]["round"]
        if self.round is not None and self.round >= 1 and r != self.round:  # round 0: the setup
            # the decision that ended round `self.round` also started the next one: these are its final scores
            self.leaders.append(self._leaders(st))
        self.round = r

    def result(self, st, winners: list[int]) -> dict:
        leaders = self.leaders + [self._leaders(st)]  # and the final scores
        changes, last = 0, None
        for lead in leaders:
            if len(lead) == 1:  # a tie is no change of hands
                if last is not None and lead[0] != last:
                    changes += 1
                last = lead[0]
        # the winner leads "alone" when every leader is a winner (a shared win: the winners together);
        # none when even the final scores do not put the winners alone ahead (a tie-break game)
        known = None
        for k in range(len(leaders) - 1, -1, -1):
            if winners and leaders[k] and set(leaders[k]) <= set(winners):
                known = k + 1
            else:
                break
        return {"changes": changes, "winner_leads_from": known, "checkpoints": len(leaders)}
