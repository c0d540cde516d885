"""Issue 32: the disk cache is not trusted (interpreter/ruleset/cache.py). A damaged entry of any store
never fails a command and never changes what it reports: it is ignored, rebuilt, said once on stderr,
and the next run is clean; an entry that would run code when read is refused; another user's cache
(another key) is rebuilt; a folder anyone may write is not used."""
from __future__ import annotations

import os
import pickle
import random
import subprocess
import sys
from pathlib import Path

import pytest

CLI = [sys.executable, "-m", "interpreter.play.cli"]
STORES = ("yaml", "rules", "code", "calls", "schema")
WARNING = "damaged entries of the cache"


def run(args, cache: Path):
    env = dict(os.environ, INTERPRET_CACHE_DIR=str(cache))
    return subprocess.run(CLI + args, capture_output=True, text=True, env=env, timeout=180)


def store_file(cache: Path, name: str) -> Path:
    (path,) = cache.glob(f"*/{name}.store")
    return path


def flip(path: Path, at: int) -> None:
    data = bytearray(path.read_bytes())
    data[at % len(data)] ^= 0x01
    path.write_bytes(bytes(data))


def verdict(p) -> str:
    """What `validate` says of the game, without its timing."""
    return p.stdout.rsplit(",", 1)[0]


@pytest.fixture(scope="module")
def clean(tmp_path_factory):
    cache = tmp_path_factory.mktemp("clean-cache")
    first = run(["validate", "dark-agent"], cache)
    assert first.returncode == 0 and not first.stderr, first.stderr
    return cache, verdict(first)


@pytest.mark.parametrize("name", STORES)
def test_a_flipped_byte_in_any_store_is_rebuilt_said_once_and_changes_nothing(tmp_path, clean, name):
    """Bytes flipped in the middle of entries (their payloads: a pickle, a code object, a tree) or in
    a store's framing: `validate` gives the same verdict, warns once, and the next run is silent."""
    import shutil
    cache, expected = clean
    rng = random.Random(name)
    for trial in range(2):
        copy = tmp_path / f"c{trial}"
        shutil.copytree(cache, copy)
        path = store_file(copy, name)
        size = path.stat().st_size
        flip(path, rng.randrange(len(b"interpret-cache 2\n"), size) if trial else size // 2)
        damaged = run(["validate", "dark-agent"], copy)
        assert damaged.returncode == 0, damaged.stderr
        assert verdict(damaged) == expected
        assert damaged.stderr.count("warning:") == 1 and WARNING in damaged.stderr, damaged.stderr
        again = run(["validate", "dark-agent"], copy)
        assert again.returncode == 0 and verdict(again) == expected
        assert again.stderr == "", again.stderr  # repaired by the run before


def test_a_damaged_cache_never_fails_play(tmp_path, clean):
    import shutil
    cache, _expected = clean
    copy = tmp_path / "c"
    shutil.copytree(cache, copy)
    for name in STORES:
        flip(store_file(copy, name), store_file(copy, name).stat().st_size // 3)
    played = run(["play", "dark-agent", "--auto", "--seed", "3", "--quiet"], copy)
    assert played.returncode == 0, played.stderr
    assert played.stderr.count("warning:") == 1


def test_an_entry_that_would_run_code_is_refused_even_with_a_valid_checksum(tmp_path, monkeypatch):
    """A pickle calling a function (here, one that would write a file) is never built, even signed
    with this user's own key: the reader only builds data classes."""
    from interpreter.ruleset import cache as diskcache
    monkeypatch.setenv("INTERPRET_CACHE_DIR", str(tmp_path))
    monkeypatch.setattr(diskcache, "_key", None)
    monkeypatch.setattr(diskcache, "_warned", False)
    marker = tmp_path / "ran"

    class Evil:
        def __reduce__(self):
            return (Path.touch, (marker,))

    s = diskcache.Store("t")
    s.put(b"good", [1, {"a": 2}])
    raw = pickle.dumps(Evil())
    s.added[b"evil"] = (diskcache._mac("t", b"evil", raw), raw)  # as an attacker knowing the key would write it
    s.flush()
    fresh = diskcache.Store("t")
    assert fresh.get(b"good") == [1, {"a": 2}]
    assert fresh.get(b"evil") is None
    assert not marker.exists()


def test_another_users_cache_is_rebuilt_not_read(tmp_path, clean):
    """The checksums are keyed per user: a cache copied from elsewhere (another key) is all rebuilt."""
    import shutil
    cache, expected = clean
    copy = tmp_path / "c"
    shutil.copytree(cache, copy)
    (copy / ".key").write_bytes(os.urandom(32))
    again = run(["validate", "dark-agent"], copy)
    assert again.returncode == 0 and verdict(again) == expected
    assert WARNING in again.stderr


@pytest.mark.skipif(not hasattr(os, "getuid"), reason="folder owners are a POSIX notion")
def test_a_folder_anyone_may_write_is_not_used(tmp_path):
    shared = tmp_path / "shared"
    shared.mkdir()
    shared.chmod(0o777)
    p = run(["validate", "tic-tac-toe"], shared)
    assert p.returncode == 0
    assert "others may write the cache folder" in p.stderr
    assert not list(shared.rglob("*.store"))


def test_damage_to_entries_a_run_does_not_need_is_repaired_by_that_run(tmp_path, clean):
    """A damaged entry that a command does not need (one of Dark Agent's, under a simulation of
    connect four, whose entries were written after them): the command warns once and rewrites the
    store without it, so the next run is silent (the long fuzz campaign's seed 200040 warned at
    every run)."""
    import shutil
    cache, _expected = clean
    copy = tmp_path / "c"
    shutil.copytree(cache, copy)
    warm = run(["simulate", "connect-four", "-n", "1"], copy)
    assert warm.returncode == 0 and not warm.stderr, warm.stderr
    for name in ("rules", "yaml"):
        flip(store_file(copy, name), store_file(copy, name).stat().st_size // 4)
    first = run(["simulate", "connect-four", "-n", "1"], copy)
    assert first.returncode == 0 and first.stderr.count("warning:") == 1 and WARNING in first.stderr, first.stderr
    again = run(["simulate", "connect-four", "-n", "1"], copy)
    assert again.returncode == 0 and again.stderr == "", again.stderr
    assert run(["validate", "dark-agent"], copy).returncode == 0  # the lost entries are simply made again
