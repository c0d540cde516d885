"""From the records of a batch (results.jsonl) to what a designer reads: summary.json, games.csv, text.

Every rate carries its 95 % Wilson interval and its sample size; a seat's rate is compared with the
even rate (every seat winning as often), and the chi-square test says whether the seats differ at all.
"""
from __future__ import annotations

import csv
import json
from collections import Counter
from pathlib import Path

from .outcome import is_tiebreak
from .repro import watch_text
from .stats import ALPHA, chi_square_even, homogeneity, quantiles, rate


def _numbers(values) -> list:
    return [v for v in values if isinstance(v, (int, float)) and not isinstance(v, bool)]


def seat_rates(records: list[dict], seats: list[str]) -> list[dict]:
    """Win rate of each seat (a shared win counts for each winner), compared with the even rate."""
    n = len(records)
    wins = Counter(w for r in records for w in r["winners"])
    total = sum(wins.values())
    even = total / (n * len(seats)) if n and seats else None
    out = []
    for i, name in enumerate(seats):
        r = rate(wins.get(i, 0), n)
        r["seat"] = name
        r["versus_even"] = _versus(r, even)
        out.append(r)
    return out


def _versus(row: dict, even: float | None) -> str:
    if even is None or not row["n"]:
        return "no games"
    if row["low"] > even:
        return "above even"
    if row["high"] < even:
        return "below even"
    return "not significantly different from even"


def facet_rates(records: list[dict]) -> dict:
    """{facet: {"rows": [{value, k wins, n seats that had it, rate, interval, versus_even}], "test": ...}}:
    the per-seat facets of the records; "even" is the facet's overall win rate."""
    played: dict = {}
    won: dict = {}
    for r in records:
        winners = set(r["winners"])
        facets = dict(r.get("facets") or {})
        if len(set(r["agents"])) > 1:  # seats played by different agents: the win rate of each agent
            facets.setdefault("agent", r["agents"])
        for facet, values in facets.items():
            for seat, value in enumerate(values):
                key = json.dumps(value, default=str) if isinstance(value, (list, dict)) else value
                played.setdefault(facet, Counter())[key] += 1
                if seat in winners:
                    won.setdefault(facet, Counter())[key] += 1
    out = {}
    for facet, counts in played.items():
        rows = []
        for value, n in sorted(counts.items(), key=lambda kv: (-kv[1], str(kv[0]))):
            row = rate(won.get(facet, Counter()).get(value, 0), n)
            row["value"] = value
            rows.append(row)
        rows.sort(key=lambda row: -(row["rate"] or 0))
        total_n = sum(r["n"] for r in rows)
        even = sum(r["k"] for r in rows) / total_n if total_n else None
        for row in rows:
            row["versus_even"] = _versus(row, even)
        out[facet] = {"rows": rows, "even": even, "test": homogeneity([(r["k"], r["n"]) for r in rows])}
    return out


def lead_summary(records: list[dict]) -> dict:
    """How often the lead changes hands (at round ends), and how early the winner leads for good."""
    leads = [r["lead"] for r in records if r.get("lead")]
    known = [x for x in leads if x["winner_leads_from"] is not None and x["checkpoints"]]
    n = len(leads)
    return {
        "changes": quantiles(x["changes"] for x in leads),
        "games_with_a_change": rate(sum(1 for x in leads if x["changes"]), n),
        "winner_leads_from_round": quantiles(x["winner_leads_from"] for x in known),
        "winner_leads_from_share": quantiles((x["winner_leads_from"] - 1) / x["checkpoints"] for x in known),
        "winner_leads_throughout": rate(sum(1 for x in known if x["winner_leads_from"] == 1), len(known)),
        "winner_not_alone_at_the_end": rate(n - len(known), n),
    }


def summarize(records: list[dict], config: dict) -> dict:
    """The statistics of a batch, as plain data (summary.json)."""
    n = len(records)
    seats = records[0]["seats"] if records else [f"p{i + 1}" for i in range(config["players"])]
    single = [r for r in records if len(r["winners"]) == 1]
    counts = [sum(1 for r in single if r["winners"][0] == i) for i in range(len(seats))]
    decided = Counter(r["decided_by"] for r in records)
    tiebroken = sum(k for d, k in decided.items() if is_tiebreak(d))
    by = [dict(rate(k, n), decided_by=d, tiebreak=is_tiebreak(d)) for d, k in decided.most_common()]
    scores = {name: quantiles(_numbers(r["scores"][i] for r in records)) for i, name in enumerate(seats)}
    winning = quantiles(_numbers(r["scores"][w] for r in records for w in r["winners"][:1]))
    margins = []
    for r in records:
        sc = [r["scores"][i] for i in r["ranking"][:2]]
        if len(sc) == 2 and all(isinstance(v, (int, float)) for v in sc):
            margins.append(sc[0] - sc[1])
    return {
        "config": config,
        "games": n,
        "seats": seat_rates(records, seats),
        "even_test": dict(chi_square_even(counts), over="games with a single winner", wins=counts),
        "shared_wins": rate(sum(1 for r in records if len(r["winners"]) > 1), n),
        "no_winner": rate(sum(1 for r in records if not r["winners"]), n),
        "tiebreak": dict(rate(tiebroken, n), by=by),
        "length": {
            "decisions": quantiles(r["decisions"] for r in records),
            "rounds": quantiles(r["rounds"] for r in records if r.get("rounds") is not None),
        },
        "scores": {"by_seat": scores, "winner": winning, "margin": quantiles(margins)},
        "lead": lead_summary(records),
        "facets": facet_rates(records),
        "alpha": ALPHA,
    }


# ---- files ---------------------------------------------------------------------------------

def write_summary(summary: dict, out: Path, timing: dict | None = None) -> Path:
    path = Path(out) / "summary.json"
    data = dict(summary, run=timing or {})
    path.write_text(json.dumps(data, indent=2, ensure_ascii=False, default=str) + "\n", encoding="utf-8")
    return path


def write_csv(records: list[dict], out: Path) -> Path:
    """games.csv: one row per game, one column per seat's score and rank, and per seat facet."""
    path = Path(out) / "games.csv"
    seats = records[0]["seats"] if records else []
    facets = sorted({f for r in records for f in (r.get("facets") or {})})
    head = ["index", "seed", "decisions", "rounds", "winners", "decided_by", "lead_changes", "winner_leads_from"]
    head += [f"score_{s}" for s in seats] + [f"rank_{s}" for s in seats]
    head += [f"{f}_{s}" for f in facets for s in seats]
    with open(path, "w", newline="", encoding="utf-8") as fh:
        w = csv.writer(fh)
        w.writerow(head)
        for r in records:
            place = {seat: k + 1 for k, seat in enumerate(r["ranking"])}
            row = [r["index"], r["seed"], r["decisions"], r.get("rounds"),
                   ";".join(seats[i] for i in r["winners"]), r["decided_by"],
                   (r.get("lead") or {}).get("changes"), (r.get("lead") or {}).get("winner_leads_from")]
            row += list(r["scores"]) + [place.get(i) for i in range(len(seats))]
            for f in facets:
                values = (r.get("facets") or {}).get(f) or [None] * len(seats)
                row += [v if not isinstance(v, (list, dict)) else json.dumps(v) for v in values]
            w.writerow(row)
    return path


# ---- text -------------------------------------------------------------------------------------

def _pct(x) -> str:
    return "-" if x is None else f"{100 * x:.1f}%"


def _q(q: dict, fmt="{:g}") -> str:
    if not q:
        return "-"
    return (f"min {fmt.format(q['p0'])}, p10 {fmt.format(q['p10'])}, median {fmt.format(q['p50'])}, "
            f"p90 {fmt.format(q['p90'])}, max {fmt.format(q['p100'])} (mean {q['mean']:.2f})")


def text_report(s: dict) -> str:
    c = s["config"]
    lines = [f"{s['games']} games of {c['title']}, {c['players']} players, agents {', '.join(c['agents'])}"
             + (f", variants {', '.join(c['variants'])}" if c["variants"] else ""), ""]
    lines.append(f"{'seat':<6}{'wins':>6}{'n':>7}{'win rate':>10}{'95% interval':>18}  verdict")
    for r in s["seats"]:
        ci = f"{_pct(r['low'])}-{_pct(r['high'])}"
        lines.append(f"{r['seat']:<6}{r['k']:>6}{r['n']:>7}{_pct(r['rate']):>10}{ci:>18}  {r['versus_even']}")
    t = s["even_test"]
    if t["statistic"] is not None:
        lines.append(f"chi-square {t['statistic']:.2f} ({t['df']} df, {t['n']} {t['over']}): {t['verdict']}")
    else:
        lines.append(f"chi-square: {t['verdict']}")
    if s["shared_wins"]["k"]:
        lines.append(f"shared wins: {s['shared_wins']['k']} games ({_pct(s['shared_wins']['rate'])}); "
                     "each winner counts a win")
    if s["no_winner"]["k"]:
        lines.append(f"no winner: {s['no_winner']['k']} games ({_pct(s['no_winner']['rate'])})")
    tb = s["tiebreak"]
    lines += ["", f"decided by a tie-break: {tb['k']} of {tb['n']} games, {_pct(tb['rate'])} "
                  f"(95% {_pct(tb['low'])}-{_pct(tb['high'])})"]
    for b in tb["by"]:
        lines.append(f"  {b['k']:>6}  {_pct(b['rate']):>6} ({_pct(b['low'])}-{_pct(b['high'])})  {b['decided_by']}")
    lines += ["", f"length, decisions: {_q(s['length']['decisions'])}"]
    if s["length"]["rounds"]:
        lines.append(f"length, rounds:    {_q(s['length']['rounds'])}")
    lead = s["lead"]
    if lead["changes"]:
        lines.append(f"lead changes:      {_q(lead['changes'])}; games with one or more: "
                     f"{_pct(lead['games_with_a_change']['rate'])}")
    if lead["winner_leads_from_share"]:
        lines.append(f"winner alone in the lead to the end from round: {_q(lead['winner_leads_from_round'])}; "
                     f"from the first round in {_pct(lead['winner_leads_throughout']['rate'])} of those games "
                     f"(the other {_pct(lead['winner_not_alone_at_the_end']['rate'])} of games end in a tie on score)")
    lines.append(f"winner's score:    {_q(s['scores']['winner'])}")
    lines.append(f"margin (1st-2nd):  {_q(s['scores']['margin'])}")
    for facet, f in s["facets"].items():
        lines += ["", f"win rate by {facet}:"]
        for r in f["rows"]:
            lines.append(f"  {str(r['value']):<24}{r['k']:>6}/{r['n']:<6}{_pct(r['rate']):>8} "
                         f"({_pct(r['low'])}-{_pct(r['high'])})  {r['versus_even']}")
        t = f["test"]
        lines.append(f"  chi-square {t['statistic']:.2f} ({t['df']} df): {t['verdict']}" if t["statistic"] is not None
                     else f"  chi-square: {t['verdict']}")
    lines += watch_text(s.get("watch") or [])  # with the command that plays each again (repro.py)
    return "\n".join(lines)


__all__ = ["summarize", "write_summary", "write_csv", "text_report", "seat_rates", "facet_rates"]
