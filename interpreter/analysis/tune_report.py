"""DIR/report.html of a tuning study, in the lab's style (report.py): one self-contained page.

The Pareto front of the candidates (each objective's miss against the number of changes), each
objective's figures with their intervals for the rulebook's values and each proposal (on fresh
seeds), the scenarios a proposal breaks, the rules coverage of the games played, and every candidate.
"""
from __future__ import annotations

import json
from pathlib import Path

from .plots import COLOURS, _STYLE, _figure, _svg
from .report import _e, _figure as figure_html, _head, _table
from .tune_output import figure, objective_lines
from .tune_study import label_of

EXTRA_CSS = ".inside { color: #2a7d3a; font-weight: 600; } .outside { color: #b03a2e; font-weight: 600; }\n" \
            ".broken { border-left-color: #c44e52; background: #fbf3f3; }\n"


def front_plot(study, result, *, ident: str) -> str:
    """Each candidate as a point: its total miss of the bands against the values it changes; the
    Pareto front joined, the proposals labelled."""
    import matplotlib
    searched = [o for o in study.tuning.objectives if o.measure != "changes"]
    names = [o.name for o in study.tuning.objectives]
    finals = {ev.label for ev in result.finalists}
    with matplotlib.rc_context(_STYLE):
        fig = _figure(6.4, 3.6)
        ax = fig.add_subplot()
        pts = []
        for number, params, values in result.trials:
            by = dict(zip(names, values))
            miss = sum(by[o.name] for o in searched)
            ev = result.evaluations.get(label_of(number))
            pts.append((len(ev.changes) if ev else 0, miss, label_of(number)))
        ax.scatter([p[0] for p in pts], [p[1] for p in pts], color=COLOURS["bar"], alpha=0.6, label="candidates")
        best = {}
        for x, y, label in pts:
            if x not in best or y < best[x][0]:
                best[x] = (y, label)
        front, low = [], None
        for x in sorted(best):
            if low is None or best[x][0] < low:
                front.append((x, best[x][0]))
                low = best[x][0]
        ax.plot([p[0] for p in front], [p[1] for p in front], color=COLOURS["even"], marker="o", label="Pareto front")
        for x, y, label in pts:
            if label in finals or label == "rulebook":
                ax.annotate(label, (x, y), textcoords="offset points", xytext=(6, 4), fontsize=8)
        ax.set_xlabel("values changed from the rulebook's")
        ax.set_ylabel("miss: distance outside the bands")
        ax.set_xticks(sorted({p[0] for p in pts}))
        ax.legend(loc="best", frameon=False)
        ax.set_title("candidates: closeness to the bands against changes")
    return _svg(fig, ident)


def band_plot(objective, evaluations: list, *, ident: str) -> str:
    """An objective's rows for the rulebook and each proposal, with intervals, the band shaded."""
    import matplotlib
    rate = objective.measure in ("win_rate", "tiebreak_share", "skill_gap")
    scale = 100 if rate else 1
    with matplotlib.rc_context(_STYLE):
        fig = _figure(6.4, 3.4)
        ax = fig.add_subplot()
        labels = [r.label for r in next(m for m in evaluations[0].measures if m.objective == objective.name).rows]
        width = 0.8 / max(1, len(evaluations))
        colours = ["#999999", COLOURS["bar"], COLOURS["hist"], COLOURS["alt"], "#dd8452"]
        for j, ev in enumerate(evaluations):
            m = next(m for m in ev.measures if m.objective == objective.name)
            rows = {r.label: r for r in m.rows}
            xs, ys, lo, hi = [], [], [], []
            for i, label in enumerate(labels):
                r = rows.get(label)
                if r is None or r.value is None:
                    continue
                xs.append(i - 0.4 + width * (j + 0.5))
                ys.append(scale * r.value)
                lo.append(max(0.0, scale * (r.value - r.low)))
                hi.append(max(0.0, scale * (r.high - r.value)))
            ax.bar(xs, ys, width=width, yerr=[lo, hi], capsize=3, ecolor="#333",
                   color=colours[j % len(colours)], label=ev.label)
        low = objective.low if objective.low is not None else ax.get_ylim()[0] / scale
        high = objective.high if objective.high is not None else ax.get_ylim()[1] / scale
        ax.axhspan(scale * low, scale * high, color=COLOURS["hist"], alpha=0.15, label="band")
        ax.set_xticks(list(range(len(labels))), labels)
        ax.set_ylabel(("%" if rate else objective.measure) + ", 95 % interval")
        ax.legend(loc="best", frameon=False, fontsize=8)
        ax.set_title(f"{objective.name}: {objective.describe()}")
    return _svg(fig, ident)


def render(study, result, proposals: list) -> str:
    c = study.config
    title = f"{c['title']}: tuning, {len(result.trials)} candidates"
    parts = _head(title)
    parts[-1] = parts[-1].replace("</style>", EXTRA_CSS + "</style>")
    parts.append(f"<h1>{_e(title)}</h1>")
    parts.append(f'<p class="muted">{_e(c["players"])} players; agents {_e(", ".join(c["agents"]))}; variants '
                 f'{_e(", ".join(Path(v).stem for v in c["variants"]) or "none")}; seed {c["seed"]}; '
                 f'{c["games"]} to {c["max_games"]} games a candidate. Written by <code>interpret tune</code>; '
                 f'docs/analysis.md (Tuning) explains it.</p>')
    parts.append(f'<p class="verdict">{_e(result.stopped[:1].upper() + result.stopped[1:])}.</p>')
    parts.append("<h2>What the search aimed at</h2>")
    parts.append(_table(["objective", "what"], [[o.name, o.describe()] for o in study.tuning.objectives]))
    parts.append(_table(["tunable", "path", "rulebook's value", "tried"],
                        [[t.name, t.path, json.dumps(t.value),
                          ", ".join(map(str, t.choices)) if t.choices else f"{t.low} to {t.high}"
                          + (f" by {t.step}" if t.step else "")] for t in study.tuning.tunables]))
    parts.append("<h2>Pareto front</h2>")
    parts.append(figure_html(front_plot(study, result, ident="plot-tune-front"),
                             "Each candidate: how far its figures fall outside the bands (0: inside every band, on "
                             "the search's seeds) against how many values it changes; the line joins the best "
                             "trade-offs."))
    shown = [result.before] + [p.evaluation for p in proposals]
    parts.append("<h2>Before and after, on fresh seeds</h2>")
    for i, o in enumerate(study.tuning.objectives):
        if o.measure == "changes":
            continue
        head = [o.name] + [ev.label for ev in shown]
        labels = [r.label for r in next(m for m in shown[0].measures if m.objective == o.name).rows]
        rows = []
        for label in labels:
            cells = [label]
            for ev in shown:
                r = next((r for r in next(m for m in ev.measures if m.objective == o.name).rows if r.label == label),
                         None)
                cells.append(figure(r, o.measure) if r else "–")
            rows.append(cells)
        rows.append(["verdict"] + [next(m for m in ev.measures if m.objective == o.name).verdict for ev in shown])
        rows.append(["games"] + [ev.games for ev in shown])
        parts.append(f"<h3>{_e(o.name)}: {_e(o.describe())}</h3>")
        parts.append(_table(head, rows))
        parts.append(figure_html(band_plot(o, shown, ident=f"plot-tune-{i}"),
                                 "Bars: the rulebook's values and each proposal, on fresh seeds; whiskers: the 95 % "
                                 "interval; shaded: the band."))
    parts.append("<h2>Proposals</h2>")
    if not proposals:
        parts.append("<p>No candidate that changes a value did better than the rulebook's values.</p>")
    for p in proposals:
        ev = p.evaluation
        changes = ", ".join(f"{n}: {json.dumps(b)} → {json.dumps(a)}" for n, (b, a) in ev.changes.items())
        parts.append(f"<h3>{_e(p.name)} <span class=\"{'inside' if ev.inside else 'outside'}\">"
                     f"{'inside every band' if ev.inside else 'a trade-off'}</span></h3>")
        parts.append(f"<p><code>{_e(p.path)}</code>: {_e(changes)} ({ev.games} games on fresh seeds).</p>")
        parts.append("<ul>" + "".join(f"<li>{_e(x)}</li>" for x in objective_lines(study.tuning, ev)) + "</ul>")
        if p.problems:
            parts.append(f'<p class="verdict broken">Does not load: {_e("; ".join(p.problems))}</p>')
        if p.broken:
            parts.append('<p class="verdict broken">Breaks ' + str(len(p.broken)) + " scenario"
                         + ("s" if len(p.broken) > 1 else "") + " (a rulebook example that no longer holds):</p>")
            parts.append(_table(["scenario", "first failure"], [list(b) for b in p.broken]))
        else:
            parts.append('<p class="verdict">Every scenario of the game that passes with the rulebook\'s values '
                         "passes with it.</p>")
        if p.coverage:
            parts.append(f"<p>Rules coverage of the games played (the first {min(ev.games, 20)} games of its fresh "
                         "batch, played again with every rule instrumented):</p>")
            parts.append(_table(["rules", "reached", "of", "share"],
                                [[k, n, t, f"{100 * n / t:.0f} %" if t else "–"] for k, (n, t) in p.coverage.items()],
                                numeric=(1, 2, 3)))
            if p.unreached:
                parts.append("<details><summary>never reached (" + str(len(p.unreached)) + ")</summary>"
                             + _table(["where", "kind", "rule", "what"], [list(u) for u in p.unreached[:200]])
                             + "</details>")
    parts.append("<h2>Every candidate</h2>")
    names = [o.name for o in study.tuning.objectives]
    parts.append(_table(["candidate"] + [t.name for t in study.tuning.tunables] + [f"miss: {n}" for n in names]
                        + ["games", "on fresh seeds"],
                        [[label_of(n)] + [json.dumps(params.get(t.name)) for t in study.tuning.tunables]
                         + [f"{v:.3g}" for v in values] + [_games(result, n), _fresh(study, n)]
                         for n, params, values in result.trials],
                        numeric=tuple(range(1, 1 + len(study.tuning.tunables) + len(names) + 1))))
    parts.append("</body></html>")
    return "\n".join(parts) + "\n"


def _games(result, number: int):
    ev = result.evaluations.get(label_of(number))
    return ev.games if ev else "–"


def _fresh(study, number: int) -> str:
    ev = study.confirmed.get(label_of(number))
    return "–" if ev is None else ("inside" if ev.inside else "not inside")


def write_report(study, result, proposals: list) -> Path:
    path = study.out / "report.html"
    path.write_text(render(study, result, proposals), encoding="utf-8")
    return path


__all__ = ["write_report", "render", "front_plot", "band_plot"]
