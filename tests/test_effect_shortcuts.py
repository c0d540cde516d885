"""Issue 29 (Agents Secrets twice as fast): what generated effects leave out when it changes
nothing. An event nothing handles is logged without a call; a variable given the value it holds
keeps its table."""
from __future__ import annotations

import pytest

from interpreter.engine.game import Game
from interpreter.lang.codegen import source_of
from tiny_game import write_folder

GAME = """\
game: {name: t, title: Tiny, players: {min: 1, max: 4, default: 2}}
cards:
  coin: {copies: 3, props: {value: 1}, tags: [token]}
zones:
  pile: {}
vars:
  game: {total: {type: int, default: 0}}
  card: {worn: false}
events:
  seen: [n]
  heard: [n]
triggers:
  - 'on heard: total += n'
flow:
  setup: |
    for c in cards do move c to pile end
actions:
  rest:
    effect: |
      emit seen(1)
      emit heard(2)
      for c in pile.cards do c.worn = false end
  wear:
    effect: |
      for c in pile.cards do c.worn = true end
"""


@pytest.fixture(scope="module")
def game(tmp_path_factory):
    return Game.load(str(write_folder(tmp_path_factory.mktemp("shortcuts"), GAME)))


def test_an_event_nothing_handles_is_logged_with_its_cause_and_nothing_is_called(game):
    source = source_of(game.m.action_by_name["rest"].effect)
    # one dispatch only: `heard`, which a trigger handles (its handlers' events have it for cause)
    assert source.count("ctx.cause = _len(ctx.causes) - 1") == 1
    st = game.new_game(1)
    step = game.apply_in_place(st, "rest")
    assert [e for e in step.events if e[0] in ("seen", "heard")] == [("seen", [1]), ("heard", [2])]
    assert step.causes[:2] == [None, None]
    assert game.evaluate(st, "total") == 2  # the handled event still runs its trigger


def test_a_variable_given_the_value_it_holds_keeps_its_table(game):
    st = game.new_game(1)
    before = st["cv"]["worn"]
    game.apply_in_place(st, "rest")  # every coin's `worn` set to false, which it is
    assert st["cv"]["worn"] is before
    game.apply_in_place(st, "wear")
    assert st["cv"]["worn"] is not before
    assert game.evaluate(st, "[c.worn for c in pile.cards]") == [True, True, True]
    assert before == (False,) * len(before)  # a clone sharing the old table never sees the change

