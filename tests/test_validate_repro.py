"""Every printed command reproduces what it names: simulate's "watch that game with" carries the
variants, options, players, seats and seed of the failing game; the header `interpret new variant`
writes gives commands that run from the folder it was run in. Each printed command is run here."""
from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ENV = {**os.environ, "PYTHONPATH": str(ROOT)}

# a variant whose rules fail in the second round: only a game with it fails
BOOM = """\
variant: {name: boom, base: tic-tac-toe}
changes:
  - op: append
    path: triggers
    value:
      - "on turn_start when round >= 2: log \\"{1 // (round - round)}\\""
"""


def interpret(args, cwd, timeout=300):
    return subprocess.run([sys.executable, "-m", "interpreter", *args], capture_output=True, text=True, cwd=cwd,
                          env=ENV, timeout=timeout)


def test_simulates_command_replays_the_failing_game_with_its_variant(tmp_path):
    (tmp_path / "variants").mkdir()
    (tmp_path / "variants" / "boom.yaml").write_text(BOOM, encoding="utf-8")
    out = interpret(["simulate", "tic-tac-toe", "--variant", "variants/boom.yaml", "--games", "3", "--seed", "4",
                     "--bots", "easy"], tmp_path)
    assert out.returncode == 1, out.stderr
    error = out.stderr.split("(watch that game with: ")[0].strip()
    command = re.search(r"\(watch that game with: (.*)\)", out.stderr).group(1)
    words = shlex.split(command)
    assert words[:2] == ["interpret", "play"] and "--variant" in words and "--bots" in words
    again = interpret(words[1:], tmp_path)
    assert again.returncode == 1, again.stdout[-2000:]
    said = error.split("error: ", 1)[1].splitlines()[0]
    assert "1 // 0" in said or "cannot compute" in said
    assert said.split(": ", 1)[-1] in again.stderr


def test_the_header_of_a_new_variant_gives_commands_that_run(tmp_path):
    out = interpret(["new", "variant", "mine", "--base", "tic-tac-toe", "--out", "variants/mine.yaml"], tmp_path)
    assert out.returncode == 0, out.stderr
    header = [line for line in (tmp_path / "variants" / "mine.yaml").read_text(encoding="utf-8").splitlines()
              if line.startswith("#")]
    commands = [shlex.split(line.split(":", 1)[1]) for line in header
                if re.search(r": +interpret (validate|play|show) ", line)]
    commands = [c[c.index("interpret") + 1:] for c in commands if "NAME" not in c]
    assert [c[0] for c in commands] == ["validate", "play"]
    ran = interpret(commands[0], tmp_path)
    assert ran.returncode == 0 and ran.stdout.startswith("OK "), ran.stderr
    # the example changes (two marks each) may leave tic-tac-toe without an end: the game is
    # loaded with the variant and played, that is what the command is for
    ran = interpret(commands[1] + ["--seed", "1", "--quiet", "--max-decisions", "40"], tmp_path)
    assert ran.returncode == 0 or "no end after 40 decisions" in ran.stderr, ran.stderr
    shown = [shlex.split(line.split(":", 1)[1].replace("NAME", "mark")) for line in header if "interpret show" in line]
    ran = interpret(shown[0][shown[0].index("interpret") + 1:], tmp_path)
    assert ran.returncode == 0 and "cards.mark" in ran.stdout, ran.stderr
