"""Strings in the rules language: "double" or 'single' quotes, a backslash escaping the next character."""
from __future__ import annotations

import pytest

from interpreter.errors import ContentError

GAME = """
game: {name: s, players: {min: 1, max: 2}}
zones: {pile: {}}
actions:
  noop:
    label: "the {'first'} pile: {text('it', 's')} {'empty' if pile.empty else 'full'}"
    effect: finish game
"""


@pytest.fixture(scope="module")
def game(tmp_path_factory):
    from interpreter.engine.game import Game
    root = tmp_path_factory.mktemp("strings")
    (root / "game.yaml").write_text(GAME)
    g = Game.load(str(root))
    return g, g.new_game(seed=1)


@pytest.mark.parametrize("expr,value", [
    ("'abc'", "abc"),
    ("'say \"hi\"'", 'say "hi"'),       # the other quote needs no escape
    ('"it\'s"', "it's"),
    ("'it\\'s'", "it's"),                # nor a backslash-escaped one of the same kind
    ("'a' + \"b\"", "ab"),
    ("'a' == \"a\"", True),
    ("''", ""),
])
def test_single_and_double_quotes_make_the_same_strings(game, expr, value):
    g, st = game
    assert g.evaluate(st, expr) == value


def test_single_quotes_inside_a_template(game):
    g, st = game
    assert [label for _, label in g.legal_actions_with_labels(st)] == ["the first pile: its empty"]


@pytest.mark.parametrize("expr", ["'abc", "'abc\"", "\"abc'"])
def test_an_unclosed_or_mismatched_quote_is_a_syntax_error(game, expr):
    g, st = game
    with pytest.raises(ContentError, match="<expression>:1:"):
        g.evaluate(st, expr)
