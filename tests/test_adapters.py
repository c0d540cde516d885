"""The OpenSpiel and PettingZoo adapters (interpreter/adapters/): each library's own test of a
game runs on every bundled game, and OpenSpiel's MCTS bot plays tic-tac-toe through the adapter."""
from __future__ import annotations

import random

import numpy as np
import pytest

from interpreter.engine.game import Game
from interpreter.adapters.action_index import ActionIndex, ActionSpaceError
from interpreter.core.model import Action

GAMES = [("tic-tac-toe", ""), ("connect-four", ""), ("agents-secrets", "players=6"),
         ("dark-agent", "players=4"), ("dark-agent", "players=4,variants=hidden-cards"),
         ("agent-dog", "")]


@pytest.mark.parametrize("name,kw", [("dark-agent", {}), ("agent-dog", {}), ("agents-secrets", {"players": 6}),
                                     ("connect-four", {})])
def test_action_index_numbers_every_legal_action_both_ways(name, kw):
    g = Game.load(name, **kw)
    ix = ActionIndex(g)
    st = g.new_game(99)  # a game the index did not learn from
    rng = random.Random(99)
    ids = set()
    while not g.is_terminal(st) and len(ids) < 3000:
        for a in g.legal_actions(st):
            i = ix.id_of(a)
            assert 0 <= i < ix.size and ix.action_of(i) == a
            ids.add(i)
        g.apply_in_place(st, rng.choice(g.legal_actions(st)))
    assert ix.size < 2**31 - 1
    with pytest.raises(ActionSpaceError):
        ix.id_of(Action("no_such_action", ()))


def test_action_index_is_the_same_in_every_load():
    a, b = ActionIndex(Game.load("dark-agent")), ActionIndex(Game.load("dark-agent"))
    assert a.size == b.size and a.values == b.values


pyspiel = pytest.importorskip("pyspiel")


def _load(name, params):
    import interpreter.adapters.openspiel  # noqa: F401  (registers "interpret")
    return pyspiel.load_game(f"interpret(game={name}{',' + params if params else ''})")


@pytest.mark.parametrize("name,params", GAMES)
def test_openspiel_random_sim_test(name, params):
    pyspiel.random_sim_test(_load(name, params), num_sims=1, serialize=False, verbose=False)


def test_openspiel_game_type_follows_the_content():
    ttt = _load("tic-tac-toe", "")
    assert ttt.get_type().information == pyspiel.GameType.Information.PERFECT_INFORMATION
    assert ttt.get_type().chance_mode == pyspiel.GameType.ChanceMode.DETERMINISTIC
    da = _load("dark-agent", "players=4,variants=teams+no-dice")
    assert da.num_players() == 4
    assert da.get_type().information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert _load("dark-agent", "").get_type().chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC


def test_openspiel_strings_keep_secrets():
    game = _load("agents-secrets", "players=6")
    state = game.new_initial_state()
    assert state.is_chance_node()  # the setup's shuffles are chance nodes: dealt by OpenSpiel's chance player
    pick = random.Random(3)
    while state.is_chance_node():
        outcomes, probs = zip(*state.chance_outcomes())
        state.apply_action(pick.choice(outcomes))
    mine, theirs = state.observation_string(0), state.observation_string(1)
    assert mine != theirs
    # the hand as the string names it: identical pieces renamed by place (adapters/canonical.py)
    hand = [k for k in state._parts.canon.view(state._st, 0)["zones"]["hand.p1"]["cards"]]
    assert hand and all(k in mine for k in hand)
    import json
    assert "cards" not in json.loads(theirs)["zones"]["hand.p1"]  # only its count and backs
    # perfect recall: two different histories that look the same now differ in the info state
    assert state.information_state_string(0).startswith(mine)


def test_openspiel_mcts_bot_plays_tic_tac_toe_through_the_adapter():
    from open_spiel.python.algorithms import mcts
    game = _load("tic-tac-toe", "")
    rng = np.random.RandomState(7)
    results = []
    for g in range(6):
        bot = mcts.MCTSBot(game, uct_c=2, max_simulations=300,
                           evaluator=mcts.RandomRolloutEvaluator(2, rng), random_state=rng)
        seat = g % 2
        state = game.new_initial_state()
        pick = random.Random(g)
        while not state.is_terminal():
            if state.current_player() == seat:
                state.apply_action(bot.step(state))
            else:
                state.apply_action(pick.choice(state.legal_actions()))
        results.append(state.returns()[seat])
    assert min(results) >= 0, results  # MCTS never loses to a random player
    assert results.count(1.0) >= 3


pettingzoo = pytest.importorskip("pettingzoo")


@pytest.mark.parametrize("name,params", GAMES)
def test_pettingzoo_api_test(name, params):
    from pettingzoo.test import api_test
    from interpreter.adapters.pettingzoo import env
    kw = dict(p.split("=") for p in params.split(",") if p)
    e = env(name, players=int(kw["players"]) if "players" in kw else None,
            variants=tuple(kw["variants"].split("+")) if "variants" in kw else ())
    api_test(e, num_cycles=300, verbose_progress=False)


def test_pettingzoo_env_takes_variants_as_none_one_name_or_several():
    from interpreter.adapters.pettingzoo import env

    def first_moves(e):
        e.reset(seed=1)
        return sorted(map(str, e.game.legal_actions(e._st)))
    base = first_moves(env("agent-dog"))
    assert first_moves(env("agent-dog", variants=None)) == base
    chosen = first_moves(env("agent-dog", variants="couleurs-au-choix"))
    assert chosen == first_moves(env("agent-dog", variants=["couleurs-au-choix"])) != base


def test_pettingzoo_masks_and_rewards():
    from interpreter.adapters.pettingzoo import env
    e = env("tic-tac-toe")
    e.reset(seed=1)
    total = {a: 0.0 for a in e.possible_agents}
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, _ = e.last()
        total[agent] += reward
        if terminated or truncated:
            e.step(None)
            continue
        mask = obs["action_mask"]
        assert mask.sum() == len(e.game.legal_actions(e._st)) > 0
        e.step(int(np.flatnonzero(mask)[0]))
    assert sorted(total.values()) in ([-1.0, 1.0], [0.0, 0.0])


@pytest.mark.parametrize("name,kw", [("agents-secrets", {"players": 6}), ("dark-agent", {"variants": ["hidden-cards"]}),
                                     ("agent-dog", {})])
def test_the_observation_vector_does_not_change_when_unseen_cards_are_swapped(name, kw):
    """The PettingZoo vector is computed from the observation: swapping two cards the seat cannot
    identify (same back) leaves it unchanged; swapping two cards it sees changes it."""
    from interpreter.adapters.tensor import TensorLayout
    from interpreter.information.observation import observe, relabel, unseen_slots
    g = Game.load(name, **kw)
    layout = TensorLayout(g)
    st = g.new_game(5)
    rng = random.Random(5)
    swaps = controls = 0
    for step in range(200):
        if g.is_terminal(st):
            break
        if step % 10 == 0:
            seat = g.current_player(st)
            base = layout.encode(observe(g, st, seat))
            unseen = [st["z"][z][p] for z, p in unseen_slots(g, st, seat)]
            by_back = {}
            for cid in unseen:
                by_back.setdefault(g.m.cards[cid].back, []).append(cid)
            for group in by_back.values():
                a, b = group[0], group[-1]
                if g.m.cards[a].name != g.m.cards[b].name:
                    swaps += 1
                    assert np.array_equal(layout.encode(observe(g, relabel(g, st, {a: b, b: a}), seat)), base)
            seen = [c for ids in st["z"] for c in ids if c not in set(unseen)]
            pairs = [(a, b) for a, b in zip(seen, seen[1:]) if st["loc"][a] != st["loc"][b]]
            if pairs:
                a, b = pairs[0]
                controls += 1
                assert not np.array_equal(layout.encode(observe(g, relabel(g, st, {a: b, b: a}), seat)), base)
        g.apply_in_place(st, rng.choice(g.legal_actions(st)))
    assert swaps > 0 and controls > 0


@pytest.mark.parametrize("name,kw,again", [("dark-agent", {"variants": ["hidden-cards"]}, 0), ("agent-dog", {}, 20),
                                           ("agents-secrets", {"players": 6}, 5), ("leduc-poker", {}, 20)])
def test_a_view_written_once_for_its_key_is_the_view_of_every_state_of_that_key(name, kw, again):
    """The adapter writes a seat's view once per key of what the view reads (views.ViewKey) and
    serves it to every state of that key: along random games, each seat's view of the state and of
    states sampled from another seat's information state, as served, is the view written afresh;
    and views are served again (a sample looks the same to the seat it was drawn for), but where a
    choice is pending (Dark Agent's decisions, mostly: its prompt has no key)."""
    from interpreter.adapters.canonical import Canon
    g = Game.load(name, **kw)
    canon = Canon(g)
    rng = random.Random(3)
    st = g.new_game(3)
    for step in range(120):
        if g.is_terminal(st):
            st = g.new_game(step)
        if step % 3 == 0:
            deciding = g.current_player(st)
            for state in (st, g.determinize(st, deciding, rng), g.determinize(st, (deciding + 1) % g.num_players, rng)):
                for seat in range(g.num_players):
                    assert canon.view_text(state, seat) == canon._view_text(state, seat), (step, seat)
        g.apply_in_place(st, rng.choice(g.legal_actions(st)))
    assert sum(texts.found for texts in canon._texts.values()) >= again
