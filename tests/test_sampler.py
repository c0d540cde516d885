"""A decision sampled many times (issue 29: a search determinizes the same decision at every
iteration): what every sample needs is found once (observation.Sampler, Game.sampler), and each
sample is the one `determinize` draws with the same generator. A pending choice listed for a bot
writes no option's text (game.py `_legal`)."""
from __future__ import annotations

import random

import pytest

from interpreter.agents import make_decision
from interpreter.core.state import to_json
from interpreter.engine import game as game_module
from interpreter.engine.game import Game
from interpreter.information import observation


@pytest.fixture(scope="module")
def dark_agent():
    return Game.load("dark-agent", players=4)


def _positions(game, count, seed):
    """States with hidden cards at a few decisions of a random game."""
    rng = random.Random(seed)
    st = game.new_game(seed)
    out = []
    while len(out) < count and not game.is_terminal(st):
        acts = game.legal_actions(st)
        if rng.random() < 0.05:
            out.append(make_decision(game, st))
        game.apply_in_place(st, rng.choice(acts))
    return out


def test_a_sampler_draws_what_determinize_draws(dark_agent):
    for decision in _positions(dark_agent, 3, 4):
        held = decision.portable()[2]
        sampler = dark_agent.sampler(held, decision.seat)
        r1, r2 = random.Random(11), random.Random(11)
        for _ in range(4):
            assert to_json(sampler.draw(r1)) == to_json(dark_agent.determinize(held, decision.seat, r2))


def test_a_decision_finds_its_unseen_places_once(dark_agent, monkeypatch):
    calls = []
    real = observation.unseen_slots
    monkeypatch.setattr(observation, "unseen_slots", lambda *a: calls.append(1) or real(*a))
    decision = _positions(dark_agent, 1, 6)[0]
    rng = random.Random(3)
    samples = [to_json(decision.sample(rng)) for _ in range(5)]
    assert len(calls) == 1
    assert len(set(samples)) > 1  # the hidden cards dealt again at each sample


def test_a_pending_choice_listed_without_labels_writes_no_text(dark_agent, monkeypatch):
    st = dark_agent.new_game(3)
    assert st["pending"], "the setup asks each player where to place a satellite"
    labelled = dark_agent.legal_actions_with_labels(st)

    def refuse(v):
        raise AssertionError(f"an option's text written for nobody: {v!r}")
    monkeypatch.setattr(game_module, "label_of", refuse)
    assert dark_agent.legal_actions(st) == [a for a, _ in labelled]
