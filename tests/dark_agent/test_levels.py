"""§2.4 Le niveau de la partie: sentinel and grey agent levels, and the agency power unlock."""
from __future__ import annotations

from collections import Counter

import pytest

from helpers import after_setup, ev, play


def levels(pos, n):
    return Counter(ev(pos, f"sentinel_levels({n})"))


@pytest.mark.parametrize("level,n,expected", [
    ("debutant", 12, {2: 12}),
    ("moyen", 12, {2: 5, 3: 5, 5: 2}),      # §2.4: 5 objectives, 12 sentinels
    ("averti", 12, {3: 6, 5: 6}),
    ("moyen", 10, {2: 4, 3: 4, 5: 2}),      # 7 objectives, 10 sentinels
    ("averti", 10, {3: 5, 5: 5}),
    ("moyen", 15, {2: 7, 3: 6, 5: 2}),      # §16: computed on the total (15 sentinels at Moyen)
    ("averti", 30, {3: 15, 5: 15}),         # §16: 30 at Averti
    ("averti", 11, {3: 6, 5: 5}),           # an odd count: level 3 takes the odd one
    ("moyen", 13, {2: 6, 3: 5, 5: 2}),      # an odd remainder: level 2 takes it
])
def test_sentinel_distribution(level, n, expected):
    pos = after_setup(players=4, seed=1, level=level)
    assert levels(pos, n) == Counter(expected)


@pytest.mark.parametrize("level,grey", [
    ("debutant", {1: 2, 7: 2}),
    ("moyen", {1: 2, 7: 3}),                # 2 and 3 alternating from left to right
    ("averti", {1: 3, 7: 5}),               # 3 and 5 alternating
])
def test_grey_agents_by_level(level, grey):
    pos = after_setup(players=4, seed=1, level=level)
    for col, lv in grey.items():
        card = pos.catalog.card_by_key[pos.cards(f"r3c{col}")[0]]
        assert "grey" in card.tags and card.props["level"] == lv


def test_grey_agents_alternate_with_two_players_at_moyen():
    pos = after_setup(players=2, seed=1, level="moyen")
    got = [pos.catalog.card_by_key[pos.cards(f"r3c{c}")[0]].props["level"] for c in (1, 2, 6, 7)]
    assert got == [2, 3, 2, 3]


@pytest.mark.parametrize("level,count", [("moyen", {2: 5, 3: 5, 5: 2}), ("averti", {3: 6, 5: 6})])
def test_sentinels_dealt_at_level(level, count):
    pos = after_setup(players=4, seed=4, level=level)
    dealt = Counter(pos.catalog.card_by_key[pos.cards(f"r{r}c{c}")[0]].props.get("level")
                    for r in (1, 2, 4) for c in range(1, 8)
                    if "sentinel" in pos.catalog.card_by_key[pos.cards(f"r{r}c{c}")[0]].tags)
    assert dealt == Counter(count)


def test_agency_power_unlocks_with_spy_5_and_stays():
    """§11 and §17: at Moyen the power unlocks when spy 5 is sent, and stays after it is wounded."""
    pos = after_setup(players=4, seed=2, level="moyen")
    assert not pos.get("p1", "unlocked")
    pos.turn("p1", step="act", round=2)
    pos.set("p1", "sends", 3)
    for cell in ("r1c1", "r1c2", "r1c3"):
        pos.clear(cell)
    play(pos, "send_spy r1c1", "send_spy r1c2")
    assert not pos.get("p1", "unlocked")                     # spies 2 and 3: the weakest first
    play(pos, "send_spy r1c3")
    assert pos.where("spy_5.p1") == "r1c3"
    assert pos.get("p1", "unlocked")                         # spy 5 arrives: unlocked
    pos.move("spy_5.p1", "spies.p1")                         # wounded later...
    assert pos.get("p1", "unlocked")                         # ...the power stays unlocked


def test_debutant_powers_active_from_the_start():
    pos = after_setup(players=4, seed=2)
    assert all(pos.get(f"p{i}", "unlocked") for i in range(1, 5))
