"""Actions as the deciding seat sees them (issue 11 item 3): an argument that is a card the decider
cannot identify is named by its place (`ZONE@N`, handles.py), never by its key; the engine does it
for actions, windows, simultaneous choices and pending choices."""
from __future__ import annotations

import pytest

from interpreter.engine.game import Game
from interpreter.errors import IllegalActionError
from interpreter.core.model import key_of
from interpreter.information.observation import relabel

THIEF = """\
game: {name: thief, players: {min: 2, max: 2}}
cards: {gem: {copies: 3, per_player: true, start: hand}}
zones:
  hand: {per_player: true, visibility: owner}
  loot: {per_player: true, visibility: public}
  stash: {visibility: hidden}
functions:
  victim: {params: [], expr: first(players where it != me)}
actions:
  steal:
    params: {c: victim().hand.cards}
    label: "steal {c}"
    effect: |
      move c to me.loot
      finish turn
  rummage:
    effect: |
      choose c from victim().hand.cards prompt "take"
      move c to me.loot
      finish turn
  give:
    params: {c: me.hand.cards}
    effect: |
      move c to victim().hand
      finish turn
flow:
  setup: "for p in players do move first(p.hand.cards) to stash end"   # one gem each, out of sight
  round: {end: "if round >= 2 then finish game end"}
"""


@pytest.fixture
def thief(make_game) -> Game:
    return make_game(THIEF)


def _ids(g, st):
    return [str(a) for a in g.legal_actions(st)]


def test_a_card_the_decider_cannot_identify_is_named_by_its_place(thief):
    g = thief
    st = g.new_game(seed=1)
    ids = _ids(g, st)
    assert ["steal hand.p2@1", "steal hand.p2@2"] == [i for i in ids if i.startswith("steal")]
    assert "give gem#2.p1" in ids  # its own cards by their keys
    labels = dict(g.legal_actions_with_labels(st))
    assert all(text == "steal a card" for a, text in labels.items() if a.name == "steal")
    # the key of a card it cannot see is not a possible argument
    with pytest.raises(IllegalActionError):
        g.verify(st, "steal gem#2.p2")
    # the handle plays the card at that place
    second = g.m.cards[st["z"][g.m.value_by_key()["hand.p2"].id][1]]
    after = g.apply(st, "steal hand.p2@2")
    assert g.observe(after, 0)["zones"]["loot.p1"]["cards"] == [second.key]


def test_every_unseen_card_of_a_back_may_be_named_by_key(make_game):
    """The exception: the options hold every card of that back the seat cannot identify (a rule
    that names any of them, wherever it is): their keys tell nothing, in the order of their ids."""
    g = make_game(THIEF.replace("victim().hand.cards", "cards where it.owner == victim()"))
    st = g.new_game(seed=1)
    assert [str(a) for a in g.legal_actions(st) if a.name == "steal"] == [f"steal gem#{i}.p2" for i in (1, 2, 3)]


def test_the_ids_do_not_change_when_unseen_cards_trade_places(thief):
    g = thief
    st = g.new_game(seed=1)
    a, b = (g.m.card_by_key["gem#1.p2"].id, g.m.card_by_key["gem#3.p2"].id)  # the stash's and the hand's
    other = relabel(g, st, {a: b, b: a})
    assert _ids(g, st) == _ids(g, other)
    assert g.legal_actions_with_labels(st) == g.legal_actions_with_labels(other)
    # a pending choice among them too
    st2, other2 = g.apply(st, "rummage"), g.apply(other, "rummage")
    assert _ids(g, st2) == _ids(g, other2) == ["choose hand.p2@1", "choose hand.p2@2"]
    done = g.apply(st2, "choose hand.p2@2")
    assert g.evaluate(done, "length(first(players).loot.cards)") == 1


def test_the_check_can_fail_without_handles(thief, monkeypatch):
    """Positive control: naming arguments by their keys leaks the swap."""
    import interpreter.information.handles as handles
    monkeypatch.setattr(handles, "arg_key", lambda m, st, seat, v, cache=None: key_of(v))
    g = thief
    st = g.new_game(seed=1)
    a, b = (g.m.card_by_key["gem#1.p2"].id, g.m.card_by_key["gem#3.p2"].id)
    assert _ids(g, st) != _ids(g, relabel(g, st, {a: b, b: a}))


def test_handles_have_ids_in_the_fixed_action_space(thief):
    """OpenSpiel and PettingZoo number actions once per game (action_index.py): a handle too."""
    from interpreter.adapters.action_index import ActionIndex
    g = thief
    index = ActionIndex(g)
    st = g.new_game(seed=2)
    for a in g.legal_actions(st):
        assert index.action_of(index.id_of(a)) == a


def _hand_of_p2(g):
    return g.m.value_by_key()["hand.p2"].id


def test_a_pending_choice_is_decoded_and_keyed_once_per_decision(thief, monkeypatch):
    """Listing, verifying and applying a choice share its options and their keys (Binder.options)."""
    import interpreter.engine.legality as engine
    from interpreter.core.model import Action
    g = thief
    st = g.apply(g.new_game(seed=1), "rummage")
    calls = []
    real = engine.arg_keys
    monkeypatch.setattr(engine, "arg_keys", lambda *a: calls.append(a[2]) or real(*a))
    assert _ids(g, st) == ["choose hand.p2@1", "choose hand.p2@2"]
    g.verify(st, "choose hand.p2@2")
    second = g.m.cards[st["z"][_hand_of_p2(g)][1]]
    g.apply_in_place(st, Action.parse("choose hand.p2@2"), checked=False)
    assert calls == [0]  # once, for the chooser
    assert g.observe(st, 0)["zones"]["loot.p1"]["cards"] == [second.key]


def test_a_pending_choice_changed_by_hand_is_keyed_again(thief):
    from interpreter.core.state import touch
    g = thief
    st = g.apply(g.new_game(seed=1), "rummage")
    assert _ids(g, st) == ["choose hand.p2@1", "choose hand.p2@2"]  # keyed, and kept
    hand = _hand_of_p2(g)
    st["z"][hand] = st["z"][hand][::-1]  # the two cards trade places
    touch(st)
    second = g.m.cards[st["z"][hand][1]]
    g.apply_in_place(st, "choose hand.p2@2")
    assert g.observe(st, 0)["zones"]["loot.p1"]["cards"] == [second.key]
