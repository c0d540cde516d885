"""The optimisations of the code generator are passes over typed pieces, not regular expressions
over generated text (issue 26): budget spends are typed lines merged by a pass; the helpers a
module keeps and the globals its legend explains are read from its compiled code; what an
expression calls and whether two compute the same thing are read from Python's parse of it; what
a text reads is said by the writer that made it."""
from __future__ import annotations

import ast
from pathlib import Path

from interpreter.lang import pieces
from interpreter.lang.pieces import Spend

LANG = Path(__file__).resolve().parent.parent / "interpreter" / "lang"
# the two modules that read text with a regular expression, both the content's own text: a
# string literal's escapes (compiler.py) and a template's {pieces} (templates.py)
LEXING = {"compiler.py", "templates.py"}


def test_no_regular_expression_reads_generated_code():
    found = []
    for path in sorted(LANG.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import) and any(a.name == "re" for a in node.names) and path.name not in LEXING:
                found.append(f"{path.name}:{node.lineno}")
    assert found == [], f"regular expressions in lang/ (write typed pieces, pieces.py): {found}"


def test_no_str_or_tuple_subclass_carries_facts_of_generated_code():
    found = []
    for path in sorted(LANG.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            # Said: a message of the rules while playing (templates.py)
            if isinstance(node, ast.ClassDef) and node.name not in ("Said",):
                bases = {b.id for b in node.bases if isinstance(b, ast.Name)}
                if bases & {"str", "tuple"}:
                    found.append(f"{path.name}:{node.lineno}: {node.name}")
    assert found == []


def test_no_call_is_looked_for_in_generated_text():
    """`"_list(" in text`: what a text calls is said by its writer (a zone's cards: a new list,
    never shared) or read from Python's parse of it (pieces.calls_nothing), never searched for."""
    found = []
    for path in sorted(LANG.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Compare) and isinstance(node.left, ast.Constant) \
                    and isinstance(node.left.value, str) and node.left.value.endswith("(") \
                    and any(isinstance(op, (ast.In, ast.NotIn)) for op in node.ops):
                found.append(f"{path.name}:{node.lineno}: {node.left.value!r} in ...")
    assert found == []


def test_spends_one_after_the_other_at_one_depth_are_merged():
    lines = ["x = 1", Spend(3, loc="_k1", what="_k2"), Spend(2, loc="_k3", what="_k4", again=True), "y = 2",
             *pieces.indented([Spend(1, loc="_k5", what="_k6"), Spend(4, loc="_k7", what="_k8")]),
             Spend(5, loc="_k9", what="_k10")]
    assert pieces.size(lines) == 2 + 5 * 3
    assert pieces.written(lines) == [
        "x = 1", "ctx.budget = b = ctx.budget - 5", "if b < 0:", "    _spend_seq(ctx, 5, ((3, _k1, _k2), (2, _k3, _k4),))",
        "y = 2", "    ctx.budget = b = ctx.budget - 5", "    if b < 0:", "        _spend_seq(ctx, 5, ((1, _k5, _k6), (4, _k7, _k8),))",
        "ctx.budget = b = ctx.budget - 5", "if b < 0:", "    _spend_failed(ctx, _k9, _k10)"]
    assert pieces.written([Spend(2, loc="_k1", what="_k2", again=True)]) == [
        "ctx.budget = b = b - 2", "if b < 0:", "    _spend_failed(ctx, _k1, _k2)"]


def test_the_helpers_a_module_keeps_are_those_its_entry_calls():
    code = compile("def _expr(ctx):\n    return _g1(ctx, L) + _k3\n"
                   "def _g1(ctx, L):\n    return _g2(ctx, L)\n"
                   "def _g2(ctx, L):\n    return _k4\n"
                   "def _g5(ctx, L):\n    return _g2(ctx, L)\n", "<test>", "exec")
    assert pieces.called(code, ("_expr", "_call")) == {"_expr", "_g1", "_g2"}
    assert [n for n in pieces.names_of(code) if n.startswith("_")] == ["_g1", "_k3", "_g2", "_k4"]


def test_what_an_expression_calls_and_its_shape():
    assert pieces.calls_nothing("(L[1].props.get(_k2) if _type(_t3 := L[0]) is _Card else _len(x))")
    assert not pieces.calls_nothing("(_k2(ctx, _t3) if (_t3 := L[0]) is not None else None)")
    assert not pieces.calls_nothing("_k5[0](ctx, _k6, L[1])")  # a content function's call through its holder
    assert not pieces.calls_nothing("(\n_c4(\nctx, L[1]))")
    assert pieces.shape("((_t4 := L[1].owner) == ctx.me and _t4 is not None)") == \
        pieces.shape("((_t9 := L[1].owner) == ctx.me and _t9 is not None)")
    assert pieces.shape("((_t4 := L[1].owner) == ctx.me)") != pieces.shape("((_t4 := L[2].owner) == ctx.me)")
    assert pieces.shape("(_h4 == 1)") != pieces.shape("(_h5 == 1)")  # a read computed before a loop keeps its name
