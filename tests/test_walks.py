"""Walks along the board graph by kind of edge (interpreter/runtime/walks.py): walk, walk_path, within,
and the directed path and distance. Edges from `from:` to `to:` and ring edges go one way; grid
edges both ways."""
from __future__ import annotations

import pytest

from interpreter.errors import RuleRuntimeError

TRACK = """
game: {name: track, players: {min: 1, max: 2}}
constants: {size: 8}
board:
  ring: {length: "size", name: "s{index}", tags: [track], edges: next}
  cells:
    - {name: home1, tags: [home]}
    - {name: home2, tags: [home]}
    - {name: side, tags: [home]}
  edges:
    - {from: s2, to: home1, kind: branch}
    - {from: home1, to: home2, kind: branch}
    - {from: home1, to: side, kind: fork}
    - {from: home2, to: side, kind: fork}
zones:
  pile: {}
cards:
  token: {start: pile}
flow: {turn: {steps: [{name: play}]}}
actions:
  pass: {effect: finish game}
"""


@pytest.fixture
def track(make_game):
    g = make_game(TRACK)
    return g, g.new_game(seed=1)


def keys(v):
    return v.key if hasattr(v, "key") else [z.key for z in v]


@pytest.mark.parametrize("expr,expected", [
    ('walk(zone_named("s0"), 3, "next")', "s3"),
    ('walk(zone_named("s6"), 3, "next")', "s1"),        # round the ring
    ('walk(zone_named("s1"), -2, "next")', "s7"),       # backwards
    ('walk(zone_named("s5"), 0, "next")', "s5"),
    ('walk(zone_named("s2"), 2, "branch")', "home2"),   # one way: s2 -> home1 -> home2
    ('walk_path(zone_named("s6"), 3, "next")', ["s7", "s0", "s1"]),
    ('walk_path(zone_named("s2"), 5, "branch")', ["home1", "home2"]),  # the line ends: fewer cells
    ('within(zone_named("s0"), 2, "next")', ["s1", "s2"]),
    ('within(zone_named("s0"), -3, "next")', ["s7", "s6", "s5"]),
    ('within(zone_named("s1"), 3, ["next", "branch"])', ["s2", "s3", "home1", "s4", "home2"]),
    ('distance(zone_named("s5"), zone_named("s2"), "next")', 5),           # forwards only
    ('distance(zone_named("s5"), zone_named("s2"))', 3),                   # without a kind: either way
    ('distance(zone_named("s0"), zone_named("home2"), ["next", "branch"])', 4),
    ('path(zone_named("s0"), zone_named("home1"), ["next", "branch"])', ["s0", "s1", "s2", "home1"]),
])
def test_walks_follow_edges_of_a_kind_in_their_direction(track, expr, expected):
    g, st = track
    got = g.evaluate(st, expr)
    assert (keys(got) if isinstance(expected, (str, list)) else got) == expected


@pytest.mark.parametrize("expr", [
    'walk(zone_named("s2"), 3, "branch")',           # off the end of a line
    'walk(zone_named("home1"), -2, "branch")',        # before its start
    'distance(zone_named("home1"), zone_named("s2"), "branch")',  # against the edges' direction
])
def test_a_walk_that_cannot_be_made_is_none(track, expr):
    g, st = track
    assert g.evaluate(st, expr) is None


def test_path_against_the_direction_is_empty(track):
    g, st = track
    assert g.evaluate(st, 'path(zone_named("home2"), zone_named("s2"), "branch")') == []


@pytest.mark.parametrize("expr,message", [
    # a kind computed while playing (a literal one is refused at load time: lang/literals.py)
    ('walk(zone_named("s0"), 1, first(["nxt"]))', "no edge of kind 'nxt' on the board \\(its kinds: branch, fork, next\\)"),
    ('walk(zone_named("s2"), 2, ["branch", "fork"])', "forks at home1 \\(2 edges leave it: home2, side\\)"),
    ('walk(zone_named("s0"), "two", "next")', "whole number of steps"),
    ('within(5, 1, "next")', "needs a board cell"),
    # without a kind (the board's networkx graph): a card, a zone off the board, none
    ('distance(first(zone_named("pile").cards), zone_named("s0"))', "distance\\(\\) needs a board cell"),
    ('path(zone_named("s0"), zone_named("pile"))', "path\\(\\) needs a board cell"),
    ('distance(zone_named("pile"), zone_named("pile"))', "distance\\(\\) needs a board cell"),
    ('path(none, zone_named("s0"))', "path\\(\\) needs a board cell"),
    ('neighbors(first(zone_named("pile").cards))', "neighbors\\(\\) needs a board cell"),  # not the cell of its id
    ('neighbors(seat(1), "next")', "neighbors\\(\\) needs a board cell"),
])
def test_a_wrong_walk_is_an_error_saying_why(track, expr, message):
    g, st = track
    with pytest.raises(RuleRuntimeError, match=message):
        g.evaluate(st, expr)


def test_grid_edges_go_both_ways(make_game):
    g = make_game("""
game: {name: grid, players: {min: 1, max: 2}}
board: {grid: {columns: 3, rows: [{rows: 1-3}]}}
flow: {turn: {steps: [{name: play}]}}
actions:
  pass: {effect: finish game}
""")
    st = g.new_game(seed=1)
    assert g.evaluate(st, 'distance(cell(3, 3), cell(1, 1), "orthogonal")') == 4
    assert keys(g.evaluate(st, 'within(cell(2, 2), 1, "orthogonal")')) == ["r1c2", "r2c1", "r2c3", "r3c2"]
