"""Fitting an evaluation on the lab's own games (`interpret learn-eval`, agents/learnt.py uses it).

    positions = record(game, games=200, seed=0, agents=["greedy"] * 4)
    fit = fit_model(positions, game=game, test_share=0.25)
    print(fit.report())

Each game is played by bots (play_out, as `interpret analyze` plays them); every `every`-th decision
the position is read from each seat's own observation (agents.learnt.Reader: never a card the seat
cannot see). A row is (a position, a seat): its features, and the seat's final score (or, in a game
without a score, 1 if it won). The games are split, not the positions: the first games train, the
last ones (`test_share` of them) are held back, so a position is never judged by a model that saw its
own game. The fit is ridge regression on standardised features (numpy's least squares), with the
temperature of the softmax (the chance each seat wins) fitted on the training games by likelihood.
On the held-back games the report gives R² of the final score, how often the predicted leader is a
winner, and the same for the plain evaluation (the score so far) beside it.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field

from ..agents.features import Key, Reader
from ..agents.learnt import FORMAT, identity
from .simulate import MAX_DECISIONS, play_out

RIDGE = 1.0  # the penalty on standardised weights (in rows: the fit barely moves with thousands of them)
MIN_ROWS = 2  # a feature seen non-zero in fewer training rows than this is left out
TEMPERATURES = tuple(0.25 * 1.25 ** i for i in range(30))  # the grid the softmax temperature is fitted on


@dataclass
class Game_:
    """One recorded game: its positions (per position, each seat's features and plain estimate)."""

    seed: int
    scores: list  # each seat's final score (0 where it is no number)
    winners: list
    decisions: int  # the game's length
    finals: list = field(default_factory=list)  # each seat's target (fit_model sets it: the score, or 1/0 for a win)
    positions: list = field(default_factory=list)  # (decision number, [features per seat], [plain estimate per seat])


def record(game, *, games: int, seed: int = 0, agents=None, every: int = 5, max_decisions: int = MAX_DECISIONS,
           progress=None) -> list[Game_]:
    """Play `games` games (game i from seed + i, each seat's agent seeded as in `interpret analyze`),
    reading each seat's features every `every` decisions."""
    reader = Reader(game)
    seats = range(game.num_players)
    out = []
    for i in range(games):
        positions = []
        count = [0]

        def look(st, positions=positions, count=count):
            count[0] += 1
            if count[0] % every or game.is_terminal(st):
                return
            feats = [reader.features(game.observe(st, s), s) for s in seats]
            positions.append((count[0], feats, game.estimates(st)))

        r = play_out(game, seed + i, agents=agents, max_decisions=max_decisions, observe=look)
        scores = [float(x) if isinstance(x, (int, float)) else 0.0 for x in r.scores]
        out.append(Game_(seed + i, scores, list(r.winners), r.decisions, positions=positions))
        if progress is not None:
            progress(i + 1)
    return out


def target_of(games: list[Game_], game) -> str:
    """What the rows predict: the final score when the game has one that varies, else the win."""
    return "final score" if game.catalog.has_score and any(len(set(g.scores)) > 1 for g in games) else "win"


@dataclass
class Fit:
    keys: list
    intercept: float
    weights: list
    temperature: float
    target: str
    train_games: int
    test_games: int
    train_rows: int
    test: dict  # the held-back games' figures (see evaluate_fit)

    def predict(self, feats: dict) -> float:
        return self.intercept + sum(w * feats.get(k, 0.0) for k, w in zip(self.keys, self.weights))

    def entry(self, game, *, command: str, extra: dict | None = None) -> dict:
        """The model as stored in evaluation.json."""
        features = [dict(k.as_json(), weight=round(w, 6), text=k.text())
                    for k, w in sorted(zip(self.keys, self.weights), key=lambda kw: -abs(kw[1])) if w != 0.0]
        players, options, variants = identity(game)
        return {
            "players": players,
            "options": options,
            "variants": variants,
            "target": self.target,
            "intercept": round(self.intercept, 6),
            "temperature": round(self.temperature, 6),
            "features": features,
            "fit": _finite(dict({"command": command, "train_games": self.train_games, "test_games": self.test_games,
                                 "train_rows": self.train_rows}, **self.test, **(extra or {}))),
        }

    def report(self, *, top: int = 12) -> str:
        t = self.test
        lines = [
            f"fitted on {self.train_games} games ({self.train_rows} seat positions), "
            f"{len(self.keys)} features, target: {self.target}",
            f"held back: {self.test_games} games, {t['rows']} seat positions",
            f"  R² of the {self.target}: {t['r2']:.3f} (the score so far: {t['r2_plain']:.3f}; the plain "
            "evaluation reads it from the whole state, hidden cards included)",
            f"  the predicted leader is a winner: {100 * t['leader']:.1f} % of positions "
            f"(the leader on the score so far: {100 * t['leader_plain']:.1f} %; by chance: {100 * t['chance']:.1f} %)",
        ]
        for third, (a, b) in zip(("first", "second", "last"), t["leader_by_third"]):
            if not math.isnan(a):
                lines.append(f"    in the {third} third of the game: {100 * a:.1f} % (score so far: {100 * b:.1f} %)")
        lines.append(f"  mean log-likelihood of the winner (softmax, temperature {self.temperature:.3g}): "
                     f"{t['log_likelihood']:.3f} (score so far: {t['log_likelihood_plain']:.3f})")
        lines.append("largest weights (per unit of the feature):")
        for k, w in sorted(zip(self.keys, self.weights), key=lambda kw: -abs(kw[1]))[:top]:
            lines.append(f"  {w:+9.3f}  {k.text()}")
        return "\n".join(lines)


def _finite(v):
    """`v` with every float that is not a number (a third of the game without a position) as None:
    the stored file is plain JSON."""
    if isinstance(v, float):
        return round(v, 6) if math.isfinite(v) else None
    if isinstance(v, dict):
        return {k: _finite(x) for k, x in v.items()}
    if isinstance(v, list):
        return [_finite(x) for x in v]
    return v


def _rows(games: list[Game_]):
    for g in games:
        for _, feats, plain in g.positions:
            yield g, feats, plain


def _matrix(np, games, keys):
    index = {k: j for j, k in enumerate(keys)}
    rows = []
    y = []
    for g, feats, _ in _rows(games):
        for s, f in enumerate(feats):
            row = [0.0] * len(keys)
            for k, v in f.items():
                j = index.get(k)
                if j is not None:
                    row[j] = v
            rows.append(row)
            y.append(g.finals[s])
    return np.array(rows, dtype=float).reshape(len(rows), len(keys)), np.array(y, dtype=float)


def fit_model(games: list[Game_], *, game, test_share: float = 0.25, ridge: float = RIDGE) -> Fit:
    """Fit on the first games, judge on the last `test_share` of them."""
    import numpy as np
    if len(games) < 2:
        raise ValueError("at least 2 games are needed: one to fit on, one to judge with")
    test_n = min(len(games) - 1, max(1, round(len(games) * test_share)))
    train, test = games[:-test_n], games[-test_n:]
    target = target_of(games, game)
    for g in games:
        g.finals = list(g.scores) if target == "final score" else \
            [1.0 if s in g.winners else 0.0 for s in range(len(g.scores))]
    seen: dict = {}
    for _, feats, _ in _rows(train):
        for f in feats:
            for k, v in f.items():
                if v:
                    seen[k] = seen.get(k, 0) + 1
    keys = sorted((Key(*k) for k, n in seen.items() if n >= MIN_ROWS),
                  key=lambda k: tuple("" if p is None else str(p) for p in k))
    X, y = _matrix(np, train, keys)
    if len(y) == 0:
        raise ValueError("no position was recorded: the games are too short for --every")
    mean, sd = X.mean(axis=0), X.std(axis=0)
    keep = sd > 1e-12
    keys = [k for k, ok in zip(keys, keep) if ok]
    X, mean, sd = X[:, keep], mean[keep], sd[keep]
    Z = (X - mean) / sd
    ym = y.mean()
    A = Z.T @ Z + ridge * np.eye(Z.shape[1])
    beta = np.linalg.solve(A, Z.T @ (y - ym)) if Z.shape[1] else np.zeros(0)
    weights = beta / sd
    intercept = float(ym - weights @ mean)
    fit = Fit(keys, intercept, [float(w) for w in weights], 1.0, target, len(train), len(test), len(y), {})
    fit.temperature = _temperature(np, fit, train)
    fit.test = evaluate_fit(np, fit, test)
    return fit


def _predictions(fit: Fit, games):
    """(game, decision number, predicted per seat, plain per seat) of every position."""
    for g in games:
        for count, feats, plain in g.positions:
            yield g, count, [fit.predict(f) for f in feats], plain


def _log_likelihood(values, winners, t: float) -> float:
    top = max(values)
    e = [math.exp((v - top) / t) for v in values]
    total = sum(e)
    return math.log(max(1e-12, sum(e[w] for w in winners) / total))


def _temperature(np, fit: Fit, games) -> float:
    """The temperature whose softmax of the predictions gives the winners the most likelihood."""
    preds = [(p, g.winners) for g, _, p, _ in _predictions(fit, games) if g.winners]
    if not preds:
        return 1.0
    return max(TEMPERATURES, key=lambda t: sum(_log_likelihood(p, w, t) for p, w in preds))


def _leader_hit(values, winners) -> float:
    """The share of the seats tied at the top of `values` that are winners."""
    top = max(values)
    leaders = [s for s, v in enumerate(values) if v == top]
    return sum(1 for s in leaders if s in winners) / len(leaders)


def evaluate_fit(np, fit: Fit, games) -> dict:
    """How well `fit` predicts the held-back `games`: R², the leader, the winner's likelihood."""
    ys, ps, qs = [], [], []
    hits, plain_hits, chance, ll, ll_plain = [], [], [], [], []
    thirds = [([], []) for _ in range(3)]
    t_plain = 1.0  # the plain evaluation's (agents/evaluate.py)
    for g, count, pred, plain in _predictions(fit, games):
        for s, (p, q) in enumerate(zip(pred, plain)):
            ys.append(g.finals[s])
            ps.append(p)
            qs.append(q)
        if not g.winners:
            continue
        h, hp = _leader_hit(pred, g.winners), _leader_hit(plain, g.winners)
        hits.append(h)
        plain_hits.append(hp)
        chance.append(len(g.winners) / len(pred))
        ll.append(_log_likelihood(pred, g.winners, fit.temperature))
        ll_plain.append(_log_likelihood(plain, g.winners, t_plain))
        third = min(2, 3 * (count - 1) // max(1, g.decisions))
        thirds[third][0].append(h)
        thirds[third][1].append(hp)
    y, p, q = np.array(ys), np.array(ps), np.array(qs)
    mean = lambda xs: float(sum(xs) / len(xs)) if xs else float("nan")  # noqa: E731
    return {
        "rows": len(ys),
        "r2": _r2(np, y, p),
        "r2_plain": _r2(np, y, q),
        "leader": mean(hits),
        "leader_plain": mean(plain_hits),
        "chance": mean(chance),
        "leader_by_third": [[mean(a), mean(b)] for a, b in thirds],
        "log_likelihood": mean(ll),
        "log_likelihood_plain": mean(ll_plain),
    }


def _r2(np, y, p) -> float:
    if len(y) == 0:
        return float("nan")
    ss = float(((y - y.mean()) ** 2).sum())
    return 1.0 - float(((y - p) ** 2).sum()) / ss if ss > 0 else float("nan")


def store(path, entry: dict, *, game_name: str) -> None:
    """Write `entry` into the evaluation file at `path`, replacing a model of the same players,
    options and variants (the others are kept)."""
    import json
    from pathlib import Path
    from ..agents.learnt import read_file
    path = Path(path)
    doc = read_file(path) if path.exists() else {"format": FORMAT, "game": game_name, "models": []}
    same = lambda e: (e["players"], e["options"], e["variants"]) == (  # noqa: E731
        entry["players"], entry["options"], entry["variants"])
    doc["models"] = [e for e in doc["models"] if not same(e)] + [entry]
    doc["models"].sort(key=lambda e: (e["players"], json.dumps(e["variants"]), json.dumps(e["options"], sort_keys=True)))
    path.write_text(json.dumps(doc, indent=1, ensure_ascii=False, allow_nan=False) + "\n", encoding="utf-8")


__all__ = ["record", "fit_model", "evaluate_fit", "store", "Fit", "target_of"]
