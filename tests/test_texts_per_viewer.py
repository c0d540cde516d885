"""Texts written per viewer from values (issue 11 items 3 and 4): labels, prompts and the rules'
messages never show what a card the reader cannot identify is, even through one of its
attributes (`{c.name}`, `{c.owner.name}`, a property, a comparison, a function of it), while its
place stays readable (`{c.cell}`). interpreter/lang/templates.py."""
from __future__ import annotations

import pytest

from interpreter.information.views import visible_cards_ids

STEAL = """
game: {name: t, players: {min: 2, max: 2}}
zones:
  deck: {visibility: hidden}
  table: {}
  pocket: {per_player: true, visibility: owner}
cards:
  gem: {start: deck, props: {worth: 5}}
  coin: {start: table, props: {worth: 1}}
functions:
  shine: {params: [c], expr: c.worth * 2}
actions:
  steal:
    params: {c: deck.cards}
    label: "steal the {c.name} ({c}, {c.key}, worth {c.worth}, shine {shine(c)}, gem? {c.name == 'gem'}) from {c.zone}"
    effect: |
      move c to me.pocket
      log "{me.name} stole the {c.name} ({c}) into {c.zone}"
  bury:
    params: {c: table.cards}
    label: "bury the {c.name}"
    effect: |
      log "{me.name} buries the {c.name} ({c})"
      move c to deck
  look:
    params: {c: table.cards}
    label: "look at the {c.name} ({c.key}, worth {c.worth})"
    effect: pass
"""


def test_an_attribute_of_a_card_the_reader_cannot_see_is_hidden(make_game):
    g = make_game(STEAL)
    st = g.new_game(0)
    labels = sorted(label for _, label in g.legal_actions_with_labels(st) if not label.startswith("bury"))
    # the gem lies in the hidden deck: its name, key, property, a function of it and a comparison
    # with it are hidden; where it lies is not
    assert labels == ["look at the coin (coin, worth 1)",
                      "steal the a card (a card, a card, worth ?, shine ?, gem? ?) from deck"]
    assert not any("gem" in label.replace("gem?", "") or "5" in label or "10" in label for label in labels)


def test_a_message_of_the_rules_is_written_for_each_reader(make_game):
    g = make_game(STEAL)
    st = g.new_game(0)
    action = next(a for a in g.legal_actions(st) if a.name == "steal")
    step = g.apply_in_place(st, action)
    (name, (said,)), = [e for e in step.events if e[0] == "log"]
    assert said == "Player 1 stole the gem (gem) into pocket.p1"  # for everyone (spectator, logs)
    thief, other = (visible_cards_ids(g, st, seat) for seat in (0, 1))
    assert said.for_viewer(thief) == "Player 1 stole the gem (gem) into pocket.p1"
    assert said.for_viewer(other) == "Player 1 stole the a card (a card) into pocket.p1"


def test_a_card_seen_when_a_message_was_said_stays_named(make_game):
    """The coin is on the table when the rule says it is buried, then goes into the hidden deck:
    every seat saw it, the message names it; what happened to it afterwards does not matter."""
    g = make_game(STEAL)
    st = g.new_game(0)
    step = g.apply_in_place(st, next(a for a in g.legal_actions(st) if a.name == "bury"))
    (said,), = [args for name, args in step.events if name == "log"]
    assert "coin" not in visible_cards_ids(g, st, 1) and "coin" not in str(visible_cards_ids(g, st, 1))
    assert said.for_viewer(visible_cards_ids(g, st, 1), seat=1) == "Player 1 buries the coin (coin)"



@pytest.mark.parametrize("piece", [
    # `z.top` is a card reached through the loop's variable, not the loop's collection (zones)
    "sum(z.top.worth for z in [deck, table])",
    # the inner loop's collection (`z.cards`) depends on the outer loop's variable
    "sum(sum(x.worth for x in z.cards) for z in [deck, table])",
])
def test_a_card_read_through_a_loop_variable_is_hidden(make_game, piece):
    # every value the read takes is checked: the hidden gem in the deck hides the sum
    g = make_game(STEAL.replace('label: "bury the {c.name}"', 'label: "bury the {c.name} (worth {%s})"' % piece))
    st = g.new_game(0)
    labels = [label for _, label in g.legal_actions_with_labels(st) if label.startswith("bury")]
    assert labels == ["bury the coin (worth ?)"]
    # the same text for a reader who sees everything gives the figure
    action = next(a for a in g.legal_actions(st) if a.name == "bury")
    assert g.label(st, action) == "bury the coin (worth 6)"
