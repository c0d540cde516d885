"""The tuner's report page opened in headless Chromium (as tests/test_analysis_report.py does the lab's):
every plot drawn, no console error, self-contained. `INTERPRET_TUNE_SHOT=1` also writes
docs/tune-report.png, the picture docs/analysis.md shows."""
from __future__ import annotations

import os
from pathlib import Path

from interpreter.play.cli import main
from test_analysis_report import _check_page

ROOT = Path(__file__).resolve().parents[1]
FIXTURE = ROOT / "tests" / "fixtures" / "head-start"
SHOT = os.environ.get("INTERPRET_TUNE_SHOT") == "1"

LONGER = """variant: {name: longer, base: head-start}
changes:
  - {op: add, path: tuning.tunables.rounds, value: {path: constants.rounds, range: [2, 6]}}
  - {op: add, path: tuning.objectives.length, value: {measure: rounds, band: [3, 4]}}
"""


def test_the_tuning_report_opens_in_a_browser_with_every_plot(tmp_path):
    variant = tmp_path / "longer.yaml"
    variant.write_text(LONGER)
    out = tmp_path / "study"
    assert main(["tune", str(FIXTURE), "--variant", str(variant), "--budget", "10", "--games", "100",
                 "--max-games", "800", "--finalists", "2", "--seed", "1", "--out", str(out), "-q"]) == 0
    page = out / "report.html"
    text = page.read_text()
    for outside in ("<script", "<link", "src=", "@import", "url(http", 'href="http'):  # self-contained
        assert outside not in text
    assert "Pareto front" in text and "Before and after, on fresh seeds" in text and "Rules coverage" in text
    shot = tmp_path / "tune-report.png"

    def screenshot(driver):  # in the same browser as the checks: one Chromium started, not two
        driver.set_window_size(1200, 2200)
        driver.get(page.resolve().as_uri())
        driver.save_screenshot(str(shot))
        if SHOT:
            driver.save_screenshot(str(ROOT / "docs" / "tune-report.png"))

    _check_page(page, ["plot-tune-front", "plot-tune-0", "plot-tune-2"], then=screenshot)
    assert shot.stat().st_size > 50_000  # a drawn page, not a blank one
