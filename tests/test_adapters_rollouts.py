"""What OpenSpiel's rollouts pay for at every move through the adapter (issue 33: ISMCTSBot at half
the speed of our own ismcts): the ids of a listing, identical pieces renamed (canonical.py's
`names`, openspiel.py's `_Parts.listed`), and the dice of one roll in explicit chance, one chance
node each but their decision stopped once (runtime/draws.py's `in_a_row`). Each fast path is held
against the plain definition it replaces."""
from __future__ import annotations

import random

import pytest

pyspiel = pytest.importorskip("pyspiel")

import interpreter.adapters.openspiel  # noqa: E402,F401  (registers "interpret")
from interpreter.engine.game import Game  # noqa: E402
from interpreter.information.observation import identified_place  # noqa: E402

SIDES = """\
game:
  name: sides
  title: Sides
  players: {min: 2, max: 4, default: 4}
cards:
  coin: {copies: 6, props: {value: 1}}
  gem: {copies: 3, props: {value: 2}}
vars:
  card:
    face_down: {default: false, conceals: true}
zones:
  bag: {visibility: hidden}
  pile: {visibility: top}
  purse: {per_player: true, visibility: side}
  table: {visibility: public}
flow:
  setup: |
    for c in cards do move c to bag end
    shuffle bag
  turn:
    steps:
      - name: pick
actions:
  take:
    params:
      card: {from: cards where it.zone != me.purse}
    effect: |
      move card to me.purse
      if length(bag.cards) == 0 then finish game end
  give:
    params:
      card: {from: me.purse.cards}
    effect: |
      move card to pile
  hide:
    params:
      card: {from: me.purse.cards}
    effect: |
      move card to table
      card.face_down = true
scoring:
  score: sum(c.value for c in me.purse.cards)
  side: me.id % 2
"""


def _names_by_definition(canon, st, seat, named, back=False) -> dict:
    """Canon.names as its documentation defines it, from observation.identified_place."""
    out = {}
    for g in {canon.group_of[canon.cid_of[x]] for x in named}:
        ids = canon.groups[g]
        places = sorted((place, cid) for cid in ids
                        if (place := identified_place(canon.game, st, seat, cid)) is not None)
        for (_, old), new in zip(places, ids):
            if old != new:
                out[canon.keys[new] if back else canon.keys[old]] = canon.keys[old] if back else canon.keys[new]
    return out


def _states(game, *, games: int, seed: int, every: int = 1, most: int = 60):
    """States along random games: one in `every`, `most` at most."""
    rng = random.Random(seed)
    n = 0
    for _ in range(games):
        state = game.new_initial_state()
        while not state.is_terminal() and n < most * every:
            if n % every == 0:
                yield state
            n += 1
            state.apply_action(rng.choice(state.legal_actions()))


@pytest.mark.parametrize("params", ["game=agent-dog", "game=dark-agent,players=4"])
def test_the_renaming_of_identical_pieces_is_the_one_their_places_define(params, tmp_path):
    """Agent DOG conceals cards (`infiltrated`) and shows a pile's top card; Dark Agent too shows
    top cards: every seat's renaming, both ways, is the one identified_place gives."""
    game = pyspiel.load_game(f"interpret({params})")
    canon, n = game.canon, 0
    every = set(canon.copy_keys)
    for state in _states(game, games=1, seed=3, every=9, most=12):
        for seat in range(game.num_players()):
            for back in (False, True):
                assert canon.names(state._st, seat, every, back=back) == \
                    _names_by_definition(canon, state._st, seat, every, back)
                n += 1
    assert n > 60


def test_the_renaming_follows_zones_shown_by_side_by_top_card_and_cards_concealed(tmp_path):
    (tmp_path / "game.yaml").write_text(SIDES)
    g = Game.load(str(tmp_path))
    canon = pyspiel.load_game(f"interpret(game={tmp_path},players=4)").canon
    rng = random.Random(5)
    st, changed = g.new_game(1), 0
    every = set(canon.copy_keys)
    while not g.is_terminal(st):
        for seat in range(4):
            names = canon.names(st, seat, every)
            assert names == _names_by_definition(canon, st, seat, every)
            changed += bool(names)
        st = g.apply(st, rng.choice(g.legal_actions(st)))
    assert changed > 10


def test_the_places_a_seat_identifies_are_read_from_its_own_plan_made_once(tmp_path):
    """observation.identified_places (every listing of an adapter's state places the pieces it
    names) reads the zone plan through each seat's own (`_seat_plan`, made once a seat), and
    tells, card by card, what identified_place tells: zones shown by side, by top card, and cards
    concealed."""
    from interpreter.information import observation
    (tmp_path / "game.yaml").write_text(SIDES)
    g = Game.load(str(tmp_path))
    plans = [observation._seat_plan(g.m, seat) for seat in range(4)]
    assert [observation._seat_plan(g.m, seat) for seat in range(4)] == plans
    assert all(observation._seat_plan(g.m, seat) is plan for seat, plan in enumerate(plans))
    assert len({plan for plan in plans}) > 1
    rng = random.Random(5)
    st, seen = g.new_game(1), set()
    cids = range(len(g.m.cards))
    while not g.is_terminal(st):
        for seat in range(4):
            places = observation.identified_places(g, st, seat, cids)
            assert places == [(*place, cid) for cid in cids if (place := identified_place(g, st, seat, cid))]
            seen.add(len(places))
        st = g.apply(st, rng.choice(g.legal_actions(st)))
    assert len(seen) > 3


@pytest.mark.parametrize("params", ["game=agent-dog", "game=dark-agent,players=4,variants=teams",
                                    "game=agents-secrets,players=6", "game=tic-tac-toe"])
def test_a_listing_numbers_each_action_as_the_seat_s_view_names_it(params):
    """The ids `legal_actions` gives are those of the actions renamed as the seat sees them
    (canonical.renamed, then action_index.id_of), however `_Parts.listed` finds them."""
    game = pyspiel.load_game(f"interpret({params})")
    n = 0
    for state in _states(game, games=1, seed=4, every=3):
        if state.is_chance_node():
            continue
        st, seat, parts = state._st, state.current_player(), state._parts
        actions = state._g.legal_actions(st)
        plain = {parts.index.id_of(x): a for x, a in zip(parts.canon.renamed(st, seat, actions), actions)}
        assert parts.listed(st, seat, actions) == plain
        assert state.legal_actions() == sorted(plain)
        n += 1
    assert n > 1


DICE = """\
game:
  name: dice
  title: Dice
  players: {min: 2, max: 2, default: 2}
vars:
  player:
    total: 0
flow:
  turn:
    steps:
      - name: go
actions:
  throw:
    effect: |
      let d = roll(4)
      me.total = me.total + sum(d) + first(roll(1, 20))
      if me.total > 60 then finish game end
scoring:
  score: me.total
"""


def test_the_dice_of_one_roll_stop_their_decision_once(tmp_path):
    """A throw rolls four dice, then a d20: five chance nodes, as before, but the throw stops at
    the first die only and runs again after the fourth (the others are known in a row, as a
    shuffle's steps), then after the d20: three runs, where each die made one (six)."""
    (tmp_path / "game.yaml").write_text(DICE)
    game = Game.load(str(tmp_path))
    runs = []
    plain = game._apply_plain
    game._apply_plain = lambda *a: (runs.append(1), plain(*a))[1]
    st = game.new_game(0, chance="explicit")
    pick = random.Random(1)
    game.apply_in_place(st, "throw")
    nodes, chosen = [], []
    while game.is_chance(st):
        nodes.append((st["flow"]["node"]["n"], st["flow"]["node"]["what"]))
        chosen.append(pick.randrange(len(game.chance_outcomes(st))))
        game.apply_in_place(st, f"chance {chosen[-1]}")
    assert nodes == [(6, "a die (d6)")] * 4 + [(20, "a die (d20)")]
    assert st["pv"]["total"][0] == sum(chosen) + 5  # each die shows its outcome + 1
    assert len(runs) <= 3, runs
