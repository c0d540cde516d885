"""The rulebook's worked examples (dark-agent.fr.txt), asserting the rulebook's own figures."""
from __future__ import annotations

import pytest

from helpers import after_setup, clear_space, ev, give_agency, place, play

ANNE, BOB, CHLOE, DAN = "p1", "p2", "p3", "p4"


def anne_first_turn():
    """« Le premier tour d'Anne, commenté »: 4 players, Anne first, no satellite step."""
    pos = after_setup(players=4, seed=7)
    give_agency(pos, ANNE, "canada")          # an agency with no passive effect on this turn
    clear_space(pos)
    for k in ("satellite#1.p1", "satellite#2.p1"):
        pos.move(k, "space3")
    pos.move("satellite#3.p1", "space5")
    for col in (3, 4, 5):                      # 4 players: one neutral satellite on columns 3, 4 and 5
        pos.move(pos.first("neutral_satellite", "box"), f"space{col}")
    place(pos, "sentinel_2", "r1c3")
    place(pos, "ravitaillement", "r2c5")
    pos.move(pos.first("adrenaline"), "deck", top=True)
    # the other players' satellites, away from columns 3 to 5
    for seat, cols in ((BOB, (1, 1, 2)), (CHLOE, (6, 6, 7)), (DAN, (7, 7, 2))):
        for i, col in enumerate(cols):
            pos.move(f"satellite#{i + 1}.{seat}", f"space{col}")
    pos.turn(ANNE, step="act", round=1)
    return pos


def test_anne_vision_and_targetings():
    pos = anne_first_turn()
    assert pos.get(None, "first_player").key == ANNE
    assert ev(pos, "step") == "act"                         # no satellite step for the first player in round 1
    assert ev(pos, "depth(3)", 0) == 3 and ev(pos, "my_satellites_in(3)", 0) == 2
    assert ev(pos, "depth(5)", 0) == 2 and ev(pos, "my_satellites_in(5)", 0) == 1
    assert ev(pos, "depth(4)", 0) == 1 and ev(pos, "my_satellites_in(4)", 0) == 0


def test_anne_first_turn():
    pos = anne_first_turn()
    sentinel = pos.cards("r1c3")[0]
    play(pos, "target r3c3")                                 # her spy 1: engaged, ATK 1
    assert pos.get(ANNE, "atk") == 1
    play(pos, "target r1c3")                                 # the level-2 sentinel becomes a target
    assert pos.get(sentinel, "is_target")
    assert ev(pos, "targetings_left(3)", 0) == 0             # two targetings in column 3, both used
    play(pos, "target r2c5")                                 # Ravitaillement: the first card of the deck
    assert [pos.catalog.card_by_key[k].name for k in pos.cards("equipment.p1")] == ["adrenaline"]
    adrenaline = pos.cards("equipment.p1")[0]
    play(pos, f"adrenaline {adrenaline}")                    # + 1, the level of her only engaged spy
    assert pos.get(ANNE, "atk") == 2
    pos.force_dice(4, 5, 2, 6)
    state_before = pos.state
    play(pos, f"attack {sentinel}")
    roll = [e for e in pos.game.apply_in_place(state_before, f"attack {sentinel}").events if e[0] == "attack_roll"]
    _, (attacker, target, dice, total, defense) = roll[0]
    assert dice == [4, 5, 2, 6] and total == 19 and defense == 15  # 17 + 2 = 19 >= 15: success
    assert pos.where(sentinel) == "victory.p1"
    assert pos.get(ANNE, "score") == 3                       # her cube moves to 3
    top_of_deck = pos.cards("deck")[0]
    play(pos, "end_turn")
    assert pos.cards("r1c3") == [top_of_deck]                # the empty cell receives the first card of the deck
    assert pos.get(ANNE, "atk") == 0                         # ATK markers returned
    assert not any(pos.get(c.key, "targeted") for c in pos.catalog.cells)   # targeting markers removed
    assert ev(pos, "current").key == BOB                     # Bob plays next...
    assert ev(pos, "step") == "satellites"                   # ...and for him the satellite step is mandatory


def test_anne_failure_never_wounds_spy_1():
    pos = anne_first_turn()
    sentinel = pos.cards("r1c3")[0]
    play(pos, "target r3c3", "target r1c3")
    pos.force_dice(1, 1, 2, 3)
    play(pos, f"attack {sentinel}")
    assert pos.where("spy_1.p1") == "r3c3"                    # the level-1 spy is never wounded
    assert pos.get(ANNE, "score") == 1
    assert ev(pos, "current").key == BOB                     # a failed attack ends the turn at once


def vert_example_1():
    """Exemple 1: Vert engaged spies 1 and 3 (ATK 4) against a level-3 sentinel (defence 20)."""
    pos = after_setup(players=4, seed=3)
    give_agency(pos, "p1", "canada")
    clear_space(pos)
    for k in ("satellite#1.p1", "satellite#2.p1", "satellite#3.p1"):
        pos.move(k, "space3")                                 # full vision on column 3
    assert pos.where("spy_1.p1") == "r3c3"
    pos.move("spy_3.p1", "r2c3")
    place(pos, "sentinel_3", "r1c3")
    pos.turn("p1", step="act", round=2)
    pos.set("p1", "atk", 0)
    pos.set("p1", "score", 1 + 3)              # spies 1 and 3 on the theatre
    return pos


def test_example_1_sentinel_level_3_success_by_a_hair():
    pos = vert_example_1()
    sentinel = pos.cards("r1c3")[0]
    play(pos, "target r3c3", "target r2c3")
    assert pos.get("p1", "atk") == 4
    play(pos, "target r1c3")
    pos.force_dice(5, 4, 4, 3)
    play(pos, f"attack {sentinel}")                          # 16 + 4 = 20 >= 20
    assert pos.where(sentinel) == "victory.p1"
    assert pos.get("p1", "score") == 4 + 3                   # Vert scores 3 points
    assert pos.game.check_invariants(pos.state) == []
    assert pos.cards("r1c3") == []                           # the cell is empty until the end of the turn


def centre_controle_position():
    """Exemple 2: the Centre de contrôle in row 2, no enemy around, already 2 attempt markers."""
    pos = after_setup(players=4, seed=11)
    for s in ("p1", "p2"):
        give_agency(pos, s, "canada" if s == "p1" else "norvege")
    clear_space(pos)
    pos.move("satellite#1.p1", "space4")                      # Rouge: two satellites in the column
    pos.move("satellite#2.p1", "space4")
    pos.move("satellite#1.p2", "space4")                      # Jaune: one
    pos.move("centre_controle", "r2c4")
    for cell in ("r1c4", "r3c4", "r2c3", "r2c5"):             # no enemy on its 4 neighbours
        pos.clear(cell)
    pos.set("centre_controle", "attempts", 2)
    # Rouge (p1) engaged its spies 2 and 3; Jaune (p2) its spies 1 and 3
    pos.move("spy_2.p1", "r4c1")
    pos.move("spy_3.p1", "r5c1")
    pos.move("spy_1.p2", "r4c7")
    pos.move("spy_3.p2", "r5c7")
    return pos


def engage(pos, seat, *spies):
    for s in spies:
        pos.set(s, "engaged", True)
        pos.set(seat, "atk", pos.get(seat, "atk") + pos.catalog.card_by_key[s].props["level"])


def test_example_2_two_attackers_on_the_centre_de_controle():
    pos = centre_controle_position()
    pos.turn("p1", step="act", round=3, order=["p1", "p2", "p3", "p4"])
    pos.set("p1", "atk", 0)
    engage(pos, "p1", "spy_2.p1", "spy_3.p1")
    assert pos.get("p1", "atk") == 5
    play(pos, "target r2c4")
    pos.force_dice(2, 3, 4, 1)
    play(pos, "attack centre_controle")                       # 10 + 5 + 2 markers = 17 < 20: failure
    assert pos.get("centre_controle", "attempts") == 3        # a third attempt marker
    assert pos.where("spy_2.p1") == "r4c1" and pos.where("spy_3.p1") == "r5c1"   # never wounded against an objective
    assert ev(pos, "current").key == "p2"                     # Rouge's turn ended at once
    # Jaune plays next (her satellite step is done for the example)
    pos.turn("p2", step="act")
    pos.set("p2", "atk", 0)
    engage(pos, "p2", "spy_1.p2", "spy_3.p2")
    assert pos.get("p2", "atk") == 4
    score_before = pos.get("p2", "score")
    play(pos, "target r2c4")
    pos.force_dice(3, 4, 6, 2)
    play(pos, "attack centre_controle")                       # 15 + 4 + 3 markers = 22 >= 20: success
    assert pos.where("centre_controle") == "victory.p2"
    assert pos.get("p2", "score") == score_before + 6 + 3     # 6 points and the last-objective token
    assert pos.get(None, "last_objective").key == "p2"
    assert pos.get("centre_controle", "attempts") == 0        # the markers go back to the supply
    assert ev(pos, "depth(4)", 1) == 5                        # from now on her satellites see whole columns


def kara_position(seed=5):
    """Exemple 3: Bleu, 3 satellites on column 4, spies 3 and 5 engaged (ATK 8)."""
    pos = after_setup(players=4, seed=seed)
    give_agency(pos, "p1", "norvege")
    clear_space(pos)
    for k in ("satellite#1.p1", "satellite#2.p1", "satellite#3.p1"):
        pos.move(k, "space4")
    assert pos.where("kara") == "r3c4"
    pos.move("spy_3.p1", "r1c1")
    pos.move("spy_5.p1", "r2c1")
    pos.turn("p1", step="act", round=2)
    pos.set("p1", "atk", 0)
    engage(pos, "p1", "spy_3.p1", "spy_5.p1")
    pos.set("p1", "score", 1 + 3 + 5)
    pos.clear("equipment.p1")
    pos.move(pos.first("adrenaline"), "equipment.p1")
    pos.move(pos.first("lance_roquettes"), "equipment.p1")
    return pos


def kara_attack(pos, attack_dice, defense_die, vest=False):
    assert ev(pos, "depth(4)", 0) == 5                         # 3 satellites: the whole column
    play(pos, "target r3c4")
    adrenaline = pos.first("adrenaline", "equipment.p1")
    play(pos, f"adrenaline {adrenaline}")                     # + 5, his strongest engaged spy
    assert pos.get("p1", "atk") == 13
    play(pos, f"lance_roquettes {pos.first('lance_roquettes', 'equipment.p1')}")
    if vest:
        pos.move(pos.first("gilet"), "equipment.p1")
        play(pos, f"gilet {pos.first('gilet', 'equipment.p1')}")
    pos.force_dice(*attack_dice, defense_die)
    events = pos.game.apply_in_place(pos.state, "attack kara").events
    return [e for e in events if e[0] == "attack_roll"][0][1]


def test_example_3_kara_assault_success():
    pos = kara_position()
    _, _, dice, total, defense = kara_attack(pos, (1, 4, 4, 6), 4)
    assert dice == [6, 4, 4, 6] and total == 33 and defense == 29
    assert pos.where("kara") == "victory.p1"
    assert pos.get("p1", "score") == 9 + 6 + 3                # 6 points and the last-objective token
    assert pos.get(None, "last_objective").key == "p1"
    assert len(pos.cards("equipment.p1")) == 1                 # draws an equipment: his reserve had room
    assert ev(pos, "objectives_won()") == 1                   # Kara counts as an objective won


def test_example_3_no_four_of_a_kind_still_succeeds():
    pos = kara_position()
    _, _, dice, total, defense = kara_attack(pos, (1, 4, 4, 4), 4)
    assert dice == [6, 4, 4, 4] and total == 31 and defense == 29
    assert pos.where("kara") == "victory.p1"


def test_example_3_failure_wounds_spies_3_and_5():
    pos = kara_position()
    _, _, dice, total, defense = kara_attack(pos, (1, 2, 3, 4), 5)
    assert dice == [6, 2, 3, 4] and total == 28 and defense == 30
    assert pos.where("kara") == "r3c4"
    assert pos.where("spy_3.p1") == "spies.p1" and pos.where("spy_5.p1") == "spies.p1"
    assert pos.get("p1", "score") == 9 - 8                     # Bleu moves his cube back 8 points
    assert ev(pos, "current").key == "p2"                     # and his turn stops


def test_example_3_gilet_prevents_the_wounds():
    pos = kara_position()
    kara_attack(pos, (1, 2, 3, 4), 5, vest=True)
    assert pos.where("spy_3.p1") == "r1c1" and pos.where("spy_5.p1") == "r2c1"
    assert pos.get("p1", "score") == 9


def test_four_of_a_kind_always_succeeds():
    """§6.3 and Exemple 3: 2, 2, 2, 2 with an ATK of 1 against Kara succeeds."""
    pos = after_setup(players=4, seed=5)
    give_agency(pos, "p1", "norvege")
    clear_space(pos)
    for k in ("satellite#1.p1", "satellite#2.p1", "satellite#3.p1"):
        pos.move(k, "space4")
    pos.move("spy_1.p1", "r2c4")
    pos.turn("p1", step="act", round=2)
    pos.set("p1", "atk", 0)
    play(pos, "target r2c4", "target r3c4")
    assert pos.get("p1", "atk") == 1
    pos.force_dice(2, 2, 2, 2, 6)                              # 8 + 1 = 9 against 31
    play(pos, "attack kara")
    assert pos.where("kara") == "victory.p1"


def test_turn_order_over_three_rounds():
    """§3: Anne, Bob, Chloé, Dan; then Dan, Anne, Bob, Chloé; then Chloé, Dan, Anne, Bob."""
    g = after_setup(players=4, seed=2).game
    st = after_setup(players=4, seed=2).state
    seen = []
    while st["flow"]["round"] <= 3:
        p = g.current_player(st)
        if not seen or seen[-1] != (st["flow"]["round"], p):
            seen.append((st["flow"]["round"], p))
        acts = g.legal_actions(st)
        st = g.apply(st, "end_turn" if any(str(a) == "end_turn" for a in acts) else acts[0])
    names = {r: [g.seats[p].name for rr, p in seen if rr == r] for r in (1, 2, 3)}
    assert names[1] == ["Anne", "Bob", "Chloé", "Dan"]
    assert names[2] == ["Dan", "Anne", "Bob", "Chloé"]
    assert names[3] == ["Chloé", "Dan", "Anne", "Bob"]


def scoring_example():
    """§12.2: 4 players, 3 objectives agreed; after round 6 two objectives and Kara are won."""
    pos = after_setup(players=4, seed=9)
    for c in pos.catalog.cells:
        if "theatre" in c.tags:
            pos.clear(c.key)
    cells = iter(f"r{r}c{c}" for r in (1, 2, 4, 5) for c in range(1, 8))
    for s in ("p1", "p2", "p3", "p4"):
        pos.move(f"spy_1.{s}", next(cells))
    for spy in ("spy_2.p1", "spy_3.p1", "spy_2.p2", "spy_2.p3", "spy_3.p3", "spy_5.p3", "spy_2.p4"):
        pos.move(spy, next(cells))
    pos.move("invulnerabilite", "victory.p1")
    pos.move(pos.first("sentinel_5", "box"), "victory.p1")
    pos.move(pos.first("sentinel_3", "box"), "victory.p1")
    pos.move("kara", "victory.p2")
    pos.move(pos.first("sentinel_2", "box"), "victory.p2")
    pos.move("prisonnier", "victory.p3")
    pos.move("spy_3.p4", "victory.p3")                         # Dan's spy 3 eliminated by Chloé
    pos.move(pos.first("sentinel_5", "box"), "victory.p4")
    pos.move(pos.first("sentinel_3", "box"), "victory.p4")
    pos.move(pos.first("grey_2", "box"), "victory.p4")
    pos.set(None, "last_objective", "p2")                      # Bob eliminated Kara last
    pos.set(None, "kara_by", "p2")
    pos.set(None, "first_player", "p3")                        # Chloé holds the first-player token
    for s, score in (("p1", 20), ("p2", 14), ("p3", 20), ("p4", 13)):
        pos.set(s, "score", score)
    return pos


def test_scoring_example_totals():
    pos = scoring_example()
    assert [ev(pos, f"computed_score(seat({i}))") for i in (1, 2, 3, 4)] == [20, 14, 20, 13]
    assert pos.game.check_invariants(pos.state) == []


def test_scoring_example_tie_break_first_player_token():
    pos = scoring_example()
    ranking = pos.game.ranking(pos.state)
    assert [pos.catalog.seats[i].name for i in ranking] == ["Chloé", "Anne", "Bob", "Dan"]


def test_scoring_example_game_ends_after_round_6():
    pos = scoring_example()
    assert ev(pos, "objectives_won()") == 3                   # two objectives and Kara
    pos.turn("p2", step="act", round=6, order=["p3", "p4", "p1", "p2"])
    play(pos, "end_turn")                                     # the last player finishes: end of the round
    assert pos.game.is_terminal(pos.state)
    assert pos.game.winners(pos.state) == [2]                 # Chloé


@pytest.mark.parametrize("players,spy_columns,grey_columns,neutral", [
    (2, [3, 5], [1, 2, 6, 7], {1: 3, 2: 1, 4: 3, 6: 1, 7: 1}),
    (3, [3, 5, 2], [1, 6, 7], {1: 1, 2: 1, 4: 1, 6: 1, 7: 1}),
    (4, [3, 5, 2, 6], [1, 7], {3: 1, 4: 1, 5: 1}),
])
def test_setup_tables(players, spy_columns, grey_columns, neutral):
    """§2.3, steps 1 to 6, for 2 to 4 players (1 player is the solo variant, §14)."""
    g = after_setup(players=players, seed=1).game
    st = g.new_game(1)
    from interpreter.scenarios.position import Position
    pos = Position(g, st)
    # step 5 is done before any player places a satellite
    counts = {c: sum(1 for k in pos.cards(f"space{c}") if pos.catalog.card_by_key[k].name == "neutral_satellite")
              for c in range(1, 8)}
    assert {c: n for c, n in counts.items() if n} == neutral
    assert pos.where("kara") == "r3c4"
    for i, col in enumerate(spy_columns):
        assert pos.where(f"spy_1.p{i + 1}") == f"r3c{col}"     # first player first, from the centre outwards
    for col in grey_columns:
        assert pos.catalog.card_by_key[pos.cards(f"r3c{col}")[0]].name == "grey_2"   # Débutant: all level 2
    dealt = [pos.catalog.card_by_key[pos.cards(f"r{r}c{c}")[0]] for r in (1, 2, 4) for c in range(1, 8)]
    assert sum(1 for c in dealt if "objective" in c.tags) == 5
    assert sum(1 for c in dealt if "special" in c.tags) == 4
    assert sum(1 for c in dealt if c.name == "sentinel_2") == 12       # 21 - 5 - 4 = 12 sentinels of level 2
    assert all("equipment" in pos.catalog.card_by_key[pos.cards(f"r5c{c}")[0]].tags for c in range(1, 8))
    assert len(pos.cards("deck")) == 40 - 7
    assert pos.get(None, "double_agent").key == f"p{players}"   # the last player takes the double-agent token
    # step 6: from the last player backwards, one satellite each, until 3 each
    order = []
    while st["pending"]:
        order.append(g.current_player(st))
        st = g.apply(st, g.legal_actions(st)[0])
    expected = [(players - 1 - k) % players for k in range(players)] * 3
    assert order == expected
    pos = Position(g, st)
    for s in range(1, players + 1):
        assert sum(1 for c in range(1, 8) for k in pos.cards(f"space{c}") if k.endswith(f".p{s}")) == 3
        assert pos.get(f"p{s}", "score") == 1
    assert all(len(pos.cards(f"space{c}")) <= 3 for c in range(1, 8))


@pytest.mark.parametrize("text, value", [
    ("all_same([2, 2, 2, 2])", True), ("all_same([2, 2, 5, 2])", False), ("all_same([])", False),
    ("replace_lowest([3, 1, 2, 1], 6)", [3, 6, 2, 1]), ("replace_lowest([], 6)", []),
])
def test_four_of_a_kind_and_the_rocket_launcher_dice(text, value):
    """§6.3 four of a kind, §8.2 Lance-roquettes (content functions of attack.yaml)."""
    pos = anne_first_turn()
    assert ev(pos, text) == value
