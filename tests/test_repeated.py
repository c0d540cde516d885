"""Issue 9: reads repeated in one expression computed once (interpreter/lang/repeated.py), reads
that a loop does not change computed before it, and the kind of the items of a constant of the
match. Each is compared with the code written without it: the same values, errors and budgets."""
from __future__ import annotations

import random

import pytest

from interpreter.runtime import context as rt
from interpreter.lang import kindfacts, repeated
from interpreter.lang.codegen import source_of
from interpreter.lang.scope import Arg, Scope
from interpreter.engine.game import Game, clone
from interpreter.errors import RuleRuntimeError
from interpreter.ruleset.yamlio import SourceText


@pytest.fixture(scope="module")
def dark_agent():
    g = Game.load("dark-agent", players=4)
    rng, st, states = random.Random(3), g.new_game(seed=3), []
    for n in range(400):  # states along a random game, cards face up and down, some targeted
        if g.is_terminal(st):
            break
        if n % 25 == 0:
            states.append(clone(st))
        acts = g.legal_actions(st)
        g.apply_in_place(st, acts[rng.randrange(len(acts))], checked=False)
    return g, states


def _source_and_outcomes(g, states, text, names=(), args=()):
    """The generated source of `text`, and what it gives in each state for each seat and a few
    budgets: ("value", v, budget left) or ("error", message, budget left)."""
    f = g.m.compiler.expr(SourceText.plain(text), Scope(list(names)))
    out = []
    for st in states:
        for seat in g.m.seats:
            for budget in (10_000, 40, 7, 0):
                ctx = rt.Ctx(st, g.m, seat)
                ctx.locals, ctx.budget = list(args) + [None] * 16, budget
                try:
                    out.append(("value", f(ctx), ctx.budget))
                except RuleRuntimeError as e:
                    out.append(("error", str(e), ctx.budget))
    return source_of(f), out


def _unshared(monkeypatch):
    """The generator with no read shared (each read written where it is)."""
    monkeypatch.setattr(repeated.Repeated, "shared", lambda self, o, name, text, *, getters=False, fresh=False: text)
    monkeypatch.setattr(repeated.Repeated, "arg_read", lambda self, node, scope, loops: Arg(self.g.x(node, scope)))


def test_a_read_repeated_in_one_expression_is_computed_once(dark_agent, monkeypatch):
    """`c.card` read three times in a run of `and`/`or` is computed by the first read only;
    a read that the first one does not dominate (in the right side of an inner `and`) is
    computed again. The same values, errors and budgets as without sharing."""
    g, states = dark_agent
    text = ('[not c.empty and not c.card.face_down and (c.card.activated or c.card.owner == me) '
            'for c in tagged_cells("theatre")]')
    other = '[(c.empty and c.card.face_down) or c.card.activated for c in tagged_cells("theatre")]'
    src, shared = _source_and_outcomes(g, states, text)
    src2, shared2 = _source_and_outcomes(g, states, other)
    assert src.count("_CARDS[") == 1, src
    assert src2.count("_CARDS[") == 2, src2  # not dominated: read again
    assert any(kind == "value" and True in v for kind, v, _ in shared) and any(kind == "error" for kind, _, _ in shared)
    _unshared(monkeypatch)
    src, plain = _source_and_outcomes(g, states, text)
    src2, plain2 = _source_and_outcomes(g, states, other)
    assert src.count("_CARDS[") == 3
    assert shared == plain and shared2 == plain2


def test_an_argument_of_a_function_compiled_in_place_is_computed_where_first_read(dark_agent, monkeypatch):
    """`same_side(c.card.owner, me)` is compiled in place and reads its first parameter twice:
    the card's owner is read once. Reads through attribute getters (an object whose kind is not
    known: a test of its type, a branch for a card and one for a zone) and tag sets are shared too."""
    g, states = dark_agent
    text = ('[same_side(c.card.owner, me) and (c.card is spy or c.card is equipment or c.card is special) '
            'for c in tagged_cells("theatre")]')
    getters = "p.owner != none and p.owner != me and p is spy and p is agent"
    card = g.m.cards[0]
    src, shared = _source_and_outcomes(g, states, text)
    src_p, shared_p = _source_and_outcomes(g, states, getters, names=("p",), args=(card,))
    assert src.count(".owner") == 1 and src.count("'tags'") == 1, src
    assert src_p.count(".owner") == 2 and src_p.count("'tags'") == 1, src_p
    _unshared(monkeypatch)
    src, plain = _source_and_outcomes(g, states, text)
    src_p, plain_p = _source_and_outcomes(g, states, getters, names=("p",), args=(card,))
    assert src.count(".owner") == 2 and src.count("'tags'") == 3
    assert src_p.count(".owner") == 4 and src_p.count("'tags'") == 2
    assert shared == plain and shared_p == plain_p


def test_a_read_the_loop_does_not_change_is_computed_before_it(dark_agent, monkeypatch):
    """In a loop over the theatre's cells, `s.card` (s a cell of an enclosing loop) is computed
    once before the loop, not for each item; the loop's own variable is read in the loop."""
    g, states = dark_agent
    text = ('[length(tagged_cells("theatre") where it.card != none and it.card.owner == s.card.owner) '
            'for s in tagged_cells("theatre")]')
    src, hoisted = _source_and_outcomes(g, states, text)
    inner = src[src.index("def "):src.index("def ", src.index("def ") + 1)]
    lifted = [line for line in inner.split("\n") if line.strip().startswith("_h")]
    assert len(lifted) == 2 and inner.index(lifted[0]) < inner.index("for x in"), inner  # s.card, its owner
    monkeypatch.setattr(repeated._Lifted, "invariant", lambda self, o: False)
    src, inside = _source_and_outcomes(g, states, text)
    assert "_h" not in src
    assert hoisted == inside and any(kind == "value" for kind, _, _ in hoisted)


def test_the_items_of_a_constant_of_the_match_have_a_kind(dark_agent, monkeypatch):
    """`tagged_cells("space")` is computed at load time (a constant of the match): its items are
    cells of the grid, read without type tests."""
    g, states = dark_agent
    text = 'tagged_cells("space") where not it.full and it.column != 2'
    src, typed = _source_and_outcomes(g, states, text)
    assert "_type(" not in src.split("for x in")[1], src
    monkeypatch.setattr(kindfacts.Kinds, "_match_items_kind", lambda self, node: None)
    src, untyped = _source_and_outcomes(g, states, text)
    assert "_type(" in src.split("for x in")[1]
    assert typed == untyped and any(kind == "value" and v for kind, v, _ in typed)
