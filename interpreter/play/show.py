"""`interpret show` and `interpret new variant`: content as the variants left it, and starting files."""
from __future__ import annotations

import io

from ruamel.yaml import YAML
from ruamel.yaml.comments import CommentedMap, CommentedSeq

from ..ruleset.loader import Ruleset
from ..ruleset.yamlio import MergedMap, node_location, resolve_parent, value_location

SECTIONS = ("meta", "option_specs", "constants", "cards", "zones", "functions", "procedures", "events", "actions",
            "board", "flow", "scoring", "render", "analysis")
LABELS = {"meta": "game", "option_specs": "options"}


def _sections(rs: Ruleset):
    for attr in SECTIONS:
        yield LABELS.get(attr, attr), getattr(rs, attr)
    for kind, table in rs.vars.items():
        yield f"vars.{kind}", table


def find_entries(rs: Ruleset, name: str):
    """(path, parent, key) of what `name` designates: a dotted path, or a bare name in any section."""
    out = []
    if not name:
        return [(label, None, label) for label, _ in _sections(rs)]
    parts = name.split(".")
    for label, table in _sections(rs):
        lparts = label.split(".")
        if parts[:len(lparts)] == lparts:
            rest = parts[len(lparts):]
            if not rest:
                out.append((label, None, table))
                continue
            node, ok = table, True
            for p in rest[:-1]:
                if isinstance(node, dict) and p in node:
                    node = node[p]
                else:
                    ok = False
                    break
            if ok and isinstance(node, dict) and rest[-1] in node:
                out.append((name, node, rest[-1]))
    if out:
        return out
    for label, table in _sections(rs):  # a bare name
        if isinstance(table, dict) and name in table:
            out.append((f"{label}.{name}", table, name))
    return out


def _origin(parent, key) -> str:
    node, k = resolve_parent(parent, key)
    try:
        return str(value_location(node, k))
    except Exception:
        return str(node_location(node))


def render_entry(rs: Ruleset, path: str, parent, key) -> str:
    lines = []
    if parent is None:  # a whole section
        value = key
        lines.append(f"{path}:")
        _render(value, 1, lines)
        return "\n".join(lines)
    value = parent[key]
    origin = _origin(parent, key)
    if isinstance(value, (dict, list)):
        lines.append(f"{path}:{'':<8}# {origin}")
        _render(value, 1, lines)
    else:
        lines.append(f"{path}: {_scalar(value)}{'':<4}# {origin}")
    return "\n".join(lines)


def _scalar(v) -> str:
    text = str(v)
    if "\n" in text:
        return "|\n" + "\n".join("      " + line for line in text.rstrip("\n").splitlines())
    return text


def _render(value, depth, lines):
    pad = "  " * depth
    if isinstance(value, dict):
        for k, v in value.items():
            origin = _origin(value, k) if (isinstance(value, MergedMap) or hasattr(value, "lc")) else ""
            note = f"    # {origin}" if origin else ""
            if isinstance(v, (dict, list)) and v:
                lines.append(f"{pad}{k}:{note}")
                _render(v, depth + 1, lines)
            else:
                text = _scalar(v)
                if text.startswith("|"):
                    lines.append(f"{pad}{k}: |{note}")
                    lines.extend(pad + "  " + line.strip("\n")[6:] if line.startswith("      ") else pad + line
                                 for line in text.splitlines()[1:])
                else:
                    lines.append(f"{pad}{k}: {text}{note}")
    elif isinstance(value, list):
        for i, v in enumerate(value):
            if isinstance(v, (dict, list)):
                lines.append(f"{pad}-")
                _render(v, depth + 1, lines)
            else:
                lines.append(f"{pad}- {_scalar(v)}")


def new_variant_text(name: str, rs: Ruleset, *, path: str | None = None, given: str | None = None) -> str:
    """A commented starting variant, written with ruamel.yaml (later edits keep comments and order)."""
    game = str(rs.meta.get("name") or rs.name)
    doc = CommentedMap()
    meta = CommentedMap()
    meta["name"] = name
    meta["title"] = name.replace("-", " ").capitalize()
    meta["base"] = game
    meta["description"] = "What this variant changes, in one sentence."
    meta["requires"] = CommentedSeq()
    meta["conflicts"] = CommentedSeq()
    meta.yaml_add_eol_comment("the game this variant changes (its game.name)", "base")
    meta.yaml_add_eol_comment("variants applied before this one", "requires")
    meta.yaml_add_eol_comment("variants this one cannot be combined with", "conflicts")
    doc["variant"] = meta
    changes = CommentedSeq()
    card = next((n for n, spec in rs.cards.items() if isinstance(spec.get("copies"), int) and spec["copies"] > 1),
                next(iter(rs.cards), None))
    option = next(iter(rs.option_specs), None)
    if card is not None:
        c = CommentedMap([("op", "set"), ("path", f"cards.{card}.copies"), ("value", 2),
                          ("why", "an example: change a value (ops: set, add, replace, remove, merge, append)")])
        changes.append(c)
    if option is not None:
        c = CommentedMap([("op", "set"), ("path", f"options.{option}.default"),
                          ("value", rs.option_specs[option].get("default")), ("why", "an example: another default")])
        changes.append(c)
    changes.append(CommentedMap([("op", "append"), ("path", "triggers"),
                                 ("value", CommentedSeq(['on turn_start when false: pass'])),
                                 ("why", "an example: a new rule in the rules language (docs/language.md)")]))
    doc["changes"] = changes
    # the commands as they run from the folder `interpret new` ran in: the file as written, the
    # game as given (a folder, or a bundled game's name)
    where, base = path or f"{name}.yaml", given or game
    doc.yaml_set_start_comment(
        f"A homebrew variant of {game}. Check it:    interpret validate {base} --variant {where}\n"
        f"Play it:                            interpret play {base} --variant {where}\n"
        "See every value and where it comes from: interpret show " + base + f" --variant {where} NAME\n"
        "Schema: schemas/variant.schema.json (interpret schema --out DIR)")
    y = YAML()
    y.indent(mapping=2, sequence=4, offset=2)
    buf = io.StringIO()
    y.dump(doc, buf)
    return buf.getvalue()
