"""The variable of a comprehension or an aggregate (`[x for c in xs]`, `sum(... for c in xs)`) is
the loop's own: a name outside with the same spelling (an action's parameter, a `let` local, a
function's parameter) is the same after the loop as before, as a `where` inside another one has
its own `it` (docs/language.md, Collections). It used to share the outer name's slot: after
`length([c for c in cells where ...])` the parameter `c` was the last cell of the loop."""
from __future__ import annotations

from interpreter.engine.game import Game

GAME = """\
game: {name: shadow, players: {min: 2, max: 2, default: 2}}
board:
  grid:
    columns: 3
    rows:
      - {rows: 1-3}
vars:
  player:
    score: 0
    seen: 0
    total: 0
functions:
  rows_below:               # its parameter and its aggregate's variable are both `c`
    params: [c]
    expr: sum(c.row for c in cells where c.column == 1) * 10 + c.row
actions:
  pick:
    params:
      c: cells
    require: ["c.row == 1 and length([c for c in cells where c.row == 3]) > 0 and c.row == 1"]
    effect: |
      me.seen = length([c for c in cells where c.row == 3])
      me.score = c.row
      me.total = rows_below(c)
  local:
    effect: |
      let c = cell(2, 2)
      me.seen = count(c.row == 3 for c in cells)
      me.score = c.row
  in_place:                 # the function compiled in place (its argument reads the loop's variable)
    effect: me.total = sum(rows_below(x) for x in [cell(1, 2)])
  end_turn: {effect: finish turn}
"""


def test_a_comprehension_leaves_a_parameter_of_the_same_name_alone(write_game):
    game = Game.load(str(write_game(GAME)))
    st = game.new_game(0)
    picks = [str(a) for a in game.legal_actions(st) if a.name == "pick"]
    assert picks == ["pick r1c1", "pick r1c2", "pick r1c3"]  # the requirement reads the parameter after the loop
    game.apply_in_place(st, "pick r1c2")
    assert st["pv"]["seen"][0] == 3
    assert st["pv"]["score"][0] == 1  # the parameter, not the last cell of the loop (row 3)
    assert st["pv"]["total"][0] == (1 + 2 + 3) * 10 + 1  # inside the function: the loop's c, then its parameter


def test_a_comprehension_leaves_a_local_of_the_same_name_alone(write_game):
    game = Game.load(str(write_game(GAME)))
    st = game.new_game(0)
    game.apply_in_place(st, "local")
    assert st["pv"]["seen"][0] == 3
    assert st["pv"]["score"][0] == 2


def test_an_aggregate_in_a_function_compiled_in_place_has_its_own_variable(write_game):
    """rows_below(x) in a loop is written in place, its parameter `c` standing for the argument's
    text: the aggregate's `c` inside it is still the aggregate's item (it read the argument)."""
    game = Game.load(str(write_game(GAME)))
    st = game.new_game(0)
    game.apply_in_place(st, "in_place")
    assert st["pv"]["total"][0] == (1 + 2 + 3) * 10 + 1


def test_a_where_in_a_function_compiled_in_place_keeps_its_own_it(write_game):
    """A function whose parameter is named `it`, written in place in a loop: the `where` inside
    it still reads its own item as `it` (it read the function's argument), and the parameter
    is the argument again after the `where`."""
    text = GAME.replace("functions:\n", "functions:\n  in_row_one:\n    params: [it]\n"
                        "    expr: length(cells where it.row == 1) * 10 + it.row\n")
    text = text.replace("  end_turn:", "  it_in_place: {effect: \"me.total = sum(in_row_one(x) for x in [cell(2, 2)])\"}\n"
                        "  end_turn:")
    game = Game.load(str(write_game(text)))
    st = game.new_game(0)
    game.apply_in_place(st, "it_in_place")
    assert st["pv"]["total"][0] == 3 * 10 + 2
