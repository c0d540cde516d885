"""A game definition does not change while games are played: every bundled game and variant, for
its fewest and most players, plays 300 random moves (listing, labels, views and observations along
the way) and its definition keeps exactly the attributes it had once loaded, with the same objects;
its top-level containers are read-only, and setting an attribute is refused."""
from __future__ import annotations

import random
import pytest

from interpreter.definition.definition import PARTS, GameDefinition
from interpreter.definition.parts import Frozen, Part, ReadOnlyDict
from interpreter.engine.game import Game
from interpreter.information.memory import Memory
from bundled import cached_ruleset
from interpreter.ruleset.paths import content_dir

MOVES = 300
MUTABLE = (list, dict, set, bytearray)  # a ReadOnlyDict is a dict that refuses changes


def cases():
    for game in sorted(p.name for p in content_dir().iterdir() if (p / "game.yaml").exists()):
        for variant in [None, *sorted(p.stem for p in (content_dir() / game).glob("variants/*.yaml"))]:
            lo, hi = cached_ruleset(game, variants=[variant] if variant else []).player_range
            for players in sorted({lo, hi}):
                yield game, variant, players


def play(g: Game, moves: int) -> None:
    """`moves` random moves, games started again as they end; every few moves, what the players
    are shown too (labels, each seat's view) and a decision played through a Memory."""
    memory = Memory(g)
    st = g.new_game(1)
    rng = random.Random(1)
    for i in range(moves):
        if g.is_terminal(st):
            st = g.new_game(i)
            memory = Memory(g)
        if i % 25 == 0:
            g.legal_actions_with_labels(st)
            for seat in range(len(g.m.seats)):
                g.observe(st, seat)
            memory.apply(st, rng.choice(g.legal_actions(st)))
            continue
        g.apply_in_place(st, rng.choice(g.legal_actions(st)), checked=False)


def open_containers(o) -> list[str]:
    """The names of the attributes of a definition (or of one of its parts) that hold a container
    open to change."""
    keep = getattr(type(o), "_UNFROZEN", ())
    return sorted(name for name, v in vars(o).items()
                  if isinstance(v, MUTABLE) and type(v) is not ReadOnlyDict and name not in keep)


@pytest.mark.parametrize("game,variant,players", list(cases()))
def test_a_definition_does_not_change_during_play(game, variant, players):
    g = Game.load(game, players=players, variants=[variant] if variant else [])
    m = g.m
    objects = [m, *(getattr(m, part) for part in PARTS)]
    before = [dict(vars(o)) for o in objects]
    play(g, MOVES)
    for o, was in zip(objects, before):
        now = vars(o)
        assert sorted(set(now) - set(was)) == [], f"attributes added to {type(o).__name__} during play"
        assert sorted(set(was) - set(now)) == [], f"attributes removed from {type(o).__name__} during play"
        assert [k for k in was if now[k] is not was[k]] == [], f"attributes of {type(o).__name__} replaced"
        assert open_containers(o) == []


def test_setting_an_attribute_of_a_definition_is_refused():
    m = Game.load("tic-tac-toe").m
    with pytest.raises(AttributeError, match="does not change once built"):
        m.cards = []
    with pytest.raises(AttributeError, match="does not change once built"):
        m.world.cards = []
    with pytest.raises(AttributeError, match="does not change once built"):
        m._handle_plan = []
    with pytest.raises(TypeError):
        m.card_by_key["x"] = None
    assert type(m.card_by_key) is ReadOnlyDict and type(m.cards) is tuple


def test_a_text_evaluated_during_play_leaves_the_definition_as_it_was():
    """game.evaluate compiles a text against the definition: one that rolls does not make the
    rules use chance (the compiler's flag is settled when the definition is built)."""
    g = Game.load("tic-tac-toe")
    st = g.new_game(1)
    assert g.m.uses_chance is False
    assert all(1 <= v <= 6 for v in g.evaluate(st, "roll(2, 6)"))
    assert g.m.uses_chance is False
    assert g.is_chance(st) is False


def test_the_check_sees_a_cache_put_back_on_the_definition(monkeypatch):
    """A play-time cache attached to the definition again (as visibility.zone_plan once did) is
    caught: by the refusal to set it, and, set past the refusal, by the comparison of attributes."""
    from interpreter.runtime import visibility

    def zone_plan(m):
        plan = m.__dict__.get("_handle_plan")
        if plan is None:
            plan = m.__dict__["_handle_plan"] = list(visibility.plan_of(m.zones))
        return plan
    monkeypatch.setattr(visibility, "zone_plan", zone_plan)
    g = Game.load("agent-dog", players=2)
    before = set(vars(g.m))
    play(g, 60)
    assert set(vars(g.m)) - before == {"_handle_plan"}
    assert open_containers(g.m) == ["_handle_plan"]


def test_a_definition_is_made_of_parts_held_as_objects():
    """Its parts are objects of their own, none with more than one base class of the project, and
    what other layers read of the definition is the parts' own objects."""
    m = Game.load("dark-agent", players=4).m
    assert type(m) is GameDefinition
    for o in (m, *(getattr(m, part) for part in PARTS)):
        assert o is m or (isinstance(o, Part) and o.d is m)
        for c in type(o).__mro__:
            assert len([b for b in c.__bases__ if b.__module__.startswith("interpreter")]) <= 1, c
        if o is not m:  # a part is its own class on Part alone: no part extends another one
            assert [c for c in type(o).__mro__ if c.__module__.startswith("interpreter")] == \
                [type(o), Part, Frozen], type(o)
    assert m.cards is m.world.cards and m.actions is m.rules.actions and m.triggers is m.links.triggers
    # the linker holds the cards' powers and the dispatch as objects, published beside it
    assert m.powers is m.links.powers and m.dispatch is m.links.dispatch
    assert m.modifiers is m.powers.modifiers and m._event_direct is m.dispatch._event_direct
    assert not hasattr(m.links, "_event_direct") and not hasattr(m.links, "copies_of")
