"""The wire leak test (issue 28): what the web table sends a seat depends only on what that seat sees.

For every bundled game and variant, a random game is played at a server's table; at a few of its
decisions a second table is built from the same moves (a second server), and the cards of a pair
that a viewer cannot see (same back, different names) trade places in it
(information.observation.relabel). The viewer (each seat in turn, and the spectators) must then be
sent byte-identical messages by both tables: `hello` (layout, picture, history, moves), and after
the same move (the pair's cards traded in its arguments), the `update`, when the move shows
neither card to the viewer. The positive control: trading two cards the viewer sees changes its
`hello`, somewhere in every game.
"""
from __future__ import annotations

import copy
import random
from pathlib import Path

import pytest

from interpreter.core.model import Action
from interpreter.engine.game import Game, clone
from interpreter.information.observation import relabel
from bundled import cached_ruleset
from interpreter.serve.hub import dumps
from interpreter.serve.table import Seat, Table

ROOT = Path(__file__).resolve().parent.parent / "content"
CHECKS = (1, 9, 25)  # the decisions of a game where a twin table is built (a hand of poker has 2 or more)


def configurations():
    for game_dir in sorted(p for p in ROOT.iterdir() if (p / "game.yaml").exists()):
        variants = [None] + sorted(v.stem for v in (game_dir / "variants").glob("*.yaml")) \
            if (game_dir / "variants").is_dir() else [None]
        for variant in variants:
            lo, hi = cached_ruleset(game_dir.name, variants=[variant] if variant else []).player_range
            yield game_dir.name, variant, min(hi, max(lo, 4))


CONFIGS = list(configurations())


def _table(game, name, variant, seed) -> Table:
    seats = [Seat("human", f"token-of-seat-{i}-xxxxxxxx") for i in range(game.num_players)]
    return Table(tid="leaktest", game=game, ref=name, variants=[variant] if variant else [], options={}, seed=seed,
                 seats=seats, timer=None, lang="en")


def _twin(table: Table, st) -> Table:
    """A second table that played the same moves and listed the same choices to the same seats
    (the keys they were given), its state replaced by `st`."""
    other = _table(table.game, table.ref, table.variants[0] if table.variants else None, table.seed)
    other._restart(table.actions)
    for key, viewer in table.viewers.items():
        other.viewers[key].keys = copy.deepcopy(viewer.keys)
    other.st = st
    return other


def _viewer(seat):
    from interpreter.serve.picture import viewer_of
    return viewer_of(seat)


def _pairs(table: Table, seat, rng, *, seen: bool, n: int = 2):
    """Pairs of cards the viewer sees (seen: in two places, of different names or owners), or
    cannot see and cannot tell apart (of different names, the same back)."""
    g, st = table.game, table.st
    sight = table.renderer.sight(st, _viewer(seat))
    cards = [c for c in g.catalog.cards if st["loc"][c.id] >= 0 and sight.sees(c) == seen]
    out = []
    for _ in range(60):
        if len(cards) < 2 or len(out) >= n:
            break
        a, b = rng.sample(cards, 2)
        if seen and (st["loc"][a.id] == st["loc"][b.id] or (a.name, a.owner) == (b.name, b.owner)):
            continue
        if not seen and (a.name == b.name or a.back != b.back):
            continue
        out.append((a, b))
    return out


def _touched_pairs(table: Table, seat, action, rng, n: int = 2):
    """Pairs as _pairs(seen=False) whose first card the move displaces: what its narration would
    name to a viewer who saw it."""
    g, st = table.game, table.st
    after = clone(st)
    g.apply_in_place(after, action)
    sight = table.renderer.sight(st, _viewer(seat))
    moved = [g.catalog.cards[i] for i, (z0, z1) in enumerate(zip(st["loc"], after["loc"])) if z0 != z1 and z0 >= 0]
    hidden = [c for c in g.catalog.cards if st["loc"][c.id] >= 0 and not sight.sees(c)]
    out = []
    for a in [c for c in moved if not sight.sees(c)][:n]:
        partners = [b for b in hidden if b.back == a.back and b.name != a.name]
        if partners:
            out.append((a, rng.choice(partners)))
    return out


def _swapped(action: Action, a, b) -> Action:
    return Action(action.name, tuple(b.key if x == a.key else a.key if x == b.key else x for x in action.args))


@pytest.mark.parametrize("name,variant,players", CONFIGS, ids=[f"{g}-{v or 'base'}-{p}" for g, v, p in CONFIGS])
def test_the_wire_tells_a_seat_nothing_it_cannot_see(name, variant, players):
    game = Game.load(name, players=players, variants=[variant] if variant else [])
    rng = random.Random(11)
    table = _table(game, name, variant, seed=3)
    compared = updates = controls = detected = 0
    leaks = []
    for step in range(max(CHECKS) + 1):
        if game.is_terminal(table.st):
            break
        action = rng.choice(game.legal_actions(table.st))
        if step in CHECKS:
            for seat in [*range(game.num_players), None]:
                base = dumps(table.hello(seat))
                for a, b in _pairs(table, seat, rng, seen=False) + _touched_pairs(table, seat, action, rng):
                    twin = _twin(table, relabel(game, table.st, {a.id: b.id, b.id: a.id}))
                    compared += 1
                    if dumps(twin.hello(seat)) != base:
                        leaks.append((step, seat, a.key, b.key, "hello"))
                        continue
                    mapped = _swapped(action, a, b)
                    if game.explain(twin.st, mapped) is not None:
                        continue
                    one, two = _twin(table, clone(table.st)), twin
                    marks_one, marks_two = one.marks(), two.marks()
                    one.play(action)
                    two.play(mapped)
                    sight = one.renderer.sight(one.st, _viewer(seat))
                    if game.is_terminal(one.st) or sight.sees(a) or sight.sees(b):
                        continue  # the move showed the viewer a card of the pair (or the final count)
                    updates += 1
                    if dumps(one.update(seat, marks_one)) != dumps(two.update(seat, marks_two)):
                        leaks.append((step, seat, a.key, b.key, "update"))
                for a, b in _pairs(table, seat, rng, seen=True, n=1):
                    controls += 1
                    other = _twin(table, relabel(game, table.st, {a.id: b.id, b.id: a.id}))
                    detected += dumps(other.hello(seat)) != base
        table.play(action)
    assert not leaks, f"messages that tell a seat about cards it cannot see: {leaks[:5]}"
    assert compared > 0 or controls > 0, "nothing was compared"
    if controls:
        assert detected > 0, "the positive control: cards a seat sees, traded, must change what it is sent"
    if any(z.visibility != "public" for z in game.catalog.zones if z.key != "box"):
        assert compared > 0, "a game with hidden places: twins must be compared"
    print(f"{name} {variant or 'base'}: {compared} twins, {updates} updates compared; control {detected}/{controls}")
