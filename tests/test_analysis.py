"""interpret analyze: the statistics against known values, the results folder (resume, refusal),
--jobs giving the same bytes as a serial run, and what decided each game (tie-breaks)."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from interpreter.analysis import Batch, Spec, analyze
from interpreter.analysis.stats import (chi2_sf, chi_square_even, mean_difference, quantiles, two_proportions,
                                        wilson)
from interpreter.play.cli import main
from interpreter.ruleset.paths import game_dir

# ---- statistics against published values -----------------------------------------------------


@pytest.mark.parametrize("k,n,lo,hi", [
    (81, 263, 0.2553, 0.3662),     # Newcombe (1998), Stat. Med. 17:857, table II, method 3 (score)
    (15, 148, 0.0624, 0.1605),
    (0, 20, 0.0, 0.1611),
    (1, 29, 0.0061, 0.1718),
    (50, 100, 0.4038, 0.5962),
])
def test_wilson_interval(k, n, lo, hi):
    a, b = wilson(k, n)
    assert a == pytest.approx(lo, abs=5e-5) and b == pytest.approx(hi, abs=5e-5)


@pytest.mark.parametrize("x,df,p", [
    (3.841458820694124, 1, 0.05), (6.634896601021214, 1, 0.01), (7.814727903251179, 3, 0.05),
    (11.344866730144373, 3, 0.01), (0.5, 2, 0.7788007830714049), (2.0, 4, 0.7357588823428847),
    (18.307038053275146, 10, 0.05), (100.0, 10, 5.4497e-17), (0.0, 3, 1.0),
])
def test_chi_square_survival(x, df, p):
    assert chi2_sf(x, df) == pytest.approx(p, rel=1e-6, abs=1e-12)


def test_chi_square_of_even_and_uneven_seats():
    even = chi_square_even([25, 25, 25, 25])
    assert even["statistic"] == 0 and even["p_value"] == 1.0 and not even["significant"]
    assert "no significant difference" in even["verdict"]
    uneven = chi_square_even([12, 38, 18, 32])  # chi-square 17.44 on 3 df
    assert uneven["statistic"] == pytest.approx(17.44)
    assert uneven["p_value"] == pytest.approx(0.000574, rel=1e-2) and uneven["significant"]
    assert "differ significantly" in uneven["verdict"]


def test_two_proportions_and_quantiles():
    t = two_proportions(60, 100, 45, 100)  # z = 2.124, two-sided p = 0.0337
    assert t["z"] == pytest.approx(2.1240, abs=1e-3) and t["p_value"] == pytest.approx(0.03367, abs=1e-4)
    assert t["significant"]
    assert not two_proportions(50, 100, 45, 100)["significant"]
    q = quantiles([1, 2, 3, 4, 5])
    assert (q["p0"], q["p10"], q["p50"], q["p90"], q["p100"], q["mean"]) == (1, 1.4, 3, 4.6, 5, 3)
    assert mean_difference([1, 2, 3, 4], [1, 2, 3, 4])["significant"] is False


# ---- a batch in a folder ---------------------------------------------------------------------


def _batch(tmp_path, name, games, jobs=1, game="tic-tac-toe", **kw):
    return analyze(Spec(game, **kw), games=games, out=tmp_path / name, jobs=jobs)


def test_results_are_one_line_per_game_in_order(tmp_path):
    a = _batch(tmp_path, "a", 40)
    lines = (tmp_path / "a" / "results.jsonl").read_text().splitlines()
    assert len(lines) == 40
    recs = [json.loads(x) for x in lines]
    assert [r["index"] for r in recs] == list(range(40)) and [r["seed"] for r in recs] == list(range(40))
    r = recs[0]
    for key in ("seats", "agents", "options", "variants", "scores", "ranking", "winners", "decisions", "rounds",
                "decided_by", "facets"):
        assert key in r
    assert r["agents"] == ["random", "random"] and r["seats"] == ["p1", "p2"]
    s = json.loads((tmp_path / "a" / "summary.json").read_text())
    assert s["games"] == 40 and [x["k"] for x in s["seats"]] == [
        sum(1 for r in recs if i in r["winners"]) for i in range(2)]
    assert all(x["n"] == 40 and x["low"] <= x["rate"] <= x["high"] for x in s["seats"])
    csv = (tmp_path / "a" / "games.csv").read_text().splitlines()
    assert csv[0].startswith("index,seed,decisions,rounds,winners,decided_by,lead_changes,winner_leads_from,score_p1")
    assert len(csv) == 41
    assert a.summary["games"] == 40


def test_jobs_give_the_same_bytes_as_a_serial_run(tmp_path):
    _batch(tmp_path, "serial", 60, game="dark-agent", players=2)
    _batch(tmp_path, "jobs", 60, jobs=2, game="dark-agent", players=2)
    serial = (tmp_path / "serial" / "results.jsonl").read_bytes()
    assert serial == (tmp_path / "jobs" / "results.jsonl").read_bytes()
    assert serial.count(b"\n") == 60


def test_games_are_handed_out_in_chunks_shrinking_to_one_game():
    from interpreter.analysis.games import chunks
    for todo, workers in ((range(0, 500), 2), (range(37, 2000), 3), (range(5, 6), 2), (range(0, 0), 2)):
        parts = chunks(todo, workers)
        assert [i for c in parts for i in c] == list(todo)  # every game once, in order
        sizes = [len(c) for c in parts]
        assert sizes == sorted(sizes, reverse=True) and max(sizes, default=16) <= 16
        if len(todo) > 20:
            assert sizes[-workers:] == [1] * workers  # no worker left alone with a long chunk at the end
            assert len(parts) < len(todo) / 4  # few messages


def test_the_batch_plays_with_the_collector_frozen_and_restores_it(tmp_path):
    import gc
    seen = []
    batch = Batch.prepare(Spec("tic-tac-toe"), tmp_path / "o")
    batch.run(3, meanwhile=lambda: seen.append(gc.get_freeze_count()))  # serial: meanwhile is not called
    assert seen == [] and gc.get_freeze_count() == 0
    batch.run(8, jobs=2, meanwhile=lambda: seen.append(gc.get_freeze_count()))
    assert seen and seen[0] > 1000 and gc.get_freeze_count() == 0


def test_a_stopped_run_resumes_where_it_stopped(tmp_path):
    _batch(tmp_path, "whole", 50)
    first = _batch(tmp_path, "parts", 20)
    assert first.played == 20
    # an interrupted run leaves half a line: it is cut, and that game played again
    path = tmp_path / "parts" / "results.jsonl"
    whole = (tmp_path / "whole" / "results.jsonl").read_bytes()
    half = whole.split(b"\n")[20][:25]
    path.write_bytes(path.read_bytes() + half)
    second = _batch(tmp_path, "parts", 50, jobs=2)
    assert second.played == 30
    assert path.read_bytes() == whole
    assert _batch(tmp_path, "parts", 50).played == 0  # all there: nothing to play
    assert _batch(tmp_path, "parts", 10).summary["games"] == 10  # a smaller N reads the first games


def test_another_configuration_is_refused_with_a_clear_message(tmp_path, capsys):
    out = str(tmp_path / "run")
    assert main(["analyze", "dark-agent", "--players", "3", "--games", "3", "--out", out, "-q"]) == 0
    capsys.readouterr()
    assert main(["analyze", "dark-agent", "--players", "3", "--games", "5", "--out", out, "-q",
                 "--option", "level=moyen"]) == 1
    err = capsys.readouterr().err
    assert "holds results of another configuration" in err and "level: 'debutant' there, 'moyen' now" in err
    assert "Traceback" not in err
    assert main(["analyze", "dark-agent", "--players", "4", "--games", "5", "--out", out, "-q"]) == 1
    assert "players: 3 there, 4 now" in capsys.readouterr().err
    # an edited results file
    path = tmp_path / "run" / "results.jsonl"
    lines = path.read_text().splitlines()
    path.write_text("\n".join([lines[0], lines[2]]) + "\n")
    assert main(["analyze", "dark-agent", "--players", "3", "--games", "5", "--out", out, "-q"]) == 1
    assert "results.jsonl:2: expected the result of game 1" in capsys.readouterr().err
    # a file where the folder should be, a bad option, a bad count
    assert main(["analyze", "tic-tac-toe", "--games", "2", "--out", str(path), "-q"]) == 1
    assert "not a folder" in capsys.readouterr().err
    assert main(["analyze", "tic-tac-toe", "--games", "2", "--out", str(tmp_path / "o"), "--option", "x=1"]) == 1
    assert "unknown option `x`" in capsys.readouterr().err
    assert main(["analyze", "tic-tac-toe", "--games", "0", "--out", str(tmp_path / "o")]) == 2


def test_changed_content_is_refused(tmp_path, capsys):
    game = tmp_path / "ttt"
    shutil.copytree(game_dir("tic-tac-toe"), game)
    out = str(tmp_path / "run")
    assert main(["analyze", str(game), "--games", "3", "--out", out, "-q"]) == 0
    (game / "game.yaml").write_text((game / "game.yaml").read_text() + "\n# a change\n")
    capsys.readouterr()
    assert main(["analyze", str(game), "--games", "3", "--out", out, "-q"]) == 1
    assert "the content files changed since" in capsys.readouterr().err


def test_the_command_prints_rates_with_intervals(tmp_path, capsys):
    assert main(["analyze", "tic-tac-toe", "--games", "30", "--out", str(tmp_path / "o"), "--jobs", "2"]) == 0
    out = capsys.readouterr().out
    assert "95% interval" in out and "chi-square" in out and "decided by a tie-break" in out
    assert "30 games played" in out and "summary.json" in out


# ---- what decided a game -------------------------------------------------------------------------


def _ttt_with_scoring(tmp_path, scoring: str) -> Path:
    """tic-tac-toe whose winner is the ranking's first: a draw (both score 0) goes to the tie-breaks."""
    game = tmp_path / "ttt"
    shutil.copytree(game_dir("tic-tac-toe"), game, ignore=shutil.ignore_patterns("scenarios"))
    text = (game / "game.yaml").read_text()
    head, _, tail = text.partition("scoring:\n")
    tail = tail.split("\n\n", 1)[1]
    (game / "game.yaml").write_text(head + "scoring:\n" + scoring + "\n" + tail)
    return game


def test_decided_by_names_the_tiebreak_that_decided(tmp_path):
    game = _ttt_with_scoring(tmp_path, '  score: "1 if winner == me else 0"\n  tiebreak:\n'
                                       '    - "0"\n    - "length(cells where it.card.owner == me)"\n')
    recs = analyze(Spec(str(game)), games=80, out=tmp_path / "o").records
    draws = [r for r in recs if r["scores"] == [0, 0]]
    wins = [r for r in recs if r["scores"] != [0, 0]]
    assert draws and wins
    # in a draw X has put 5 marks, O 4: the second tie-break decides (the first is equal for everyone)
    assert {r["decided_by"] for r in draws} == {"tiebreak 2: length(cells where it.card.owner == me)"}
    assert all(r["winners"] == [0] for r in draws)
    assert {r["decided_by"] for r in wins} == {"score"}
    s = json.loads((tmp_path / "o" / "summary.json").read_text())
    assert s["tiebreak"]["k"] == len(draws)


def test_a_tie_nothing_separates_is_a_shared_win(tmp_path):
    # seat order never decides a winner: the lab, the bots, the adapters and the end screen agree
    game = _ttt_with_scoring(tmp_path, '  score: "1 if winner == me else 0"\n  tiebreak: ["0"]\n')
    recs = analyze(Spec(str(game)), games=60, out=tmp_path / "o").records
    draws = [r for r in recs if r["scores"] == [0, 0]]
    assert draws and {r["decided_by"] for r in draws} == {"a shared win"}
    assert all(r["winners"] == [0, 1] for r in draws)
    s = json.loads((tmp_path / "o" / "summary.json").read_text())
    assert s["shared_wins"]["k"] == len(draws)
    # the bots value such an end as a draw, the adapters return nothing to either seat
    from interpreter.adapters import terminal_returns
    from interpreter.agents.evaluate import Evaluator
    from interpreter.analysis.simulate import play_out
    from interpreter.engine.game import Game
    g = Game.load(str(game))
    last = play_out(g, draws[0]["seed"], keep_state=True).state
    assert g.winners(last) == [0, 1]
    assert Evaluator(g).terminal_values(last) == [0.5, 0.5] and terminal_returns(g, last) == [0.0, 0.0]


def test_decided_by_a_winner_rule(tmp_path):
    recs = analyze(Spec("tic-tac-toe"), games=60, out=tmp_path / "o").records
    assert {r["decided_by"] for r in recs} == {"winner rule", "no winner"}
    assert all((r["decided_by"] == "no winner") == (not r["winners"]) for r in recs)


def test_the_progress_bar_shows_games_speed_and_time_left(tmp_path):
    import io

    from interpreter.analysis.progress import BatchProgress
    stream = io.StringIO()
    analyze(Spec("tic-tac-toe"), games=12, out=tmp_path / "o", progress=BatchProgress(enabled=True, stream=stream))
    text = stream.getvalue()
    assert "12/12" in text and "games/s" in text and "left" in text
    quiet = io.StringIO()  # not a terminal: nothing
    analyze(Spec("tic-tac-toe"), games=14, out=tmp_path / "o", progress=BatchProgress(stream=quiet))
    assert quiet.getvalue() == ""


def test_simulate_shows_intervals_and_the_tiebreak_share(capsys):
    assert main(["simulate", "dark-agent", "--players", "4", "--games", "12"]) == 0
    out = capsys.readouterr().out
    assert "95% interval" in out and "decided by a tie-break:" in out
    assert main(["simulate", "dark-agent", "--players", "4", "--games", "12", "--json"]) == 0
    d = json.loads(capsys.readouterr().out)
    recs = analyze(Spec("dark-agent", players=4), games=12, out=Path(__import__("tempfile").mkdtemp()) / "o").records
    assert d["tiebreak_games"] == sum(1 for r in recs if r["decided_by"].startswith(("tiebreak", "a shared win")))
    assert all(s["win_rate_low"] <= s["wins"] / 12 <= s["win_rate_high"] for s in d["seats"])


class _Scores:
    """Stands for a game in LeadTracker: its scores are the state's `s` (LeadTracker reads only scores)."""

    @staticmethod
    def scores(st):
        return st["s"]


def _track(rounds_scores, final, winners):
    from interpreter.analysis.outcome import LeadTracker
    t = LeadTracker(_Scores())
    t.observe({"flow": {"round": 1}, "s": [0] * len(final)})  # a decision in round 1
    # the last decision of round r ends it and starts round r + 1: the state then shows round r + 1
    for r, s in enumerate(rounds_scores, start=2):
        t.observe({"flow": {"round": r}, "s": s})
    return t.result({"s": final}, winners)


def test_lead_changes_and_how_early_the_winner_leads():
    # rounds end with leaders p1, p2 (change), tie, p1 (change), p1; winner p1 alone from round 4
    out = _track([[3, 1], [3, 5], [5, 5], [7, 5]], [9, 5], [0])
    assert out == {"changes": 2, "winner_leads_from": 4, "checkpoints": 5}
    assert _track([[1, 0], [2, 0]], [3, 0], [0])["winner_leads_from"] == 1  # ahead throughout
    assert _track([[1, 0]], [2, 2], [0])["winner_leads_from"] is None  # tied at the end: a tie-break game
    assert _track([[1, 0]], [2, 2], [0, 1])["winner_leads_from"] == 1  # a shared win: the winners together


def test_lead_is_recorded_for_each_game(tmp_path):
    recs = analyze(Spec("tic-tac-toe"), games=30, out=tmp_path / "o").records
    for r in recs:
        lead = r["lead"]
        assert lead["changes"] == 0  # one point for the winner, at the very end
        if r["winners"]:
            assert lead["winner_leads_from"] == lead["checkpoints"]
        else:
            assert lead["winner_leads_from"] is None


def test_seats_can_be_played_by_other_agents(tmp_path, capsys):
    out = tmp_path / "o"
    assert main(["analyze", "tic-tac-toe", "--games", "10", "--seat", "2=greedy", "--out", str(out), "-q"]) == 0
    text = capsys.readouterr().out
    assert "agents random, greedy" in text and "win rate by agent" in text
    run = json.loads((out / "run.json").read_text())
    assert run["agents"] == ["random", "greedy"]
    assert main(["analyze", "tic-tac-toe", "--games", "10", "--out", str(out), "-q"]) == 1  # other agents
    assert "agents: ['random', 'greedy'] there, ['random', 'random'] now" in capsys.readouterr().err
    assert main(["analyze", "tic-tac-toe", "--games", "2", "--seat", "1=human", "--out", str(tmp_path / "h")]) == 2
