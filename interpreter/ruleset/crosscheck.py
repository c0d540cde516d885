"""Checks of a game's content against itself, once its files (and variants) are read: what the
schema cannot see and no rule reads, so that nothing else would ever report it.
- a tag written on one card or zone only, that no rule, declaration or other text names, and
  that is close to a tag in use (on several cards or zones, declared, or read): a misspelling
  (`tags: [equipement]`);
- a card property whose type differs from every other card's (`defense: "high"` where all
  the others are numbers);
- an option whose default is outside its own bounds or choices;
- a card's `back` written on that card only and close to a back in use (on several cards, or a
  card's first tag, the back of a card that declares none): a misspelling that lets every seat
  tell that card apart face down (`back: agnet` beside cards whose back is `agent`);
- a grid's `join_same` naming an attribute no cell has (then no edge is made at all).
Each is a problem at the value, with did-you-mean where there is one to give. The names written
as texts in rules (an edge's kind, a card's name...) are checked as they are compiled
(lang/literals.py).
"""
from __future__ import annotations

import difflib
import re

from ..errors import ErrorList, did_you_mean
from .yamlio import SourceText, resolve_parent, to_plain, value_location

_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_-]*")


def check_content(rs, errors: ErrorList) -> None:
    """Every problem of the three kinds above, added to `errors`."""
    _check_tags(rs, errors)
    _check_props(rs, errors)
    _check_option_defaults(rs, errors)
    _check_backs(rs, errors)
    _check_join_same(rs, errors)


# ---- tags ------------------------------------------------------------------------------------

def _tag_lists(rs):
    """(tag, the list holding it, its index) for every tag written on a card, a zone or a row
    of the board's grid."""
    holders = [spec for spec in list(rs.cards.values()) + list(rs.zones.values()) if isinstance(spec, dict)]
    grid = rs.board.get("grid") if isinstance(rs.board, dict) else None
    if isinstance(grid, dict) and isinstance(grid.get("rows"), list):
        holders += [row for row in grid["rows"] if isinstance(row, dict)]
    for spec in holders:
        tags = spec.get("tags")
        if isinstance(tags, list):
            node, key = resolve_parent(spec, "tags")
            written = node[key] if isinstance(node, dict) and key in node else tags
            for i, tag in enumerate(tags):
                if isinstance(tag, str):
                    yield tag, written if written is tags else tags, i


def _words(value, out: set, skip) -> None:
    """Every word of every text and key in `value` (a section), the tag lists (`skip`) left out."""
    if isinstance(value, dict):
        for k, v in value.items():
            out.update(_WORD.findall(str(k)))
            if not (k == "tags" and isinstance(v, list)):
                _words(v, out, skip)
    elif isinstance(value, list):
        for v in value:
            _words(v, out, skip)
    elif isinstance(value, str):
        out.update(_WORD.findall(value))
    elif isinstance(value, SourceText):
        out.update(_WORD.findall(value.text))
    elif hasattr(value, "src") and isinstance(getattr(value, "src", None), SourceText):
        out.update(_WORD.findall(value.src.text))


def _check_tags(rs, errors: ErrorList) -> None:
    written: dict = {}  # tag -> [(list, index)]
    for tag, holder, i in _tag_lists(rs):
        written.setdefault(tag, []).append((holder, i))
    if not written:
        return
    words: set = set(rs.extra_tags)
    for section in (rs.constants, rs.cards, rs.zones, rs.functions, rs.procedures, rs.events, rs.actions,
                    rs.option_specs, rs.board, rs.flow, rs.scoring, rs.render, rs.analysis, rs.triggers,
                    rs.invariants, rs.vars):
        _words(section, words, "tags")
    learnt = rs.root / "evaluation.json"  # a learnt evaluation reads tags too (its features)
    if learnt.is_file():
        words.update(_WORD.findall(learnt.read_text(encoding="utf-8", errors="replace")))
    established = {t for t, places in written.items() if len(places) > 1 or t in words}
    for tag, places in written.items():
        if tag in established:
            continue
        holder, i = places[0]
        # close to a tag in use (not one beside it on the same card: a card of both kinds)
        others = [t for t in established if t not in holder]
        close = difflib.get_close_matches(tag, sorted(others), n=1, cutoff=0.75)
        if close:
            errors.add(value_location(holder, i), f"tag `{tag}` is written here only, and nothing reads it",
                       hint=f"did you mean `{close[0]}`? (a tag of its own is declared under `tags:`)")


# ---- card properties --------------------------------------------------------------------------

_TYPE_WORDS = {bool: "yes/no", int: "a number", float: "a number", str: "a text", list: "a list", dict: "a mapping"}


def _check_props(rs, errors: ErrorList) -> None:
    by_prop: dict = {}  # property -> [(card, type, props node)]
    for name, spec in rs.cards.items():
        props = spec.get("props") if isinstance(spec, dict) else None
        if not isinstance(props, dict):
            continue
        for prop, value in props.items():
            if value is not None:
                by_prop.setdefault(prop, []).append((name, type(to_plain(value)), props))
    for prop, found in by_prop.items():
        types = [_TYPE_WORDS.get(t, t.__name__) for _, t, _ in found]
        if len(found) < 3:
            continue
        odd = [k for k, t in enumerate(types) if types.count(t) == 1]
        if len(odd) != 1 or len(set(types)) != 2:
            continue
        card, _, props = found[odd[0]]
        usual = next(t for t in types if t != types[odd[0]])
        node, key = resolve_parent(props, prop)
        errors.add(value_location(node, key), f"property `{prop}` of card `{card}` is {types[odd[0]]}, and every "
                   f"other card's `{prop}` is {usual}",
                   hint=f"write {usual} (the rules read `{prop}` the same way on every card)")


# ---- options ----------------------------------------------------------------------------------

def _check_option_defaults(rs, errors: ErrorList) -> None:
    for name, spec in rs.option_specs.items():
        if not isinstance(spec, dict) or "default" not in spec:
            continue
        default = to_plain(spec.get("default"))
        lo, hi, choices = spec.get("min"), spec.get("max"), spec.get("choices")
        node, key = resolve_parent(spec, "default")
        where = value_location(node, key)
        if isinstance(choices, list) and default not in [to_plain(c) for c in choices] and not (
                type(default) is int and (lo is not None or hi is not None)):
            errors.add(where, f"option `{name}`: its default {default!r} is not one of its choices",
                       hint="choices: " + ", ".join(map(str, choices)))
        elif type(default) is int and ((type(lo) is int and default < lo) or (type(hi) is int and default > hi)):
            errors.add(where, f"option `{name}`: its default {default} is outside its own bounds",
                       hint=f"from {lo if lo is not None else '...'} to {hi if hi is not None else '...'}")


# ---- backs and the board's attributes ---------------------------------------------------------

def _check_backs(rs, errors: ErrorList) -> None:
    written: dict = {}  # back -> [card spec]
    established = set()
    for spec in rs.cards.values():
        if not isinstance(spec, dict):
            continue
        back, tags = spec.get("back"), spec.get("tags")
        if isinstance(back, str):
            written.setdefault(back, []).append(spec)
        elif isinstance(tags, list) and tags and isinstance(tags[0], str):
            established.add(tags[0])  # the back of a card that declares none
    established |= {b for b, specs in written.items() if len(specs) > 1}
    for back, specs in written.items():
        if back in established:
            continue
        close = difflib.get_close_matches(back, sorted(established), n=1, cutoff=0.75)
        if close:
            node, key = resolve_parent(specs[0], "back")
            errors.add(value_location(node, key), f"back `{back}` is written on this card only: face down, "
                       "every seat can tell it from the others",
                       hint=f"did you mean `{close[0]}`? (a back of its own is a card every seat recognises)")


def _check_join_same(rs, errors: ErrorList) -> None:
    board = rs.board if isinstance(rs.board, dict) else {}
    grid = board.get("grid")
    same = grid.get("join_same") if isinstance(grid, dict) else None
    if not isinstance(same, str):
        return
    known = {"row", "column"}
    ring = board.get("ring")
    parts = list(grid.get("rows") or []) + list(board.get("cells") or [])
    if isinstance(ring, dict):
        known.add("index")
        parts.append(ring)
    for part in parts:
        attrs = part.get("attrs") if isinstance(part, dict) else None
        if isinstance(attrs, dict):
            known.update(str(k) for k in attrs)
    if same not in known:
        node, key = resolve_parent(grid, "join_same")
        errors.add(value_location(node, key), f"`join_same: {same}`: no cell has an attribute `{same}`, "
                   "so it leaves out no edge (every neighbour is joined)", hint=did_you_mean(same, known) or
                   "attributes of the cells: " + ", ".join(sorted(known)))


__all__ = ["check_content"]
