"""Sweeps: one batch per value of an option or per variant, and how they compare.

    interpret analyze dark-agent --games 500 --sweep level=debutant,moyen,averti --out runs/levels

Each value gets its own folder (DIR/level=moyen/, a whole batch that resumes like any other); DIR gets
sweep.json and report.html comparing them with the first value (the baseline): each seat's win-rate
difference with its two-sided p-value, and the shift of the game length and of the winner's score.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, replace
from pathlib import Path

from . import Analysis, analyze
from ..errors import ContentError
from .games import AnalysisError, Spec
from .stats import mean_difference, two_proportions

NO_VARIANT = ("none", "-")


def parse_sweep(text: str) -> tuple[str, list[str]]:
    """`option=A,B,C` or `variant=A,B` -> (key, values)."""
    key, sep, rest = text.partition("=")
    values = [v.strip() for v in rest.split(",") if v.strip()]
    if not sep or not key.strip() or len(values) < 2:
        raise AnalysisError(f"--sweep {text!r}: write NAME=A,B[,C...] (an option's name, or `variant`) "
                            "with at least two values")
    if len(set(values)) != len(values):
        raise AnalysisError(f"--sweep {text!r}: a value is given twice")
    return key.strip(), values


def batch_spec(spec: Spec, key: str, value: str) -> Spec:
    if key == "variant":
        extra = () if value in NO_VARIANT else (value,)
        return replace(spec, variants=tuple(spec.variants) + extra)
    if key in spec.options:
        raise AnalysisError(f"--sweep {key}=...: the option {key} is also given with --option")
    return replace(spec, options={**spec.options, key: value})


def _folder_name(key: str, value: str) -> str:
    safe = "".join(ch if ch.isalnum() or ch in "-_." else "_" for ch in value)
    return f"{key}={safe}"


@dataclass
class Sweep:
    out: Path
    key: str
    values: list
    batches: list  # one Analysis per value
    comparison: dict

    @property
    def text(self) -> str:
        return comparison_text(self.comparison)


def compare(key: str, values: list, batches: list[Analysis]) -> dict:
    """Each value against the first: seats' win-rate differences, length and score shifts, with p-values."""
    base = batches[0]
    rows = []
    for value, b in zip(values, batches):
        s = b.summary
        lengths = [r["decisions"] for r in b.records]
        winner_scores = [r["scores"][r["winners"][0]] for r in b.records
                         if r["winners"] and isinstance(r["scores"][r["winners"][0]], (int, float))]
        row = {"value": value, "games": s["games"], "folder": b.out.name, "seats": s["seats"],
               "even_test": s["even_test"], "tiebreak": {k: s["tiebreak"][k] for k in ("k", "n", "rate", "low", "high")},
               "length": s["length"]["decisions"], "rounds": s["length"]["rounds"],
               "winner_score": s["scores"]["winner"]}
        if b is not base:
            row["versus"] = {
                "baseline": values[0],
                "seats": [dict(two_proportions(x["k"], x["n"], y["k"], y["n"]), seat=x["seat"])
                          for x, y in zip(s["seats"], base.summary["seats"])],
                "tiebreak": two_proportions(s["tiebreak"]["k"], s["tiebreak"]["n"],
                                            base.summary["tiebreak"]["k"], base.summary["tiebreak"]["n"]),
                "length": mean_difference(lengths, [r["decisions"] for r in base.records]),
                "winner_score": mean_difference(winner_scores, [r["scores"][r["winners"][0]] for r in base.records
                                                                if r["winners"] and isinstance(
                                                                    r["scores"][r["winners"][0]], (int, float))]),
            }
        rows.append(row)
    return {"key": key, "values": values, "rows": rows}


def run_sweep(spec: Spec, key: str, values: list, *, games: int, out, jobs: int = 1, progress=None,
              backend: str = "local", address=None) -> Sweep:
    out = Path(out)
    if out.exists() and not out.is_dir():
        raise AnalysisError(f"{out}: not a folder (--out names the folder of the results)")
    specs = [batch_spec(spec, key, v) for v in values]  # every value checked before any game is played
    games_of = []
    for value, s in zip(values, specs):
        try:
            games_of.append(s.load())
        except ContentError as e:
            raise AnalysisError(f"--sweep {key}={value}: " + "; ".join(p.render() for p in e.problems)) from None
    batches = []
    for value, s, game in zip(values, specs, games_of):
        p = progress(f"{key}={value}") if progress is not None else None
        batches.append(analyze(s, games=games, out=out / _folder_name(key, value), jobs=jobs, progress=p, game=game,
                               backend=backend, address=address))
    comparison = compare(key, values, batches)
    (out / "sweep.json").write_text(json.dumps(comparison, indent=2, ensure_ascii=False, default=str) + "\n",
                                    encoding="utf-8")
    from .report import write_sweep_report
    write_sweep_report(comparison, batches, out)
    return Sweep(out, key, values, batches, comparison)


def _pct(x) -> str:
    return "-" if x is None else f"{100 * x:.1f}%"


def _p(t: dict) -> str:
    if t.get("p_value") is None:
        return "n/a"
    return f"p={t['p_value']:.3g}" + (" significant" if t["significant"] else " not significant")


def comparison_text(c: dict) -> str:
    lines = [f"sweep of {c['key']}: {', '.join(map(str, c['values']))} (compared with {c['values'][0]})", ""]
    seats = [s["seat"] for s in c["rows"][0]["seats"]]
    lines.append(f"{c['key']:<16}{'games':>6}  " + "".join(f"{s:>20}" for s in seats)
                 + f"{'tie-break':>11}{'length':>9}")
    for row in c["rows"]:
        cells = "".join(f"{_pct(s['rate']):>7} ({_pct(s['low'])}-{_pct(s['high'])})".rjust(20) for s in row["seats"])
        lines.append(f"{str(row['value']):<16}{row['games']:>6}  {cells}{_pct(row['tiebreak']['rate']):>11}"
                     f"{row['length'].get('mean', 0):>9.1f}")
    for row in c["rows"][1:]:
        v = row["versus"]
        lines += ["", f"{row['value']} against {v['baseline']}:"]
        for t in v["seats"]:
            d = "-" if t["difference"] is None else f"{100 * t['difference']:+.1f} points"
            lines.append(f"  {t['seat']} win rate {d} ({_p(t)})")
        tb = v["tiebreak"]
        lines.append(f"  tie-break share {100 * (tb['difference'] or 0):+.1f} points ({_p(tb)})")
        ln = v["length"]
        lines.append(f"  length {ln['difference'] or 0:+.1f} decisions on average ({_p(ln)})")
        ws = v["winner_score"]
        lines.append(f"  winner's score {ws['difference'] or 0:+.2f} on average ({_p(ws)})")
    return "\n".join(lines)


__all__ = ["parse_sweep", "run_sweep", "compare", "Sweep", "comparison_text"]
