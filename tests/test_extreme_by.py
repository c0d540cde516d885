"""`max_by(ITEMS, KEY)` / `min_by(ITEMS, KEY)` (issue 26: a new expression form declared in four
files: grammar/rules.lark, lang/ast.py, lang/analysis.py, lang/loops.py): the first item whose
KEY (`it` is each item) is the largest (smallest) number, none-keys skipped, none for no item."""
from __future__ import annotations

import pytest

from interpreter.engine.game import Game
from interpreter.errors import RuleRuntimeError
from interpreter.lang.parser import ParseFailure
from interpreter.lang.scope import Scope
from interpreter.runtime import context as rt
from interpreter.ruleset.yamlio import SourceText


@pytest.fixture(scope="module")
def ttt():
    return Game.load("tic-tac-toe")


def _value(game, text):
    f = game.m.compiler.expr(SourceText.plain(text), Scope())
    ctx = rt.Ctx(game.new_game(seed=1), game.m, game.m.seats[0])
    ctx.locals = [None] * 8
    ctx.budget = before = 10_000
    return f(ctx), before - ctx.budget


@pytest.mark.parametrize("text, value, spent", [
    ("max_by(players, it.index)", "p2", 2),
    ("min_by(players, it.index)", "p1", 2),
    ("max_by([3, 1, 5, 4, 5], it)", 5, 5),
    ("max_by([3, 1, 4], 0 - it)", 1, 3),  # a key of its own
    ("min_by([2, none, 1, 1], it)", 1, 4),  # none skipped; ties: the first
    ("max_by([], it)", None, 0),
    ("max_by([1, 2, 3], none)", None, 3),
    ("min_by(cells, it.row * 10 + it.column)", "r1c1", 9),
    ("max_by(cells, 3 * it.row + it.column).key", "r3c3", 9),
    ("max_by(players, length(it.name))", "p1", 2),
    ("[max_by([x, 2 * x], it) for x in [1, 3]]", [2, 6], 6),  # `it` of its own inside another loop
])
def test_the_item_with_the_largest_or_smallest_key(ttt, text, value, spent):
    v, cost = _value(ttt, text)
    assert (v.key if hasattr(v, "key") else v) == value
    assert cost == spent


def test_ties_give_the_first_item(ttt):
    assert _value(ttt, "max_by([[1, 9], [2, 9], [3, 1]], it[1])")[0] == [1, 9]


@pytest.mark.parametrize("text, message, column", [
    ('max_by([1, 2], "a")', "`max_by` ranks items by a number: the key gave 'a'", 16),
    ("min_by(players, it)", "`min_by` ranks items by a number: the key gave p1", 17),
    ("max_by(3, it)", "3 is not a collection", 1),
])
def test_errors_point_at_the_key_or_the_form(ttt, text, message, column):
    with pytest.raises(RuleRuntimeError) as e:
        _value(ttt, text)
    assert str(e.value) == f"<text>:1:{column}: {message}"


def test_it_is_two_arguments_and_a_reserved_word(ttt):
    with pytest.raises(ParseFailure, match="expected ','"):
        ttt.m.compiler.expr(SourceText.plain("max_by(players)"), Scope())
    with pytest.raises(Exception, match="unknown name `max_bye`"):
        ttt.m.compiler.expr(SourceText.plain("max_bye"), Scope())


HIDDEN = """
game: {name: t, players: {min: 2, max: 2}}
zones:
  deck: {visibility: hidden}
  table: {}
cards:
  gem: {start: deck, props: {worth: 5}}
  ruby: {start: deck, props: {worth: 7}}
  coin: {start: table, props: {worth: 1}}
  bead: {start: table, props: {worth: 2}}
actions:
  look:
    label: "best {max_by(table.cards, it.worth)}, worst {min_by(table.cards, it.worth).name}; hidden {max_by(deck.cards, it.worth)} worth {max_by(deck.cards, it.worth).worth}"
    effect: pass
"""


def test_a_label_never_names_a_hidden_card_through_it(make_game):
    g = make_game(HIDDEN)
    st = g.new_game(0)
    (_, label), = g.legal_actions_with_labels(st)
    # the hidden pick reads its cards' worth (its key): `?`, as an aggregate over them would
    assert label == "best bead, worst coin; hidden ? worth ?"
    assert "ruby" not in label and "7" not in label
    look = g.m.actions[0].label
    ctx = rt.Ctx(st, g.m, g.m.seats[0])
    ctx.locals = [None] * 16
    assert look(ctx) == "best bead, worst coin; hidden ruby worth 7"  # no viewer: everything
