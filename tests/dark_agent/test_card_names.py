"""Dark Agent's base rules name no agency, no equipment and no objective card (issue 10): every
power lives on its card (cards.yaml), and the base files only expose hooks (events, modifiable
functions, replaceable procedures, action groups)."""
from __future__ import annotations

import re
from pathlib import Path

from interpreter.ruleset.loader import load_ruleset

GAME = Path(__file__).resolve().parents[2] / "content" / "dark-agent"
CARD_FILES = {"cards.yaml"}  # the cards, with their powers


def card_names(rs, tags=("agency", "equipment")) -> set[str]:
    """Each agency's and equipment's key, title, and the key written as words (lance roquettes);
    each objective's key, the key as words, and the name its powers give (`props.power`: its
    titles, INVUL or SPECIAL, are abbreviations that clash with common words)."""
    names = set()
    for key, spec in rs.cards.items():
        if (set(tags) - {"objective"}) & set(spec.get("tags") or []):
            names |= {key, key.replace("_", " "), key.replace("_", "-"), str(spec.get("title", "")).split(" — ")[0]}
        if "objective" in tags and "objective" in (spec.get("tags") or []):
            names |= {key, key.replace("_", " "), key.replace("_", "-"), str((spec.get("props") or {}).get("power", ""))}
    return {n for n in names if n}


def base_files_naming(names, display=False):
    """Lines of the base files naming one of `names` (with display=True, render.yaml too)."""
    pattern = re.compile(r"(?<![\w])(" + "|".join(re.escape(n) for n in sorted(names, key=len, reverse=True))
                         + r")(?![\w])", re.IGNORECASE)
    found = []
    for f in sorted(GAME.glob("*.yaml")):
        if f.name in CARD_FILES or (f.name == "render.yaml" and not display) or f.name.startswith("texts."):
            continue  # texts.fr.yaml: the texts of render.yaml and of the cards, in French
        for i, line in enumerate(f.read_text(encoding="utf-8").splitlines(), 1):
            m = pattern.search(line)
            if m:
                found.append(f"{f.name}:{i}: {m.group(0)!r} in {line.strip()}")
    return found


def test_no_base_rule_file_names_an_agency_or_an_equipment_card():
    names = card_names(load_ruleset(GAME))
    assert {"gilet", "lance-roquettes", "Allemagne", "coree_du_sud"} <= names
    found = base_files_naming(names, display=True)
    assert not found, "base rules name cards:\n" + "\n".join(found)


def test_no_base_rule_file_names_an_objective_card():
    """§10: the objectives' field and permanent powers are their cards' powers and actions. The
    legend and end screen of render.yaml print the objectives' titles and names: display, not rules."""
    names = card_names(load_ruleset(GAME), tags=("objective",))
    assert {"prisonnier", "centre controle", "objectif_special", "casier"} <= names
    found = base_files_naming(names)
    assert not found, "base rules name objective cards:\n" + "\n".join(found)
