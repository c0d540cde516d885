"""Helpers of the hardening tests (issue 12): a small game written from text, and the
`interpret` command run on it in this process, under a time limit."""
from __future__ import annotations

import re
import time

from interpreter.play import cli

BASE = """\
game: {name: hardened, players: {min: 2, max: 3}}
cards:
  coin: {copies: 3, props: {value: 1}, tags: [token]}
zones:
  deck: {refill_from: discard}
  discard: {}
  hand: {per_player: true}
vars: {game: {x: 0, lst: []}, player: {score: 0}}
flow:
  setup: |
    for c in cards do move c to deck end
  round:
    end: "if round >= 3 then finish game end"
actions:
  noop: {effect: finish turn}
"""

POSITION = re.compile(r"game\.yaml:\d+:\d+")


def game_dir(tmp_path, extra: str = "", base: str = BASE, name: str = "g"):
    root = tmp_path / name
    root.mkdir(exist_ok=True)
    (root / "game.yaml").write_text(base + extra, encoding="utf-8")
    return root


def interpret(capsys, *argv, seconds: float = 10.0):
    """(exit code, stdout, stderr) of `interpret ARGV`, which must end within `seconds`."""
    start = time.process_time()
    try:
        code = cli.main([str(a) for a in argv])
    except SystemExit as e:  # argparse: a usage error
        code = e.code
    spent = time.process_time() - start
    out, err = capsys.readouterr()
    assert spent < seconds, f"interpret {' '.join(map(str, argv))} took {spent:.1f} s of CPU"
    return code, out, err
