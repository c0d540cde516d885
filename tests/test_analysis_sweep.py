"""--sweep: one batch per option value or variant, each a folder like any batch, and their comparison."""
from __future__ import annotations

import json

import pytest

from interpreter.analysis import Spec, analyze
from interpreter.analysis.games import AnalysisError
from interpreter.analysis.sweep import parse_sweep, run_sweep
from interpreter.play.cli import main


def test_an_option_sweep_makes_one_batch_per_value_and_compares_them(tmp_path):
    spec = Spec("dark-agent", players=2)
    sw = run_sweep(spec, "level", ["debutant", "averti"], games=12, out=tmp_path / "sw", jobs=2)
    assert [b.out.name for b in sw.batches] == ["level=debutant", "level=averti"]
    # each value's folder is the batch that `analyze --option level=V` makes, byte for byte
    alone = analyze(Spec("dark-agent", players=2, options={"level": "averti"}), games=12, out=tmp_path / "alone")
    assert (alone.out / "results.jsonl").read_bytes() == (tmp_path / "sw" / "level=averti" / "results.jsonl").read_bytes()
    data = json.loads((tmp_path / "sw" / "sweep.json").read_text())
    assert data["key"] == "level" and [r["value"] for r in data["rows"]] == ["debutant", "averti"]
    assert "versus" not in data["rows"][0]
    v = data["rows"][1]["versus"]
    assert v["baseline"] == "debutant" and [t["seat"] for t in v["seats"]] == ["p1", "p2"]
    base, other = sw.batches[0].summary["seats"][0], sw.batches[1].summary["seats"][0]
    assert v["seats"][0]["difference"] == pytest.approx(other["rate"] - base["rate"])
    assert {"difference", "p_value", "significant"} <= set(v["length"])
    page = (tmp_path / "sw" / "report.html").read_text()
    assert 'id="plot-sweep-seats"' in page and 'id="plot-sweep-length"' in page
    assert 'href="level=averti/report.html"' in page
    assert "averti against debutant" in sw.text


def test_a_variant_sweep(tmp_path, capsys):
    assert main(["analyze", "dark-agent", "--players", "2", "--games", "4", "--sweep", "variant=none,no-dice",
                 "--out", str(tmp_path / "v"), "-q"]) == 0
    assert "no-dice against none" in capsys.readouterr().out
    runs = [json.loads((tmp_path / "v" / d / "run.json").read_text()) for d in ("variant=none", "variant=no-dice")]
    assert [r["variants"] for r in runs] == [[], ["no-dice"]]


def test_bad_sweeps_are_refused_clearly(tmp_path, capsys):
    out = str(tmp_path / "o")
    for sweep, says in [("level=debutant", "at least two values"), ("level", "write NAME=A,B"),
                        ("level=a,a", "given twice"), ("level=debutant,expert", "level=expert"),
                        ("nosuch=1,2", "unknown option `nosuch`")]:
        assert main(["analyze", "dark-agent", "--games", "2", "--sweep", sweep, "--out", out, "-q"]) == 1, sweep
        err = capsys.readouterr().err
        assert says in err and "Traceback" not in err, (sweep, err)
    assert main(["analyze", "dark-agent", "--games", "2", "--sweep", "level=debutant,moyen", "--option",
                 "level=moyen", "--out", out, "-q"]) == 1
    assert "also given with --option" in capsys.readouterr().err
    with pytest.raises(AnalysisError):
        parse_sweep("=a,b")
