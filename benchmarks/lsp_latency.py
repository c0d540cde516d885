"""How fast `interpret lsp` answers an edit: the time from a change sent by the editor to the
diagnostics that show it, on a copy of a bundled game (Dark Agent by default).

    python benchmarks/lsp_latency.py                    # Dark Agent, 20 edits of each kind
    python benchmarks/lsp_latency.py --game agent-dog --edits 10 --json

The server is started as an editor starts it (`python -m interpreter lsp`, stdio, pygls' own
client); the game's file is opened and its first full check awaited, then edits alternate:
- a syntax mistake in a rules text, reported by the first pass (the edited file alone: YAML,
  schema, every syntax mistake of its rules texts);
- an unknown name, which only compiling finds: reported by the second pass (validate's checks on
  the editor's texts, the default player count first, then the others), which also clears the
  mistake of the edit before.
Each figure is a wall-clock time in milliseconds (median, and the slowest); not a timed test.
On a shared machine the wall clock counts the other processes too: `--cpu` measures the two
passes in this process instead, in CPU time (the quick pass; the full pass up to the diagnostics
for the default number of players, and to the end).
"""
from __future__ import annotations

import argparse
import json
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from lsprotocol import types as T  # noqa: E402

from lsp_session import Session  # noqa: E402

FILES = {"dark-agent": ("equipment.yaml", "expr: theatre_cards() where mine(it) or it.turned"),
         "agent-dog": ("state.yaml", None), "tic-tac-toe": ("game.yaml", None)}


def _target(root: Path, game: str) -> tuple[Path, str]:
    """The file to edit and a line of rules text in it to append a mistake to."""
    name, line = FILES.get(game, ("game.yaml", None))
    path = root / game / name
    text = path.read_text(encoding="utf-8")
    if line is None:
        line = next(ln.strip() for ln in text.split("\n") if ln.strip().startswith("expr:")
                    and not ln.strip().endswith(("|", ">", ">-")))
    return path, line


def _change(session: Session, uri: str, version: int, text: str) -> None:
    session.notify(session.client.text_document_did_change, T.DidChangeTextDocumentParams(
        text_document=T.VersionedTextDocumentIdentifier(uri=uri, version=version),
        content_changes=[T.TextDocumentContentChangeWholeDocument(text=text)]))


def measure(game: str, edits: int) -> dict:
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        shutil.copytree(ROOT / "content" / game, root / game)
        session = Session(root)
        try:
            path, line = _target(root, game)
            text = path.read_text(encoding="utf-8")
            start = time.perf_counter()
            uri = session.open(path, text)
            session.wait_diagnostics(uri, lambda ds: True, timeout=300)
            time.sleep(0.5)
            first = time.perf_counter() - start
            quick, full = [], []
            version = 1
            for i in range(edits):
                version += 1
                mistake = f"{line} or or x{i}"  # a syntax mistake: the first pass reports it
                t0 = time.perf_counter()
                _change(session, uri, version, text.replace(line, mistake, 1))
                session.wait_diagnostics(uri, lambda ds: any("syntax" in d.message for d in ds), timeout=120)
                quick.append(time.perf_counter() - t0)
                version += 1
                name = f"nobody_{i}"  # an unknown name: only compiling finds it
                t0 = time.perf_counter()
                _change(session, uri, version, text.replace(line, f"{line} or {name} == it", 1))
                session.wait_diagnostics(uri, lambda ds: any(f"`{name}`" in d.message for d in ds), timeout=120)
                full.append(time.perf_counter() - t0)
        finally:
            session.close()

    def ms(values):
        return {"median": round(statistics.median(values) * 1000), "max": round(max(values) * 1000)}
    return {"game": game, "edits": edits, "first_check_s": round(first, 2),
            "syntax_mistake_ms": ms(quick), "unknown_name_ms": ms(full)}


def measure_cpu(game: str, edits: int) -> dict:
    """The passes of the server's checker, called in this process, timed in CPU time."""
    from interpreter.lsp import diagnose
    from interpreter.lsp.model import GameModel
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        shutil.copytree(ROOT / "content" / game, root / game)
        path, line = _target(root, game)
        path = path.resolve()
        text = path.read_text(encoding="utf-8")
        model = GameModel(root / game)
        model.open[path] = text
        diagnose.full(model)  # the first check: caches warm, the ruleset known
        quick, early, full = [], [], []
        for i in range(edits):
            model.open[path] = text.replace(line, f"{line} or or x{i}", 1)
            t0 = time.process_time()
            diagnose.quick(model, path)
            quick.append(time.process_time() - t0)
            model.open[path] = text.replace(line, f"{line} or nobody_{i} == it", 1)
            t0 = time.process_time()
            marks = []
            found = diagnose.full(model, early=lambda f: marks.append(time.process_time() - t0))
            full.append(time.process_time() - t0)
            early.append(marks[0] if marks else full[-1])
            assert any(f"nobody_{i}" in f.problem.message for fs in found.values() for f in fs)

    def ms(values):
        return {"median": round(statistics.median(values) * 1000), "max": round(max(values) * 1000)}
    return {"game": game, "edits": edits, "cpu": True, "quick_ms": ms(quick), "default_players_ms": ms(early),
            "full_ms": ms(full)}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--game", default="dark-agent")
    ap.add_argument("--edits", type=int, default=20)
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--cpu", action="store_true", help="time the passes in this process, in CPU time")
    args = ap.parse_args(argv)
    result = measure_cpu(args.game, args.edits) if args.cpu else measure(args.game, args.edits)
    if args.json:
        print(json.dumps(result))
    elif args.cpu:
        print(f"{result['game']}, CPU time per edit over {result['edits']} edits (median, slowest):\n"
              f"  first pass (the edited file: YAML, schema, syntax)  {result['quick_ms']['median']} ms, "
              f"{result['quick_ms']['max']} ms\n"
              f"  validate, default number of players                 {result['default_players_ms']['median']} ms, "
              f"{result['default_players_ms']['max']} ms\n"
              f"  validate, every number of players                   {result['full_ms']['median']} ms, "
              f"{result['full_ms']['max']} ms")
    else:
        print(f"{result['game']}: first full check {result['first_check_s']} s; over {result['edits']} edits each:\n"
              f"  a syntax mistake shown in    {result['syntax_mistake_ms']['median']} ms "
              f"(slowest {result['syntax_mistake_ms']['max']} ms)\n"
              f"  an unknown name shown in     {result['unknown_name_ms']['median']} ms "
              f"(slowest {result['unknown_name_ms']['max']} ms)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
