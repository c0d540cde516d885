"""An evaluation learnt from the lab's own games: what the search believes at a rollout's cut-off.

`interpret learn-eval GAME` (analysis/learn.py) plays games, reads at many positions what each seat
sees of itself (its observation: never a hidden card), and fits a linear model of the seat's final
score on it; the model is kept beside the content, in `evaluation.json` (schemas/evaluation.schema.json).
`ismcts:1s,eval=learnt` then judges a rollout's cut-off by each seat's *predicted* final score, not
by its score so far (`LearntEvaluator`, an Evaluator whose raw values are the predictions, turned into
chances of winning with the temperature fitted on the same games).

A feature is named in the content's words: a zone's name, a tag, a variable. Its kinds:

    player variable V           the seat's own variable V (a number, or yes/no as 1/0)
    player variable V is X      1 when the seat's variable V (a word) is X
    game variable V             the game's variable V (a number), the same for every seat
    game variable V is them     1 when the game's variable V names the seat
    cards in Z                  how many cards are in the seat's own zone Z (counts are public)
    T cards in Z                ... of them, identified and tagged T
    their cards in Z            the seat's own cards (identified) in the shared zone Z ("board": every cell)
    their T cards in Z          ... tagged T
    their cards with V          the sum of card variable V over the seat's own identified cards
    cards whose V is them       the identified cards whose variable V names the seat
    round                       the round
    place in turn order         0 for the first seat of the round's order, 1 for the next...

Every feature of a seat is computed from what that seat sees (agents/features.py: its observation,
or the same values read through the visibility rules), so two states the seat cannot tell apart give
it the same features (tests/test_learnt_eval.py).
"""
from __future__ import annotations

import json
import math
from pathlib import Path

from ..errors import InterpretError
from .evaluate import Evaluator
from .features import Key, Reader

FORMAT = 1
FILE = "evaluation.json"


class EvaluationFileError(InterpretError):
    """A stored evaluation (evaluation.json) that cannot be used: its file, and what is wrong."""


# ---- the stored model ------------------------------------------------------------------------

class Model:
    """A linear model of each seat's final score: intercept + Σ weight × feature."""

    def __init__(self, *, intercept: float, weights: dict, temperature: float, record: dict):
        self.intercept = intercept
        self.weights = weights  # Key -> weight
        self.temperature = temperature
        self.record = record  # the JSON entry, as stored

    def predict(self, features: dict) -> float:
        w = self.weights
        return self.intercept + sum(v * w[k] for k, v in features.items() if k in w)


def model_path(game) -> Path:
    """Where a game's learnt evaluation lives: beside its content."""
    return Path(game.catalog.root) / FILE


def _schema_problem(doc) -> str | None:
    from ..ruleset.schema import validator
    errors = sorted(validator("evaluation").iter_errors(doc), key=lambda e: list(map(str, e.absolute_path)))
    if not errors:
        return None
    err = errors[0]
    where = "/".join(str(p) for p in err.absolute_path)
    return f"at /{where}: {err.message}" if where else err.message


def read_file(path) -> dict:
    """The evaluation file at `path`, checked against its schema (EvaluationFileError on bad data)."""
    from ..ruleset.paths import display_path
    where = display_path(Path(path))
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as e:
        raise EvaluationFileError(f"{where}: cannot be read ({e.strerror or e})") from None
    try:
        doc = json.loads(text)
    except (ValueError, RecursionError) as e:
        raise EvaluationFileError(f"{where}: not JSON ({e})") from None
    problem = _schema_problem(doc)
    if problem:
        raise EvaluationFileError(f"{where}: {problem} (see schemas/evaluation.schema.json)")
    return doc


def identity(game) -> tuple[int, dict, list]:
    """What a model is fitted for: the game's players, options (every value, defaults included) and variants."""
    return (game.num_players, json.loads(json.dumps(game.catalog.options, default=str)),
            list(game.catalog.ruleset.variants))


def fits(entry: dict, game) -> bool:
    """Whether a stored model was fitted for this game's players, options and variants."""
    return (entry["players"], entry["options"], entry["variants"]) == identity(game)


def load_model(game, path=None) -> Model:
    """The model of `path` (default: the game's evaluation.json) for this game's players, options and
    variants, every feature checked against the game."""
    from ..ruleset.paths import display_path
    if path is None and not model_path(game).exists():
        raise EvaluationFileError(f"{display_path(model_path(game))}: {game.title} has no learnt evaluation "
                                  f"(`eval=learnt`); fit one with `interpret learn-eval {game.catalog.name} "
                                  f"--players {game.num_players}`")
    doc = read_file(path if path is not None else model_path(game))
    path = display_path(Path(path) if path is not None else model_path(game))
    if doc["game"] != game.catalog.name:
        raise EvaluationFileError(f"{path}: a model of {doc['game']!r}, not of {game.catalog.name!r}")
    entry = next((e for e in doc["models"] if fits(e, game)), None)
    if entry is None:
        have = "; ".join(f"{e['players']} players" + (f", variants {', '.join(e['variants'])}" if e.get("variants")
                                                         else "") for e in doc["models"]) or "none"
        raise EvaluationFileError(f"{path}: no model for {game.num_players} players with these options and "
                                  f"variants (it has: {have}); fit one with `interpret learn-eval "
                                  f"{game.catalog.name} --players {game.num_players}`")
    reader = Reader(game)
    weights = {}
    for i, f in enumerate(entry["features"]):
        key = Key.from_json(f)
        problem = reader.problem(key)
        if problem:
            raise EvaluationFileError(f"{path}: feature {i + 1} ({key.text()}): {problem}")
        weights[key] = float(f["weight"])
    return Model(intercept=float(entry["intercept"]), weights=weights, temperature=float(entry["temperature"]),
                 record=entry)


class LearntEvaluator(Evaluator):
    """An Evaluator whose raw value of an unfinished position is each seat's predicted final score,
    read from that seat's own observation of it."""

    def __init__(self, game, model: Model):
        super().__init__(game, model.temperature)
        self.model = model
        self.reader = Reader(game)

    def heuristic(self, st) -> list[float]:
        predict = self.model.predict
        out = []
        for features in self.reader.fast(st):
            v = predict(features)
            out.append(v if math.isfinite(v) else 0.0)
        return out


__all__ = ["Model", "LearntEvaluator", "EvaluationFileError", "load_model", "read_file", "model_path", "fits",
           "identity", "FILE", "FORMAT"]
