"""Issue 12, item 3: run-time budgets. Rules that would run for ever or fill the memory end with a
rule error at the rule's file:line:col naming the budget, exit 1; so do rules that recurse without
end, reached from an engine event as well as from an action."""
from __future__ import annotations

import pytest

from interpreter.engine.game import Game
from interpreter.errors import RuleRuntimeError
from interpreter.limits import BudgetExceeded
from tests.hardening import BASE, POSITION, game_dir, interpret

FIB = 'functions:\n  fib: {params: [n], expr: "n if n < 2 else fib(n - 1) + fib(n - 2)"}\n'


def on_round_start(effect: str, more: str = "") -> str:
    return more + f'triggers:\n  - "on round_start: {effect}"\n'


CASES = {
    "repeat 1e12": (on_round_start("repeat 1000000000000 times pass end"), "limit `repeat`"),
    "draw 1e12": (on_round_start("draw 1000000000000 from deck to discard"), "budget `steps`"),
    "draws that cycle": (on_round_start("repeat 100000 times draw 100 from deck to discard end"), "budget `steps`"),
    "fib(40)": (on_round_start("x = fib(40)", FIB), "budget `steps`"),
    "nested repeats": (on_round_start("repeat 1000 times repeat 1000 times repeat 1000 times pass end end end"),
                       "budget `steps`"),
    "long range": (on_round_start("x = length(range(1, 2000000000))"), "limit `collection`"),
    "list times 3e9": (on_round_start("lst = [1] * 3000000000"), "limit `collection`"),
    "text times 3e9": (on_round_start('lst = [\\"ab\\" * 3000000000]'), "limit `collection`"),
    "list doubled 40 times": (on_round_start("lst = [1]; repeat 40 times lst = lst + lst end"), "limit `collection`"),
    "list doubled by +=": (on_round_start("lst = [1]; repeat 40 times lst += lst end"), "limit `collection`"),
    "number squared 40 times": (on_round_start("x = 2; repeat 40 times x = x * x end"), "limit `number`"),
    "for over a long comprehension": (on_round_start(
        "for a in range(1, 1000000) do for b in range(1, 1000000) do pass end end"), "budget `steps`"),
    "sum over nested aggregates": (on_round_start(
        "x = sum(sum(b for b in range(1, 100000)) for a in range(1, 100000))"), "budget `steps`"),
    "recursive function": (on_round_start("x = f(1)", 'functions:\n  f: {params: [n], expr: "f(n + 1)"}\n'),
                           "recurse"),
    "events that trigger each other": (
        'events: {ping: [], pong: []}\ntriggers:\n  - "on ping: emit pong()"\n  - "on pong: emit ping()"\n'
        '  - "on round_start: emit ping()"\n', "recurse"),
    "procedure calling itself from a trigger": (
        'procedures:\n  p: {params: [], effect: "do p()"}\ntriggers:\n  - "on turn_start: do p()"\n', "recurse"),
}


@pytest.mark.parametrize("name", list(CASES))
def test_runaway_rules_end_with_a_positioned_error(tmp_path, capsys, name):
    extra, says = CASES[name]
    root = game_dir(tmp_path, extra)
    code, out, err = interpret(capsys, "validate", root)
    assert code == 0, err
    code, out, err = interpret(capsys, "play", root, "--auto", "--seed", "1", "-q", seconds=10)
    assert code == 1, err
    assert says in err and POSITION.search(err), err


def test_the_budget_error_names_the_budget_and_the_rule(tmp_path):
    game = Game.load(str(game_dir(tmp_path, on_round_start("repeat 1000 times repeat 1000 times repeat 1000 times pass end end end"))))
    with pytest.raises(BudgetExceeded) as info:
        game.new_game(seed=1)
    assert info.value.budget == "steps"
    assert info.value.location is not None and info.value.location.line == len(BASE.splitlines()) + 2


def test_a_game_can_lower_its_step_budget(tmp_path):
    loop = on_round_start("repeat 500 times pass end")
    Game.load(str(game_dir(tmp_path, loop))).new_game(seed=1)  # within the default budget
    low = BASE.replace("max: 3}", "max: 3}, limits: {steps: 100}")
    game = Game.load(str(game_dir(tmp_path, loop, base=low, name="low")))
    with pytest.raises(BudgetExceeded, match="100 steps"):
        game.new_game(seed=1)


def test_the_budget_is_per_decision(tmp_path):
    """Many decisions that each spend part of the budget play on: the budget is not for the game."""
    low = BASE.replace("max: 3}", "max: 3}, limits: {steps: 3000}").replace(
        'end: "if round >= 3 then finish game end"', 'end: "if round >= 40 then finish game end"')
    game = Game.load(str(game_dir(tmp_path, on_round_start("repeat 1000 times pass end"), base=low)))
    st = game.new_game(seed=1)
    while not game.is_terminal(st):
        st = game.apply(st, game.legal_actions(st)[0])
    assert st["flow"]["round"] == 40


def test_recursion_reached_from_an_action_is_a_rule_error_too(tmp_path):
    extra = 'functions:\n  f: {params: [n], expr: "f(n + 1)"}\n'
    base = BASE.replace("noop: {effect: finish turn}", "noop: {effect: \"x = f(1)\"}")
    game = Game.load(str(game_dir(tmp_path, extra, base=base)))
    st = game.new_game(seed=1)
    with pytest.raises(RuleRuntimeError, match="recurse") as info:
        game.apply(st, "noop")
    assert info.value.location is not None and info.value.location.line > 0


def test_listing_a_product_of_parameters_spends_the_budget(tmp_path):
    """Three parameters of 300 values each are 27 million bindings to list: over the budget."""
    base = BASE.replace("actions:\n", 'actions:\n  pick:\n    params: {a: "range(1, 300)", b: "range(1, 300)", '
                                      'c: "range(1, 300)"}\n    effect: pass\n')
    game = Game.load(str(game_dir(tmp_path, base=base)))
    with pytest.raises(BudgetExceeded, match="budget `steps`") as info:
        game.new_game(seed=1)
    assert info.value.location is not None
