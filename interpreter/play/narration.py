"""The narration of a game: moves, events from the rules, rounds and turns, the result, for one viewer.

What a player would see at the table is told as it happens, in the words of the content's
`render.narrate:` templates (one per event or procedure, its parameters bound by name), each drawn
for the viewer: a card the viewer cannot see is "?" there, and "a card" in a move's label and the
rules' messages, which are written for the viewer from their values (Renderer.label, Renderer.say).
"""
from __future__ import annotations

from ..i18n import _, ngettext
from .common import HUMAN, _out, decisions, rounds
from .helpdesk import move_words
from .render import round_name


def turn_key(st):
    """What changes when a new turn starts: the round and the position in the turn order."""
    flow = st["flow"]
    return (flow["phase"], flow["round"], flow.get("pos"))


class Narrator:
    """Prints what happens in a game: moves, messages and events from the rules, rounds, turns, the result."""

    def __init__(self, game, renderer, *, viewer: int | None = None, quiet: bool = False, out=None):
        self.game = game
        self.renderer = renderer
        # whose eyes: a seat, PUBLIC (what everyone at the table sees), or None (everything:
        # bots only, nobody's secrets to keep)
        self.viewer = viewer
        self.quiet = quiet
        self.round = None
        self.turn = None
        self.out = out or _out

    def start(self, st, seed: int, seats: list[str], *, resumed: int = 0) -> None:
        if self.quiet:
            return
        g = self.game
        who = ", ".join(_("{key} {name} (human)").format(key=s.key, name=s.name) if kind == HUMAN
                        else f"{s.key} {s.name} ({kind})" for s, kind in zip(g.seats, seats))
        self.out(ngettext("{title}, {n} player, seed {seed}: {seats}", "{title}, {n} players, seed {seed}: {seats}",
                          g.num_players).format(title=g.title, n=g.num_players, seed=seed, seats=who))
        if resumed:
            self.out(ngettext("(resumed after {n} decision)", "(resumed after {n} decisions)", resumed).format(n=resumed))
        self.new_round(st)

    def new_round(self, st) -> None:
        r = round_name(st)
        if r != self.round and not self.game.is_terminal(st):
            self.round = r
            self.turn = None
            if not self.quiet:
                self.out(f"── {r} ──")
        self.new_turn(st)

    def new_turn(self, st) -> None:
        g = self.game
        key = turn_key(st)
        if key == self.turn or g.is_terminal(st) or st["flow"]["phase"] != "play" or st["flow"].get("win"):
            return
        self.turn = key
        p = g.current_player(st)
        if p is None or self.quiet:
            return
        s = g.seats[p]
        self.out("   ── " + (_("turn of {key} {name} (you)") if p == self.viewer else _("turn of {key} {name}"))
                 .format(key=s.key, name=s.name) + " ──")

    def hide(self, st_before, player: int | None, label: str, action=None) -> str:
        """A move's label as the viewer may read it, written from the values `action` binds as the
        viewer saw the state before the move (a card the move itself reveals, such as a card
        turned face up at a resolution, must not tell who played it): a card the viewer cannot
        see reads `a card`, whatever the label reads of it but its place `?` (dsl/templates.py).
        `label` (the deciding seat's) is kept for a quiet narrator, and without an action for
        the deciding seat itself or a narrator who sees everything."""
        if self.quiet:
            return label
        if action is None:
            return label if self.viewer is None or player == self.viewer else _("a move")
        # a secret choice of a simultaneous step: the others learn that it was made, not what
        if st_before["flow"].get("sim") and player != self.viewer and self.viewer is not None:
            move = move_words(self.game, action.name)
            return _("{move}: a secret choice").format(move=move) if move else _("a secret choice")
        return self.renderer.label(st_before, self.viewer, action)

    def events(self, st_after, events, player: int | None = None, *, causes=None) -> list[str]:
        """The lines telling `events` (in the order they happened) as the viewer may know them,
        each worded by its cause (`causes`: the Step's, what the engine recorded set each off)."""
        r = self.renderer
        lines = []
        for i, (name, args) in enumerate(events):
            if name == "log":
                lines.append(r.say(st_after, self.viewer, args[0]))
            else:
                text = r.narrate(st_after, self.viewer, events, i, causes=causes, me=player)
                if text:
                    lines.append(text)
        return lines

    def move(self, st_after, *, n: int, player: int | None, label: str, events, causes=None, how: str = "",
             action=None) -> None:
        """Tell a move: `label` as hide() wrote it for the viewer, then its events."""
        if self.quiet:
            return
        m = self.game.catalog
        who = f"{m.seats[player].key} {m.seats[player].name}" if player is not None else "—"
        self.out(_("{n:>5}. {who}: {move}{how}").format(n=n, who=who, move=label, how=how))
        for line in self.events(st_after, events, player, causes=causes):
            self.out(f"       {line}")
        self.new_round(st_after)

    def result(self, st, n_decisions: int) -> dict:
        from .ending import end_screen, ranking_lines
        g = self.game
        m = g.catalog
        scores = g.scores(st)
        ranking = g.ranking(st)
        winners = g.winners(st)
        n_rounds = st["flow"]["round"]
        if not self.quiet:
            self.out("", self.renderer.screen(st, self.viewer), "")
        self.out(_("Game over after {decisions}, {rounds}.").format(decisions=decisions(n_decisions),
                                                                    rounds=rounds(n_rounds)))
        for line in ranking_lines(g, st, ranking) if self.quiet else end_screen(g, self.renderer, st):
            self.out(line)
        return {"decisions": n_decisions, "rounds": n_rounds, "scores": scores,
                "ranking": [m.seats[i].key for i in ranking], "winners": [m.seats[i].key for i in winners]}
