"""A tiny game as YAML text, for the tests of what `validate` finds at load time (the types of
values, every mistake in one pass, names written as texts) and their fuzzing: one text, so that
each test writes only what it checks. Its actions section comes last: a test appends actions.

    from tiny_game import TINY, with_action, write_folder
    make_game(with_action("probe", "let n = count(pile.cards)"))
    write_folder(tmp_path, TINY)
"""
from __future__ import annotations

import textwrap
from pathlib import Path

TINY = """\
game: {name: t, title: Tiny, players: {min: 1, max: 4, default: 2}}
cards:
  coin: {copies: 3, props: {value: 1, word: a}, tags: [token]}
  gem: {props: {value: 3, word: b}, tags: [token]}
  ruby: {props: {value: 5}, tags: [token]}
zones:
  pile: {}
  hand: {per_player: true, visibility: owner}
board:
  grid: {columns: 2, rows: [{rows: 1-2}]}
vars:
  game: {leader: {type: player}, total: {type: int, default: 0}}
  player: {score: 0}
flow:
  setup: |
    for c in cards do move c to pile end
actions:
  noop:
    effect: finish turn
"""


def with_action(name: str, effect: str, base: str = TINY) -> str:
    """`base` with one more action, its effect the rules text `effect` (one or several lines)."""
    body = textwrap.indent(textwrap.dedent(effect).strip("\n"), " " * 6)
    return base + f"  {name}:\n    effect: |\n{body}\n"


def write_folder(folder: Path, text: str) -> Path:
    """The game folder `folder` holding `text` as its game.yaml (written again if it is there)."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "game.yaml").write_text(textwrap.dedent(text), encoding="utf-8")
    return folder
