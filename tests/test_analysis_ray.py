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


# ---- a Ray head started apart (as on a real cluster), joined with --address ------------------------------

def _free_port() -> int:
    import socket
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _stop(head) -> None:
    """Stop the head this test started, and only it. `ray stop` would stop every Ray of the machine (another
    test's, another user's): the head runs with --block instead, and ends the processes it started when it
    gets SIGTERM; whatever is left of its process group after that is killed."""
    import signal
    import subprocess
    if head.poll() is None:
        head.send_signal(signal.SIGTERM)
        try:
            head.wait(timeout=60)
        except subprocess.TimeoutExpired:
            pass
    try:
        os.killpg(head.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass
    head.wait(timeout=30)


def test_ray_against_a_head_started_apart_gives_the_same_results(tmp_path):
    """`ray start --head` on loopback, as the first step of a real cluster (docs/analysis.md), then
    `interpret analyze --backend ray --address HOST:PORT`: the same bytes as a serial run."""
    import shutil
    import subprocess
    import sys
    import tempfile
    import time
    from pathlib import Path
    _ray()
    ray_cli = shutil.which("ray", path=str(Path(sys.executable).parent)) or shutil.which("ray")
    assert ray_cli, "the `ray` command of the extra .[ray] is not on the PATH"
    port = _free_port()
    temp = tempfile.mkdtemp(prefix="ray-")  # short: Ray's socket paths live under it
    root = str(Path(__file__).resolve().parents[1])
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in (root, os.environ.get("PYTHONPATH")) if p),
               RAY_USAGE_STATS_ENABLED="0", RAY_AUTH_MODE="disabled")  # a head on loopback, for this test only
    head = subprocess.Popen([ray_cli, "start", "--head", "--block", "--node-ip-address=127.0.0.1", f"--port={port}",
                             "--include-dashboard=false", "--num-cpus=2", "--object-store-memory=100000000",
                             f"--temp-dir={temp}", "--disable-usage-stats"],
                            env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                            start_new_session=True)
    try:
        address = f"127.0.0.1:{port}"
        deadline = time.monotonic() + 120
        while True:  # the head is up when a driver can join it
            assert head.poll() is None, f"ray start failed:\n{head.stdout.read()}"
            probe = subprocess.run([sys.executable, "-c", f"import ray; ray.init(address={address!r}, _node_ip_address='127.0.0.1'); "
                                    "print(int(ray.cluster_resources().get('CPU', 0)))"],
                                   env=env, capture_output=True, text=True, timeout=120)
            if probe.returncode == 0 and probe.stdout.strip().endswith("2"):
                break
            assert time.monotonic() < deadline, f"the Ray head did not come up:\n{probe.stderr[-2000:]}"
            time.sleep(1)
        serial, on_ray = tmp_path / "serial", tmp_path / "ray"
        assert main(["analyze", "dark-agent", "--players", "2", "--games", "24", "--out", str(serial), "-q"]) == 0
        # the command as a user types it, in its own process (a driver joins one cluster in its life)
        run = subprocess.run([sys.executable, "-m", "interpreter.play.cli", "analyze", "dark-agent", "--players", "2",
                              "--games", "24", "--out", str(on_ray), "-q", "--backend", "ray", "--address", address],
                             env=env, capture_output=True, text=True, timeout=300)
        assert run.returncode == 0, run.stderr[-3000:]
        assert "24 games played" in run.stdout and "Ray, every CPU" in run.stdout  # one actor per CPU of the head
        assert (serial / "results.jsonl").read_bytes() == (on_ray / "results.jsonl").read_bytes()
        assert head.poll() is None  # the command left the cluster running
    finally:
        _stop(head)
        shutil.rmtree(temp, ignore_errors=True)
