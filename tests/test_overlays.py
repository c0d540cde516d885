"""Variants as overlays on a base game: operations, order, conflicts, and exact error positions."""
from __future__ import annotations

import shutil
import textwrap
from pathlib import Path

import pytest

from interpreter.engine.game import Game
from interpreter.errors import ContentError

MINI = Path(__file__).parent / "fixtures" / "mini"


@pytest.fixture
def game_dir(tmp_path):
    root = tmp_path / "mini"
    shutil.copytree(MINI, root)
    (root / "variants").mkdir()
    return root


def variant(root, name, body):
    path = root / "variants" / f"{name}.yaml"
    path.write_text(textwrap.dedent(body), encoding="utf-8")
    return path


def problems(root, variants):
    with pytest.raises(ContentError) as e:
        Game.load(str(root), variants=variants)
    return e.value.problems


def test_set_remove_add_and_append(game_dir):
    variant(game_dir, "rich", """\
        variant: {name: rich, base: mini}
        changes:
          - {op: set, path: cards.gem.props.value, value: 5}
          - {op: remove, path: cards.coin}
          - op: add
            path: cards.ruby
            value: {copies: 3, props: {value: 7}, tags: [token]}
          - {op: set, path: options.goal.default, value: 9}
          - op: append
            path: triggers
            value: ['on scored when amount >= 7: log "ruby!"']
        """)
    g = Game.load(str(game_dir), variants=["rich"])
    names = sorted({c.name for c in g.m.cards})
    assert names == ["gem", "ruby"]
    assert {c.props["value"] for c in g.m.cards if c.name == "gem"} == {5}
    assert g.m.constants["goal"] == 9
    base = Game.load(str(game_dir))
    assert {c.name for c in base.m.cards} == {"coin", "gem"}      # the base game is untouched


def test_two_variants_changing_the_same_thing_are_refused(game_dir):
    a = variant(game_dir, "a", """\
        variant: {name: a, base: mini}
        changes:
          - {op: set, path: cards.gem.props.value, value: 5}
        """)
    variant(game_dir, "b", """\
        variant: {name: b, base: mini}
        changes:
          - {op: set, path: cards.gem.props, value: {value: 1}}
        """)
    (p,) = problems(game_dir, ["a", "b"])
    assert "variants `a` and `b` both change `cards.gem.props`" in p.message
    assert str(p.location).endswith("b.yaml:3:5")
    assert "a.yaml:3:5" in p.hint


def test_a_variant_that_requires_another_may_change_it(game_dir):
    variant(game_dir, "a", """\
        variant: {name: a, base: mini}
        changes:
          - {op: set, path: cards.gem.props.value, value: 5}
        """)
    variant(game_dir, "b", """\
        variant: {name: b, base: mini, requires: [a]}
        changes:
          - {op: set, path: cards.gem.props.value, value: 8}
        """)
    g = Game.load(str(game_dir), variants=["b", "a"])                  # applied in dependency order
    assert {c.props["value"] for c in g.m.cards if c.name == "gem"} == {8}


def test_missing_requirement_and_declared_conflict(game_dir):
    variant(game_dir, "a", """\
        variant: {name: a, base: mini, conflicts: [b]}
        changes: []
        """)
    variant(game_dir, "b", """\
        variant: {name: b, base: mini, requires: [c]}
        changes: []
        """)
    messages = [p.message for p in problems(game_dir, ["a", "b"])]
    assert any("requires the variant `c`" in m for m in messages)
    assert any("cannot be combined" in m for m in messages)


def test_a_rules_error_in_a_variant_points_into_the_variant_file(game_dir):
    variant(game_dir, "broken", """\
        variant: {name: broken, base: mini}
        changes:
          - op: replace
            path: actions.take.effect
            value: |
              let c = cell.card
              move c to me.pures
        """)
    (p,) = problems(game_dir, ["broken"])
    assert str(p.location).endswith("broken.yaml:7:20")                   # under `pures`
    assert "purse" in p.hint                                           # did you mean `purse`?


def test_unknown_paths_and_bad_files(game_dir):
    variant(game_dir, "typo", """\
        variant: {name: typo, base: mini}
        changes:
          - {op: replace, path: cards.gemm.copies, value: 1}
          - {op: frobnicate, path: cards.gem}
        """)
    ps = problems(game_dir, ["typo"])
    assert any("op" in p.message and "frobnicate" in p.message for p in ps)   # the schema catches the op
    variant(game_dir, "typo2", """\
        variant: {name: typo2, base: mini}
        changes:
          - {op: replace, path: cards.gemm.copies, value: 1}
        """)
    (p,) = problems(game_dir, ["typo2"])
    assert "`cards.gemm` does not exist" in p.message and "gem" in p.hint
    assert problems(game_dir, ["nope"])[0].message == "no variant `nope`"
    variant(game_dir, "other", """\
        variant: {name: other, base: dark-agent}
        changes: []
        """)
    assert "is for the game `dark-agent`" in problems(game_dir, ["other"])[0].message


def test_a_designers_variant_outside_the_game_folder(game_dir, tmp_path):
    path = tmp_path / "homebrew.yaml"
    path.write_text("variant: {name: homebrew, base: mini}\nchanges:\n  - {op: set, path: cards.coin.copies, value: 2}\n")
    g = Game.load(str(game_dir), variants=[str(path)])
    assert len([c for c in g.m.cards if c.name == "coin"]) == 2


def test_two_variants_may_both_append_triggers(game_dir):
    for name, text in (("a", "on scored when amount >= 3: log \"a\""), ("b", "on scored when amount >= 3: log \"b\"")):
        variant(game_dir, name, f"""\
            variant: {{name: {name}, base: mini}}
            changes:
              - op: append
                path: triggers
                value: ['{text}']
            """)
    g = Game.load(str(game_dir), variants=["a", "b"])
    assert len(g.m.rs.triggers) == len(Game.load(str(game_dir)).m.rs.triggers) + 2


def test_entered_triggers_see_every_move(game_dir):
    variant(game_dir, "count", """\
        variant: {name: count, base: mini}
        changes:
          - {op: merge, path: vars.game, value: {arrivals: 0}}
          - op: append
            path: triggers
            value: ["on entered when zone == spent: arrivals += 1"]
        """)
    g = Game.load(str(game_dir), variants=["count"])
    st = g.new_game(seed=1)
    assert g.evaluate(st, "arrivals") == 0


def test_a_set_changes_an_entry_but_never_creates_one(game_dir):
    """Only `add` creates a card, an action, a variable...: a `set` or `merge` on a misspelt
    entry is refused where its path is written, with the close names (issue 8)."""
    variant(game_dir, "typo", """\
        variant: {name: typo, base: mini}
        changes:
          - op: set
            path: cards.gemm.props.value
            value: 5
          - {op: set, path: cards.ruby, value: {copies: 1}}
          - {op: set, path: vars.player.scor.default, value: 2}
          - {op: merge, path: zones.bagg.x, value: {}}
        """)
    ps = problems(game_dir, ["typo"])
    assert [(str(p.location).rpartition("/")[2], p.message) for p in ps] == [
        ("typo.yaml:4:11", "variant `typo`: cards.gemm does not exist; did you mean gem?"),
        ("typo.yaml:6:21", "variant `typo`: cards.ruby does not exist"),
        ("typo.yaml:7:21", "variant `typo`: vars.player.scor does not exist; did you mean score?"),
        ("typo.yaml:8:23", "variant `typo`: zones.bagg does not exist; did you mean bag?"),
    ]
    assert "use `op: add` with `path: cards.ruby`" in ps[1].hint


def test_a_set_may_give_an_existing_entry_a_new_property(game_dir):
    variant(game_dir, "shiny", """\
        variant: {name: shiny, base: mini}
        changes:
          - {op: set, path: cards.gem.props.shine, value: 2}
          - {op: set, path: vars.player.bonus.reset, value: round}
          - {op: add, path: cards.ruby, value: {copies: 1, props: {value: 7}, tags: [token]}}
        """)
    g = Game.load(str(game_dir), variants=["shiny"])
    assert {c.props.get("shine") for c in g.m.cards if c.name == "gem"} == {2}
    assert any(c.name == "ruby" for c in g.m.cards)


def test_the_issue_example_a_misspelt_card_in_dark_agent(tmp_path):
    path = tmp_path / "kara.yaml"
    path.write_text("variant:\n  name: kara\n  base: dark-agent\nchanges:\n  - op: set\n"
                    "    path: cards.kaara.props.defense\n    value: 27\n", encoding="utf-8")
    with pytest.raises(ContentError) as e:
        Game.load("dark-agent", variants=[str(path)])
    (p,) = e.value.problems
    assert str(p.location).endswith("kara.yaml:6:11")
    assert p.message.endswith("cards.kaara does not exist; did you mean kara?")


def test_every_problem_of_every_change_is_reported(game_dir):
    """A schema mistake in one change does not hide the problems of the others (issue 8)."""
    variant(game_dir, "two", """\
        variant: {name: two, base: mini}
        changes:
          - {op: sett, path: cards.gem.copies, value: 1}
          - {op: replace, path: cards.gemm.copies, value: 1}
          - {op: set, path: cards.coin.per_player, value: maybe}
        """)
    ps = problems(game_dir, ["two"])
    assert len(ps) == 3, [p.render() for p in ps]
    assert "'sett' is not one of" in ps[0].message and str(ps[0].location).endswith("two.yaml:3:10")
    assert "`cards.gemm` does not exist" in ps[1].message and str(ps[1].location).endswith("two.yaml:4:25")
    assert "after the variants" in ps[2].message and str(ps[2].location).endswith("two.yaml:5:51")


def test_a_misspelt_key_of_a_fixed_section_points_at_its_change(game_dir):
    """`flow`, `game`, `board`... have fixed keys: the content schema refuses a new one, at the
    change that wrote it (not at an unknown place)."""
    variant(game_dir, "fl", """\
        variant: {name: fl, base: mini}
        changes:
          - {op: set, path: cards.gem.copies, value: 3}
          - {op: set, path: flow.trun.steps, value: []}
        """)
    (p,) = problems(game_dir, ["fl"])
    assert "'trun' was unexpected" in p.message
    assert str(p.location).endswith("fl.yaml:4:21"), p.location
