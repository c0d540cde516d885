"""The fuzz generators of issue 32's surfaces (tests/fuzzing_surfaces.py): values of another shape,
divisions by zero, names no file can have, closed pipes, outputs on one file, limits from a
variant, failing display texts, broken card powers, OpenSpiel strings. Each input ends cleanly
and keeps its surface's promise. A bounded number per kind by default; `--fuzz-long`: FUZZ_LONG."""
from __future__ import annotations

import pytest

from tests.fuzzing import FUZZ_LONG, FUZZ_SEED, campaign
from tests.fuzzing_surfaces import SURFACES

BOUNDED = {"shape": 25, "zero": 25, "names": 25, "pipe": 20, "outputs": 15, "limits": 20, "display": 12,
           "powers": 20, "spiel": 25}
LONG_CAMPAIGN = {"shape": 400, "zero": 400, "names": 300, "pipe": 200, "outputs": 200, "limits": 300,
                 "display": 200, "powers": 300, "spiel": 600}  # 2,900 inputs beside test_fuzz_inputs' 10,500


@pytest.mark.parametrize("kind", list(SURFACES))
def test_surface_inputs_end_cleanly(kind, tmp_path, monkeypatch, request):
    long = request.config.getoption("--fuzz-long")
    campaign(kind, FUZZ_LONG if long else BOUNDED[kind], FUZZ_SEED if long else 0, tmp_path, monkeypatch)


@pytest.mark.fuzz_long
@pytest.mark.parametrize("kind", list(SURFACES))
def test_the_long_campaign(kind, tmp_path, monkeypatch, request):
    """The surfaces' part of issue 32's long run (`pytest -m fuzz_long -k test_the_long_campaign
    tests/test_fuzz_inputs.py tests/test_fuzz_surfaces.py`)."""
    if "fuzz_long" not in (request.config.getoption("-m") or ""):
        pytest.skip("the long fuzz campaign runs with -m fuzz_long")
    campaign(kind, LONG_CAMPAIGN[kind], FUZZ_SEED, tmp_path, monkeypatch)
