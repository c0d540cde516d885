"""Pending prompts are written for each viewer from the values the rule saw, not redacted from text."""
from interpreter.information.views import view

PROMPTS = """
game: {name: t, players: {min: 2, max: 2, default: 2}}
cards:
  nobody: {per_player: true, start: hand}
  gem: {per_player: true, start: hand}
zones:
  hand: {per_player: true, visibility: owner}
  table: {}
flow:
  turn:
    steps:
      - name: main
actions:
  pick:
    effect: |
      let mine = first(me.hand.cards where it is gem)
      let theirs = first(me.next.hand.cards where it is gem)
      choose n from [1, 2] by me.next prompt "{me} holds {mine}, you hold {theirs}; nobody knows"
  pass:
    effect: finish turn
"""


def test_a_prompt_is_written_for_each_viewer_from_values(make_game):
    game = make_game(PROMPTS)
    st = game.apply(game.new_game(seed=1), "pick")
    assert game.current_player(st) == 1
    full = "p1 holds gem.p1, you hold gem.p2; nobody knows"
    assert st["pending"][-1]["prompt"] == full  # the state keeps the full text (logs, saved games)
    # p2 decides: it cannot identify p1's gem, it sees its own; the word `nobody` is not a card
    labels = [text for _, text in game.legal_actions_with_labels(st)]
    assert labels == ["p1 holds a card, you hold gem.p2; nobody knows: 1",
                      "p1 holds a card, you hold gem.p2; nobody knows: 2"]
    assert view(game, st, 1)["pending"]["prompt"] == "p1 holds a card, you hold gem.p2; nobody knows"
    assert view(game, st, 0)["pending"]["prompt"] == "p1 holds gem.p1, you hold a card; nobody knows"
    assert view(game, st, None)["pending"]["prompt"] == "p1 holds a card, you hold a card; nobody knows"
