"""Player and game variables declared `visibility: owner` or `hidden` stay out of other seats' views."""
from __future__ import annotations

import json

from interpreter.information.views import view

GAME = """
game: {name: t, players: {min: 2, max: 2}}
vars:
  player:
    secret: {default: 0, visibility: owner}
    known: 0
  game:
    plan: {default: 0, visibility: hidden}
actions:
  scheme:
    effect: |
      me.secret = 4242
      plan = 777
      me.known = 5
"""


def test_owner_and_hidden_variables(make_game):
    g = make_game(GAME)
    st = g.apply(g.new_game(seed=1), "scheme")
    mine, theirs, spectator = (json.dumps(view(g, st, s)) for s in (0, 1, None))
    assert "4242" in mine and "4242" not in theirs and "4242" not in spectator
    assert "777" not in mine and "777" not in theirs
    assert all('"known": 5' in v for v in (mine, theirs, spectator))
