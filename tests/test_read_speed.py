"""Issue 29, item 1 (Agent DOG's random play, benchmarks/bench.py --game agent-dog): reads written
with fewer calls, each giving what it gave before: `find(cards, name)` from a table of the first
card of each name, made at load time; a variable holding a card, a zone (a cell) or a player
decoded in place, without its codec's call."""
from __future__ import annotations

import pytest

from interpreter.engine.game import Game
from interpreter.runtime import context as rt
from interpreter.runtime import library
from tests.hardening import BASE, game_dir
from tests.test_step_speed import evaluated

EXTRA = """\
functions:
  find_in: {params: [cards, n], expr: "find(cards, n)"}   # a parameter named `cards`: not every card
  picked: {params: [], expr: "find(cards, me.wanted)"}
"""


@pytest.fixture(scope="module")
def game(tmp_path_factory):
    base = BASE.replace("  coin: {copies: 3, props: {value: 1}, tags: [token]}\n",
                        "  coin: {copies: 3, props: {value: 1}, tags: [token]}\n  gem: {copies: 2}\n")
    base = base.replace("vars: {game: {x: 0, lst: []}, player: {score: 0}}",
                        "vars:\n  game: {x: 0, lst: [], who: {type: player}, spot: {type: zone}}\n"
                        "  player: {score: 0, fav: {type: card}, wanted: {type: str}}")
    return Game.load(str(game_dir(tmp_path_factory.mktemp("builtins"), EXTRA, base=base)))


_run = evaluated


def _set(row, i, v):
    """A player variable's row of values (a tuple in the state) with item i set to v."""
    row = list(row)
    row[i] = v
    return tuple(row)


@pytest.mark.parametrize("name", ['"gem"', '"coin"', '"nothing"', "none", "3"])
def test_find_among_all_cards_by_a_text_is_a_table_lookup(game, name):
    value, calls, src = _run(game, f"find(cards, {name})")
    ctx = rt.Ctx(game.new_game(seed=1), game.m, game.m.seats[0])
    expected = library._find(ctx, list(game.m.cards), eval(name.replace("none", "None")))
    assert value is expected
    if name.startswith('"'):
        assert "_find" not in calls  # found in the table, without the built-in
    if name == '"gem"':
        assert value is not None and value.name == "gem" and value.id == 3  # the first gem (after 3 coins)
    if name == '"coin"':
        assert value.id == 0


def test_find_among_other_cards_or_a_zone_is_the_built_ins(game):
    st = game.new_game(seed=1)
    value, calls, _ = _run(game, 'find_in(drop(cards, 4), "gem")', st)
    assert value.id == 4 and "_find" in calls  # a parameter named `cards`: the list it is given
    value, calls, _ = _run(game, 'find(deck, "coin")', st)
    assert value is not None and value.name == "coin" and "_find" in calls


def test_a_variable_holding_a_card_a_zone_or_a_player_is_decoded_in_place(game):
    st = game.new_game(seed=1)
    for text in ("who", "spot", "me.fav"):
        value, calls, src = _run(game, text, st)
        assert value is None and "<lambda>" not in calls  # none stays none, without the codec's call
    st["gv"]["who"] = game.m.seats[1].id  # as the codec stores them: by id
    st["gv"]["spot"] = game.m.zone_by_name["discard"].id
    st["pv"]["fav"] = _set(st["pv"]["fav"], game.m.seats[0].id, 4)
    for text, expected in (("who", game.m.seats[1]), ("spot", game.m.zone_by_name["discard"]),
                           ("me.fav", game.m.cards[4])):
        value, calls, src = _run(game, text, st)
        assert value is expected and "<lambda>" not in calls
    st["pv"]["wanted"] = _set(st["pv"]["wanted"], game.m.seats[0].id, "gem")
    assert _run(game, "picked()", st)[0] is game.m.cards[3]
