"""The types of values known at load time (lang/valuetypes.py): what cannot work whatever the state
is refused by `validate` at its position, with a hint; what may work is left alone. And the hints
naming the new form of a changed construct (lang/changes.py), listed in docs/language-changes.md."""
from __future__ import annotations

from pathlib import Path

import pytest

from interpreter.errors import ContentError
from interpreter.lang import changes
from tests.tiny_game import TINY, with_action

ROOT = Path(__file__).resolve().parent.parent

BASE = TINY  # tests/tiny_game.py


def refused(make_game, effect):
    with pytest.raises(ContentError) as info:
        make_game(with_action("probe", effect))
    assert len(info.value.problems) == 1, info.value
    return info.value.problems[0]


@pytest.mark.parametrize("expr, said", [
    ("count(cells where it.empty)", "`count` counts true values (yes/no), and these are cells"),
    ("count(pile.cards)", "these are cards"),
    ("count(hand(me).cards)", "these are cards"),
    ("count([1, 0, 2])", "these are numbers"),
    ("count(c for c in pile.cards)", "these are cards"),
    ("count(c.value for c in pile.cards)", "these are numbers"),
    ("count([x for x in [1, true]])", "these are numbers"),  # the items of a list of several types
    ("sum(p for p in players)", "`sum` adds numbers, and these are players"),
    ("first(pile.cards) + 1", "`+` needs numbers, and this is a card"),
    ("2 * cell(1, 1)", "this is a cell"),
    ("pile - 1", "this is a zone"),
    ("me + 1", "this is a player"),
    ("leader * 2", "this is a player"),
    ('"a" + 1', "`+` cannot go between a text and a number"),
    ("first(pile.cards).word - 1", "`-` cannot go between a text and a number"),
    ('-"a"', "`-` needs a number, and this is a text"),
    ('"a" < 1', "cannot compare a number with a text"),
    ("first(pile.cards) > 2", "`>` compares numbers (or texts), and this is a card"),
    ("[c.value for c in pile.cards] + 1", "cannot go between a list of numbers and a number"),
])
def test_what_cannot_work_is_refused_at_load_time(make_game, expr, said):
    p = refused(make_game, f"let probe = {expr}")
    assert said in p.message
    assert p.location.line == len(BASE.splitlines()) + 3 and p.location.column > 1
    assert "^" in p.context


def test_a_let_carries_its_type_to_what_reads_it(make_game):
    p = refused(make_game, "let c = first(pile.cards)\nlet n = c + 1")
    assert "this is a card" in p.message and p.location.line == len(BASE.splitlines()) + 4


def test_a_parameter_carries_its_domains_type(make_game):
    text = BASE + "  pick:\n    params: {c: pile.cards}\n    effect: me.score += c\n"
    with pytest.raises(ContentError, match="`\\+=`|this is a card"):
        make_game(text)


@pytest.mark.parametrize("expr", [
    "count(c.value > 1 for c in pile.cards)", "count([true, false, none])", "length(pile.cards)",
    '"a" + "b"', "[1] + [2]", '"ab" * 2', "2 * [1]", "true + 1", "first(pile.cards).value + 1",
    "total + 1", "me.score + 1", "[[1], 2][0] + 1", "count(x for x in [[true]][0])",
    "text(\"n \", 3)", "(leader.index if leader != none else 0) + 1", '"a" < "b"', "sum(c.value for c in pile.cards)",
    "count([x for x in [1, true] where x == true])",
])
def test_what_may_work_is_left_alone(make_game, expr):
    make_game(with_action("probe", f"let probe = {expr}"))


def test_count_of_a_list_names_length(make_game):
    p = refused(make_game, "let n = count(pile.cards)")
    assert p.hint == changes.COUNT_OF_ITEMS and "`length(list)`" in p.hint


def test_range_of_one_argument_names_the_new_forms(make_game):
    p = refused(make_game, "for i in range(3) do pass end")
    assert "`range` takes 2 argument(s), got 1" in p.message
    assert "`range(1, 3)` or `range(0, 2)`" in p.hint


def test_every_changed_construct_is_listed_in_the_docs():
    doc = (ROOT / "docs" / "language-changes.md").read_text(encoding="utf-8")
    assert "| `range(3)` | `range(1, 3)` or `range(0, 2)`" in doc
    assert "| `count(list)` (the number of items) | `length(list)`" in doc
    assert set(changes.ARITY_CHANGES) == {("range", 1)}  # a new entry: a new line in the table above
