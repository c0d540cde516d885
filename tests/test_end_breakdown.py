"""Honest end screens (issue 27, item 6; interpreter/play/ending.py): a draw is a draw, seats that
nothing separates share their place, and the content's full count (`render.breakdown`) is read in
the final state with every card revealed: Agents Secrets' count per source, the +7 of the smaller
company, each company's vote and its effect, every player's missions."""
from __future__ import annotations

import random
import re

import pytest

from interpreter.engine.game import Game
from interpreter.errors import ContentError
from interpreter.play.ending import end_screen, outcome_line, places
from interpreter.play.render import Renderer

DRAW = ["r1c1", "r1c2", "r1c3", "r2c2", "r2c1", "r2c3", "r3c2", "r3c1", "r3c3"]  # X and O, no line of three


def _played(game, moves):
    st = game.new_game(seed=1)
    for move in moves:
        game.apply_in_place(st, move)
    return st


def _random_end(game, seed):
    st = game.new_game(seed=seed)
    rng = random.Random(seed)
    while not game.is_terminal(st):
        game.apply_in_place(st, rng.choice(game.legal_actions(st)))
    return st


def test_a_tic_tac_toe_draw_is_a_draw_with_both_seats_first():
    game = Game.load("tic-tac-toe")
    st = _played(game, [f"play {cell}" for cell in DRAW])
    assert game.is_terminal(st) and game.winners(st) == []
    lines = end_screen(game, Renderer(game), st)
    assert "A draw: nobody wins." in lines
    ranked = [line for line in lines if re.match(r"\s+\d+\. ", line)]
    assert [line.split(".")[0].strip() for line in ranked] == ["1", "1"]  # a shared place
    assert not any("seat order" in line or "winner" in line for line in lines)


def test_a_win_is_told_by_name_and_not_as_a_draw():
    game = Game.load("tic-tac-toe")
    st = _played(game, ["play r1c1", "play r2c1", "play r1c2", "play r2c2", "play r1c3"])
    assert outcome_line(game, st, game.ranking(st)) == "X wins."
    assert places(game, st, game.ranking(st)) == [1, 2]


def test_without_a_winner_rule_the_seats_equal_at_the_top_win_together(make_game):
    game = make_game("""
game: {name: even, players: {min: 3, max: 3}}
flow: {turn: {steps: [{name: play}]}}
actions:
  stop: {effect: finish game}
scoring:
  score: "1 if me != players[2] else 0"
""")
    st = _played(game, ["stop"])
    ranking = game.ranking(st)
    assert places(game, st, ranking) == [1, 1, 3]
    assert outcome_line(game, st, ranking) == "Player 1, Player 2 win together."


@pytest.fixture(scope="module")
def secrets_end():
    """An Agents Secrets game for 5 (the KGB has one player fewer), played to its end."""
    game = Game.load("agents-secrets", players=5)
    return game, _random_end(game, 4)


def _count(lines, company):
    line = next(line for line in lines if line.startswith(f"{company} ") and " points: common pot " in line)
    total, pot, agents, double = map(int, re.match(
        rf"{company} (-?\d+) points: common pot (-?\d+) \+ its agents' missions (-?\d+) \+ the \w+'s double "
        r"agent's missions (-?\d+)", line).groups())
    bonus = int(m.group(1)) if (m := re.search(r"\+ (\d+) \(one player fewer, Setup 1\)", line)) else 0
    return total, pot + agents + double + bonus, bonus


def test_the_agents_secrets_count_shows_every_source_and_adds_up(secrets_end):
    game, st = secrets_end
    lines = end_screen(game, Renderer(game), st)
    cia, kgb = _count(lines, "CIA"), _count(lines, "KGB")
    assert cia[0] == cia[1] and kgb[0] == kgb[1], lines  # the sources add up to the total shown
    assert (cia[2], kgb[2]) == (0, 7)  # Setup 1: the company with one player fewer gets 7 points
    scores = game.scores(st)
    assert sorted({cia[0], kgb[0]}) == sorted(set(scores))  # each seat's score is its side's total
    assert sum(line.startswith("Hunt for the Double Agent, ") for line in lines) == 2  # each company's vote
    vote = next(line for line in lines if line.startswith("Hunt for the Double Agent, CIA: "))
    assert re.search(r"(nobody is designated|is designated, (rightly|wrongly))", vote)
    for seat in game.seats:  # every player's identity and missions, revealed
        assert any(line.startswith(f"{seat.name}, ") and "missions " in line for line in lines), seat.name
    assert sum(1 for line in lines if "by destination: Rio " in line) == 2


def test_the_count_is_read_with_every_card_shown(secrets_end):
    """The breakdown is drawn for a viewer who sees everything (the game is over), not for a seat."""
    game, st = secrets_end
    lines = Renderer(game).breakdown(st)
    assert lines and not any("?" in line for line in lines)


def test_a_breakdown_line_is_checked_when_the_game_loads(tmp_path):
    import shutil
    from pathlib import Path
    folder = tmp_path / "ttt"
    shutil.copytree(Path(__file__).resolve().parent.parent / "content" / "tic-tac-toe", folder)
    game_yaml = folder / "game.yaml"
    game_yaml.write_text(game_yaml.read_text().replace(
        'render:\n', 'render:\n  breakdown: ["{no_such_function(1)}", {per_player: "{p.name}"}]\n'))
    game = Game.load(str(folder))
    with pytest.raises(ContentError, match="no_such_function"):
        Renderer(game)
