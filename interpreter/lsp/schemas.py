"""The JSON Schemas (schemas/*.json) read as a map of a file: which keys may stand at a path,
what each means, and which values are rules text."""
from __future__ import annotations

import functools
import re

from ..ruleset.schema import schema

RULES_MARK = ("rules text", "an effect run once", "a condition on")  # descriptions of rules-text values
SCENARIO_RULES = {"expect", "expectations"}  # rules expressions in scenarios and tutorials (no description)
_SEGMENT = re.compile(r"([^.\[\]]+)|\[([^\]]*)\]")


def schema_name_of(role: str) -> str | None:
    """The schema of a file by its role in the game folder (model.role_of)."""
    return {"content": "content", "variant": "variant", "scenario": "scenario", "tutorial": "tutorial",
            "texts": "texts"}.get(role)


def _alternatives(node: dict) -> list[dict]:
    out = [node]
    for key in ("oneOf", "anyOf", "allOf"):
        for alt in node.get(key) or ():
            if isinstance(alt, dict):
                out += _alternatives(alt)
    return out


@functools.lru_cache(maxsize=None)
def _inlined(name: str) -> dict:
    """The schema with its local `$ref`s replaced by what they point at (none is recursive)."""
    base = schema(name)

    def resolve(node, depth=0):
        if isinstance(node, list):
            return [resolve(x, depth) for x in node]
        if not isinstance(node, dict):
            return node
        ref = node.get("$ref")
        if isinstance(ref, str) and ref.startswith("#/") and depth < 20:
            target = base
            for part in ref[2:].split("/"):
                target = target.get(part, {}) if isinstance(target, dict) else {}
            merged = {**{k: v for k, v in node.items() if k != "$ref"}, **(target if isinstance(target, dict) else {})}
            return resolve(merged, depth + 1)
        return {k: resolve(v, depth) for k, v in node.items()}
    return resolve(base)


def root(name: str) -> list[dict]:
    return _alternatives(_inlined(name))


def child(nodes: list[dict], key) -> list[dict]:
    """The schemas of the value at `key` (a mapping key, or an int for a list item) under `nodes`."""
    out = []
    for n in nodes:
        if isinstance(key, int) or key is None:
            items = n.get("items")
            if isinstance(items, dict):
                out += _alternatives(items)
            continue
        props = n.get("properties") or {}
        if key in props:
            out += _alternatives(props[key])
            continue
        matched = False
        for pattern, sub in (n.get("patternProperties") or {}).items():
            if re.search(pattern, str(key)):
                out += _alternatives(sub)
                matched = True
        if not matched and isinstance(n.get("additionalProperties"), dict):
            out += _alternatives(n["additionalProperties"])
    return out


def at(nodes: list[dict], path) -> list[dict]:
    for key in path:
        nodes = child(nodes, key)
        if not nodes:
            break
    return nodes


def variant_path(text: str) -> list:
    """A variant change's `path` (`cards.NAME.props`, `actions.NAME.requires[0]`) as keys for `at`."""
    out: list = []
    for name, index in _SEGMENT.findall(str(text)):
        out.append(name if name else (int(index) if index.isdigit() else None))
    return out


def keys(nodes: list[dict]) -> dict:
    """key -> its description, of every key these schemas name."""
    out: dict = {}
    for n in nodes:
        for k, sub in (n.get("properties") or {}).items():
            desc = next((a.get("description") for a in _alternatives(sub) if a.get("description")), "")
            out.setdefault(k, desc or "")
    return out


def description(nodes: list[dict]) -> str:
    return next((n["description"] for n in nodes if n.get("description")), "")


def is_rules_text(nodes: list[dict]) -> bool:
    return any(str(n.get("description", "")).startswith(RULES_MARK) for n in nodes)


__all__ = ["at", "child", "description", "is_rules_text", "keys", "root", "schema_name_of", "variant_path"]
