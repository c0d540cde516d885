"""What a finished game is worth is the content's to say (`scoring.payoff`): in poker the chips, not
the hand won. Kuhn poker declares `payoff: score` (ruling P8), so the bots play for the most chips
they can expect: holding the jack, the lowest card, facing a bet, `hard` and `normal` fold (losing 1
chip) where a bot playing for the hand won calls (losing 2: a call with the jack never wins), and
the adapters return the chips without being told."""
from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from interpreter.agents import bot_seed, make_agent, make_decision
from interpreter.agents.evaluate import Evaluator
from interpreter.core.model import Action
from interpreter.engine.game import Game, clone
from tests.hardening import interpret

CONTENT = Path(__file__).resolve().parent.parent / "content"


def _kuhn(tmp_path=None, *, payoff: bool = True) -> Game:
    """Kuhn poker as bundled, or (payoff=False) the same game without its `payoff` lines."""
    if payoff:
        return Game.load("kuhn-poker")
    root = tmp_path / "kuhn-wins"
    shutil.copytree(CONTENT / "kuhn-poker", root)
    text = (root / "game.yaml").read_text(encoding="utf-8")
    text, n = re.subn(r"\n  payoff(_bound)?: .*", "", text)
    assert n == 2
    (root / "game.yaml").write_text(text, encoding="utf-8")
    return Game.load(str(root))


def _card(game: Game, st, seat: int) -> str:
    return game.observe(st, seat)["zones"][f"hand.p{seat + 1}"]["cards"][0]


def _jack_facing_a_bet(game: Game, count: int) -> list:
    """States where seat 2 holds the jack and seat 1 has bet, from the first seeds that deal it."""
    out = []
    for seed in range(100):
        st = game.new_game(seed=seed)
        if _card(game, st, 1) == "jack":
            game.apply_in_place(st, Action("bet"))
            out.append((seed, st))
            if len(out) == count:
                return out
    raise AssertionError("too few deals")


def _plays(game: Game, spec: str) -> set:
    """What `spec` plays holding the jack facing a bet, over six deals."""
    return {make_agent(spec, bot_seed(seed, 1)).act(make_decision(game, st, 1)).name
            for seed, st in _jack_facing_a_bet(game, 6)}


@pytest.mark.parametrize("spec", ["ismcts:60", "normal"])
def test_a_hopeless_hand_folds_to_a_bet_where_the_chips_are_the_payoff(spec):
    assert _plays(Game.load("kuhn-poker"), spec) == {"fold"}


def test_a_search_playing_for_the_hand_won_calls_with_the_jack(tmp_path):
    # folding never wins the hand, calling never does either: a win-only search calls (and loses 2)
    assert _plays(_kuhn(tmp_path, payoff=False), "ismcts:60") == {"call"}


def test_a_finished_hand_is_worth_its_chips_to_the_search():
    game = Game.load("kuhn-poker")
    ev = Evaluator(game)
    st = _jack_facing_a_bet(game, 1)[0][1]
    folded = clone(st)
    game.apply_in_place(folded, Action("fold"))
    assert game.is_terminal(folded) and game.scores(folded) == [1, -1]
    assert ev.terminal_values(folded) == [0.75, 0.25]  # +-1 chip of a bound of 2: linear
    assert ev.margin(folded, 1) == -2.0  # in chips, as an unfinished hand counts: not a "loss" of 1e6
    called = clone(st)
    game.apply_in_place(called, Action("call"))
    assert ev.terminal_values(called) == [1.0, 0.0]


def test_the_adapters_return_the_chips_as_the_content_declares():
    pyspiel = pytest.importorskip("pyspiel")
    import interpreter.adapters.openspiel  # noqa: F401  (registers the game)
    game = pyspiel.load_game("interpret(game=kuhn-poker)")
    assert (game.min_utility(), game.max_utility()) == (-2.0, 2.0)
    assert game.get_type().utility == pyspiel.GameType.Utility.ZERO_SUM
    wins = pyspiel.load_game("interpret(game=kuhn-poker,returns=win)")  # the parameter still overrides it
    assert (wins.min_utility(), wins.max_utility()) == (-1.0, 1.0)
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    names = {state.action_to_string(state.current_player(), a): a for a in state.legal_actions()}
    state.apply_action(names[next(n for n in names if "bet" in n)])
    names = {state.action_to_string(state.current_player(), a): a for a in state.legal_actions()}
    state.apply_action(names[next(n for n in names if "fold" in n)])
    assert state.is_terminal() and state.returns() == [1.0, -1.0]


def test_a_score_payoff_without_its_bound_is_refused_where_it_is_written(capsys, tmp_path):
    root = tmp_path / "kuhn-unbounded"
    shutil.copytree(CONTENT / "kuhn-poker", root)
    text = (root / "game.yaml").read_text(encoding="utf-8")
    (root / "game.yaml").write_text(re.sub(r"\n  payoff_bound: .*", "", text), encoding="utf-8")
    code, _out, err = interpret(capsys, "validate", str(root))
    assert code == 1 and "payoff_bound" in err and re.search(r"game\.yaml:\d+:\d+: ", err), err
