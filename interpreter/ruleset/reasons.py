"""A designer's check: every requirement tells a refused player why, in words they can read.

A requirement (`require:` of an action, a group or a card's action) and a condition of a
parameter (`reasons:`) refuse moves; the player is then told its `reason` (engine/legality.py). A
reason a player can read is written (without one the player reads nothing useful), cites the
rulebook's section (§), and reads as a sentence, not as rules text: outside its {fields} it holds
no name_with_underscores and no comparison. `interpret validate` warns of the others, and a test
holds every bundled game and variant to it.
"""
from __future__ import annotations

import re

from ..errors import Problem
from .spec import where_of

_CODE = re.compile(r"[a-z0-9]+_[a-z0-9_]+|==|!=|<=|>=|\bme\.")  # rules text, outside the {fields}


def _requirements(spec):
    """(where it is said, what it belongs to, RequireSpec) of every requirement and condition."""
    actions = [(f"action `{name}`", a) for name, a in spec.actions.items()]
    for cname, card in spec.cards.items():
        actions += [(f"action `{a.name}` of card `{cname}`", a) for a in card.actions]
    for what, a in actions:
        for req in a.require:
            yield what, req
        for p in a.params:
            for req in p.reasons:
                yield f"{what}, parameter `{p.name}`", req


def unreadable_reasons(spec) -> list[Problem]:
    """The requirements of the typed content `spec` (ruleset/spec.ContentSpec) whose refusal a
    player could not read: no reason, or rules text in it."""
    out = []
    for what, req in _requirements(spec):
        where = where_of(req.node, req.key)
        if not req.reason:
            out.append(Problem(where, f"{what}: the requirement `{req.check}` has no reason: a player it refuses "
                                      "is told nothing they can read",
                               hint="write it as `{check: ..., reason: \"...\"}`, a sentence citing the rulebook (§)"))
            continue
        code = _CODE.search(re.sub(r"\{[^{}]*\}", "", str(req.reason)))
        if code:
            out.append(Problem(where, f"{what}: the reason {str(req.reason)!r} reads as rules text "
                                      f"(`{code.group(0)}`), not as a sentence",
                               hint="say it in the rulebook's words; a value goes in {braces}"))
    return out


def uncited_reasons(spec) -> list[Problem]:
    """The reasons of the typed content `spec` that cite no section of the rulebook (§)."""
    return [Problem(where_of(req.node, req.key), f"{what}: the reason {str(req.reason)!r} cites no section "
                                                 "of the rulebook (§)",
                    hint="end it with the section it comes from, as `(§6.1)`")
            for what, req in _requirements(spec) if req.reason and "§" not in str(req.reason)]


__all__ = ["uncited_reasons", "unreadable_reasons"]
