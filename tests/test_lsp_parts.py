"""The language server's parts without a server: every name it finds in the bundled games' files
lies where it says (rename and references rewrite exactly there), and the cursor's place in YAML
being typed (completion reads it)."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from interpreter.lsp import documents
from interpreter.lsp.yamlpath import cursor

CONTENT = Path(__file__).resolve().parent.parent / "content"


@pytest.mark.parametrize("game", sorted(p.name for p in CONTENT.iterdir() if (p / "game.yaml").is_file()))
def test_every_name_found_lies_where_it_is_said_to(game):
    root = CONTENT / game
    wrong, seen = [], 0
    for path in documents.game_files(root):
        text = path.read_text(encoding="utf-8")
        lines = text.split("\n")
        walked = documents.walk(documents.parse_text(text, str(path)), documents.role_of(root, path))
        for s in walked.spots:
            seen += 1
            if lines[s.line][s.column:s.column + s.length] != s.name:
                wrong.append(f"{path.relative_to(root)}:{s.line + 1}:{s.column + 1} {s.name!r}: "
                             f"{lines[s.line].strip()!r}")
    assert seen > 100
    assert wrong == []


def test_rules_texts_are_found_by_the_schemas():
    root = CONTENT / "tic-tac-toe"
    text = (root / "game.yaml").read_text(encoding="utf-8")
    walked = documents.walk(documents.parse_text(text, "game.yaml"), "content")
    paths = {t.path for t in walked.texts}
    assert ("functions", "has_line", "expr") in paths and ("actions", "play", "effect") in paths
    assert not any(p[-1] in ("text", "title", "label", "section") for p in paths)  # prose is not rules text


VARIANT = """changes:
  - op: set
    path: cards.kara
    value:
      tags: [a]
      ti
  - op: append
    path: actions.attack.effect
    value: |
      if me.atk > 2 then
        mo
"""


def test_the_cursor_in_a_variant_value_and_in_a_block_of_rules_text():
    lines = VARIANT.split("\n")
    at = cursor(VARIANT, 5, len(lines[5]))
    assert at.on_key and at.path == ("changes", 0, "value") and at.variant_target == "cards.kara"
    assert at.word == "ti" and at.present == ("tags",)
    inside = cursor(VARIANT, 10, len(lines[10]))
    assert not inside.on_key and inside.path == ("changes", 0, "value")
    assert inside.variant_target == "actions.attack.effect"
    assert inside.typed == "if me.atk > 2 then\n  mo"


def test_a_variant_value_is_read_as_the_content_it_targets():
    from interpreter.lsp.recover import kind_of
    text = VARIANT.replace("      ti\n", "").replace("        mo\n", "        move x to y\n      end\n")
    walked = documents.walk(documents.parse_text(text, "v.yaml"), "variant")
    (effect,) = walked.texts
    assert effect.path == ("actions", "attack", "effect") and kind_of(effect.path) == "effect"
    assert ("cards", "kara", "tags") in {s.path for s in walked.spots if s.what == "key"}



def _problems(found: dict) -> set:
    return {(path.name, f.problem.location.line, f.problem.location.column, f.problem.message)
            for path, items in found.items() for f in items}


def test_after_edits_the_checks_show_what_a_fresh_validate_finds(tmp_path):
    """The checker reuses what an edit cannot change (the game's problems while its content files
    read the same, the YAML trees of the files that did not change): after a series of edits in
    several files, it finds exactly what a fresh `interpret validate` of the same texts finds."""
    from interpreter.errors import ContentError
    from interpreter.lsp import diagnose
    from interpreter.lsp.model import GameModel
    from interpreter.play.validate import validate_game
    whole = (Path(__file__).parent / "fixtures" / "mini" / "game.yaml").read_text(encoding="utf-8")
    root, fresh = tmp_path / "mini", tmp_path / "fresh" / "mini"
    (root / "scenarios").mkdir(parents=True)
    game, actions, scenario = root / "game.yaml", root / "actions.yaml", root / "scenarios" / "one.yaml"
    at = whole.index("actions:")
    base = {game: whole[:at], actions: whole[at:],
            scenario: "scenario: {title: One, players: 2}\nsteps:\n  - expect: not game_over\n"}
    for path, text in base.items():
        path.write_text(text, encoding="utf-8")
    shutil.copytree(root, fresh)
    model = GameModel(root)

    def validated() -> set:
        try:
            validate_game(str(fresh))
        except ContentError as e:
            return {(Path(p.location.file).name, p.location.line, p.location.column, p.message) for p in e.problems}
        return set()
    edits = [(actions, base[actions].replace("do gain(me, c.value)", "do gain(me, c.valu)"), False),
             (game, base[game].replace("copies: 6,", 'copies: "six",'), False),
             (scenario, base[scenario] + "# the game's content unchanged\n", True),
             (actions, base[actions], True)]  # the first mistake mended
    for path, text, compare in edits:
        model.open[path.resolve()] = text
        (fresh / path.relative_to(root)).write_text(text, encoding="utf-8")
        found = _problems(diagnose.full(model))
        if compare:
            assert found == validated(), path.name
    assert [e[0] for e in found] == ["game.yaml"]
