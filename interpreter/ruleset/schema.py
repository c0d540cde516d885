"""The JSON Schemas of content and variant files, and their problems located in the YAML."""
from __future__ import annotations

import functools
import json

from . import cache as diskcache
from ..errors import did_you_mean
from ..errors import Location, Problem
from .paths import schemas_dir
from .yamlio import key_location, node_location, to_plain, value_location

# the top-level sections of a content file: mappings of named entries, and lists
SECTIONS_MAPPING = ("constants", "cards", "zones", "vars", "functions", "procedures", "events", "actions", "options")
SECTIONS_LIST = ("triggers", "invariants", "tags")


@functools.lru_cache(maxsize=None)
def schema_text(name: str) -> str:
    return (schemas_dir() / f"{name}.schema.json").read_text(encoding="utf-8")


@functools.lru_cache(maxsize=None)
def schema(name: str) -> dict:
    return json.loads(schema_text(name))


@functools.lru_cache(maxsize=None)
def validator(name: str):
    """The jsonschema validator of a schema (jsonschema is imported on first use: a document seen
    valid before is not checked again, see `schema_problems`)."""
    from jsonschema import Draft202012Validator
    return Draft202012Validator(_checked_here(schema(name)))


EDITORS_ONLY = "for editors; interpret checks the value once applied, as content (ruleset/variants.py)"


def _checked_here(doc: dict) -> dict:
    """The schema without the rules marked for editors only (`$comment`: EDITORS_ONLY): a
    variant's `value:` checked against the content schema's entries as the editor completes it;
    interpret checks it once applied, at its place in the content, with the other changes."""
    text = json.dumps(doc)
    if EDITORS_ONLY not in text:
        return doc

    def strip(v):
        if isinstance(v, dict):
            return {k: strip(x) for k, x in v.items()}
        if isinstance(v, list):
            return [strip(x) for x in v if not (isinstance(x, dict) and x.get("$comment") == EDITORS_ONLY)]
        return v
    return strip(doc)


def locate_path(root, path) -> Location:
    """The position of the value at a JSON path inside a ruamel document."""
    node = root
    loc = node_location(root)
    for part in path:
        try:
            if isinstance(node, dict) and part in node:
                loc = key_location(node, part) if not isinstance(node[part], (dict, list)) else value_location(node, part)
                if not isinstance(node[part], (dict, list)):
                    loc = value_location(node, part)
                node = node[part]
            elif isinstance(node, list) and isinstance(part, int) and part < len(node):
                loc = value_location(node, part)
                node = node[part]
            else:
                break
        except Exception:
            break
    return loc


def schema_problems(doc, schema_name: str, file: str) -> list[Problem]:
    """Every place where `doc` breaks the schema, located in its file. A document found valid is
    remembered in the disk cache, keyed by the schema's text and the document's plain value (its
    repr: types and order kept), so that a fresh process does not import jsonschema to check it
    again; a document with problems is checked every time."""
    plain = to_plain(doc)
    cache = diskcache.store("schema")
    key = diskcache.key_of(schema_name, schema_text(schema_name), repr(plain))
    if cache.get(key) is not None:
        return []
    out = _problems(doc, plain, schema_name, file)
    if not out:
        cache.put(key, True)
    return out


def _problems(doc, plain, schema_name: str, file: str) -> list[Problem]:
    out = []
    for err in sorted(validator(schema_name).iter_errors(plain), key=lambda e: list(map(str, e.absolute_path))):
        path = list(err.absolute_path)
        loc = locate_path(doc, path) if hasattr(doc, "lc") else Location(file)
        jpath = "/" + "/".join(str(p) for p in path)
        msg, hint = _message(err)
        if err.validator == "additionalProperties":
            extra = [p for p in (err.instance or {}) if p not in (err.schema.get("properties") or {})]
            known = list((err.schema.get("properties") or {}).keys())
            hints = [did_you_mean(e, known) for e in extra]
            hint = " ".join(h for h in hints if h) or ("known keys: " + ", ".join(known) if known else "")
            if extra and isinstance(doc, dict):
                parent = doc
                for p in path:  # the document's own keys may not be texts (a number, none)
                    if isinstance(parent, dict):
                        parent = next((v for k, v in parent.items() if str(k) == str(p)), None)
                    elif isinstance(parent, list) and isinstance(p, int) and p < len(parent):
                        parent = parent[p]
                    else:
                        parent = None
                    if parent is None:
                        break
                try:
                    if parent is not None:
                        loc = key_location(parent, next(k for k in parent if str(k) == str(extra[0])))
                except Exception:
                    pass
            out.append(Problem(loc, f"{msg} (at {jpath})", hint=hint))
        else:
            out.append(Problem(loc, f"{msg} (at {jpath})", hint=hint))
    return out


_SHOWN = 60  # the characters of a wrong value quoted in a message
_TYPE_WORDS = {"array": "a list", "object": "a mapping", "string": "a text", "integer": "a whole number",
               "number": "a number", "boolean": "yes or no (true or false)", "null": "nothing"}


def _message(err) -> tuple[str, str]:
    """jsonschema's message, with a long value cut short; a text where a list is expected says so
    (`params: a, b` for `params: [a, b]`)."""
    value = err.instance
    shown = repr(value)
    if len(shown) <= _SHOWN or err.validator != "type":
        msg = err.message if len(err.message) <= 4 * _SHOWN else err.message[:4 * _SHOWN] + "…"
    else:
        size = f"a text of {len(value):,} characters" if isinstance(value, str) else type(value).__name__
        wanted = err.validator_value
        msg = f"{shown[:_SHOWN]}… ({size}) is not of type {wanted!r}"
    wanted = err.validator_value if err.validator == "type" else None
    if wanted == "array" and isinstance(value, str):
        return msg, "a list is expected here, not a text: write the items in brackets, [a, b]"
    return msg, ""
