"""§15.2 hidden cards: a face-down card's identity is in no seat's view and in no label a seat is
shown, over random playouts, alone and with the variants it composes with."""
from __future__ import annotations

import json
import random
import pytest

from interpreter.engine.game import Game
from interpreter.information.views import view

COMBOS = [(["hidden-cards"], 4), (["hidden-cards", "no-dice"], 4), (["hidden-cards", "teams"], 4),
          (["hidden-cards", "solo"], 1), (["hidden-cards", "expansion-5-10"], 6),
          (["hidden-cards", "teams", "expansion-5-10", "no-dice"], 6)]


@pytest.mark.parametrize("variants,players", COMBOS, ids=lambda v: "+".join(v) if isinstance(v, list) else f"{v}p")
def test_face_down_cards_never_leak(variants, players):
    g = Game.load("dark-agent", players=players, variants=variants)
    checked = 0
    for seed in range(2):
        st = g.new_game(seed)
        rng = random.Random(seed)
        while not g.is_terminal(st):
            hidden = {g.m.cards[i].key for i, v in enumerate(st["cv"]["face_down"]) if v}
            if hidden and rng.random() < 0.2:  # a sample of positions: views are not cheap
                for seat in range(g.num_players):
                    text = json.dumps(view(g, st, seat))
                    assert not [k for k in hidden if f'"{k}"' in text], f"seed {seed}: a face-down card in a view"
                    checked += 1
            p = g.current_player(st)
            for _, label in g.legal_actions_with_labels(st):
                assert not set(label.replace(",", " ").split()) & hidden, label
            g.apply_in_place(st, rng.choice(g.legal_actions(st)))
            assert not g.check_invariants(st)
    assert checked > 0


def test_the_rule_fails_if_a_card_is_not_concealed():
    """The check above can fail: without the variant the same cards are seen by everyone."""
    g = Game.load("dark-agent", players=4)
    st = g.new_game(0)
    cell = next(z for z in g.m.cells if z.key == "r1c1")
    key = g.m.cards[st["z"][cell.id][0]].key
    assert f'"{key}"' in json.dumps(view(g, st, 0))
