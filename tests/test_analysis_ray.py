"""--backend ray: the same games played by Ray actors on a Ray started on loopback give the same
results file, byte for byte, as a serial run. Needs the extra ".[ray]" (CI installs it: .ci/run)."""
from __future__ import annotations

import os

import pytest

from interpreter.play.cli import main


def _ray():
    try:
        import ray  # noqa: F401
    except ImportError:
        if os.environ.get("CI"):
            pytest.fail("CI must have Ray (.ci/run installs the extra .[ray])")
        pytest.skip("Ray is not installed here (pip install '.[ray]'; CI installs it)")


def test_ray_gives_the_same_results_as_a_serial_run(tmp_path, capsys):
    _ray()
    serial, on_ray = tmp_path / "serial", tmp_path / "ray"
    assert main(["analyze", "dark-agent", "--players", "2", "--games", "24", "--out", str(serial), "-q"]) == 0
    assert main(["analyze", "dark-agent", "--players", "2", "--games", "24", "--out", str(on_ray), "-q",
                 "--backend", "ray", "--jobs", "2"]) == 0
    out = capsys.readouterr().out
    assert "24 games played" in out and "Ray, 2 actors" in out
    assert (serial / "results.jsonl").read_bytes() == (on_ray / "results.jsonl").read_bytes()
    import ray
    assert not ray.is_initialized()  # the command stopped the Ray it started


def test_ray_options_are_checked(tmp_path, capsys):
    assert main(["analyze", "tic-tac-toe", "--games", "2", "--out", str(tmp_path / "o"),
                 "--address", "127.0.0.1:1"]) == 2
    assert "--address goes with --backend ray" in capsys.readouterr().err
