"""Issue 29, a cheaper step: a yes/no known at load time (`true`, a constant such as a variant's
option) decides `not`, `and` and `or` where it is written (lang/operators.py `static_bool`):
`not monde_vaste or ...` of Agents Secrets' `allowed_destination`, the variant off, is `True`
without reading the state. What is left out is what would not be evaluated at run time, or
what spends nothing and cannot fail; the values are those of the written expression."""
from __future__ import annotations

import pytest

from interpreter.engine.game import Game
from interpreter.lang.codegen import source_of
from interpreter.lang.scope import Scope
from interpreter.ruleset.yamlio import SourceText
from tests.hardening import game_dir


@pytest.fixture(scope="module")
def game(tmp_path_factory):
    extra = "constants:\n  on: true\n  off: false\n  three: 3\n"
    return Game.load(str(game_dir(tmp_path_factory.mktemp("yn"), extra)))


def _body(game, text):
    """The generated text of an expression's `_expr`."""
    src = source_of(game.m.compiler.expr(SourceText.plain(text), Scope([])))
    return src[src.index("def _expr"):]


@pytest.mark.parametrize("text, folded, value", [
    ("not off", "return True", True),
    ("not on", "return False", False),
    ("not off or round > 100", "return True", True),
    ("off and length(deck.cards) > 0", "return False", False),
    ("on and three", "return _k", 3),             # `true and 3` is 3, as written
    ("off or off or three", "return _k", 3),
    ("not (on and off) or round > 100", "return True", True),
])
def test_a_yes_no_known_at_load_time_is_folded(game, text, folded, value):
    assert folded in _body(game, text)
    assert game.evaluate(game.new_game(seed=1), text) == value


@pytest.mark.parametrize("text, value", [
    ("on and round > 100", False),                # the state is read: its operand is what decides
    ("off or round >= 1", True),
    ("round > 100 or on", True),                  # a known operand after one that is not: evaluated in turn
    ("round >= 1 and off", False),
    ("length(deck.cards) and on", True),
])
def test_an_operand_that_is_not_known_is_still_evaluated(game, text, value):
    assert game.evaluate(game.new_game(seed=1), text) == value


def test_agents_secrets_destinations_read_no_state_without_the_variant():
    plain = Game.load("agents-secrets", players=6)
    src = "\n".join(g.source for g in plain.m.compiler.output.generated if g.src is not None
                    and "allowed_destination" not in g.source and "turn.yaml" in str(g.where) and ":62:" in str(g.where))
    assert "if True:" in src and "ctx.st" not in src and "ctx.me" not in src
    vast = Game.load("agents-secrets", players=6, options={"monde_vaste": True})
    src = "\n".join(g.source for g in vast.m.compiler.output.generated if g.src is not None
                    and "turn.yaml" in str(g.where) and ":62:" in str(g.where))
    assert "if True:" not in src and "ctx.me" in src  # the destination opposite the first one
