"""Piles no seat sees, kept in the order they started in (engine/chance.ordered_piles): a state
drawn from a seat's information state through the OpenSpiel adapter deals again only what was
dealt unseen, not the order of a pile every seat knows."""
import random
from collections import Counter

import pytest

pyspiel = pytest.importorskip("pyspiel")

from interpreter import Game  # noqa: E402
from interpreter.adapters import openspiel  # noqa: E402,F401  (registers the game)
from interpreter.engine.chance import ordered_piles  # noqa: E402


def _first_decision(name: str, seed: int):
    game = pyspiel.load_game(f"interpret(game={name})")
    st = game.new_initial_state()
    rng = random.Random(seed)
    while st.is_chance_node():
        st.apply_action(rng.randrange(len(st.chance_outcomes())))
    return st


def test_a_leduc_sample_deals_again_only_the_card_the_seat_did_not_see():
    """Leduc's deck is never shuffled: its cards are taken at random from it, the rest keep their
    order. A seat's samples are the five cards its opponent may hold, each as often, the deck in
    card order: five states (120 orders of the five unseen cards over five places without it)."""
    st = _first_decision("leduc-poker", 3)
    seat = st.current_player()
    mine = st.information_state_string(seat)
    seen, theirs = set(), Counter()
    draws = 400
    for k in range(draws):
        sample = st.resample_from_infostate(seat, lambda k=k: (k * 0.6180339887) % 1.0)
        assert sample.information_state_string(seat) == mine
        zl = sample._st["z"]
        deck = sample._parts.interpret.catalog.zone_by_name["deck"].id
        assert list(zl[deck]) == sorted(zl[deck])
        seen.add(tuple(zl))
        hand = next(z.id for z in sample._parts.interpret.catalog.player_zones["hand"] if z.owner.id != seat)
        theirs[zl[hand]] += 1
    assert len(seen) == 5
    assert len(theirs) == 5 and all(40 <= n <= 120 for n in theirs.values()), theirs


@pytest.mark.parametrize("name,players", [("leduc-poker", 2), ("kuhn-poker", 2), ("agent-dog", 4),
                                          ("agents-secrets", 4)])
def test_a_pile_kept_in_order_is_in_card_order(name, players):
    """Along random explicit-chance games, every pile ordered_piles names holds its cards in card
    order: what no rule disordered (a shuffle, a card put in: runtime/draws.stir) is as it started."""
    g = Game.load(name, players=players)
    rng = random.Random(7)
    listed = Counter()
    for seed in range(2):
        st = g.new_game(seed, chance="explicit")
        for _ in range(150):
            if g.is_terminal(st):
                break
            for zid in ordered_piles(g, st):
                ids = st["z"][zid]
                assert list(ids) == sorted(ids), (name, g.catalog.zones[zid].key, ids)
                if not g.is_chance(st):  # (at a chance node: the state before its decision)
                    listed[zid] += 1
            if g.is_chance(st):
                st = g.apply(st, f"chance {rng.randrange(len(g.chance_outcomes(st)))}")
            else:
                acts = g.legal_actions(st)
                st = g.apply(st, acts[rng.randrange(len(acts))])
    names = {g.catalog.zones[z].key for z in listed}
    # Leduc's deck is dealt from at random, never shuffled; Agents Secrets' box holds what is out of
    # the game; every other hidden pile of theirs is shuffled or filled by the rules
    assert names == PILES[name], names


PILES = {"leduc-poker": {"deck"}, "kuhn-poker": set(), "agent-dog": set(), "agents-secrets": {"box"}}


def test_twin_states_give_the_same_samples():
    """Two Leduc states the seat cannot tell apart (its opponent holds another card; the deck, as
    the rules keep it, the rest in card order) give the seat the same samples, draw for draw: the
    piles put back in order come from the seat's knowledge, not from the state's own order."""
    st = _first_decision("leduc-poker", 3)
    seat = st.current_player()
    cat = st._parts.interpret.catalog
    deck = cat.zone_by_name["deck"].id
    hand = next(z.id for z in cat.player_zones["hand"] if z.owner.id != seat)
    twin = st.clone()
    zl, loc = twin._st["z"], twin._st["loc"]
    theirs, other = zl[hand][0], zl[deck][-1]
    zl[hand], zl[deck] = (other,), tuple(sorted((*zl[deck][:-1], theirs)))
    loc[theirs], loc[other] = deck, hand
    assert twin.observation_string(seat) == st.observation_string(seat)  # (the history is shared)
    assert twin._st["z"] != st._st["z"]
    for k in range(30):
        u = (k * 0.381966) % 1.0
        a = st.resample_from_infostate(seat, lambda: u)
        b = twin.resample_from_infostate(seat, lambda: u)
        assert a._st["z"] == b._st["z"]


def test_a_pile_of_several_backs_is_put_in_order_back_by_back():
    """A face-down card's back is seen at its place: a pile of two backs is put in card order back
    by back, each back keeping its places (Agents Secrets' box holds agents of both companies)."""
    from interpreter.engine.chance import put_in_order
    g = Game.load("agents-secrets", players=4)
    cards = g.catalog.cards
    ids = list(g.new_game(0)["z"][g.catalog.zone_by_name["box"].id])
    assert len({cards[c].back for c in ids}) == 2
    rng = random.Random(2)
    for _ in range(20):
        rng.shuffle(ids)
        out = put_in_order(g, ids)
        assert sorted(out) == sorted(ids)
        assert [cards[c].back for c in out] == [cards[c].back for c in ids]
        for back in {cards[c].back for c in ids}:
            mine = [c for c in out if cards[c].back == back]
            assert mine == sorted(mine)
