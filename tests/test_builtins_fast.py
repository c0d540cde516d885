"""Built-ins on the hot path (issue 9): while the state cannot change (a listing: ctx.memo),
`contents` finds the cards of one list of zones once; attributes of zones that generated code
reads as written-out text (ZONE_ATTR_TEXT) give what their handlers give."""
from __future__ import annotations

from interpreter import runtime as rt
from interpreter.builtins import _ZONE_ATTRS, ZONE_ATTR_TEXT, _contents


def test_contents_of_one_list_of_zones_is_found_once_per_listing(mini):
    m = mini.m
    st = mini.new_game(seed=3)
    zones = [z for z in m.zones if st["z"][z.id]]
    assert zones
    ctx = rt.Ctx(st, m)
    ctx.memo = {}
    first = _contents(ctx, zones)
    assert first == [m.cards[i] for z in zones for i in st["z"][z.id]]
    assert _contents(ctx, zones) is first  # the same list of zones: found once
    other = list(zones)  # another list (the memo holds the first: its id names no other list)
    assert _contents(ctx, other) == first and _contents(ctx, other) is not first
    assert _contents(ctx, zones[1:]) == first[len(st["z"][zones[0].id]):]
    ctx.memo = None  # the state may change (an effect): computed at each call
    assert _contents(ctx, zones) == first and _contents(ctx, zones) is not _contents(ctx, zones)


def test_zone_attributes_written_out_give_what_their_handlers_give():
    from interpreter.engine import Game
    g = Game.load("dark-agent", players=4)  # cells of capacity 1 and 3, full and not
    st = g.new_game(seed=2)
    ctx = rt.Ctx(st, g.m)
    for name in sorted(set(ZONE_ATTR_TEXT) - {"cards"}):
        expected = [_ZONE_ATTRS[name](ctx, z) for z in g.m.cells]
        assert g.evaluate(st, f"[c.{name} for c in cells]") == expected, name
    assert len({z.capacity for z in g.m.cells}) > 1 and 0 < sum(_ZONE_ATTRS["full"](ctx, z) for z in g.m.cells)
