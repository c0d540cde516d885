"""Content texts in another language: `texts.<lang>.yaml` beside a game's content files.

The content is written in English where it stands; a game's texts in another language live in one
file per language, each entry a text path and the text that replaces it when the table speaks that
language (schemas/texts.schema.json):

    texts:
      cards.coin.text: "Une pièce vaut 1 point (§2) ..."
      actions.take.label: "prendre {card.key} en {card.cell}"
      zones.bag.title: "sac"
      flow.turn.steps.act.title: "agir"
      procedures.take_coin.effect.log: ["{me.name} prend une pièce"]
      render.rules:
        - "§3 Un tour a 2 étapes :"
    variants:
      teams:                     # texts a variant adds or changes, applied after it
        render.players: "équipe {p.team}"

Only texts may be replaced (`text_entries` lists them): the render section's lines (and the grid's
cell and a card's template, when they hold words; a lasting mark's symbol and legend), a card's
title and text, an action's label and text (top-level or a card's own), a requirement's reason (what
a refusal tells), a zone's title (its name
when it has none), a step's and an out-of-turn window's title, the game's title and seat names,
the sentences a rule writes (`log "..."`, `prompt "..."`: the list of them in the order the rule
text has them, at the path of that rule text), and the expression of a content function that
writes words for the table and that no rule calls (`functions.NAME.expr`). A translated template
keeps its {expressions}, compiled as the English one is; its positions are those of the texts file
(a rule's sentences keep the rule's place). `text_paths` lists the texts a game must give in every
language (tests/test_i18n.py)."""
from __future__ import annotations

import copy
import re
from pathlib import Path

from ..errors import ErrorList
from .paths import display_path
from .schema import schema_problems
from .yamlio import key_location, load_yaml, resolve_parent

# the render entries a player reads (the grid's cell and the zones are drawing, not sentences)
RENDER_TEXTS = ("status", "legend", "rules", "narrate", "players", "private", "end", "points", "tiebreaks",
                "breakdown")
RENDER_WORDY = ("score", "card")  # a player reads them when they hold words
CARD_TEXTS = ("title", "text")
ACTION_TEXTS = ("label", "text")
MARK_TEXTS = ("symbol", "legend")
SAID = ("log", "prompt")  # the statements of a rule that write a sentence for the table
RULE_SECTIONS = ("cards", "procedures", "events", "actions", "flow", "scoring")  # where rule texts stand

_STRING = r""""(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'"""  # grammar/rules.lark's STRING
_LEXEMES = re.compile(rf"(#[^\n]*)|({_STRING})|\b({'|'.join(SAID)})\s+({_STRING})")
_WORD = re.compile(r"[^\W\d_]{2,}")
_PIECE = re.compile(r"\{[^{}]*\}")


def texts_file(root: Path, lang: str) -> Path:
    return Path(root) / f"texts.{lang}.yaml"


def is_texts_file(path: Path) -> bool:
    """A language's texts (`texts.fr.yaml`), not a content file."""
    return path.name.startswith("texts.") and path.name.count(".") == 2


# ---- the sentences written in rule texts -----------------------------------------------------

def said_literals(text: str) -> list[tuple[str, int, int]]:
    """Each `log "..."` / `prompt "..."` string of a rule text, in order: (statement, start, end)
    of its quoted literal. Comments and other strings are skipped as the grammar's lexer does."""
    return [(m.group(3), m.start(4), m.end(4)) for m in _LEXEMES.finditer(text) if m.group(3)]


def _unquote(literal: str) -> str:
    return re.sub(r"\\(.)", r"\1", literal[1:-1])


def _quote(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def said_texts(text: str) -> dict[str, list[str]]:
    """The sentences of a rule text by statement: {"log": [...], "prompt": [...]}."""
    out: dict[str, list[str]] = {}
    for kind, start, end in said_literals(text):
        out.setdefault(kind, []).append(_unquote(text[start:end]))
    return out


def _with_said(text: str, kind: str, sentences: list[str]) -> str:
    """`text` with its `kind` sentences replaced, in order, by `sentences` (as many)."""
    spans = [(start, end) for k, start, end in said_literals(text) if k == kind]
    out, at = [], 0
    for (start, end), sentence in zip(spans, sentences):
        out += [text[at:start], _quote(sentence)]
        at = end
    return "".join(out) + text[at:]


def _rule_texts(node, path: str):
    """(path, text) of every string under `node` (a rule section) holding a `log` or `prompt`;
    a list's items are named by their `name`, else by their number (from 1)."""
    if isinstance(node, dict):
        for key, value in node.items():
            if key not in ("title", "text", "label", "section", "description"):
                yield from _rule_texts(value, f"{path}.{key}")
    elif isinstance(node, list):
        for i, item in enumerate(node):
            name = item.get("name") if isinstance(item, dict) else None
            yield from _rule_texts(item, f"{path}.{name if isinstance(name, str) else i + 1}")
    elif isinstance(node, str) and said_literals(node):
        yield path, str(node)


def _reasons(node, path: str):
    """(path, reason) of every requirement's `reason` under `node` (a rule section): what a refusal
    tells the player; a list's items are named by their `name`, else by their number (from 1)."""
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "reason" and isinstance(value, str):
                yield f"{path}.reason", value
            elif key not in ("title", "text", "label", "section", "description"):
                yield from _reasons(value, f"{path}.{key}")
    elif isinstance(node, list):
        for i, item in enumerate(node):
            name = item.get("name") if isinstance(item, dict) else None
            yield from _reasons(item, f"{path}.{name if isinstance(name, str) else i + 1}")


# ---- which content functions write words for the table ----------------------------------------

_CALL = re.compile(r"\b([A-Za-z_][A-Za-z0-9_]*)\s*\(")


def _calls(text: str, names) -> set[str]:
    """The functions of `names` that `text` calls."""
    return set(_CALL.findall(text)) & names


_TABLE_KEYS = ("title", "text", "label", "reason", "section", "description")  # words for the table, not rules


def _strings_of(node):
    if isinstance(node, dict):
        for key, value in node.items():
            if key not in _TABLE_KEYS:
                yield from _strings_of(value)
    elif isinstance(node, list):
        for item in node:
            yield from _strings_of(item)
    elif isinstance(node, str):
        yield str(node)


def table_functions(rs) -> set[str]:
    """The content functions that only the table's texts call (render, labels, titles, reasons,
    logs, prompts, and other such functions): their words may be translated, no rule reads them."""
    names = {n for n, spec in rs.functions.items() if not (isinstance(spec, dict) and spec.get("modifiable"))}
    called = set()  # (a modifiable function is a hook the cards' rules change: never the table's)
    sections = ("constants", "cards", "zones", "vars", "procedures", "events", "actions", "board", "flow", "scoring",
                "analysis")
    rules = [text for section in sections for text in _strings_of(getattr(rs, section))]
    rules += [str(t.src.text) for t in rs.triggers]
    handled = {m.group(1) for text in rules for m in _HANDLER.finditer(text)}  # events a rule listens to
    for text in rules:
        called |= _calls(_emits_out(_said_out(text), handled), names)
    called |= {n for text in _strings_of(rs.invariants) for n in _calls(text, names)}
    while True:  # a function a rule calls reads the functions it calls for the rules too
        more = {n for f in called for n in _calls(str((rs.functions.get(f) or {}).get("expr", "")), names)} - called
        if not more:
            return names - called
        called |= more


_HANDLER = re.compile(r"\b(?:on|instead\s+of)\s+([a-z_][a-z0-9_]*)")
_EMIT = re.compile(r"\bemit\s+([a-z_][a-z0-9_]*)\s*\(")


def _emits_out(text: str, handled: set) -> str:
    """A rule text without the arguments of the events it emits that no rule listens to: they
    only reach the table's narration (render.narrate)."""
    out, at = [], 0
    for m in _EMIT.finditer(text):
        if m.start() < at or m.group(1) in handled:
            continue
        depth, i = 1, m.end()
        while i < len(text) and depth:
            string = re.match(_STRING, text[i:])
            if string:
                i += string.end()
                continue
            depth += {"(": 1, ")": -1}.get(text[i], 0)
            i += 1
        out += [text[at:m.end()], ")"]
        at = i
    return "".join(out) + text[at:]


def _said_out(text: str) -> str:
    """A rule text without its sentences (what a log or prompt calls is for the table)."""
    for kind, start, end in reversed(said_literals(text)):
        text = text[:start] + '""' + text[end:]
    return text


def _words_in_literals(expr: str) -> bool:
    """Whether a quoted string of an expression is words for the table: a phrase (`" left)"`), not
    a single name (`"pile"`, `"red"`), which rules compare and pass around."""
    return any(re.search(r"[^\W\d_]{2,}", inner) and not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", inner)
               for inner in (_unquote(m.group(0)) for m in re.finditer(_STRING, expr)))


def wordy(text) -> bool:
    """Whether a text (or a list of texts) holds words a player reads: outside its {expressions},
    or in a quoted string inside one (an expression's own names are not words)."""
    if isinstance(text, (list, tuple)):
        return any(wordy(t) for t in text)
    if isinstance(text, dict):
        return any(wordy(t) for t in text.values())
    text = str(text)
    return bool(_WORD.search(_PIECE.sub("", text))) or any(_words_in_literals(p) for p in _PIECE.findall(text))


# ---- the texts of a game ------------------------------------------------------------------

def text_entries(rs) -> dict[str, bool]:
    """Every text of `rs` a language may replace, each with whether a language must give it (a
    title or a name may stay as it is; a sentence may not)."""
    out: dict[str, bool] = {}
    render = rs.render or {}
    for key in RENDER_TEXTS:
        value = render.get(key)
        if isinstance(value, dict):
            out.update({f"render.{key}.{sub}": True for sub in value})
        elif value is not None:
            out[f"render.{key}"] = True
    for key in RENDER_WORDY:
        if render.get(key) is not None:
            out[f"render.{key}"] = wordy(render[key])
    if isinstance(render.get("grid"), dict) and "cell" in render["grid"]:
        out["render.grid.cell"] = False
    for i, mark in enumerate(render.get("marks") or ()):
        if isinstance(mark, dict):
            out.update({f"render.marks.{i + 1}.{k}": wordy(mark[k]) for k in MARK_TEXTS if k in mark})
    for name, spec in rs.cards.items():
        if not isinstance(spec, dict):
            continue
        out.update({f"cards.{name}.{k}": k == "text" for k in CARD_TEXTS if k in spec})
        for aname, aspec in (spec.get("actions") or {}).items():
            if isinstance(aspec, dict):
                out.update({f"cards.{name}.actions.{aname}.{k}": True for k in ACTION_TEXTS if k in aspec})
    for name, spec in rs.actions.items():
        if isinstance(spec, dict):
            out.update({f"actions.{name}.{k}": True for k in ACTION_TEXTS if k in spec})
    shown = render.get("zones")
    for name, spec in rs.zones.items():
        title = (spec or {}).get("title") if isinstance(spec, dict) else None
        listed = name in shown if isinstance(shown, list) else name != "box"
        out[f"zones.{name}.title"] = listed and wordy(title or name)
    turn = (rs.flow or {}).get("turn") or {}
    steps = [s for s in turn.get("steps") or () if isinstance(s, dict) and isinstance(s.get("name"), str)]
    for s in steps:
        out[f"flow.turn.steps.{s['name']}.title"] = len(steps) > 1 and wordy(s.get("title") or s["name"])
    for w in turn.get("windows") or ():
        if isinstance(w, dict) and isinstance(w.get("name"), str):
            out[f"flow.turn.windows.{w['name']}.title"] = wordy(w.get("title") or w["name"])
    out["game.title"] = False
    if rs.meta.get("seat_names"):
        out["game.seat_names"] = False
    for section in RULE_SECTIONS:
        for path, text in _rule_texts(getattr(rs, section), section):
            out.update({f"{path}.{kind}": True for kind in said_texts(text)})
        out.update({path: True for path, _ in _reasons(getattr(rs, section), section)})
    for name in sorted(table_functions(rs)):
        spec = rs.functions[name]
        if isinstance(spec, dict) and isinstance(spec.get("expr"), str):
            out[f"functions.{name}.expr"] = _words_in_literals(spec["expr"])
    return out


def text_paths(rs, *, required_only: bool = True) -> list[str]:
    """Every text of `rs` a language must give (with `required_only=False`, also those it may
    keep as they are: titles, names, short codes)."""
    return [path for path, required in text_entries(rs).items() if required or not required_only]


def text_values(rs) -> dict:
    """The English (or current) value of every text of `rs`, by path (text_entries)."""
    out = {}
    said = {f"{p}.{k}": v for s in RULE_SECTIONS for p, t in _rule_texts(getattr(rs, s), s)
            for k, v in said_texts(t).items()}
    for path in text_entries(rs):
        parts = path.split(".")
        if path in said:
            out[path] = said[path]
            continue
        node = rs.meta if parts[0] == "game" else getattr(rs, parts[0])
        for part in parts[1:]:
            if isinstance(node, list):
                node = next((x for x in node if isinstance(x, dict) and x.get("name") == part), None) \
                    if not part.isdigit() else node[int(part) - 1]
            else:
                node = node.get(part) if isinstance(node, dict) else None
        out[path] = node if node is not None else parts[-2]  # a title not written: the name
    return out


def variant_text_paths(base, varied) -> list[str]:
    """The texts a language must give for a variant (`varied`: the game with it, `base`: without):
    those it adds, and those it writes otherwise."""
    before = text_values(base)
    after = text_values(varied)
    return [p for p in text_paths(varied) if p not in before or str(before[p]) != str(after[p])]


def read_texts(root: Path, lang: str, errors: ErrorList, *, variant: str | None = None):
    """The `texts:` mapping of a language's file (None without one), or with `variant` the texts
    it gives for that variant (`variants: {NAME: {...}}`); its problems in `errors`."""
    path = texts_file(root, lang)
    if not path.is_file():
        return None
    display = display_path(path)
    doc = load_yaml(path, display)
    problems = schema_problems(doc, "texts", display)
    if problems:
        errors.problems.extend(problems)
        return None
    if variant is not None:
        return (doc.get("variants") or {}).get(variant)
    return doc["texts"]


HINT = ("a text path: render.KEY, render.narrate.KEY, render.marks.N.symbol|legend, cards.NAME.title|text, "
        "actions.NAME.label|text, cards.NAME.actions.ACTION.label|text, ....require.N.reason, zones.NAME.title, "
        "flow.turn.steps|windows.NAME.title, game.title|seat_names, RULE.log|prompt (the sentences of the "
        "rule text at RULE, in order), functions.NAME.expr (a function only the table's texts call)")


def overlay_texts(rs, lang: str, errors: ErrorList, *, variant: str | None = None) -> None:
    """Replace the English texts of `rs` by those of `texts.<lang>.yaml`, when the game has one
    (with `variant`, the texts it gives for that variant, once it is applied). A path that names
    no text of the game is a problem at its line (a stale or misspelt entry)."""
    texts = read_texts(rs.root, lang, errors, variant=variant)
    if not texts:
        return
    known = text_entries(rs)
    said = {f"{p}.{k}": (p, k) for s in RULE_SECTIONS for p, t in _rule_texts(getattr(rs, s), s) for k in said_texts(t)}
    for path in texts:
        if path not in known:
            errors.add(key_location(texts, path), f"`{path}` is not a text of {rs.title}"
                       + (f" with the variant {variant}" if variant else ""), hint=HINT)
            continue
        if path in said:
            _overlay_said(rs, texts, path, *said[path], errors)
        else:
            _overlay(rs, texts, path)


def _container(rs, parts: list[str]):
    """The mapping holding the last part of a text path, made this ruleset's own on the way
    (the variants' way of changing content, origins kept)."""
    from .variants import _owned
    if parts[0] == "game":
        rs.meta = copy.copy(rs.meta)  # the file's own mapping stays as it was read
        return rs.meta, parts[1]
    container, key = rs.__dict__, parts[0]
    for part in parts[1:]:
        node = _owned(container, key)
        if isinstance(node, list):
            index = next((i for i, item in enumerate(node) if isinstance(item, dict) and item.get("name") == part),
                         None)
            if index is None:  # a list without names: its items by number
                index = int(part) - 1
            container, key = node, index
        else:
            container, key = node, part
    return container, key


def _overlay(rs, texts, path: str) -> None:
    from .variants import _set
    container, key = _container(rs, str(path).split("."))
    if isinstance(container, list):
        container[key] = texts[path]
    else:
        _set(container, key, texts[path], (texts, path))
    if path == "game.title":
        rs.title = str(texts[path])


def _overlay_said(rs, texts, path: str, text_path: str, kind: str, errors: ErrorList) -> None:
    """A rule text's sentences replaced in order; the rule keeps its place (a mistake in a
    sentence is reported at the rule's line)."""
    from .variants import _set
    given = texts[path]
    container, key = _container(rs, text_path.split("."))
    original = container[key]
    wanted = said_texts(str(original)).get(kind, [])
    if not isinstance(given, list) or len(given) != len(wanted) or any("\n" in str(s) for s in given):
        errors.add(key_location(texts, path), f"`{path}` gives {len(given) if isinstance(given, list) else 'no list of'} "
                   f"sentences for the {len(wanted)} `{kind}` of that rule text",
                   hint="a list of one-line sentences, in the order the rule text writes them")
        return
    node, rkey = resolve_parent(container, key) if not isinstance(container, list) else (container, key)
    shadow = copy.copy(node)  # the rule's own mapping, its positions kept, holding the translated text
    shadow[rkey] = type(original)(_with_said(str(original), kind, [str(s) for s in given]))
    if isinstance(container, list):
        container[key] = shadow[rkey]
    else:
        _set(container, key, shadow[rkey], (shadow, rkey))
