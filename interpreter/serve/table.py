"""A table of the web server: one game, its seats and what each viewer is told, made of play/'s parts.

The game goes through the one forward model (`Game`); a seat sees only what play's parts write
for it: its narration (play/narration.Narrator with `viewer=` the seat, or the whole table for a
spectator), its picture (picture.py), its moves with their stable keys (play/choices.py), the
refusals in its words (play/refusals.py, from `Game.refusal`), undo under the terminal's policy
(play/session.History) and the end screen (play/ending.py).

`counter` says which state a client is looking at: it grows by one at every move and every undo,
and a move or an undo sent for another counter is refused as stale. Entries of the narration
carry `n`, the decision they follow.

Nothing here speaks to the network or the disk: app.py and store.py do.
"""
from __future__ import annotations

import logging
import secrets
from dataclasses import dataclass

from ..agents import LEVELS, bot_seed, decide, make_agent, parse_spec
from ..agents.spec import PARALLEL
from ..core.model import Action
from ..engine.game import clone
from ..i18n import _, speaking
from ..play.choices import ChoiceKeys, choices_for
from ..play.common import HUMAN, decisions, rounds
from ..play.ending import end_screen
from ..play.levels import game_levels
from ..play.helpdesk import move_words
from ..play.narration import Narrator
from ..play.refusals import Refusals
from ..play.render import Renderer
from ..play.session import History
from .picture import layout, picture, viewer_of

serve_log = logging.getLogger("interpret.serve")

BOT = "bot:"
SPECTATOR = None  # the viewer key of spectators


def bot_level(kind: str) -> str | None:
    """`bot:normal` -> `normal`; None for a human seat."""
    return kind[len(BOT):] if kind.startswith(BOT) else None


def check_kind(kind) -> str:
    """A seat's kind as the lobby gives it (`human`, `bot:easy`, `bot:normal`, `bot:hard`), checked."""
    if kind == HUMAN or (isinstance(kind, str) and bot_level(kind) in LEVELS):
        return kind
    raise ValueError(f"a seat is `human` or one of {', '.join(BOT + level for level in LEVELS)}, not {kind!r}")


def agent_spec(kind: str, levels=None) -> str:
    """The agent that plays a bot seat (`bot:normal` -> `greedy`), as a play log names it: the level's
    in `levels`, the game's table (play/levels.game_levels; default: every game's, LEVELS)."""
    return (LEVELS if levels is None else levels)[bot_level(kind)] if bot_level(kind) else HUMAN


def new_token() -> str:
    return secrets.token_urlsafe(24)


@dataclass
class Seat:
    kind: str  # human, or bot:LEVEL
    token: str


class Viewer:
    """What one seat (or the spectators) is told: its narration as entries, its keys, its refusals."""

    def __init__(self, table: "Table", seat: int | None):
        self.table = table
        self.seat = seat
        self.entries: list[dict] = []
        self.narrator = Narrator(table.game, table.renderer, viewer=viewer_of(seat), out=self._out)
        self.keys = ChoiceKeys()
        self.refusals = Refusals(table.game, table.renderer, seat) if seat is not None else None
        self.last = None  # the last move as this viewer reads it

    def _out(self, *lines) -> None:
        for line in lines:
            for text in str(line).split("\n"):
                text = text.strip()
                if text:
                    self.entries.append({"n": self.table.n, "text": text})


class Table:
    """One game at the web table. Every method runs under the table's lock (app.py)."""

    def __init__(self, *, tid: str, game, ref: str, variants: list, options: dict, seed: int, seats: list[Seat],
                 timer: float | None, lang: str):
        self.tid, self.game, self.ref = tid, game, ref
        self.variants, self.options, self.seed = list(variants), dict(options), seed
        self.seats, self.timer, self.lang = seats, timer, lang
        self.log = None  # store.py's writer, once the table is kept on disk
        self.agents: dict[int, object] = {}
        self.levels = game_levels(game)  # the agent each level names in this game (its `game.levels`)
        self.undone = 0  # decisions taken back in all (the counter keeps growing)
        self.undos = 0
        self.result: dict | None = None
        self.layout_cache: dict | None = None
        self.load_game = None  # lang -> this table's game in that language (hub.py): a seat's own language
        self.mirrors: dict[str, Table] = {}  # the same game told in the other languages asked for
        self.forced = None  # the only move of the deciding person, played for them (_list)
        self.mirrored = False  # a mirror (voice) of another table: that table tells the designer
        self._restart([])

    # -- the game from its start, then each move

    def _restart(self, actions: list[str]) -> None:
        """The game from its start with `actions` played again (a new table, a resumed one, an undo)."""
        with speaking(self.lang):
            self.renderer = Renderer(self.game)
            self.st = self.game.new_game(seed=self.seed)
            self.n = 0
            self.actions: list[str] = []
            self.history = History(self.game, self.renderer, None)
            self.viewers = {seat: Viewer(self, seat) for seat in [*range(self.game.num_players), SPECTATOR]}
            self._remember()
            for v in self.viewers.values():
                v.narrator.new_round(self.st)
            self._list()
            for text in actions:
                self._apply(Action.parse(text), checked=True)
        self.history.log = self.log

    @property
    def counter(self) -> int:
        return self.n + self.undone + self.undos

    def _remember(self) -> None:
        for seat in range(self.game.num_players):
            self.renderer.remember(self.st, seat)

    def _apply(self, action: Action, *, checked: bool = True) -> None:
        """Play `action` (legal: the caller checked it), narrated to every viewer."""
        g, st = self.game, self.st
        p = g.current_player(st)
        forced = p is not None and self.seats[p].kind == HUMAN and action == self.forced
        if p is not None and self.seats[p].kind == HUMAN and not forced:  # a forced move is not undone to
            self.history.before(p, self.n, st)
        shown = self._shown(st, p, action)
        humans = any(s.kind == HUMAN for s in self.seats)  # undo's barrier matters only to humans
        rng_before, known_before = st["rng"], self.history.known(st) if humans else None
        step = g.apply_in_place(st, action, checked=checked)
        self.n += 1
        self.actions.append(str(action))
        if humans:
            self.history.after(self.n, rng_before, known_before, st)
        self._remember()
        self._told(p, action, shown, step.events, how=_(" (the only possible move)") if forced else "")
        if self.log is not None:
            self.log.action(g.seats[p].key if p is not None else None, action)
        self._list()

    def _shown(self, st, p: int | None, action: Action) -> dict:
        """How each viewer reads `action` of `p`, from the state before it is played."""
        label = dict(self.game.legal_actions_with_labels(st)).get(action, str(action))
        return {key: v.narrator.hide(st, p, label, action) for key, v in self.viewers.items()}

    def _told(self, p: int | None, action: Action, shown: dict, events, causes=None, how: str = "") -> None:
        """Each viewer told the move just played (`self.st` is the state after it). An entry telling
        an event with a `dice` argument carries its values (`dice`), as does the viewer's `last`."""
        at = self._dice_params()
        rolls = [(i, args[at[name]]) for i, (name, args) in enumerate(events) if name in at] if at else ()
        for key, v in self.viewers.items():
            start = len(v.entries)
            v.narrator.move(self.st, n=self.n, player=p, label=shown[key], events=events, causes=causes, how=how,
                            action=action)
            v.last = {"seat": p + 1 if p is not None else None, "label": shown[key],
                      "marks": self._marks(action, key)}
            thrown = self._dice_told(v.entries[start:], rolls, events, causes=causes, viewer=key, player=p)
            if thrown:
                v.last["dice"] = thrown

    def _dice_params(self) -> dict:
        """event name -> the index of its argument named `dice` (docs/web.md: drawn as dice faces)."""
        held = self.__dict__.get("_dice_at")
        if held is None:
            held = self._dice_at = {name: list(params).index("dice")
                                    for name, params in (self.game.catalog.ruleset.events or {}).items()
                                    if "dice" in (params or [])}
        return held

    def _dice_told(self, entries: list, rolls, events, *, causes, viewer, player) -> list:
        """Put each roll's values on the entry that tells its event to `viewer` (a roll not told
        to the viewer is not given); every value given."""
        thrown = []
        for i, values in rolls:
            if not isinstance(values, (list, tuple)) or not all(type(d) is int for d in values):
                continue
            text = self.renderer.narrate(self.st, viewer_of(viewer), events, i, causes=causes, me=player)
            entry = next((e for e in entries if text and e["text"] == text.strip() and "dice" not in e), None)
            if entry is not None:
                entry["dice"] = list(values)
                thrown += values
        return thrown

    def voice(self, lang: str | None) -> "Table":
        """The table as told in `lang`: itself in its own language, else a mirror (the same game,
        loaded in that language, its moves played again in step with this one), made when a seat
        first asks for it. Legality, bots, timers and the log stay this table's."""
        if lang is None or lang == self.lang or self.load_game is None:
            return self
        mirror = self.mirrors.get(lang)
        if mirror is None:
            mirror = Table(tid=self.tid, game=self.load_game(lang), ref=self.ref, variants=self.variants,
                           options=self.options, seed=self.seed, seats=self.seats, timer=self.timer, lang=lang)
            mirror.undone, mirror.undos, mirror.mirrored = self.undone, self.undos, True
            mirror._restart(list(self.actions))
            self.mirrors[lang] = mirror
        return mirror

    def _list(self) -> None:
        """Give the deciding human its moves' keys now, connected or not: a table played again
        from its log (a restart, an undo) gives the same keys."""
        p = self.deciding()
        self.forced = None
        if p is not None and self.seats[p].kind == HUMAN:
            choices = self.choices(p)
            if len(choices) == 1:  # the terminal's policy: the only possible move is played for the seat
                self.forced = choices[0].action

    def _marks(self, action: Action, seat: int | None) -> list[str]:
        """The places a move named, and where the cards it named and the viewer sees are now."""
        values = self.game.catalog.value_by_key
        sight = self.renderer.sight(self.st, viewer_of(seat))
        zones = self.game.catalog.zones
        out = []
        for arg in action.args:
            v = values.get(arg)
            kind = type(v).__name__
            if kind == "Zone":
                out.append(v.key)
            elif kind == "Card" and sight.sees(v) and self.st["loc"][v.id] >= 0:
                out.append(zones[self.st["loc"][v.id]].key)
        return list(dict.fromkeys(out))

    # -- who decides, and what they may do

    def over(self) -> bool:
        """Whether the table has ended (its end screen is sent)."""
        return self.game.is_terminal(self.st)

    def deciding(self) -> int | None:
        """The seat deciding now (None: nobody, or chance, or the game is over)."""
        if self.game.is_terminal(self.st):
            return None
        return self.game.current_player(self.st)

    def waiting_on_bot(self) -> bool:
        """Whether the next decision is a bot's (or chance's)."""
        if self.game.is_terminal(self.st):
            return False
        p = self.game.current_player(self.st)
        return p is None or self.seats[p].kind != HUMAN or self.forced is not None

    def is_searching_bot(self) -> bool:
        """Whether the deciding bot searches hard (the server caps how many do at once: hub.py)."""
        p = self.game.current_player(self.st)
        return p is not None and self.forced is None and self._kind_of(p) in PARALLEL

    def _context(self, seat: int) -> tuple:
        flow = self.st["flow"]
        return flow.get("phase"), flow.get("round"), flow.get("pos"), seat

    def choices(self, seat: int) -> list:
        v = self.viewers[seat]
        return v.keys.assign(self._context(seat), choices_for(self.game, self.renderer, self.st, seat))

    def moves(self, seat: int | None) -> list[dict]:
        """The moves of `seat` if it decides now (else none): key, label, group, and what a click on
        the board selects (places, and cards the seat sees)."""
        if seat is None or self.deciding() != seat:
            return []
        with speaking(self.lang):
            values = self.game.catalog.value_by_key
            sight = self.renderer.sight(self.st, seat)
            out = []
            for c in self.choices(seat):
                places, cards = [], []
                for arg in c.action.args:
                    v = values.get(arg)
                    kind = type(v).__name__
                    if kind == "Zone":
                        places.append(v.key)
                    elif kind == "Card" and sight.sees(v):
                        cards.append(v.key)
                out.append({"key": c.key, "label": c.label, "group": move_words(self.game, c.action.name) or c.label,
                            "places": places, "cards": cards})
            return out

    # -- messages for a viewer

    def layout(self) -> dict:
        if self.layout_cache is None:
            with speaking(self.lang):
                self.layout_cache = layout(self.game, self.renderer)
        return self.layout_cache

    def timer_for(self, deadline_ms: int | None) -> dict | None:
        p = self.deciding()
        if deadline_ms is None or p is None:
            return None
        return {"seat": p + 1, "deadline_ms": deadline_ms}

    def picture(self, seat: int | None) -> dict:
        with speaking(self.lang):
            return picture(self.game, self.renderer, self.st, seat)

    def hello(self, seat: int | None, *, deadline_ms: int | None = None) -> dict:
        return {"type": "hello", "table": self.tid, "seat": seat + 1 if seat is not None else None,
                "counter": self.counter, "layout": self.layout(), "picture": self.picture(seat),
                "history": list(self.viewers[seat].entries), "moves": self.moves(seat),
                "timer": self.timer_for(deadline_ms)}

    def marks(self) -> dict:
        """Where each viewer's narration stands, in each language told: update() sends what came after."""
        out = {(self.lang, key): len(v.entries) for key, v in self.viewers.items()}
        for mirror in self.mirrors.values():
            out.update(mirror.marks())
        return out

    def update(self, seat: int | None, since: dict, *, deadline_ms: int | None = None) -> dict:
        v = self.viewers[seat]
        return {"type": "update", "counter": self.counter, "picture": self.picture(seat),
                "events": v.entries[since.get((self.lang, seat), len(v.entries)):], "moves": self.moves(seat), "last": v.last,
                "timer": self.timer_for(deadline_ms)}

    def end(self) -> dict:
        """The end screen's lines, as the terminal writes them (every card shown: the game is over)."""
        with speaking(self.lang):
            lines = [_("Game over after {decisions}, {rounds}.").format(decisions=decisions(self.n),
                                                                        rounds=rounds(self.st["flow"]["round"]))]
            lines += end_screen(self.game, self.renderer, self.st)
        return {"type": "end", "counter": self.counter, "lines": lines}

    # -- what a seat asks

    def refused(self, seat: int, e, shown: str) -> dict:
        v = self.viewers[seat]
        text = v.refusals.text(self.st, e, shown)
        reasons = list(e.reasons) or [text.split(": ", 1)[-1]]
        return {"type": "refused", "counter": self.counter, "text": text, "reasons": reasons}

    def find(self, seat: int, *, key: str | None = None, text: str | None = None):
        """(the action `seat` asks for, None) when it is legal now; else (None, a `refused` message)."""
        with speaking(self.lang):
            v = self.viewers[seat]
            if self.deciding() != seat:
                return None, self._refusal_text(seat, _("it is not your decision now"))
            choices = self.choices(seat)
            if key is not None:
                for c in choices:
                    if c.key == key:
                        return c.action, None
                gone = v.keys.by_key.get(key)
                if gone is not None:
                    e = v.refusals.refusal(self.st, gone.action)
                    if e is not None:
                        return None, self.refused(seat, e, gone.label)
                return None, self._refusal_text(seat, _("There is no choice {key} now: type a key as listed "
                                                        "({keys}), or a move as it is written.").format(
                    key=key, keys=", ".join(c.key for c in choices)))
            low = (text or "").strip().lower()
            for c in choices:
                if low in (c.label.lower(), c.raw.lower()) or text == str(c.action):
                    return c.action, None
            return self._typed(seat, text or "", choices)

    def _typed(self, seat: int, text: str, choices):
        v = self.viewers[seat]
        moves = v.refusals.moves(self.st, text)
        if not moves:
            try:
                moves = [Action.parse(text)]
            except ValueError:
                return None, self._refusal_text(seat, _("`{text}` is neither a choice nor a command (type ? for help).")
                                                .format(text=text))
        action, e = v.refusals.best(self.st, moves)
        if e is None and action is not None:
            return action, None
        if e is None:
            return None, self._refusal_text(seat, _("the rules do not allow it now"))
        return None, self.refused(seat, e, text)

    def _refusal_text(self, seat: int, reason: str) -> dict:
        return {"type": "refused", "counter": self.counter, "text": _("Refused: {reason}").format(reason=reason),
                "reasons": [reason]}

    def why(self, seat: int, text: str) -> dict:
        """The answer to `why MOVE`: allowed now, or every reason it is refused (a `refused` message)."""
        with speaking(self.lang):
            action, refused = self.find(seat, text=text)
            if refused is None:
                label = self.renderer.label(self.st, seat, action)
                said = _("`{move}` is allowed now.").format(move=label)
                return {"type": "refused", "counter": self.counter, "text": said, "reasons": []}
            return refused

    def play_again(self, text: str) -> None:
        """A move read back from the table's log (store.py checked that it is legal)."""
        self.play(Action.parse(text))

    def play(self, action: Action) -> None:
        """Play a legal `action` (checked by find(), or a bot's)."""
        playing = self.result is None
        with speaking(self.lang):
            self._apply(action)
            self._finish()
        for mirror in self.mirrors.values():
            mirror.play(action)
        if playing and self.result is not None and not self.mirrored:
            self._tell_text_failures()

    def _tell_text_failures(self) -> None:
        """At the end of the game, the display's texts whose rules failed (the players read "(cannot
        be shown)"), in the server's log for the designer, once each, as `play` tells them."""
        seen = set()
        for table in (self, *self.mirrors.values()):
            for line in table.renderer.text_failures.report():
                if line not in seen:
                    seen.add(line)
                    serve_log.warning("table %s (%s): %s", self.tid, self.ref, line)

    def _finish(self) -> None:
        if self.game.is_terminal(self.st) and self.result is None:
            g = self.game
            self.result = {"decisions": self.n, "rounds": self.st["flow"]["round"], "scores": g.scores(self.st),
                           "ranking": [g.seats[i].key for i in g.ranking(self.st)],
                           "winners": [g.seats[i].key for i in g.winners(self.st)]}
            if self.log is not None:
                self.log.result(self.result)

    def why_no_undo(self, seat: int) -> str | None:
        """Why `seat` cannot take back its last decision now (None: it can). The terminal's policy
        (never across chance or a reveal), and never past another human's decision."""
        with speaking(self.lang):
            if self.game.is_terminal(self.st):
                return _("the game is over")
            why = self.history.why_not(seat)
            if why is not None:
                return why
            mark = self.history.last(seat)
            if any(other != seat and n >= mark[1] for other, n, _st in self.history.marks):
                return _("undo is not available here")  # another human has decided since
            return None

    def cannot_undo(self, why: str) -> str:
        with speaking(self.lang):
            return _("Cannot undo: {why}.").format(why=why)

    def undo(self, seat: int) -> None:
        """Take back `seat`'s last decision (why_no_undo said it may), and what the bots played since."""
        n = self.history.last(seat)[1]
        kept = self.actions[:n]
        self.undone += self.n - n
        self.undos += 1
        if self.log is not None:
            self.log.truncate(n)
        log, self.log = self.log, None  # the actions kept are in the log already
        self._restart(kept)
        self.log = log
        self.history.log = log
        for mirror in self.mirrors.values():
            mirror.undone, mirror.undos = self.undone, self.undos
            mirror._restart(kept)

    # -- bots

    def agent(self, seat: int | None):
        """The agent playing `seat` now (chance: a random one)."""
        key = -1 if seat is None else seat
        kind = "bot:easy" if seat is None else self.seats[seat].kind
        spec = agent_spec(kind, self.levels) if kind != HUMAN else self.levels["normal"]  # a timer ran out: the normal bot
        held = self.agents.get(key)
        if held is None or held[0] != spec:
            held = self.agents[key] = (spec, make_agent(spec, bot_seed(self.seed, key)))
        return held[1]

    def snapshot(self):
        """(counter, the search to run off the lock: a function of nothing giving the action the
        agent of the deciding seat plays, from a copy of the state)."""
        if self.forced is not None:
            forced = self.forced
            return self.counter, lambda: forced
        agent, game, st = self.agent(self.game.current_player(self.st)), self.game, clone(self.st)
        return self.counter, lambda: decide(agent, game, st, None)

    def is_quick_bot(self) -> bool:
        """Whether the deciding bot plays at once (the random one): no worker needed."""
        p = self.game.current_player(self.st)
        return p is None or self._kind_of(p) == "random" or self.forced is not None

    def _kind_of(self, seat: int) -> str | None:
        """The kind of agent playing `seat` (`random`, `ismcts`...; None: a human)."""
        kind = self.seats[seat].kind
        return parse_spec(agent_spec(kind, self.levels)).kind if kind != HUMAN else None


__all__ = ["BOT", "SPECTATOR", "Seat", "Table", "Viewer", "agent_spec", "bot_level", "check_kind", "new_token",
           "speaking"]
