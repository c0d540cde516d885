"""The narration of a game: moves, events from the rules, rounds, the result, for one viewer."""
from __future__ import annotations

from .common import _n, _out

class Narrator:
    """Prints what happens in a game: moves, messages from the rules, rounds, the result."""

    def __init__(self, game, renderer, *, viewer: int | None = None, quiet: bool = False, out=None):
        self.game = game
        self.renderer = renderer
        # whose eyes: a seat, PUBLIC (what everyone at the table sees), or None (everything:
        # bots only, nobody's secrets to keep)
        self.viewer = viewer
        self.quiet = quiet
        self.round = None
        self.out = out or _out

    def start(self, st, seed: int, seats: list[str]) -> None:
        if self.quiet:
            return
        g = self.game
        who = ", ".join(f"{s.key} {s.name} ({kind})" for s, kind in zip(g.m.seats, seats))
        self.out(f"{g.m.rs.title}, {g.num_players} players, seed {seed}: {who}")
        self.new_round(st)

    def new_round(self, st) -> None:
        from .render import round_name
        r = round_name(st)
        if r != self.round and not self.game.is_terminal(st):
            self.round = r
            if not self.quiet:
                self.out(f"── {r} ──")

    def hide(self, st_before, player: int | None, label: str) -> str:
        """A move's label as the viewer may read it before the move (a card revealed by the move
        itself, such as the last card of a hidden pile, must not tell who played it)."""
        if self.quiet or player == self.viewer:
            return label
        return self.renderer.redact(st_before, self.viewer, label)

    def move(self, st_after, *, n: int, player: int | None, label: str, events) -> None:
        if self.quiet:
            return
        m = self.game.m
        if player != self.viewer:
            label = self.renderer.redact(st_after, self.viewer, label)
        who = f"{m.seats[player].key} {m.seats[player].name}" if player is not None else "—"
        self.out(f"{n:>5}. {who}: {label}")
        for name, args in events:
            if name == "log":
                self.out(f"       {self.renderer.redact(st_after, self.viewer, str(args[0]))}")
        self.new_round(st_after)

    def result(self, st, decisions: int) -> dict:
        g = self.game
        m = g.m
        scores = g.scores(st)
        ranking = g.ranking(st)
        winners = g.winners(st)
        rounds = st["flow"]["round"]
        if not self.quiet:
            self.out("", self.renderer.screen(st, self.viewer), "")
        self.out(f"Game over after {_n(decisions, 'decision')}, {_n(rounds, 'round')}.")
        w = max(len(s.name) for s in m.seats)
        for place, i in enumerate(ranking, 1):
            s = m.seats[i]
            mark = "  winner" if i in winners else ""
            self.out(f"{place:>3}. {s.key} {s.name.ljust(w)}  score {scores[i]}{mark}")
        return {"decisions": decisions, "rounds": rounds, "scores": scores,
                "ranking": [m.seats[i].key for i in ranking], "winners": [m.seats[i].key for i in winners]}

