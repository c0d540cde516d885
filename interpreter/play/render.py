"""Drawing a state as plain text for the terminal, from the content's `render:` section.

Nothing here knows a game. The content says what to show, in rules-language
templates (text with `{expressions}`), compiled once per match:

    render:
      status: ["goal: {goal}"]          # lines under the title (`me` is the viewer)
      grid:                             # the board cells that have `row` and `column`
        cell: "{cell.card.value}"       # a cell's text (`cell` bound); default: its cards
        width: 8                        # widest column, longer text is cut
        empty: "."                      # an empty cell
      players: "bonus {p.bonus}"        # a line per seat (`p` bound)
      zones: [bag, purse]               # zones listed, in this order (default: all but cells)
      card: "{title}{card.value}"       # a card (`card`, and `title`: its title or name)
      private: ["purse value: {sum(c.value for c in me.purse.cards)}"]  # the viewer only

Hidden information: every screen is drawn for a viewer (a seat, or None for an
all-seeing spectator such as `play --auto`). Which cards the viewer can identify
comes from interpreter.information.views when that module is there, else from each zone's
declared visibility. A card the viewer cannot see is drawn as "?" wherever it
appears, in zone lists and in the content's templates alike.
"""
from __future__ import annotations

from ..errors import ErrorList
from ..i18n import _, ngettext
from ..engine.guard import guard_methods
from ..information.labels import DisplayNames, Reader, action_label
from ..core.model import Card, Seat, Zone, label_of
from .causes import Narrations
from .marks import Marks
from .templates import HIDDEN, Template, TextFailures, compile_template


def _breakdown_template(game, lines, i, errors: ErrorList):
    """(per player, template) of the i-th line of `render.breakdown`: a text, or {per_player: TEXT}."""
    if isinstance(lines[i], dict):
        return True, compile_template(game, lines[i], "per_player", names=("p",), errors=errors)
    return False, compile_template(game, lines, i, names=(), errors=errors)


# ---- what a viewer may see ------------------------------------------------------------------

def _visible_cards_function():
    try:
        from ..information.views import visible_cards  # the one definition of what a seat sees, when present
    except ImportError:
        return None
    return visible_cards


PUBLIC = -1  # a viewer who sees only what the whole table sees (hot seat, between players)


class Memory:
    """What one viewer saw face up at the top of a pile (`visibility: top`, a discard) and is still
    in it, under other cards since: it was played face up, the table remembers it. A card that never
    showed at the top (put under the pile unseen) stays unknown."""

    def __init__(self, game):
        self.piles = {z.id: {} for z in game.catalog.zones if z.visibility == "top"}

    def see(self, st) -> None:
        for zid, seen in self.piles.items():
            ids = st["z"][zid]
            inside = set(ids)
            for cid in [c for c in seen if c not in inside]:  # gone (drawn, shuffled back): forgotten
                del seen[cid]
            if ids:
                seen[ids[0]] = True

    def known(self, st) -> set:
        out = set()
        for zid, seen in self.piles.items():
            inside = set(st["z"][zid])
            out.update(c for c in seen if c in inside)
        return out


class Sight:
    """What one viewer can identify in a state. `viewer` None sees everything; PUBLIC sees what
    every player sees."""

    def __init__(self, game, st, viewer: int | None, *, renderer: "Renderer"):
        self.game = game
        self.st = st
        self.viewer = viewer
        self.renderer = renderer
        self.failures = renderer.text_failures  # what failed while drawing, for the designer (templates.py)
        self._in_card = False  # drawing a card through its template: nested cards are plain titles
        self._visible: set[int] | None = None  # card ids; None: decide from zone visibility
        if viewer is not None:
            visible_cards = _visible_cards_function()
            if visible_cards is not None:
                by_key = game.catalog.card_by_key
                seat = None if viewer == PUBLIC else viewer  # views.py: None is a spectator there
                self._visible = {by_key[k].id for k in visible_cards(game, st, seat)}
            remembered = renderer.memory.get(viewer)
            if remembered and self._visible is not None:
                self._visible |= remembered.known(st)

    def __contains__(self, cid) -> bool:
        """Whether the viewer sees the card of id `cid` (what dsl/templates.Piece asks)."""
        return self.sees(self.game.catalog.cards[cid])

    def sees(self, card: Card) -> bool:
        if self.viewer is None:
            return True
        if self._visible is not None:
            return card.id in self._visible
        zid = self.st["loc"][card.id]
        if zid < 0:
            return False
        z = self.game.catalog.zones[zid]
        vis = z.visibility
        if vis == "public":
            return True
        if vis == "owner":
            return z.owner is not None and z.owner.id == self.viewer
        if vis == "top":
            ids = self.st["z"][zid]
            return bool(ids) and ids[0] == card.id
        return False

    def zone(self, z: Zone) -> tuple[list, int]:
        """(the zone's cards in order, a card the viewer cannot see as None; how many there are)."""
        ids = self.st["z"][z.id]
        cards = self.game.catalog.cards
        shown = [cards[i] if self.sees(cards[i]) else None for i in ids]
        return shown, len(ids)

    def card(self, c: Card, among=None) -> str:
        """How `c` is drawn; `among` is the seat owning the zone it is listed in (no need to name it)."""
        if not self.sees(c):
            return HIDDEN
        r = self.renderer
        title = r.titles.get(c.name) or c.name
        if r.card_template is not None and not self._in_card:
            self._in_card = True
            try:
                return r.card_template.render(self.game, self.st, self, bound=(c, title))
            finally:
                self._in_card = False
        if c.owner is not None and c.owner is not among:
            return f"{title}/{c.owner.key}"
        return title

    def text(self, v) -> str:
        t = type(v)
        if t is Card:
            return self.card(v)
        if t is Zone:
            return self.renderer.cell_name(v)
        if t is Seat:
            return v.name
        if v is None:
            return "-"
        if v is True:
            return _("yes")
        if v is False:
            return _("no")
        if t is float:
            return f"{v:g}"
        if t is list or t is tuple:
            return ", ".join(self.text(x) for x in v)
        return str(v)


# ---- the renderer ---------------------------------------------------------------------------

def round_name(st) -> str:
    """`setup` while the game is being set up, else `round N` (in the table's language)."""
    return _("setup") if st["flow"]["phase"] == "setup" else _("round {n}").format(n=st["flow"]["round"])


def _fit(text: str, width: int) -> str:
    return text if len(text) <= width else text[: max(width - 1, 0)] + "…"


class Renderer:
    """The `render:` section of a game compiled for one match; draws screens for a viewer."""

    def __init__(self, game):
        self.game = game
        m = game.catalog
        self.catalog = m
        spec = m.ruleset.render or {}
        errors = ErrorList()
        self.text_failures = TextFailures()
        self.names = DisplayNames(m)  # the content's titles of cards, zones and cells
        steps = ((m.ruleset.flow or {}).get("turn") or {}).get("steps") or ()
        self.step_titles = {str(s["name"]): str(s["title"]) for s in steps if isinstance(s, dict) and s.get("title")}
        self.titles = self.names.cards
        self.card_template = compile_template(game, spec, "card", names=("card", "title"), errors=errors) if "card" in spec else None
        grid = spec.get("grid") or {}
        self.cell_template = compile_template(game, grid, "cell", names=("cell",), errors=errors) if "cell" in grid else None
        self.cell_width = int(grid.get("width", 12))
        self.empty = str(grid.get("empty", "."))
        self.player_template = compile_template(game, spec, "players", names=("p",), errors=errors) if "players" in spec else None
        self.status = [compile_template(game, spec["status"], i, names=(), errors=errors) for i in range(len(spec.get("status") or []))]
        self.private = [compile_template(game, spec["private"], i, names=(), errors=errors)
                        for i in range(len(spec.get("private") or []))]
        self.zone_names = self._zone_names(spec, errors)
        self.narrations = Narrations(game, spec.get("narrate"), errors)
        self.marks = Marks(game, spec.get("marks"), errors)
        self.legend_lines = [compile_template(game, spec["legend"], i, names=(), errors=errors)
                             for i in range(len(spec.get("legend") or []))]
        self.rules_lines = [str(x) for x in spec.get("rules") or []]
        self.end_lines = [compile_template(game, spec["end"], i, names=(), errors=errors)
                          for i in range(len(spec.get("end") or []))]
        self.points_template = compile_template(game, spec, "points", names=("p",), errors=errors) \
            if "points" in spec else None
        self.score_template = compile_template(game, spec, "score", names=("p",), errors=errors) \
            if "score" in spec else None
        self.breakdown_lines = [_breakdown_template(game, spec["breakdown"], i, errors)
                                for i in range(len(spec.get("breakdown") or []))]
        self.memory: dict = {}  # viewer -> Memory, for the viewers whose play is narrated (remember())
        self._cells = None  # board cell id -> its coordinates (cell_name), built when first needed
        errors.raise_if_any()
        self.grid_cells = {}
        for z in m.cells:
            r, c = z.attrs.get("row"), z.attrs.get("column")
            if isinstance(r, int) and isinstance(c, int):
                self.grid_cells[(r, c)] = z
        self.loose_cells = [z for z in m.cells if z not in self.grid_cells.values()]

    def _zone_names(self, spec, errors: ErrorList) -> list[str]:
        m = self.catalog
        known = [z.key for z in m.zones if z.owner is None and not z.is_cell] + list(m.player_zones)
        names = spec.get("zones")
        if names is None:
            return [k for k in known if k != "box"]
        out = []
        for i, name in enumerate(names):
            if name not in known:
                from ..errors import did_you_mean
                errors.add(m.ruleset.where_of(names, i), f"render: unknown zone `{name}`",
                           hint=did_you_mean(str(name), known) or "zones: " + ", ".join(known))
            else:
                out.append(name)
        return out

    def narrate(self, st, viewer: int | None, events, i: int, *, causes=None, me: int | None = None) -> str | None:
        """The i-th of a decision's `events` told as `viewer` may know it (cards it cannot see are
        "?"), worded by its cause (`causes`: Step.causes) when the content says how (causes.py), or
        None; `me` is the seat whose move caused it."""
        if events[i][0] not in self.narrations.entries:  # most events are not told: no sight to build
            return None
        return self.narrations.tell(st, self.sight(st, viewer), events, i, causes=causes,
                                    me=self.catalog.seats[me] if me is not None else None)

    def legend(self, st, viewer: int | None = None) -> list[str]:
        """The content's legend lines, then the seats and their marks."""
        sight = self.sight(st, viewer)
        lines = [t.render(self.game, st, sight) for t in self.legend_lines if t is not None]
        lines += self.marks.legend(st, sight)
        seats = " · ".join(f"{s.key} = {s.name}" for s in self.catalog.seats)
        return lines + [_("seats: {seats}").format(seats=seats)]

    def end_reason(self, st) -> list[str]:
        sight = self.sight(st, None)
        return [t.render(self.game, st, sight) for t in self.end_lines if t is not None]

    def breakdown(self, st) -> list[str]:
        """The content's full count (`render.breakdown`), every card shown: a line per text, and a
        line per seat for a `{per_player: TEXT}` (`p` the seat)."""
        sight, seats = self.sight(st, None), self.catalog.seats
        return [t.render(self.game, st, sight, me=s, bound=(s,) if s is not None else ())
                for per_player, t in self.breakdown_lines if t is not None
                for s in (seats if per_player else (None,))]

    def points(self, st, seat: int) -> str | None:
        if self.points_template is None:
            return None
        return self.points_template.render(self.game, st, self.sight(st, None), me=self.catalog.seats[seat],
                                           bound=(self.catalog.seats[seat],))

    def remember(self, st, viewer: int | None) -> None:
        """After each step: what `viewer` saw at the top of the piles (see Memory)."""
        if viewer is None:
            return
        mem = self.memory.get(viewer)
        if mem is None:
            mem = self.memory[viewer] = Memory(self.game)
        mem.see(st)

    def sight(self, st, viewer: int | None) -> Sight:
        return Sight(self.game, st, viewer, renderer=self)

    # -- pieces of a screen

    def title(self, st, viewer: int | None = None) -> str:
        g, m = self.game, self.catalog
        parts = [m.title]
        if g.is_terminal(st):
            parts.append(_("round {n}, game over").format(n=st["flow"]["round"]))
        else:
            parts.append(round_name(st))
            p = g.current_player(st)
            if p is not None:
                who = m.seats[p]
                parts.append(_("your turn ({key})").format(key=who.key) if p == viewer
                             else _("{name} to play ({key})").format(name=who.name, key=who.key))
            step = g.step_name(st)
            if step and len(m.step_names) > 1 and st["flow"]["phase"] == "play":
                parts.append(_("step {step}").format(step=self.step_titles.get(step, step)))
            if st["flow"].get("win"):
                parts.append(_("window {window}").format(window=self.names.window(m.windows[st["flow"]["win"][0][0]].name)))
        return " · ".join(parts)

    def status_lines(self, st, sight: Sight) -> list[str]:
        me = self.catalog.seats[sight.viewer] if sight.viewer not in (None, PUBLIC) else None
        return [t.render(self.game, st, sight, me=me) for t in self.status if t is not None]

    def cell_text(self, st, sight: Sight, cell: Zone) -> str:
        if self.cell_template is not None:
            text = self.cell_template.render(self.game, st, sight, bound=(cell,), none="")
            return text if text.strip() else self.empty
        shown, n = sight.zone(cell)
        if not n:
            return self.empty
        return " ".join(sight.card(c) if c is not None else HIDDEN for c in shown)

    def board(self, st, sight: Sight) -> list[str]:
        if not self.grid_cells:
            lines = []
        else:
            rs = [r for r, _ in self.grid_cells]
            cs = [c for _, c in self.grid_cells]
            rows = list(range(min(rs), max(rs) + 1))  # every coordinate, so that none seems skipped
            cols = list(range(min(cs), max(cs) + 1))
            texts = {rc: _fit(self.cell_text(st, sight, z), self.cell_width) + self.marks.on_cell(st, sight, z)
                     for rc, z in self.grid_cells.items()}
            widths = {c: max([len(str(c))] + [len(texts[(r, c)]) for r in rows if (r, c) in texts]) for c in cols}
            rw = max(len(str(r)) for r in rows)
            rows = [r for r in rows if any((r, c) in texts for c in cols)]
            lines = [(" " * rw + " │ " + "  ".join(str(c).ljust(widths[c]) for c in cols)).rstrip()]
            lines.append("─" * rw + "─┼─" + "──".join("─" * widths[c] for c in cols))
            for r in rows:
                cells = "  ".join(texts.get((r, c), "").ljust(widths[c]) for c in cols)
                lines.append(str(r).rjust(rw) + " │ " + cells.rstrip())
        for z in self.loose_cells:
            lines.append(f"{self.names.zone(z)}: {self.cell_text(st, sight, z)}{self.marks.on_cell(st, sight, z)}")
        return lines

    def zone_text(self, sight: Sight, z: Zone) -> str:
        """A zone's contents: the cards the viewer can see, a count for the others ("?×29")."""
        shown, n = sight.zone(z)
        if n == 0:
            return _("empty")
        if not any(c is not None for c in shown):
            return ngettext("{n} card", "{n} cards", n).format(n=n)
        parts, hidden = [], 0
        for c in shown + [False]:
            if c is None:
                hidden += 1
                continue
            if hidden:
                parts.append(HIDDEN if hidden == 1 else f"{HIDDEN}×{hidden}")
                hidden = 0
            if c is not False:
                parts.append(sight.card(c, z.owner))
        return f"({n}) " + ", ".join(parts)

    def shared_zones(self, st, sight: Sight) -> list[str]:
        m = self.catalog
        rows = [(self.names.zone(m.zone_by_name[name]), self.zone_text(sight, m.zone_by_name[name])) for name in self.zone_names
                if name in m.zone_by_name]
        if not rows:
            return []
        w = max(len(n) for n, _ in rows)
        return [f"{n.ljust(w)}  {t}" for n, t in rows]

    def players(self, st, sight: Sight) -> list[str]:
        g, m = self.game, self.catalog
        scores = g.scores(st) if m.has_score else None
        current = g.current_player(st)
        names = [_("{key} {name} (you)").format(key=s.key, name=s.name) if s.id == sight.viewer
                 else f"{s.key} {s.name}" for s in m.seats]
        nw = max(len(n) for n in names)
        lines = []
        families = [n for n in self.zone_names if n in m.player_zones]
        for s in m.seats:
            mark = "▶" if s.id == current else " "
            line = f"{mark} {names[s.id].ljust(nw)}"
            score = self.score_text(st, sight, s, scores)
            if score:
                line += "  " + _("score {score:>3}").format(score=score)
            if self.player_template is not None:
                line += "  " + self.player_template.render(g, st, sight, me=s, bound=(s,))
            marked = self.marks.on_player(st, sight, s)
            if marked:
                line += "  " + marked
            lines.append(line.rstrip())
            for fam in families:
                z = m.player_zones[fam][s.id]
                if st["z"][z.id]:
                    lines.append("    " + _("{zone}: {cards}").format(zone=self.names.zone(z), cards=self.zone_text(sight, z)))
        return lines

    def score_text(self, st, sight: Sight, seat: Seat, scores) -> str:
        """A seat's score on the board: the content's `render.score` (empty: not shown, a score
        that means nothing yet), else the score."""
        if self.score_template is not None:
            return self.score_template.render(self.game, st, sight, me=seat, bound=(seat,), none="")
        return sight.text(scores[seat.id]) if scores is not None else ""

    def private_lines(self, st, sight: Sight) -> list[str]:
        if sight.viewer is None or sight.viewer == PUBLIC:
            return []
        me = self.catalog.seats[sight.viewer]
        return [t.render(self.game, st, sight, me=me) for t in self.private if t is not None]

    def screen(self, st, viewer: int | None = None) -> str:
        """The whole picture of `st` as `viewer` may see it (None: everything)."""
        sight = self.sight(st, viewer)
        title = self.title(st, viewer)
        out = [f"══ {title} " + "═" * max(0, 60 - len(title))]
        out += self.status_lines(st, sight)
        board = self.board(st, sight)
        if board:
            out += [""] + board
        zones = self.shared_zones(st, sight)
        if zones:
            out += [""] + zones
        out += [""] + self.players(st, sight)
        private = self.private_lines(st, sight)
        if private:
            out += [""] + private
        return "\n".join(out)

    # -- naming what happened without telling what a viewer may not know

    def reader(self, st, viewer: int | None) -> "TableReader":
        """How `viewer` reads the values of a text in `st` (labels.Reader): a card it cannot see is
        `a card`, one it can by its title, a board cell by its coordinates."""
        return TableReader(self, self.sight(st, viewer))

    def label(self, st, viewer: int | None, action) -> str:
        """The label of `action` (legal in `st`) written for `viewer` from the values it binds."""
        return action_label(self.game, st, action, self.reader(st, viewer))

    def say(self, st, viewer: int | None, message) -> str:
        """A message from the rules (a `log`) written for `viewer` from the values it was written
        from (dsl/templates.Said): a card `viewer` saw when it was said, or sees in `st`, is named;
        a plain text as it is."""
        for_viewer = getattr(message, "for_viewer", None)
        if for_viewer is None:
            return str(message)
        return for_viewer(self.reader(st, viewer), seat=viewer if viewer not in (None, PUBLIC) else None)

    def cell_name(self, z: Zone) -> str:
        """A board cell as the board shows it: by its row and column (`r2c2`); another zone, or a
        cell off the grid, by its display name (labels.DisplayNames)."""
        if self._cells is None:
            self._cells = {z.id: f"r{r}c{c}" for (r, c), z in self.grid_cells.items()}
        return self._cells.get(z.id) or self.names.zone(z)


class TableReader(Reader):
    """A reader at the terminal: a card it can see by its title (and its owner's key), a board cell
    by its coordinates; what it cannot see as labels.Reader says."""

    def __init__(self, renderer: Renderer, sight: Sight, extra: frozenset = frozenset()):
        self.renderer = renderer
        self.sight = sight
        self.cards = renderer.catalog.cards
        self.extra = extra  # ids of cards it saw earlier (when a message was said)

    def __contains__(self, cid) -> bool:
        return cid in self.extra or self.sight.sees(self.cards[cid])

    def also(self, ids) -> "TableReader":
        return TableReader(self.renderer, self.sight, self.extra | frozenset(ids))

    def card(self, c: Card) -> str:
        title = self.renderer.titles.get(c.name) or c.name
        return f"{title}/{c.owner.key}" if c.owner is not None else title

    def hidden(self, c: Card) -> str:
        return _("a card")

    def other(self, v) -> str:
        if type(v) is Zone:
            return self.renderer.cell_name(v)
        return label_of(v)


__all__ = ["Renderer", "Sight", "TableReader", "Template", "compile_template", "HIDDEN", "PUBLIC"]


guard_methods(Renderer, ("screen", "label", "say"))  # a rule failing in a template is a rule error (guard.py)
