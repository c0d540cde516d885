"""The disk cache (interpreter/ruleset/cache.py): a second process reads what the first wrote, and gets
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
    return {p.name: p.stat().st_size for p in cache.glob("*/*.store")}


def test_a_second_process_reads_the_cache_and_generates_the_same_code(tmp_path):
    cache = tmp_path / "cache"
    args = ["validate", "tic-tac-toe", "--source", "tic-tac-toe/game.yaml:1"]
    first = run(args, cache)
    assert first.returncode == 0, first.stderr
    written = stores(cache)
    assert set(written) == {"yaml.store", "rules.store", "code.store", "calls.store", "schema.store"}
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


VALID = """\
    game: {name: t, players: {min: 2, max: 2}}
    cards: {coin: {copies: 2, start: pile}}
    zones: {pile: {}}
    actions:
      pass: {effect: finish turn}
    """


def test_a_file_checked_valid_is_not_checked_again_until_it_changes(tmp_path, write_game):
    """A fresh process that validates a file the schema passed before does not import jsonschema;
    once the file changes, the schema problem is found, at its line and column."""
    folder = write_game(VALID)
    cache = tmp_path / "cache"
    probe = ["-c", "import sys; from interpreter.play.cli import main; rc = main(['validate', sys.argv[1]]); "
                   "print('jsonschema' in sys.modules); sys.exit(rc)", str(folder)]
    e = dict(os.environ, INTERPRET_CACHE_DIR=str(cache))
    first = subprocess.run([sys.executable, *probe], capture_output=True, text=True, env=e, timeout=120)
    assert first.returncode == 0 and first.stdout.strip().endswith("True"), first.stderr
    second = subprocess.run([sys.executable, *probe], capture_output=True, text=True, env=e, timeout=120)
    assert second.returncode == 0 and second.stdout.strip().endswith("False"), second.stderr
    (folder / "game.yaml").write_text((folder / "game.yaml").read_text().replace("zones: {pile: {}}",
                                                                             "zones: {pile: {colour: red}}"))
    third = run(["validate", str(folder)], cache)
    assert third.returncode == 1
    assert "game.yaml:3:" in third.stderr and "colour" in third.stderr, third.stderr


def test_a_changed_rule_is_compiled_again(tmp_path, write_game):
    folder = write_game(VALID)
    cache = tmp_path / "cache"
    assert run(["validate", str(folder)], cache).returncode == 0
    (folder / "game.yaml").write_text((folder / "game.yaml").read_text().replace(
        "pass: {effect: finish turn}", "pass: {effect: score[me] += nothing}"))
    again = run(["validate", str(folder)], cache)
    assert again.returncode == 1 and "game.yaml:5:" in again.stderr and "nothing" in again.stderr, again.stderr


def test_a_broken_store_is_ignored_and_rewritten(tmp_path):
    cache = tmp_path / "cache"
    assert run(["validate", "tic-tac-toe"], cache).returncode == 0
    for p in cache.glob("*/*.store"):
        p.write_bytes(b"not a store")
    again = run(["validate", "tic-tac-toe"], cache)
    assert again.returncode == 0, again.stderr
    assert all(p.read_bytes() != b"not a store" for p in cache.glob("*/*.store"))


def test_a_changed_interpret_reads_nothing_an_older_one_wrote(tmp_path, monkeypatch):
    from interpreter.ruleset import cache as diskcache
    monkeypatch.setenv("INTERPRET_CACHE_DIR", str(tmp_path))
    s = diskcache.Store("t")
    s.put(b"k", [1, 2])
    s.flush()
    assert diskcache.Store("t").get(b"k") == [1, 2]
    monkeypatch.setattr(diskcache, "_fingerprint", "another-version")
    assert diskcache.Store("t").get(b"k") is None


@pytest.mark.parametrize("value", ["off", "0"])
def test_the_cache_can_be_turned_off(tmp_path, monkeypatch, value):
    from interpreter.ruleset import cache as diskcache
    monkeypatch.setenv("INTERPRET_CACHE_DIR", str(tmp_path))
    monkeypatch.setenv("INTERPRET_CACHE", value)
    s = diskcache.Store("t")
    s.put(b"k", 1)
    s.flush()
    assert not list(tmp_path.rglob("*.store"))
