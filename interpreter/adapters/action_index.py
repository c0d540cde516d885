"""A fixed, per-game numbering of every action a game can offer.

Libraries such as OpenSpiel and PettingZoo want actions as integers in a range known in
advance. An action is a name and argument keys (model.Action); an argument is the key of a card,
zone or seat, `yes`/`no`/`none`, a small integer, a text of the rules, or the place of a card the
deciding seat cannot identify (`ZONE@N`, information/handles.py).

Numbering: each action name gets a block of ids (names in sorted order), and its arguments are the
digits of the id within the block (a mixed radix): each position numbers the keys that argument
may ever take. Those keys are read from the content alone (definition/domains.py: the static
domain of each parameter, narrowed by what its text says of its values and by where the rules
can move each card), never learnt from sampled games: the numbering depends only on the
definition (content, players, options, variants), so ids are the same in every state, game and
process, and every legal action has one.
"""
from __future__ import annotations

from ..errors import InterpretError
from ..core.model import Action

MAX_ACTIONS = 2**31 - 1  # what a C++ int holds (OpenSpiel's num_distinct_actions)


class ActionSpaceError(InterpretError):
    """An action that the fixed numbering cannot hold."""


class ActionIndex:
    """Each argument position of each action numbers the keys it may ever take (the catalogue's
    `argument_keys`): an action's id is its block's offset plus its arguments as mixed-radix digits."""

    def __init__(self, game):
        keys = game.catalog.argument_keys()
        self.names = sorted(keys)
        self.arity = {name: len(keys[name]) for name in self.names}
        self.values = {}  # (name, position) -> the keys numbered there
        self.pos = {}
        self.offset = {}
        n = 0
        for name in self.names:
            self.offset[name] = n
            size = 1
            for i, vals in enumerate(keys[name]):
                self.values[name, i] = vals
                self.pos[name, i] = {k: j for j, k in enumerate(vals)}
                size *= len(vals)
            n += size
        self.size = n
        self._starts = [self.offset[name] for name in self.names]
        self._ids: dict = {}  # the ids and actions numbered so far (fixed for the game)
        self._actions: dict = {}
        if n > MAX_ACTIONS:
            raise ActionSpaceError(f"this game's actions cannot be numbered below {MAX_ACTIONS:,} ({n:,} ids)")

    def __deepcopy__(self, memo):
        return self  # fixed for the game

    def sizes(self) -> dict:
        """Action name -> how many ids its block holds."""
        ends = self._starts[1:] + [self.size]
        return {name: end - start for name, start, end in zip(self.names, self._starts, ends)}

    def weights(self, name: str) -> tuple:
        """What one step of each argument's digit adds to the id of an action `name`."""
        w, out = 1, []
        for p in reversed(range(self.arity[name])):
            out.append(w)
            w *= len(self.values[name, p])
        return tuple(reversed(out))

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
                raise ActionSpaceError(f"action `{action}`: argument `{a}` is not among the values the content "
                                       f"gives its position {i + 1}")
            code = code * len(self.values[name, i]) + p
        return self.offset[name] + code

    def action_of(self, i: int) -> Action:
        a = self._actions.get(i)
        if a is None:
            a = self._actions[i] = self._action_of(i)
        return a

    def _action_of(self, i: int) -> Action:
        if type(i) is not int and not hasattr(i, "__index__") or not (0 <= i < self.size):
            raise ActionSpaceError(f"no action {i}: ids are 0 to {self.size - 1}")
        i = int(i)
        lo, hi = 0, len(self.names) - 1
        while lo < hi:  # the last block starting at or before i (an empty block starts where the next does)
            mid = (lo + hi + 1) // 2
            if self._starts[mid] <= i:
                lo = mid
            else:
                hi = mid - 1
        name = self.names[lo]
        code = i - self.offset[name]
        args = []
        for p in reversed(range(self.arity[name])):
            vals = self.values[name, p]
            code, d = divmod(code, len(vals))
            args.append(vals[d])
        if code:
            raise ActionSpaceError(f"no action {i}")
        return Action(name, tuple(reversed(args)))
