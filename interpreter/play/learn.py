"""`interpret learn GAME`: a guided first game at the terminal (scenarios/tutorial.py).

The tutorial sets its position, then each lesson is told (its text, the cells it points at with what
they hold), and the learner plays the move it teaches from the usual choices (human.py: numbers,
labels, `?`, `rules`, `why`). Another move is not played: the lesson's hint is shown and the choices
are offered again. After each move the table's narration follows, and the board once the learner's
move is played."""
from __future__ import annotations

import textwrap

from ..i18n import _
from ..scenarios.tutorial import Learner, game_tutorials, hint_for, is_taught, load_tutorial, run_tutorial, text_of
from .common import UsageError, _err, _out
from .human import Human, Quit
from .narration import Narrator
from .render import Renderer
from .terminal import paint

WIDTH = 96


def _wrap(text: str, indent: str = "  ") -> str:
    return "\n".join(textwrap.fill(part, WIDTH, initial_indent=indent, subsequent_indent=indent)
                     for part in text.split("\n") if part.strip())


class Keyboard(Human):
    """The learner's seat at the keyboard: a game's commands, but leaving saves nothing."""

    def command(self, st, text: str, items, choices):
        if text.lower() in ("q", "quit", "exit"):
            if self.read(_("Leave the guided game? (y/N) ")).lower() in ("y", "yes", "o", "oui"):
                raise Quit(_("you left the guided game"), 0)
            return None
        return super().command(st, text, items, choices)


class TerminalLearner(Learner):
    """A person at the keyboard, playing the learner's seat."""

    def __init__(self, game_name: str, stream=None):
        self.game_name = game_name
        self.stream = stream
        self.renderer = None
        self.human = None
        self.narrator = None
        self.moves = 0

    def start(self, tutorial) -> None:
        g = tutorial.game
        self.renderer = Renderer(g)
        seat = tutorial.seat
        self.human = Keyboard(g, self.renderer, seat.id, stream=self.stream,
                           can_undo=lambda: _("a guided game only goes forward"))
        self.narrator = Narrator(g, self.renderer, viewer=seat.id)
        meta = tutorial.meta
        _out("", _("══ Guided game: {title} ══").format(title=tutorial.title))
        if meta.get("section"):
            _out(_("(from the rulebook: {section})").format(section=meta["section"]))
        _out(_("You play {seat} {name}. Type the move each step asks for; ? for help, q to leave.")
             .format(seat=seat.key, name=seat.name))
        intro = text_of(meta.get("intro"))
        if intro:
            _out("", _wrap(intro))

    def tell(self, tutorial, text: str, cells: list) -> None:
        st = tutorial.pos.state
        _out("")
        if text:
            _out(_wrap(text, "» "))
        if cells:
            sight = self.renderer.sight(st, tutorial.seat.id)
            for z in cells:
                what = (self.renderer.cell_text(st, sight, z) if z.is_cell else self.renderer.zone_text(sight, z))
                paint(_("   → look at {place}: {what}").format(place=self.place(tutorial, z), what=what),
                      tutorial.game)

    def place(self, tutorial, z) -> str:
        """A place as the board names it: a cell by its coordinates, a seat's zone as `your hand`."""
        if z.is_cell:
            return self.renderer.cell_name(z)
        if z.owner is None:
            return z.name
        if z.owner.id == tutorial.seat.id:
            return _("your {zone}").format(zone=z.name)
        return _("{player}'s {zone}").format(player=z.owner.name, zone=z.name)

    def choose(self, tutorial, expected, hint: str):
        st = tutorial.pos.state
        seat = tutorial.seat.id
        wanted = self.renderer.label(st, seat, expected)
        while True:
            action, label, _forced = self.human.choose(st)
            if is_taught(action, expected, label=label, wanted=wanted):
                _out(_("   ✓ Right: {move}.").format(move=wanted))
                return expected
            _out("", _("   Not this move: {move}.").format(move=label))
            _out(_wrap(hint_for(hint, wanted), "   "))

    def moved(self, tutorial, *, before, player, action, events, causes=None, mine: bool) -> None:
        st = tutorial.pos.state
        self.moves += 1
        label = self.narrator.hide(before, player, self.renderer.label(before, player, action)
                                   if player is not None else str(action), action)
        self.narrator.move(st, n=self.moves, player=player, label=label, events=events, causes=causes, action=action)
        if mine and tutorial.game.current_player(st) != tutorial.seat.id:  # else the next choice shows it
            self.board(tutorial)

    def board(self, tutorial) -> None:
        _out("", _("The board after your move:"))
        paint(self.renderer.screen(tutorial.pos.state, tutorial.seat.id), tutorial.game)

    def finish(self, tutorial) -> None:
        outro = text_of(tutorial.meta.get("outro"))
        if outro:
            _out("", _wrap(outro))
        _out("", _("Guided game finished: {title}. Play a whole game with: interpret play {game}")
             .format(title=tutorial.title, game=self.game_name))


def pick_tutorial(game: str, name: str | None, read) -> object:
    """The tutorial file asked for: by its name, the only one, or one chosen from the list."""
    files = game_tutorials(game)
    if not files:
        raise UsageError(f"{game} has no guided game (tutorials go in the game's tutorials/ folder)")
    if name:
        for f in files:
            if name in (f.stem, f.name):
                return f
        raise UsageError(f"no tutorial `{name}` for {game} (there are: {', '.join(f.stem for f in files)})")
    if len(files) == 1:
        return files[0]
    _out(_("Guided games of {game}:").format(game=game))
    titles = [text_of((load_tutorial(f).get("tutorial") or {}).get("title")) or f.stem for f in files]
    for i, (f, title) in enumerate(zip(files, titles), 1):
        _out(f"  {i}. {title} ({f.stem})")
    while True:
        text = read(_("Which one (1-{count})? ").format(count=len(files)))
        if text.isdigit() and 1 <= int(text) <= len(files):
            return files[int(text) - 1]


def cmd_learn(args) -> int:
    from ..ruleset.loader import game_folder
    game = game_folder(args.game)
    learner = TerminalLearner(args.game)
    try:
        keyboard = Human(None, None, 0)  # before a game: only its way of reading a line
        path = pick_tutorial(game, args.tutorial, keyboard.read)
        result = run_tutorial(path, learner)
    except Quit as q:
        _out(_("Guided game stopped: {why}.").format(why=q.why))
        return q.code
    if not result.ok:  # the content's tutorial no longer matches the rules (`interpret test` says so too)
        for f in result.failures:
            _err(f"error in the tutorial: {f.render()}")
        return 1
    return 0


def add_parser(sub, debug_flag, *, lang_flag) -> None:
    q = sub.add_parser("learn", help="a guided first game: lessons from the rulebook, played at the terminal",
                       description="Play a game's guided first game (its tutorials/ folder): each step tells "
                                   "what to look at and which move to make, with a hint when you play another.")
    q.add_argument("game", metavar="GAME", help="a bundled game's name or a game folder")
    q.add_argument("tutorial", nargs="?", metavar="NAME",
                   help="which tutorial, when the game has several (default: the list, to choose from)")
    lang_flag(q)
    debug_flag(q)
    q.set_defaults(run=cmd_learn)
