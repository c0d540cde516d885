"""Fuzz kinds of issue 32: what comes back from disk, and the adapters' strings (tests/fuzzing.py runs
them beside its own). Each input is built from its seed alone and judged by the promises of
docs/trust.md, on top of fuzzing.interpret's (exit 0, 1 or 2, no traceback, under the CPU timer):

- saved: a tampered saved game given to `play --resume`: refused (exit 1) leaves the file as it was;
  accepted (exit 0) leaves a log that `replay` accepts; the searches are cut to the command line's
  limits (lowered here, so that a capped search ends within the timer).
- cache: a damaged disk cache (bytes flipped, cut, inserted, a store or the key replaced) under a
  fresh `validate`, `play` or `simulate` (a subprocess: an in-process cache is read once): what it
  says is what it says with a clean cache, at most one warning line, and a next run that is silent.
- lab: a tampered lab folder resumed by `analyze`: refused (exit 1) leaves results.jsonl as it was;
  accepted, every line of the folder reads back.
- adapter: a mutated `pyspiel.load_game` string, or PettingZoo `env()` arguments: a game, or a
  ValueError / SpielError / InterpretError, never another exception.
"""
from __future__ import annotations

import json
import os
import random
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

from tests import fuzzing
from tests.fuzzing import Outcome, interpret, mutate_text

ROOT = Path(__file__).resolve().parent.parent
BAD_SEATS = ["mcts:100000000000", "ismcts:99999s", "mcts:5@100000", "greedy:100000000000", "rm -rf /", "", "human",
             "random", "mcts:0", "ismcts:1s,eval=learnt", "mcts:1e9", "hard", "nobody", "ismcts:0.3s@all", 5, None]


def _started(game: str, tmp: Path, stop: int) -> list:
    key = (game, stop)
    if key not in _STARTED:
        path = tmp / "started.log"
        o = interpret("saved", 0, ["play", game, "--auto", "-q", "--seed", 1, "--log", path, "--force",
                                   "--max-decisions", stop])
        assert o.code == 1, o.err
        _STARTED[key] = path.read_text(encoding="utf-8").splitlines()
        path.unlink()
    return list(_STARTED[key])


_STARTED: dict = {}


def case_saved(seed: int, tmp: Path, hook) -> list:
    rnd = random.Random(seed)
    lines = _started(rnd.choice(["tic-tac-toe", "connect-four"]), tmp, rnd.choice([2, 3, 4]))
    how = rnd.randrange(6)
    end = "\n"
    if how == 0:  # the seats
        head = json.loads(lines[0])
        head["seats"] = [rnd.choice(BAD_SEATS) for _ in range(rnd.choice([2, 2, 2, 1, 3]))]
        lines[0] = json.dumps(head)
    elif how == 1:  # a line for another seat, or another action
        i = rnd.randrange(1, len(lines))
        entry = json.loads(lines[i])
        if rnd.random() < 0.5:
            entry["player"] = rnd.choice(["p1", "p2", "p3", "", None, "chance"])
        else:
            entry["action"] = rnd.choice(["play r1c1", "play r9c9", "drop c1", "drop c99", "pass", "x", "play"])
        lines[i] = json.dumps(entry)
    elif how == 2:  # a line cut off by a crash, or a text that is not a log
        lines[-1] = lines[-1][: rnd.randrange(len(lines[-1]))]
        end = ""
        if rnd.random() < 0.3:
            lines = [rnd.choice(["notes", "some text", "{", "[1, 2", "null"])]
    elif how == 3:  # lines moved
        i, j = rnd.randrange(1, len(lines)), rnd.randrange(len(lines))
        lines[i], lines[j] = lines[j], lines[i]
    elif how == 4:  # a header of another type
        head = json.loads(lines[0])
        head[rnd.choice(list(head) + ["actions", "result"])] = rnd.choice(
            [5, "teams", True, None, [1], {"a": 1}, -1, 99, 0, 10 ** 30, ["a"], "", "../x"])
        lines[0] = json.dumps(head)
    else:  # text edits
        text = mutate_text(rnd, "\n".join(lines), ["{", "}", "[", "]", ",", ":", '"', "0", "-", "\\u2028", "\r"])
        lines = text.split("\n")
    path = tmp / "saved.log"
    path.write_bytes(("\n".join(lines) + end).encode("utf-8", "surrogatepass"))
    before = path.read_bytes()
    from interpreter.play import common
    saved = common.MAX_ITERATIONS, common.MAX_SECONDS, common.MAX_WORKERS
    # the command line's limits, lowered for the timer (and two workers at most, not 64 processes)
    common.MAX_ITERATIONS, common.MAX_SECONDS, common.MAX_WORKERS = 200, 0.05, 2
    try:
        o = interpret("saved", seed, ["play", "--resume", path, "-q"])
    finally:
        common.MAX_ITERATIONS, common.MAX_SECONDS, common.MAX_WORKERS = saved
    after = path.read_bytes()
    # accepted, then stopped during play (a human seat at the end of the input, a seat's error): the
    # log grew after what was there; refused: not a byte changed
    grown = after.startswith(before[:before.rfind(b"\n") + 1]) and len(after) > before.rfind(b"\n") + 1
    if not o.problem and o.code != 0 and after != before and not grown:
        o.problem = "a refused saved game was changed"
    outs = [o]
    if not o.problem and o.code != 1 and before.endswith(b"\n"):  # accepted: `replay` accepts what it was given
        original = tmp / "given.log"
        original.write_bytes(before)
        r = interpret("saved", seed, ["replay", original, "-q"])
        if not r.problem and r.code != 0:
            r.problem = "play --resume accepted a saved game that replay refuses: " + r.err.strip()[-300:]
        outs.append(r)
    if not o.problem and o.code == 0:
        r = interpret("saved", seed, ["replay", path, "-q"])
        if not r.problem and r.code != 0:
            r.problem = "a game resumed to its end that replay refuses: " + r.err.strip()[-300:]
        outs.append(r)
    return outs


# ---- the disk cache (subprocesses) -------------------------------------------------------

_CLEAN: dict = {}


def _run(argv: list, cache: Path) -> tuple:
    """`interpret ARGV` in a subprocess on `cache`: exit code, what it says (its timings left out), stderr, seconds."""
    env = dict(os.environ, INTERPRET_CACHE_DIR=str(cache), PYTHONPATH=str(ROOT))
    start = time.monotonic()
    try:
        p = subprocess.run([sys.executable, "-m", "interpreter.play.cli", *argv], capture_output=True,
                           text=True, env=env, timeout=120, cwd=ROOT)
    except subprocess.TimeoutExpired:
        return -1, "", "timed out", time.monotonic() - start
    said = p.stdout.rsplit(",", 1)[0] if argv[0] == "validate" else \
        "\n".join(line for line in p.stdout.splitlines() if "games/s" not in line)
    return p.returncode, said, p.stderr, time.monotonic() - start


def _clean_cache(game: str, argv: list) -> tuple:
    """A cache folder `validate GAME` filled, and what `argv` says with it."""
    if game not in _CLEAN:
        import tempfile
        folder = Path(tempfile.mkdtemp(prefix="fuzz-clean-cache-"))
        code, _said, err, _ = _run(["validate", game], folder)
        assert code == 0 and not err, err
        _CLEAN[game] = folder
    key = (game, *argv)
    if key not in _CLEAN:
        code, said, err, _ = _run(argv, _CLEAN[game])
        assert code == 0 and not err, err
        _CLEAN[key] = said
    return _CLEAN[game], _CLEAN[key]


def damage(rnd: random.Random, cache: Path) -> str:
    """Damage a cache folder in one of several ways; says how."""
    stores = sorted(cache.glob("*/*.store"))
    path = rnd.choice(stores)
    data = bytearray(path.read_bytes())
    how = rnd.randrange(7)
    if how == 0:
        for _ in range(rnd.randint(1, 16)):
            data[rnd.randrange(len(data))] ^= 1 << rnd.randrange(8)
    elif how == 1:
        data = data[: rnd.randrange(len(data))]
    elif how == 2:
        at = rnd.randrange(len(data))
        data[at:at] = bytes(rnd.randrange(256) for _ in range(rnd.randint(1, 64)))
    elif how == 3:
        data = bytearray(rnd.choice([b"", b"\x80\x05N.", b"interpret-cache 2\n\xff\xff", os.urandom(256)]))
    elif how == 4:  # another store's bytes under this name
        data = bytearray(rnd.choice(stores).read_bytes())
    elif how == 5:
        (cache / ".key").write_bytes(rnd.choice([b"", b"short", os.urandom(32), os.urandom(64)]))
        return ".key replaced"
    else:  # a byte flipped inside an entry's bytes (past the framing)
        for _ in range(3):
            data[rnd.randrange(len(data) // 2, len(data))] ^= 0x20
    path.write_bytes(bytes(data))
    return f"{path.name}: damage {how}"


CACHE_COMMANDS = [["validate"], ["play", "--auto", "--seed", "1", "-q"], ["simulate", "-n", "2", "--seed", "1"]]


def case_cache(seed: int, tmp: Path, hook) -> list:
    """A damaged cache under `validate`, `play` or `simulate`: what the command says is what it says
    with a clean cache, with one warning line at most, and the next run is silent (repaired)."""
    rnd = random.Random(seed)
    game = rnd.choice(["tic-tac-toe", "connect-four"])
    command = rnd.choice(CACHE_COMMANDS)
    argv = [command[0], game, *command[1:]]
    clean, expected = _clean_cache(game, argv)
    cache = tmp / "cache"
    shutil.copytree(clean, cache)
    how = damage(rnd, cache)
    code, seen, err, spent = _run(argv, cache)
    problem = ""
    if code != 0 or seen != expected:
        problem = f"a damaged cache changed {argv[0]}: exit {code}, {seen[-300:]!r}"
    elif "Traceback" in err or err.count("\n") > 1:
        problem = "more than one warning line"
    else:
        code2, seen2, err2, _ = _run(argv, cache)
        if code2 != 0 or seen2 != expected or err2:
            problem = f"not repaired by the run before: {err2.strip()[-200:]}"
    return [Outcome("cache", seed, [*argv, f"(cache: {how})"], code, spent, err[-2000:], problem)]


# ---- lab folders -------------------------------------------------------------------------

_LAB: dict = {}


def _lab(tmp: Path) -> tuple:
    if "lab" not in _LAB:
        out = tmp / "lab"
        o = interpret("lab", 0, ["analyze", "tic-tac-toe", "--games", 4, "--out", out, "-q"])
        assert o.code == 0, o.err
        _LAB["lab"] = ((out / "run.json").read_text(encoding="utf-8"),
                       (out / "results.jsonl").read_text(encoding="utf-8").splitlines())
        shutil.rmtree(out)
    run, lines = _LAB["lab"]
    return run, list(lines)


LAB_VALUES = [5, "p1", True, None, [1], [7], [-1], {"a": 1}, -1, 10 ** 30, [], {}, "", [[1]], [0, 0, 0], 1.5]


def case_lab(seed: int, tmp: Path, hook) -> list:
    rnd = random.Random(seed)
    run, lines = _lab(tmp)
    how = rnd.randrange(6)
    end = "\n"
    if how == 0:  # a result's value of another type
        i = rnd.randrange(len(lines))
        entry = json.loads(lines[i])
        entry[rnd.choice(list(entry) + ["x"])] = rnd.choice(LAB_VALUES)
        lines[i] = json.dumps(entry)
    elif how == 1:  # a line replaced
        lines[rnd.randrange(len(lines))] = rnd.choice(['{"index": 1}', "[1]", "null", "{}", "[" * 100_000, "x",
                                                        "{" * 3000 + "}" * 3000, '"\\ud800"'])
    elif how == 2:  # run.json
        if rnd.random() < 0.5:
            run = rnd.choice(["[" * 100_000 + "]" * 100_000, "[]", "{}", "null", "{", "\"x\"", "1e999"])
        else:
            config = json.loads(run)
            config[rnd.choice(list(config))] = rnd.choice(LAB_VALUES)
            run = json.dumps(config)
    elif how == 3:  # cut off, or lines moved
        if rnd.random() < 0.5:
            lines[-1] = lines[-1][: rnd.randrange(len(lines[-1]))]
            end = ""
        else:
            i, j = rnd.randrange(len(lines)), rnd.randrange(len(lines))
            lines[i], lines[j] = lines[j], lines[i]
    elif how == 4:
        lines = mutate_text(rnd, "\n".join(lines), ["{", "}", "[", "]", ",", ":", '"', "0", "-"]).split("\n")
    else:
        raw = bytearray("\n".join(lines).encode())
        for _ in range(rnd.randint(1, 8)):
            raw[rnd.randrange(len(raw))] = rnd.randrange(256)
        lines = [bytes(raw).decode("utf-8", "surrogateescape")]
    out = tmp / "out"
    out.mkdir()
    (out / "run.json").write_text(run, encoding="utf-8")
    (out / "results.jsonl").write_bytes(("\n".join(lines) + end).encode("utf-8", "surrogateescape"))
    before = (out / "results.jsonl").read_bytes()
    o = interpret("lab", seed, ["analyze", "tic-tac-toe", "--games", 6, "--out", out, "-q"])
    if not o.problem and o.code != 0 and (out / "results.jsonl").read_bytes() != before:
        o.problem = "a refused lab folder was changed"
    if not o.problem and o.code == 0:
        from interpreter.analysis.labfiles import read_folder
        try:
            _config, records = read_folder(out)
            if [r["index"] for r in records] != list(range(6)):
                o.problem = "accepted, with results not of games 0 to 5"
        except Exception as e:  # noqa: BLE001 - any failure here is the finding
            o.problem = f"accepted, then does not read back: {e}"
    return [o]


# ---- adapter strings ---------------------------------------------------------------------

ADAPTER_BITS = ["(", ")", ",", "=", "+", "game=", "players=", "options=", "variants=", "seed=", "interpret", "x",
                "dark-agent", "tic-tac-toe", "connect-four", "0", "-1", "99", "1e9", "é", "\x00", "/", "..", " ",
                "level=moyen", "true"]
LONG_NAMES = ["a" * 300]  # a game's name over 255 bytes (issue 32, item 4)


def _adapter_call(rnd: random.Random):
    bits = ADAPTER_BITS + LONG_NAMES
    if rnd.random() < 0.7:
        text = "interpret(game=tic-tac-toe,players=2,seed=1)"
        for _ in range(rnd.randint(1, 4)):
            k = rnd.randrange(len(text) + 1)
            if rnd.random() < 0.3:
                text = text[:k] + text[k + rnd.randint(1, 6):]
            else:
                text = text[:k] + rnd.choice(bits) + text[k:]
        return "pyspiel", text
    kwargs = {"game": rnd.choice(["tic-tac-toe", "connect-four", "nope", "", "../content", "x\x00", "tic-tac-toe/",
                                  "/tmp", "mini", str(ROOT / "tests" / "fixtures" / "mini")] + bits[-1:]),
              "players": rnd.choice([None, 2, 0, -1, 99]),
              "options": rnd.choice([None, {}, {"a": "b"}, {"line_length": "x"}, {"line_length": "99"}]),
              "variants": rnd.choice([(), ["nope"], ["teams"], ["../x"], [""]])}  # the strings of the API
    return "pettingzoo", kwargs


def _load_adapter(what: str, arg):
    if what == "pyspiel":
        import pyspiel

        import interpreter.adapters.openspiel  # noqa: F401  (registers the game)
        game = pyspiel.load_game(arg)
        state = game.new_initial_state()
        for _ in range(3):
            if state.is_terminal():
                break
            state.apply_action(state.legal_actions()[0])
        return
    from interpreter.adapters.pettingzoo import env
    e = env(**arg)
    e.reset(seed=1)


def case_adapter(seed: int, tmp: Path, hook) -> list:
    rnd = random.Random(seed)
    what, arg = _adapter_call(rnd)
    from interpreter.errors import InterpretError
    allowed = (ValueError, InterpretError)
    try:
        import pyspiel
        allowed += (pyspiel.SpielError,)
    except ImportError:
        pass
    old = signal.signal(signal.SIGPROF, fuzzing._on_timer)
    signal.setitimer(signal.ITIMER_PROF, fuzzing.CPU_SECONDS)
    start = time.process_time()
    code, problem, err = 0, "", ""
    try:
        _load_adapter(what, arg)
    except fuzzing.TooLong:
        code, problem = -1, f"ran past {fuzzing.CPU_SECONDS:.0f} s of CPU"
    except allowed as e:
        code, err = 1, f"{type(e).__name__}: {e}"
    except Exception as e:  # noqa: BLE001 - any other exception is the finding
        code, problem, err = 3, f"{type(e).__name__}", f"{type(e).__name__}: {e}"
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)
        signal.signal(signal.SIGPROF, old)
    return [Outcome("adapter", seed, [what, repr(arg)[:300]], code, time.process_time() - start, err[-2000:], problem)]


CASES = {"saved": case_saved, "cache": case_cache, "lab": case_lab, "adapter": case_adapter}
