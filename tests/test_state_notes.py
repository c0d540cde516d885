"""What the forward model notes about a state (the legal actions listed when the flow stopped there,
the options of a pending choice) lives in the state (core/state.py `Notes`), never on the Game:
an edit by hand through the state helpers is never served a stale listing, and the notes reach
neither JSON, nor equality, nor a clone."""
from __future__ import annotations

from interpreter.core.state import NOTES, Notes, clone, from_json, place_card, set_value, to_json, touch
from interpreter.engine.game import Game


def _listed_state(g, seed):
    """A state of `g` where the flow stopped for the turn's player (its listing noted)."""
    st = g.new_game(seed=seed)
    while st[NOTES].listing is None:
        g.apply_in_place(st, g.legal_actions(st)[0], checked=False)
    return st


def _cell_and_mark(g, st):
    m = g.m
    cell = next(z for z in m.zones if z.key == "r1c1")
    mark = st["z"][m.player_zones["supply"][1].id][0]  # one of O's marks
    return cell, mark


def test_a_mark_put_by_hand_is_not_listed_as_playable():
    """The review's demonstration: a mark put into r1c1 by editing the state; `legal_actions` then
    agrees with `can` (play r1c1 is not listed), and a trusted move of the listing plays."""
    g = Game.load("tic-tac-toe")
    st = g.new_game(seed=1)
    assert "play r1c1" in map(str, g.legal_actions(st))
    cell, mark = _cell_and_mark(g, st)
    place_card(st, mark, cell.id)
    listed = [str(a) for a in g.legal_actions(st)]
    assert "play r1c1" not in listed and not g.can(st, "play r1c1") and len(listed) == 8
    assert all(g.can(st, a) for a in listed)
    g.apply_in_place(st, g.legal_actions(st)[0], checked=False)
    assert not g.check_invariants(st)


def test_an_edit_of_the_dict_is_seen_after_touch_and_a_variable_set_by_hand_at_once():
    g = Game.load("tic-tac-toe")
    st = g.new_game(seed=1)
    cell, mark = _cell_and_mark(g, st)
    here = st["loc"][mark]
    st["z"][here] = tuple(c for c in st["z"][here] if c != mark)
    st["z"][cell.id] = (mark,)
    st["loc"][mark] = cell.id
    touch(st)
    assert "play r1c1" not in map(str, g.legal_actions(st))
    dark = Game.load("dark-agent", players=4)
    st = _listed_state(dark, 1)
    name = next(iter(st["pv"]))
    set_value(st, "pv", name, 0, st["pv"][name][0])
    assert st[NOTES].listing is None  # forgotten: the next listing is made afresh


def test_the_notes_reach_neither_json_nor_equality_nor_a_clone():
    g = Game.load("dark-agent", players=4)
    st = _listed_state(g, 2)
    assert isinstance(st[NOTES], Notes)
    bare = from_json(to_json(st))
    assert bare[NOTES].listing is None and bare == st and to_json(bare) == to_json(st)
    assert clone(st)[NOTES].listing is None and '_notes' not in to_json(st)
    after = g.apply(st, g.legal_actions(st)[0])  # applied to a copy: each state has notes of its own
    assert st[NOTES].listing is not None and after[NOTES] is not st[NOTES]
    assert g.legal_actions(bare) == g.legal_actions(st)


def test_the_game_keeps_nothing_about_the_states_it_played():
    g = Game.load("dark-agent", players=4)
    st = g.new_game(seed=3)
    for _ in range(20):
        g.apply_in_place(st, g.legal_actions(st)[0], checked=False)
    parts = [g, g.flow, g.binder, g.simultaneous, g.listings]
    held = [v for p in parts for v in vars(p).values()]
    assert not any(v is st or v is st[NOTES] for v in held)
    assert not any(type(v) is tuple and any(x is st for x in v) for v in held)
