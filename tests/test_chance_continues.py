"""Explicit chance without running decisions again (issue 33, item 8): a decision stopped at a
`random(n)` draw continues from where it stopped once the outcome is chosen (engine/chance.py,
engine/suspend.py), and gives exactly what running it again from its start gives."""
from __future__ import annotations

import gc
import random

import pytest

from interpreter.core.state import to_json
from interpreter.engine import chance as game_chance
from interpreter.engine import suspend
from interpreter.engine.game import Game
from interpreter.runtime.draws import Feed


def _counted(game: Game) -> list:
    """The runs of the game's rules from their start: the setup ("s"), a decision ("a")."""
    runs = []
    start, plain = game._start, game._apply_plain
    game._start = lambda st: (runs.append("s"), start(st))[1]
    game._apply_plain = lambda *a: (runs.append("a"), plain(*a))[1]
    return runs


def _play(game: Game, st, pick: random.Random) -> tuple[int, int]:
    """Play `st` to its end at random: (decisions, chance nodes)."""
    decisions = nodes = 0
    while not game.is_terminal(st):
        if game.is_chance(st):
            nodes += 1
            game.apply_in_place(st, f"chance {pick.randrange(len(game.chance_outcomes(st)))}")
        else:
            decisions += 1
            game.apply_in_place(st, pick.choice(game.legal_actions(st)))
    return decisions, nodes


def test_leduc_decisions_that_draw_once_run_again_rather_than_wait_in_a_thread():
    """Leduc deals each card with `random(length(cards))`; a decision that deals the public card
    draws once: a thread could spare it nothing (it runs again once either way) and its hand-offs
    cost more than the decision, so it runs again at its draw, never in a thread (engine/chance.py's
    _Tally). The setup deals two cards: it runs two or three times. When decisions named like those
    that drew half of the times started in a thread, those decisions ran once."""
    game = Game.load("leduc-poker")
    runs = _counted(game)
    stops = []
    stop = game_chance._stop
    game_chance._stop = lambda st, do, outcomes, draws, waiting: (stops.append(do), stop(st, do, outcomes, draws, waiting))[1]
    pick = random.Random(3)
    games, decisions = 40, 0
    try:
        for _ in range(games):
            decisions += _play(game, game.new_game(0, chance="explicit"), pick)[0]
    finally:
        game_chance._stop = stop
    again = runs.count("a") - decisions
    dealt = sum(do is not None for do in stops)
    assert dealt > games // 4 and again == dealt, (again, dealt)
    assert 2 * games <= runs.count("s") <= 3 * games


def test_a_costly_decision_that_draws_again_and_again_continues_in_a_thread():
    """Agents Secrets: one seat's choice in six ends the round, whose rules shuffle several small
    piles one after the other (a stop each) and cost far more than a thread's hand-off: such a
    decision, once known, continues from each draw instead of running again at each (engine/
    chance.py's _Tally). Before, every choice of that name ran again at each of its stops."""
    game = Game.load("agents-secrets", players=6)
    pick = random.Random(5)
    _play(game, game.new_game(0, chance="explicit"), pick)  # what its decisions cost, learnt
    runs = _counted(game)
    stops = []
    stop = game_chance._stop
    game_chance._stop = lambda st, do, outcomes, draws, waiting: (stops.append(waiting), stop(st, do, outcomes, draws, waiting))[1]
    try:
        decisions = _play(game, game.new_game(1, chance="explicit"), pick)[0]
    finally:
        game_chance._stop = stop
    again = runs.count("a") - decisions
    assert len(stops) > 25 and again <= len(stops) // 3, (again, len(stops))


def test_a_continued_decision_and_one_run_again_give_the_same_state():
    """Two copies of a chance node: the first continues the waiting decision, the second runs it
    again from its start (the node's thread is taken); both, played on alike, stay equal."""
    game = Game.load("leduc-poker")
    for seed in range(6):
        first = game.new_game(0, chance="explicit")
        second = Game.apply(game, first, "chance 0")  # a copy: takes the thread
        third = Game.apply(game, first, "chance 0")  # runs the setup again
        assert to_json(second) == to_json(third)
        pick_a, pick_b = random.Random(seed), random.Random(seed)
        _play(game, second, pick_a)
        _play(game, third, pick_b)
        assert to_json(second) == to_json(third) and game.is_terminal(second)


def test_a_dropped_chance_node_gives_its_thread_back():
    """States left at a chance node whose decision waits in a thread (a search that drops them)
    do not hold threads for ever: after many were dropped, a decision may still have one."""
    game = Game.load("agents-secrets", players=6)
    _play(game, game.new_game(0, chance="explicit"), random.Random(4))  # learnt: its round ends go on in a thread
    pick = random.Random(5)
    for seed in range(suspend.MAX_WAITING + 4):
        st = game.new_game(seed, chance="explicit")
        while getattr(game_chance.node(st), "waiting", None) is None:  # to a round end waiting at a draw
            if game.is_chance(st):
                game.apply_in_place(st, f"chance {pick.randrange(len(game.chance_outcomes(st)))}")
            else:
                game.apply_in_place(st, pick.choice(game.legal_actions(st)))
        del st
    gc.collect()
    work = {"_feed": Feed([])}
    answer = suspend.start(lambda: work["_feed"].next(2, "a coin"), work)
    assert answer is not None and answer[0] == "need"
    answer[2].take()
    assert answer[2].resume([1]) == ("done", 1)


def test_an_error_after_a_draw_reaches_whoever_applied_the_outcome():
    """A decision waiting in its thread that fails once it goes on: the error is raised to the
    caller that gave the outcome, as it would be without the thread."""
    work = {"_feed": Feed([])}

    def decide():
        k = work["_feed"].next(6, "a die")
        raise ValueError(f"rolled {k}")

    need, draws, waiting = suspend.start(decide, work)
    assert need == "need" and draws == [[6, "a die"]]
    assert waiting.take() and not waiting.take()  # one caller only goes on with it
    with pytest.raises(ValueError, match="rolled 4"):
        waiting.resume([4])


def test_a_seat_is_offered_the_same_ids_whichever_copy_of_a_piece_it_holds():
    """Two states that differ only by which copy of an identical piece a seat holds (it cannot
    tell them apart) offer it the same action ids, and each id plays the copy that state holds:
    OpenSpiel's ISMCTSBot keys its tree by information state and met two action sets otherwise."""
    pyspiel = pytest.importorskip("pyspiel")
    import interpreter.adapters.openspiel as adapter
    from interpreter.core.state import clone
    from interpreter.information.observation import relabel
    game = pyspiel.load_game("interpret(game=agents-secrets,players=6)")
    g, canon = game.interpret, game.canon
    state, pick = game.new_initial_state(), random.Random(2)
    while state.is_chance_node():
        state.apply_action(pick.choice(state.legal_actions()))
    st, seat = state._st, state.current_player()
    held = {c for a in g.legal_actions(st) for c in a.args if c in canon.copy_keys}
    cid = canon.cid_of[sorted(held)[0]]
    hidden = next(o for o in canon.groups[canon.group_of[cid]]
                  if st["loc"][o] >= 0 and g.catalog.zones[st["loc"][o]].visibility == "hidden")
    other = adapter.InterpretState(game, relabel(g, clone(st), {cid: hidden, hidden: cid}))
    assert other._st["loc"][hidden] == st["loc"][cid]  # the other copy is the one held there
    assert other.legal_actions() == state.legal_actions()
    a = next(i for i in state.legal_actions() if canon.keys[cid] in str(state._box.listed[i]))
    assert canon.keys[hidden] in str(other._box.listed[a])
    # an engine agent's own action (the copy the state holds) has that same id
    assert state.id_of_action(state._box.listed[a]) == other.id_of_action(other._box.listed[a]) == a
    with pytest.raises(ValueError):
        state.id_of_action(other._box.listed[a])  # the copy this state does not hold there
