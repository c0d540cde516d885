"""Card powers (issue 10): triggers, replacements and modifiers declared on a card, `this`,
`while`, action groups, card-bound actions (`from:`), optional parameters, `super` and
`do ... unpreventable`. Each test is written to fail when its construct is broken."""
from __future__ import annotations

import pytest

from interpreter.errors import ContentError
from interpreter.core.state import touch, zone_with, zone_without

BASE = """
game: {name: t, players: {min: 2, max: 2, default: 2}}
zones:
  hand: {per_player: true}
  pile: {}
  discard: {}
vars:
  player:
    gold: 0
    hurt: 0
    used_power: {default: false, reset: turn}
events:
  payday: [amount]
functions:
  income:                    # a hook for cards
    params: [base]
    modifiable: true
    expr: base
procedures:
  hurt:
    params: [who, n]
    effect: who.hurt += n
  pay:
    params: [n]
    effect: |
      me.gold += income(n)
      emit payday(n)
actions:
  work: {effect: do pay(1)}
  fight: {effect: "do hurt(me, 3)"}
  fight_anyway: {effect: "do hurt(me, 3) unpreventable"}
  powers:
    members: group
    require:
      - check: not me.used_power
        reason: "one power per turn; {this.key} must wait"
    effect: me.used_power = true
  play_card:
    members: group
    from: me.hand
    limit: 2
    limit_reason: two cards per turn
  end_turn: {effect: finish turn}
"""


def cards(text: str) -> str:
    return BASE + "cards:\n" + text


@pytest.fixture
def game(make_game):
    return make_game(cards("""
  crown:
    start: pile
    while: this in me.hand
    powers:
      - modify: income
        value: value * 2
      - rule: "on payday when amount > 0: me.gold += 10"
      - rule: "instead of hurt when who == me: super(who, n - 1)"
    actions:
      boast:
        group: powers
        label: "boast with {this.key}"
        effect: me.gold += 100
  shield:
    start: pile
    while: this in me.hand
    powers:
      - rule: "instead of hurt when who == me: pass"
  coin:
    copies: 3
    start: pile
    actions:
      spend:
        group: play_card
        params:
          target: {from: players, optional: true}
        effect: |
          move this to discard
          if target != none then target.gold += 1 end
"""))


def to_hand(game, st, key, seat=0):
    m = game.m
    card = m.card_by_key[key]
    zone = m.player_zones["hand"][seat]
    st["z"][st["loc"][card.id]] = zone_without(st["z"][st["loc"][card.id]], card.id)
    st["z"][zone.id] = zone_with(st["z"][zone.id], card.id)
    st["loc"][card.id] = zone.id
    touch(st)  # the legal actions noted in this state are stale


def test_a_modifier_and_a_trigger_apply_while_their_card_is_in_hand(game):
    st = game.new_game(seed=1)
    game.apply_in_place(st, "work")
    assert game.evaluate(st, "me.gold", me=0) == 1           # no card: income(1) = 1, no trigger
    to_hand(game, st, "crown")
    game.apply_in_place(st, "work")
    assert game.evaluate(st, "me.gold", me=0) == 1 + 2 + 10  # doubled, and the payday trigger


def test_a_replacement_calls_what_it_replaces_with_super(game):
    st = game.new_game(seed=1)
    to_hand(game, st, "crown")
    game.apply_in_place(st, "fight")
    assert game.evaluate(st, "me.hurt", me=0) == 2           # super(who, n - 1): the body with 2


def test_super_runs_the_next_replacement_before_the_procedure(game):
    st = game.new_game(seed=1)
    to_hand(game, st, "crown")
    to_hand(game, st, "shield")
    game.apply_in_place(st, "fight")
    assert game.evaluate(st, "me.hurt", me=0) == 0           # crown's super -> shield's replacement


def test_unpreventable_skips_the_replacements(game):
    st = game.new_game(seed=1)
    to_hand(game, st, "shield")
    game.apply_in_place(st, "fight")
    assert game.evaluate(st, "me.hurt", me=0) == 0
    game.apply_in_place(st, "fight_anyway")
    assert game.evaluate(st, "me.hurt", me=0) == 3


def test_a_group_checks_its_requirements_with_this_and_runs_its_effect_first(game):
    st = game.new_game(seed=1)
    assert "boast" in [a.name for a in game.legal_actions(st)]
    game.apply_in_place(st, "boast")
    assert game.evaluate(st, "me.gold", me=0) == 100 and game.evaluate(st, "me.used_power", me=0)
    assert game.explain(st, "boast") == "one power per turn; crown must wait"


def test_a_card_bound_action_plays_the_first_copy_from_its_zone_with_a_shared_limit(game):
    st = game.new_game(seed=1)
    assert not [a for a in game.legal_actions(st) if a.name == "spend"]    # no coin in hand
    for key in ("coin#2", "coin#1", "coin#3"):
        to_hand(game, st, key)
    spends = sorted(str(a) for a in game.legal_actions(st) if a.name == "spend")
    assert spends == ["spend coin#2 none", "spend coin#2 p1", "spend coin#2 p2"]  # first copy; optional target
    game.apply_in_place(st, "spend coin#2 p2")
    assert game.evaluate(st, "seat(2).gold") == 1
    game.apply_in_place(st, "spend coin#1 none")
    assert game.explain(st, "spend coin#3 none") == "two cards per turn"
    assert "not a possible card" in game.explain(st, "spend coin#2 none")


def test_powers_are_compiled_once_per_copy(make_game):
    game = make_game(cards("""
  token:
    copies: 2
    start: pile
    while: this in me.hand
    powers:
      - rule: "on payday: me.gold += 5"
"""))
    st = game.new_game(seed=1)
    to_hand(game, st, "token#1")
    game.apply_in_place(st, "work")
    assert game.evaluate(st, "me.gold", me=0) == 1 + 5
    to_hand(game, st, "token#2")
    game.apply_in_place(st, "work")
    assert game.evaluate(st, "me.gold", me=0) == 6 + 1 + 10  # each copy's power


@pytest.mark.parametrize("text, message", [
    ("""
  bad:
    powers:
      - {modify: pay, value: "1"}
""", "no function `pay` to modify"),
    ("""
  bad:
    powers:
      - {modify: income, value: "1"}
functions:
  flat: {params: [], expr: "1"}
""", None),
    ("""
  bad:
    powers:
      - rule: "on payday: super"
""", "`super` runs what an `instead of` rule replaces"),
    ("""
  bad:
    copies: 2
    actions:
      use: {effect: pass}
""", "which one is `this`?"),
    ("""
  bad:
    actions:
      use: {group: powerz, effect: pass}
""", "no action group `powerz`"),
    ("""
  bad:
    actions:
      work: {effect: pass}
""", "an action `work` already exists"),
])
def test_card_power_mistakes_are_clear_errors(make_game, text, message):
    if message is None:  # a modifier of a modifiable function loads
        make_game(cards(text).replace("functions:\n  flat", "constants: {}\nfunctions2:\n  flat")
                  .replace("functions2:\n  flat: {params: [], expr: \"1\"}\n", ""))
        return
    with pytest.raises(ContentError) as e:
        make_game(cards(text))
    assert message in str(e.value)


def test_a_modifier_of_a_function_not_declared_modifiable_is_refused(make_game):
    with pytest.raises(ContentError) as e:
        make_game(cards("""
  bad:
    powers:
      - {modify: income, value: "1"}
""").replace("    modifiable: true\n", ""))
    assert "function `income` is not modifiable" in str(e.value)


def test_super_chains_through_replacements_of_a_procedure_that_waits_for_a_choice(make_game):
    game = make_game(cards("""
  amp:
    start: pile
    while: this in me.hand
    powers:
      - rule: "instead of hurt_chosen: super(n + 1)"
  damp:
    start: pile
    while: this in me.hand
    powers:
      - rule: "instead of hurt_chosen: super(n * 10)"
""").replace("procedures:\n", """procedures:
  hurt_chosen:
    params: [n]
    effect: |
      choose p from players prompt "who is hurt"
      p.hurt += n
""").replace("  work: {effect: do pay(1)}", "  work: {effect: do pay(1)}\n  strike: {effect: do hurt_chosen(3)}"))
    st = game.new_game(seed=1)
    to_hand(game, st, "amp")
    to_hand(game, st, "damp")
    game.apply_in_place(st, "strike")
    game.apply_in_place(st, "choose p2")
    assert game.evaluate(st, "seat(2).hurt") == 40   # amp: 3 + 1, then damp: 4 * 10, then the procedure


# ---- lasting effects: `effects:` on a card, `grant NAME [with VALUE]`, `until: turn|round|EVENT` ----

LASTING = """
  charm:
    start: pile
    effects:
      lucky:                     # until the end of my turn: my income + 3, and no hurt
        until: turn
        powers:
          - modify: income
            value: value + 3
          - rule: "instead of hurt when who == me: pass"
      stash:                     # a value, until the next payday (or the end of the round)
        until: [payday, round]
        default: []
        powers:
          - rule: "on payday: me.gold += length(me.stash) * 100"
    actions:
      rub:
        group: play_card
        effect: |
          grant lucky
          grant stash with [1, 2]
"""


def test_a_lasting_effect_applies_its_powers_until_the_end_of_the_turn(make_game):
    game = make_game(cards(LASTING))
    st = game.new_game(seed=1)
    game.apply_in_place(st, "work")
    assert game.evaluate(st, "me.gold", me=0) == 1                    # nothing granted: income(1) = 1
    to_hand(game, st, "charm")
    game.apply_in_place(st, "rub charm")
    assert game.evaluate(st, "me.lucky and me.stash == [1, 2]", me=0)   # plain player variables
    game.apply_in_place(st, "fight")
    assert game.evaluate(st, "me.hurt", me=0) == 0                    # the replacement, while lucky
    game.apply_in_place(st, "work")
    # income(1) + 3, and the stash's payday power (2 values): then `until: payday` ended it
    assert game.evaluate(st, "me.gold", me=0) == 1 + 4 + 200
    assert game.evaluate(st, "me.stash", me=0) == [] and game.evaluate(st, "me.lucky", me=0)
    game.apply_in_place(st, "work")
    assert game.evaluate(st, "me.gold", me=0) == 205 + 4               # stash gone, still lucky
    game.apply_in_place(st, "end_turn")
    assert not game.evaluate(st, "seat(1).lucky")                     # `until: turn`: the variable's reset
    game.apply_in_place(st, "fight")
    assert game.evaluate(st, "me.hurt", me=1) == 3                    # the other seat was never lucky


def test_a_lasting_effect_is_plain_state_and_its_powers_apply_once_for_all_copies(make_game):
    game = make_game(cards(LASTING.replace("  charm:\n    start: pile", "  charm:\n    copies: 2\n    start: pile")
                           .replace("      rub:\n", "      rub:\n        from: me.hand\n")))
    st = game.new_game(seed=1)
    assert list(st["pv"]["lucky"]) == [False, False] and list(st["pv"]["stash"]) == [[], []]
    to_hand(game, st, "charm#1")
    to_hand(game, st, "charm#2")
    game.apply_in_place(st, "rub charm#1")
    game.apply_in_place(st, "work")
    assert game.evaluate(st, "me.gold", me=0) == 1 + 3 + 200          # once, not once per copy


@pytest.mark.parametrize("text, message", [
    ("""
  bad:
    effects:
      gold: {until: turn}
""", "`gold` is already a player variable"),
    ("""
  bad:
    effects:
      lucky: {until: paydya}
""", "`until` names no event `paydya`"),
])
def test_lasting_effect_mistakes_are_clear_errors(make_game, text, message):
    with pytest.raises(ContentError) as e:
        make_game(cards(text))
    assert message in str(e.value)
