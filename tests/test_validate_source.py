"""`interpret validate GAME --source FILE:LINE` (issue 26): the Python generated for every
compiled text of the content that spans that line (any line of a multi-line body, not only the
line where it starts), the step listers that call it, and a legend of the globals it reads."""
from __future__ import annotations

import re

import pytest

from tests.hardening import interpret


def _validate(capsys, game, where):
    code, out, err = interpret(capsys, "validate", game, "--source", where)
    assert code == 0, err
    return out


def _legend_covers(out):
    """Every `_kN` / `_cN` read by a printed text is explained in the legend after it."""
    for block in re.split(r"\n# (?=\S+:\d+:\d+ \(content|the legal actions)", out)[1:]:
        if "where each global comes from:" not in block:
            assert not re.search(r"\b_[kc]\d+\b", block.split("# where")[0]), block[:200]
            continue
        code, legend = block.split("# where each global comes from:")
        named = set(re.findall(r"#   (_\w+):", legend))
        assert set(re.findall(r"\b_[kc]\d+\b", code)) <= named, block[:200]


def test_a_line_inside_a_body_finds_the_body(capsys):
    out = _validate(capsys, "tic-tac-toe", "game.yaml:62")  # `elif length(cells where it.empty) == 0 then`
    assert "# tic-tac-toe/game.yaml:58:7 (content lines 58-64)" in out
    assert "def _run(ctx):" in out
    assert "1 compiled text spanning 'game.yaml:62', 0 step listers" in out
    _legend_covers(out)


def test_the_step_lister_calling_a_requirement_is_shown(capsys):
    out = _validate(capsys, "tic-tac-toe", "game.yaml:54")  # the `check` of `play`
    assert "# the legal actions of step `play` (engine/listing.py), which call the code above" in out
    assert "def _listing(ctx, out, lab, first):" in out and "def _bare(ctx, out):" in out
    assert re.search(r"#   _k\d+: the code of tic-tac-toe/game\.yaml:54:18", out)
    assert "1 step lister calling them" in out
    _legend_covers(out)


def test_a_line_without_rules_says_so(capsys):
    out = _validate(capsys, "tic-tac-toe", "game.yaml:4")  # a comment
    assert "0 compiled texts spanning 'game.yaml:4'" in out and "no rules are compiled from that line" in out


def test_dark_agents_attack_at_a_line_inside_its_body(capsys):
    from interpreter.ruleset.paths import game_dir
    lines = (game_dir("dark-agent") / "attack.yaml").read_text(encoding="utf-8").splitlines()
    at = next(i for i, line in enumerate(lines, 1) if "let dice = next_attack_dice(" in line)  # inside the body
    start = max(i for i in range(1, at) if lines[i - 2].strip() == "effect: |")  # the body's first line
    end = next(i for i in range(at, len(lines)) if not lines[i].strip()) # its last (a blank line follows)
    out = _validate(capsys, "dark-agent", f"attack.yaml:{at}")
    assert f"# dark-agent/attack.yaml:{start}:7 (content lines {start}-{end})" in out
    assert "the content function `next_attack_dice`" in out
    assert "runs `succeed`" in out and "the built-in roll (runtime/library.py)" in out
    assert f"compiled texts spanning 'attack.yaml:{at}'" in out
    _legend_covers(out)


def test_statements_that_may_wait_are_generated_code(capsys):
    """Once closures with no generated code (lang/continuations.py): now one resumable function."""
    out = _validate(capsys, "dark-agent", "setup.yaml:81")  # a `choose` inside `for` inside `repeat`
    assert "closures" not in out
    assert re.search(r"# dark-agent/setup\.yaml:\d+:\d+ \(content lines \d+-8\d\): statements that may wait for a "
                     r"choice: one resumable function", out)
    body = out[out.index("def _body(ctx, pc=0):"):]
    assert "# `repeat` whose body may wait" in body and "# `for` whose body may wait" in body
    assert "# `choose`: asks a player" in body
    _legend_covers(out)


GAMES = ["tic-tac-toe", "connect-four", "dark-agent", "agents-secrets", "agent-dog", "kuhn-poker", "leduc-poker"]


@pytest.mark.parametrize("game", GAMES)
def test_every_compiled_text_is_found_at_its_lines_and_every_global_explained(game):
    """Issue 26's "done when": `--source FILE:LINE` prints the generated code for every compiled
    line of content, listers included, with a legend of the globals it uses. Every module the
    compiler wrote is found at its first and its last content line, every `_kN`/`_cN` it reads
    is in its legend; every step lister calls the code of some compiled text (so a line shows
    it) and its legend explains its globals too."""
    from interpreter.engine.game import Game
    from interpreter.lang import sources
    g = Game.load(game)
    generated = g.catalog.generated
    assert generated
    for x in generated:
        if x.where is None:
            continue
        for line in (x.where.line, x.last_line):
            assert x in sources.at(generated, f"{x.where.file}:{line}"), (x.where, line)
        explained = {e.split(":", 1)[0] for e in sources.legend(x.source, x.env, x.notes)}
        assert set(re.findall(r"\b_[kc]\d+\b", x.source)) <= explained, x.where
    texts = {x.source for x in generated}
    for what, f in g.listers():
        env = f.__globals__
        assert any(sources.reaches(v, texts) for k, v in env.items() if k.startswith("_k")), what
        explained = {e.split(":", 1)[0] for e in sources.legend(f._interpret_source, env)}
        assert set(re.findall(r"\b_k\d+\b", f._interpret_source)) <= explained, what
