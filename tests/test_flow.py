"""The flow of rounds and turns: choices inside round and turn effects pause the flow."""
from __future__ import annotations

import textwrap

from interpreter.engine import Game, from_json, to_json

VOTE = """\
game: {name: vote, players: {min: 2, max: 3, default: 3}}
vars:
  game: {votes: 0}
  player: {voted: {type: card}, points: 0}
cards: {ballot: {copies: 2, per_player: true, start: hand}}
zones: {hand: {per_player: true, visibility: owner}, urn: {visibility: hidden}}
flow:
  round:
    start: |
      for p in players do
        choose b from p.hand.cards by p prompt "round {round}: your ballot"
        move b to urn
        p.voted = b
      end
    end: |
      for p in players do
        choose x from [1, 2] by p prompt "score"
        p.points += x
      end
      if round >= 2 then finish game end
  turn:
    start: |
      choose y from [10, 20] prompt "bonus"
      me.points += y
    steps: [{name: play}]
    end: |
      choose z from [100, 200] prompt "farewell"
      me.points += z
actions:
  done: {effect: finish turn}
scoring:
  score: me.points
"""


def test_choices_in_round_and_turn_effects_wait_for_their_players(tmp_path):
    (tmp_path / "game.yaml").write_text(VOTE)
    g = Game.load(str(tmp_path))
    st = g.new_game(seed=1)
    seen = []
    rounds = set()
    while not g.is_terminal(st):
        acts = g.legal_actions_with_labels(st)
        seen.append((g.current_player(st), acts[0][1].split(":")[0]))
        st = from_json(to_json(g.apply(st, acts[-1][0])))   # the last option; through JSON each time
        rounds.add(st["flow"]["round"])
    prompts = [p for _, p in seen]
    # round 1: three ballots first, then each turn: bonus, done, farewell; then three scores
    assert prompts[:3] == ["round 1", "round 1", "round 1"]
    assert prompts[3:6] == ["bonus", "done", "farewell"]
    assert prompts[12:15] == ["score", "score", "score"]
    assert [p for p, _ in seen[:3]] == [0, 1, 2]
    assert g.scores(st) == [2 * (2 + 20 + 200)] * 3
    assert g.evaluate(st, "score_of(seat(1))") == 444
    assert g.evaluate(st, 'text("total ", score_of(seat(2)), " for ", seat(2))') == "total 444 for p2"
    assert g.evaluate(st, "is_winner(seat(1))") is True
