"""Mutation fuzzing of everything a user hands to `interpret` (issue 12): content folders, rules text,
variants, scenarios, logs and command lines. Each input is run through the command itself, in this
process, under a CPU timer: it must end within 10 s of CPU with exit 0, 1 or 2, never 3 (an internal
error), and content that validates must not then fail with a Python exception inside the rules.

`run_case(kind, seed, tmp)` builds the input of one seed deterministically (random.Random(seed)) and
runs it; tests/test_fuzz_inputs.py runs a bounded number per kind, `--fuzz-long` many more.
"""
from __future__ import annotations

import io
import json
import os
import random
import re
import shutil
import signal
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

from interpreter.play import cli

ROOT = Path(__file__).resolve().parent.parent
CONTENT = ROOT / "content"
GAMES = [CONTENT / "tic-tac-toe", CONTENT / "connect-four", ROOT / "tests" / "fixtures" / "mini"]
CPU_SECONDS = 10.0
KINDS = ("content", "rules", "variant", "scenario", "log", "command")
DISK_KINDS = ("saved", "cache", "lab", "adapter")  # issue 32: tests/fuzzing_disk.py

# What a hostile designer types: numbers at the edges, DSL that loops, YAML that breaks.
NUMBERS = ["0", "-1", "1", "2", "7", "99", "1000000", "1000000000000", "9223372036854775808", "-999999999999",
           "2000000000", "3"]
SNIPPETS = [
    "repeat 1000000000000 times pass end", "draw 1000000000000 from pile to pile", "x = [1] * 3000000000",
    "for c in range(1, 2000000000) do pass end", "let l = [1]\nrepeat 40 times l = l + l end",
    "x = length(range(1, 2000000000))", "finish game", "finish turn", "stop", "pass", "choose c from cells",
    "choose c from 1", "emit round_start()", "me.score += [1]", "winner = 7", "x = none.y", "x = me.__class__",
    "x = card.levle", "move 1 to 2", "shuffle 3", "cycle [1]", "log \"{1 / 0}\"", "x = 1 // 0", "x = -x * x",
    "if true then", "end", "not " * 50 + "true", "(" * 60 + "1" + ")" * 60, "[" * 120 + "]" * 120,
    " + ".join(["1"] * 150), "f(" * 120 + ")" * 120, "x = roll(1000000000)", "x = totals([[1, 2]] * 40)",
]
YAML_BITS = ["{", "}", "[", "]", ": ", "- ", "&a ", "*a", "!!str ", "? ", "|", ">", "#", "\t", "---", "\x00", "\x01",
             "\ufeff", "é", '"', "'", "\\", "~", "null", "yes", "1e9999", ".inf", "<<: *a"]
WORDS = ["cells", "cards", "players", "me", "round", "turn", "step", "none", "true", "false", "first", "count",
         "sum", "range", "seat", "owner", "empty", "winner", "card", "zone", "supply", "column", "row"]


class TooLong(BaseException):
    """The CPU timer went off: an input ran past CPU_SECONDS (a BaseException: nothing inside catches it)."""


@dataclass
class Outcome:
    kind: str
    seed: int
    argv: list
    code: int
    seconds: float
    err: str = ""
    problem: str = ""  # why this input is a finding ("" when it is fine)


@dataclass
class Tally:
    """Figures of a fuzz run."""

    inputs: int = 0
    by_kind: dict = field(default_factory=dict)
    by_code: dict = field(default_factory=dict)
    findings: list = field(default_factory=list)
    slowest: float = 0.0
    validated: int = 0  # content inputs that validated (and were then played)

    def add(self, o: Outcome) -> None:
        self.inputs += 1
        self.by_kind[o.kind] = self.by_kind.get(o.kind, 0) + 1
        self.by_code[o.code] = self.by_code.get(o.code, 0) + 1
        self.slowest = max(self.slowest, o.seconds)
        if o.problem:
            self.findings.append(o)

    def report(self) -> str:
        codes = ", ".join(f"exit {k}: {v}" for k, v in sorted(self.by_code.items(), key=lambda kv: str(kv[0])))
        kinds = ", ".join(f"{k} {v}" for k, v in self.by_kind.items())
        return (f"{self.inputs} inputs ({kinds}); {codes}; {self.validated} mutated contents validated and played; "
                f"slowest {self.slowest:.1f} s CPU; {len(self.findings)} findings")


def _on_timer(signum, frame):
    raise TooLong()


def interpret(kind: str, seed: int, argv: list, stdin: str = "") -> Outcome:
    """Run `interpret ARGV` here: its exit code, CPU time and stderr; a finding if it breaks a promise."""
    argv = [str(a) for a in argv]
    out, err = io.StringIO(), io.StringIO()
    saved = sys.stdout, sys.stderr, sys.stdin
    sys.stdout, sys.stderr, sys.stdin = out, err, io.StringIO(stdin)
    old = signal.signal(signal.SIGPROF, _on_timer)
    signal.setitimer(signal.ITIMER_PROF, CPU_SECONDS)
    start = time.process_time()
    code, problem = None, ""
    try:
        code = cli.main(argv)
    except SystemExit as e:
        code = e.code if isinstance(e.code, int) else 2
    except TooLong:
        code, problem = -1, f"ran past {CPU_SECONDS:.0f} s of CPU"
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)
        signal.signal(signal.SIGPROF, old)
        sys.stdout, sys.stderr, sys.stdin = saved
    spent = time.process_time() - start
    text = err.getvalue()
    if not problem and code not in (0, 1, 2):
        problem = f"exit {code}"
    if not problem and "Traceback" in text:
        problem = "a traceback"
    return Outcome(kind, seed, argv, code, spent, text[-2000:], problem)


# ---- mutations ---------------------------------------------------------------------------

def mutate_text(rnd: random.Random, text: str, bits: list, times: int = 3) -> str:
    """A few random edits of a text: a line dropped, doubled or swapped, a number or a word
    replaced, a fragment inserted, the text cut."""
    for _ in range(rnd.randint(1, times)):
        lines = text.split("\n")
        op = rnd.randrange(9)
        i = rnd.randrange(len(lines))
        if op == 0 and len(lines) > 1:
            del lines[i]
        elif op == 1:
            lines.insert(i, lines[i])
        elif op == 2:
            j = rnd.randrange(len(lines))
            lines[i], lines[j] = lines[j], lines[i]
        elif op in (3, 4):
            nums = list(re.finditer(r"\b\d+\b", text))
            if nums:
                m = rnd.choice(nums)
                text = text[:m.start()] + rnd.choice(NUMBERS) + text[m.end():]
                continue
        elif op == 5:
            words = list(re.finditer(r"\b[a-z_]{3,}\b", text))
            if words:
                m = rnd.choice(words)
                text = text[:m.start()] + rnd.choice(WORDS + [m.group()[:-1], m.group() + "s"]) + text[m.end():]
                continue
        elif op in (6, 7):
            k = rnd.randrange(len(text) + 1)
            text = text[:k] + rnd.choice(bits) + text[k:]
            continue
        else:
            text = text[: rnd.randrange(len(text) + 1)]
            continue
        text = "\n".join(lines)
    return text


def _copy_game(rnd: random.Random, tmp: Path) -> Path:
    src = rnd.choice(GAMES)
    dst = tmp / "game"
    shutil.copytree(src, dst, ignore=shutil.ignore_patterns("scenarios", "variants"))
    return dst


def _played(kind: str, seed: int, folder: Path, tally_hook, extra=()) -> list:
    """A content that validated is played and simulated: no Python exception may escape its rules."""
    outs = []
    for argv in (["play", folder, "--auto", "-q", "--seed", seed, "--max-decisions", "300", *extra],
                 ["simulate", folder, "-n", "2", "--seed", seed, "--max-decisions", "300", "--check", *extra]):
        o = interpret(kind, seed, argv)
        if not o.problem and "the rules failed on values that do not go together" in o.err:
            o.problem = "validated, then a Python exception in the rules: " + o.err.strip().splitlines()[-1][:300]
        outs.append(o)
    tally_hook()
    return outs


def case_content(seed: int, tmp: Path, hook) -> list:
    rnd = random.Random(seed)
    folder = _copy_game(rnd, tmp)
    path = folder / "game.yaml"
    path.write_text(mutate_text(rnd, path.read_text(encoding="utf-8"), YAML_BITS + SNIPPETS + NUMBERS), "utf-8")
    o = interpret("content", seed, ["validate", folder])
    return [o] + (_played("content", seed, folder, hook) if o.code == 0 else [])


def case_rules(seed: int, tmp: Path, hook) -> list:
    """A piece of rules text of a small game replaced by a mutation of itself or a runaway snippet."""
    rnd = random.Random(seed)
    folder = _copy_game(rnd, tmp)
    path = folder / "game.yaml"
    text = path.read_text(encoding="utf-8")
    blocks = list(re.finditer(r"(effect|expr|check|end|setup|score|winner): (\|\n(?:      .*\n)+|\"[^\"\n]*\"|[^\n{]+)\n",
                              text))
    if not blocks:
        return []
    m = rnd.choice(blocks)
    body = rnd.choice(SNIPPETS) if rnd.random() < 0.4 else mutate_text(rnd, m.group(2), SNIPPETS + WORDS + NUMBERS)
    body = "|\n" + "\n".join("      " + line for line in body.replace("|\n", "").strip("\n").split("\n")) + "\n"
    path.write_text(text[:m.start(2)] + body + text[m.end():], encoding="utf-8")
    o = interpret("rules", seed, ["validate", folder])
    return [o] + (_played("rules", seed, folder, hook) if o.code == 0 else [])


VARIANT_PATHS = ["constants.line_length", "cards.mark.copies", "game.players.max", "board.grid.columns",
                 "board.grid.rows", "actions.play.effect", "actions.play.params.cell", "vars.game.winner",
                 "vars.game.winner.type", "scoring.score", "functions.has_line.expr", "actions.play.limit",
                 "zones.supply", "flow", "actions.nope", "triggers", "game.limits", "cards.mark"]
VALUES = [0, -1, 3, 1000000000000, 9223372036854775808, "pass", "finish game", [1, 2], [], {}, None, True,
          "repeat 1000000000000 times pass end", "cells", "1", {"steps": 10}, {"min": 1, "max": 100000},
          "[1] * 3000000000", "me.__class__", "x = 7", {"effect": "choose c from cells"}]


NUMBERS_IN = [0, 1, 2, 3, 4, 9, 100, 10000, 1000000000000, -1]
RULES_IN = SNIPPETS + ["pass", "finish game", "finish turn", "move first(me.supply.cards) to cell\nfinish turn"]
FITTING = {"constants.line_length": NUMBERS_IN, "cards.mark.copies": NUMBERS_IN, "game.players.max": NUMBERS_IN,
           "board.grid.columns": NUMBERS_IN, "actions.play.limit": NUMBERS_IN, "actions.play.effect": RULES_IN,
           "scoring.score": ["1", "winner", "me.score", "length(cells)", "1 // 0", "[1] * 3000000000"],
           "functions.has_line.expr": ["true", "false", "has_line(p)", "line_from(p, first(cells), [0, 1])", "1"],
           "actions.play.params.cell": ["cells", "players", "1", "range(1, 2000000000)", "cards", "[]"],
           "vars.game.winner.type": ["int", "player", "card", "list", "nope"]}


def case_variant(seed: int, tmp: Path, hook) -> list:
    rnd = random.Random(seed)
    changes = []
    for _ in range(rnd.choice([1, 1, 1, 2, 3])):
        op = rnd.choice(["set", "set", "set", "set", "append", "remove", "merge", "nope"])
        change = {"op": op, "path": rnd.choice(VARIANT_PATHS)}
        if op != "remove":
            fitting = FITTING.get(change["path"])
            change["value"] = rnd.choice(fitting if fitting and rnd.random() < 0.7 else VALUES)
            if fitting and op == "nope":
                change["op"] = "set"
        changes.append(change)
    doc = {"variant": {"name": "fuzzed", "base": "tic-tac-toe"}, "changes": changes}
    path = tmp / "fuzzed.yaml"
    text = json.dumps(doc, indent=1)
    if rnd.random() < 0.25:
        text = mutate_text(rnd, text, YAML_BITS + NUMBERS, 2)
    path.write_text(text, encoding="utf-8")
    o = interpret("variant", seed, ["validate", "tic-tac-toe", "--variant", path])
    if o.code != 0:
        return [o]
    outs = [o]
    for argv in (["play", "tic-tac-toe", "--variant", path, "--auto", "-q", "--seed", seed, "--max-decisions", "300"],):
        p = interpret("variant", seed, argv)
        if not p.problem and "the rules failed on values that do not go together" in p.err:
            p.problem = "validated, then a Python exception in the rules"
        outs.append(p)
    hook()
    return outs


def case_scenario(seed: int, tmp: Path, hook) -> list:
    rnd = random.Random(seed)
    game = rnd.choice([CONTENT / "tic-tac-toe", CONTENT / "connect-four"])
    src = rnd.choice(sorted((game / "scenarios").glob("*.yaml")))
    text = src.read_text(encoding="utf-8").replace("scenario: {", f"scenario: {{game: {game.name}, ", 1)
    bits = YAML_BITS + NUMBERS + ["dice: [6]", "steps: []", "set: {p1.x: [1, 2]}", "expect: " + " + ".join(["1"] * 300),
                                  "do: play r9c9", "turn: {player: p7}", "clear: [nope]", "expect: winner == p1"]
    path = tmp / "fuzzed.yaml"
    path.write_text(mutate_text(rnd, text, bits), encoding="utf-8")
    return [interpret("scenario", seed, ["test", path])]


_GOOD_LOGS: dict = {}


def _good_log(game: str, tmp: Path) -> list:
    if game not in _GOOD_LOGS:
        path = tmp / "good.log"
        o = interpret("log", 0, ["play", game, "--auto", "-q", "--seed", 1, "--log", path, "--force"])
        assert o.code == 0, o.err
        _GOOD_LOGS[game] = path.read_text(encoding="utf-8").splitlines()
        path.unlink()
    return list(_GOOD_LOGS[game])


def case_log(seed: int, tmp: Path, hook) -> list:
    rnd = random.Random(seed)
    lines = _good_log(rnd.choice(["tic-tac-toe", "connect-four"]), tmp)
    path = tmp / "fuzzed.log"
    how = rnd.randrange(5)
    if how == 0:  # a header value of another type
        head = json.loads(lines[0])
        key = rnd.choice(list(head) + ["actions", "result"])
        head[key] = rnd.choice([5, "teams", True, None, [1], {"a": 1}, -1, 99, 0, 10 ** 30, ["a"], "", "../x"])
        lines[0] = json.dumps(head)
        data = ("\n".join(lines) + "\n").encode()
    elif how == 1:  # a line of another kind
        i = rnd.randrange(len(lines))
        lines[i] = rnd.choice(['{"action": 5}', '{"result": [1]}', "[1, 2]", "{}", '{"n": -1, "action": "x"}',
                               "[" * 5000, '{"action": "play r1c1", "player": "p9"}', "null", '"text"'])
        data = ("\n".join(lines) + "\n").encode()
    elif how == 2:  # text edits
        data = mutate_text(rnd, "\n".join(lines), ["{", "}", "[", "]", ",", ":", '"', "0", "-", "\\u0000"]).encode()
    elif how == 3:  # bytes
        raw = bytearray("\n".join(lines).encode())
        for _ in range(rnd.randint(1, 8)):
            if raw:
                raw[rnd.randrange(len(raw))] = rnd.randrange(256)
        data = bytes(raw)
    else:  # another encoding, or cut short
        data = rnd.choice([("\n".join(lines)).encode("utf-16"), ("\n".join(lines)).encode()[: rnd.randrange(200)],
                           b"\xff\xfe" + bytes(rnd.randrange(256) for _ in range(64))])
    path.write_bytes(data)
    return [interpret("log", seed, ["replay", path, "-q"])]


COMMANDS = ["play", "replay", "simulate", "validate", "show", "schema", "new", "test", "nope", ""]
OPTIONS = ["--players", "--seed", "--option", "-o", "--variant", "-V", "--seat", "--auto", "--log", "--quiet",
           "--games", "-n", "--max-decisions", "--check", "--json", "--out", "--force", "--base", "--coverage",
           "--mutate", "--debug", "--verbose", "--help", "--version"]


def case_command(seed: int, tmp: Path, hook) -> list:
    rnd = random.Random(seed)
    values = (NUMBERS[:8] + ["abc", "", "-", "x=y", "goal=3", "goal=abc", "1=human", "2=random", "9=random",
                             "tic-tac-toe", "connect-four", "mini", str(GAMES[2]), "/nonexistent", str(tmp / "out"),
                             str(tmp / "out.log"), "/dev/full", "/proc/x/y", "teams", "variant", "all", "play",
                             str(tmp), "é", "--"])
    argv = [rnd.choice(COMMANDS)]
    for _ in range(rnd.randint(0, 6)):
        argv.append(rnd.choice(OPTIONS + values + values))
    if argv[0] in ("simulate",) and "-n" not in argv and "--games" not in argv:
        argv += ["-n", "3"]
    argv = [a for a in argv if a != ""] or ["--version"]
    for i, a in enumerate(argv):  # bounded work: a command line may ask for a lot, not for hours
        if a in ("--games", "-n", "--max-decisions") and i + 1 < len(argv) and argv[i + 1].lstrip("-").isdigit():
            argv[i + 1] = str(min(int(argv[i + 1]), 20 if a != "--max-decisions" else 2000))
    if argv[0] == "test" and not any(x in argv for x in ("tic-tac-toe", "connect-four", "mini", str(GAMES[2]))):
        argv.append("tic-tac-toe")  # `test` alone runs the default game's 100 scenarios: long, not wrong
    if argv[0] in ("play", "simulate") and not any(a in argv for a in ("tic-tac-toe", "connect-four", str(GAMES[2]))):
        argv.insert(1, "tic-tac-toe")  # the default game is the largest: slow to load, not a finding
    if argv[0] == "play" and "--max-decisions" not in argv:
        argv += ["--max-decisions", "300"]
    return [interpret("command", seed, argv, stdin="1\n2\nq\n")]


CASES = {"content": case_content, "rules": case_rules, "variant": case_variant, "scenario": case_scenario,
         "log": case_log, "command": case_command}


def run_case(kind: str, seed: int, tmp: Path, tally: Tally) -> list:
    """Build and run the input `seed` of `kind` in the empty folder `tmp`; the outcomes go to `tally`."""
    def validated():
        tally.validated += 1
    outs = CASES[kind](seed, tmp, validated)
    for o in outs:
        tally.add(o)
    return outs


FUZZ_LONG = int(os.environ.get("FUZZ_LONG", "1700"))  # inputs per kind of a `--fuzz-long` run
FUZZ_SEED = int(os.environ.get("FUZZ_SEED", "200000"))  # the first seed of the long runs (the bounded runs take 0, 1, ...)


def campaign(kind: str, count: int, first: int, tmp_path: Path, monkeypatch) -> Tally:
    """The fuzz tests' runner: `count` inputs of `kind` from seed `first`, each in an empty folder
    (the working folder: `new variant NAME` writes NAME.yaml there). Prints the figures (and appends
    them to $FUZZ_REPORT, which xdist does not hide); fails with the first findings."""
    monkeypatch.chdir(tmp_path)
    tally = Tally()
    for seed in range(first, first + count):
        work = tmp_path / f"s{seed}"
        work.mkdir()
        run_case(kind, seed, work, tally)
        shutil.rmtree(work, ignore_errors=True)
    print(f"\nfuzz {kind}: {tally.report()}")
    if os.environ.get("FUZZ_REPORT"):
        with open(os.environ["FUZZ_REPORT"], "a", encoding="utf-8") as f:
            f.write(f"fuzz {kind} (seeds {first}-{first + count - 1}): {tally.report()}\n")
    shown = "\n".join(f"  seed {o.seed}: {o.problem}: interpret {' '.join(map(str, o.argv))[:300]}\n"
                      f"    {o.err.strip()[-400:]}" for o in tally.findings[:10])
    assert not tally.findings, f"{len(tally.findings)} findings of {tally.inputs} {kind} inputs:\n{shown}"
    return tally


# The kinds of issue 32, beside these: what comes back from disk (tests/fuzzing_disk.py) and the
# surfaces of items 4-7 (tests/fuzzing_surfaces.py, which adds its own to CASES)
from tests import fuzzing_disk, fuzzing_surfaces  # noqa: E402,F401
CASES.update(fuzzing_disk.CASES)
