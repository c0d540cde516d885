"""Dark Agent's base rules name no agency and no equipment card (issue 10): every power lives on
its card (cards.yaml), and the base files only expose hooks (events, modifiable functions,
replaceable procedures, action groups)."""
from __future__ import annotations

import re
from pathlib import Path

from interpreter.loader import load_ruleset

GAME = Path(__file__).resolve().parents[2] / "content" / "dark-agent"
CARD_FILES = {"cards.yaml"}  # the cards, with their powers


def card_names(rs) -> set[str]:
    """Each agency's and equipment's key, title, and the key written as words (lance roquettes)."""
    names = set()
    for key, spec in rs.cards.items():
        if {"agency", "equipment"} & set(spec.get("tags") or []):
            names |= {key, key.replace("_", " "), key.replace("_", "-"), str(spec.get("title", "")).split(" — ")[0]}
    return {n for n in names if n}


def test_no_base_rule_file_names_an_agency_or_an_equipment_card():
    names = card_names(load_ruleset(GAME))
    assert {"gilet", "lance-roquettes", "Allemagne", "coree_du_sud"} <= names
    pattern = re.compile(r"(?<![\w])(" + "|".join(re.escape(n) for n in sorted(names, key=len, reverse=True))
                         + r")(?![\w])", re.IGNORECASE)
    found = []
    for f in sorted(GAME.glob("*.yaml")):
        if f.name in CARD_FILES:
            continue
        for i, line in enumerate(f.read_text(encoding="utf-8").splitlines(), 1):
            m = pattern.search(line)
            if m:
                found.append(f"{f.name}:{i}: {m.group(0)!r} in {line.strip()}")
    assert not found, "base rules name cards:\n" + "\n".join(found)
