"""benchmarks/compare.py runs, and its contenders play the same games.

The plain classes of benchmarks/plain_games.py (and OpenSpiel's games, when installed) must agree
with content/tic-tac-toe and content/connect-four move by move on many random games: the same
legal moves at every step, the game over at the same move, the same winner. Nothing is timed.
"""
from __future__ import annotations

import json
import os
import random
import sys
import types
from pathlib import Path

import pytest

BENCHMARKS = Path(__file__).resolve().parent.parent / "benchmarks"
sys.path.insert(0, str(BENCHMARKS))

import compare  # noqa: E402

GAMES = {"tic-tac-toe": 200, "connect-four": 50}   # random games compared, per game
DRAWN = {"tic-tac-toe": [], "connect-four": [344]}  # random connect four games are rarely drawn: seed 344 is


@pytest.fixture(scope="module")
def content_games():
    return {name: compare.load_content(name) for name in GAMES}


def _random_game(cls, seed):
    """The moves of a random game of the plain class, and the class's state after each."""
    rng = random.Random(seed)
    g = cls()
    moves = []
    while not g.is_terminal():
        moves.append(rng.choice(g.legal_actions()))
        g.apply(moves[-1])
    return moves


@pytest.mark.parametrize("name", list(GAMES))
def test_plain_class_and_content_agree_on_random_games(content_games, name):
    game = content_games[name]
    cls = compare.plain_class(name)
    outcomes = set()
    for seed in [*range(GAMES[name]), *DRAWN[name]]:
        plain = cls()
        st = game.new_game(seed)
        for i, move in enumerate(_random_game(cls, seed)):
            where = f"seed {seed}, move {i}"
            assert not game.is_terminal(st), f"{where}: the content game is over, the plain one is not"
            assert game.current_player(st) == plain.current_player(), where
            legal = sorted(str(a) for a in game.legal_actions(st))
            assert legal == sorted(compare.content_action(name, m) for m in plain.legal_actions()), where
            plain.apply(move)
            game.apply_in_place(st, compare.content_action(name, move))   # checked: refused if illegal
        assert game.is_terminal(st), f"seed {seed}: the plain game is over, the content one is not"
        assert compare.content_winner(game, st) == plain.winner, f"seed {seed}"
        outcomes.add(plain.winner)
    assert outcomes == {0, 1, None}, "the sample should hold wins of each side and draws"


@pytest.mark.parametrize("name,spiel_name", [("tic-tac-toe", "python_tic_tac_toe"), ("connect-four", "connect_four")])
def test_openspiel_and_plain_class_agree_on_random_games(name, spiel_name):
    spiel = compare.load_openspiel(spiel_name)
    if spiel is None:
        pytest.skip("open_spiel is not installed")
    cls = compare.plain_class(name)
    for seed in range(GAMES[name]):
        state = spiel.new_initial_state()
        plain = cls()
        for move in _random_game(cls, seed):
            assert sorted(state.legal_actions()) == sorted(plain.legal_actions()), f"seed {seed}"
            state.apply_action(move)
            plain.apply(move)
        assert state.is_terminal()
        assert list(state.returns()) == plain.returns(), f"seed {seed}"


def test_compare_measures_every_contender_and_gives_ratios():
    cs = compare.measure(compare.contenders(seed=3), seconds=0.06, slice_seconds=0.005)
    assert {(c.game, c.name) for c in cs} >= {(g, n) for g in GAMES for n in ("interpret", "plain class")}
    assert all(c.steps > 0 and c.games > 0 and c.seconds > 0 for c in cs)
    names = [n for n, _ in compare.ratios(cs)]
    assert "tic-tac-toe: interpret / plain class" in names and "connect-four: interpret / plain class" in names
    assert "interpret" in compare.table(cs)
    assert compare.summary(cs)["ratios"]


def test_bytecodes_counts_the_same_work_every_run_and_splits_out_the_listing():
    """benchmarks/bytecodes.py: the bytecodes of the same random games are the same in every run
    (what makes them comparable on a busy machine); the listing's share is neither nothing nor
    everything, and a generated function is named by the content it was written from."""
    import bytecodes
    root = str(BENCHMARKS.parent)
    runs = [bytecodes.count(root, game_name="tic-tac-toe", players=None, games=2, seed=0, top=5) for _ in range(2)]
    assert runs[0] == runs[1] and runs[0]["decisions"] > 9
    assert 0.05 < runs[0]["listing_share"] < 0.95
    assert any("tic-tac-toe/" in name for name, _ in runs[0]["top"])


def test_listing_reuse_lists_each_definition_as_the_step_does_and_compares_within_a_turn():
    """benchmarks/listing_reuse.py: the definitions listed one by one give the flow's listing (it
    checks so at every listing); the same games give the same counts in every run; a definition's
    actions are compared only with the previous listing of the same turn: never in tic-tac-toe (one
    decision a turn), often in Dark Agent's `act` step (several decisions a turn)."""
    import listing_reuse
    from interpreter import Game
    dark = Game.load("dark-agent", players=4)
    runs = [listing_reuse.measure(dark, games=1, seed=0) for _ in range(2)]
    counts = [{k: (d["listings"], d.get("unchanged", 0)) for k, d in r["definitions"].items()} for r in runs]
    assert counts[0] == counts[1] and runs[0]["decisions"] > 50
    act = runs[0]["steps"]["act"]["listings"]
    assert runs[0]["definitions"][("act", "target")]["listings"] == act
    # ending the turn is always possible (unchanged at each listing after the turn's first one), a
    # target often changes
    unchanged = {name: runs[0]["definitions"][("act", name)].get("unchanged", 0) for name in ("end_turn", "target")}
    assert 0 < unchanged["target"] < unchanged["end_turn"] < act
    tic = listing_reuse.measure(Game.load("tic-tac-toe"), games=2, seed=0)
    assert tic["decisions"] > 9 and all(d.get("unchanged", 0) == 0 for d in tic["definitions"].values())
    assert "listings" in listing_reuse.table(runs[0], top=3)


def test_instructions_counts_the_games_alone_and_compares_the_same_games(monkeypatch, capsys):
    """benchmarks/instructions.py: valgrind's `I refs` read from its summary; the games played in
    the child are the same in every run (decisions and final scores); with --baseline, the ratio is
    baseline / this tree, and games that differ are told. valgrind itself is not run here (a count
    takes minutes)."""
    import bench
    import instructions
    summary = "==7== Cachegrind, a high-precision tracing profiler\n==7== \n==7== I   refs:      4,187,132,647\n"
    assert instructions.refs(summary) == 4187132647
    with pytest.raises(RuntimeError):
        instructions.refs("==7== ERROR SUMMARY: 0 errors")
    runs = [instructions.play("tic-tac-toe", None, 2, 1) for _ in range(2)]
    assert runs[0] == runs[1] and runs[0]["decisions"] > 9 and len(runs[0]["scores"]) == 2

    caches = []

    def child(tree, options, valgrind, cache):  # the child, as valgrind reports it: loading costs 1,000
        caches.append((cache, os.listdir(cache)))
        games = int(options[options.index("--games") + 1])
        played = json.dumps({"decisions": 4 * games, "scores": [[1.0, 0.0]] * games})
        return types.SimpleNamespace(stdout=played if not valgrind else "",
                                     stderr=f"==7== I   refs:      {1000 + 250 * games:,}\n" if valgrind else "")
    with monkeypatch.context() as patched:
        patched.setattr(instructions, "_child", child)
        patched.setattr(instructions.shutil, "which", lambda name: "/usr/bin/" + name)
        got = instructions.count("tree", game_name="tic-tac-toe", players=None, games=2, seed=1)
    assert got == {"decisions": 8, "scores": [[1.0, 0.0]] * 2, "instructions": 500, "load": 1000}
    # the three children share a disk cache of their own, new and empty at first, gone afterwards
    assert len({cache for cache, _ in caches}) == 1 and caches[0][1] == [] and not os.path.exists(caches[0][0])

    def counted(tree, *, game_name, players, games, seed):
        base = "interpret-baseline-" in tree
        return {"decisions": 10, "scores": [[1.0, 0.0]] if base and games == 3 else [[0.0, 1.0]],
                "instructions": 300 if base else 200, "load": 5}
    monkeypatch.setattr(instructions, "count", counted)
    monkeypatch.setattr(bench, "unpack_revision", lambda rev, dest: "abc1234")
    instructions.main(["--game", "tic-tac-toe", "--games", "2", "--baseline", "HEAD"])
    out = capsys.readouterr().out
    assert "baseline abc1234: 10 decisions, 300 instructions" in out
    assert "instructions, baseline / this tree: 1.500 (same games: yes)" in out
    instructions.main(["--game", "tic-tac-toe", "--games", "3", "--baseline", "HEAD"])
    assert "(same games: NO (the games differ))" in capsys.readouterr().out
