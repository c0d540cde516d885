"""A seat's memory in determinize (issue 11 item 2, « respecting what it saw »): a card a seat
watched go where it cannot see stays, in every sample, in the zone it went to; interpreter/information/memory.py
and observation.determinize(memory=...)."""
from __future__ import annotations

import json
import random

import pytest

from interpreter.engine.game import Game
from interpreter.information.memory import Memory
from interpreter.information.observation import determinize, observe

GIFT = """
game: {name: gift, players: {min: 2, max: 2}}
zones:
  table: {visibility: public}
  deck: {visibility: hidden}
  hand: {per_player: true, visibility: owner}
cards:
  gem: {start: table, back: token}
  coin: {copies: 4, start: deck, back: token}
flow:
  turn: {steps: [{name: play}]}
actions:
  give:
    params: {c: table.cards}
    effect: "move c to seat_after(me).hand; finish turn"
  draw:
    require: ["deck.count > 0"]
    effect: "move first(deck.cards) to me.hand; finish turn"
  bury:
    params: {c: me.hand.cards}
    effect: "move c to deck; finish turn"
  pass: {effect: finish turn}
"""


def _play(g, st, memory, text, seat):
    assert g.current_player(st) == seat
    memory.apply(st, text)


def _where(g, st, key):
    return g.m.zones[st["loc"][g.m.card_by_key[key].id]].key


def test_a_card_watched_into_a_hand_stays_there_in_every_sample(make_game):
    g = make_game(GIFT)
    st = g.new_game(0)
    memory = Memory(g)
    _play(g, st, memory, "give gem", 0)        # p1 gives the gem to p2: both saw it go
    _play(g, st, memory, "draw", 1)            # p2 draws a coin: its hand holds the gem and a coin
    assert memory.to_json() == [{"gem": "hand.p2"}, {}]  # p2 sees its own hand: nothing to remember
    # without memory, p1's samples deal the gem anywhere a token lies unseen (the deck too)
    places = {_where(g, determinize(g, st, 0, random.Random(i)), "gem") for i in range(40)}
    assert places == {"hand.p2", "deck"}
    # with it, the gem stays in p2's hand, at either of its places
    gem = g.m.card_by_key["gem"].id
    for i in range(40):
        d = determinize(g, st, 0, random.Random(i), memory=memory.of(0))
        assert _where(g, d, "gem") == "hand.p2"
        assert json.dumps(observe(g, d, 0), sort_keys=True) == json.dumps(observe(g, st, 0), sort_keys=True)
    assert {determinize(g, st, 0, random.Random(i), memory=memory.of(0))["z"][st["loc"][gem]].index(gem)
            for i in range(40)} == {0, 1}  # the seat knows the zone, not the place in it


def test_a_card_is_forgotten_when_a_card_it_cannot_tell_apart_leaves_its_zone(make_game):
    g = make_game(GIFT)
    st = g.new_game(0)
    memory = Memory(g)
    _play(g, st, memory, "give gem", 0)
    _play(g, st, memory, "draw", 1)
    _play(g, st, memory, "draw", 0)
    assert memory.to_json()[0] == {"gem": "hand.p2"}
    _play(g, st, memory, "bury coin#1", 1)     # p2 buries a card face down: p1 cannot tell which
    assert memory.to_json() == [{}, {"coin#1": "deck"}]  # p2 can
    assert _where(g, st, "gem") == "hand.p2"   # though the gem is still there


def test_a_card_watched_into_the_deck_is_forgotten_once_a_card_leaves_the_deck(make_game):
    g = make_game(GIFT)
    st = g.new_game(0)
    memory = Memory(g)
    _play(g, st, memory, "give gem", 0)
    _play(g, st, memory, "bury gem", 1)        # p2 saw the gem go into the deck; p1 saw a card leave
    assert memory.to_json() == [{}, {"gem": "deck"}]  # a hand it does not see into: it forgot
    _play(g, st, memory, "draw", 0)            # a card leaves the deck: was it the gem?
    assert memory.to_json() == [{}, {}]


@pytest.mark.parametrize("game,variants,players", [("agents-secrets", (), 4), ("agent-dog", (), 4)])
def test_samples_keep_what_each_seat_remembers(game, variants, players):
    """Property: over random games, every sample drawn with a seat's memory gives the seat's
    observation and keeps each remembered card in its zone."""
    g = Game.load(game, players=players, variants=list(variants))
    st = g.new_game(5)
    rng = random.Random(5)
    memory = Memory(g)
    remembered = 0
    for step in range(600):
        if g.is_terminal(st):
            break
        if step % 20 == 0:
            for seat in range(players):
                known = memory.of(seat)
                remembered += len(known)
                d = determinize(g, st, seat, random.Random(step), memory=known)
                assert json.dumps(observe(g, d, seat), sort_keys=True) == json.dumps(observe(g, st, seat), sort_keys=True)
                for cid, z in known.items():
                    assert d["loc"][cid] == z == st["loc"][cid]
        memory.apply(st, rng.choice(g.legal_actions(st)))
    assert remembered > 0, "no seat ever remembered a card: the test proves nothing"
