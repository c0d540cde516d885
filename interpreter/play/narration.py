"""The narration of a game: moves, events from the rules, rounds and turns, the result, for one viewer.

What a player would see at the table is told as it happens, in the words of the content's
`render.narrate:` templates (one per event or procedure, its parameters bound by name), each drawn
for the viewer: a card the viewer cannot see is "?" there, and "a card" in a move's label.
"""
from __future__ import annotations

from .common import _n, _out
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
        self.unnamed = []  # hide() -> move(): cards a label speaks of without naming them
        self.sim_secret = False  # hide() -> move(): the move is a secret choice of a simultaneous step
        self.out = out or _out

    def start(self, st, seed: int, seats: list[str], *, resumed: int = 0) -> None:
        if self.quiet:
            return
        g = self.game
        who = ", ".join(f"{s.key} {s.name} ({kind})" for s, kind in zip(g.m.seats, seats))
        self.out(f"{g.m.rs.title}, {g.num_players} players, seed {seed}: {who}")
        if resumed:
            self.out(f"(resumed after {_n(resumed, 'decision')})")
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
        s = g.m.seats[p]
        self.out(f"   ── turn of {s.key} {s.name}" + (" (you)" if p == self.viewer else "") + " ──")

    def hide(self, st_before, player: int | None, label: str, action=None) -> str:
        """A move's label as the viewer may read it, named as the board names things, decided
        before the move (a card revealed by the move itself, such as the last card of a hidden
        pile, must not tell who played it)."""
        if self.quiet:
            return label
        self.unnamed = []
        # a secret choice of a simultaneous step: the others learn that it was made, not what
        self.sim_secret = bool(st_before["flow"].get("sim")) and player != self.viewer and self.viewer is not None
        if action is not None and player != self.viewer and self.viewer is not None:
            self.unnamed = self.unseen_unnamed(st_before, action, label)
        return self.renderer.speak(st_before, None if player == self.viewer else self.viewer, label)

    def unseen_unnamed(self, st, action, label: str) -> list:
        """The cards of `action` the viewer cannot see in `st` and that its label speaks of without
        naming them (a secret vote's suspect: `vote against Boris`); named ones become "a card"."""
        by_key = self.game.m.card_by_key
        cards = [by_key[a] for a in action.args if a in by_key and a not in label]
        if not cards:
            return []
        sight = self.renderer.sight(st, self.viewer)
        return [c for c in cards if not sight.sees(c)]

    def secret(self, st_after) -> bool:
        """Is the move's label about a card the viewer saw neither before nor after the move?"""
        if not self.unnamed:
            return False
        sight = self.renderer.sight(st_after, self.viewer)
        return any(not sight.sees(c) for c in self.unnamed)

    def events(self, st_after, events, player: int | None = None) -> list[str]:
        """The lines telling `events` (in the order they happened) as the viewer may know them."""
        r = self.renderer
        lines = []
        for name, args in events:
            if name == "log":
                lines.append(r.speak(st_after, self.viewer, str(args[0])))
            else:
                text = r.narrate(st_after, self.viewer, name, args, me=player)
                if text:
                    lines.append(text)
        return lines

    def move(self, st_after, *, n: int, player: int | None, label: str, events, how: str = "",
             action=None) -> None:
        if self.quiet:
            return
        m = self.game.m
        if player != self.viewer:  # a label not yet hidden (hide() speaks with titles, which stay)
            label = self.renderer.redact(st_after, self.viewer, label)
            if (self.secret(st_after) or self.sim_secret) and action is not None:
                label = f"{action.name.replace('_', ' ')}: a secret choice"
        self.unnamed = []
        self.sim_secret = False
        who = f"{m.seats[player].key} {m.seats[player].name}" if player is not None else "—"
        self.out(f"{n:>5}. {who}: {label}{how}")
        for line in self.events(st_after, events, player):
            self.out(f"       {line}")
        self.new_round(st_after)

    def result(self, st, decisions: int) -> dict:
        from .ending import ending_lines
        g = self.game
        m = g.m
        scores = g.scores(st)
        ranking = g.ranking(st)
        winners = g.winners(st)
        rounds = st["flow"]["round"]
        if not self.quiet:
            self.out("", self.renderer.screen(st, self.viewer), "")
        self.out(f"Game over after {_n(decisions, 'decision')}, {_n(rounds, 'round')}.")
        if not self.quiet:
            for line in self.renderer.end_reason(st):
                self.out(line)
        w = max(len(s.name) for s in m.seats)
        for place, i in enumerate(ranking, 1):
            s = m.seats[i]
            mark = "  winner" if i in winners else ""
            points = self.renderer.points(st, i) if not self.quiet else None
            self.out(f"{place:>3}. {s.key} {s.name.ljust(w)}  score {scores[i]}{mark}"
                     + (f"  ({points})" if points else ""))
        if not self.quiet:
            for line in ending_lines(g, st, ranking):
                self.out(line)
        return {"decisions": decisions, "rounds": rounds, "scores": scores,
                "ranking": [m.seats[i].key for i in ranking], "winners": [m.seats[i].key for i in winners]}
