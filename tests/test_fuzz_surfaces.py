"""The fuzz generators of issue 32's surfaces (tests/fuzzing_surfaces.py): values of another shape,
divisions by zero, names no file can have, closed pipes, outputs on one file, limits from a
variant, failing display texts, broken card powers, OpenSpiel strings. Each input ends cleanly
and keeps its surface's promise. A bounded number per kind by default; `--fuzz-long`: FUZZ_LONG."""
from __future__ import annotations

import shutil

import pytest

from tests.fuzzing import Tally, run_case
from tests.fuzzing_surfaces import SURFACES
from tests.test_fuzz_inputs import FUZZ_LONG, FUZZ_SEED

BOUNDED = {"shape": 25, "zero": 25, "names": 25, "pipe": 20, "outputs": 15, "limits": 20, "display": 12,
           "powers": 20, "adapter": 25}


@pytest.mark.parametrize("kind", list(SURFACES))
def test_surface_inputs_end_cleanly(kind, tmp_path, monkeypatch, request):
    long = request.config.getoption("--fuzz-long")
    count = FUZZ_LONG if long else BOUNDED[kind]
    first = FUZZ_SEED if long else 0
    monkeypatch.chdir(tmp_path)
    tally = Tally()
    for seed in range(first, first + count):
        work = tmp_path / f"s{seed}"
        work.mkdir()
        run_case(kind, seed, work, tally)
        shutil.rmtree(work, ignore_errors=True)
    print(f"\nfuzz {kind}: {tally.report()}")
    shown = "\n".join(f"  seed {o.seed}: {o.problem}: {' '.join(map(str, o.argv))[:300]}\n    {o.err.strip()[-300:]}"
                      for o in tally.findings[:10])
    assert not tally.findings, f"{len(tally.findings)} findings of {tally.inputs} {kind} inputs:\n{shown}"
