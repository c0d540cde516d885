"""Agent DOG (content/agent-dog/): the data rulings D1–D5 and D9 of docs/rulings.md, and the
2–3 player overlay played at a table of 4. The rules themselves are pinned by the scenarios in
content/agent-dog/scenarios/, the hidden colours by tests/test_concealment.py."""
from __future__ import annotations

import random
from collections import Counter

import pytest

from interpreter.engine.game import Game


@pytest.fixture(scope="module")
def dog():
    return Game.load("agent-dog", players=4)


def test_the_board_d1_to_d3(dog):
    m = dog.m
    track = m.tagged_cells("track")
    assert [z.key for z in track] == [f"t{i}" for i in range(64)]
    assert [z.key for z in m.tagged_cells("start")] == ["t0", "t16", "t32", "t48"]
    holes = {z.attrs["index"] for z in m.tagged_cells("hole")}
    meetings = [z.attrs["index"] for z in m.tagged_cells("meeting")]
    assert holes == {4, 11, 20, 27, 36, 43, 52, 59} and meetings == [5, 21, 37, 53]
    assert all(i - 1 in holes for i in meetings)  # « Tout pion ainsi déplacé arrive toujours sur un trou »
    arrival = m.tagged_cells("arrival")
    assert len(arrival) == 16
    st = dog.new_game(seed=1)
    assert [z.key for z in dog.evaluate(st, 'neighbors(zone_named("t0"), "arrival")')] == ["rouge1"]
    assert [z.key for z in dog.evaluate(st, 'neighbors(zone_named("t0"), "next")')] == ["t1", "t63"]


def test_the_110_cards_d4(dog):
    kinds = Counter(c.name for c in dog.m.cards if "piece" not in c.tags)
    assert sum(kinds.values()) == 110
    assert sum(n for k, n in kinds.items() if k.startswith("n")) == 80
    assert kinds["depart_1_11"] == kinds["depart_13"] == 8 and kinds["echange"] == 6
    assert kinds["copie"] == kinds["partenaire"] == 4
    assert sum(1 for c in dog.m.cards if "piece" in c.tags) == 16


@pytest.mark.parametrize("players, starts", [(2, ["t0", "t32"]), (3, ["t0", "t16", "t32"]), (4, ["t0", "t16", "t32", "t48"])])
def test_seats_and_colours_d5(players, starts):
    g = Game.load("agent-dog", players=players)
    st = g.new_game(seed=1)
    assert [g.evaluate(st, f"seat({i + 1}).start.key") for i in range(players)] == starts
    assert g.evaluate(st, "each_for_self()") == (players < 4)


def _play(game, seed):
    rng = random.Random(seed)
    st = game.new_game(seed)
    for _ in range(20000):
        if game.is_terminal(st):
            return st
        game.apply_in_place(st, rng.choice(game.legal_actions(st)), checked=False)
    pytest.fail("no end")


def test_the_rounds_bound_d9_stops_a_game():
    g = Game.load("agent-dog", players=4, options={"rounds": 3})
    st = _play(g, 1)
    assert st["flow"]["round"] == 3
    assert sorted(g.ranking(st)) == [0, 1, 2, 3]


def test_the_overlay_plays_each_for_themselves_at_4():
    g = Game.load("agent-dog", players=4, variants=["2-3-joueurs"])
    st = _play(g, 1)
    winners = g.winners(st)
    assert len(winners) == 1  # no teams: one player with 4 pawns home (the base game: a team of two)
    assert g.scores(st)[winners[0]] == 4


@pytest.mark.parametrize("text, value", [
    ("totals([[1, 2], [2], [4]], 8)", [0, 1, 2, 3, 4, 5, 6, 7, 8]),
    ("totals([[1, 2], [2], [4]], 4)", [0, 1, 2, 3, 4]),
    ("totals([[3], [3]], 4)", [0, 3]),  # one value per list at most: 3 + 3 is over the limit
    ("totals([[2], [2]], 4)", [0, 2, 4]), ("totals([], 4)", [0]), ("totals([[], [1]], 4)", [0, 1]),
])
def test_partenaire_totals_split_points_among_distinct_pawns(dog, text, value):
    """Ruling D8: the totals a Partenaire's points can make, one share per pawn (a content function)."""
    assert dog.evaluate(dog.new_game(seed=1), text) == value


# ---- the cards declare what they do (issue 10): a homebrew card is one entry --------------------

BASE_FILES_NAMING = ("copie", "echange", "partenaire", "depart_1_11", "depart_13")


def test_no_base_rule_file_names_a_card():
    """play.yaml offers each card what its entry declares (`steps`, tags depart, swap, share, copy):
    no rule names a card (render.yaml and texts.fr.yaml, display only, are left out)."""
    import re
    from pathlib import Path
    folder = Path(__file__).resolve().parents[2] / "content" / "agent-dog"
    found = []
    for f in sorted(folder.glob("*.yaml")):
        if f.name in ("cards.yaml", "render.yaml") or f.name.startswith("texts."):  # display only
            continue
        for i, line in enumerate(f.read_text(encoding="utf-8").splitlines(), 1):
            code = line.split("#")[0]
            for name in BASE_FILES_NAMING:
                if re.search(rf"(?<![\w]){name}(?![\w])", code):
                    found.append(f"{f.name}:{i}: {line.strip()}")
    assert not found, "\n".join(found)


def test_a_homebrew_card_is_one_variant_entry(tmp_path):
    """A « Départ 5 » and a « Grand Échange » added by one variant file play like the rulebook's
    cards: the actions offer them what their entries declare, and a Copie copies them."""
    from interpreter.scenarios.runner import run_file
    (tmp_path / "homebrew-dog.yaml").write_text("""
variant: {name: homebrew-dog, title: "Homebrew DOG cards", base: agent-dog}
changes:
  - op: add
    path: cards.depart_5
    value: {copies: 2, start: deck, tags: [red, depart], props: {steps: [5], face: "Départ 5"}}
  - op: add
    path: cards.grand_echange
    value: {copies: 2, start: deck, tags: [red, swap], props: {steps: [2], face: "Grand Échange"}}
""", encoding="utf-8")
    (tmp_path / "homebrew.yaml").write_text("""
scenario: {title: "homebrew cards", game: agent-dog, players: 4, seed: 10, variants: [homebrew-dog.yaml]}
steps:
  - clear: [hand.p1, hand.p2, hand.p3, hand.p4]
  - set: {giving: false}
  - move: {card: depart_5, to: hand.p1, as: five}
  - move: {card: depart_5, to: hand.p1, as: five2}
  - move: {card: copie, to: hand.p2, as: copy1}
  - move: {card: grand_echange, to: hand.p3, as: swap}
  - move: {card: n2, to: hand.p4, as: two}
  - turn: {player: p1, step: play}
  - refused: {do: advance $five t0 t6}                 # its steps: 5
  - do: advance $five t0 t5
  - legal: advance $copy1 t16 t21                      # the Copie copies the homebrew card
  - do: advance $copy1 t16 t21
  - expect: copied == "depart_5"
  - expect: can_advance(swap) and (can_exchange(swap) == (length(infiltrated_cells()) >= 2))   # its steps; a swap card
  - do: advance $swap t32 t34
  - do: advance $two t20 t22
  - legal: enter $five2                                # a depart card: a new pawn on the free start square
""", encoding="utf-8")
    result = run_file(tmp_path / "homebrew.yaml")
    assert not result.failures, result.failures
