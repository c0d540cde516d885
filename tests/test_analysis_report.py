"""report.html opened in a real headless browser (Debian's chromium, driven by selenium and chromedriver):
every plot is there and drawn, and the page logs no console error.

CI installs chromium and chromium-driver (.ci/run); on a machine without them this test is skipped,
saying so.
"""
from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from interpreter.analysis import Spec, analyze
from interpreter.analysis.sweep import run_sweep

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
DRIVER = shutil.which("chromedriver")
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-component-update", "--no-first-run", "--disable-dev-shm-usage", "--window-size=1200,900"]


def _browser():
    if not (CHROMIUM and DRIVER):
        if os.environ.get("CI"):
            pytest.fail("CI must have chromium and chromium-driver (.ci/run installs them)")
        pytest.skip("chromium and chromedriver are not installed here (apt-get install chromium chromium-driver; "
                    "CI installs them)")
    webdriver = pytest.importorskip("selenium.webdriver", reason="selenium is not installed (pip install '.[report]')")
    from selenium.webdriver.chrome.service import Service
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for f in FLAGS:
        options.add_argument(f)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    return webdriver.Chrome(service=Service(executable_path=DRIVER), options=options)


def _check_page(path: Path, plot_ids: list[str], *more, then=None) -> None:
    """Open each page (path, plot ids, path, plot ids...) in one browser and check its plots and console;
    `then(driver)`, if given, is called on the last page before the browser closes (a screenshot)."""
    from selenium.webdriver.common.by import By
    pages = [(path, plot_ids)] + [(more[i], more[i + 1]) for i in range(0, len(more), 2)]
    driver = _browser()
    try:
        for page, ids in pages:
            driver.get(page.resolve().as_uri())
            assert driver.execute_script("return document.readyState") == "complete"
            found = {e.get_attribute("id"): e for e in driver.find_elements(By.CSS_SELECTOR, "figure.plot svg")}
            for ident in ids:
                assert ident in found, f"plot {ident} missing; the page has {sorted(found)}"
                svg = found[ident]
                box = svg.rect
                assert box["width"] > 200 and box["height"] > 100, f"{ident} is not drawn: {box}"
                # something was drawn in it: bars or lines (paths) and the axes' text
                assert len(svg.find_elements(By.CSS_SELECTOR, "path")) > 5, f"{ident} has no marks"
            assert len(driver.find_elements(By.TAG_NAME, "table")) >= 3
            errors = [entry for entry in driver.get_log("browser") if entry["level"] in ("SEVERE", "ERROR")]
            assert errors == [], errors
        if then is not None:
            then(driver)
    finally:
        driver.quit()


def test_the_report_opens_in_a_browser_with_every_plot(tmp_path):
    a = analyze(Spec("dark-agent", players=3), games=40, out=tmp_path / "run", jobs=1)
    page = tmp_path / "run" / "report.html"
    assert page in a.files
    text = page.read_text()
    for outside in ("<script", "<link", "src=", "@import", "url(http", 'href="http'):  # self-contained
        assert outside not in text
    assert set(a.summary["facets"]) == {"agency", "first_player_token"}
    run_sweep(Spec("dark-agent", players=2), "level", ["debutant", "moyen"], games=6, out=tmp_path / "sweep")
    _check_page(page, ["plot-winrate-seat", "plot-scores", "plot-length", "plot-facet-agency",
                       "plot-facet-first-player-token"],
                tmp_path / "sweep" / "report.html", ["plot-sweep-seats", "plot-sweep-length"])


def test_a_broken_page_is_noticed(tmp_path):
    """The browser check can fail: a missing plot, and a page with a console error, are both caught."""
    a = analyze(Spec("tic-tac-toe"), games=10, out=tmp_path / "run")
    page = tmp_path / "run" / "report.html"
    with pytest.raises(AssertionError, match="plot-nothing missing"):
        _check_page(page, ["plot-winrate-seat", "plot-nothing"])
    page.write_text(page.read_text().replace("</body>", "<script>console.error('boom')</script></body>"))
    with pytest.raises(AssertionError, match="boom"):
        _check_page(page, ["plot-winrate-seat"])
    assert a.summary["games"] == 10
