"""The fuzz suite of issue 12 (tests/fuzzing.py): mutated content, rules text, variants, scenarios,
logs and command lines, each run through `interpret` under a 10 s CPU timer. Every input ends with
exit 0, 1 or 2 (never 3, never a traceback), and content that validates does not then fail with a
Python exception in its rules.

By default a fixed, bounded set of inputs per kind (about a minute in all); with `--fuzz-long`,
FUZZ_LONG inputs per kind, and the figures are printed (run with -s to see them)."""
from __future__ import annotations

import os
import shutil

import pytest

from tests.fuzzing import KINDS, Tally, run_case

BOUNDED = {"content": 30, "rules": 30, "variant": 25, "scenario": 30, "log": 50, "command": 40}
FUZZ_LONG = int(os.environ.get("FUZZ_LONG", "1700"))


@pytest.mark.parametrize("kind", KINDS)
def test_mutated_inputs_end_cleanly(kind, tmp_path, monkeypatch, request):
    long = request.config.getoption("--fuzz-long")
    count = FUZZ_LONG if long else BOUNDED[kind]
    first = 100_000 if long else 0  # the long run tries other inputs than the bounded one
    monkeypatch.chdir(tmp_path)  # `new variant NAME` writes NAME.yaml here
    tally = Tally()
    for seed in range(first, first + count):
        work = tmp_path / f"s{seed}"
        work.mkdir()
        run_case(kind, seed, work, tally)
        shutil.rmtree(work, ignore_errors=True)
    print(f"\nfuzz {kind}: {tally.report()}")
    shown = "\n".join(f"  seed {o.seed}: {o.problem}: interpret {' '.join(o.argv)}\n    {o.err.strip()[-400:]}"
                      for o in tally.findings[:10])
    assert not tally.findings, f"{len(tally.findings)} findings of {tally.inputs} {kind} inputs:\n{shown}"
