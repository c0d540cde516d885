"""Facets declared in content (`analysis.facets`), read per seat at the end of each game; the win rate
by facet value; a wrong facet is a content error with its file:line:col."""
from __future__ import annotations

import shutil

from interpreter.analysis import Spec, analyze
from interpreter.analysis.stats import homogeneity
from interpreter.play.cli import main
from interpreter.ruleset.paths import game_dir


def _ttt(tmp_path, analysis: str):
    game = tmp_path / "ttt"
    shutil.copytree(game_dir("tic-tac-toe"), game, ignore=shutil.ignore_patterns("scenarios"))
    (game / "analysis.yaml").write_text(analysis)
    return game


def test_facets_are_read_for_each_seat_and_summarised(tmp_path):
    game = _ttt(tmp_path, "analysis:\n  facets:\n    marks: length(cells where it.card.owner == me)\n"
                          "    seat: me\n    started: me == seat(1)\n")
    a = analyze(Spec(str(game)), games=60, out=tmp_path / "o")
    for r in a.records:
        marks = r["facets"]["marks"]
        assert r["facets"]["seat"] == ["p1", "p2"] and r["facets"]["started"] == [True, False]
        assert marks[0] in (marks[1], marks[1] + 1) and 3 <= marks[0] <= 5  # X plays first
    by = {row["value"]: row for row in a.summary["facets"]["seat"]["rows"]}
    wins = [sum(1 for r in a.records if i in r["winners"]) for i in range(2)]
    assert (by["p1"]["k"], by["p2"]["k"]) == tuple(wins) and by["p1"]["n"] == by["p2"]["n"] == 60
    started = {row["value"]: row["k"] for row in a.summary["facets"]["started"]["rows"]}
    assert started == {True: wins[0], False: wins[1]}
    assert "facets" in a.summary and "win rate by marks" in a.text
    csv = (tmp_path / "o" / "games.csv").read_text().splitlines()[0]
    assert "marks_p1" in csv and "started_p2" in csv


def test_dark_agent_declares_the_agency_of_each_seat(tmp_path):
    a = analyze(Spec("dark-agent", players=4), games=6, out=tmp_path / "o")
    agencies = {"allemagne", "russie", "belgique", "norvege", "canada"}  # the recommended ones (§11)
    for r in a.records:
        assert len(set(r["facets"]["agency"])) == 4 and set(r["facets"]["agency"]) <= agencies
        assert r["facets"]["first_player_token"].count(True) == 1
    assert sum(row["n"] for row in a.summary["facets"]["agency"]["rows"]) == 24


def test_a_wrong_facet_is_a_content_error_with_its_place(tmp_path, capsys):
    game = _ttt(tmp_path, "analysis:\n  facets:\n    marks: length(cells where it.nope)\n")
    assert main(["analyze", str(game), "--games", "2", "--out", str(tmp_path / "o"), "-q"]) == 1
    err = capsys.readouterr().err
    assert "analysis.yaml:3:" in err and "Traceback" not in err
    game = _ttt(tmp_path / "b", "analysis:\n  facet: {x: me}\n")
    assert main(["validate", str(game)]) == 1
    assert "analysis.yaml:2" in capsys.readouterr().err


def test_homogeneity_of_rates():
    same = homogeneity([(20, 100), (20, 100), (20, 100)])
    assert same["statistic"] == 0 and not same["significant"]
    # 2x2 table 30/100 vs 15/100: Pearson chi-square N(ad-bc)²/(r1 r2 c1 c2) = 6.4516, df 1, p = 0.01109
    t = homogeneity([(30, 100), (15, 100)])
    assert abs(t["statistic"] - 6.4516) < 1e-4 and abs(t["p_value"] - 0.01109) < 1e-5 and t["significant"]


def test_a_variant_adds_a_facet(tmp_path):
    a = analyze(Spec("dark-agent", players=4, variants=("teams",)), games=4, out=tmp_path / "o")
    for r in a.records:
        assert sorted(r["facets"]["team"]) == [1, 1, 2, 2] and "agency" in r["facets"]
        teams = r["facets"]["team"]
        assert len({teams[w] for w in r["winners"]}) == 1  # a team wins together
