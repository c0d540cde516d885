"""`interpret tune`: a search over the values a game's `tuning:` section lets change, on optuna.

    study = TuneStudy.prepare(Spec("tests/fixtures/head-start"), out="runs/hs", budget=12, games=100)
    result = study.run()

Ask and tell: each candidate optuna asks for is evaluated by tune_eval (a generated variant, its games
played by the lab's runner), and told its objectives' misses (0 inside a band; `changes` counts the
values changed). Several objectives: NSGA-II; one: TPE. The first candidate is the rulebook's values
(the "before"). The sampler of trial n is seeded with SEED + n, and candidates are evaluated one at
a time (their games in parallel), so a study depends on nothing but its configuration: `--jobs` and
`--backend ray` reach the same trials, and a stopped study resumes from optuna's journal in DIR
(a trial left running is evaluated again from its games already played, then told).

A candidate whose every objective is inside its band is re-evaluated at once on fresh seeds; once one
is confirmed there with the fewest changes possible, the search stops: more games or candidates will
not change the answer. At the end, the best trade-offs (the Pareto front) are re-evaluated on fresh
seeds, the rulebook's values too, and tune_output writes them as variant files and a report.
"""
from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from pathlib import Path

from .games import AnalysisError, Spec, _fingerprint
from .tune_eval import Evaluation, Evaluator

STUDY = "study.json"
JOURNAL = "study.journal"
BASELINE = "rulebook"


def _optuna():
    try:
        import optuna
    except ImportError:
        raise AnalysisError('interpret tune needs optuna: pip install "interpret[tune]"') from None
    optuna.logging.set_verbosity(optuna.logging.WARNING)
    return optuna


def distributions(tuning) -> dict:
    """Each tunable as optuna's distribution: its choices, or its range by its step."""
    _optuna()
    from optuna.distributions import CategoricalDistribution, FloatDistribution, IntDistribution
    out = {}
    for t in tuning.tunables:
        if t.choices:
            out[t.name] = CategoricalDistribution(list(t.choices))
        elif t.integer:
            out[t.name] = IntDistribution(int(t.low), int(t.high), step=int(t.step))
        else:
            out[t.name] = FloatDistribution(float(t.low), float(t.high), step=t.step)
    return out


def label_of(number: int) -> str:
    return BASELINE if number == 0 else f"trial-{number:04d}"


@dataclass
class TuneResult:
    out: Path
    before: Evaluation  # the rulebook's values, on fresh seeds
    finalists: list  # Evaluation on fresh seeds, best first
    trials: list  # (number, params, values) of every complete trial
    stopped: str  # why the search ended
    evaluations: dict = field(default_factory=dict)  # label -> Evaluation on the search's seeds


class TuneStudy:
    def __init__(self, *, out: Path, spec: Spec, tuning, config: dict, evaluator: Evaluator, budget: int,
                 finalists: int, seed: int):
        self.out, self.spec, self.tuning, self.config = out, spec, tuning, config
        self.evaluator, self.budget, self.finalists, self.seed = evaluator, budget, finalists, seed
        self.searched = list(tuning.objectives)  # the objectives optuna sees, in order
        self.evaluations: dict[str, Evaluation] = {}
        self.confirmed: dict[str, Evaluation] = {}
        self.notify = None  # callable(text): a line after each trial (the command prints it)
        self.scenario_base = None  # the scenarios' results with the rulebook's values (tune_output's guard rails)

    @classmethod
    def prepare(cls, spec: Spec, *, out, budget: int, games: int, max_games: int | None = None, finalists: int = 3,
                jobs: int = 1, backend: str = "local", address=None, progress=None) -> "TuneStudy":
        """Read the tuning section (with the variants given), check the folder (new, or the same study)."""
        from ..engine.game import Game
        from ..ruleset.loader import load_ruleset
        from ..ruleset.tuning import tuning_of
        out = Path(out)
        game_path = Path(spec.game)
        if game_path.exists():  # a folder: the same path for every worker (Ray's run elsewhere)
            spec = Spec(str(game_path.resolve()), spec.players, spec.options, spec.variants, spec.agents, spec.seed,
                        spec.max_decisions)
        variants = tuple(str(Path(v).resolve()) if Path(v).exists() else v for v in spec.variants)
        spec = Spec(spec.game, spec.players, spec.options, variants, spec.agents, spec.seed, spec.max_decisions)
        rs = load_ruleset(spec.game, variants=variants)
        tuning = tuning_of(rs)
        game = Game.from_ruleset(rs, players=spec.players, options=dict(spec.options) or None)
        agents = list(spec.agents) or ["random"] * game.num_players
        config = {"format": 1, "game": rs.meta.get("name") or rs.name, "title": game.title,
                  "players": game.num_players, "options": game.catalog.options, "variants": list(spec.variants),
                  "agents": agents, "seed": spec.seed, "games": games, "max_games": max_games or games,
                  "max_decisions": spec.max_decisions, "content": _fingerprint(game, spec.variants),
                  "tuning": _tuning_key(tuning)}
        if out.exists() and not out.is_dir():
            raise AnalysisError(f"{out}: not a folder (--out names the study's folder)")
        out.mkdir(parents=True, exist_ok=True)
        path = out / STUDY
        if path.exists():
            try:
                old = json.loads(path.read_text(encoding="utf-8"))
            except ValueError as e:
                raise AnalysisError(f"{path}: not a study of `interpret tune` ({e})") from None
            if old != json.loads(json.dumps(config, default=str)):
                diff = [k for k in sorted(set(old) | set(config)) if old.get(k) != json.loads(json.dumps(
                    config.get(k), default=str))] if isinstance(old, dict) else ["everything"]
                raise AnalysisError(f"{out} holds a study of another configuration ({', '.join(diff)} differ): "
                                    "give another --out, or remove that folder")
        else:
            path.write_text(json.dumps(config, indent=2, default=str) + "\n", encoding="utf-8")
        evaluator = Evaluator(out=out, spec=spec, tuning=tuning, game_name=config["game"],
                              requires=tuple(rs.variants), games=games, max_games=max_games or games, jobs=jobs,
                              backend=backend, address=address)
        study = cls(out=out, spec=spec, tuning=tuning, config=config, evaluator=evaluator, budget=budget,
                    finalists=finalists, seed=spec.seed)
        if progress is not None:  # each batch's bar, labelled with the candidate and the best so far
            evaluator.progress = lambda label: progress(f"{label}{study.best_text()}")
        return study

    def best_text(self) -> str:
        """` · best trial-0005 (inside)`, the best candidate so far (empty before any)."""
        done = [ev for ev in self.evaluations.values()]
        if not done:
            return ""
        ev = min(done, key=lambda e: (self.miss(e), len(e.changes), e.label))
        return f" · best {ev.label} ({'inside' if ev.inside else f'miss {self.miss(ev):.3g}'})"  # short: a bar's label

    def miss(self, ev: Evaluation) -> float:
        """How far the candidate's figures fall outside the bands, all objectives but `changes` summed."""
        return sum(ev.values([o for o in self.searched if o.measure != "changes"]))

    # ---- optuna ---------------------------------------------------------------------------------

    def _storage(self):
        optuna = _optuna()
        from optuna.storages.journal import JournalFileBackend
        return optuna.storages.JournalStorage(JournalFileBackend(str(self.out / JOURNAL)))

    def _study(self, storage, number: int):
        """The study, with the sampler of trial `number` (seeded SEED + number: the same proposals
        whether the study ran in one go or was resumed)."""
        optuna = _optuna()
        if len(self.searched) > 1:
            sampler = optuna.samplers.NSGAIISampler(population_size=max(4, min(20, self.budget // 4)),
                                                    seed=self.seed + number)
        else:
            sampler = optuna.samplers.TPESampler(seed=self.seed + number, n_startup_trials=max(2, self.budget // 4))
        return optuna.create_study(storage=storage, study_name="tune", sampler=sampler, load_if_exists=True,
                                   directions=["minimize"] * len(self.searched))

    def run(self) -> TuneResult:
        _optuna()
        from optuna.trial import TrialState
        storage = self._storage()
        dists = distributions(self.tuning)
        study = self._study(storage, 0)
        if not study.trials:
            study.enqueue_trial({t.name: t.value for t in self.tuning.tunables})
        stopped = f"the budget of {self.budget} candidates is spent"
        for t in study.get_trials(deepcopy=False, states=(TrialState.RUNNING,)):  # left running by a stopped run
            self._tell(study, t.number, t.params)
        while True:
            done = [t for t in study.get_trials(deepcopy=False) if t.state == TrialState.COMPLETE]
            ideal = self._ideal(done)
            if ideal:
                stopped = ideal
                break
            if len(done) >= self.budget:
                break
            study = self._study(storage, len(study.trials))
            trial = study.ask(dists)
            self._tell(study, trial.number, trial.params)
        return self._finish(study, stopped)

    def _tell(self, study, number: int, params: dict) -> None:
        label = label_of(number)
        same = next((e for e in self.evaluations.values() if e.params == params), None)  # asked again: same games
        ev = same or self.evaluator.evaluate(label, params)
        self.evaluations[label] = ev
        study.tell(number, ev.values(self.searched))
        if ev.inside:
            self._confirm(ev)
        if self.notify:
            self.notify(self._line(number, ev))

    def _confirm(self, ev: Evaluation) -> Evaluation:
        if ev.label not in self.confirmed:
            self.confirmed[ev.label] = self.evaluator.evaluate(ev.label, ev.params, fresh=True, at_least=ev.games)
        return self.confirmed[ev.label]

    def _ideal(self, done) -> str:
        """Why the search may stop now: a candidate inside every band on the search's seeds and on fresh
        ones, with the fewest changes possible (none if the rulebook's values are inside, else one)."""
        base = self.confirmed.get(BASELINE)
        if base is not None and base.inside:
            return "the rulebook's values are inside every band (on fresh seeds too): nothing to change"
        if BASELINE not in self.evaluations and not done:
            return ""
        least = 1 if any(o.measure == "changes" for o in self.tuning.objectives) else len(self.tuning.tunables)
        for label, ev in sorted(self.confirmed.items()):
            if ev.inside and len(ev.changes) <= least:
                return (f"{label} is inside every band on fresh seeds too, with {len(ev.changes)} change"
                        f"{'s' if len(ev.changes) != 1 else ''}: more games will not change the answer")
        return ""

    def _line(self, number: int, ev: Evaluation) -> str:
        values = ", ".join(f"{k}={v}" for k, v in ev.params.items())
        bands = {o.name for o in self.tuning.objectives if o.measure != "changes"}
        verdicts = "; ".join(f"{m.objective} {m.verdict}" for m in ev.measures if m.objective in bands)
        confirmed = self.confirmed.get(ev.label)
        extra = "" if confirmed is None else (" — confirmed on fresh seeds" if confirmed.inside
                                              else " — not confirmed on fresh seeds")
        return f"{label_of(number)}: {values} ({ev.games} games): {verdicts}{extra}"

    # ---- the end ----------------------------------------------------------------------------------

    def _finish(self, study, stopped: str) -> TuneResult:
        from optuna.trial import TrialState
        complete = [t for t in study.get_trials(deepcopy=False) if t.state == TrialState.COMPLETE]
        for t in complete:  # every evaluation, read back from its folder when the study was resumed
            if label_of(t.number) not in self.evaluations:  # (a candidate asked for again: its first games)
                same = next((e for e in self.evaluations.values() if e.params == t.params), None)
                self.evaluations[label_of(t.number)] = same or self.evaluator.evaluate(label_of(t.number), t.params)
        for ev in list(self.evaluations.values()):  # confirmed already, or read back when the study was resumed
            if ev.inside:
                self._confirm(ev)
        front = pareto([(label_of(t.number), tuple(t.values)) for t in complete])
        # a candidate confirmed inside every band on fresh seeds is a finalist even when one with fewer
        # changes, not confirmed there, dominates it on the search's figures
        front += sorted(label for label, ev in self.confirmed.items()
                        if ev.inside and label != BASELINE and label not in front)
        rulebook = self.miss(self.evaluations[BASELINE])
        ranked = sorted((self.evaluations[label] for label in front  # a proposal comes closer to the bands
                         if self.evaluations[label].changes and self.miss(self.evaluations[label]) < rulebook),
                        key=lambda ev: (not self.confirmed.get(ev.label, ev).inside, self.miss(ev),
                                        len(ev.changes), ev.label))
        seen, unique = set(), []
        for ev in ranked:  # a candidate asked for twice is one finalist
            key = json.dumps(ev.params, sort_keys=True, default=str)
            if key not in seen:
                seen.add(key)
                unique.append(ev)
        finalists = [self._confirm(ev) for ev in unique[:self.finalists]]
        base = self.evaluations[BASELINE]  # the "before", on fresh seeds, over as many games as the finalists'
        before = self.confirmed.get(BASELINE)
        if before is None or before.games < max((ev.games for ev in finalists), default=0):
            before = self.confirmed[BASELINE] = self.evaluator.evaluate(
                BASELINE, base.params, fresh=True, at_least=max([base.games] + [ev.games for ev in finalists]))
        finalists.sort(key=lambda ev: (not ev.inside, self.miss(ev), len(ev.changes), ev.label))
        trials = [(t.number, dict(t.params), list(t.values)) for t in complete]
        return TuneResult(self.out, before, finalists, trials, stopped, dict(self.evaluations))


def pareto(points: list[tuple[str, tuple]]) -> list[str]:
    """The labels of the points no other point dominates (every value at most, one smaller), in order."""
    out = []
    for label, v in points:
        if not any(all(a <= b for a, b in zip(w, v)) and any(a < b for a, b in zip(w, v)) for _, w in points):
            out.append(label)
    return out


def _tuning_key(tuning) -> str:
    text = json.dumps([[t.__dict__ for t in tuning.tunables], [o.__dict__ for o in tuning.objectives]],
                      sort_keys=True, default=str)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


__all__ = ["TuneStudy", "TuneResult", "pareto", "distributions", "label_of", "BASELINE"]
