"""What a cheaper step keeps between decisions (issue 29, item 1) and what it must never get wrong:
the listings of a simultaneous step's seats, made once when it opens (engine/simultaneous.py
`kept`); the notes a copy carries through `apply`, so that an action of the noted listing is not
verified again; the keys of numbers and texts, written once (core/model.py `key_of`); content
values as plain Python (ruleset/spec.py). A state edited by hand is always listed afresh."""
from __future__ import annotations

import random

import pytest

from interpreter.core.model import Card, key_of
from interpreter.core.state import NOTES, from_json, place_card, to_json
from interpreter.engine.game import Game
from interpreter.errors import IllegalActionError


def _fresh(g, st):
    """The legal actions of `st` listed from nothing (its JSON: no notes)."""
    return g.legal_actions(from_json(to_json(st)))


def _count_listings(g, monkeypatch) -> list:
    calls = []
    listed = g.listings.actions

    def counting(*args, **kw):
        calls.append(kw)
        return listed(*args, **kw)
    monkeypatch.setattr(g.listings, "actions", counting)
    g.flow._list_step = g.simultaneous._list = counting
    return calls


def test_a_secret_choice_is_listed_once_when_its_step_opens_and_right_at_every_seat(monkeypatch):
    g, other = Game.load("agents-secrets", players=6), Game.load("agents-secrets", players=6)
    calls = _count_listings(g, monkeypatch)
    rng = random.Random(4)
    st, secret = g.new_game(seed=4), 0
    while not g.is_terminal(st):
        if st["flow"].get("sim") and not st["pending"]:
            secret += 1
            before = len(calls)
            listed = g.legal_actions(st)
            assert len(calls) == before  # the seat's actions were listed when the step opened
            assert listed == _fresh(other, st) and listed  # as listed from nothing, by another game
        a = g.legal_actions(st)
        g.apply_in_place(st, a[rng.randrange(len(a))], checked=False)
    # one listing per seat and step (as many as secret choices), none at the decisions themselves
    assert secret > 50 and len(calls) == secret


def test_a_hand_edited_simultaneous_step_is_listed_afresh():
    g = Game.load("agents-secrets", players=6)
    rng = random.Random(2)
    st = g.new_game(seed=2)
    g.apply_in_place(st, g.legal_actions(st)[0], checked=False)  # the first seat has chosen in secret
    seat = g.current_player(st)
    hand = g.m.player_zones["hand"][seat]
    cid = st["z"][hand.id][0]
    gone = g.m.cards[cid].key
    assert any(gone in a.args for a in g.legal_actions(st))
    place_card(st, cid, g.m.zone_by_name["removed"].id)  # by hand: the state's notes are forgotten
    listed = g.legal_actions(st)
    assert listed and not any(gone in a.args for a in listed) and listed == _fresh(g, st)
    with pytest.raises(IllegalActionError):
        g.apply(st, f"play {gone} 1")
    g.apply_in_place(st, listed[rng.randrange(len(listed))])


RESET_PER_ACTION = """
game: {name: open-door, players: {min: 2, max: 2, default: 2}}
vars:
  game:
    door: {default: 0, reset: action}   # open when the step opens; shut again after any choice
  player: {coin: 0}
flow:
  round:
    start: door = 1
    order: "[first(players)]"
  turn:
    steps:
      - name: toss
        simultaneous:
          reveal: finish game
actions:
  heads:
    effect: me.coin = 1
  through:
    require: ["door == 1"]
    effect: me.coin = 2
scoring:
  score: me.coin
"""


def test_a_variable_back_to_its_default_after_each_choice_is_seen_by_the_next_seat(make_game):
    """Kept listings hold only while nothing changes between the secret choices: a variable reset
    after each action changes what the second seat may choose, which it is then listed for."""
    g = make_game(RESET_PER_ACTION)
    st = g.new_game(seed=1)
    assert [str(a) for a in g.legal_actions(st)] == ["heads", "through"]
    g.apply_in_place(st, g.legal_actions(st)[1], checked=False)
    assert g.current_player(st) == 1 and st["gv"]["door"] == 0
    assert [str(a) for a in g.legal_actions(st)] == ["heads"]
    with pytest.raises(IllegalActionError):
        g.apply(st, "through")


def test_apply_does_not_verify_again_an_action_of_the_noted_listing(monkeypatch):
    g = Game.load("dark-agent", players=4)
    rng = random.Random(1)
    st = g.new_game(seed=1)
    walked = []
    walk = g.binder._walk
    monkeypatch.setattr(g.binder, "_walk", lambda *a: walked.append(1) or walk(*a))
    for _ in range(60):
        listed = g.legal_actions(st)
        noted = st[NOTES].listing is not None
        action = listed[rng.randrange(len(listed))]
        n = len(walked)
        after = g.apply(st, action)
        if noted:
            assert len(walked) == n  # found in the listing the state carried: not verified again
        # the same state as the one reached from nothing (JSON, no notes: verified)
        assert to_json(after) == to_json(g.apply(from_json(to_json(st)), action))
        st = after
    assert walked  # the states without notes (a pending choice) were verified


def test_apply_still_refuses_what_the_noted_listing_does_not_hold():
    g = Game.load("tic-tac-toe")
    st = g.new_game(seed=1)
    st = g.apply(st, "play r1c1")
    assert st[NOTES].listing is not None
    with pytest.raises(IllegalActionError):
        g.apply(st, "play r1c1")
    with pytest.raises(IllegalActionError):
        g.apply_in_place(st, "play r9c9")


def test_keys_of_numbers_and_texts_are_kept_apart_from_truth_values():
    assert key_of(1) == "1" and key_of(True) == "yes" and key_of(0) == "0" and key_of(False) == "no"
    assert key_of("1") == "1" and key_of("two words") == "two_words" and key_of(None) == "none"
    assert key_of(1.0) == "1.0" and key_of(1) == "1"


def test_content_values_are_plain_python():
    """Card props and zone attributes as the rules read them: ruamel's scalars and lists (subclasses
    of int and list) took the slow path of every arithmetic and loop of the generated code."""
    g = Game.load("agent-dog")
    values = [v for c in g.m.cards for v in c.props.values()] + [v for z in g.m.zones for v in z.attrs.values()]
    assert values and all(type(v) in (int, str, bool, list, dict, float) or v is None for v in values)
    assert all(type(x) in (int, str) for v in values if type(v) is list for x in v)
    assert any(type(c) is Card for c in g.m.cards)


def test_texts_and_lists_joined_spend_and_fail_as_the_generic_arithmetic_does(mini, monkeypatch):
    """The fast path of `+` for two texts or two lists (runtime/ops.py) against the general one:
    the same value, the same steps spent (one per item), the same limits; the general checks
    (rt.check_size, rt.spend) are not what it calls."""
    from dataclasses import replace

    from interpreter.limits import BudgetExceeded
    from interpreter.runtime import context as rt
    from interpreter.runtime.ops import _BINOPS, _arith

    st = mini.new_game(seed=1)
    monkeypatch.setattr(rt, "check_size", lambda *a: pytest.fail("the generic path"))
    for a, b in (([1, 2], [3]), ("ab", "c"), ([], []), ("", "x")):
        ctx = rt.Ctx(st, mini.m)
        start = ctx.budget
        assert _arith(ctx, "+", a, b, None) == _BINOPS["+"](a, b) and type(_arith(ctx, "+", a, b, None)) is type(a)
        assert start - ctx.budget == 2 * (len(a) + len(b))
    ctx = rt.Ctx(st, mini.m)
    ctx.budget = 2
    with pytest.raises(BudgetExceeded, match="steps"):
        _arith(ctx, "+", "ab", "c", None)
    small = rt.Ctx(st, mini.m)
    small.m = type("M", (), {"limits": replace(mini.m.limits, collection=2)})()
    with pytest.raises(BudgetExceeded, match="collection"):
        _arith(small, "+", [1, 2], [3], None)


def _relabelled_card_by_card(got, st, mapping):
    """What relabel must give (`got` is its answer, whose other parts are taken as they are):
    every zone, place and table of card variables written afresh, card by card (the values of a
    card variable follow the renamed cards)."""
    out = dict(got, loc=list(st["loc"]), cv=dict(st["cv"]))
    name = lambda i: mapping.get(i, i)  # noqa: E731
    out["z"] = [tuple(name(c) for c in ids) for ids in st["z"]]
    for a, b in mapping.items():
        out["loc"][b] = st["loc"][a]
    for var, values in st["cv"].items():
        new = list(values)
        for a, b in mapping.items():
            new[b] = values[a]
        out["cv"][var] = tuple(new)
    return out


@pytest.mark.parametrize("game,players", [("dark-agent", 4), ("agents-secrets", 6)])
def test_a_sample_renames_the_unseen_cards_and_shares_every_zone_it_leaves_as_it_was(game, players):
    """determinize's relabel (information/observation.py) against a rename card by card: the same
    state, while the zones that hold no renamed card are the very tuples of the state (a copy of
    the others only), so that a sample costs what it changes."""
    from interpreter.information.observation import relabel, unseen_slots

    g = Game.load(game, players=players)
    rng = random.Random(3)
    st = g.new_game(seed=3)
    checked = 0
    while not g.is_terminal(st) and checked < 12:
        seat = g.current_player(st)
        if seat is not None and seat >= 0 and rng.random() < 0.3:
            ids = [st["z"][z][pos] for z, pos in unseen_slots(g, st, seat)]
            new = ids[:]
            rng.shuffle(new)
            mapping = {a: b for a, b in zip(ids, new) if a != b}
            if len(mapping) > 1 and not any(g.m.cvars[v]["type"] in ("card", "cards", "list", "any")
                                            for v in st["cv"]):  # no card variable naming cards
                got = relabel(g, st, mapping)
                assert to_json(got) == to_json(_relabelled_card_by_card(got, st, mapping))
                touched = {st["loc"][a] for a in mapping}
                assert all(got["z"][z] is st["z"][z] for z in range(len(st["z"])) if z not in touched)
                checked += 1
        a = g.legal_actions(st)
        g.apply_in_place(st, a[rng.randrange(len(a))], checked=False)
    assert checked >= 5
