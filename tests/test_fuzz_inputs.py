"""The fuzz suite of issue 12 (tests/fuzzing.py): mutated content, rules text, variants, scenarios,
logs and command lines, each run through `interpret` under a 10 s CPU timer. Every input ends with
exit 0, 1 or 2 (never 3, never a traceback), and content that validates does not then fail with a
Python exception in its rules.

Issue 32 adds what comes back from disk and the adapters' strings (tests/fuzzing_disk.py): saved games
given to `play --resume`, damaged disk caches, tampered lab folders, `pyspiel.load_game` strings.

By default a fixed, bounded set of inputs per kind (about a minute in all); with `--fuzz-long`,
FUZZ_LONG inputs per kind, and the figures are printed (run with -s to see them). The long campaign
of issue 32 (`-m fuzz_long`, LONG_CAMPAIGN inputs: over 10,000) runs every kind and prints its figures."""
from __future__ import annotations

import pytest

from tests.fuzzing import DISK_KINDS, FUZZ_LONG, FUZZ_SEED, KINDS, campaign

BOUNDED = {"content": 30, "rules": 30, "variant": 25, "scenario": 30, "log": 50, "command": 40,
           "saved": 40, "cache": 3, "lab": 25, "adapter": 40}
LONG_CAMPAIGN = {"content": 1000, "rules": 1000, "variant": 800, "scenario": 1000, "log": 1500, "command": 1200,
                 "saved": 1500, "cache": 100, "lab": 900, "adapter": 1500}  # 10,500 inputs


@pytest.mark.parametrize("kind", KINDS + DISK_KINDS)
def test_mutated_inputs_end_cleanly(kind, tmp_path, monkeypatch, request):
    long = request.config.getoption("--fuzz-long")
    campaign(kind, FUZZ_LONG if long else BOUNDED[kind], FUZZ_SEED if long else 0, tmp_path, monkeypatch)


@pytest.mark.fuzz_long
@pytest.mark.parametrize("kind", KINDS + DISK_KINDS)
def test_the_long_campaign(kind, tmp_path, monkeypatch, request):
    """Issue 32's long run: `pytest -m fuzz_long -s tests/test_fuzz_inputs.py` (FUZZ_SEED: its first seed)."""
    if "fuzz_long" not in (request.config.getoption("-m") or ""):
        pytest.skip("the long fuzz campaign runs with -m fuzz_long")
    campaign(kind, LONG_CAMPAIGN[kind], FUZZ_SEED, tmp_path, monkeypatch)
