"""`interpret learn GAME` through a real pseudo-terminal: each bundled tutorial is played to its end by
typing the moves' labels as the choices list them; a move other than the lesson's is not played, and
its hint is shown; the texts point at the board's cells."""
from __future__ import annotations

import os
import re
import sys

import pytest

from tests.terminal_keys import listed as listed_choices  # noqa: E402

from interpreter.play.render import Renderer
from interpreter.scenarios.tutorial import Learner, game_tutorials, run_tutorial

pexpect = pytest.importorskip("pexpect")

PROMPT = r"your choice \([^)]*\): "
WHICH = r"which one \([^)]*\): "


class Recorder(Learner):
    """The lessons' expected moves as the learner's choices name them, and their hints."""

    def __init__(self):
        self.moves = []

    def choose(self, tutorial, expected, hint):
        renderer = Renderer(tutorial.game)
        self.moves.append((renderer.label(tutorial.pos.state, tutorial.seat.id, expected), hint))
        return expected


def spawn(tmp_path, *args):
    env = dict(os.environ, XDG_STATE_HOME=str(tmp_path / "state"), NO_COLOR="1", PYTHONUNBUFFERED="1",
               LANGUAGE="en")
    return pexpect.spawn(sys.executable, ["-m", "interpreter", "learn", *map(str, args)], env=env,
                         encoding="utf-8", timeout=90, dimensions=(60, 140))


@pytest.mark.parametrize("game", ["dark-agent", "agents-secrets", "agent-dog"])
def test_a_tutorial_is_played_to_its_end_at_the_terminal(tmp_path, game):
    path = game_tutorials(game)[0]
    recorder = Recorder()
    assert run_tutorial(path, recorder).ok
    assert recorder.moves
    p = spawn(tmp_path, game)
    p.expect("══ Guided game: ")
    p.expect(r"→ look at (r\d+c\d+|your \w+): ")  # a lesson points at a board cell or a zone, with what it holds
    for i, (label, hint) in enumerate(recorder.moves):
        if p.expect([PROMPT, r"Only one possible move: "]) == 1:  # played for the learner
            p.expect(re.escape(f"✓ Right: {label}."))
            continue
        if i == 0:  # another move first: it is not played, the hint is shown, the choices come again
            listed = [label for _key, label in listed_choices(p.before.split("Your choices:")[-1])]
            other = next(x for x in listed if x != label and "…" not in x)
            p.sendline(other)
            p.expect(re.escape(f"Not this move: {other}."))
            p.expect(r"Hint: " + re.escape(hint.split()[0]))
            p.expect(PROMPT)
        p.sendline(label)
        p.expect(re.escape(f"✓ Right: {label}."))
    p.expect("Guided game finished: ")
    p.expect(pexpect.EOF)
    p.close()
    assert p.exitstatus == 0


def test_learn_lists_the_tutorials_when_a_game_has_several(tmp_path):
    game = tmp_path / "game"
    import shutil
    from interpreter.ruleset.paths import content_dir
    shutil.copytree(content_dir() / "agents-secrets", game)
    first = game / "tutorials" / "first-turn.yaml"
    (game / "tutorials" / "second.yaml").write_text(
        first.read_text(encoding="utf-8").replace("A first turn of Agents Secrets", "Another turn"), encoding="utf-8")
    p = spawn(tmp_path, game)
    p.expect("Guided games of ")
    p.expect(r"1\. A first turn of Agents Secrets \(first-turn\)")
    p.expect(r"2\. Another turn \(second\)")
    p.expect(r"Which one \(1-2\)\? ")
    p.sendline("2")
    p.expect("══ Guided game: Another turn ══")
    p.expect(PROMPT)
    p.sendline("q")
    p.expect(r"\(y/N\) ")
    p.sendline("y")
    p.expect("Guided game stopped")
    p.expect(pexpect.EOF)
