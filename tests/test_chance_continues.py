"""Explicit chance without running decisions again (issue 33, item 8): a decision stopped at a
draw continues from where it stopped once the outcome is chosen, in a greenlet of its own
(engine/chance.py, engine/suspend.py), and gives exactly what running it again from its start
gives (a copy of the node, another process or thread, greenlet missing)."""
from __future__ import annotations

import contextvars
import copy
import gc
import os
import pickle
import random
import re
import threading
import weakref

import pytest

from interpreter.core.state import from_json, to_json
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


THREE = """
game: {name: three}
vars: {game: {a: 0, b: 0, c: 0}}
actions:
  roll:
    effect: |
      a = random(6)
      b = a * 10 + random(5)
      c = b * 10 + random(4)
  stay: {effect: a = a + 1}
"""


def _rolled(game: Game, st, outcomes) -> dict:
    """`st` after `roll` and its three outcomes, each applied to a copy (Game.apply)."""
    return _answered(game, game.apply(st, "roll"), outcomes)


def _waiting(game: Game):
    """A state of THREE at the first draw of `roll`, waiting in its greenlet (the game taught
    that `roll` draws)."""
    _rolled(game, game.new_game(0, chance="explicit"), [0, 0, 0])
    st = game.apply(game.new_game(0, chance="explicit"), "roll")
    assert game_chance.node(st).waiting is not None
    return st


def _answered(game: Game, st, outcomes) -> dict:
    """`st`, at a chance node, after `outcomes`, each applied to a copy (Game.apply)."""
    for k in outcomes:
        assert game.is_chance(st)
        st = game.apply(st, f"chance {k}")
    assert not game.is_chance(st)
    return st


def test_a_decision_with_three_draws_runs_once(make_game, monkeypatch):
    """A decision stops at each of its three draws (rules run between them): once its name is known
    to draw, it runs once, each outcome continuing it (the first of its name runs to its first draw,
    then once again from its start at that outcome, going on from there). Without greenlet it runs
    to its first draw, then again from its start at each outcome (four runs), to the same state."""
    game = make_game(THREE)
    runs = _counted(game)
    first = _rolled(game, game.new_game(0, chance="explicit"), [4, 3, 2])
    assert runs.count("a") == 2 and first["gv"]["c"] == 432
    st = _rolled(game, game.new_game(0, chance="explicit"), [4, 3, 2])
    assert runs.count("a") == 2 + 1 and to_json(st) == to_json(first)
    monkeypatch.setattr(suspend, "_greenlet", None)
    again = _rolled(game, game.new_game(0, chance="explicit"), [4, 3, 2])
    assert runs.count("a") == 3 + 4 and to_json(again) == to_json(st)


def test_a_decision_that_never_drew_runs_in_place(make_game):
    """A switch into a greenlet and back costs a decision that never draws for nothing: only the
    setup and decisions whose name drew before start in one."""
    game = make_game(THREE)
    started = []
    start = suspend.start
    suspend.start = lambda fn, work: (started.append(1), start(fn, work))[1]
    try:
        st = game.new_game(0, chance="explicit")
        setup = len(started)
        for _ in range(3):
            st = game.apply(st, "stay")
        assert len(started) == setup == 1 and game.evaluate(st, "a") == 3
        st = _rolled(game, _rolled(game, st, [1, 1, 1]), [2, 2, 2])
        assert len(started) == setup + 2
    finally:
        suspend.start = start


def test_every_decision_runs_once_in_random_explicit_games():
    """Leduc's setup deals two cards and a decision ending a round deals the public card; Agents
    Secrets' round ends shuffle several piles: once a few games taught which decisions draw, in
    random explicit games each decision (and each setup) runs once, however many draws it makes."""
    for name, players, games in (("leduc-poker", None, 30), ("agents-secrets", 6, 1)):
        game = Game.load(name, players=players)
        pick, decisions, nodes = random.Random(3), 0, 0
        for seed in range(100, 100 + games // 3 + 1):
            _play(game, game.new_game(seed, chance="explicit"), pick)
        runs = _counted(game)
        for seed in range(games):
            played = _play(game, game.new_game(seed, chance="explicit"), pick)
            decisions, nodes = decisions + played[0], nodes + played[1]
        assert nodes > games and runs.count("s") == games and runs.count("a") == decisions, name


def test_without_greenlet_decisions_run_again_to_the_same_states(monkeypatch):
    """Where greenlet is not installed, a decision stopped at a draw runs again from its start at
    each outcome: the same states, move after move, more runs of the rules."""
    game = Game.load("agents-secrets", players=6)

    def walk() -> tuple[list, int]:
        runs = _counted(game)
        st, pick, seen = game.new_game(2, chance="explicit"), random.Random(2), []
        while not game.is_terminal(st):
            if game.is_chance(st):
                game.apply_in_place(st, f"chance {pick.randrange(len(game.chance_outcomes(st)))}")
            else:
                game.apply_in_place(st, pick.choice(game.legal_actions(st)))
            seen.append(to_json(st))
        del game._start, game._apply_plain
        return seen, len(runs)

    continued, runs = walk()
    monkeypatch.setattr(suspend, "_greenlet", None)
    again, more = walk()
    assert again == continued and more > runs


def test_a_node_written_out_and_read_back_runs_its_decision_again(make_game):
    """A state at a chance node written out (to_json) and read back has no greenlet: the next
    outcome runs the decision again from its start (once: it goes on from its next draw), to the
    state the original continues to without running again."""
    game = make_game(THREE)
    st = game.apply(_waiting(game), "chance 5")
    copy = from_json(to_json(st))
    runs = _counted(game)
    for k in (1, 3):
        st, copy = game.apply(st, f"chance {k}"), game.apply(copy, f"chance {k}")
    assert runs.count("a") == 1 and to_json(copy) == to_json(st) and st["gv"]["c"] == 513


def test_a_node_pickled_runs_its_decision_again_and_a_deep_copy_shares_it(make_game):
    """A state at a chance node pickled (another process's copy) carries the node's data, not its
    greenlet: it runs the decision again, to the same state; a deep copy shares the greenlet."""
    game = make_game(THREE)
    st = _waiting(game)
    copied = copy.deepcopy(st)
    assert game_chance.node(copied).waiting is game_chance.node(st).waiting
    read = pickle.loads(pickle.dumps(st))
    runs = _counted(game)
    assert to_json(_answered(game, read, [1, 2, 3])) == to_json(_answered(game, copied, [1, 2, 3]))
    assert runs.count("a") == 1  # the one read back; the deep copy took the greenlet


def test_a_node_in_another_process_or_thread_runs_its_decision_again(make_game):
    """The greenlet belongs to the thread and the process the decision started in: applying an
    outcome in a forked child, or in another thread, runs the decision again (once: it goes on
    from its next draw there), to the same state."""
    game = make_game(THREE)
    st = _waiting(game)
    want = to_json(_rolled(game, game.new_game(0, chance="explicit"), [2, 1, 0]))
    runs = _counted(game)
    pid = os.fork()
    if pid == 0:  # the child: exit 0 when it ran the decision again to the same state
        ok = False
        try:
            ok = to_json(_answered(game, st, [2, 1, 0])) == want and runs.count("a") == 1
        finally:
            os._exit(0 if ok else 1)
    assert os.waitpid(pid, 0)[1] == 0
    got = []
    thread = threading.Thread(target=lambda: got.append(to_json(_answered(game, st, [2, 1, 0]))))
    thread.start()
    thread.join()
    assert got == [want] and runs.count("a") == 1


def test_a_decision_sees_the_context_of_whoever_started_it():
    """Context variables (the language spoken, ...) inside a decision are those of its caller when
    it started, continued or not; what it sets stays its own."""
    var = contextvars.ContextVar("test_chance_var", default="none")
    token = var.set("at the start")
    seen = []
    work = {"_feed": Feed([])}

    def decide():
        seen.append(var.get())
        var.set("inside")
        work["_feed"].next(2, "a coin")
        seen.append(var.get())
        return "done"

    try:
        need, draws, waiting = suspend.start(decide, work)
        assert var.get() == "at the start"
        var.set("later")
        assert waiting.take() and waiting.resume([1]) == ("done", "done")
        assert seen == ["at the start", "inside"] and var.get() == "later"
    finally:
        var.reset(token)


def test_a_dropped_node_unwinds_its_decision_and_gives_its_greenlet_back():
    """A decision waiting at a draw no state can reach any more (a search dropped its node) is
    unwound (its `finally` blocks run, what it held is freed) and its greenlet runs the next
    decision."""
    class Held:
        pass

    ran, held, workers = [], [], []

    def decide(work):
        import greenlet
        workers.append(greenlet.getcurrent())
        thing = Held()
        held.append(weakref.ref(thing))
        try:
            return work["_feed"].next(2, "a coin")
        finally:
            ran.append("finally")

    first = {"_feed": Feed([])}
    answer = suspend.start(lambda: decide(first), first)
    assert answer[0] == "need" and ran == []
    del answer
    gc.collect()
    second = {"_feed": Feed([1])}
    assert suspend.start(lambda: decide(second), second) == ("done", 1)
    assert ran == ["finally", "finally"] and held[0]() is None and workers[0] is workers[1]


def test_a_continued_decision_and_one_run_again_give_the_same_state():
    """Two copies of a chance node: the first continues the waiting decision, the second runs it
    again from its start (the node's greenlet is taken); both, played on alike, stay equal."""
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


def test_an_error_after_a_draw_reaches_whoever_applied_the_outcome():
    """A decision waiting in its greenlet that fails once it goes on: the error is raised to the
    caller that gave the outcome, as it would be without the greenlet."""
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


def test_a_secret_choice_only_recorded_runs_in_place():
    """A secret choice that is not the last of its step is only recorded (no rule runs, so it
    draws nothing): in explicit chance it is done in place, as in sampled chance, without a copy
    of the state or a greenlet; it gives the state the whole decision gives (verified, on a copy)."""
    game = Game.load("agents-secrets", players=6)
    started = []
    start = suspend.start
    suspend.start = lambda fn, work: (started.append(1), start(fn, work))[1]
    try:
        pick, in_place = random.Random(5), 0
        for seed in range(2):
            st = game.new_game(seed, chance="explicit")
            while not game.is_terminal(st):
                if game.is_chance(st):
                    game.apply_in_place(st, f"chance {pick.randrange(len(game.chance_outcomes(st)))}")
                    continue
                action = pick.choice(game.legal_actions(st))
                sim = st["flow"].get("sim")
                recorded = bool(sim) and not st["pending"] and len(sim["chosen"]) + 1 < len(sim["seats"])
                verified = game.apply(st, str(action))  # checked, on a copy: the whole decision
                zones, before = st["z"], len(started)
                game.apply_in_place(st, action, checked=False)
                if recorded:
                    in_place += 1
                    assert st["z"] is zones and len(started) == before
                if not game.is_chance(st):
                    assert to_json(st) == to_json(verified)
        assert in_place > 50
    finally:
        suspend.start = start


def test_a_shuffle_takes_its_outcomes_once_known():
    """In explicit chance a shuffle of n items announces its n - 1 draws at once (one chance node
    each, their texts written then) and, their outcomes known, takes them in order without a
    draw each: the order is Fisher-Yates' with those outcomes, as before."""
    from interpreter.runtime import draws
    game = Game.load("agents-secrets", players=6)
    called = []
    below = draws.below
    draws.below = lambda *a: (called.append(a), below(*a))[1]
    try:
        st = game.new_game(0, chance="explicit")
        whats, outcomes = [], []
        while game.is_chance(st):
            nd = game_chance.node(st)
            whats.append(nd["what"])
            outcomes.append(nd["n"] - 1)  # the last item each time: a known order
            st = game.apply(st, f"chance {nd['n'] - 1}")
    finally:
        draws.below = below
    shuffles = [w for w in whats if w.startswith("shuffle ")]
    assert len(shuffles) > 30 and not [a for a in called if a[2].startswith("shuffle ")]
    assert all(re.fullmatch(r"shuffle .+: the item for place (\d+) of (\d+)", w) for w in shuffles)
    items = list(range(5))
    feed = Feed([4, 3, 2, 1])
    ctx = type("Ctx", (), {"st": {"_feed": feed, "forced": []}})()
    draws.shuffle_list(ctx, items, "five")
    assert items == [0, 1, 2, 3, 4] and feed.i == 4  # each draw picked the item already in place
    items, feed = list(range(5)), Feed([0, 0, 0, 0])
    ctx.st = {"_feed": feed, "forced": []}
    draws.shuffle_list(ctx, items, "five")
    assert items == [1, 2, 3, 4, 0]


def test_a_shuffle_of_no_item_or_one_takes_no_outcome():
    """Shuffling an empty pile or a pile of one draws nothing in explicit chance: the next draw of
    the decision gets the next outcome, not one already taken."""
    from interpreter.runtime import draws
    for items in ([], [7]):
        feed = Feed([2, 5])
        feed.i = 1
        ctx = type("Ctx", (), {"st": {"_feed": feed, "forced": []}})()
        before = list(items)
        draws.shuffle_list(ctx, items, "a pile")
        assert feed.i == 1 and items == before
        assert draws.below(ctx, 6, "a die") == 5

