"""A fixed, per-game numbering of every action a game can offer.

Libraries such as OpenSpiel and PettingZoo want actions as integers in a range known in
advance. An action is a name and argument keys (model.Action); an argument is the key of a card,
zone or seat, `yes`/`no`/`none`, or a small integer. Numbering: each action name gets a block of
ids, and its arguments are the digits of the id within the block, each position numbering the
values of the kinds it takes (ActionIndex).

The numbering depends only on the definition (content, players, options, variants), so ids are
stable across states, games and processes.
"""
from __future__ import annotations

import random

from ..errors import InterpretError
from ..information.handles import HANDLE
from ..core.model import Action, Card, Seat, Zone

MAX_INT_ARG = 100  # integer arguments 0..MAX_INT_ARG are numbered (board columns, counts...)
MAX_ACTIONS = 2**31 - 1  # what a C++ int holds (OpenSpiel's num_distinct_actions)


class ActionSpaceError(InterpretError):
    """An action that the fixed numbering cannot hold."""


def _kinds(cat) -> dict:
    """The keys of each kind of argument value: cards, zones, seats, words, small integers."""
    keys = cat.value_by_key
    out = {"card": sorted(c.key for c in cat.cards), "zone": sorted(z.key for z in cat.zones),
           "seat": sorted(s.key for s in cat.seats), "word": ["no", "none", "yes"]}
    taken = set(keys)
    out["int"] = [str(i) for i in range(MAX_INT_ARG + 1) if str(i) not in taken]
    # a card the decider cannot identify is named by its place (handles.py): ZONE@N
    out["slot"] = [f"{z.key}{HANDLE}{n}" for z in cat.zones if z.visibility != "public"
                   for n in range(1, (z.capacity or len(cat.cards)) + 1)]
    return out


def _kind_of(cat, key: str) -> str:
    v = cat.value_by_key.get(key, key)
    if isinstance(v, Card):
        return "card"
    if isinstance(v, Zone):
        return "zone"
    if isinstance(v, Seat):
        return "seat"
    if key in ("yes", "no", "none"):
        return "word"
    if HANDLE in key:
        return "slot"
    return "int"


class ActionIndex:
    """Each argument position of each action numbers the values of the kinds it takes.

    The kinds (card, zone, seat, word, integer) of each position are learnt once from a few seeded
    random games; a position never seen takes every kind. So the space is small enough for
    action masks, and it is the same in every process."""

    def __init__(self, game, *, games: int = 3, steps: int = 400):
        cat = game.catalog
        self.kinds = _kinds(cat)
        arity = {"choose": 1}
        for a in cat.actions:
            arity[a.name] = len(a.params)
        for w in cat.windows:
            arity[w.decline] = 0
        seen: dict[tuple, set] = {}
        for seed in range(games):
            st = game.new_game(seed)
            rng = random.Random(seed)
            for _ in range(steps):
                if game.is_terminal(st):
                    break
                actions = game.legal_actions(st)
                for a in actions:
                    for i, key in enumerate(a.args):
                        seen.setdefault((a.name, i), set()).add(_kind_of(cat, key))
                game.apply_in_place(st, actions[rng.randrange(len(actions))])
        every = sorted(k for k in self.kinds if k != "slot")  # places: only where one was seen
        self.names = sorted(arity)
        self.arity = arity
        self.values = {}  # (name, position) -> the keys numbered there
        self.pos = {}
        self.offset = {}
        n = 0
        for name in self.names:
            self.offset[name] = n
            size = 1
            for i in range(arity[name]):
                kinds = sorted(seen.get((name, i)) or every)
                vals = [k for kind in kinds for k in self.kinds[kind]]
                self.values[name, i] = vals
                self.pos[name, i] = {k: j for j, k in enumerate(vals)}
                size *= len(vals)
            n += size
        self.size = n
        self._ids: dict = {}  # the ids and actions numbered so far (fixed for the game)
        self._actions: dict = {}
        if n > MAX_ACTIONS:
            raise ActionSpaceError(f"this game's actions cannot be numbered below {MAX_ACTIONS:,} ({n:,} ids)")

    def __deepcopy__(self, memo):
        return self  # fixed for the game

    def id_of(self, action: Action) -> int:
        i = self._ids.get(action)
        if i is None:
            i = self._ids[action] = self._id_of(action)
        return i

    def _id_of(self, action: Action) -> int:
        name, args = action.name, action.args
        if name not in self.offset or len(args) != self.arity[name]:
            raise ActionSpaceError(f"action `{action}` is not in this game's action space")
        code = 0
        for i, a in enumerate(args):
            p = self.pos[name, i].get(a)
            if p is None:
                raise ActionSpaceError(f"action `{action}`: argument `{a}` is not numbered at position {i + 1} "
                                       f"(numbers above {MAX_INT_ARG} never are)")
            code = code * len(self.values[name, i]) + p
        return self.offset[name] + code

    def action_of(self, i: int) -> Action:
        a = self._actions.get(i)
        if a is None:
            a = self._actions[i] = self._action_of(i)
        return a

    def _action_of(self, i: int) -> Action:
        if not (0 <= i < self.size):
            raise ActionSpaceError(f"no action {i}: ids are 0 to {self.size - 1}")
        name = self.names[0]
        for n in self.names:  # the last block starting at or before i
            if self.offset[n] <= i:
                name = n
            else:
                break
        code = i - self.offset[name]
        args = []
        for p in reversed(range(self.arity[name])):
            vals = self.values[name, p]
            code, d = divmod(code, len(vals))
            args.append(vals[d])
        if code:
            raise ActionSpaceError(f"no action {i}")
        return Action(name, tuple(reversed(args)))
