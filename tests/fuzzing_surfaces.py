"""Fuzz generators of issue 32's surfaces (items 4-7), beside tests/fuzzing.py's: values of another
shape anywhere in a game file, divisions and remainders by zero, names no file can have, output
pipes that close, the log and the seats' accounts on one file, limits a variant sets, display texts
whose rules fail, card powers a variant breaks, and OpenSpiel's game strings.

Each `case_KIND(seed, tmp, hook)` builds its input from random.Random(seed) and returns Outcomes;
beyond exit codes (tests/fuzzing.py `interpret`), each checks the promise of its surface: the exit
code a closed pipe must not change, a file that must not be written, limits that must be applied,
a player's screen that must not show a Python error, a position that must name the variant."""
from __future__ import annotations

import io
import json
import random
import re
import sys
import time

from tests.fuzzing import CASES, GAMES, ROOT, SNIPPETS, Outcome, _copy_game, interpret, mutate_text

SHAPES = [3, -1, 0, "three", [2, 3], [], {}, None, True, {"a": {"b": 1}}, [[1]], "x" * 3000, "abcdefgh" * 4000,
          {"min": "two"}, 10 ** 30, "1 / 0", ["a", "a"]]


def _walk(node, path=()):
    """Every (path, value) of a YAML document, mappings and lists alike."""
    yield path, node
    if isinstance(node, dict):
        for k, v in node.items():
            yield from _walk(v, path + (k,))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from _walk(v, path + (i,))


def case_shape(seed: int, tmp, hook) -> list:
    """A value anywhere in game.yaml replaced by a value of another shape (a number, a text, a
    list, a mapping, a long text): a content error with its position, within the CPU budget."""
    from ruamel.yaml import YAML
    rnd = random.Random(seed)
    folder = _copy_game(rnd, tmp)
    path = folder / "game.yaml"
    yaml = YAML(typ="rt")
    doc = yaml.load(path.read_text(encoding="utf-8"))
    places = [p for p, _v in _walk(doc) if p]
    for _ in range(rnd.choice([1, 1, 2])):
        where = rnd.choice(places + [("game", "players"), ("functions", "f", "params"), ("events", "e")])
        node = doc
        for k in where[:-1]:
            if isinstance(node, dict):
                node = node.setdefault(k, {})
            elif isinstance(node, list) and isinstance(k, int) and k < len(node):
                node = node[k]
            else:
                break
        else:
            if isinstance(node, dict) or (isinstance(node, list) and isinstance(where[-1], int) and where[-1] < len(node)):
                node[where[-1]] = rnd.choice(SHAPES)
    with path.open("w", encoding="utf-8") as f:
        yaml.dump(doc, f)
    return [interpret("shape", seed, ["validate", folder])]


NUMS = ["0", "0", "1", "7", "-3", "(2 - 2)", "(1 - 1) * 5", "round", "round - round", "length([])"]


def _arith(rnd: random.Random, depth: int = 0) -> str:
    if depth > 2 or rnd.random() < 0.3:
        return rnd.choice(NUMS)
    return f"({_arith(rnd, depth + 1)} {rnd.choice(['/', '//', '%', '+', '*', '-'])} {_arith(rnd, depth + 1)})"


def case_zero(seed: int, tmp, hook) -> list:
    """Divisions and remainders by a zero, written or computed, in a scenario's `expect` and in
    rules text: a scenario failure or a rule error with its position, never ZeroDivisionError."""
    rnd = random.Random(seed)
    expr = _arith(rnd)
    if rnd.random() < 0.5:
        path = tmp / "s.yaml"
        path.write_text(f"scenario: {{title: z, game: tic-tac-toe, players: 2}}\nsteps:\n  - do: play r1c1\n"
                        f"  - expect: {json.dumps(expr + ' == 1')}\n", encoding="utf-8")
        outs = [interpret("zero", seed, ["test", path])]
    else:
        from tests.hardening import BASE
        folder = tmp / "g"
        folder.mkdir()
        (folder / "game.yaml").write_text(BASE.replace("effect: finish turn", f"effect: {json.dumps('x = ' + expr + chr(10) + 'finish turn')}")
                                          .replace("x: 0,", "x: 0, y: 0,"), encoding="utf-8")
        outs = [interpret("zero", seed, ["validate", folder])]
        if outs[0].code == 0:
            outs.append(interpret("zero", seed, ["play", folder, "--auto", "-q", "--seed", seed, "--max-decisions", "300"]))
            hook()
    for o in outs:
        if not o.problem and ("ZeroDivisionError" in o.err or "do not go together" in o.err):
            o.problem = "a division by zero reached Python: " + o.err.strip()[-200:]
    return outs


def _long_name(rnd: random.Random) -> str:
    n = rnd.choice([254, 255, 256, 300, 5000])
    return rnd.choice(["a" * n, "é" * (n // 2 + 1), "dir/" + "b" * n, "x" * 100 + "/" * 3 + "y" * n])


def case_names(seed: int, tmp, hook) -> list:
    """Names no file can have (over 255 bytes in a part, or 4,096 in all) wherever a command takes
    a name: a clear error (exit 1 or 2), never an OSError."""
    rnd = random.Random(seed)
    name = _long_name(rnd)
    argv = rnd.choice([["validate", name], ["play", name, "--auto", "-q"], ["simulate", name, "-n", "1"], ["test", name],
                       ["show", name, "cards"], ["play", "tic-tac-toe", "--variant", name, "--auto", "-q"],
                       ["validate", "tic-tac-toe", "--variant", name], ["new", "variant", name, "--base", "tic-tac-toe",
                                                                         "--out", tmp / name],
                       ["play", "tic-tac-toe", "--auto", "-q", "--log", tmp / name],
                       ["play", "tic-tac-toe", "--auto", "-q", "--log-seat", "1", tmp / name],
                       ["replay", tmp / name], ["play", "--resume", tmp / name]])
    o = interpret("names", seed, argv)
    impossible = max(len(part.encode()) for part in name.split("/")) > 255  # 254 and 255 bytes are fine
    if not o.problem and o.code == 0 and impossible:
        o.problem = "a name no file can have was accepted"
    return [o]


class _Cut(io.StringIO):
    """An output whose reader leaves after `keep` characters (a pipe into `head`)."""

    def __init__(self, keep: int):
        super().__init__()
        self.keep = keep

    def write(self, text):
        if self.tell() + len(text) > self.keep:
            raise BrokenPipeError(32, "Broken pipe")
        return super().write(text)


def case_pipe(seed: int, tmp, hook) -> list:
    """A command whose output is cut after a few characters ends with the exit code it has with
    its whole output: a closed pipe never turns a failure into a success."""
    from interpreter.play import cli
    from tests.hardening import BASE
    rnd = random.Random(seed)
    broken = tmp / "broken"
    broken.mkdir()
    (broken / "game.yaml").write_text(mutate_text(rnd, BASE, SNIPPETS + ["three", "{", "- "]), encoding="utf-8")
    argv = [str(a) for a in rnd.choice([["validate", broken], ["validate", "tic-tac-toe"], ["show", "tic-tac-toe", "cards"],
                                        ["play", "tic-tac-toe", "--auto", "--seed", seed], ["test", "tic-tac-toe"],
                                        ["play", broken, "--auto", "--seed", seed], ["schema"], ["nope"]])]
    whole = interpret("pipe", seed, argv)
    keep = rnd.choice([0, 1, 10, 80, 400])
    saved = sys.stdout, sys.stderr
    sys.stdout, sys.stderr = _Cut(keep), _Cut(keep)
    start = time.process_time()
    try:
        code = cli.main(argv)
    except SystemExit as e:
        code = e.code if isinstance(e.code, int) else 2
    except BrokenPipeError:
        code = "BrokenPipeError"
    finally:
        sys.stdout, sys.stderr = saved
    cut = Outcome("pipe", seed, argv + [f"(output cut after {keep} characters)"], code if isinstance(code, int) else 3,
                  time.process_time() - start)
    if code != whole.code:
        cut.problem = f"exit {code} with the output cut, {whole.code} with the whole output"
    return [whole, cut]


def case_outputs(seed: int, tmp, hook) -> list:
    """`play --log F --log-seat S G ...` with some of the files the same (spelled differently):
    refused before anything is written (an earlier file unchanged), or every file written."""
    rnd = random.Random(seed)
    (tmp / "sub").mkdir()
    names = ["F", "G", "H"]
    spell = {n: [tmp / n, tmp / "sub" / ".." / n, tmp / "." / n] for n in names}
    files = [("--log", rnd.choice(names))] + [(f"--log-seat {rnd.randint(1, 2)}", rnd.choice(names))
                                            for _ in range(rnd.randint(1, 3))]
    before = {}
    for n in names:
        if rnd.random() < 0.4:
            (tmp / n).write_text(f"earlier {n}\n", encoding="utf-8")
            before[n] = f"earlier {n}\n"
    argv = ["play", "tic-tac-toe", "--auto", "-q", "--seed", seed, "--force"]
    for flag, n in files:
        argv += flag.split() + [rnd.choice(spell[n])]
    o = interpret("outputs", seed, argv)
    shared = len({n for _f, n in files}) < len(files)
    if not o.problem:
        if shared and (o.code != 2 or any((tmp / n).exists() and (tmp / n).read_text() != before.get(n)
                                          for n in names if n in before or (tmp / n).exists())):
            o.problem = "two outputs on one file: not refused before writing"
        elif not shared and o.code != 0:
            o.problem = f"distinct outputs refused (exit {o.code})"
    return [o]


LIMIT_NAMES = ["players", "copies", "cards", "grid_side", "cells", "yaml_depth", "rule_depth", "collection", "repeat",
               "steps", "number", "nope"]


def case_limits(seed: int, tmp, hook) -> list:
    """Limits a variant sets in `game.limits`: applied when the variant validates (the game's
    limits are those values), refused at the variant's line when above the hard limits."""
    from interpreter import limits as lim
    from interpreter.engine.game import Game
    rnd = random.Random(seed)
    values = {}
    for name in rnd.sample(LIMIT_NAMES, rnd.randint(1, 3)):
        hard = getattr(lim.HARD, name, 10)
        values[name] = rnd.choice([1, 5, 64, 100, 5000, 3_000_000, hard, hard + 1, "many", -1, 0])
    op = rnd.choice(["set", "merge"])
    change = ({"op": "set", "path": "game.limits", "value": values} if op == "set" else
              {"op": "merge", "path": "game", "value": {"limits": values}})
    variant = tmp / "v.yaml"
    variant.write_text(json.dumps({"variant": {"name": "v", "base": "tic-tac-toe"}, "changes": [change]}, indent=1))
    o = interpret("limits", seed, ["validate", "tic-tac-toe", "--variant", variant])
    outs = [o]
    if o.code == 0 and not o.problem:
        limits = Game.load("tic-tac-toe", variants=[str(variant)]).m.limits
        wrong = {k: (getattr(limits, k), v) for k, v in values.items() if hasattr(limits, k) and getattr(limits, k) != v}
        if wrong:
            o.problem = f"limits set by a variant not applied (have, asked): {wrong}"
    elif o.code == 1 and any(type(v) is int and v > getattr(lim.HARD, k, v) for k, v in values.items()):
        if "above its hard limit" in o.err and "v.yaml:" not in o.err:
            o.problem = "a limit above its hard limit is not reported at the variant"
    return outs


TEXT_PIECES = ["deep(1)", "big(1)", "none.x", "1 / 0", "me.score", "round", "nope", "[1] * 3000000", "length(cards)",
               "first(cards).owner.name", "deep(round)", "x", "lst[5]", "cards[0]"]


def case_display(seed: int, tmp, hook) -> list:
    """Display texts whose rules fail (recursion, a spent budget, none, a wrong index): the screen
    shows no Python error; `validate` reports a failure of the first screen at its position."""
    from tests.hardening import BASE
    rnd = random.Random(seed)
    pieces = " ".join("{" + rnd.choice(TEXT_PIECES) + "}" for _ in range(rnd.randint(1, 3)))
    where = rnd.choice(["status", "private", "players", "cell"])
    render = {"status": f"  status: [{json.dumps(pieces)}]\n", "private": f"  private: [{json.dumps(pieces)}]\n",
              "players": f"  players: {json.dumps(pieces)}\n",
              "cell": "  grid: {cell: " + json.dumps(pieces.replace("{", "{cell.count + ", 1)) + "}\n"}[where]
    folder = tmp / "g"
    folder.mkdir()
    (folder / "game.yaml").write_text(BASE + 'functions:\n  deep: {params: [n], expr: "deep(n + 1)"}\n'
                                             '  big: {params: [n], expr: "length([1] * 3000000)"}\nrender:\n'
                                      + render, encoding="utf-8")
    outs = [interpret("display", seed, ["validate", folder])]
    play = interpret("display", seed, ["play", folder, "--seed", seed, "--max-decisions", "30",
                                       *rnd.choice([["--auto"], ["--seat", "1=human", "--seat", "2=random"]])],
                     stdin="1\n1\n1\n1\nq\n")
    hook()
    outs.append(play)
    if play.problem or outs[0].code != 0:
        return outs
    from interpreter.engine.game import Game
    from interpreter.play.render import Renderer
    game = Game.load(str(folder))  # the screens themselves (interpret() keeps only stderr)
    renderer = Renderer(game)
    st = game.new_game(seed=seed)
    for _ in range(4):
        for viewer in (None, 0, 1):
            screen = renderer.screen(st, viewer)
            bad = re.search(r"<\w*(Error|Exceeded)\b[^>]*>?|Traceback", screen)
            if bad:
                play.problem = "a Python error on the player's screen: " + bad.group()[:200]
                return outs
        if game.is_terminal(st):
            break
        game.apply_in_place(st, rnd.choice(game.legal_actions(st)))
    return outs


def case_powers(seed: int, tmp, hook) -> list:
    """A card power's text broken by a variant's `set` or `replace` (a mutation of its own text):
    every error is at the variant's file and line, none at `<content>`."""
    from interpreter.ruleset.loader import load_ruleset
    rnd = random.Random(seed)
    fixture = ROOT / "tests" / "fixtures" / "coverage-cards"
    rs = load_ruleset(fixture)
    powers = [(f"cards.{name}.powers", p) for name, card in rs.cards.items() for p in card.get("powers") or []]
    powers += [(f"cards.{name}.effects.{e}.powers", p) for name, card in rs.cards.items()
               for e, eff in (card.get("effects") or {}).items() for p in eff.get("powers") or []]
    path, power = rnd.choice(powers)
    index = [p for q, p in powers if q == path].index(power)
    key = "rule" if "rule" in power else "value"
    text = mutate_text(rnd, str(power[key]), SNIPPETS + ["wh", "when", "this", ":", "="], 2)
    change = rnd.choice([{"op": rnd.choice(["set", "replace"]), "path": f"{path}[{index}].{key}", "value": text},
                         {"op": "replace", "path": f"{path}[{index}]", "value": {**{k: str(v) for k, v in power.items()},
                                                                                  key: text}}])
    variant = tmp / "v.yaml"
    variant.write_text(json.dumps({"variant": {"name": "v", "base": "covcards"}, "changes": [change]}, indent=1,
                                  ensure_ascii=False), encoding="utf-8")
    o = interpret("powers", seed, ["validate", fixture, "--variant", variant])
    if not o.problem and o.code == 1 and ("<content>" in o.err or "v.yaml:" not in o.err):
        o.problem = "an error of a power a variant changed is not at the variant: " + o.err.strip()[:200]
    return [o]


def case_spiel(seed: int, tmp, hook) -> list:
    """OpenSpiel game strings, well and badly formed: a game, or an error that says what is wrong
    (SpielError, ValueError, a content error), never another Python exception."""
    try:
        import pyspiel
    except ImportError:
        return []
    import interpreter.adapters.openspiel  # noqa: F401
    from interpreter.errors import InterpretError
    rnd = random.Random(seed)
    good = {"game": ["tic-tac-toe", "connect-four", str(GAMES[2])], "players": ["2", "0"], "options": ["", "goal=3"],
            "variants": [""], "seed": ["0", "7"]}
    bad = {"game": ["nope", "a" * 300, "", "../x"], "players": ["3", "-1", "x", "99999", ""],
           "options": ["goal=x", "level=moyen", "a=b+c=d", "=", "goal"], "variants": ["nope", "a+b", "a" * 300],
           "seed": ["x", "-5", ""]}
    params = {k: rnd.choice(good[k] if rnd.random() < 0.75 else bad[k]) for k in good}
    if rnd.random() < 0.2:
        params[rnd.choice(["gmae", "option", "players"])] = rnd.choice(["1", "x"])
    items = [f"{k}={v}" for k, v in params.items() if rnd.random() < 0.9]
    text = "interpret(" + ",".join(items) + ")"
    if rnd.random() < 0.2:
        text = mutate_text(rnd, text, ["(", ")", ",", "=", "+"], 2)
    start = time.process_time()
    o = Outcome("spiel", seed, ["pyspiel.load_game", text], 0, 0.0)
    try:
        game = pyspiel.load_game(text)
        game.new_initial_state()
    except (pyspiel.SpielError, ValueError, InterpretError):
        o.code = 1
    except RuntimeError as e:  # an integer past 32 bits: refused by OpenSpiel's own parser of the
        # string before the game is made (its native games fail there too, docs/trust.md)
        big = any(abs(int(n)) >= 2**31 for n in re.findall(r"-?\d+", text))
        o.code, o.problem = (1, "") if big and "Unable to cast" in str(e) else (3, f"RuntimeError: {e}"[:300])
    except Exception as e:  # noqa: BLE001  (what the fuzz is looking for)
        o.code, o.problem = 3, f"{type(e).__name__}: {e}"[:300]
    o.seconds = time.process_time() - start
    return [o]


SURFACES = {"shape": case_shape, "zero": case_zero, "names": case_names, "pipe": case_pipe, "outputs": case_outputs,
            "limits": case_limits, "display": case_display, "powers": case_powers, "spiel": case_spiel}
CASES.update(SURFACES)  # run_case (tests/fuzzing.py) runs them like its own kinds (`spiel`: the disk kinds' `adapter` is another)
