"""Names checked against those declared, at load time, with did-you-mean: the texts of rules that
name an edge kind, a zone, a card, a card's kind or a value printed on the cards and cells
(lang/literals.py), a card's back written once beside backs in use and a grid's `join_same`
(ruleset/crosscheck.py). A text that can match is left alone, as is one computed while playing."""
from __future__ import annotations

import pytest

from interpreter.errors import ContentError
from interpreter.play.validate import validate_game
from tests.tiny_game import TINY, with_action

# the tiny game with a kind on every cell, a start cell off the grid and an edge of kind `entry`
BOARD = TINY.replace("  grid: {columns: 2, rows: [{rows: 1-2}]}\n", """\
  grid: {columns: 2, rows: [{rows: 1-2, attrs: {kind: field}}]}
  cells:
    - {name: start, attrs: {kind: home}}
  edges:
    - {from: start, to: r1c1, kind: entry}
""")
PROBE = "let probe = "
LINE = len(BOARD.splitlines()) + 3  # the probe's line (tiny_game.with_action)


def problems(write_game, text):
    with pytest.raises(ContentError) as info:
        validate_game(str(write_game(text)))
    return info.value.problems


@pytest.mark.parametrize("expr, wrong, said, meant", [
    ('neighbors(cell(1, 1), "entyr")', "entyr", 'the board has no edge of kind "entyr"', "`entry`"),
    ('walk(start, 1, "orthogonl")', "orthogonl", "no edge of kind", "`orthogonal`"),
    ('distance(start, cell(2, 2), ["entry", "orthgonal"])', "orthgonal", "no edge of kind", "`orthogonal`"),
    ('within(start, 2, "entri")', "entri", "no edge of kind", "`entry`"),
    ('zone_named("plie")', "plie", 'no zone is named "plie"', "`pile`"),
    ('card_named("gme")', "gme", 'no card is named "gme"', "`gem`"),
    ('first(pile.cards).name == "rubby"', "rubby", 'no card has the name "rubby"', "`ruby`"),
    ('"gme" != first(pile.cards).name', "gme", "no card has the name", "`gem`"),
    ('cell(1, 1).kind == "feild"', "feild", 'no cell has `kind` "feild"', "`field`"),
    ('length(cells where it.kind == "hmoe")', "hmoe", "has `kind`", "`home`"),
    ('cell(1, 1).kind in ["field", "hom"]', "hom", "has `kind`", "`home`"),
    ('first(pile.cards).zone.name == "hnad"', "hnad", 'no zone has the name "hnad"', "`hand`"),
    ('first(pile.cards).word == "bb"', "bb", 'no card has `word` "bb"', "`b`"),
])
def test_a_text_naming_nothing_declared_is_refused_at_its_position(write_game, expr, wrong, said, meant):
    found = problems(write_game, with_action("probe", PROBE + expr, BOARD))
    assert len(found) == 1, "\n\n".join(p.render() for p in found)
    p = found[0]
    assert said in p.message and meant in p.hint
    assert (p.location.line, p.location.column) == (LINE, 7 + len(PROBE) + expr.index(f'"{wrong}"') + 1)  # its name


@pytest.mark.parametrize("expr", [
    'neighbors(cell(1, 1), "orthogonal")', 'walk(start, 1, "entry")', 'distance(start, r2c2, ["entry", "orthogonal"])',
    'zone_named("pile")', 'zone_named("hand")', 'card_named("gem")', 'card_named("coin#2")',
    'first(pile.cards).name == "coin"', 'cell(1, 1).kind != "home"', 'cell(1, 1).kind in ["field", "home"]',
    'first(pile.cards).word == "a"',
    'first(pile.cards).value == "high"',  # a number printed: not a name (the types say the rest)
    'me.name == "Alice"',  # the seats' names are the players' own
    'zone_named(text("pi", "le"))', 'first(pile.cards).key == text("gem")',  # computed while playing
    'neighbors(start, first(["entry"]))',
])
def test_a_text_that_can_match_is_left_alone(write_game, expr):
    validate_game(str(write_game(with_action("probe", PROBE + expr, BOARD))))


def test_a_board_without_edges_has_no_kind_to_name(write_game):
    text = TINY.replace("board:\n  grid: {columns: 2, rows: [{rows: 1-2}]}\n", "")
    found = problems(write_game, with_action("probe", PROBE + 'walk(first(cells), 1, "next")', text))
    assert len(found) == 1 and 'no edge of kind "next" (there are none)' in found[0].message


def test_a_variable_of_the_same_name_may_hold_any_text(write_game):
    text = BOARD.replace("  player: {score: 0}", "  player: {score: 0}\n  zone: {kind: {default: field}}")
    validate_game(str(write_game(with_action("probe", PROBE + 'cell(1, 1).kind == "burnt"', text))))


def test_a_back_written_once_close_to_one_in_use(write_game):
    text = TINY.replace("ruby: {props: {value: 5}, tags: [token]}", "ruby: {props: {value: 5}, tags: [token], back: tokn}")
    found = problems(write_game, text)
    assert len(found) == 1, "\n\n".join(p.render() for p in found)
    line = text.splitlines()[4]
    assert "back `tokn` is written on this card only" in found[0].message and "`token`" in found[0].hint
    assert (found[0].location.line, found[0].location.column) == (5, line.index("tokn") + 1)


@pytest.mark.parametrize("backs", [("tokn", "tokn"), ("shield", None)])
def test_a_back_shared_or_far_from_the_others_is_no_misspelling(write_game, backs):
    text = TINY
    for card, back in zip(("gem", "ruby"), backs):
        if back is not None:
            text = text.replace(f"  {card}: {{props: {{value:", f"  {card}: {{back: {back}, props: {{value:")
    validate_game(str(write_game(text)))


def test_join_same_names_an_attribute_of_the_cells(write_game):
    text = BOARD.replace("grid: {columns: 2,", "grid: {columns: 2, join_same: knid,")
    found = problems(write_game, text)
    assert len(found) == 1 and "no cell has an attribute `knid`" in found[0].message
    assert "`kind`" in found[0].hint
    validate_game(str(write_game(BOARD.replace("grid: {columns: 2,", "grid: {columns: 2, join_same: kind,"))))
