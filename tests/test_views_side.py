"""Zones shown by side: a `side` zone is seen by its owner and by every seat of the owner's side.

A seat's side is the content's `scoring.side` evaluated for that seat. The oracles below
compute the sides in Python from the rules (seat parity; the alternation of Dark Agent's
§13.1), so that they share no code with interpreter/information/views.py. Every test fails on a view
that shows a side zone to an opponent, or hides it from a teammate.
"""
from __future__ import annotations

import json
import random

import pytest

from interpreter.runtime import visibility
from interpreter.engine.game import Game
from interpreter.information.views import view, visible_cards

GAME = """\
game:
  name: sides
  title: Sides
  players: {min: 2, max: 5, default: 4}
cards:
  coin: {copies: 12, props: {value: 1}}
zones:
  bag: {visibility: hidden}
  purse: {per_player: true, visibility: side}
flow:
  setup: |
    for c in cards do move c to bag end
    shuffle bag
  round:
    end: |
      if bag.empty then finish game end
  turn:
    steps:
      - name: pick
actions:
  take:
    effect: |
      draw 1 from bag to me.purse
      finish turn
scoring:
  score: me.purse.count
"""

PARITY = "  side: me.index % 2          # seats 1, 3, 5 against seats 2, 4\n"


def playout_states(game, seed=0):
    st = game.new_game(seed)
    while True:
        yield st
        if game.is_terminal(st):
            return
        st = game.apply(st, game.legal_actions(st)[0])


def side_problems(game, state, sides) -> list[str]:
    """What is wrong with each seat's view of the `side` zones, given the expected side of each seat."""
    problems = []
    m = game.m
    for seat in [None, *range(game.num_players)]:
        v = view(game, state, seat)
        text = json.dumps(v)
        seen = visible_cards(game, state, seat)
        for zone, ids in zip(m.zones, state["z"]):
            if zone.visibility != "side" or not ids:
                continue
            keys = {m.cards[i].key for i in ids}
            allowed = seat is not None and sides[zone.owner.id] == sides[seat]
            who = "spectator" if seat is None else m.seats[seat].key
            shown = {k for k in keys if json.dumps(k) in text}
            if not allowed and (shown or keys & seen):
                problems.append(f"{who} sees {zone.key} of the other side: {sorted(shown | (keys & seen))}")
            if allowed and (shown != keys or not keys <= seen):
                problems.append(f"{who} misses {zone.key} of its own side")
            listed = "cards" in v["zones"][zone.key]
            if listed != allowed:
                problems.append(f"{who}: the list of {zone.key} is {'shown' if listed else 'missing'}")
    return problems


@pytest.fixture
def sides_game(write_game):
    def make(side_line: str = PARITY, players: int = 4) -> Game:
        text = GAME.replace("  score: me.purse.count\n", "  score: me.purse.count\n" + side_line)
        return Game.load(str(write_game(text)), players=players)
    return make


def test_a_side_zone_is_seen_by_the_owners_side_only(sides_game):
    for players in (2, 3, 4, 5):
        g = sides_game(players=players)
        sides = [(i + 1) % 2 for i in range(players)]
        for st in playout_states(g):
            assert side_problems(g, st, sides) == []


def test_without_scoring_side_a_side_zone_is_an_owner_zone(sides_game):
    g = sides_game(side_line="")
    for st in playout_states(g):
        assert side_problems(g, st, list(range(4))) == []


def test_the_side_check_catches_a_leak_to_an_opponent(sides_game, monkeypatch):
    g = sides_game()
    monkeypatch.setattr(visibility, "on_side", lambda zone, seat, sides: zone.visibility == "side" and seat is not None)
    problems = [p for st in playout_states(g) for p in side_problems(g, st, [(i + 1) % 2 for i in range(4)])]
    assert any("of the other side" in p for p in problems)


def test_the_side_check_catches_a_teammate_left_blind(sides_game, monkeypatch):
    g = sides_game()
    monkeypatch.setattr(visibility, "on_side", lambda zone, seat, sides: False)
    problems = [p for st in playout_states(g) for p in side_problems(g, st, [(i + 1) % 2 for i in range(4)])]
    assert any("misses" in p for p in problems)


def test_sees_tells_rules_and_scenarios_what_a_view_shows(sides_game):
    g = sides_game()
    for st in playout_states(g):
        for seat in range(g.num_players):
            seen = visible_cards(g, st, seat)
            for c in g.m.cards:
                assert g.evaluate(st, f'sees(seat({seat + 1}), card_named("{c.key}"))') == (c.key in seen)
    assert g.evaluate(g.new_game(0), 'sees(none, card_named("coin#1"))') is False


# ---- Dark Agent in teams (§13.2 « Le matériel des coéquipiers est visible de l'équipe ») ----------

def alternation(players: int, team_size: int) -> list[int]:
    """§13.1, written independently of the content: complete teams dealt in alternation, then the rest."""
    complete = players // team_size
    return [i % complete if i < complete * team_size else complete for i in range(players)]


def test_the_alternation_oracle_follows_the_rulebook_examples():
    assert alternation(4, 2) == [0, 1, 0, 1]                       # 1st and 3rd against 2nd and 4th
    assert alternation(6, 3) == [0, 1, 0, 1, 0, 1]                 # odds against evens
    assert alternation(6, 2) == [0, 1, 2, 0, 1, 2]                 # 1-4, 2-5, 3-6
    assert alternation(7, 3) == [0, 1, 0, 1, 0, 1, 2]              # 1-3-5, 2-4-6, and 7 alone
    assert alternation(9, 2) == [0, 1, 2, 3, 0, 1, 2, 3, 4]        # four teams of 2 and one alone


@pytest.mark.parametrize("players", [3, 4])
def test_dark_agent_teams_equipment_is_seen_by_the_team_only(players):
    g = Game.load("dark-agent", players=players, variants=["teams"])
    sides = alternation(players, 2)
    for seed in range(2):
        rnd = random.Random(seed)
        st = g.new_game(seed)
        checked = 0
        while not g.is_terminal(st):
            if any(st["z"][z.id] for z in g.m.player_zones["equipment"]):
                assert side_problems(g, st, sides) == []
                checked += 1
            st = g.apply(st, rnd.choice(g.legal_actions(st)))
        assert checked > 0


def test_dark_agent_without_teams_keeps_equipment_to_its_owner():
    g = Game.load("dark-agent", players=4)
    assert {z.visibility for z in g.m.player_zones["equipment"]} == {"owner"}
