"""The report's plots, drawn with matplotlib as SVG text (no pyplot: no global state, no window).

Each function returns an <svg> element to put inline in a page. The SVG is deterministic
(a fixed hash salt, no date), so the same summary gives the same page.
"""
from __future__ import annotations

import io
import re
import threading

COLOURS = {"bar": "#4c72b0", "even": "#c44e52", "hist": "#55a868", "alt": "#8172b2"}
_STYLE = {"svg.hashsalt": "interpret-analysis", "svg.fonttype": "none", "font.size": 10,
          "axes.spines.top": False, "axes.spines.right": False}


def _import() -> None:
    import matplotlib.backends.backend_svg  # noqa: F401
    import matplotlib.figure  # noqa: F401


def import_meanwhile() -> threading.Thread:
    """Import matplotlib (half a second) in a thread of this process while workers play the games, rather
    than after them. Start it after forking: a process forked during an import would inherit its lock."""
    thread = threading.Thread(target=_import, name="import matplotlib", daemon=True)
    thread.start()
    return thread


def _figure(width=6.4, height=3.4):
    from matplotlib.figure import Figure
    return Figure(figsize=(width, height), layout="constrained")


def _svg(fig, ident: str) -> str:
    import matplotlib
    buf = io.StringIO()
    with matplotlib.rc_context(_STYLE):
        fig.savefig(buf, format="svg", metadata={"Date": None, "Creator": "interpret analyze"})
    text = buf.getvalue()
    text = text[text.index("<svg"):]  # drop the XML declaration and doctype: the svg goes inline
    text = re.sub(r"\s*<metadata>.*?</metadata>", "", text, count=1, flags=re.S)  # RDF boilerplate
    text = re.sub(r"^<svg ", f'<svg id="{ident}" role="img" ', text, count=1)
    return text


def rate_bars(rows: list[dict], *, ident: str, title: str, label_key: str, even: float | None = None) -> str:
    """Rates as bars with their 95 % interval as error bars (and the even rate as a line)."""
    import matplotlib
    with matplotlib.rc_context(_STYLE):
        fig = _figure(6.4, max(2.6, 0.9 + 0.35 * len(rows)) if len(rows) > 8 else 3.4)
        ax = fig.add_subplot()
        labels = [str(r[label_key]) for r in rows]
        rates = [100 * (r["rate"] or 0) for r in rows]
        low = [max(0.0, v - 100 * r["low"]) for v, r in zip(rates, rows)]
        high = [max(0.0, 100 * r["high"] - v) for v, r in zip(rates, rows)]
        if len(rows) > 8:  # many values (a facet): horizontal bars read better
            ys = list(range(len(rows)))[::-1]
            ax.barh(ys, rates, xerr=[low, high], color=COLOURS["bar"], capsize=3, ecolor="#333")
            ax.set_yticks(ys, labels)
            ax.set_xlabel("win rate (%), with 95 % Wilson interval")
            if even is not None:
                ax.axvline(100 * even, color=COLOURS["even"], linestyle="--", label="even")
        else:
            xs = range(len(rows))
            ax.bar(xs, rates, yerr=[low, high], color=COLOURS["bar"], capsize=5, ecolor="#333")
            ax.set_xticks(list(xs), labels)
            ax.set_ylabel("win rate (%), 95 % interval")
            if even is not None:
                ax.axhline(100 * even, color=COLOURS["even"], linestyle="--", label="even")
        if even is not None:
            ax.legend(loc="best", frameon=False)
        ax.set_title(title)
    return _svg(fig, ident)


def histogram(values: list, *, ident: str, title: str, xlabel: str, integer: bool = True) -> str:
    """A histogram of numbers (one bar per value when they are few integers)."""
    import matplotlib
    xs = [v for v in values if isinstance(v, (int, float)) and not isinstance(v, bool)]
    with matplotlib.rc_context(_STYLE):
        fig = _figure()
        ax = fig.add_subplot()
        if xs:
            lo, hi = min(xs), max(xs)
            if integer and hi - lo <= 60:
                bins = [b - 0.5 for b in range(int(lo), int(hi) + 2)]
            else:
                bins = min(40, max(5, len(set(xs))))
            ax.hist(xs, bins=bins, color=COLOURS["hist"], edgecolor="white")
        ax.set_xlabel(xlabel)
        ax.set_ylabel("games")
        ax.set_title(title)
    return _svg(fig, ident)


def score_histograms(by_seat: dict, *, ident: str, title: str) -> str:
    """Scores of every seat, one outline per seat, on shared integer bins."""
    import matplotlib
    with matplotlib.rc_context(_STYLE):
        fig = _figure()
        ax = fig.add_subplot()
        every = [v for vs in by_seat.values() for v in vs]
        if every:
            lo, hi = min(every), max(every)
            bins = [b - 0.5 for b in range(int(lo), int(hi) + 2)] if hi - lo <= 60 else 40
            for seat, vs in by_seat.items():
                ax.hist(vs, bins=bins, histtype="step", linewidth=1.5, label=seat)
            ax.legend(frameon=False)
        ax.set_xlabel("final score")
        ax.set_ylabel("games")
        ax.set_title(title)
    return _svg(fig, ident)


def comparison(rows: list[dict], *, ident: str, title: str, seats: list[str]) -> str:
    """A sweep: win rate of each seat (grouped bars with intervals) for each value swept."""
    import matplotlib
    with matplotlib.rc_context(_STYLE):
        fig = _figure(7.2, 3.6)
        ax = fig.add_subplot()
        k = len(rows)
        width = 0.8 / max(k, 1)
        for j, row in enumerate(rows):
            rates = [100 * (s["rate"] or 0) for s in row["seats"]]
            low = [max(0.0, v - 100 * s["low"]) for v, s in zip(rates, row["seats"])]
            high = [max(0.0, 100 * s["high"] - v) for v, s in zip(rates, row["seats"])]
            xs = [i + (j - (k - 1) / 2) * width for i in range(len(seats))]
            ax.bar(xs, rates, width, yerr=[low, high], capsize=3, ecolor="#333", label=str(row["value"]))
        ax.set_xticks(list(range(len(seats))), seats)
        ax.set_ylabel("win rate (%), 95 % interval")
        ax.legend(frameon=False, title=title)
        ax.set_title(f"win rate by seat for each {title}")
    return _svg(fig, ident)




def distributions(series: dict, *, ident: str, title: str, xlabel: str) -> str:
    """Several distributions of integers on shared bins, one outline each (a sweep's lengths)."""
    import matplotlib
    with matplotlib.rc_context(_STYLE):
        fig = _figure()
        ax = fig.add_subplot()
        every = [v for vs in series.values() for v in vs]
        if every:
            lo, hi = min(every), max(every)
            bins = [b - 0.5 for b in range(int(lo), int(hi) + 2)] if hi - lo <= 60 else 30
            for name, vs in series.items():
                ax.hist(vs, bins=bins, histtype="step", linewidth=1.5, label=str(name))
            ax.legend(frameon=False)
        ax.set_xlabel(xlabel)
        ax.set_ylabel("games")
        ax.set_title(title)
    return _svg(fig, ident)


__all__ = ["rate_bars", "histogram", "score_histograms", "comparison", "distributions"]
