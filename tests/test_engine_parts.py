"""Game's parts are objects made from the definition alone, each usable without a Game: the
listers (listing.py), the flow (flow.py, with its simultaneous steps) and the binder."""
from __future__ import annotations

from interpreter.core.state import NOTES, initial, to_json
from interpreter.engine.flow import Flow
from interpreter.engine.game import Game
from interpreter.engine.legality import Binder
from interpreter.engine.listing import Listings
from interpreter.runtime import context as rt


def test_the_flow_alone_starts_a_game_as_game_does():
    g = Game.load("tic-tac-toe")
    m = g.m
    flow = Flow(m, listings=Listings(m))
    st = initial(m, 5)
    flow.settle(rt.Ctx(st, m))
    assert to_json(st) == to_json(g.new_game(seed=5))
    assert [str(a) for a in st[NOTES].listing] == [str(a) for a in g.legal_actions(g.new_game(seed=5))]


def test_the_binder_alone_verifies_and_binds():
    g = Game.load("tic-tac-toe")
    m = g.m
    binder = Binder(m, simultaneous=g.simultaneous, current_player=lambda st: 0)
    st = g.apply(g.new_game(seed=1), "play r2c2")
    assert binder.explain(st, "play r2c2") == g.explain(st, "play r2c2") == "r2c2 already holds a mark (§2)"
    assert binder.can(st, "play r1c1") and not binder.can(st, "play r2c2")
    ctx, a = binder.bind(st, g.legal_actions(st)[0], verify=False)
    assert a.name == "play" and ctx.locals[a.params[0][1]].key == "r1c1"
