"""Every scenario file of every game in content/ runs as a test (as `interpret test` does)."""
from __future__ import annotations

import pytest

from interpreter.ruleset.paths import content_dir
from interpreter.scenarios.runner import run_file, scenario_files

FILES = scenario_files([p for p in sorted(content_dir().iterdir()) if (p / "scenarios").is_dir()])


@pytest.mark.parametrize("path", FILES, ids=[f"{p.parent.parent.name}/{p.stem}" for p in FILES])
def test_scenario(path):
    result = run_file(path)
    assert result.ok, "\n".join(f.render() for f in result.failures)
