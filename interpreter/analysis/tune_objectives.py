"""What a candidate's games say about each objective of the tuning section, with intervals.

Each objective is measured on the records of a batch (results.jsonl lines): one row per thing it
bounds (each seat, each value of a facet; the mean length; the tie-break share; the strong agent's
lead), each with its 95 % interval (Wilson's for a rate, the normal one for a mean). Against the
band, a row is *inside* when its whole interval lies in the band, *outside* when none of it does,
and *undecided* otherwise: only then can more games change the answer. The search minimises each
objective's *miss*, the distance of the worst point estimate from its band (0: inside).
"""
from __future__ import annotations

import math
from dataclasses import dataclass

from .outcome import is_tiebreak
from .stats import Z95, wilson
from .summary import facet_rates, seat_rates

INSIDE, OUTSIDE, UNDECIDED = "inside", "outside", "undecided"


@dataclass(frozen=True)
class Row:
    label: str
    value: float | None
    low: float | None
    high: float | None
    n: int
    k: int | None = None  # the wins or games counted, for a rate


@dataclass(frozen=True)
class Measure:
    objective: str
    rows: tuple
    verdict: str
    miss: float  # what the search minimises: 0 inside the band

    def as_dict(self) -> dict:
        return {"objective": self.objective, "verdict": self.verdict, "miss": self.miss,
                "rows": [r.__dict__ for r in self.rows]}


def _distance(x: float | None, lo, hi) -> float:
    if x is None:
        return 1.0
    if lo is not None and x < lo:
        return lo - x
    if hi is not None and x > hi:
        return x - hi
    return 0.0


def _row_verdict(row: Row, lo, hi) -> str:
    if row.value is None:
        return UNDECIDED
    if (lo is None or row.low >= lo) and (hi is None or row.high <= hi):
        return INSIDE
    if (hi is not None and row.low > hi) or (lo is not None and row.high < lo):
        return OUTSIDE
    return UNDECIDED


def _verdict(verdicts: list[str]) -> str:
    if verdicts and all(v == INSIDE for v in verdicts):
        return INSIDE
    if OUTSIDE in verdicts:
        return OUTSIDE
    return UNDECIDED


def _rate_row(label: str, k: int, n: int) -> Row:
    lo, hi = wilson(k, n)
    return Row(str(label), k / n if n else None, lo, hi, n, k)


def _mean_row(label: str, xs: list) -> Row:
    n = len(xs)
    if not n:
        return Row(label, None, None, None, 0)
    mean = sum(xs) / n
    sd = math.sqrt(sum((x - mean) ** 2 for x in xs) / (n - 1)) if n > 1 else 0.0
    half = Z95 * sd / math.sqrt(n)
    return Row(label, mean, mean - half, mean + half, n)


def rows_of(objective, records: list[dict], skill: list[dict] | None = None) -> list[Row]:
    """The rows an objective bounds, measured on a batch's records (and the skill batches' for skill_gap)."""
    m = objective.measure
    if m == "win_rate" and objective.facet == "seat":
        seats = records[0]["seats"] if records else []
        return [_rate_row(r["seat"], r["k"], r["n"]) for r in seat_rates(records, seats)]
    if m == "win_rate":
        facet = facet_rates(records).get(objective.facet) or {"rows": []}
        return [_rate_row(r["value"], r["k"], r["n"]) for r in sorted(facet["rows"], key=lambda r: str(r["value"]))]
    if m in ("rounds", "decisions"):
        return [_mean_row(f"mean {m}", [r[m] for r in records if isinstance(r.get(m), (int, float))])]
    if m == "tiebreak_share":
        return [_rate_row("decided by a tie-break", sum(1 for r in records if is_tiebreak(r["decided_by"])),
                          len(records))]
    if m == "skill_gap":  # the strong agent's win rate in seats taken in turn, above an even share
        skill = skill or []
        k = sum(1 for r in skill if r["strong_seat"] in r["winners"])
        n = len(skill)
        even = 1 / len(skill[0]["seats"]) if skill else 0.0
        row = _rate_row(f"{objective.strong} above even", k, n)
        shift = (lambda x: None if x is None else x - even)
        return [Row(row.label, shift(row.value), shift(row.low), shift(row.high), n, k)]
    raise ValueError(f"no measure {m}")


def measure(objective, records: list[dict], *, skill: list[dict] | None = None, changes: int = 0) -> Measure:
    """One objective on one batch: its rows, its verdict against the band, and its miss."""
    if objective.measure == "changes":
        return Measure(objective.name, (Row("values changed", changes, changes, changes, 0),), INSIDE, float(changes))
    rows = rows_of(objective, records, skill)
    lo, hi = objective.low, objective.high
    verdict = _verdict([_row_verdict(r, lo, hi) for r in rows]) if rows else UNDECIDED
    miss = max((_distance(r.value, lo, hi) for r in rows), default=1.0)
    return Measure(objective.name, tuple(rows), verdict, round(miss, 12))


def decided(measures: list[Measure]) -> bool:
    """More games will not change any verdict: every band objective is inside or outside."""
    return all(m.verdict != UNDECIDED for m in measures)


def all_inside(measures: list[Measure]) -> bool:
    return all(m.verdict == INSIDE for m in measures)


__all__ = ["Row", "Measure", "measure", "rows_of", "decided", "all_inside", "INSIDE", "OUTSIDE", "UNDECIDED"]
