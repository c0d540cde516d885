"""DIR/report.html: one self-contained page (tables, and plots as inline SVG; no script, no link out)."""
from __future__ import annotations

import html
from pathlib import Path

from .plots import comparison, distributions, histogram, rate_bars, score_histograms

CSS = """
body { font-family: system-ui, sans-serif; margin: 2em auto; max-width: 62em; color: #222; line-height: 1.4; }
h1 { font-size: 1.5em; margin-bottom: .2em; } h2 { font-size: 1.15em; margin-top: 1.8em; border-bottom: 1px solid #ddd; }
table { border-collapse: collapse; margin: .6em 0; } td, th { padding: .2em .7em; border-bottom: 1px solid #eee; }
th { text-align: left; background: #f5f5f5; } td.n { text-align: right; font-variant-numeric: tabular-nums; }
.verdict { padding: .5em .8em; background: #f3f6fb; border-left: 4px solid #4c72b0; margin: .6em 0; }
.significant { border-left-color: #c44e52; background: #fbf3f3; }
figure { margin: 1em 0; } figure svg { max-width: 100%; height: auto; }
.muted { color: #777; font-size: .9em; } code { background: #f5f5f5; padding: 0 .2em; }
"""


class Markup(str):
    """Text that is already HTML (a link): not escaped again."""


def _e(x) -> str:
    return x if isinstance(x, Markup) else html.escape(str(x))


def _pct(x) -> str:
    return "–" if x is None else f"{100 * x:.1f} %"


def _num(x) -> str:
    if x is None:
        return "–"
    return f"{x:g}" if isinstance(x, int) or float(x).is_integer() else f"{x:.2f}"


def _table(head: list[str], rows: list[list], numeric=()) -> str:
    out = ["<table><thead><tr>" + "".join(f"<th>{_e(h)}</th>" for h in head) + "</tr></thead><tbody>"]
    for row in rows:
        out.append("<tr>" + "".join(f'<td class="n">{_e(v)}</td>' if i in numeric else f"<td>{_e(v)}</td>"
                                    for i, v in enumerate(row)) + "</tr>")
    out.append("</tbody></table>")
    return "\n".join(out)


def _figure(svg: str, caption: str) -> str:
    return f'<figure class="plot">{svg}<figcaption class="muted">{_e(caption)}</figcaption></figure>'


def _quantile_rows(named: dict) -> list[list]:
    rows = []
    for name, q in named.items():
        if q:
            rows.append([name] + [_num(q[k]) for k in ("p0", "p10", "p25", "p50", "p75", "p90", "p100")]
                        + [f"{q['mean']:.2f}"])
    return rows


QHEAD = ["", "min", "p10", "p25", "median", "p75", "p90", "max", "mean"]


def batch_sections(s: dict, records: list[dict], prefix: str = "") -> list[str]:
    """The tables and plots of one batch (a whole report, or one value of a sweep)."""
    parts = []
    seats = [r["seat"] for r in s["seats"]]
    n_seats = len(seats) or 1
    total_wins = sum(r["k"] for r in s["seats"])
    even = total_wins / (s["games"] * n_seats) if s["games"] else None
    t = s["even_test"]
    parts.append("<h2>Win rate by seat</h2>")
    parts.append(_table(["seat", "wins", "n", "win rate", "95 % interval", "compared with even"],
                        [[r["seat"], r["k"], r["n"], _pct(r["rate"]), f"{_pct(r['low'])} – {_pct(r['high'])}",
                          r["versus_even"]] for r in s["seats"]], numeric=(1, 2, 3)))
    cls = "verdict significant" if t["significant"] else "verdict"
    stat = (f"χ² = {t['statistic']:.2f}, {t['df']} degrees of freedom, over {t['n']} {t['over']}: "
            if t["statistic"] is not None else "")
    parts.append(f'<p class="{cls}">{_e(stat + t["verdict"])}.</p>')
    parts.append(_figure(rate_bars(s["seats"], ident=f"{prefix}plot-winrate-seat", title="win rate by seat",
                                         label_key="seat", even=even),
                         "Bars: the share of games each seat won (a shared win counts for each winner); "
                         "whiskers: the 95 % Wilson interval; dashed line: the even rate."))
    extra = []
    if s["shared_wins"]["k"]:
        extra.append(f"{s['shared_wins']['k']} games ({_pct(s['shared_wins']['rate'])}) had several winners")
    if s["no_winner"]["k"]:
        extra.append(f"{s['no_winner']['k']} games ({_pct(s['no_winner']['rate'])}) had no winner")
    if extra:
        parts.append(f"<p>{_e('; '.join(extra))}.</p>")

    tb = s["tiebreak"]
    parts.append("<h2>What decided the winner</h2>")
    parts.append(f'<p class="verdict">{tb["k"]} of {tb["n"]} games ({_pct(tb["rate"])}, 95 % interval '
                 f'{_pct(tb["low"])} – {_pct(tb["high"])}) were decided by a tie-break.</p>')
    parts.append(_table(["decided by", "games", "share", "95 % interval"],
                        [[b["decided_by"], b["k"], _pct(b["rate"]), f"{_pct(b['low'])} – {_pct(b['high'])}"]
                         for b in tb["by"]], numeric=(1, 2)))

    for facet, f in s["facets"].items():
        rows, t = f["rows"], f["test"]
        parts.append(f"<h2>Win rate by {_e(facet)}</h2>")
        parts.append(_table([facet, "wins", "seats", "win rate", "95 % interval", "compared with even"],
                            [[r["value"], r["k"], r["n"], _pct(r["rate"]), f"{_pct(r['low'])} – {_pct(r['high'])}",
                              r["versus_even"]] for r in rows], numeric=(1, 2, 3)))
        stat = f"χ² = {t['statistic']:.2f}, {t['df']} degrees of freedom: " if t["statistic"] is not None else ""
        parts.append(f'<p class="{"verdict significant" if t["significant"] else "verdict"}">'
                     f'{_e(stat + t["verdict"])}.</p>')
        parts.append(_figure(rate_bars(rows, ident=f"{prefix}plot-facet-{_slug(facet)}",
                                             title=f"win rate by {facet}", label_key="value", even=f["even"]),
                             f"The share of the seats with each {facet} that won, with its 95 % interval; "
                             f"dashed line: the overall rate."))

    lead = s.get("lead") or {}
    if lead.get("changes"):
        parts.append("<h2>Lead changes and decisiveness</h2>")
        alone, tie = lead["winner_leads_throughout"], lead["winner_not_alone_at_the_end"]
        parts.append(f'<p>The leader is the best score at the end of each round (a tie is no change of hands). '
                     f'{_pct(lead["games_with_a_change"]["rate"])} of the games saw the lead change hands. '
                     f'{_pct(tie["rate"])} of the games ended with the winner tied on score (decided by a tie-break or '
                     f'with no winner); in the others, the winner was alone in the lead from the first round to the end '
                     f'in {_pct(alone["rate"])} (95 % interval {_pct(alone["low"])} – {_pct(alone["high"])}).</p>')
        parts.append(_table(QHEAD, _quantile_rows({
            "lead changes": lead["changes"], "winner alone ahead from round": lead["winner_leads_from_round"],
            "… as a share of the game": lead["winner_leads_from_share"]}), numeric=range(1, 9)))
    parts.append("<h2>Scores</h2>")
    parts.append(_table(QHEAD, _quantile_rows(dict(s["scores"]["by_seat"], **{
        "winner": s["scores"]["winner"], "margin 1st – 2nd": s["scores"]["margin"]})), numeric=range(1, 9)))
    by_seat = {seat: [r["scores"][i] for r in records if isinstance(r["scores"][i], (int, float))]
               for i, seat in enumerate(seats)}
    parts.append(_figure(score_histograms(by_seat, ident=f"{prefix}plot-scores", title="final scores"),
                         "How many games ended with each final score, one line per seat."))

    parts.append("<h2>Game length</h2>")
    parts.append(_table(QHEAD, _quantile_rows({"decisions": s["length"]["decisions"],
                                                "rounds": s["length"]["rounds"]}), numeric=range(1, 9)))
    parts.append(_figure(histogram([r["decisions"] for r in records], ident=f"{prefix}plot-length",
                                         title="game length", xlabel="decisions in the game", integer=False),
                         "How many games took each number of decisions (one decision: one action by a bot)."))
    return parts


def _slug(text: str) -> str:
    return "".join(ch if ch.isalnum() else "-" for ch in str(text)).strip("-").lower()


def _head(title: str) -> list[str]:
    return ["<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8">',
            '<meta name="viewport" content="width=device-width, initial-scale=1">',
            f"<title>{_e(title)}</title><style>{CSS}</style></head><body>"]


def _config_line(c: dict) -> str:
    opts = ", ".join(f"{k}={v}" for k, v in c["options"].items()) or "none"
    return (f"{c['players']} players; agents {', '.join(c['agents'])}; variants {', '.join(c['variants']) or 'none'}; "
            f"options {opts}; seeds {c['seed']} and on; content {c['content']}")


def render(summary: dict, records: list[dict]) -> str:
    c = summary["config"]
    title = f"{c['title']}: {summary['games']} games"
    parts = _head(title)
    parts.append(f"<h1>{_e(title)}</h1>")
    parts.append(f'<p class="muted">{_e(_config_line(c))}. Written by <code>interpret analyze</code>; '
                 f"docs/analysis.md explains each statistic.</p>")
    parts += batch_sections(summary, records)
    if summary.get("watch"):  # each game with the command that plays it again (repro.py)
        parts.append("<h2>Games to watch again</h2>")
        parts.append(_table(["game", "seed", "command"], [[w["what"], w["seed"], Markup(f"<code>{_e(w['command'])}</code>")]
                                                          for w in summary["watch"]], numeric=(1,)))
    parts.append("</body></html>")
    return "\n".join(parts) + "\n"


def write_report(summary: dict, records: list[dict], out) -> Path:
    path = Path(out) / "report.html"
    path.write_text(render(summary, records), encoding="utf-8")
    return path


def _p(t: dict) -> str:
    if t.get("p_value") is None:
        return "–"
    return f"{t['p_value']:.3g}" + (" (significant)" if t["significant"] else " (not significant)")


def render_sweep(c: dict, batches: list) -> str:
    key, values = c["key"], c["values"]
    first = batches[0].summary["config"]
    title = f"{first['title']}: sweep of {key} ({', '.join(map(str, values))})"
    parts = _head(title)
    parts.append(f"<h1>{_e(title)}</h1>")
    parts.append(f'<p class="muted">{_e(_config_line(first))} (for {key}={values[0]}). Each value is a batch of its '
                 f"own; every comparison is against the first value, {_e(values[0])}.</p>")
    seats = [s["seat"] for s in c["rows"][0]["seats"]]
    parts.append("<h2>Win rate by seat</h2>")
    parts.append(_table([key, "games"] + [f"{s} (95 % interval)" for s in seats] + ["seats even?", "report"],
                        [[row["value"], row["games"]]
                         + [f"{_pct(s['rate'])} ({_pct(s['low'])} – {_pct(s['high'])})" for s in row["seats"]]
                         + ["yes" if not row["even_test"]["significant"] else "no (p = "
                            f"{row['even_test']['p_value']:.3g})",
                            Markup(f'<a href="{html.escape(row["folder"])}/report.html">{html.escape(row["folder"])}</a>')]
                         for row in c["rows"]], numeric=(1,)))
    parts.append(_figure(comparison(c["rows"], ident="plot-sweep-seats", title=key, seats=seats),
                         f"Each seat's win rate for each value of {key}, with its 95 % interval."))
    parts.append(f"<h2>Against {_e(values[0])}</h2>")
    rows = []
    for row in c["rows"][1:]:
        v = row["versus"]
        for t in v["seats"]:
            rows.append([row["value"], f"{t['seat']} win rate", f"{100 * (t['difference'] or 0):+.1f} points", _p(t)])
        rows.append([row["value"], "tie-break share", f"{100 * (v['tiebreak']['difference'] or 0):+.1f} points",
                     _p(v["tiebreak"])])
        rows.append([row["value"], "length (decisions, mean)", f"{v['length']['difference'] or 0:+.1f}",
                     _p(v["length"])])
        rows.append([row["value"], "winner's score (mean)", f"{v['winner_score']['difference'] or 0:+.2f}",
                     _p(v["winner_score"])])
    parts.append(_table([key, "what", "difference", "p-value"], rows, numeric=(2,)))
    parts.append('<p class="muted">Win-rate and share differences: two-proportion z-test; length and score: '
                 "difference of means (Welch). Significant: p &lt; 0.05.</p>")
    parts.append("<h2>Game length</h2>")
    parts.append(_table([key] + QHEAD[1:], [[row["value"]] + r[1:] for row in c["rows"]
                                            for r in _quantile_rows({"": row["length"]})], numeric=range(1, 9)))
    parts.append(_figure(distributions({v: [r["decisions"] for r in b.records] for v, b in zip(values, batches)},
                                             ident="plot-sweep-length", title=f"game length by {key}",
                                             xlabel="decisions in the game"),
                         f"How many games took each number of decisions, one outline per value of {key}."))
    parts.append("</body></html>")
    return "\n".join(parts) + "\n"


def write_sweep_report(comparison: dict, batches: list, out) -> Path:
    path = Path(out) / "report.html"
    path.write_text(render_sweep(comparison, batches), encoding="utf-8")
    return path


__all__ = ["render", "write_report", "batch_sections", "render_sweep", "write_sweep_report"]
