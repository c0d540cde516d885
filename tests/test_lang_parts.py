"""The compiler of the rules language as parts it holds (issue 26): no class of lang/ mixes in
several of the project's classes; each part is an object of its own, testable alone; the compiler
reads of the definition only what `SymbolTable` declares, and writes nothing into it (what it
produces is its `output`)."""
from __future__ import annotations

import ast
import re
from pathlib import Path
from types import SimpleNamespace

from interpreter.engine.game import Game
from interpreter.lang import symbols
from interpreter.lang.analysis import Statics
from interpreter.lang.kindfacts import Ints, Kinds
from interpreter.lang.known import Known
from interpreter.lang.parser import parse
from interpreter.lang.scope import _MISS, Scope
from interpreter.ruleset.yamlio import SourceText

LANG = Path(__file__).resolve().parents[1] / "interpreter" / "lang"
# a read of the symbol table: `m.NAME` (m = self.symbols) or `symbols.NAME`
_READ = re.compile(r"(?:\bsymbols|(?<![\w.])m)\.(\w+)")
_NOT_SYMBOLS = {"group", "py"}  # `m` of a regular expression's match; the file symbols.py


def _classes():
    out = {}
    for path in LANG.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ClassDef):
                out[f"{path.name}:{node.name}"] = [b.id for b in node.bases if isinstance(b, ast.Name)]
    return out


def test_no_class_of_the_language_mixes_in_parts():
    classes = _classes()
    ours = {k.split(":")[1] for k in classes}
    mixed = {k: b for k, b in classes.items() if len(set(b) & ours) > 1}
    assert mixed == {}
    assert classes["codegen.py:ExprCodegen"] == [] and classes["compiler.py:Compiler"] == []


def test_the_compiler_reads_only_what_the_symbol_table_declares():
    declared = symbols.members()
    read = set()
    for path in LANG.glob("*.py"):
        if path.name == "symbols.py":
            continue
        read |= {n for n in _READ.findall(path.read_text(encoding="utf-8")) if n not in _NOT_SYMBOLS}
    assert read - declared == set(), "read of the definition but not declared in SymbolTable"
    assert declared - read == set(), "declared in SymbolTable but read by nobody"


def test_the_compiler_writes_nothing_into_the_definition():
    for path in LANG.glob("*.py"):
        text = path.read_text(encoding="utf-8")
        assert not re.search(r"(?:\bsymbols|(?<![\w.])m)\.\w+(?:\[[^\]]*\])? = ", text), path.name


def test_a_definition_is_a_symbol_table_and_reads_the_compiler_output():
    m = Game.load("dark-agent").m
    missing = [n for n in symbols.members() if not hasattr(m, n)]
    assert missing == []
    out = m.compiler.output
    assert m.compiler.symbols is m
    assert out.uses_chance is True and m.uses_chance is True  # Dark Agent rolls dice
    # the definition reads what the compiler produced; frozen, it holds them as immutable copies
    assert tuple(m.conts) == tuple(out.conts) and dict(m.prompts) == out.prompts and m.generated is out.generated
    assert len(out.generated) > 100 and out.prompts
    assert Game.load("tic-tac-toe").m.compiler.output.uses_chance is False


class _Constants:
    """The least of a symbol table the kinds oracle asks for a number: its constants."""
    gvars: dict = {}

    def __init__(self, **values):
        self.values = values

    def constant(self, name):
        return self.values.get(name, _MISS)


def test_the_kinds_oracle_is_a_part_testable_alone():
    g = SimpleNamespace(c=SimpleNamespace(string=None), symbols=_Constants(size=3))
    known = Known(g)
    tree = parse(SourceText.plain("size * 4 - -2"), "expr")
    assert known.static_int(tree, Scope()) == 14
    assert known.static_int(parse(SourceText.plain("size * x"), "expr"), Scope(["x"])) is None
    k = known.kind_of(parse(SourceText.plain("x + size"), "expr"), Scope(["x"]))
    assert k is None  # x is not known to be a number


def test_kinds_are_facts_of_the_analysis_asked_with_the_scope():
    """No code generator at all: the kinds are asked of the analysis (kindfacts.Kinds), the
    scope saying what a loop being written binds its variable to."""
    m = _Constants(size=3)
    kinds = Kinds(m, Statics(m), string=None)
    tree = parse(SourceText.plain("x * 2 + size"), "expr")
    scope = Scope(["x"])
    assert kinds.kind_of(tree, scope) is None  # x is not known to be a number
    scope.loop_kinds[scope.slots["x"]] = Ints(0, 4)  # x goes through the numbers 0..4
    assert kinds.kind_of(tree, scope) == Ints(3, 11)
    scope.loop_kinds[scope.slots["x"]] = Ints(n=2)  # x goes through lists of two numbers
    assert kinds.kind_of(parse(SourceText.plain("x[1]"), "expr"), scope) == Ints()
    assert kinds.kind_of(parse(SourceText.plain("x[2]"), "expr"), scope) is None
