"""The flow of rounds and turns: choices inside round and turn effects pause the flow."""
from __future__ import annotations

import textwrap

from interpreter.engine.game import Game, from_json, to_json, touch

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


# ---- the flow's arithmetic for quiet turns and rounds (flow.Flow.settle) and its transitions ----

def _playout(game, seed, steps=400, general=False):
    """The JSON of every state of a seeded random game, and the actions listed at each decision.
    `general`: turns and rounds pass through their transitions (no arithmetic for quiet ones),
    and every action is bound."""
    import random
    quiet = game.flow._quiet_turns, game.flow._quiet_rounds
    if general:
        game.flow._quiet_turns = game.flow._quiet_rounds = False
    try:
        rng = random.Random(seed)
        st = game.new_game(seed=seed)
        seen = [to_json(st)]
        for _ in range(steps):
            if game.is_terminal(st):
                break
            actions = game.legal_actions(st)
            seen.append([str(a) for a in actions])
            if general:
                touch(st)
            game.apply_in_place(st, actions[rng.randrange(len(actions))], checked=False)
            seen.append(to_json(st))
        return seen
    finally:
        game.flow._quiet_turns, game.flow._quiet_rounds = quiet


def test_the_arithmetic_of_quiet_turns_makes_the_states_of_the_transitions():
    for name, players in (("tic-tac-toe", 2), ("connect-four", 2), ("dark-agent", 4), ("agent-dog", 4),
                          ("agents-secrets", 6)):
        game = Game.load(name, players=players)
        for seed in (1, 2):
            assert _playout(game, seed) == _playout(game, seed, general=True), (name, seed)


def test_a_quiet_turn_passes_by_arithmetic(monkeypatch):
    """Tic-tac-toe declares nothing around its turns: after each move the next turn begins without
    the transitions of steps 1-5 of settle, without ending or starting a turn through their effects, and the
    trusted move is done without being bound again. A game with an `on turn_end` trigger ends its
    turns through _end_turn."""
    from interpreter.engine.flow import Flow
    from interpreter.engine.legality import Binder
    calls = {}

    def counting(cls, name):
        original = getattr(cls, name)

        def counted(self, *args, **kwargs):
            calls[name] = calls.get(name, 0) + 1
            return original(self, *args, **kwargs)
        monkeypatch.setattr(cls, name, counted)

    for name in ("_transition", "_end_turn", "_start_turn", "_end_round"):
        counting(Flow, name)
    counting(Binder, "bind")
    game = Game.load("tic-tac-toe")
    assert game.flow._quiet_turns and game.flow._quiet_rounds
    st = game.new_game(seed=3)
    assert calls == {"_transition": 1, "_start_turn": 1}  # the setup: the first round, the first turn
    calls.clear()
    for cell in ("r1c1", "r2c2", "r1c2", "r3c3"):
        game.legal_actions(st)
        game.apply_in_place(st, f"play {cell}", checked=False)
    # two rounds ended and began (two turns a round) by arithmetic too: no round, no turn passed there
    assert not calls, calls
    game.apply_in_place(st, "play r1c3")  # checked: bound and verified
    assert calls["bind"] == 1
    assert game.is_terminal(st) and calls["_transition"] == 1  # the game finished: its transition ends it
    assert isinstance(game.flow, Flow)


def _tally(tmp_path, monkeypatch, event: str, transition: str):
    """A game of two seats that pass once a turn, counting `event` in `n`, finished when n reaches 3;
    and the calls of the flow's `transition` it makes on the way, and the moves played."""
    (tmp_path / "game.yaml").write_text(textwrap.dedent(f"""\
        game: {{name: tally, players: {{min: 2, max: 2, default: 2}}}}
        vars: {{game: {{n: 0}}}}
        actions:
          pass: {{limit: 1, effect: "if n >= 3 then finish game end"}}
        triggers:
          - "on {event}: n += 1"
        scoring: {{score: "0"}}
        """))
    game = Game.load(str(tmp_path))
    calls = []
    from interpreter.engine.flow import Flow
    original = getattr(Flow, transition)
    monkeypatch.setattr(Flow, transition, lambda self, *a, **k: (calls.append(1), original(self, *a, **k))[1])
    st = game.new_game(seed=1)
    moves = 0
    while not game.is_terminal(st) and moves < 20:
        game.apply_in_place(st, "pass", checked=False)
        moves += 1
    assert game.evaluate(st, "n") == 3
    return game, len(calls), moves


def test_a_turn_with_a_trigger_ends_through_its_effects(tmp_path, monkeypatch):
    game, ended, moves = _tally(tmp_path, monkeypatch, "turn_end", "_end_turn")
    assert not game.flow._quiet_turns and ended == 3 and moves == 4


def test_a_round_with_a_trigger_ends_through_its_effects(tmp_path, monkeypatch):
    game, ended, moves = _tally(tmp_path, monkeypatch, "round_start", "_end_round")
    assert game.flow._quiet_turns and not game.flow._quiet_rounds and ended == 2 and moves == 5


def test_a_start_that_draws_nothing_is_made_once(monkeypatch):
    """A start that draws nothing at random does not depend on the seed: the next games begin from a
    copy of it, with their own generator, and are the games a fresh start makes. A start that draws
    (Dark Agent shuffles its decks) is made for every game."""
    starts = []
    original = Game._start
    monkeypatch.setattr(Game, "_start", lambda self, st: (starts.append(1), original(self, st))[1])
    game = Game.load("tic-tac-toe")
    first = game.new_game(seed=1)
    again = [game.new_game(seed=s) for s in (2, 3)]
    assert len(starts) == 1
    assert game.legal_actions(again[0]) == game.legal_actions(first)
    game.apply_in_place(again[0], "play r2c2", checked=False)  # a copy: the others are untouched
    for seed, st in ((1, first), (3, again[1])):
        fresh = Game.load("tic-tac-toe").new_game(seed=seed)
        assert to_json(st) == to_json(fresh)
    starts.clear()
    assert to_json(game.new_game(seed=4, forced=[1])) != to_json(game.new_game(seed=4))  # forced: started anew
    assert len(starts) == 1
    starts.clear()
    dark = Game.load("dark-agent", players=4)
    dark.new_game(seed=1)
    dark.new_game(seed=2)
    assert len(starts) == 2 and dark._started is None
