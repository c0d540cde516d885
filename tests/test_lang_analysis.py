"""One analysis of the rules language (issue 26): every kind of node is declared once in
lang/analysis.py (`NODES`), and each pass that asks about a node asks that declaration; a kind of
node nobody declared is an error in every pass, never a silent default (a label naming a hidden
card through a construct the template analysis did not know)."""
from __future__ import annotations

import inspect

import pytest

from interpreter.lang import analysis
from interpreter.lang import ast as A
from interpreter.lang.parser import parse
from interpreter.lang.templates import reads_of
from interpreter.ruleset.yamlio import SourceText


def _expr(text):
    return parse(SourceText.plain(text), "expr")


@A.node
class Shout(A.Expr):
    """A construct added to ast.py but not declared in analysis.py."""
    value: A.Expr
    at: A.Pos


def test_every_kind_of_node_is_declared():
    kinds = {c for _, c in inspect.getmembers(A, inspect.isclass)
             if issubclass(c, A.Node) and c in A._FIELDS and c is not Shout}
    assert kinds - set(analysis.NODES) == set()


def test_a_node_kind_nobody_declared_is_an_error_in_the_template_analysis():
    tree = Shout(_expr("c.name"), None)
    with pytest.raises(TypeError, match="Shout is not declared"):
        reads_of(tree)
    with pytest.raises(TypeError, match="Shout is not declared"):
        reads_of(A.Attr(tree, "name", None))  # below a declared one too
    with pytest.raises(TypeError, match="Shout is not declared"):
        analysis.facts(A.Not(tree, None))


def test_the_declarations_answer_each_pass():
    f = analysis.facts(_expr("sum(c.value for c in hand(me).cards where c.ready) + f(x)"))
    assert f.names == {"c", "me", "x"} and f.calls == {"hand", "f"} and f.loops and f.reads_state and not f.plain
    assert analysis.facts(_expr("-a.b")).plain and not analysis.facts(_expr("a + 1")).plain
    reads = reads_of(_expr("a.name == b.zone"))  # a comparison reads both sides; a place reads no identity
    assert [type(r).__name__ for r in reads] == ["Attr", "Attr", "Name"]
    assert analysis.reveals(_expr("first(x)")) == () and len(analysis.reveals(_expr("f(x)"))) == 1


# ---- the questions asked of a whole definition: one fixed point (analysis.reaching) -----------

def test_what_reaches_a_seed_through_a_cycle():
    deps = {"x": {"roll", "y"}, "y": {"x"}, "z": {"w"}, "w": set()}
    assert analysis.reaching(deps, ["roll"]) == {"x", "y"}


CYCLE = """\
game: {name: cycle, players: {min: 2, max: 2, default: 2}}
zones:
  pile: {}
cards:
  token: {start: pile}
functions:
  x:                        # rolls, and calls y
    params: [n]
    expr: "roll(1, 6) if n == 0 else y(n - 1)"
  y:                        # rolls only through x: not pure either
    params: [n]
    expr: x(n)
  z:
    params: [n]
    expr: n + 1
procedures:
  asks:
    params: []
    effect: choose c from pile.cards
  passes:
    params: []
    effect: do asks()
actions:
  end_turn: {effect: finish turn}
"""


def test_purity_and_waiting_are_settled_over_the_whole_graph(make_game):
    """Seen failing on the linker's own search (fa06b8b..ebbdf31): `y` was taken as pure, since
    asking about `x` first met `y` calling `x` while `x` was being decided."""
    m = make_game(CYCLE).m
    assert (m._is_pure("x"), m._is_pure("y"), m._is_pure("z")) == (False, False, True)
    assert m.procedure_suspends("passes") and m.procedure_suspends("asks")


def test_content_functions_reach_the_compiler_typed(make_game):
    m = make_game(CYCLE).m
    fd = m.function_defs["y"]
    assert fd.params == ("n",) and type(fd.tree) is A.Call and str(fd.tree.fn) == "x" and fd.failure is None


def test_card_presence_is_a_fact_of_the_analysis():
    """Where a requirement says a value lies (`this in Z`, or a call passing names to a function
    whose body says it) is read from the parsed tree by the analysis, in the order of its
    conjuncts; definition/presence.py resolves those places and parses no text of its own."""
    found = analysis.placements(_expr("x > 1 and this in me.reserve and won(me, this) and not (c in deck)"))
    assert [type(p).__name__ for p in found] == ["Inside", "Passes"]
    assert found[0].name == "this" and type(found[0].place) is A.Attr and str(found[0].place.name) == "reserve"
    assert found[1] == analysis.Passes("won", ("me", "this"))
    assert analysis.placements(_expr("this not in deck or f(1)")) == ()
    from interpreter.definition import presence
    assert not hasattr(presence, "parse"), "presence.py reads the compiler's trees, it parses nothing itself"


def test_values_known_at_load_time_are_facts_of_the_analysis():
    """Whole numbers folded, constants and items of constant lists by a known index are answered by
    the analysis (`Statics`), with the scope a text is read in: a local or a variable is not known."""
    from interpreter.lang.scope import _MISS, Arg, Scope

    class Symbols:
        gvars = {"turn": {}}

        @staticmethod
        def constant(name):
            return {"n": 4, "grid": [[1, 2], [3, 4]]}.get(name, _MISS)

    statics = analysis.Statics(Symbols())
    scope = Scope(["x"])
    assert statics.static_int(_expr("2 * n + 1"), scope) == 9
    assert statics.static_int(_expr("grid[1][0] - n"), scope) == -1
    assert statics.static_value(_expr("grid[n - 3]"), scope) == [3, 4]
    assert statics.static_int(_expr("x + 1"), scope) is None and statics.static_int(_expr("turn"), scope) is None
    assert statics.static_int(_expr("n / 0"), scope) is None
    scope.inlined["i"] = Arg("2", value=2)  # a written-out loop's variable
    assert statics.static_int(_expr("i * n"), scope) == 8
