"""The wheel ships the grammar, the schemas and the bundled content, and works outside the checkout."""
from __future__ import annotations

import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
MINI = ROOT / "tests" / "fixtures" / "mini"

pytest.importorskip("hatchling", reason="building the wheel needs hatchling (pip install '.[test]')")


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("dist")
    subprocess.run([sys.executable, "-m", "hatchling", "build", "-t", "wheel", "-d", str(out)],
                   cwd=ROOT, check=True, capture_output=True)
    (whl,) = out.glob("interpret-*.whl")
    return whl


def test_the_wheel_holds_the_data_and_the_command(wheel):
    names = set(zipfile.ZipFile(wheel).namelist())
    for path in ("interpreter/play/cli.py", "interpreter/_data/grammar/rules.lark",
                 "interpreter/_data/schemas/content.schema.json"):
        assert path in names
    bundled = {Path(n).parts[3] for n in names if n.startswith("interpreter/_data/content/")}
    assert bundled == {p.name for p in (ROOT / "content").iterdir() if p.is_dir()}
    entry_points = next(n for n in names if n.endswith(".dist-info/entry_points.txt"))
    assert "interpret = interpreter.play.cli:main" in zipfile.ZipFile(wheel).read(entry_points).decode()


def test_the_installed_package_runs_from_another_folder(wheel, tmp_path):
    target = tmp_path / "site"
    subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--no-index",
                    "--target", str(target), str(wheel)], check=True, capture_output=True)
    env = dict(os.environ, PYTHONPATH=str(target))
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()

    def interpret(*args):
        return subprocess.run([sys.executable, "-c", "import sys; from interpreter.play.cli import main; "
                               "sys.exit(main(sys.argv[1:]))", *args],
                              cwd=elsewhere, env=env, capture_output=True, text=True)

    where = subprocess.run([sys.executable, "-c", "import interpreter; print(interpreter.__file__)"],
                           cwd=elsewhere, env=env, capture_output=True, text=True, check=True).stdout
    assert where.startswith(str(target))
    proc = interpret("validate", str(MINI))
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith("OK Mini")
    if (ROOT / "content" / "dark-agent").is_dir():
        proc = interpret("play", "--auto", "--quiet", "--seed", "1")  # the bundled default game
        assert proc.returncode == 0, proc.stderr
        assert "Game over after" in proc.stdout
