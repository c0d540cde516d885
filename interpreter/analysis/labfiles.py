"""What `interpret analyze --out DIR` reads back from its folder before resuming, never trusted
(docs/trust.md): run.json and each line of results.jsonl are bounded in size and nesting, then
checked against schemas/lab.schema.json and against the run itself (each line is the result of the
game of its index, with the run's seats and agents). A line that does not fit is reported with its
line number, as an AnalysisError; the folder is changed only once all of it is accepted."""
from __future__ import annotations

import functools
import json
from pathlib import Path

from ..core.jsondepth import json_too_deep
from .games import AnalysisError

MAX_RUN_BYTES = 2 ** 20  # run.json: a configuration, a few hundred bytes
MAX_RESULTS_BYTES = 2 ** 31  # results.jsonl: about a kilobyte a game
RESULT_DEPTH = 16  # a result nests 3 deep; a facet's values a few more


@functools.lru_cache(maxsize=None)
def _schema_of(kind: str):
    from jsonschema import Draft202012Validator

    from ..ruleset.schema import schema
    whole = schema("lab")
    return Draft202012Validator({**whole["$defs"][kind], "$defs": whole["$defs"]})


def _problem(value, kind: str) -> str | None:
    """The first way `value` breaks the schema's `kind`, in a sentence, or None."""
    errors = sorted(_schema_of(kind).iter_errors(value), key=lambda e: (len(e.absolute_path), list(map(str, e.absolute_path))))
    if not errors:
        return None
    err = errors[0]
    where = ".".join(map(str, err.absolute_path))
    return (f"`{where}`: " if where else "") + err.message + " (see schemas/lab.schema.json)"


def _parse(text: str, cap: int):
    """A JSON value from `text`, or the reason it is not one (a string)."""
    if json_too_deep(text, cap) is not None:
        return None, f"nested more than {cap} deep"
    try:
        return json.loads(text), None
    except ValueError as e:
        return None, f"not JSON ({e})"


def read_run(path: Path) -> dict:
    """run.json, checked: a JSON object of the schema's `run`."""
    try:
        with open(path, "rb") as f:
            raw = f.read(MAX_RUN_BYTES + 1)
        text = raw.decode("utf-8")
    except OSError as e:
        raise AnalysisError(f"{path}: {e.strerror or e}") from None
    except UnicodeDecodeError:
        raise AnalysisError(f"{path}: not a run file of `interpret analyze` (not UTF-8 text)") from None
    if len(raw) > MAX_RUN_BYTES:
        raise AnalysisError(f"{path}: not a run file of `interpret analyze` (over {MAX_RUN_BYTES // 1024} KB)")
    value, why = _parse(text, RESULT_DEPTH)
    why = why or _problem(value, "run")
    if why:
        raise AnalysisError(f"{path}: not a run file of `interpret analyze`: {why}")
    return value


def read_folder(folder: Path) -> tuple[dict, list[dict]]:
    """A lab folder's configuration and results, each checked (for the commands that read one)."""
    from .games import RESULTS, RUN
    config = read_run(Path(folder) / RUN)
    return config, complete_results(Path(folder) / RESULTS, config, keep=True)[2]


def complete_results(path: Path, config: dict, *, keep: bool = False) -> tuple[int, int, list]:
    """(how many results, how many bytes of the file hold them, the results if `keep`) in
    results.jsonl, each line checked.
    A last line without its line break that is not JSON was cut off by an interrupted run: it is
    left out of the count (the caller cuts it). Any other line that does not fit raises
    AnalysisError at its line."""
    try:
        with open(path, "rb") as f:
            data = f.read(MAX_RESULTS_BYTES + 1)
    except FileNotFoundError:
        return 0, 0, []
    except OSError as e:
        raise AnalysisError(f"{path}: {e.strerror or e}") from None
    if len(data) > MAX_RESULTS_BYTES:
        raise AnalysisError(f"{path}: over {MAX_RESULTS_BYTES // 2 ** 30} GB: not results of `interpret analyze`")
    n = pos = 0
    kept = []
    while pos < len(data):
        end = data.find(b"\n", pos)
        last = end < 0
        chunk = data[pos:] if last else data[pos:end]
        try:
            text = chunk.decode("utf-8")
        except UnicodeDecodeError:
            text = None
        value, why = _parse(text, RESULT_DEPTH) if text is not None else (None, "not UTF-8 text")
        if last and why and why.startswith(("not JSON", "not UTF-8")):
            break  # cut off by an interrupted run
        why = why or _problem(value, "result") or _misfit(value, n, config)
        if why:
            raise AnalysisError(f"{path}:{n + 1}: {why}: the file was edited? give another --out, or remove "
                                "that folder")
        n += 1
        pos = len(data) if last else end + 1
        if keep:
            kept.append(value)
    return n, pos, kept


def _misfit(r: dict, n: int, config: dict) -> str | None:
    """How a result that fits the schema does not fit the run, or None."""
    players = config.get("players")
    if r["index"] != n:
        return f"expected the result of game {n}, found game {r['index']}"
    if r["seed"] != config.get("seed", 0) + n:
        return f"game {n} was played from seed {config.get('seed', 0) + n}, not {r['seed']}"
    if r["agents"] != config.get("agents"):
        return "its `agents` are not those of run.json"
    if not len(r["seats"]) == len(r["scores"]) == players:
        return f"`seats` and `scores` must have one entry for each of the {players} seats"
    if any(seat >= players for seat in r["winners"] + r["ranking"]):
        return f"`winners` and `ranking` hold seats 0 to {players - 1}"
    return None
