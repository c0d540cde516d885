"""Fuzzing the inputs: whatever the rules text or the content files hold, loading a game
either succeeds or raises a ContentError, never another exception.

Bounded by default (about 200 examples per test); `pytest --fuzz-long` draws many more.
The command-level fuzz suite (mutated content, rules text, variants, scenarios, logs and command
lines under a CPU timer) is tests/test_fuzz_inputs.py, with its generators in tests/fuzzing.py.
"""
from __future__ import annotations

import json
import random
import shutil
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, reject, settings
from hypothesis import strategies as st

from interpreter.engine.game import Game, from_json, to_json
from interpreter.errors import ContentError, InterpretError
from interpreter.ruleset.schema import schema

SETTINGS = dict(deadline=None, database=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                       HealthCheck.filter_too_much])


@pytest.fixture(scope="module")
def folder():
    root = Path(tempfile.mkdtemp(prefix="interpret-fuzz-")) / "fuzzed"
    root.mkdir()
    yield root
    shutil.rmtree(root.parent, ignore_errors=True)


# Crashes already pinned by a strict xfail test at the end of this file, as (exception type, function of
# interpret where it was raised). The fuzzers skip them so that they keep looking for new ones; when a bug
# is fixed its xfail test passes, fails as strict, and the entry goes.
KNOWN_CRASHES: set = set()  # all fixed; a new entry must come with a strict xfail test below


def crash_site(e: BaseException) -> tuple[str, str]:
    """(exception type, innermost function of the interpreter package in its traceback)."""
    where = "?"
    tb = e.__traceback__
    while tb is not None:
        if "/interpreter/" in tb.tb_frame.f_code.co_filename.replace("\\", "/"):
            where = tb.tb_frame.f_code.co_name
        tb = tb.tb_next
    return type(e).__name__, where


def load_text(root: Path, text: str, more: str | None = None):
    """Load a game from YAML text; a ContentError is a fine answer, anything else is a bug."""
    (root / "game.yaml").write_text(text, encoding="utf-8")
    extra = root / "more.yaml"
    if more is None:
        extra.unlink(missing_ok=True)
    else:
        extra.write_text(more, encoding="utf-8")
    try:
        return Game.load(str(root))
    except ContentError as e:
        assert e.problems and all(p.message for p in e.problems)
        str(e)  # renders
        return None
    except Exception as e:
        if crash_site(e) in KNOWN_CRASHES:
            reject()
        raise


def assert_content_error(root: Path, text: str):
    (root / "game.yaml").write_text(text, encoding="utf-8")
    (root / "more.yaml").unlink(missing_ok=True)
    with pytest.raises(ContentError):
        Game.load(str(root))


# ---- rules text -----------------------------------------------------------------------------

NAMES = ["pile", "hand", "me", "gem", "coin", "x", "c", "it", "cards", "players", "value", "score", "token",
         "scored", "gain", "count", "round", "step", "first", "roll", "range", "seat", "cells", "nope"]
KEYWORDS = ["let", "if", "then", "elif", "else", "end", "for", "in", "do", "repeat", "times", "choose", "from",
            "by", "prompt", "optional", "move", "to", "top", "bottom", "swap", "with", "cycle", "forward",
            "backward", "shuffle", "draw", "emit", "finish", "turn", "game", "stop", "fail", "log",
            "pass", "on", "instead", "of", "when", "where", "is", "not", "and", "or", "none", "true", "false",
            "sum", "max", "min", "any", "all"]
SYMBOLS = ["+", "-", "*", "/", "//", "%", "==", "!=", "<", "<=", ">", ">=", "=", "+=", "-=", "*=", "(", ")", "[",
           "]", ",", ".", ":", ";", "\n", "\n", '"a"', '"{x}"', '"{"', '"}{"', "0", "1", "42", "#", "&", "|", "!",
           "'", "\\", "\t", "é"]
TOKENS = st.sampled_from(NAMES + KEYWORDS + SYMBOLS)
TOKEN_SOUP = st.lists(TOKENS, max_size=30).map(" ".join)

ATOMS = st.one_of(st.sampled_from(NAMES), st.integers(0, 99).map(str), st.sampled_from(['"a"', '"{me}"', "none",
                                                                                         "true", "false", "[]"]))


def _compound(e):
    return st.one_of(
        st.tuples(e, st.sampled_from(["+", "-", "*", "/", "%", "==", "!=", "<", ">=", "and", "or", "in", "not in"]),
                  e).map(" ".join),
        st.tuples(e, st.sampled_from(NAMES)).map(lambda t: f"{t[0]}.{t[1]}"),
        st.tuples(e, st.sampled_from(NAMES)).map(lambda t: f"{t[0]} is {t[1]}"),
        st.tuples(st.sampled_from(NAMES), st.lists(e, max_size=3)).map(lambda t: f"{t[0]}({', '.join(t[1])})"),
        st.tuples(st.sampled_from(["sum", "count", "max", "min", "any", "all", "list", "mean"]), e,
                  st.sampled_from(["x", "c"]), e).map(lambda t: f"{t[0]}({t[1]} for {t[2]} in {t[3]})"),
        st.tuples(e, e).map(lambda t: f"{t[0]} where {t[1]}"),
        st.tuples(e, e, e).map(lambda t: f"{t[0]} if {t[1]} else {t[2]}"),
        st.tuples(e, e).map(lambda t: f"[{t[0]} for x in {t[1]}]"),
        st.lists(e, max_size=3).map(lambda xs: f"[{', '.join(xs)}]"),
        e.map(lambda x: f"({x})"), e.map(lambda x: f"not {x}"), e.map(lambda x: f"-{x}"),
        st.tuples(e, e).map(lambda t: f"{t[0]}[{t[1]}]"),
    )


EXPRESSIONS = st.recursive(ATOMS, _compound, max_leaves=12)


def _statements(block):
    simple = st.one_of(
        st.tuples(st.sampled_from(NAMES), EXPRESSIONS).map(lambda t: f"let {t[0]} = {t[1]}"),
        st.tuples(EXPRESSIONS, st.sampled_from(["=", "+=", "-=", "*="]), EXPRESSIONS).map(" ".join),
        st.tuples(EXPRESSIONS, EXPRESSIONS, st.sampled_from(["", " top", " bottom"])).map(
            lambda t: f"move {t[0]} to {t[1]}{t[2]}"),
        st.tuples(EXPRESSIONS, EXPRESSIONS, EXPRESSIONS).map(lambda t: f"draw {t[0]} from {t[1]} to {t[2]}"),
        st.tuples(st.sampled_from(NAMES), EXPRESSIONS, st.sampled_from(["", " optional", ' prompt "p"', " by me"])).map(
            lambda t: f"choose {t[0]} from {t[1]}{t[2]}"),
        st.tuples(st.sampled_from(["emit", "do"]), st.sampled_from(NAMES), st.lists(EXPRESSIONS, max_size=3)).map(
            lambda t: f"{t[0]} {t[1]}({', '.join(t[2])})"),
        st.sampled_from(["stop", "pass", 'fail "no"', 'log "{x} and {me}"', "finish turn", "finish step",
                         "finish round", "finish game"]),
        st.tuples(EXPRESSIONS, EXPRESSIONS).map(lambda t: f"swap {t[0]} with {t[1]}"),
        EXPRESSIONS.map(lambda x: f"shuffle {x}"), EXPRESSIONS.map(lambda x: f"cycle {x} backward"),
    )
    return st.one_of(
        simple,
        st.tuples(EXPRESSIONS, block, block).map(lambda t: f"if {t[0]} then\n{t[1]}\nelse\n{t[2]}\nend"),
        st.tuples(st.sampled_from(NAMES), EXPRESSIONS, block).map(lambda t: f"for {t[0]} in {t[1]} do\n{t[2]}\nend"),
        st.tuples(EXPRESSIONS, block).map(lambda t: f"repeat {t[0]} times\n{t[1]}\nend"),
    )


BLOCKS = st.recursive(st.just("pass"), lambda b: st.lists(_statements(b), min_size=1, max_size=4).map("\n".join),
                      max_leaves=8)
RULES_TEXT = st.one_of(TOKEN_SOUP, BLOCKS, EXPRESSIONS, st.text(max_size=60))

GAME = """\
game: {name: fuzzed, players: {min: 1, max: 3}}
cards:
  coin: {copies: 3, props: {value: 1}, tags: [token]}
  gem: {props: {value: 3}}
zones:
  pile: {}
  hand: {per_player: true, visibility: owner}
vars: {game: {x: 0}, player: {score: 0}}
events: {scored: [who]}
procedures:
  gain: {params: [who, n], effect: who.score += n}
flow:
  setup: |
    for c in cards do move c to pile end
actions:
  noop: {effect: finish turn}
"""


def block(text: str, indent: int) -> str:
    pad = " " * indent
    return "|-\n" + "\n".join(pad + line for line in (text.splitlines() or [""]))


def embed(text: str, where: str) -> str:
    """GAME with `text` at one place that holds rules text."""
    if where == "effect":
        return GAME + f"  fuzz:\n    effect: {block(text, 6)}\n"
    if where == "require":
        return GAME + f"  fuzz:\n    require:\n      - {block(text, 8)}\n    effect: pass\n"
    if where == "param":
        return GAME + f"  fuzz:\n    params:\n      x: {block(text, 8)}\n    effect: pass\n"
    if where == "label":
        return GAME + f"  fuzz:\n    label: {json.dumps(text)}\n    effect: pass\n"
    if where == "quoted":
        return GAME + f"  fuzz:\n    effect: {json.dumps(text)}\n"
    if where == "trigger":
        return GAME + f"triggers:\n  - {block(text, 4)}\n"
    if where == "trigger_on":
        return GAME + f"triggers:\n  - {block('on scored when ' + text, 4)}\n"
    if where == "function":
        return GAME + f"functions:\n  fuzz:\n    params: [a]\n    expr: {block(text, 6)}\n"
    if where == "score":
        return GAME + f"scoring:\n  score: {block(text, 4)}\n"
    return GAME.replace("for c in cards do move c to pile end", text.replace("\n", "\n    "))  # setup


PLACES = st.sampled_from(["effect", "require", "param", "label", "quoted", "trigger", "trigger_on", "function",
                          "score", "setup"])


def test_random_rules_text_only_raises_content_errors(folder, fuzz):
    @settings(**fuzz, **SETTINGS)
    @given(text=RULES_TEXT, where=PLACES)
    def check(text, where):
        load_text(folder, embed(text, where))
    check()


def test_random_programs_only_raise_content_errors(folder, fuzz):
    @settings(**fuzz, **SETTINGS)
    @given(text=BLOCKS, where=st.sampled_from(["effect", "setup", "trigger_on"]))
    def check(text, where):
        if where == "trigger_on":
            text = "x > 0:\n" + text
        load_text(folder, embed(text, where))
    check()


# Errors while playing that are already pinned by strict xfail tests (test_errors.py:
# test_a_statement_given_the_wrong_kind_of_value_is_a_rule_runtime_error), as
# (exception type, innermost function of interpret, a piece of the message).
KNOWN_RUNTIME_CRASHES = [
    ("TypeError", "cycle", ""), ("AttributeError", "shuffle", ""), ("IndexError", "shuffle", ""),
    ("IndexError", "", ""),  # cycle/shuffle of cards taken as zones
    ("TypeError", "", "cannot be interpreted as an integer"),  # repeat/draw of a non-number
    ("TypeError", "contains", "is not iterable"),  # x in NUMBER
    ("TypeError", "", "unsupported operand type(s) for +"),  # sum of players
]


def is_known_runtime_crash(e: BaseException) -> bool:
    kind, where = crash_site(e)
    return any(kind == k and (not w or w == where) and m in str(e) for k, w, m in KNOWN_RUNTIME_CRASHES)


def test_random_programs_run_without_tracebacks(folder, fuzz):
    """Programs that load are played a few random moves: an error while playing is an InterpretError."""
    @settings(**{**fuzz, "max_examples": fuzz["max_examples"] // 2}, **SETTINGS)
    @given(text=BLOCKS, where=st.sampled_from(["effect", "setup", "trigger_on"]), seed=st.integers(0, 9))
    def check(text, where, seed):
        game = load_text(folder, embed("x >= 0:\n" + text if where == "trigger_on" else text, where))
        if game is None:
            return
        rnd = random.Random(seed)
        try:
            state = game.new_game(seed=seed)
            for _ in range(12):
                if game.is_terminal(state):
                    break
                state = game.apply(state, rnd.choice(game.legal_actions(state)))
                assert from_json(to_json(state)) == state
        except InterpretError:
            pass
        except Exception as e:
            if is_known_runtime_crash(e):
                reject()
            raise
    check()


# ---- content files ----------------------------------------------------------------------------

VOCABULARY = ["a", "b", "pile", "hand", "deck", "coin", "play", "main", "x", "p", "score"]
SNIPPETS = st.sampled_from(["pass", "finish turn", "me.score += 1", "length(pile.cards) > 0", "pile.cards",
                            "draw 1 from deck to me.hand", "round >= 2", "1 +", "x", "players", "range(1, 3)",
                            "choose c from pile.cards", "on turn_start: pass", "instead of gain: pass",
                            "move first(pile.cards) to hand(me)", "seats_from(seat(1))", "2"])
SCALARS = st.one_of(st.none(), st.booleans(), st.integers(-3, 30), st.sampled_from(VOCABULARY),
                    st.text(max_size=8))


def _from_schema(node: dict, depth: int):
    """A strategy for values that mostly follow a JSON Schema node, sometimes not."""
    if depth > 5:
        return SCALARS
    if "oneOf" in node or "anyOf" in node:
        return st.one_of([_from_schema(n, depth) for n in node.get("oneOf", node.get("anyOf"))])
    if "enum" in node:
        return st.one_of(st.sampled_from(node["enum"]), SCALARS) if depth % 2 else st.sampled_from(node["enum"])
    types = node.get("type")
    if isinstance(types, list):
        return st.one_of([_from_schema({**node, "type": t}, depth) for t in types])
    if types == "object" or "properties" in node:
        props = node.get("properties") or {}
        required = node.get("required") or []
        named = {k: _from_schema(v, depth + 1) for k, v in props.items()}
        fixed = st.fixed_dictionaries({k: named[k] for k in required if k in named},
                                      optional={k: v for k, v in named.items() if k not in required})
        extra = node.get("additionalProperties")
        if isinstance(extra, dict):
            more = st.dictionaries(st.sampled_from(VOCABULARY), _from_schema(extra, depth + 1), max_size=3)
            fixed = st.tuples(fixed, more).map(lambda t: {**t[1], **t[0]})
        if not props and not isinstance(extra, dict):
            return st.dictionaries(st.sampled_from(VOCABULARY), SCALARS, max_size=3)
        return fixed
    if types == "array":
        return st.lists(_from_schema(node.get("items") or {}, depth + 1), max_size=3)
    if types == "string":
        if "rules text" in node.get("description", ""):
            return st.one_of(SNIPPETS, TOKEN_SOUP)
        if "pattern" in node and "[0-9]+-[0-9]+" in node["pattern"]:
            return st.sampled_from(["1-2", "2-1", "1-1", "3-4"])
        return st.one_of(st.sampled_from(VOCABULARY), st.text(max_size=6))
    if types == "integer":
        return st.integers(-2, 12)
    if types == "boolean":
        return st.booleans()
    if types == "null":
        return st.none()
    return SCALARS


DOCUMENTS = _from_schema(schema("content"), 0)


def test_random_content_documents_only_raise_content_errors(folder, fuzz):
    @settings(**fuzz, **SETTINGS)
    @given(doc=DOCUMENTS, name=st.booleans())
    def check(doc, name):
        if name:
            doc = {**doc, "game": {**(doc.get("game") or {}), "name": "fuzzed"}}
        load_text(folder, json.dumps(doc, indent=1))  # JSON is YAML too
    check()


def test_random_second_files_only_raise_content_errors(folder, fuzz):
    @settings(**{**fuzz, "max_examples": fuzz["max_examples"] // 2}, **SETTINGS)
    @given(doc=DOCUMENTS)
    def check(doc):
        doc = {k: v for k, v in doc.items() if k != "game"}
        load_text(folder, GAME, json.dumps(doc))
    check()


YAMLISH = st.lists(st.sampled_from(["game:", " name: t", "cards:", "  a: {}", "zones:", "- ", "  - x", "{", "}",
                                    "[", "]", ": ", "'", '"', "&a", "*a", "!!str", "? ", "|", ">", "#", "\t", "---",
                                    "...", "%YAML 1.2", "actions:", "  go: {effect: pass}", "\n", "\n  ", "é",
                                    "\x00", "\ufeff"]), max_size=25).map("".join)


def test_random_yaml_text_only_raises_content_errors(folder, fuzz):
    @settings(**fuzz, **SETTINGS)
    @given(text=st.one_of(YAMLISH, st.text(max_size=80)))
    def check(text):
        load_text(folder, text)
    check()


def test_a_key_that_is_not_text_is_a_content_error(folder):
    assert_content_error(folder, "cards:\n  : game:\n")


def test_a_grid_row_without_row_or_rows_is_a_content_error(folder):
    assert_content_error(folder, "game: {name: fuzzed}\nboard: {grid: {columns: 2, rows: [{}]}}\n")


def test_a_section_of_the_wrong_type_is_a_content_error(folder):
    assert_content_error(folder, "game:\n- x\n")
