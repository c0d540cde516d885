"""Evaluating one candidate of a tuning study: its values as a generated variant, its games played by
the lab's runner (runner.Batch, on `--jobs` processes or Ray), and its objectives measured.

A candidate is an overlay: a variant file that `set`s each changed value (DIR/candidates/NAME.yaml),
applied after the variants the study was given. Its games go into a folder of their own, a batch
like any other (it resumes). The batch grows by doubling from `games` to `max_games` until every
objective's verdict is decided (tune_objectives.decided): when the intervals lie inside or outside
the bands, more games would not change the answer. In the search, a candidate with a point estimate
outside its band is not played on either (it cannot be inside; its miss is what the search needs);
a re-evaluation on fresh seeds doubles until every verdict is decided.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, replace
from pathlib import Path

from .games import Spec
from .runner import Batch
from .tune_objectives import all_inside, decided, measure

FRESH = 1_000_000  # the seeds of a re-evaluation start this far from the search's: games never seen
SKILL = 500_000  # the skill batches' seeds, apart from the main batch's


@dataclass
class Evaluation:
    label: str
    params: dict
    changes: dict  # name -> (rulebook's value, candidate's value), the values that differ
    games: int
    measures: list  # Measure per objective, in the tuning section's order
    folder: Path
    overlay: Path | None

    @property
    def inside(self) -> bool:
        return all_inside(self.measures)

    def values(self, objectives) -> list[float]:
        """What the search minimises: each objective's miss, in the study's order."""
        by = {m.objective: m for m in self.measures}
        return [by[o.name].miss for o in objectives]

    def as_dict(self) -> dict:
        return {"label": self.label, "params": self.params, "games": self.games,
                "changes": {k: list(v) for k, v in self.changes.items()},
                "inside": self.inside, "measures": [m.as_dict() for m in self.measures],
                "folder": str(self.folder), "overlay": str(self.overlay) if self.overlay else None}


def _scalar(value) -> str:
    return json.dumps(value, ensure_ascii=False)


def overlay_text(*, game: str, name: str, title: str, changes: list[tuple[str, object]], requires=(),
                 comments: dict | None = None, header: str = "") -> str:
    """A variant file setting each (path, value); `comments[path]`: lines written above its change."""
    lines = [f"# {line}" if line else "#" for line in header.splitlines()] if header else []
    lines += ["variant:", f"  name: {name}", f"  title: {_scalar(title)}", f"  base: {game}"]
    if requires:
        lines.append("  requires: [" + ", ".join(requires) + "]")
    lines.append("changes:" + ("" if changes else " []"))
    for path, value in changes:
        for c in (comments or {}).get(path, []):
            lines.append(f"  # {c}" if c else "  #")
        lines.append(f"  - {{op: set, path: {path}, value: {_scalar(value)}}}")
    return "\n".join(lines) + "\n"


class Evaluator:
    """Plays and measures candidates for one study (its folder, its base Spec, its tuning section)."""

    def __init__(self, *, out: Path, spec: Spec, tuning, game_name: str, requires=(), games: int,
                 max_games: int, jobs: int = 1, backend: str = "local", address=None, progress=None):
        self.out, self.spec, self.tuning = out, spec, tuning
        self.game_name, self.requires = game_name, tuple(requires)
        self.games, self.max_games = games, max(games, max_games)
        self.jobs, self.backend, self.address = jobs, backend, address
        self.progress = progress  # label -> a BatchProgress, or None

    def changes(self, params: dict) -> dict:
        return {t.name: (t.value, params[t.name]) for t in self.tuning.tunables
                if t.name in params and params[t.name] != t.value}

    def overlay(self, label: str, params: dict) -> Path | None:
        changed = self.changes(params)
        if not changed:
            return None
        path = (self.out / "candidates" / f"{label}.yaml").resolve()
        text = overlay_text(game=self.game_name, name=label, title=f"interpret tune: candidate {label}",
                            requires=self.requires,
                            changes=[(self.tuning.tunable(n).path, v) for n, (_, v) in changed.items()])
        path.parent.mkdir(parents=True, exist_ok=True)
        if not path.exists() or path.read_text(encoding="utf-8") != text:
            path.write_text(text, encoding="utf-8")
        return path

    def evaluate(self, label: str, params: dict, *, fresh: bool = False, at_least: int = 0) -> Evaluation:
        """Play (or read back) the candidate's games and measure every objective. `fresh`: on seeds the
        search never used (a finalist's re-evaluation), in DIR/fresh/LABEL."""
        overlay = self.overlay(label, params)
        spec = replace(self.spec, variants=tuple(self.spec.variants) + ((str(overlay),) if overlay else ()),
                       seed=self.spec.seed + (FRESH if fresh else 0))
        folder = self.out / ("fresh" if fresh else "trials") / label
        changes = self.changes(params)
        games = max(self.games, min(at_least, self.max_games))
        batch = Batch.prepare(spec, folder / "games")  # its lines read back and checked once, not at each doubling
        game = batch.game
        while True:
            records = batch.run(games, jobs=self.jobs, backend=self.backend, address=self.address,
                                progress=self._bar(label, fresh))
            skill = self._skill(spec, folder, games, game)
            measures = [measure(o, records, skill=skill.get((o.strong, o.weak)), changes=len(changes))
                        for o in self.tuning.objectives]
            bands = [m for m in measures if m.objective != "changes"]
            if games >= self.max_games or decided(bands) or (not fresh and any(m.miss > 0 for m in bands)):
                break  # in the search, a candidate with a figure outside its band is not played on: not a finalist
            games = min(2 * games, self.max_games)
        return Evaluation(label, dict(params), changes, games, measures, folder, overlay)

    def _bar(self, label: str, fresh: bool):
        return self.progress(f"{label}{' fresh' if fresh else ''}") if self.progress else None

    def _skill(self, spec: Spec, folder: Path, games: int, game) -> dict:
        """For each (strong, weak) pair of the skill_gap objectives: the strong agent in each seat in turn
        against the weak one in the others, `games` games in all, each batch in a folder of its own."""
        out = {}
        for o in self.tuning.objectives:
            if o.measure != "skill_gap" or (o.strong, o.weak) in out:
                continue
            players = game.num_players
            records = out[(o.strong, o.weak)] = []
            for seat in range(players):
                agents = tuple(o.strong if i == seat else o.weak for i in range(players))
                s = replace(spec, agents=agents, seed=spec.seed + SKILL + seat * 100_000)
                batch = Batch.prepare(s, folder / f"skill-{len(out)}-p{seat + 1}", game=game)
                for r in batch.run(max(1, -(-games // players)), jobs=self.jobs, backend=self.backend,
                                   address=self.address, progress=self._bar(f"skill, strong p{seat + 1}", False)):
                    records.append(dict(r, strong_seat=seat))
        return out


__all__ = ["Evaluator", "Evaluation", "overlay_text", "FRESH"]
