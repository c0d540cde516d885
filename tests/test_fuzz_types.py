"""Fuzzing the load-time types (lang/valuetypes.py): an expression made of values whose types are
known at load time either is refused by `validate` or runs without a type error the inference
covers (`count` of things that are not yes/no, arithmetic or an order with a card, a cell, a zone,
a player, a text with a number); and texts naming an edge kind, a zone, a card or a card's kind
either name one of the game's or are refused (lang/literals.py). Bounded like the other fuzz
tests (tests/conftest.py `fuzz`)."""
from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from interpreter.engine.game import Game
from interpreter.errors import ContentError, RuleRuntimeError
from tests.tiny_game import with_action, write_folder

# the tiny game (tests/tiny_game.py) and an action that computes the expression, then ends the game;
# `bound`, a name the expression may read, holds another (the type a `let` carries)
BASE = with_action("probe", "let bound = BOUND\nlet probe = EXPR\nfinish game")

# values that are never none in the position the probe runs in: each type known at load time
LEAVES = ["1", "2", "true", '"a"', "pile", "me", "first(pile.cards)", "cell(1, 1)", "pile.cards", "cells",
          "players", "[1, 2]", "[true, false]", "first(pile.cards).value", "first(pile.cards).word", "pile.count",
          "me.index", "pile.empty", '["a", "b"]', "total"]  # total: a variable declared `type: int`
OPERATORS = ["+", "-", "*", "/", "//", "<", ">=", "%"]
EXPRESSIONS = st.recursive(
    st.sampled_from(LEAVES + ["bound"]),
    lambda inner: st.one_of(
        st.tuples(inner, st.sampled_from(OPERATORS), inner).map(lambda t: f"({t[0]} {t[1]} {t[2]})"),
        inner.map(lambda x: f"count({x})"), inner.map(lambda x: f"sum({x})"), inner.map(lambda x: f"-({x})"),
        inner.map(lambda x: f"count(x == x for x in {x})"), inner.map(lambda x: f"[x for x in {x}]"),
        st.tuples(inner, inner).map(lambda t: f"[{t[0]}, {t[1]}]")),
    max_leaves=4)

# what the inference covers: these never happen once content validates (with no value of an
# unknown type: every leaf above is known); other rule errors (a division by 0, a number too large,
# a sum or count of something that is not a list) are not a type the inference decides
COVERED = ("count() counts true values", "cannot compare")
THINGS = ("coin", "gem", "r1c1", "pile", "p1", "p2")


def covered(e: RuleRuntimeError) -> bool:
    text = str(e)
    if any(c in text for c in COVERED):
        return True
    by_zero = any(f"{op} {zero}" in text for op in ("/", "%") for zero in ("0", "no"))  # false is 0 there
    if "cannot compute" in text and not by_zero and "none" not in text:
        return True
    return False


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    return tmp_path_factory.mktemp("types")


def test_validated_expressions_never_fail_with_a_covered_type_error(folder, fuzz):
    @settings(**fuzz, deadline=None, database=None,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much])
    @given(expr=EXPRESSIONS, bound=st.sampled_from(LEAVES))
    def check(expr, bound):
        write_folder(folder, BASE.replace("EXPR", expr).replace("BOUND", bound))
        try:
            game = Game.load(str(folder))
        except ContentError:
            return  # refused before it runs
        try:
            game.apply(game.new_game(seed=1), "probe")
        except RuleRuntimeError as e:
            assert not covered(e), f"{expr} (bound = {bound}) validated, then: {e}"
    check()


def test_the_fuzzer_reaches_both_outcomes(folder):
    """The vocabulary makes expressions the inference refuses, and ones it lets run."""
    outcomes = []
    for expr in ["count(pile.cards)", "count(x == x for x in pile.cards)", "(me + 1)", "(1 + 2)"]:
        write_folder(folder, BASE.replace("EXPR", expr).replace("BOUND", "1"))
        try:
            Game.load(str(folder)).apply(Game.load(str(folder)).new_game(seed=1), "probe")
            outcomes.append("ran")
        except ContentError:
            outcomes.append("refused")
    assert outcomes == ["refused", "ran", "refused", "ran"]


# ---- names written as texts (lang/literals.py) ----------------------------------------------------

# (template, the texts the tiny game has, texts it has not): a text either names something of the
# game or the content is refused; one that names something is never refused
NAMES = [
    ('neighbors(cell(1, 1), "{}")', ["orthogonal"], ["orthogonl", "diagonal", "next"]),
    ('zone_named("{}")', ["pile", "hand", "r1c1", "r2c2"], ["plie", "r3c1", "hands"]),
    ('card_named("{}")', ["coin#1", "coin#3", "gem", "ruby"], ["gme", "coin#4", "coin"]),
    ('first(pile.cards).name == "{}"', ["coin", "gem", "ruby"], ["rubby", "coin#1"]),
    ('first(pile.cards).word != "{}"', ["a", "b"], ["c", "A"]),
]
NAMED = st.lists(st.tuples(st.integers(0, len(NAMES) - 1), st.booleans(), st.integers(0, 3)), min_size=1, max_size=3)


def test_validated_texts_always_name_something_of_the_game(folder, fuzz):
    quick = dict(fuzz, max_examples=fuzz["max_examples"] // 5)  # a game loaded per example: 40 (1,000 long)
    @settings(**quick, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow])
    @given(picks=NAMED)
    def check(picks):
        parts, wrong = [], False
        for which, known, k in picks:
            template, good, bad = NAMES[which]
            texts = good if known else bad
            parts.append(template.format(texts[k % len(texts)]))
            wrong = wrong or not known
        write_folder(folder, BASE.replace("EXPR", "[" + ", ".join(parts) + "]").replace("BOUND", "1"))
        try:
            game = Game.load(str(folder))
        except ContentError as e:
            assert wrong, f"{parts} names only what the game has, and was refused: {e}"
            return
        assert not wrong, f"{parts} names something the game has not, and validated"
        game.apply(game.new_game(seed=1), "probe")
    check()
