"""Completion: the keys a schema allows where the cursor is (inside a variant's `value:` too, by
the path the change targets), and in rules text the names of the game and the keywords the
grammar accepts next."""
from __future__ import annotations

import re
from dataclasses import dataclass

from . import schemas
from .recover import accepted, kind_of
from .yamlpath import cursor

_PARTIAL = re.compile(r"[A-Za-z_][A-Za-z0-9_]*$")
CONTEXT_NAMES = ("me", "this", "it")  # names every rules text may read (docs/language.md)


@dataclass(frozen=True)
class Item:
    label: str
    kind: str  # "key", "keyword", "card", "zone", "function", "procedure", "event", "variable", "constant",
    #            "builtin", "attribute", "value"
    detail: str = ""
    insert: str | None = None


def schema_nodes(role: str, path: tuple, variant_target: str | None):
    """The schemas of what stands at `path` in a file of this role."""
    name = schemas.schema_name_of(role)
    if name is None:
        return []
    if role == "variant" and variant_target is not None and len(path) >= 3 and path[0] == "changes" \
            and path[2] == "value":
        return schemas.at(schemas.at(schemas.root("content"), schemas.variant_path(variant_target)), path[3:])
    return schemas.at(schemas.root(name), path)


def complete(model, path, text: str, line: int, column: int) -> list[Item]:
    role = model.role_of(path) or ""
    c = cursor(text, line, column)
    nodes = schema_nodes(role, c.path, c.variant_target)
    if c.on_key:
        present = set(c.present)
        return [Item(k, "key", desc, f"{k}: ") for k, desc in sorted(schemas.keys(nodes).items())
                if k not in present]
    last = next((p for p in reversed(c.path) if isinstance(p, str)), "")
    if schemas.is_rules_text(nodes) or (role in ("scenario", "tutorial") and last in schemas.SCENARIO_RULES):
        where = c.path
        if role == "variant" and c.variant_target is not None and c.path[:1] == ("changes",):
            where = tuple(schemas.variant_path(c.variant_target)) + c.path[3:]
        return rules_items(model, c.typed, kind_of(where))
    out = []
    for n in nodes:
        for v in n.get("enum") or ():
            out.append(Item(str(v), "value"))
        if n.get("type") == "boolean":
            out += [Item("true", "value"), Item("false", "value")]
    return out


def names(model) -> list[Item]:
    """The names a rules text may use: the game's (from its ruleset) and the built-ins."""
    from ..definition.symbols import Symbols
    from ..runtime.library import _BUILTINS
    rs = model.ruleset()
    out = [Item(n, "builtin", "a name every rules text may read") for n in CONTEXT_NAMES]
    if rs is not None:
        out += [Item(n, "card", _title(spec)) for n, spec in rs.cards.items()]
        out += [Item(n, "zone", "zone") for n in rs.zones]
        out += [Item(n, "function", _params("function", spec)) for n, spec in rs.functions.items()]
        out += [Item(n, "procedure", _params("procedure", spec)) for n, spec in rs.procedures.items()]
        out += [Item(n, "event", "event") for n in rs.events]
        out += [Item(n, "variable", "game variable") for n in rs.vars["game"]]
        out += [Item(n, "constant", "constant") for n in rs.constants]
    out += [Item(n, "builtin", "built-in value") for n in Symbols._BUILTIN_VALUES]
    out += [Item(n, "builtin", "built-in function") for n in _BUILTINS]
    return out


def attributes(model) -> list[Item]:
    """What may follow a dot: variables of players, cards and zones, cards' properties, built-in attributes."""
    from ..runtime.library import _CARD_ATTRS, _SEAT_ATTRS, _ZONE_ATTRS
    rs = model.ruleset()
    out = []
    if rs is not None:
        for kind in ("player", "card", "zone"):
            out += [Item(n, "attribute", f"{kind} variable") for n in rs.vars[kind]]
        props = sorted({p for spec in rs.cards.values() if isinstance(spec, dict)
                        for p in (spec.get("props") or {}) if isinstance(spec.get("props"), dict)})
        out += [Item(p, "attribute", "card property") for p in props]
    for what, table in (("card", _CARD_ATTRS), ("seat", _SEAT_ATTRS), ("zone", _ZONE_ATTRS)):
        out += [Item(n, "attribute", f"built-in attribute of a {what}") for n in table]
    seen, unique = set(), []
    for item in out:
        if item.label not in seen:
            seen.add(item.label)
            unique.append(item)
    return unique


def rules_items(model, typed: str, kind: str) -> list[Item]:
    partial = _PARTIAL.search(typed)
    head = typed[: partial.start()] if partial else typed
    word = partial.group() if partial else ""
    if head.endswith("."):
        items = attributes(model)
    else:
        keywords, name_ok = accepted(head, kind)
        items = [Item(k, "keyword") for k in keywords]
        if name_ok:
            wanted = _wanted(head)
            items += [i for i in names(model) if wanted is None or i.kind == wanted]
    return [i for i in items if i.label.startswith(word)]


def _wanted(head: str) -> str | None:
    """After `do`, `emit` and `on`, only procedures or events fit."""
    words = head.split()
    last = words[-1] if words else ""
    return {"do": "procedure", "emit": "event", "on": "event", "of": "procedure"}.get(last)


def _title(spec) -> str:
    if isinstance(spec, dict):
        return f"card {spec.get('title')}" if spec.get("title") else "card"
    return "card"


def _params(kind: str, spec) -> str:
    params = spec.get("params") if isinstance(spec, dict) else None
    return f"{kind}({', '.join(map(str, params or []))})"


__all__ = ["Item", "attributes", "complete", "names", "rules_items", "schema_nodes"]
