"""Our games as first-class OpenSpiel games (issue 33): what research tools read of a game's type,
its states and its information states, checked against OpenSpiel's native games and algorithms."""
from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")
import interpreter.adapters.openspiel  # noqa: E402,F401  (registers "interpret")

PENNIES = Path(__file__).parent / "fixtures" / "pennies"


def _load(params: str):
    return pyspiel.load_game(f"interpret({params})")


# ---- 1. information type from declared visibility, simultaneous choices included ----------

def _mcts_second_seat_wins(game, *, games: int, seed: int) -> int:
    """Games that OpenSpiel's MCTSBot, playing the second seat, wins against a fair coin. The harness
    does what the game's declared type tells a researcher to do: a perfect-information game hands
    the bot the state; an imperfect one, a state sampled from the bot's information state."""
    from open_spiel.python.algorithms import mcts
    rng = np.random.RandomState(seed)
    perfect = game.get_type().information == pyspiel.GameType.Information.PERFECT_INFORMATION
    coin = random.Random(seed)
    wins = 0
    for _ in range(games):
        bot = mcts.MCTSBot(game, uct_c=2, max_simulations=60,
                           evaluator=mcts.RandomRolloutEvaluator(1, rng), random_state=rng)
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.current_player() == 0:  # an honest first seat: heads or tails, half the time each
                names = {state.action_to_string(0, a): a for a in state.legal_actions()}
                state.apply_action(names[coin.choice(["heads", "tails"])])
            else:
                seen = state if perfect else state.resample_from_infostate(1, pyspiel.UniformProbabilitySampler(0., 1.))
                state.apply_action(bot.step(seen))
        wins += state.returns()[1] > 0
    return wins


def test_a_secret_simultaneous_choice_makes_the_game_imperfect_and_mcts_cannot_read_it():
    game = _load(f"game={PENNIES}")
    assert game.get_type().information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    # an honest second seat wins half the games against a fair coin: 20 of 40 on average, more than
    # 29 about once in a thousand runs; reading the first seat's coin, it would win all 40
    assert _mcts_second_seat_wins(game, games=40, seed=3) <= 29


# ---- 2. utility from content -------------------------------------------------------------

@pytest.mark.parametrize("name", ["tic-tac-toe", "connect-four"])
def test_two_seat_games_are_zero_sum_with_their_utility_range(name):
    game = _load(f"game={name}")
    assert game.get_type().utility == pyspiel.GameType.Utility.ZERO_SUM
    assert (game.min_utility(), game.max_utility(), game.utility_sum()) == (-1.0, 1.0, 0.0)


def test_a_draw_gives_nothing_to_either_seat_and_zero_sum_solvers_accept_the_game():
    from open_spiel.python.algorithms import minimax
    game = _load("game=tic-tac-toe")
    state = game.new_initial_state()
    for cell in ("r1c1", "r2c2", "r1c2", "r1c3", "r3c1", "r2c1", "r2c3", "r3c2", "r3c3"):  # a drawn game
        names = {state.action_to_string(state.current_player(), a): a for a in state.legal_actions()}
        state.apply_action(names[f"play {cell}"])
    assert state.is_terminal() and state.returns() == [0.0, 0.0]
    # alpha-beta asks for a two-seat zero-sum game: tic-tac-toe is a draw, as on the native game
    assert minimax.alpha_beta_search(game)[0] == 0.0


# ---- 3. canonical state strings ----------------------------------------------------------

def test_tic_tac_toe_as_content_has_the_states_of_the_native_game():
    from open_spiel.python.algorithms import get_all_states

    def count(game):
        return len(get_all_states.get_all_states(game, depth_limit=-1, include_terminals=True,
                                                 include_chance_states=False, to_string=str))
    native = count(pyspiel.load_game("tic_tac_toe"))
    assert native == 5478
    assert count(_load("game=tic-tac-toe")) == native
