"""Issue 29: the domain of a later parameter that reads no parameter before it (and draws
nothing) is computed once per listing, not once per value of the parameters before it
(engine/listing.py `_hoisted`): Agents Secrets' `toward` (`columns where allowed_destination(it)`)
once for the whole hand. The same actions, labels, order and budget as computed at every pass,
and with any budget the same failure at the same place."""
from __future__ import annotations


from interpreter.engine import listing
from interpreter.engine.game import Game
from interpreter.errors import InterpretError
from interpreter.runtime import context as rt
from tests.walks import random_states


def _openings(g, seed, limit):
    """The states of a seeded random game where a secret choice of step `play` is pending."""
    for st in random_states(g, seed, limit):
        if st["flow"].get("sim") and rt.step_name(g.m, st) == "play":
            yield st


def _listers(m, counted):
    """(hoisted, computed at every pass) listers of step `play`, the hoisted one counting the
    calls of `toward`'s domain in `counted`."""
    actions = tuple(m.actions_by_step["play"])
    dom = next(d for a in actions for p, _, d in a.params if p == "toward")
    assert dom.invariant  # it reads no earlier parameter
    f = dom.compiled

    def count(ctx):
        counted[0] += 1
        return f(ctx)
    dom.compiled = count
    try:
        hoisted = listing._write(m, actions)
    finally:
        dom.compiled = f
    dom.invariant = False
    try:
        every = listing._write(m, actions)
    finally:
        dom.invariant = True
    return hoisted, every


def _run(lister, st, m, seat, budget=None):
    ctx = rt.Ctx(st, m, m.seats[seat])
    ctx.memo = {}
    if budget is not None:
        ctx.budget = budget
    try:
        out = lister(ctx, [], True, False)
    except InterpretError as e:
        return ("failed", type(e).__name__, str(e), ctx.budget)
    return (out, ctx.budget)


def test_a_domain_reading_no_earlier_parameter_is_computed_once_per_listing():
    g = Game.load("agents-secrets", players=6)
    m = g.m
    counted = [0]
    hoisted, every = _listers(m, counted)
    n = 0
    for st in _openings(g, 3, 40):
        for seat in st["flow"]["sim"]["seats"]:
            counted[0] = 0
            got = _run(hoisted, st, m, seat)
            assert got == _run(every, st, m, seat)  # the same actions, labels, order and budget left
            assert len(got[0]) >= 4 and counted[0] == 1  # a hand of 2-3 cards: its destinations found once
            n += 1
    assert n >= 12


def test_a_hoisted_domain_fails_where_it_would_with_any_budget():
    g = Game.load("agents-secrets", players=6)
    m = g.m
    hoisted, every = _listers(m, [0])
    st = next(_openings(g, 5, 10))
    seat = st["flow"]["sim"]["seats"][0]
    full = rt.Ctx(st, m).budget
    spent = full - _run(every, st, m, seat)[1]
    assert spent > 10
    for budget in range(spent + 2):  # every place the budget can run out, and just enough
        assert _run(hoisted, st, m, seat, budget) == _run(every, st, m, seat, budget)


REMEMBERED = """\
game: {name: remembered, players: {min: 2, max: 2}}
board:
  grid:
    columns: 4
    rows:
      - {rows: 1-1, attrs: {kind: field}}
functions:
  heavy:   # too long to be written in place: a call, remembered while listing, its loop spent once
    params: [k]
    expr: >
      length([x for x in range(1, 30) where x > k and x % 3 != 1 and x % 5 != 2 and x % 7 != 3
              and x % 11 != 4 and x % 13 != 5 and x % 17 != 6 and x % 19 != 7 and x % 23 != 8
              and x % 29 != 9 and x % 31 != 10]) > 0
flow:
  turn:
    steps:
      - name: pick
actions:
  take:
    params:
      a: "[1, 2, 3, 4]"
      b: "[1, 2, 3] where heavy(it)"
    label: "take {a} {b}"
    effect: "finish game"
"""


def test_a_hoisted_domain_whose_calls_are_remembered_spends_what_computing_it_again_would(make_game):
    # the first pass computes `b`'s domain, its calls then remembered: the plain listing's later passes
    # spend one step a call, not the loops, and the hoisted one spends as much, whatever the budget
    # (spending more would leave less to what the listing computes after it)
    g = make_game(REMEMBERED)
    m = g.m
    a = m.action_by_name["take"]
    dom = a.params[1][2]
    assert dom.invariant
    hoisted = listing._write(m, (a,))
    dom.invariant = False
    try:
        every = listing._write(m, (a,))
    finally:
        dom.invariant = True
    st = g.new_game(seed=1)
    seat = rt.turn_player(m, st).id
    out, left = _run(every, st, m, seat)
    spent = rt.Ctx(st, m).budget - left
    assert len(out) == 12 and spent > 100
    assert _run(hoisted, st, m, seat) == (out, left)  # the same budget left (it spent 760 steps, not 220)
    for budget in range(4 * spent):  # every place the budget can run out, just enough, and more
        assert _run(hoisted, st, m, seat, budget) == _run(every, st, m, seat, budget)
