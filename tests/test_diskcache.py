"""The disk cache (interpreter/diskcache.py): a second process reads what the first wrote, and gets
the same game, the same generated code and the same error positions; a broken store is ignored."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

CLI = [sys.executable, "-m", "interpreter.play.cli"]


def run(args, cache: Path, **env):
    e = dict(os.environ, INTERPRET_CACHE_DIR=str(cache), **env)
    return subprocess.run(CLI + args, capture_output=True, text=True, env=e, timeout=120)


def stores(cache: Path) -> dict:
    return {p.name: p.stat().st_size for p in cache.glob("*/*.pickle")}


def test_a_second_process_reads_the_cache_and_generates_the_same_code(tmp_path):
    cache = tmp_path / "cache"
    args = ["validate", "tic-tac-toe", "--source", "tic-tac-toe/game.yaml:1"]
    first = run(args, cache)
    assert first.returncode == 0, first.stderr
    written = stores(cache)
    assert set(written) == {"yaml.pickle", "rules.pickle", "code.pickle"}
    second = run(args, cache)
    assert second.returncode == 0, second.stderr
    assert second.stdout.split("OK")[0] == first.stdout.split("OK")[0]  # the same generated source
    assert stores(cache) == written  # nothing new to write: every text was found
    off = run(args, tmp_path / "unused", INTERPRET_CACHE="off")
    assert off.stdout.split("OK")[0] == first.stdout.split("OK")[0]
    assert not (tmp_path / "unused").exists()


def test_positions_of_errors_are_the_same_from_the_cache(tmp_path, write_game):
    folder = write_game("""\
        name: Broken
        players: {min: 2, max: 2}
        board: {kind: none}
        actions:
          go:
            effect: |
              let x = 1
              log "{x}"
              score[me] += y
        """)
    cache = tmp_path / "cache"
    first = run(["validate", str(folder)], cache)
    second = run(["validate", str(folder)], cache)
    assert first.returncode == second.returncode == 1
    assert ":9:" in first.stderr or ":9:" in first.stdout, first.stderr + first.stdout
    assert (first.stdout, first.stderr) == (second.stdout, second.stderr)


def test_a_broken_store_is_ignored_and_rewritten(tmp_path):
    cache = tmp_path / "cache"
    assert run(["validate", "tic-tac-toe"], cache).returncode == 0
    for p in cache.glob("*/*.pickle"):
        p.write_bytes(b"not a pickle")
    again = run(["validate", "tic-tac-toe"], cache)
    assert again.returncode == 0, again.stderr
    assert all(p.read_bytes() != b"not a pickle" for p in cache.glob("*/*.pickle"))


def test_a_changed_interpret_reads_nothing_an_older_one_wrote(tmp_path, monkeypatch):
    from interpreter import diskcache
    monkeypatch.setenv("INTERPRET_CACHE_DIR", str(tmp_path))
    s = diskcache.Store("t")
    s.put(b"k", [1, 2])
    s.flush()
    assert diskcache.Store("t").get(b"k") == [1, 2]
    monkeypatch.setattr(diskcache, "_fingerprint", "another-version")
    assert diskcache.Store("t").get(b"k") is None


@pytest.mark.parametrize("value", ["off", "0"])
def test_the_cache_can_be_turned_off(tmp_path, monkeypatch, value):
    from interpreter import diskcache
    monkeypatch.setenv("INTERPRET_CACHE_DIR", str(tmp_path))
    monkeypatch.setenv("INTERPRET_CACHE", value)
    s = diskcache.Store("t")
    s.put(b"k", 1)
    s.flush()
    assert not list(tmp_path.rglob("*.pickle"))
