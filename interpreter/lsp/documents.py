"""A game folder's YAML files walked with their schemas: every key, every rules text and every
name written in a plain value, each at its position (what the index, hover, completion and
semantic tokens read)."""
from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from pathlib import Path

from ..errors import ContentError, Location
from ..lang.parser import parser
from ..ruleset.loader import content_files
from ..ruleset.texts import is_texts_file
from ..ruleset.yamlio import SourceText, key_location, load_yaml_text, value_location
from . import schemas

WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
# values for a reader (a player or a designer), never names: left alone by rename and references
PROSE = {"title", "text", "description", "section", "reason", "why", "prompt", "label", "help", "legend", "summary",
         "message", "fail", "note", "explain", "name", "back", "power"}
FOLDERS = ("variants", "scenarios", "tutorials")


def role_of(root: Path, path: Path) -> str | None:
    """What a file is to its game: content, variant, scenario, tutorial or texts (None: not the game's)."""
    try:
        rel = path.resolve().relative_to(root.resolve())
    except ValueError:
        return None
    if path.suffix not in (".yaml", ".yml"):
        return None
    if rel.parts[0] in FOLDERS and len(rel.parts) > 1:
        return {"variants": "variant", "scenarios": "scenario", "tutorials": "tutorial"}[rel.parts[0]]
    if len(rel.parts) == 1 and is_texts_file(path):
        return "texts"
    return "content"


def rules_files(root: Path) -> list[Path]:
    """The YAML files that make a game's rules: its content and its languages' texts."""
    return list(content_files(root)) + sorted(p for p in root.glob("*.yaml") if is_texts_file(p))


def game_files(root: Path) -> list[Path]:
    """Every YAML file of a game: content, its languages' texts, variants, scenarios, tutorials."""
    files = rules_files(root)
    for folder in FOLDERS:
        if (root / folder).is_dir():
            files += sorted((root / folder).rglob("*.yaml"))
    return files


@dataclass(frozen=True)
class Spot:
    """A name written in a file: `line` and `column` 0-based (as an editor counts), `length` long.
    `what`: "key" (a mapping's key), "rules" (a name in rules text; `after_dot` when an attribute),
    "value" (a word of a plain value). `path`: the keys from the document's root to it."""
    name: str
    line: int
    column: int
    what: str
    path: tuple = ()
    after_dot: bool = False

    @property
    def length(self) -> int:
        return len(self.name)


@dataclass(frozen=True)
class RulesText:
    src: SourceText
    path: tuple
    nodes: tuple = ()  # the schemas of the value


@dataclass
class Walked:
    """What one file holds: its keys and names (spots) and its rules texts."""
    spots: list
    texts: list
    doc: object = None


def parse_text(text: str, display: str):
    """The YAML document of a text (positions kept), or None when it does not read as YAML."""
    try:
        return load_yaml_text(text, display)
    except ContentError:
        return None


def walk(doc, role: str) -> Walked:
    out = Walked([], [], doc)
    name = schemas.schema_name_of(role)
    if doc is None or name is None or not isinstance(doc, dict):
        return out
    _walk(doc, schemas.root(name), (), role, out)
    return out


def _walk(node, nodes, path, role, out: Walked) -> None:
    if isinstance(node, dict):
        items = list(node.items())
        for k, v in items:
            key = str(k)
            loc = key_location(node, k)
            if loc.line and WORD.fullmatch(key):
                out.spots.append(Spot(key, loc.line - 1, loc.column - 1, "key", path + (key,)))
            elif loc.line and _line(node, loc.line)[loc.column - 1:].startswith(key):  # `cards.NAME.text`, `p1.score`
                out.spots += [Spot(m.group(), loc.line - 1, loc.column - 1 + m.start(), "value", path + (key,))
                              for m in WORD.finditer(key)]
            sub = schemas.child(nodes, key)
            if role == "variant" and key == "value" and "path" in node and len(path) >= 1 and path[0] == "changes":
                target = tuple(schemas.variant_path(node["path"]))  # the value stands there in the content
                _value(node, k, v, schemas.at(schemas.root("content"), target), target, "content", out)
                continue
            _value(node, k, v, sub, path + (key,), role, out)
    elif isinstance(node, list):
        for i, v in enumerate(node):
            _value(node, i, v, schemas.child(nodes, i), path + (i,), role, out)


def _value(parent, key, v, nodes, path, role, out: Walked) -> None:
    if isinstance(v, (dict, list)):
        _walk(v, nodes, path, role, out)
        return
    if not isinstance(v, str):
        return
    last = next((p for p in reversed(path) if isinstance(p, str)), "")
    if schemas.is_rules_text(nodes) or (role in ("scenario", "tutorial") and last in schemas.SCENARIO_RULES):
        src = SourceText.of(parent, key)
        out.texts.append(RulesText(src, path, tuple(nodes)))
        out.spots.extend(rules_spots(src, path))
        return
    if role == "texts" or last in PROSE:
        return
    loc = value_location(parent, key)
    if not loc.line:
        return
    line = _line(parent, loc.line)
    start = loc.column - 1
    if line[start:start + 1] in ("'", '"'):
        start += 1
    if "\n" in v or line[start:start + len(v)] != v:
        return  # folded or escaped: positions cannot be trusted word by word
    for m in WORD.finditer(v):
        out.spots.append(Spot(m.group(), loc.line - 1, start + m.start(), "value", path))


def _line(node, line: int) -> str:
    lines = getattr(node, "_src_lines", [])
    return lines[line - 1] if 1 <= line <= len(lines) else ""


@functools.lru_cache(maxsize=1)
def _lexer():
    return parser()._build_lexer()  # lark's own `Lark.lex` builds it anew at every call


def tokens(text: str):
    """lark's tokens of a rules text (a basic lexer: a keyword is always a keyword)."""
    from lark.lexer import LexerThread
    return LexerThread.from_text(_lexer(), text).lex(None)


def lexed(src: SourceText):
    """(token type, token text, Location in the file) of a rules text, in order; stops at a
    character the language does not have."""
    from lark.exceptions import LarkError
    out = []
    try:
        for tok in tokens(src.text):
            if tok.type == "_NL":
                continue
            out.append((tok.type, str(tok), _checked(src, str(tok), src.locate(tok.line, tok.column))))
    except LarkError:
        pass
    return out


def _checked(src: SourceText, text: str, loc):
    """The token's place, checked against the file's line: a folded text's more-indented lines are
    mapped a little off by `locate`; then the nearest occurrence on that line is the token."""
    lines = src.lines
    if not loc.line or loc.line > len(lines) or "\n" in text:
        return loc
    line = lines[loc.line - 1]
    if line[loc.column - 1:loc.column - 1 + len(text)] == text:
        return loc
    pattern = re.escape(text) if not WORD.fullmatch(text) else rf"(?<![\w.]){re.escape(text)}(?!\w)"
    starts = [m.start() for m in re.finditer(pattern, line)]
    if not starts:
        return Location(loc.file, 0, 0)
    best = min(starts, key=lambda c: abs(c - (loc.column - 1)))
    return Location(loc.file, loc.line, best + 1)


def rules_spots(src: SourceText, path=()) -> list[Spot]:
    out = []
    prev = ""
    for kind, text, loc in lexed(src):
        if kind == "NAME" and loc.line:
            out.append(Spot(text, loc.line - 1, loc.column - 1, "rules", tuple(path), after_dot=prev == "DOT"))
        prev = kind
    return out


__all__ = ["PROSE", "RulesText", "Spot", "WORD", "Walked", "game_files", "lexed", "parse_text", "role_of",
           "rules_files", "rules_spots", "walk"]
