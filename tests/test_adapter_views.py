"""The views of the OpenSpiel adapter (adapters/canonical.py): identical pieces renamed by place, the
cards a seat cannot identify found once per view (renaming identical pieces moves none of them),
the text the same as observing the renamed state."""
from __future__ import annotations

import json
import random

import pytest

pyspiel = pytest.importorskip("pyspiel")
from interpreter.adapters.openspiel import InterpretState  # noqa: E402  (registers "interpret")
from interpreter.information import observation  # noqa: E402
from interpreter.adapters import canonical  # noqa: E402


def _states(params: str, *, seed: int, limit: int):
    game = pyspiel.load_game(f"interpret({params})")
    pick = random.Random(seed)
    state, out = game.new_initial_state(), []
    while not state.is_terminal() and len(out) < limit:
        state.apply_action(pick.choice(state.legal_actions()))
        if not state.is_chance_node():
            out.append(state.clone())
    assert all(isinstance(s, InterpretState) for s in out)
    return game, out


@pytest.mark.parametrize("params", ["game=agents-secrets,players=6", "game=dark-agent,players=4,variants=hidden-cards",
                                    "game=agent-dog", "game=leduc-poker"])
def test_a_view_is_the_observation_of_the_renamed_state(params):
    """Every seat's view, at states along a random game: the observation of the state with its
    identical pieces renamed (observe computing the unseen cards itself), the same cards unseen
    before and after the renaming, and the text that observation as sorted JSON."""
    game, states = _states(params, seed=2, limit=40)
    renamed = 0
    for state in states[::3]:
        st, canon = state._st, state._parts.canon
        for seat in range(game.num_players()):
            relabelled = canon.relabelled(st, seat)
            renamed += relabelled is not st
            g = canon.game
            assert observation.unseen_slots(g, relabelled, seat) == observation.unseen_slots(g, st, seat)
            want = observation.observe(g, relabelled, seat)
            assert canon.view(st, seat) == want
            assert canon._view_text(st, seat) == json.dumps(want, sort_keys=True, separators=(",", ":"))
    if params != "game=leduc-poker":  # (no identical pieces there)
        assert renamed


def test_a_view_finds_the_unseen_cards_once(monkeypatch):
    """Observing a seat's view of Agents Secrets (whose identical pieces it renames) reads which
    cards it cannot identify once, not once to rename them and again to observe."""
    game, states = _states("game=agents-secrets,players=6", seed=2, limit=10)
    state = states[-1]
    canon = state._parts.canon
    calls = []
    unseen = observation.unseen_slots
    counted = lambda *a, **k: (calls.append(1), unseen(*a, **k))[1]  # noqa: E731
    monkeypatch.setattr(observation, "unseen_slots", counted)
    monkeypatch.setattr(canonical, "unseen_slots", counted)
    canon._view_text(state._st, 1)
    assert len(calls) == 1


def test_views_never_found_again_stop_being_keyed_soon():
    """Agents Secrets' views are seldom the same twice (none in a search's first hundreds): after
    TRIAL (64) asks that found none again, a seat's views are written without their key (~50 us
    each); Leduc poker's, found again and again, stay keyed."""
    for params, kept in (("game=agents-secrets,players=6", False), ("game=leduc-poker", True)):
        game, states = _states(params, seed=2, limit=200)
        canon = states[0]._parts.canon
        canon._texts = {}
        seat = 1
        assert len(states) >= 64 or kept
        for k in range(64):
            canon.view_text(states[k % len(states)]._st, seat)
        assert (canon._texts[seat].keys is not None) == kept, params


def test_a_view_writes_the_parts_of_its_variables_once_while_they_stay_the_same(monkeypatch):
    """The parts of a view that show only variables naming no card (players', the game's, the
    zones') are written once per seat and values (Agents Secrets' zone variables, half of its
    view's text, seldom change): the text is the same as written whole, and a part whose
    variables changed is written again."""
    from interpreter.information import views
    game, states = _states("game=agents-secrets,players=6", seed=2, limit=30)
    canon = states[0]._parts.canon
    canon._kept = {}
    calls = []
    zone_vars = views._zone_vars
    monkeypatch.setattr(views, "_zone_vars", lambda *a: (calls.append(1), zone_vars(*a))[1])
    seat = 2
    for state in states:
        assert canon._view_text(state._st, seat) == json.dumps(canon.view(state._st, seat), sort_keys=True,
                                                               separators=(",", ":"))
    distinct = {tuple(state._st["zv"].values()) for state in states}
    written = len(calls) - len(states)  # (each canon.view above computes its zone variables)
    assert written == len(distinct) < len(states)
    st = states[-1]._st
    changed = dict(st, zv={**st["zv"]})
    name = next(iter(changed["zv"]))
    changed["zv"][name] = (7,) + tuple(changed["zv"][name][1:])
    text = canon._view_text(changed, seat)
    assert text != canon._view_text(st, seat)
    assert text == json.dumps(canon.view(changed, seat), sort_keys=True, separators=(",", ":"))
    assert '"%s":7' % name in text


def test_a_view_with_few_variables_is_written_whole():
    """Where the parts kept by their variables show few values (Leduc poker: 8), writing a view
    part by part would cost more than it saves: Leduc's are written whole, Agents Secrets' (186
    values: its zones' variables) part by part."""
    for params, parts in (("game=leduc-poker", False), ("game=agents-secrets,players=6", True)):
        game, states = _states(params, seed=2, limit=3)
        canon = states[0]._parts.canon
        canon._kept = {}
        text = canon._view_text(states[-1]._st, 1)
        assert text == json.dumps(canon.view(states[-1]._st, 1), sort_keys=True, separators=(",", ":"))
        assert bool(canon._kept[1].parts) == parts, params
