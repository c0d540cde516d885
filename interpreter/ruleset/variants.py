"""Variants: content files that add, remove or replace parts of a base game.

A variant file (schemas/variant.schema.json):

    variant:
      name: no-dice
      title: Sans dés
      base: dark-agent
      requires: []           # variants that must be applied first
      conflicts: [solo]      # variants that cannot be combined with this one
    changes:
      - {op: set, path: constants.dice_count, value: 0}
      - {op: remove, path: cards.lance_roquettes}
      - {op: replace, path: functions.defense_of.expr, value: "..."}
      - {op: append, path: triggers, value: ["on ...: ..."]}

Paths go through mappings by key and through lists by `[index]` or `[name]`
(the item whose `name` or `id` is that name). Operations: `set` (overwrite a
value, or give an existing entry a new property), `add` (must not exist; the
only operation that creates a card, an action, a variable...), `replace` (must
exist), `remove` (must exist), `merge` (deep-merge a mapping), `append` (to a
list). Every problem of every change is reported at once.

Variants apply in the order given, after those they require. Two variants that
change the same thing (one path equal to, or inside, the other) are refused with
both files and lines, unless one requires the other. Every value keeps the file
and line it came from (`interpret show` prints them).
"""
from __future__ import annotations

import re
from pathlib import Path

from ..errors import did_you_mean
from ..errors import ContentError, ErrorList, Location, Problem
from .paths import display_path, is_there, shown, too_long
from .ruleset import Ruleset
from .schema import SECTIONS_LIST, schema_problems, validator
from .yamlio import (MergedMap, SourceText, Snippet, is_overlaid, key_location, load_yaml, node_location,
                     resolve_parent, value_location)

_PART = re.compile(r"([^.\[\]]+)|\[([^\]]+)\]")


def parse_path(text: str) -> list:
    parts = []
    for m in _PART.finditer(text):
        if m.group(1) is not None:
            parts.append(m.group(1))
        else:
            inner = m.group(2)
            parts.append(int(inner) if inner.lstrip("-").isdigit() else ("name", inner))
    return parts


def variant_path(game_root: Path, ref: str) -> Path:
    why = too_long(ref)
    if why is not None:
        raise ContentError(Problem(Location(shown(ref)), f"no such variant: {why}"))
    p = Path(ref)
    if is_there(p) or is_overlaid(p):  # an editor's unsaved variant counts (yamlio.overlaid)
        return p
    for cand in (game_root / "variants" / f"{ref}.yaml", game_root / "variants" / ref):
        if is_there(cand) or is_overlaid(cand):
            return cand
    known = sorted(x.stem for x in (game_root / "variants").glob("*.yaml")) if (game_root / "variants").is_dir() else []
    hint = did_you_mean(ref, known) or (f"variants of this game: {', '.join(known)}" if known else "this game has no variants/")
    raise ContentError(Problem(Location(ref), f"no variant `{ref}`", hint=hint))


def _broken_changes(doc, problems: list[Problem]):
    """The indexes of the changes the schema refused (each one already reported): the other
    changes are still applied and checked, so that every problem of every change is reported
    at once. None when the file's shape is wrong and nothing can be applied."""
    if not problems:
        return set()
    if not (isinstance(doc, dict) and isinstance(doc.get("variant"), dict) and isinstance(doc.get("changes"), list)):
        return None
    from .yamlio import to_plain
    broken = set()
    for err in validator("variant").iter_errors(to_plain(doc)):
        where = list(err.absolute_path)
        if len(where) >= 2 and where[0] == "changes" and isinstance(where[1], int):
            broken.add(where[1])
    return broken


class Variant:
    def __init__(self, path: Path, doc, display: str):
        self.path = path
        self.broken: set[int] = set()  # changes the schema refused (reported, not applied)
        self.doc = doc
        self.display = display
        meta = doc.get("variant") or {}
        self.meta = meta
        self.name = str(meta.get("name") or path.stem)
        self.base = str(meta.get("base") or "")
        self.requires = [str(x) for x in meta.get("requires") or []]
        self.conflicts = [str(x) for x in meta.get("conflicts") or []]
        self.changes = doc.get("changes") or []

    def where(self) -> Location:
        return key_location(self.doc, "variant") if "variant" in self.doc else Location(self.display, 1, 1)


def load_variants(rs: Ruleset, refs, errors: ErrorList) -> list[Variant]:
    out = []
    for ref in refs:
        try:
            path = variant_path(rs.root, str(ref))
            display = display_path(path)
            doc = load_yaml(path, display)
        except ContentError as e:
            errors.problems.extend(e.problems)
            continue
        problems = schema_problems(doc, "variant", display)
        errors.problems.extend(problems)
        broken = _broken_changes(doc, problems)
        if broken is None:  # the header or the file's shape is wrong: nothing can be applied
            continue
        v = Variant(path, doc, display)
        v.broken = broken
        if v.base and v.base != rs.name and v.base != (rs.meta.get("name") or rs.name):
            errors.add(value_location(doc["variant"], "base"),
                       f"variant `{v.name}` is for the game `{v.base}`, not `{rs.meta.get('name') or rs.name}`")
            continue
        out.append(v)
    return _order(out, errors)


def _order(variants: list[Variant], errors: ErrorList) -> list[Variant]:
    by_name = {v.name: v for v in variants}
    for v in variants:
        for r in v.requires:
            if r not in by_name:
                errors.add(value_location(v.doc["variant"], "requires"),
                           f"variant `{v.name}` requires the variant `{r}`", hint=f"add --variant {r}")
        for c in v.conflicts:
            if c in by_name:
                errors.add(value_location(v.doc["variant"], "conflicts"),
                           f"variants `{v.name}` ({v.display}) and `{c}` ({by_name[c].display}) cannot be combined",
                           hint=f"{v.display} declares the conflict")
    ordered, seen, visiting = [], set(), set()

    def visit(v):
        if v.name in seen:
            return
        if v.name in visiting:
            errors.add(v.where(), f"variant `{v.name}` requires itself through a cycle")
            return
        visiting.add(v.name)
        for r in v.requires:
            if r in by_name:
                visit(by_name[r])
        visiting.discard(v.name)
        seen.add(v.name)
        ordered.append(v)
    for v in variants:
        visit(v)
    return ordered


def _requires_transitively(a: Variant, b: Variant, by_name) -> bool:
    stack, seen = list(a.requires), set()
    while stack:
        n = stack.pop()
        if n == b.name:
            return True
        if n in seen or n not in by_name:
            continue
        seen.add(n)
        stack.extend(by_name[n].requires)
    return False


def apply_variants(rs: Ruleset, variants: list[Variant], errors: ErrorList, *, base_ok: bool = True) -> None:
    """Apply the variants' changes in order; every problem of every change goes to `errors`.
    With `base_ok` (the base game had no problem), the result is checked against the content
    schema even when some changes were refused, so that their problems do not hide others."""
    touched = []  # (path tuple, variant, location)
    by_name = {v.name: v for v in variants}
    for v in variants:
        for i, change in enumerate(v.changes):
            if i in v.broken:
                continue
            loc = value_location(v.doc["changes"], i)
            path_text = str(change.get("path", ""))
            parts = parse_path(path_text)
            key = tuple(str(p) for p in parts)
            op = change.get("op")
            for other_key, other, other_loc, other_op in touched:
                if other is v:
                    continue
                if op == "append" and other_op == "append" and key == other_key:
                    continue  # items added to one list by two variants: both are kept
                if key[:len(other_key)] == other_key or other_key[:len(key)] == key:
                    if not (_requires_transitively(v, other, by_name) or _requires_transitively(other, v, by_name)):
                        errors.add(loc, f"variants `{other.name}` and `{v.name}` both change `{path_text}`",
                                   hint=f"{other.name} changes it at {other_loc}; make one require the other, "
                                        f"or drop one of them")
            touched.append((key, v, loc, op))
            try:
                _apply(rs, change, parts, v)
            except _ChangeError as e:
                where = value_location(change, "path") if "path" in change else loc
                errors.add(where, f"variant `{v.name}`: {e}", hint=e.hint)
        rs.variants.append(v.name)
    if variants and base_ok:
        errors.problems.extend(_validate_merged(rs, variants))


def _change_about(variants: list[Variant], path: list) -> Location | None:
    """Where the last change whose path leads to, or inside, `path` writes its path."""
    want = [str(p) for p in path]
    found = None
    for v in variants:
        for i, change in enumerate(v.changes):
            if i in v.broken or "path" not in change:
                continue
            parts = [p[1] if isinstance(p, tuple) else str(p) for p in parse_path(str(change["path"]))]
            if parts[:len(want)] == want or want[:len(parts)] == parts:
                found = value_location(change, "path")
    return found


def _validate_merged(rs: Ruleset, variants: list[Variant]) -> list[Problem]:
    """The game as the variants left it, checked against the content schema; each problem is
    located where its value was written (a variant's file, usually)."""
    from .yamlio import to_plain
    doc = {label: getattr(rs, attr) for label, attr in _SECTIONS.items()}
    doc["vars"] = rs.vars
    plain = {k: to_plain(v) for k, v in doc.items() if v}
    out = []
    for err in validator("content").iter_errors(plain):
        path = list(err.absolute_path)
        node, key = None, None
        cur = doc
        for part in path:
            if isinstance(cur, (dict, list)):
                try:
                    node, key = cur, part
                    cur = cur[part]
                    continue
                except (KeyError, IndexError, TypeError):
                    break
            break
        if node is not None:
            n, k = resolve_parent(node, key)
            try:
                loc = value_location(n, k) if hasattr(n, "lc") else Location("<variants>")
            except Exception:
                loc = node_location(n)
        else:
            loc = Location("<variants>")
        if loc.file in ("<variants>", "<content>"):  # a mapping a change created: point at that change
            extra = [k for k in (err.instance or {}) if k not in (err.schema.get("properties") or {})] \
                if err.validator == "additionalProperties" and isinstance(err.instance, dict) else []
            loc = (extra and _change_about(variants, path + extra[:1])) or _change_about(variants, path) or loc
        jpath = "/" + "/".join(str(p) for p in path)
        out.append(Problem(loc, f"after the variants: {err.message} (at {jpath})"))
    return out


class _ChangeError(Exception):
    def __init__(self, message, hint=""):
        super().__init__(message)
        self.hint = hint


_SECTIONS = {"game": "meta", "options": "option_specs", "constants": "constants", "cards": "cards",
             "zones": "zones", "vars": "vars", "functions": "functions", "procedures": "procedures",
             "events": "events", "actions": "actions", "board": "board", "flow": "flow",
             "scoring": "scoring", "render": "render", "analysis": "analysis", "tuning": "tuning"}


def _owned(container, key):
    """container[key] as a mapping or list this variant may change, keeping every origin."""
    value = container[key]
    if isinstance(value, (MergedMap, _OwnedList)):
        return value
    if isinstance(value, dict):
        copy = MergedMap()
        for k, v in value.items():
            copy[k] = v
            copy.parents[k] = (value, k)
        container[key] = copy
        return copy
    if isinstance(value, list):
        copy = _OwnedList(value)
        container[key] = copy
        return copy
    raise _ChangeError(f"`{key}` holds a value, not a mapping or a list")


class _OwnedList(list):
    pass


def _set(container, key, value, origin):
    container[key] = value
    if isinstance(container, MergedMap):
        if origin is None:
            container.parents.pop(key, None)
        else:
            container.parents[key] = origin


def _find_item(lst, sel):
    for i, item in enumerate(lst):
        if isinstance(item, dict) and (item.get("name") == sel or item.get("id") == sel):
            return i
    return None


def _step(cur, part, done):
    """The key of `part` in `cur` (a mapping or a list)."""
    where = ".".join(str(p) for p in done)
    if isinstance(cur, list):
        if isinstance(part, tuple):
            idx = _find_item(cur, part[1])
            if idx is None:
                raise _ChangeError(f"no item `{part[1]}` in `{where}`")
            return idx
        if isinstance(part, int) and -len(cur) <= part < len(cur):
            return part
        raise _ChangeError(f"no item [{part}] in `{where}`")
    if isinstance(part, tuple):
        raise _ChangeError(f"`{where}` is a mapping: write `{where}.{part[1]}`")
    return part


def _apply(rs: Ruleset, change, parts, v: Variant):
    op = change["op"]
    head = str(parts[0])
    if head in SECTIONS_LIST:
        return _apply_list_section(rs, change, parts, v)
    if head not in _SECTIONS:
        raise _ChangeError(f"unknown section `{head}`", hint=_did_you_mean(head, _SECTIONS) or
                           "sections: " + ", ".join(list(_SECTIONS) + list(SECTIONS_LIST)))
    container, key = rs.__dict__, _SECTIONS[head]
    done = [head]
    entry_depth = _ENTRY_DEPTH.get(head, 0)
    for depth, part in enumerate(parts[1:-1], start=1):
        cur = _owned(container, key)
        nxt = _step(cur, part, done)
        if isinstance(cur, dict) and nxt not in cur:
            if op in ("set", "merge") and depth <= entry_depth:
                raise _no_entry(done + [str(part)], cur, op)
            if op in ("set", "add", "merge"):
                _set(cur, nxt, MergedMap(), None)
            else:
                raise _ChangeError(f"`{'.'.join(done + [str(part)])}` does not exist", hint=_did_you_mean(part, cur))
        container, key = cur, nxt
        done.append(str(part))
    origin = (change, "value")
    if len(parts) == 1:  # the whole section: only a merge makes sense
        if op != "merge":
            raise _ChangeError(f"`{head}` is a whole section: use `merge`, or a path inside it")
        _merge_into(_owned(container, key), change["value"])
        return
    target = _owned(container, key)
    last = _step(target, parts[-1], done)
    exists = (last in target) if isinstance(target, dict) else True
    path = change["path"]
    if op == "set" and not exists and len(parts) - 1 <= entry_depth:
        raise _no_entry(done + [str(last)], target, op)
    if op == "remove":
        if not exists:
            raise _ChangeError(f"`{path}` does not exist, nothing to remove", hint=_did_you_mean(last, target))
        del target[last]
        if isinstance(target, MergedMap):
            target.parents.pop(last, None)
        return
    if op == "add" and exists:
        raise _ChangeError(f"`{path}` exists already", hint="use `set` or `replace` to change it")
    if op in ("replace", "merge", "append") and not exists:
        raise _ChangeError(f"`{path}` does not exist", hint=_did_you_mean(last, target))
    if op in ("set", "add", "replace"):
        _set(target, last, change["value"], origin)
        return
    if op == "merge":
        inner = _owned(target, last)
        if not isinstance(inner, dict) or not isinstance(change["value"], dict):
            raise _ChangeError("`merge` needs a mapping on both sides", hint="use `set` to replace a value")
        _merge_into(inner, change["value"])
        return
    if op == "append":
        inner = _owned(target, last)
        if not isinstance(inner, list):
            raise _ChangeError(f"`{path}` is not a list")
        inner.extend(change["value"] if isinstance(change["value"], list) else [change["value"]])
        return
    raise _ChangeError(f"unknown operation `{op}`")


# The sections whose keys are names the designer chose (a card, an action, a constant...), and
# how deep that name sits in a path: `cards.NAME...`, `vars.player.NAME...`. Only `add` creates
# such an entry; `set` and `merge` change one that exists, so that a misspelt name is an error
# instead of a new, unused entry. Inside an existing entry, `set` may still give a property the
# entry did not have (the content schema then checks its name).
_ENTRY_DEPTH = {"options": 1, "constants": 1, "cards": 1, "zones": 1, "functions": 1, "procedures": 1,
                "events": 1, "actions": 1, "vars": 2, "tuning": 2}


def _no_entry(names: list, container, op: str) -> _ChangeError:
    entry = ".".join(names)
    close = _did_you_mean(names[-1], container).removeprefix("did you mean ").rstrip("?").replace("`", "")
    section = names[0] if len(names) == 2 else ".".join(names[:-1])
    hint = (f"`{op}` changes an entry that exists; to create a new entry of `{section}`, "
            f"use `op: add` with `path: {entry}` and the whole entry as its value")
    return _ChangeError(f"{entry} does not exist" + (f"; did you mean {close}?" if close else ""), hint=hint)


def _merge_into(target: MergedMap, value):
    if not isinstance(value, dict) or not isinstance(target, dict):
        raise _ChangeError(f"`merge` needs a mapping to merge into a mapping, not {type(value).__name__}",
                           hint="use `set` to replace a value")
    for k, v in value.items():
        if k in target and isinstance(target[k], dict) and isinstance(v, dict):
            _merge_into(_owned(target, k), v)
        else:
            _set(target, k, v, (value, k))


def _did_you_mean(key, container) -> str:
    if isinstance(container, dict):
        return did_you_mean(str(key), [str(k) for k in container])
    return ""


def _apply_list_section(rs: Ruleset, change, parts, v: Variant):
    op = change["op"]
    section = str(parts[0])
    values = change.get("value")
    if section == "triggers":
        if op == "remove" and len(parts) == 2:
            ident = parts[1][1] if isinstance(parts[1], tuple) else str(parts[1])
            for i, snip in enumerate(rs.triggers):
                if getattr(snip, "id", None) == ident:
                    del rs.triggers[i]
                    return
            known = [s.id for s in rs.triggers if getattr(s, "id", None)]
            raise _ChangeError(f"no trigger with id `{ident}`", hint=_did_you_mean(ident, dict.fromkeys(known)))
        if op == "append" and len(parts) == 1:
            items = values if isinstance(values, list) else [values]
            for i, t in enumerate(items):
                if isinstance(t, dict) and "rule" in t:
                    snip = Snippet(SourceText.of(t, "rule"), f"{v.display} triggers[{i}]", t.get("id"))
                elif isinstance(values, list):
                    snip = Snippet(SourceText.of(values, i), f"{v.display} triggers[{i}]")
                else:
                    snip = Snippet(SourceText.of(change, "value"), f"{v.display} triggers")
                rs.triggers.append(snip)
            return
        raise _ChangeError("triggers take `append` (path: triggers), or `remove` with path triggers[ID]")
    if op == "append" and len(parts) == 1:
        items = values if isinstance(values, list) else [values]
        if section == "invariants":
            rs.invariants.extend(items)
        else:
            rs.extra_tags.extend(str(x) for x in items)
        return
    raise _ChangeError(f"`{section}` takes `append`")


