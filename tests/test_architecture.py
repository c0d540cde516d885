"""The house's structure, checked: packages stacked in one declared order, no import cycle among
interpreter/'s modules (imports inside functions and under TYPE_CHECKING count: they are the real
graph), parts composed rather than mixed in, and the definition read only by the layers below the
public contract.

The order is written once, here; the README's code layout shows the same stack."""
from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent / "interpreter"

# From the bottom up: each package imports only itself and those below it. Packages on one line
# sit side by side and import neither each other.
LAYERS = [
    ("i18n",),  # the interface's language (gettext): anyone may translate a player-facing string
    ("errors",),
    ("limits",),
    ("core",),
    ("runtime",),
    ("ruleset",),
    ("lang",),
    ("definition",),
    ("information",),
    ("engine",),
    ("agents", "adapters"),
    ("scenarios",),
    ("analysis",),
    ("play",),
    ("serve", "lsp"),  # the web table (issue 28); the language server for content files (issue 30)
    ("__init__", "__main__"),  # the public face: Game, Action, the errors
]
LEVEL = {name: level for level, names in enumerate(LAYERS) for name in names}
TOP_LEVEL = {"__init__", "__main__", "i18n", "errors", "limits"}  # all else lives in a package
# The imports that point up: the `interpret` command (play/cli.py) adds `interpret serve`'s and
# `interpret lsp`'s arguments from the layer above, lazily, inside its parser (their cli.py import
# nothing heavy).
UPWARD = {("interpreter.play.cli", "interpreter.serve.cli"), ("interpreter.play.cli", "interpreter.lsp.cli")}


def _modules() -> dict[str, Path]:
    mods = {}
    for path in ROOT.rglob("*.py"):
        rel = path.relative_to(ROOT.parent).with_suffix("")
        name = ".".join(rel.parts)
        mods[name[: -len(".__init__")] if name.endswith(".__init__") else name] = path
    return mods


def _imports(mods: dict[str, Path]) -> dict[str, set[tuple[str, int]]]:
    """module -> {(imported module, line)}, every import statement of the file, wherever it is."""
    graph = {m: set() for m in mods}
    for m, path in mods.items():
        package = m if path.name == "__init__.py" else m.rsplit(".", 1)[0]
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                if node.level:
                    base = package.split(".")
                    base = base[: len(base) - (node.level - 1)]
                    mod = ".".join(base + ([node.module] if node.module else []))
                else:
                    mod = node.module or ""
                names = [mod] + [f"{mod}.{a.name}" for a in node.names]
            else:
                continue
            for target in names:
                while target and target not in mods:
                    target = target.rsplit(".", 1)[0] if "." in target else ""
                if target and target != m and target != "interpreter":
                    graph[m].add((target, node.lineno))
    return graph


def _layer_of(module: str) -> str:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else "__init__"


def _cycles(graph) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan)."""
    edges = {m: {t for t, _ in ts} for m, ts in graph.items()}
    index, low, stack, on, out, counter = {}, {}, [], set(), [], [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in edges[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    import sys
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 10_000))
    try:
        for v in edges:
            if v not in index:
                visit(v)
    finally:
        sys.setrecursionlimit(limit)
    return out


def test_every_module_sits_in_a_declared_layer():
    flat = sorted(m for m in _modules() if m.count(".") == 1 and _layer_of(m) not in TOP_LEVEL
                  and not (ROOT / _layer_of(m)).is_dir())
    assert flat == [], f"modules flat at the top of interpreter/ (put each in its layer's package): {flat}"
    unknown = sorted({_layer_of(m) for m in _modules()} - set(LEVEL))
    assert unknown == [], f"packages missing from LAYERS: {unknown}"


def test_no_import_cycle():
    cycles = _cycles(_imports(_modules()))
    assert cycles == [], "import cycles (imports inside functions count):\n" + "\n".join(
        f"  {len(c)} modules: {', '.join(c)}" for c in cycles)


def test_imports_only_downward():
    mods = _modules()
    wrong = []
    for m, targets in _imports(mods).items():
        here = _layer_of(m)
        for t, line in targets:
            there = _layer_of(t)
            if there == here or (m, t) in UPWARD:
                continue
            if LEVEL[there] >= LEVEL[here]:
                wrong.append(f"{mods[m].relative_to(ROOT.parent)}:{line}: {m} ({here}) imports {t} ({there})")
    assert wrong == [], "imports against the layer order:\n" + "\n".join(sorted(wrong))


def test_the_order_is_the_one_the_readme_shows():
    readme = (ROOT.parent / "README.md").read_text(encoding="utf-8")
    stack = " > ".join(", ".join(names) for names in reversed(LAYERS[3:-1]))
    assert stack in readme, f"README.md should show the layer order as: {stack}"


OUTER = ("agents", "adapters", "play", "analysis", "scenarios", "serve")  # the users of the public contract
BEHIND_THE_DOOR = ("runtime", "definition")  # what they reach only through Game (engine/game.py)


def test_the_public_contract_is_the_only_door():
    """The outer packages use `Game` and its catalogue, never the compiled definition (`game.m`),
    the rules' run-time context (`runtime.context.Ctx`) or a runtime/definition module."""
    mods = _modules()
    wrong = []
    for m, targets in _imports(mods).items():
        if _layer_of(m) not in OUTER:
            continue
        where = mods[m].relative_to(ROOT.parent)
        wrong += [f"{where}:{line}: imports {t}" for t, line in targets if _layer_of(t) in BEHIND_THE_DOOR]
        for node in ast.walk(ast.parse(mods[m].read_text(encoding="utf-8"))):
            if isinstance(node, ast.Attribute) and node.attr == "m":
                wrong.append(f"{where}:{node.lineno}: reads `.m` (the compiled definition)")
            elif (isinstance(node, ast.Attribute) and node.attr == "Ctx") or (isinstance(node, ast.Name)
                                                                              and node.id == "Ctx"):
                wrong.append(f"{where}:{node.lineno}: builds a rules context (Ctx)")
    assert wrong == [], "past the public contract (use Game and game.catalog):\n" + "\n".join(sorted(wrong))


def _classes() -> list[tuple[str, str, set[str]]]:
    """(where, class name, the names of its bases) of every class defined in interpreter/."""
    out = []
    for path in sorted(ROOT.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ClassDef):
                bases = {b.id if isinstance(b, ast.Name) else b.attr for b in node.bases
                         if isinstance(b, (ast.Name, ast.Attribute))}
                out.append((f"{path.relative_to(ROOT.parent)}:{node.lineno}", node.name, bases))
    return out


def test_parts_are_composed_not_mixed_in():
    classes = _classes()
    ours = {name for _, name, _ in classes}
    mixed = [f"{where}: class {name}({', '.join(sorted(bases))})" for where, name, bases in classes
             if len(bases & ours) > 1]
    assert mixed == [], "classes with more than one base class of the project (hold parts as objects):\n" + \
        "\n".join(mixed)


def test_imports_inside_functions_and_under_type_checking_are_counted(tmp_path):
    """The graph the tests above check is the real one: an import inside a function, or under
    `if TYPE_CHECKING:`, is an edge like any other (a cycle made only of such imports is found)."""
    (tmp_path / "low.py").write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from . import high\n")
    (tmp_path / "high.py").write_text("def f():\n    from .low import x\n    return x\n")
    mods = {"interpreter.pkg.low": tmp_path / "low.py", "interpreter.pkg.high": tmp_path / "high.py"}
    graph = _imports(mods)
    assert {t for t, _ in graph["interpreter.pkg.low"]} == {"interpreter.pkg.high"}
    assert {t for t, _ in graph["interpreter.pkg.high"]} == {"interpreter.pkg.low"}
    assert _cycles(graph) == [["interpreter.pkg.high", "interpreter.pkg.low"]]
