"""What the web table draws: the layout (static and public) and a seat's picture of a state.

- `layout(game, renderer)`: from the definition and its render declarations only, the same for
  every viewer of every table of that game: the grid (rows, columns, each cell's id and name), the
  other zones (id, title, owner seat, kind), the seats (number, key, name, colour), the faces of
  the cards that are public by definition (a card whose back is its name: seeing its back is
  seeing it), and the legend lines.
- `picture(game, renderer, st, seat)`: what `seat` (a seat index, or None for a spectator) sees of
  `st` now, from `game.observe(st, seat)` and the table renderer's texts drawn for that viewer
  (play/render.py): each place's cards (identified: id and name, with its face; else its back),
  marks, status lines, scores, whose turn, the pending choice's prompt. Nothing else is read from
  the state: two states that differ only in what the seat cannot see give the same picture.

Ids on the wire are the content's keys of zones and cards (what `observe` names); no screen shows
them. Every text is drawn by the renderer, in the table's language.
"""
from __future__ import annotations

import weakref

from ..play.render import PUBLIC
from .strings import page_strings

# A colour per seat, in seat order (the terminal's, as the page draws them).
SEAT_COLOURS = ["#c62828", "#1565c0", "#2e7d32", "#f9a825", "#6a1b9a", "#00838f", "#5d4037", "#ef6c00",
                "#37474f", "#ad1457"]


def viewer_of(seat: int | None) -> int:
    """The renderer's viewer for a seat index, or for a spectator (None: what the table sees)."""
    return PUBLIC if seat is None else seat


def _face(renderer, card) -> dict:
    """A card's face as the page draws it: its title, its rules text, its tags, and a colour (its
    owner's, else one per first tag, so that cards of a kind look alike)."""
    spec = renderer.catalog.ruleset.cards.get(card.name)
    text = " ".join(str(spec.get("text") or "").split()) if isinstance(spec, dict) else ""
    tags = sorted(card.tags)
    return {"title": renderer.titles.get(card.name) or card.name, "text": text, "tags": tags,
            "colour": _tag_colour(tags[0] if tags else card.name)}


# Card colours by kind (the first tag), picked from a soft palette by a stable hash of the tag.
TAG_COLOURS = ["#8d6e63", "#7986cb", "#4db6ac", "#ba68c8", "#aed581", "#ffb74d", "#90a4ae", "#f06292", "#4fc3f7",
               "#dce775"]


def _tag_colour(tag: str) -> str:
    return TAG_COLOURS[sum(tag.encode()) % len(TAG_COLOURS)]


def _back_title(renderer, back: str) -> str:
    """What the back of a card is called: the title of the card of that name when there is one,
    else the back's name in words (`red_card` -> `red card`); a seat's back (`agent.p1`, the
    default of per-player cards) by its kind only: the colour says whose it is."""
    kind = back.split(".")[0]
    return renderer.titles.get(kind) or kind.replace("_", " ")


def _public_by_definition(card) -> bool:
    """A card whose back is its own name: whoever sees its back knows it."""
    return card.back == card.name


def _zone_kind(z) -> str:
    if z.visibility == "owner":
        return "hand"
    if z.visibility in ("top", "hidden"):
        return "pile"
    return "row"


def layout(game, renderer) -> dict:
    """The table's static, public layout (see the module's docstring)."""
    m = game.catalog
    cells = [{"id": z.key, "name": renderer.cell_name(z), "row": r, "column": c}
             for (r, c), z in sorted(renderer.grid_cells.items())]
    grid = None
    if cells:
        grid = {"rows": sorted({c["row"] for c in cells}), "columns": sorted({c["column"] for c in cells}),
                "cells": cells}
    zones = [{"id": z.key, "title": renderer.names.zone(z), "owner": z.owner.id + 1 if z.owner is not None else None,
              "kind": "cell" if z.is_cell else _zone_kind(z)}
             for z in m.zones if z.key != "box" and z not in renderer.grid_cells.values()]
    seats = [{"seat": s.id + 1, "key": s.key, "name": s.name, "colour": SEAT_COLOURS[s.id % len(SEAT_COLOURS)]}
             for s in m.seats]
    faces, backs = {}, {}
    for c in m.cards:
        if _public_by_definition(c):
            faces.setdefault(c.name, _face(renderer, c))
        else:
            backs.setdefault(c.back, _back_title(renderer, c.back))
    if grid is not None:
        drawn = (m.ruleset.render or {}).get("grid") or {}
        grid["width"] = renderer.cell_width
        grid["loop"] = drawn.get("loop")  # a closed track (render.grid.loop, docs/content.md)
    start = game.new_game(seed=0)  # the legend is drawn for the whole table, from a fresh game
    return {"title": m.title, "grid": grid, "zones": zones, "seats": seats, "faces": faces, "backs": backs,
            "legend": renderer.legend(start, PUBLIC), "rules": list(renderer.rules_lines),
            "strings": page_strings()}


class _Static:
    """What every picture drawn by one renderer shares, whatever the viewer and the state: the
    board's cells and the other zones in order, and each card's face (its title, text and colour)."""

    def __init__(self, game, renderer):
        grid = set(z.id for z in renderer.grid_cells.values())
        self.cells = list(renderer.grid_cells.values())
        self.zones = [z for z in game.catalog.zones if z.key != "box" and z.id not in grid]
        self._renderer = weakref.ref(renderer)  # the key of _STATIC: held strongly here, it would never go
        self._faces: dict = {}

    def face(self, card) -> dict:
        held = self._faces.get(card.name)
        if held is None:
            held = self._faces[card.name] = _face(self._renderer(), card)
        return held


# renderer -> its _Static, while the renderer lives (a table's, a lesson's): nothing in the value may
# hold the renderer, or every table a server ever opened stays in memory with its game
_STATIC: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()


def _static(game, renderer) -> _Static:
    held = _STATIC.get(renderer)
    if held is None:
        held = _STATIC[renderer] = _Static(game, renderer)
    return held


def _card(c, sight, faces: dict, static: _Static) -> dict:
    """A card as `sight` sees it: identified (its id, its face's name, the title the renderer draws,
    its owner's seat number: its colour on the page), else only its back."""
    if not sight.sees(c):
        return {"back": c.back}
    if not _public_by_definition(c) and c.name not in faces:
        faces[c.name] = static.face(c)
    return {"id": c.key, "face": c.name, "title": sight.card(c, c.owner),
            "owner": c.owner.id + 1 if c.owner is not None else None}


def picture(game, renderer, st, seat: int | None) -> dict:
    """What `seat` (None: a spectator) sees of `st` now (see the module's docstring)."""
    m = game.catalog
    viewer = viewer_of(seat)
    sight = renderer.sight(st, viewer)
    static = _static(game, renderer)
    faces: dict = {}
    cards = m.cards

    def place(z) -> list:
        return [_card(cards[i], sight, faces, static) for i in st["z"][z.id]]

    cells = {}
    for z in static.cells:
        shown = place(z)
        owner = next((e["owner"] for e in shown if e.get("owner")), None)  # the cell takes its colour
        text = renderer.cell_text(st, sight, z)
        cells[z.key] = {"cards": shown, "text": "" if text == renderer.empty else text,
                        "marks": renderer.marks.on_cell(st, sight, z).strip(), "owner": owner}
    zones = {z.key: {"count": len(st["z"][z.id]), "cards": place(z)} for z in static.zones}
    scores = game.scores(st) if m.has_score else None
    current = game.current_player(st) if not game.is_terminal(st) else None
    players = []
    for s in m.seats:
        line = renderer.player_template.render(game, st, sight, me=s, bound=(s,)) \
            if renderer.player_template is not None else ""
        players.append({"seat": s.id + 1, "name": s.name, "current": s.id == current, "score": renderer.score_text(st, sight, s, scores), "line": line,
                        "marks": renderer.marks.on_player(st, sight, s)})
    return {"title": renderer.title(st, seat), "status": renderer.status_lines(st, sight), "cells": cells,
            "zones": zones, "players": players, "private": renderer.private_lines(st, sight),
            "turn": current + 1 if current is not None else None,
            "prompt": _prompt(game, st, seat),
            "over": game.is_terminal(st), "faces": faces}


def _prompt(game, st, seat: int | None) -> str | None:
    """The prompt of the choice pending for `seat`, as its observation writes it (None: no choice
    of this seat is pending: its observation is not drawn for nothing)."""
    if seat is None or not st["pending"] or st["pending"][-1]["player"] != seat:
        return None
    pending = game.observe(st, seat).get("pending")
    return pending["prompt"] if pending else None


__all__ = ["SEAT_COLOURS", "layout", "picture", "viewer_of"]
