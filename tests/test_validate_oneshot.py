"""Every mistake at load time, in one pass: `validate` reports the schema, reference and rules-text
problems of every file together, the statements after a failing one checked too
(lang/scope.Failures), and what the schema cannot see and no rule reads (ruleset/crosscheck.py)."""
from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from interpreter.errors import ContentError
from interpreter.play.validate import validate_game
from tests.tiny_game import TINY

ROOT = Path(__file__).resolve().parent.parent
TEN = ROOT / "tests" / "fixtures" / "ten-mistakes"

BASE = TINY  # tests/tiny_game.py


def problems(write_game, text):
    with pytest.raises(ContentError) as info:
        validate_game(str(write_game(text)))
    return info.value.problems


def lines_of(found):
    return sorted(p.location.line for p in found)


def test_ten_mistakes_in_one_file_are_ten_problems_in_one_run():
    """The fixture marks each mistake's line (`# mistake:`); one validate finds them all, once each,
    at those lines: the three that passed silently (a tag nobody uses, a property of another type,
    an option default below its minimum), `count` of items and the old `range(3)` among them."""
    text = (TEN / "game.yaml").read_text(encoding="utf-8").splitlines()
    marked = sorted(i + 1 for i, line in enumerate(text) if "# mistake:" in line
                    for _ in line.split("# mistake:")[1].split(","))  # `tag, property`: two on one line
    with pytest.raises(ContentError) as info:
        validate_game(str(TEN))
    found = info.value.problems
    assert len(found) == 10, "\n\n".join(p.render() for p in found)
    assert lines_of(found) == marked
    said = "\n".join(p.render() for p in found)
    for words in ("tag `tokne`", "did you mean `token`", "property `defense` of card `ruby` is a text",
                  "its default 0 is outside its own bounds", "`count` counts true values", "`length(list)`",
                  "`range(3)` is now `range(1, 3)` or `range(0, 2)`", "`+` needs numbers, and this is a card"):
        assert words in said


def test_the_command_prints_the_ten_problems_with_their_positions():
    out = subprocess.run([sys.executable, "-m", "interpreter", "validate", str(TEN)], capture_output=True, text=True,
                         cwd=ROOT, timeout=120)
    assert out.returncode == 1
    assert "10 problems" in out.stderr
    assert len(re.findall(r"ten-mistakes/game\.yaml:\d+:\d+: ", out.stderr)) == 10


def test_every_failing_statement_of_a_body_is_reported(write_game):
    text = BASE + """\
  many:
    effect: |
      let c = first(pile.cards).valeu
      move c to hnd(me)
      if c.value > 0 then
        me.scor += 1
      end
      for x in pile.cards do
        me.scroe += x.value
      end
"""
    found = problems(write_game, text)
    said = [p.message for p in found]
    assert len(found) == 4, "\n\n".join(p.render() for p in found)
    assert any("valeu" in m for m in said) and any("hnd" in m for m in said)
    assert any("scor`" in m for m in said) and any("scroe" in m for m in said)


def test_a_let_that_fails_still_binds_its_name(write_game):
    """The statements after a failing `let` read its name without an `unknown name` each."""
    text = BASE + """\
  one:
    effect: |
      let c = pile.crads
      me.score += length(c)
"""
    found = problems(write_game, text)
    assert len(found) == 1 and "crads" in found[0].message


def test_a_failing_test_of_an_if_does_not_hide_its_blocks(write_game):
    text = BASE + """\
  branch:
    effect: |
      if pile.cuont > 0 then
        me.scor += 1
      else
        me.scoer += 2
      end
"""
    assert len(problems(write_game, text)) == 3


def test_a_trigger_whose_condition_fails_has_its_body_checked_too(write_game):
    text = BASE.replace("vars:", "events:\n  paid: [who]\nvars:") + """\
triggers:
  - |
    on paid when whoo == me:
      me.scor += 1
"""
    found = problems(write_game, text)
    assert len(found) == 2, "\n\n".join(p.render() for p in found)


# ---- what no rule reads: tags, properties, option defaults (crosscheck.py) ------------------------

def test_a_tag_written_once_close_to_another_is_a_misspelling(write_game):
    found = problems(write_game, BASE.replace("tags: [token]}\nzones", "tags: [tokne]}\nzones"))
    assert len(found) == 1 and "tag `tokne`" in found[0].message and "`token`" in found[0].hint
    assert (found[0].location.line, found[0].location.column) == (5, 36)


@pytest.mark.parametrize("change", [
    # beside the tag it is close to (a card of both kinds), declared under `tags:`, read by a rule
    lambda t: t.replace("tags: [token]}\nzones", "tags: [token, tokens]}\nzones"),
    lambda t: t.replace("tags: [token]}\nzones", "tags: [tokne]}\nzones") + "tags: [tokne]\n",
    lambda t: t.replace("tags: [token]}\nzones", "tags: [tokne]}\nzones") + "  look:\n    require: ['first(pile.cards) is tokne']\n    effect: pass\n",
])
def test_a_tag_used_or_declared_is_no_misspelling(write_game, change):
    validate_game(str(write_game(change(BASE))))


def test_a_property_of_another_type_than_every_other_cards(write_game):
    text = BASE.replace("ruby: {props: {value: 5}", "ruby: {props: {value: \"high\"}")
    found = problems(write_game, text)
    assert len(found) == 1, "\n\n".join(p.render() for p in found)
    assert "property `value` of card `ruby` is a text" in found[0].message and "a number" in found[0].message


def test_properties_of_two_types_each_on_several_cards_are_allowed(write_game):
    text = BASE.replace("ruby: {props: {value: 5}", "ruby: {props: {value: \"high\"}}\n"
                        "  opal: {props: {value: \"low\"}")
    validate_game(str(write_game(text)))


@pytest.mark.parametrize("option, said", [
    ("{default: 0, min: 1, max: 20}", "its default 0 is outside its own bounds"),
    ("{default: 30, min: 1, max: 20}", "its default 30 is outside its own bounds"),
    ("{default: fast, choices: [slow, normal]}", "its default 'fast' is not one of its choices"),
])
def test_an_option_default_outside_its_own_bounds(write_game, option, said):
    found = problems(write_game, BASE + f"options:\n  goal: {option}\n")
    assert len(found) == 1 and said in found[0].message


def test_the_bundled_games_and_fixtures_have_none_of_these_problems():
    for game in ["tic-tac-toe", "connect-four"]:
        validate_game(str(ROOT / "content" / game))
    for fixture in ["mini", "secrets", "coverage", "coverage-cards", "pennies"]:
        validate_game(str(ROOT / "tests" / "fixtures" / fixture))


def test_grant_of_an_undeclared_effect_points_at_the_cards_effects(write_game):
    text = BASE.replace("  coin: {copies: 3, props: {value: 1, word: a}, tags: [token]}",
                        "  coin:\n    copies: 1\n    props: {value: 1}\n    tags: [token]\n    effects:\n"
                        "      lucky: {until: turn}\n    actions:\n      rub: {effect: grant luck}")
    found = problems(write_game, text)
    assert len(found) == 1, "\n\n".join(p.render() for p in found)
    assert found[0].message == "`grant luck`: no lasting effect `luck` here"
    assert "`effects:`" in found[0].hint and "`vars:`" not in found[0].hint


def test_every_line_of_a_body_with_a_syntax_error_is_reported(write_game):
    text = BASE + """\
  typos:
    effect: |
      me.score += +
      me.score = 2
      move to pile
      if me.score > 1 then
        me.score == 3
      end
      me.score += 1 1
"""
    found = problems(write_game, text)
    first = len(BASE.splitlines()) + 3
    assert [p.location.line for p in found] == [first, first + 2, first + 4, first + 6], \
        "\n\n".join(p.render() for p in found)
    assert all(p.message.startswith("rules syntax error") and "^" in p.context for p in found)


def test_a_block_whose_opening_line_is_wrong_gives_no_error_at_its_end(write_game):
    """The `end` left alone once the wrong `if` line is taken out is not a mistake of its own; the
    line in the block is."""
    text = BASE + """\
  opener:
    effect: |
      if me.score > 1 them
        me.score == 3
      end
"""
    first = len(BASE.splitlines()) + 3
    assert [p.location.line for p in problems(write_game, text)] == [first, first + 1]
