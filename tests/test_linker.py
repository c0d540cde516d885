"""The linker's fast paths (issue 9): a function that cards modify is one generated function
(its value, then its modifiers in card order under their conditions), the same in value, budget
and error positions as the closures kept for an observer (coverage). Each test was seen failing
with its feature switched off."""
from __future__ import annotations

import pytest

from interpreter.runtime import context as rt
from interpreter.scenarios.coverage import Recorder
from interpreter.lang.codegen import source_of
from interpreter.lang.scope import Scope
from interpreter.engine.game import Game, to_json
from interpreter.errors import RuleRuntimeError
from interpreter.ruleset.loader import load_ruleset
from interpreter.definition.build import build_definition
from interpreter.ruleset.yamlio import SourceText
from tests.test_card_powers import to_hand

MODIFIED = """\
game: {name: t, players: {min: 2, max: 2, default: 2}}
zones:
  hand: {per_player: true}
  pile: {}
functions:
  income:
    params: [base]
    modifiable: true
    expr: "sum(x for x in [base, 0])"
procedures:
  pay:
    params: [n]
    effect: me.gold += income(n)
vars:
  player:
    gold: 0
cards:
  doubler:
    start: pile
    while: this in me.hand
    powers:
      - modify: income
        value: value * 2
  adder:
    copies: 2
    start: pile
    while: this in me.hand
    powers:
      - modify: income
        when: base > 0
        value: value + length([c for c in me.hand.cards where c.name == "adder"])
  breaker:
    start: pile
    powers:
      - modify: income
        when: base == 99
        value: "length([1, 2] where it // 0 > value)"
      - modify: income
        when: base == 98 and base // 0 == 1
        value: value
actions:
  work: {effect: do pay(1)}
  end_turn: {effect: finish turn}
"""


def _games(write_game):
    """The same content compiled twice: generated (no observer) and with closures (an observer)."""
    root = str(write_game(MODIFIED))
    return Game.load(root), Game(build_definition(load_ruleset(root), 2, None, observer=Recorder()))


def _run(game, st, text, me=0):
    """(value, budget spent) of an expression."""
    scope = Scope()
    f = game.m.compiler.expr(SourceText.plain(text, "<expression>"), scope)
    ctx = rt.Ctx(st, game.m, game.m.seats[me])
    ctx.locals = [None] * scope.size
    before = ctx.budget
    value = f(ctx)
    return value, before - ctx.budget


def test_a_modified_function_is_one_generated_function_with_its_modifiers(write_game):
    fast, _ = _games(write_game)
    m = fast.m
    call = m._direct["income"][0]  # called straight from generated code, not through function_caller
    source = source_of(m._functions["income"][0])
    assert call.__code__.co_filename == "<interpret rules>"
    assert source.count("L[1] = v") == 2 * 5  # five modifiers (two copies of adder), in _call and in _expr


@pytest.mark.parametrize("hand", [(), ("doubler",), ("adder#1",), ("doubler", "adder#2"), ("adder#1", "adder#2"),
                                  ("adder#2", "doubler", "adder#1")])
def test_modifiers_keep_their_order_conditions_and_budget(write_game, hand):
    fast, slow = _games(write_game)
    out = []
    for game in (fast, slow):
        st = game.new_game(seed=1)
        for key in hand:
            to_hand(game, st, key)
        values = [_run(game, st, text) for text in ("income(3)", "income(0)", "income(3) + income(3)")]
        game.apply_in_place(st, "work")
        out.append((values, game.evaluate(st, "me.gold", me=0)))
    assert out[0] == out[1]
    if hand == ("adder#2", "doubler", "adder#1"):  # card order: doubler, then each adder (+2 each)
        assert out[0][0][0][0] == 3 * 2 + 2 + 2  # not (3 + 2 + 2) * 2


def test_an_error_in_a_modifier_is_reported_at_the_modifier(write_game):
    fast, slow = _games(write_game)
    where = []
    for game in (fast, slow):
        st = game.new_game(seed=1)
        for text in ("income(99)", "income(98)"):
            with pytest.raises(RuleRuntimeError) as e:
                game.evaluate(st, text, me=0)
            where.append(str(e.value.location))
    assert where[:2] == where[2:]
    lines = MODIFIED.split("\n")
    loop = next(i for i, t in enumerate(lines, 1) if "length([1, 2]" in t)
    when = next(i for i, t in enumerate(lines, 1) if "base // 0" in t)
    # the division by zero in the modifier's loop, in its `when`: a rule error at the `//` itself (issue 32;
    # it was Python's ZeroDivisionError, placed by the guard at the start of the text, columns 17 and 15)
    assert where[0].endswith(f":{loop}:{lines[loop - 1].index('//') + 1}"), where
    assert where[1].endswith(f":{when}:{lines[when - 1].index('//') + 1}"), where


KEYED = """\
game: {name: t, players: {min: 2, max: 2, default: 2}}
zones:
  hand: {per_player: true}
  pile: {}
vars:
  player:
    trace: 0
events:
  poked: [card, n]
cards:
  a:
    start: pile
    powers:
      - rule: "on poked when card == this: me.trace = me.trace * 10 + 1"
  b:
    start: pile
    powers:
      - rule: "on poked when this == card: me.trace = me.trace * 10 + 2"
      - rule: |
          on poked when card == this:
            choose k from [3, 4] prompt "pick"
            me.trace = me.trace * 10 + k
  c:
    start: pile
    while: this in me.hand
    powers:
      - rule: "on poked when card == this: me.trace = me.trace * 10 + 5"
triggers:
  - rule: "on poked when n > 0: me.trace = me.trace * 10 + 6"
actions:
  poke:
    params:
      target: {from: cards}
    effect: emit poked(target, 1)
  poke_list: {effect: "emit poked([1], 0)"}
  end_turn: {effect: finish turn}
"""


def test_card_powers_keyed_on_an_argument_are_looked_up_in_their_order(write_game):
    root = str(write_game(KEYED))
    fast, slow = Game.load(root), Game(build_definition(load_ruleset(root), 2, None, observer=Recorder()))
    m = fast.m
    a, b = m.card_by_key["a"], m.card_by_key["b"]
    slot, table, others = m._by_card(m._handlers["on"]["poked"])
    assert slot == 0 and set(table) == {a, b}  # c has a `while`: its condition is kept
    assert len(others) == 2 and [h.cond is None for h in table[b]] == [True, True, False, False]
    assert slow.m._by_card(slow.m._handlers["on"]["poked"]) is None  # an observer counts every condition
    seen = []
    for game in (fast, slow):
        st = game.new_game(seed=1)
        out = []
        for action in ("poke a", "poke c", "poke b", "choose 4", "poke_list", "end_turn", "poke b", "choose 3"):
            game.apply_in_place(st, action)
            out.append((to_json(st), game.evaluate(st, "seat(1).trace")))
        seen.append(out)
    assert seen[0] == seen[1]
    assert seen[0][3][1] == 166246  # a: 1, the rules' 6; c (not in hand): 6; b: 2, its choice 4, 6


INLINED = """\
game: {name: t, players: {min: 2, max: 2, default: 2}}
zones:
  pile: {}
cards:
  coin: {copies: 3, start: pile}
functions:
  coins_in:                  # a loop: called, remembered while the state cannot change
    params: [z]
    expr: length(z.cards where it.name == "coin")
  some:                      # small, calling it: compiled in place, the call kept
    params: [z]
    expr: coins_in(z) == 3 or coins_in(z) == 0
  lucky:                     # calls a function that rolls: never in place
    params: [z]
    expr: coins_in(z) > chance()
  chance:
    params: []
    expr: roll(6)
  loop:                      # calls itself: never in place
    params: [n]
    expr: 0 if n <= 0 else loop(n - 1)
actions:
  end_turn:
    require:
      - check: some(pile) and loop(2) == 0
    effect: finish turn
"""


def test_a_small_function_calling_a_pure_one_is_compiled_in_place(make_game):
    game = make_game(INLINED)
    m = game.m
    assert m.inline_body("some") is not None and m.inline_body("coins_in") is None
    assert m.inline_body("lucky") is None and m.inline_body("loop") is None
    text = source_of(game.m.compiler.expr(SourceText.plain("some(pile)", "<expression>"), Scope()))
    assert "coins_in" not in text and text.count("[0](ctx,") == 2  # some's text: two calls of coins_in
    st = game.new_game(seed=1)
    assert game.evaluate(st, "some(pile)") is True and [str(a) for a in game.legal_actions(st)] == ["end_turn"]


def test_a_variable_whose_default_is_a_number_holds_a_number_however_its_yaml_is_written(make_game):
    game = make_game("""\
game: {name: t, players: {min: 2, max: 2, default: 2}}
zones:
  pile: {}
vars:
  player:
    plain: 0
    mapped: {default: 0, reset: turn}
    flow: {default: 3}
actions:
  end_turn: {effect: "me.flow += 1\\nfinish turn"}
""")
    m = game.m
    assert {n: m.pvars[n]["type"] for n in ("plain", "mapped", "flow")} == {"plain": "int", "mapped": "int", "flow": "int"}
    assert m.var_codec("pv", "mapped") == (None, None)  # stored and read as they are: no encoding
    st = game.new_game(seed=1)
    game.apply_in_place(st, "end_turn")
    assert game.evaluate(st, "seat(1).flow") == 4
