"""Issue 9 item 3: definitions that cannot apply are not visited (presence.py, listing.py).

A card action whose requirement says where its card must be (`this in me.agency`, a plain
function saying it: `won(me, this)`), or whose card is taken `from:` a zone, is listed only when
its card (a copy of it) lies there: one lookup of the card's location, before its requirements
and domains are computed."""
from __future__ import annotations

import random

from interpreter.engine import listing
from interpreter.runtime import context as rt
from interpreter.engine.game import Game
from interpreter.errors import RuleRuntimeError


def test_a_card_action_is_visited_only_where_its_card_lies():
    g = Game.load("dark-agent", players=4)
    m = g.m
    by = {a.name: a for a in m.actions}
    seats = lambda family: tuple(z.id for z in m.player_zones[family])  # noqa: E731
    assert by["norvege"].presence == ((m.card_by_key["norvege"].id,), seats("agency"))  # this in me.agency
    assert by["mallette"].presence == ((m.card_by_key["mallette"].id,), seats("victory"))  # won(me, this)
    copies = tuple(c.id for c in m.cards if c.name == "adrenaline")
    assert len(copies) > 1 and by["adrenaline"].presence == (copies, seats("equipment"))  # from: me.equipment
    assert by["attack"].presence is None and by["target"].presence is None  # no card of their own

    act = tuple(m.actions_by_step["act"])
    indexed, plain = listing._write(m, act), listing._write(m, act, index=False)
    rng, st = random.Random(3), g.new_game(seed=3)
    listings, spared = 0, 0
    while not g.is_terminal(st) and listings < 60:
        if g.step_name(st) == "act" and not st["pending"]:
            player = rt.turn_player(m, st)
            a, b = rt.Ctx(st, m, player), rt.Ctx(st, m, player)
            a.memo, b.memo = {}, {}
            assert indexed(a, [], True, False) == plain(b, [], True, False)  # the same actions and labels
            spared += a.budget - b.budget  # what the definitions not visited would have spent
            listings += 1
        actions = g.legal_actions(st)
        g.apply_in_place(st, actions[rng.randrange(len(actions))], checked=False)
    assert listings == 60 and spared > 60 * 10

    def outcome(f):  # with no deciding seat, no zone of `me` is known: every such definition is visited
        c = rt.Ctx(st, m, None)
        c.memo = {}
        try:
            return f(c, [], True, False), c.budget
        except RuleRuntimeError as e:  # Dark Agent's `from: me.equipment` without `me`
            return str(e)
    assert outcome(indexed) == outcome(plain)

    # a refused card action still says why (verify runs every requirement, as before)
    while g.step_name(st) != "act" or st["pending"]:
        actions = g.legal_actions(st)
        g.apply_in_place(st, actions[rng.randrange(len(actions))], checked=False)
    agency = m.player_zones["agency"][rt.turn_player(m, st).id].id
    other = next(n for n in ("norvege", "canada", "royaume_uni") if st["loc"][by[n].presence[0][0]] != agency)
    assert "is the power of" in g.explain(st, other)
