"""Built-ins on the hot path (issue 9): while the state cannot change (a listing: ctx.memo),
`contents` finds the cards of one list of zones once; attributes of zones that generated code
reads as written-out text (ZONE_ATTR_TEXT) give what their handlers give."""
from __future__ import annotations

from interpreter.runtime import context as rt
from interpreter.runtime.library import _ZONE_ATTRS, ZONE_ATTR_TEXT, _contents


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


def test_contents_of_a_list_of_the_match_is_kept_across_listings_while_its_zones_hold_the_same_cards():
    import random
    from interpreter.engine.game import Game
    g = Game.load("dark-agent", players=4)  # satellites move between the cells tagged `space` (ids in a run)
    m = g.m
    space, theatre = m.tagged_cells("space"), m.tagged_cells("theatre")
    st, rng, before, kept, found = g.new_game(seed=5), random.Random(5), None, 0, 0
    for _ in range(150):
        if g.is_terminal(st):
            break
        ctx = rt.Ctx(st, m)
        ctx.memo = {}  # a listing
        got = _contents(ctx, space)
        assert got == [m.cards[i] for z in space for i in st["z"][z.id]]
        assert _contents(ctx, theatre) == [m.cards[i] for z in theatre for i in st["z"][z.id]]
        kept, found = kept + (got is before), found + (got is not before)
        before = got
        a = g.legal_actions(st)
        g.apply_in_place(st, a[rng.randrange(len(a))], checked=False)
    assert kept > 20 and found > 5
    ctx = rt.Ctx(st, m)
    ctx.memo = {}
    listed = _contents(ctx, space)
    ctx = rt.Ctx(st, m)  # an effect (no memo) gets a list of its own
    assert _contents(ctx, space) == listed and _contents(ctx, space) is not listed
    ctx.memo = {}
    other = list(space)  # a list the match does not keep: computed in each listing
    assert _contents(ctx, other) == listed and _contents(ctx, other) is not listed


def test_zone_attributes_written_out_give_what_their_handlers_give():
    from interpreter.engine.game import Game
    g = Game.load("dark-agent", players=4)  # cells of capacity 1 and 3, full and not
    st = g.new_game(seed=2)
    ctx = rt.Ctx(st, g.m)
    for name in sorted(set(ZONE_ATTR_TEXT) - {"cards"}):
        expected = [_ZONE_ATTRS[name](ctx, z) for z in g.m.cells]
        assert g.evaluate(st, f"[c.{name} for c in cells]") == expected, name
    assert len({z.capacity for z in g.m.cells}) > 1 and 0 < sum(_ZONE_ATTRS["full"](ctx, z) for z in g.m.cells)


def test_distinct_of_numbers_goes_the_short_way_with_the_same_values(monkeypatch):
    from interpreter.runtime import ops

    def general(vs):  # what `distinct` gives for any list (each value once, sorted by `_sort_key`)
        out, seen = [], set()
        for v in vs:
            k = (type(v), v.id) if hasattr(v, "id") else v
            if k not in seen:
                seen.add(k)
                out.append(v)
        return sorted(out, key=ops._sort_key)

    cases = [[], [2, 5, 2], [6, 1, 2, 3, 4, 5, 1, 2], [-3, 0, -3, 7]]
    for vs in cases:
        assert ops._distinct(list(vs)) == general(vs)
    mixed = [True, 1, 0, False, 2]  # yes/no: the general way
    assert ops._distinct(mixed) == general(mixed) == [0, True, 2]

    def no_key(v):
        raise AssertionError("numbers only: no key per value")
    monkeypatch.setattr(ops, "_sort_key", no_key)
    assert ops._distinct([3, 1, 3, 2]) == [1, 2, 3]


def test_an_aggregate_of_a_list_spends_its_length_and_reports_as_before(mini):
    import pytest

    from interpreter.runtime.helpers import _aggregate_of
    from interpreter.runtime.ops import _AGGREGATES

    def not_for_lists(v, loc):
        raise AssertionError("a list is gone through as it is")
    ctx = rt.Ctx({}, mini.m)
    ctx.budget = 10
    assert _aggregate_of(ctx, _AGGREGATES["distinct"], [3, 1, 3], "distinct", None, not_for_lists, len) == [1, 3]
    assert ctx.budget == 7
    assert _aggregate_of(ctx, _AGGREGATES["sum"], (1, 2), "sum", None, lambda v, loc: v, len) == 3
    assert ctx.budget == 5
    with pytest.raises(rt.RuleRuntimeError, match="`max` cannot combine"):
        _aggregate_of(ctx, _AGGREGATES["max"], [1, "a"], "max", None, not_for_lists, len)
    with pytest.raises(rt.RuleRuntimeError, match="distinct"):  # over the budget: where and what
        _aggregate_of(ctx, _AGGREGATES["distinct"], [1] * 9, "distinct", None, not_for_lists, len)


def test_a_builtin_of_the_match_with_a_written_text_is_a_constant_of_the_match():
    from interpreter.lang.codegen import source_of
    from interpreter.lang.scope import Scope
    from interpreter.engine.game import Game
    from interpreter.ruleset.yamlio import SourceText
    g = Game.load("dark-agent", players=4)
    m = g.m
    ctx = rt.Ctx(g.new_game(seed=1), m)
    tag = sorted({t for z in m.cells for t in z.tags})[0]
    f = m.compiler.expr(SourceText.plain(f'tagged_cells("{tag}")'), Scope([]))
    assert "ctx," not in source_of(f) and "return _k" in source_of(f)  # no call: the match's list
    assert f(ctx) is m.tagged_cells(tag) and f(ctx) == [z for z in m.cells if tag in z.tags] != []
    f = m.compiler.expr(SourceText.plain("tagged_cells(t)"), Scope(["t"]))  # a value known when it runs
    ctx.locals = [tag]
    assert "ctx," in source_of(f) and f(ctx) is m.tagged_cells(tag)


def test_contents_of_a_list_holding_a_card_or_a_player_is_an_error(mini):
    """A card's or a player's id is no zone's: `contents([card])` gave the cards of the zone
    whose id was the card's (often none, sometimes some)."""
    import pytest
    from interpreter.errors import RuleRuntimeError
    m = mini.m
    st = mini.new_game(seed=3)
    full = next(z for z in m.zones if st["z"][z.id])
    for memo in (None, {}):
        for thing in (m.cards[full.id], m.seats[0]):
            ctx = rt.Ctx(st, m)
            ctx.memo = memo
            with pytest.raises(RuleRuntimeError, match="contents\\(\\) needs a list of zones"):
                _contents(ctx, [full, thing])
