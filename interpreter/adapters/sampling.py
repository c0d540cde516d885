"""The states of the OpenSpiel adapter (`Box`) and the states drawn from one of them for a seat
(`Sampling`: OpenSpiel's `resample_from_infostate`, which ISMCTSBot calls at every iteration).

A draw deals the cards the seat cannot identify again among the places it cannot see
(observation.Sampler), puts back in card order the piles whose order every seat knows
(engine/chance.ordered_piles), and is a function of the one number the caller's sampler gives.
Where the cards dealt again are few (their orders, all groups together, at most `DECODED`), that
number is read as the deal itself (`Sampling.deal`: one shuffle per group, its swaps the digits
of the number), and the state drawn is known by the places' cards before it is written: a state
drawn again (a game with few deals draws each many times) is taken from the first draw's link
without writing it again, and a number whose remainder modulo the deals was drawn before (the same
deal) without dealing it.
Otherwise the number seeds a generator and the sampler draws as `determinize` does (the
content's invariants, the other seats' secret choices drawn again).
"""
from __future__ import annotations

import random
from math import factorial

from ..core.rng import seed_state
from ..core.state import clone
from ..engine.chance import ordered_piles, put_in_order
from ..information.observation import relabel
from .infostate import Trail, Tree, carried, kept, remembered

DECODED = 2**32  # the most deals a number of 53 bits is read as (a bias under 2**-21 per deal)


class Box:
    """A state, its trail, and what was asked of it since its last move. OpenSpiel clones a Python
    state by deep-copying each of its attributes: this one copies as the forward model copies a
    state (core/state.clone)."""

    __slots__ = ("st", "trail", "listed", "ids", "player", "sampling", "past")

    def __init__(self, st, trail: Trail, listed=None, ids=None, player=None, past=None):
        self.st, self.trail = st, trail
        self.past = past  # the moves so far, newest first: (past, player, action), linked (shared by clones)
        self.listed = listed  # the legal ids of the seat deciding, once listed: id -> action (never changed)
        self.ids = ids  # those ids in order (never changed)
        self.player = player  # current_player() once asked (OpenSpiel asks it at every move)
        self.sampling = None  # seat -> its Sampling, once resampled (a search resamples one state again and again)

    def __deepcopy__(self, memo):
        return Box(carried(self.st), self.trail.copy(), self.listed, self.ids, self.player, self.past)

    def __reduce__(self):
        """Pickled as its state (without its notes, or the thread a decision may wait in at a draw:
        the state read back runs that decision again, infostate.kept), its trail and its moves (a
        list: a long game's linked moves would go past pickle's recursion limit); what was asked
        of it since its last move is asked again."""
        moves, node = [], self.past
        while node is not None:
            node, player, action = node
            moves.append((player, action))
        moves.reverse()
        return _box_of, (kept(self.st), self.trail, moves)


def _box_of(st, trail: Trail, moves: list) -> Box:
    past = None
    for player, action in moves:
        past = (past, player, action)
    return Box(st, trail, past=past)


class Sampling:
    """What drawing states from one state for one seat needs, found once (kept on the state's box
    until its next move): the game's sampler (observation.Sampler), a generator to seed at each
    draw, and the seat's information-state string and digest with the start of the trails of the
    states drawn; `decoded`, whether a draw is read from its number (the module's documentation)."""

    __slots__ = ("game", "st", "seat", "sampler", "rng", "info", "digest", "start", "seen", "again", "tree",
                 "ordered", "decoded", "eager", "deals", "dealt")
    AGAIN = 1024  # states drawn twice that keep a memo (of MEMO links in all)
    MEMO = 20_000
    FEW = 1024  # deals at most for every state drawn to keep a memo from its first draw

    def __init__(self, game, st, seat: int, folded: tuple[str, str], trail: Trail):
        self.game, self.st, self.seat = game, st, seat
        self.sampler = game.sampler(st, seat)
        self.ordered = ordered_piles(game, st)
        self.rng = random.Random()
        self.info, self.digest = folded  # the seat's information state and digest (Trail.fold)
        self.start = trail.sampled_start(self.digest)
        self.seen: set = set()  # the hashes of the states drawn
        self.again: dict = {}  # a state drawn twice (its places' cards, its secret choices) -> its first link
        self.tree = Tree(self.MEMO)
        deals = 1
        for _, cards in self.sampler.groups:
            deals *= factorial(len(cards))
        # read from its number: nothing drawn but the deal (no invariant to hold, no secret choice)
        self.decoded = deals <= DECODED and self.sampler.deal_only
        self.deals = deals  # a deal is its number modulo this (`deal`'s digits)
        self.dealt: dict = {}  # that remainder -> the link of its state drawn twice (`again`), once known
        # so few states to draw (Kuhn poker: 2, Leduc: 5 of 120 deals) that each will be drawn again
        self.eager = self.decoded and deals <= self.FEW

    def draw(self, u: float) -> Box:
        """The box of a state drawn with `u` (the caller's sampler, in [0, 1))."""
        if not self.decoded:
            rng = self.rng
            rng.seed(int(u * 2**53))  # as random.Random(that number) would draw
            drawn = self.sampler.draw(rng)
            if self.ordered:
                zl = drawn["z"]
                for zid in self.ordered:
                    zl[zid] = put_in_order(self.game, zl[zid])
            return self.box(drawn)
        number = int(u * 2**53)
        link = self.dealt.get(number % self.deals)
        if link is not None:  # a deal met before: its state is known without dealing it again
            return self._again(link)
        mapping = self.deal(number)
        st, game = self.st, self.game
        zl = list(st["z"])
        if mapping:
            get, loc = mapping.get, st["loc"]
            for zid in {loc[a] for a in mapping}:
                zl[zid] = tuple([get(c, c) for c in zl[zid]])
        for zid in self.ordered:
            zl[zid] = put_in_order(game, zl[zid])
        key = (tuple(zl), None)
        link = self.again.get(key)
        if link is not None:
            self._note_dealt(number, link)
            return self._again(link)
        drawn = relabel(game, st, mapping) if mapping else clone(st)
        drawn["z"] = zl
        drawn["rng"] = seed_state(number)
        box = self.box(drawn, key)
        link = self.again.get(key)
        if link is not None:
            self._note_dealt(number, link)
        return box

    def _note_dealt(self, number: int, link) -> None:
        """Remember that the deal of `number` draws the state of `link` (at most AGAIN of them)."""
        if len(self.dealt) < self.AGAIN:
            self.dealt[number % self.deals] = link

    def deal(self, number: int) -> dict:
        """The cards dealt again (card id -> the card now at its place) for `number`: each group's
        cards shuffled (Fisher-Yates), each swap a digit of the number (as many deals as orders)."""
        mapping = {}
        for places, cards in self.sampler.groups:
            new = list(cards)
            for i in range(len(new) - 1, 0, -1):
                number, j = divmod(number, i + 1)
                new[i], new[j] = new[j], new[i]
            for (_, a), b in zip(places, new):
                if a != b:
                    mapping[a] = b
        return mapping

    def box(self, st, key=None) -> Box:
        """The box of `st`, a state just drawn: a memo is kept under the states drawn twice (from
        the first draw where they are few: `eager`), the rules being deterministic given the
        chance outcomes (infostate.py); the rest start afresh.
        Two draws are the same state when they put the same cards at the same places and draw the
        same secret choices (the generator does not count: explicit chance never reads it)."""
        if key is None:
            sim = st["flow"].get("sim")
            key = (tuple(st["z"]), repr(sim) if sim else None)
            link = self.again.get(key)
            if link is not None:
                return self._again(link)
        trail = Trail.rooted(self.start, self.seat, st, self.info, self.digest)
        h = hash(key)
        if (self.eager or h in self.seen) and len(self.again) < self.AGAIN:
            self.again[key] = remembered(self.tree, trail.last, st)
        else:
            self.seen.add(h)
        return Box(st, trail)

    @staticmethod
    def _again(link) -> Box:
        box = Box(clone(link.st), Trail.at(link))
        memo = link.memo
        if memo is not None and memo.listing is not None:
            box.player, box.listed, box.ids = memo.listing
        return box


__all__ = ["Box", "Sampling", "DECODED"]
