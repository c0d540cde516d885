"""`interpret validate GAME --source FILE:LINE` (issue 26): the Python generated for every
compiled text of the content that spans that line (any line of a multi-line body, not only the
line where it starts), the step listers that call it, and a legend of the globals it reads."""
from __future__ import annotations

import re

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
    out = _validate(capsys, "dark-agent", "attack.yaml:58")  # `let dice = next_attack_dice()`
    assert "# dark-agent/attack.yaml:57:7 (content lines 57-67)" in out
    assert "the content function `next_attack_dice`" in out
    assert "runs `succeed`" in out and "the built-in roll (runtime/library.py)" in out
    assert "compiled texts spanning 'attack.yaml:58'" in out
    _legend_covers(out)


def test_statements_that_may_wait_are_named_as_closures(capsys):
    out = _validate(capsys, "dark-agent", "setup.yaml:81")  # a `choose` inside `for` inside `repeat`
    assert ("# dark-agent/setup.yaml:81:9 (content line 81): `choose`: asks a player, and the rest of its body "
            "waits; closures of lang/continuations.py, no generated code") in out
    assert "# dark-agent/setup.yaml:79:5 (content lines 79-84): `repeat` whose body may wait" in out
    assert "# dark-agent/setup.yaml:80:7 (content lines 80-83): `for` whose body may wait" in out
    assert "2 compiled texts spanning 'setup.yaml:81'" in out  # its options and `by`
