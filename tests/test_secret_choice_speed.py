"""Issue 29, a cheaper step (Agents Secrets' secret choices): a trusted action's arguments bound
from their keys once (legality.py `trusted_ctx`, `bound_frame`); a secret choice that is not the
last only recorded (game.py `_apply_plain`: no rule runs, the flow stays where it was settled);
the listing of actions alone writes no slot for a last parameter that no requirement reads, and
finds the first argument's actions once for all the values of the second (listing.py). The same
games, bit for bit, as the checked path."""
from __future__ import annotations

import random

import pytest

from interpreter.core.state import clone, to_json
from interpreter.engine import listing
from interpreter.engine.game import Game
from interpreter.runtime import context as rt
from tests.walks import random_states


@pytest.fixture(scope="module")
def game():
    return Game.load("agents-secrets", players=6)


def _opening(g, seed):
    """A state of a seeded random game where step `play` has just opened (nobody has chosen), as
    the forward model left it (with its notes: the listings made when the step opened)."""
    for st in random_states(g, seed, 60):
        sim = st["flow"].get("sim")
        if sim and not sim["chosen"] and rt.step_name(g.m, st) == "play":
            return st
    raise AssertionError("no secret choice opened")


def _play(g, seed, checked):
    rng, st = random.Random(seed), g.new_game(seed=seed)
    while not g.is_terminal(st):
        actions = g.legal_actions(st)
        g.apply_in_place(st, actions[rng.randrange(len(actions))], checked=checked)
    return to_json(st), g.scores(st)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_trusted_moves_play_the_same_games_as_checked_ones(game, seed):
    assert _play(game, seed, checked=False) == _play(game, seed, checked=True)


def test_a_trusted_action_is_bound_from_its_keys_once(game, monkeypatch):
    st = _opening(game, 4)
    action = game.legal_actions(st)[0]
    a = game.m.action_by_name[action.name]
    game.binder._bound.clear()
    assert game.binder.bound_frame(action, a) is None
    first = clone(st)
    game.apply_in_place(first, action, checked=False)
    frame = game.binder.bound_frame(action, a)
    assert frame is not None and frame[:2] == [game.m.value_by_key()[action.args[0]], int(action.args[1])]
    # bound again without looking its keys up
    monkeypatch.setattr(game.binder, "_plans", {})
    again = clone(st)
    game.apply_in_place(again, action, checked=False)
    assert to_json(again) == to_json(first)


def test_a_secret_choice_that_is_not_the_last_is_only_recorded(game, monkeypatch):
    st = _opening(game, 6)
    seats = st["flow"]["sim"]["seats"]
    checked = clone(st)
    chosen = []
    for _ in seats[:-1]:
        action = game.legal_actions(checked)[-1]
        chosen.append(action)
        game.apply_in_place(checked, action)  # verified, recorded, the flow settled again
    for action in chosen:  # their frames bound once (trusted_ctx)
        game.binder.trusted_ctx(st, game.m.action_by_name[action.name], None, action)

    def no_rules(*args, **kwargs):
        raise AssertionError("the flow moved on")
    monkeypatch.setattr(game, "_after_action", no_rules)
    monkeypatch.setattr(game, "_trusted_ctx", no_rules)
    for action in chosen:
        step = game.apply_in_place(st, action, checked=False)
        assert step.events == [] and step.causes == []
    assert to_json(st) == to_json(checked)
    assert game.legal_actions(st) == game.legal_actions(checked)
    # the last one reveals them all: the rules run
    last = game.legal_actions(st)[0]
    with pytest.raises(AssertionError, match="the flow moved on"):
        game.apply_in_place(st, last, checked=False)


def _bare_text(m, step):
    source = listing._write(m, tuple(m.actions_by_step[step]))._interpret_source
    return source[source.index("def _bare"):]


def test_a_listing_of_actions_alone_writes_no_slot_for_its_last_parameter(game):
    text = _bare_text(game.m, "play")
    assert "for k1 in " in text and "L[1] = v1" not in text  # `toward`: its keys alone
    assert "act = r0.get(k1)" in text  # the card's actions found once for its destinations
    whole = listing._write(game.m, tuple(game.m.actions_by_step["play"]))._interpret_source
    assert "L[1] = v1" in whole[:whole.index("def _bare")]  # a label reads it


def test_the_listing_of_actions_alone_is_the_labelled_one(game, monkeypatch):
    monkeypatch.setattr(listing, "_KEPT2", 2)  # the kept actions cleared as the listing goes
    m = game.m
    lister = listing._write(m, tuple(m.actions_by_step["play"]))
    n = 0
    for st in random_states(game, 8, 80):
        sim = st["flow"].get("sim")
        if not sim or rt.step_name(m, st) != "play":
            continue
        for seat in sim["seats"]:
            ctx = rt.Ctx(st, m, m.seats[seat])
            ctx.memo = {}
            bare = lister.bare(ctx, [])
            spent = ctx.budget
            ctx = rt.Ctx(st, m, m.seats[seat])
            ctx.memo = {}
            assert bare == [a for a, _ in lister(ctx, [], True, False)] and spent == ctx.budget
            n += 1
    assert n >= 12


def test_the_keys_of_numbers_met_before_are_found_without_a_call(game, monkeypatch):
    from interpreter.information import handles
    st = game.new_game(seed=1)
    values = [1, 2, 3, 4]
    first = handles.arg_keys(game.m, st, 0, values, {})  # the keys made once (model.key_of)

    def no_call(v):
        raise AssertionError(f"key_of({v!r}) called")
    monkeypatch.setattr(handles, "key_of", no_call)
    assert handles.arg_keys(game.m, st, 0, values, {}) == first == (values, ["1", "2", "3", "4"])
    with pytest.raises(AssertionError, match="key_of"):
        handles.arg_keys(game.m, st, 0, [True], {})  # a yes/no is not a whole number's key
