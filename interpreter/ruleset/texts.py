"""Content texts in another language: `texts.<lang>.yaml` beside a game's content files.

The content is written in English where it stands; a game's texts in another language live in one
file per language, each entry a text path and the text that replaces it when the table speaks that
language (schemas/texts.schema.json):

    texts:
      cards.coin.text: "Une pièce vaut 1 point (§2) ..."
      actions.take.label: "prendre {card.key} en {card.cell}"
      render.rules:
        - "§3 Un tour a 2 étapes :"

Only texts may be replaced (what `is_text_path` accepts): the render section's lines (and the grid's
cell template, when its cells hold words), a card's title and text, an action's label and text
(top-level or a card's own). A translated template
keeps its {expressions}, compiled as the English one is; its positions are those of the texts
file. `text_paths` lists the texts a game must give in every language (tests/test_i18n.py)."""
from __future__ import annotations

from pathlib import Path

from ..errors import ErrorList
from .paths import display_path
from .schema import schema_problems
from .yamlio import key_location, load_yaml

# the render entries a player reads (the grid's cell and the zones are drawing, not sentences)
RENDER_TEXTS = ("status", "legend", "rules", "narrate", "players", "private", "end", "points", "tiebreaks")
CARD_TEXTS = ("title", "text")
ACTION_TEXTS = ("label", "text")


def texts_file(root: Path, lang: str) -> Path:
    return Path(root) / f"texts.{lang}.yaml"


def is_texts_file(path: Path) -> bool:
    """A language's texts (`texts.fr.yaml`), not a content file."""
    return path.name.startswith("texts.") and path.name.count(".") == 2


def is_text_path(parts: list[str]) -> bool:
    """`parts` (a dotted path split) names a text that a language may replace."""
    n = len(parts)
    if parts == ["render", "grid", "cell"]:  # a cell's words, when it has some (optional)
        return True
    if n in (2, 3) and parts[0] == "render" and parts[1] in RENDER_TEXTS:
        return n == 2 or parts[1] == "narrate"
    if n == 3 and parts[0] in ("cards", "actions"):
        return parts[2] in (CARD_TEXTS if parts[0] == "cards" else ACTION_TEXTS)
    return n == 5 and parts[0] == "cards" and parts[2] == "actions" and parts[4] in ACTION_TEXTS


def text_paths(rs, *, required_only: bool = True) -> list[str]:
    """Every text of `rs` a language must give (with `required_only=False`, the titles too, which
    a language may keep as they are: names, short codes)."""
    out = []
    for key in RENDER_TEXTS:
        value = rs.render.get(key)
        if isinstance(value, dict):
            out += [f"render.{key}.{sub}" for sub in value]
        elif value is not None:
            out.append(f"render.{key}")
    if not required_only and isinstance(rs.render.get("grid"), dict) and "cell" in rs.render["grid"]:
        out.append("render.grid.cell")
    keys = ("text",) if required_only else CARD_TEXTS
    for name, spec in rs.cards.items():
        if not isinstance(spec, dict):
            continue
        out += [f"cards.{name}.{k}" for k in keys if k in spec]
        for aname, aspec in (spec.get("actions") or {}).items():
            if isinstance(aspec, dict):
                out += [f"cards.{name}.actions.{aname}.{k}" for k in ACTION_TEXTS if k in aspec]
    for name, spec in rs.actions.items():
        if isinstance(spec, dict):
            out += [f"actions.{name}.{k}" for k in ACTION_TEXTS if k in spec]
    return out


def read_texts(root: Path, lang: str, errors: ErrorList):
    """The `texts:` mapping of a language's file (None without one), its problems in `errors`."""
    path = texts_file(root, lang)
    if not path.is_file():
        return None
    display = display_path(path)
    doc = load_yaml(path, display)
    problems = schema_problems(doc, "texts", display)
    if problems:
        errors.problems.extend(problems)
        return None
    return doc["texts"]


def overlay_texts(rs, lang: str, errors: ErrorList) -> None:
    """Replace the English texts of `rs` by those of `texts.<lang>.yaml`, when the game has one.
    A path that names no text of the game is a problem at its line (a stale or misspelt entry)."""
    from .variants import _owned, _set  # the variants' way of changing content, origins kept
    texts = read_texts(rs.root, lang, errors)
    if not texts:
        return
    known = set(text_paths(rs, required_only=False))
    for path in texts:
        parts = str(path).split(".")
        if path not in known or not is_text_path(parts):
            errors.add(key_location(texts, path), f"`{path}` is not a text of {rs.title}",
                       hint="a text path: render.KEY, render.narrate.KEY, cards.NAME.title|text, "
                            "actions.NAME.label|text, cards.NAME.actions.ACTION.label|text")
            continue
        container, key = rs.__dict__, parts[0]
        for part in parts[1:]:
            container, key = _owned(container, key), part
        _set(container, key, texts[path], (texts, path))
