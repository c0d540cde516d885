"""The editor's JSON Schema of a variant checks a card, an action... written in its `value:` as the
content schema does (schemas/variant.schema.json refers to content.schema.json, side by side as
`interpret schema --out` writes them); interpret itself checks that value once applied."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator
from referencing import Registry, Resource

from interpreter.ruleset.yamlio import load_yaml, to_plain

ROOT = Path(__file__).resolve().parent.parent
SCHEMAS = ROOT / "schemas"


@pytest.fixture(scope="module")
def editor():
    """The variant schema as an editor reads it: every schema found by its `$id`."""
    docs = [json.loads(p.read_text(encoding="utf-8")) for p in sorted(SCHEMAS.glob("*.schema.json"))]
    registry = Registry().with_resources((d["$id"], Resource.from_contents(d)) for d in docs if "$id" in d)
    return Draft202012Validator(json.loads((SCHEMAS / "variant.schema.json").read_text(encoding="utf-8")),
                                registry=registry)


def variant(*changes):
    return {"variant": {"name": "v", "base": "dark-agent"}, "changes": list(changes)}


def errors(editor, doc):
    return [(list(e.absolute_path), e.message) for e in editor.iter_errors(doc)]


@pytest.mark.parametrize("change, where, said", [
    ({"op": "add", "path": "cards.stone", "value": {"copies": 2, "copiez": 3}}, ["changes", 0, "value"], "copiez"),
    ({"op": "replace", "path": "actions.go", "value": {"efect": "pass"}}, ["changes", 0, "value"], "efect"),
    ({"op": "add", "path": "zones.box", "value": {"visibilty": "owner"}}, ["changes", 0, "value"], "visibilty"),
    ({"op": "append", "path": "triggers", "value": [{"rul": "on turn_start: pass"}]}, ["changes", 0, "value", 0], ""),
])
def test_a_value_is_checked_as_the_entry_it_becomes(editor, change, where, said):
    found = errors(editor, variant(change))
    assert found and found[0][0] == where and said in found[0][1]


@pytest.mark.parametrize("change", [
    {"op": "add", "path": "cards.stone", "value": {"copies": 2, "tags": ["piece"], "props": {"level": 3}}},
    {"op": "set", "path": "cards.kara.props.defense", "value": 27},  # inside an entry: any value
    {"op": "append", "path": "triggers", "value": [{"rule": "on turn_start: pass", "id": "t"}]},
    {"op": "merge", "path": "cards.kara", "value": {"anything": 1}},
])
def test_what_the_content_schema_accepts_is_accepted(editor, change):
    assert errors(editor, variant(change)) == []


def test_every_bundled_and_example_variant_passes_the_editors_schema(editor):
    files = sorted((ROOT / "content").glob("*/variants/*.yaml")) + sorted((ROOT / "docs" / "examples").rglob("variants/*.yaml"))
    assert len(files) > 10
    for path in files:
        assert errors(editor, to_plain(load_yaml(path))) == [], path
