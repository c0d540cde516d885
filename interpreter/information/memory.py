"""What each seat remembers: cards it identified once, then watched go where it cannot see.

A seat that saw a card go into another seat's hand knows it is there, though its observation
only shows the hand's count. `Memory` keeps that knowledge at the level of zones (a seat knows
in which zone the card lies, not at which position), move by move:

- a card the seat identifies is followed; it stays followed while it moves out of zones the seat
  sees into, the card not being concealed (a card variable with `conceals`) before or after;
- when a card leaves a zone the seat does not see into (or a concealed card moves), the seat
  cannot tell which card it was: every followed card in that zone is forgotten;
- after the decision, a followed card the seat no longer identifies is remembered in its zone
  (a card it watched go into a hand, a card turned face down where it lies).

The moves are those the rules made (runtime.move and the like report each card entering a
zone; `Memory.apply` listens while it plays a decision); a card found elsewhere than its
recorded moves say is forgotten. Memory is derived from those moves and the visibility content
declares, nothing else, and forgetting is always safe (a sample is then less constrained, never
wrong). `determinize(game, st, seat, rng, memory=memory.of(seat))` (observation.py) deals each
remembered card again only among the unseen places of its zone. A Memory lives beside the game,
kept by whoever plays it for the seats (play, simulate), never inside the state.
"""
from __future__ import annotations

from ..core.state import clone
from ..runtime import visibility as vis
from .views import visible_cards


class _Listener:
    """Called for every card entering a zone (the definition's `on_entered` hook, which it wraps
    in a copy of the definition that a Memory plays decisions with): records (card id, zone id)."""

    def __init__(self, inner):
        self.inner = inner
        self.moves = None

    def __call__(self, ctx, card, zone):
        if self.moves is not None:
            self.moves.append((card.id, zone.id))
        if self.inner is not None:
            self.inner(ctx, card, zone)


class Memory:
    """What each seat of one game remembers (see the module's documentation)."""

    def __init__(self, game):
        self.game = game
        self.known: list[dict[int, int]] = [{} for _ in game.m.seats]  # per seat: card id -> zone id
        # the same game over a copy of its definition whose `on_entered` hook also records the
        # moves (definition.listening): Memory plays each decision with it, the game is untouched
        self._listener = _Listener(game.m.on_entered)
        self._listening = type(game)(game.m.listening(self._listener))

    def of(self, seat: int) -> dict[int, int]:
        """The cards `seat` remembers and cannot see: card id -> the zone it lies in."""
        return dict(self.known[seat])

    def apply(self, st, action, **options):
        """game.apply_in_place(st, action), remembering what each seat saw of it; returns its Step."""
        before = clone(st)
        self._listener.moves = moves = []
        try:
            step = self._listening.apply_in_place(st, action, **options)
        finally:
            self._listener.moves = None
        self.see(before, st, moves)
        return step

    def see(self, before: dict, after: dict, moves: list) -> None:
        """Update every seat's memory with one decision: the states around it, and the moves the
        rules made in between ((card id, zone id) in order)."""
        game, m = self.game, self.game.m
        by_key = m.card_by_key
        concealed = vis.concealed_ids(game.m, before) | vis.concealed_ids(game.m, after)
        sides = vis.sides(game.m, before)
        zones = m.zones
        loc0, loc1 = before["loc"], after["loc"]
        # cards that moved without the rules reporting it: whatever zone they left, nobody can
        # tell which card it was (a safeguard: the runtime reports every move it makes)
        recorded = list(loc0)
        for c, z in moves:
            recorded[c] = z
        unexplained = {z for c, (z0, z1) in enumerate(zip(recorded, loc1)) if z0 != z1 for z in (loc0[c], z0)}
        for seat, known in enumerate(self.known):
            seen = [vis.sees_contents(z, seat) or vis.on_side(z, seat, sides) for z in zones]
            followed = set(known) | {by_key[k].id for k in visible_cards(game, before, seat)}
            where = list(loc0)
            for c, z in moves:
                old = where[c]
                where[c] = z
                if old == z or old < 0:
                    continue
                if not seen[old] or c in concealed:  # a card left unseen: which, the seat cannot tell
                    followed -= {x for x in followed if where[x] == old or x == c}
            identified = {by_key[k].id for k in visible_cards(game, after, seat)}
            self.known[seat] = {c: where[c] for c in followed
                                if c not in identified and where[c] == loc1[c] and where[c] >= 0
                                and where[c] not in unexplained}

    def to_json(self) -> list[dict[str, str]]:
        """Plain data: per seat, card key -> zone key."""
        m = self.game.m
        return [{m.cards[c].key: m.zones[z].key for c, z in sorted(known.items())} for known in self.known]


__all__ = ["Memory"]
