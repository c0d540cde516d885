"""Every game written as content is an OpenSpiel game (optional extra: `pip install ".[openspiel]"`).

    import pyspiel
    import interpreter.adapters.openspiel  # registers the game "interpret"
    game = pyspiel.load_game("interpret(game=dark-agent,players=4,variants=teams+no-dice)")

Parameters: `game` (a bundled game's name or a folder), `players` (0: the content's default),
`variants` (joined by `+`), `options` (`key=value` pairs joined by `+`, as `--option` takes them),
`seed` (the seed of the game's own random generator), `returns` (`win`, the default, or `score`)
and `utility_bound` (with `returns=score`: the most a seat can win or lose).

What OpenSpiel gets:
- turn-based dynamics; a fixed action space numbered by action_index.py;
- perfect information only when nothing a seat decides or holds is ever hidden from another: a
  zone, a card variable or a variable some seat cannot see, a card that can be concealed, or a
  step where the seats choose in secret (`simultaneous`) make it imperfect;
- returns (`returns=win`): +1 for each winner and -1 for each other seat, 0 for all when every
  seat or no seat wins; a two-seat game is then ZERO_SUM (min -1, max 1), more seats GENERAL_SUM.
  `returns=score`: each seat's score minus the mean of the scores (the chips won, in a game whose
  score is the chips a seat holds), ZERO_SUM, between -utility_bound and +utility_bound;
- state strings (`str(state)`) and views with identical pieces not told apart (canonical.py), so
  positions count as the native games count them;
- observation strings and tensors: the seat's observation (observation.py) as JSON, and as numbers
  (tensor.py, the same vector as PettingZoo's), computed only when asked; information-state strings
  and tensors: the same, with a digest of every observation the seat had since the start (perfect
  recall: infostate.py), the tensor's digest as 128 bits;
- `resample_from_infostate(seat, sampler)`: a state drawn from what the seat observes (the game's
  determinization, observation.py; sampling.py), so ISMCTS and the other sampling algorithms run
  as shipped. A pile no seat sees whose order no rule changed (engine/chance.ordered_piles: never shuffled, no
  card put in) is put back in card order, the order every seat knows it in: only what was dealt
  unseen is drawn again (Leduc poker: the opponent's card, five states).

Chance: a game whose content uses chance is `EXPLICIT_STOCHASTIC`. Its states are played in
explicit chance mode (engine/chance.py): every random draw is a chance node of OpenSpiel's chance
player, with its outcomes listed and uniform: one die per node, and a shuffle of n cards as n - 1
nodes that each deal one card to one place (the steps of Fisher-Yates), as OpenSpiel's card games
deal one card per node. A draw from a hidden pile takes the card its shuffle put on top. A
decision stopped at a draw runs again once the outcome is applied, or goes on from there in a
thread where that costs less (engine/chance.py, suspend.py). `seed`
does not pick outcomes here (OpenSpiel's chance player does); the seat's information state is
updated once a decision and its chance events are resolved, so it does not count the draws.
"""
from __future__ import annotations

import weakref
from itertools import chain
from operator import index
from typing import NamedTuple

import numpy as np
import pyspiel

from ..engine.game import CHANCE, EXPLICIT, SAMPLED, Game
from ..engine.knowledge import perfect_information
from ..core.state import NO_NOTES, NOTES
from ..core.model import Action
from . import declared_returns, is_zero_sum, returns_of
from .action_index import ActionIndex
from .canonical import Canon
from .game_params import DEFAULTS, game_type, options, split, utility
from .infostate import Trail, carried
from .sampling import Box, Sampling
from .tensor import TensorLayout

DIGEST_BITS = 128  # the information-state tensor ends with its digest, one bit per feature
_TERMINAL, _CHANCE = pyspiel.PlayerId.TERMINAL, pyspiel.PlayerId.CHANCE
_UNIFORM: dict = {}  # n -> the outcomes of a chance node of n, uniform
_OUTCOMES: dict = {}  # k -> the forward model's move (action, checked) for chance outcome k


class InterpretGame(pyspiel.Game):
    def __init__(self, params=None):
        params = {**DEFAULTS, **(params or {})}
        for key in ("players", "seed"):  # OpenSpiel keeps its parameters as 32-bit integers
            if not -2**31 <= int(params[key]) < 2**31:
                raise ValueError(f"{key}={params[key]}: a whole number between {-2**31} and {2**31 - 1} is expected")
        players = int(params["players"]) or None
        self.interpret = Game.load(str(params["game"]), players=players,
                                   options=options(params["options"]) or None,
                                   variants=split(params["variants"]))
        g = self.interpret
        self.seed = int(params["seed"])
        declared, bound = declared_returns(g)  # returns= and utility_bound= override the content's payoff
        self.returns_how = str(params["returns"]) or declared
        bound = float(params["utility_bound"]) or bound
        self.index = ActionIndex(g)
        self.canon = Canon(g)
        self.layout = TensorLayout(g)
        n = g.num_players
        self.perfect = perfect_information(g)
        chance = g.catalog.uses_chance
        g.chance_bound = g.chance_outcomes_bound() if chance else None
        low, high = utility(g, self.returns_how, bound)
        zero_sum = is_zero_sum(g, self.returns_how)
        info = pyspiel.GameInfo(
            num_distinct_actions=self.index.size,
            max_chance_outcomes=g.chance_bound or 0,
            num_players=n,
            min_utility=low,
            max_utility=high,
            utility_sum=0.0 if zero_sum else None,
            max_game_length=100_000)
        super().__init__(game_type(perfect=self.perfect, chance=chance, zero_sum=zero_sum), info, params)
        self._initial = None  # the state after a setup that draws nothing, made once
        _GAMES[str(self)] = self
        self._parts = _Parts(self)  # shared by every state of this game: what `listed` learns serves them all

    def new_initial_state(self):
        if self._initial is not None:
            return self._initial.clone()
        state = InterpretState(self, parts=self._parts)
        if state.is_chance_node():
            # a setup stopped at a draw may wait for it in a thread (engine/suspend.py), which
            # only one game can take: each game starts its own
            return state
        self._initial = state
        return state.clone()

    def make_py_observer(self, iig_obs_type=None, params=None):
        recall = iig_obs_type is not None and iig_obs_type.perfect_recall
        return _Observer(self.layout.size, recall)


# game string -> the game and its parts, while they live: a state read back (pickle) joins them,
# rather than loading its game again (0.4-0.7 s for Dark Agent)
_GAMES: weakref.WeakValueDictionary = weakref.WeakValueDictionary()
_LOADED: weakref.WeakValueDictionary = weakref.WeakValueDictionary()


def _game_named(text: str) -> InterpretGame:
    game = _GAMES.get(text)
    return game if game is not None else pyspiel.load_game(text)


def _parts_named(text: str) -> "_Parts":
    parts = _LOADED.get(text)
    return parts if parts is not None else _game_named(text)._parts


def _state_named(text: str, box: Box) -> "InterpretState":
    return InterpretState(_game_named(text), parts=_parts_named(text), box=box)


class _Parts:
    """What the states of one game share (fixed for the game): kept by each state, since the
    Python object of the game that OpenSpiel hands back may be another one."""

    __slots__ = ("interpret", "index", "canon", "layout", "returns_how", "seed", "chance", "plain", "known", "bare",
                 "text", "__weakref__")

    def __init__(self, game: InterpretGame):
        self.text = str(game)  # the game's string (pyspiel.load_game): what a serialized state names
        _LOADED[self.text] = self
        self.interpret, self.index, self.canon = game.interpret, game.index, game.canon
        self.layout, self.returns_how, self.seed = game.layout, game.returns_how, game.seed
        self.chance = game.interpret.catalog.uses_chance  # else no state of it ever stands at a chance node
        self.plain: dict = {}  # action of the forward model naming no copy of a piece -> its id
        self.known: dict = {}  # another action of the forward model -> what `listed` needs of it (`_known`)
        self.bare: dict = {}  # an id applied unlisted -> its action, when it names no copy of a piece

    def __deepcopy__(self, memo):
        return self  # fixed for the game

    def __reduce__(self):  # serialized as the game's string: the parts of that game where it is read
        return _parts_named, (self.text,)

    def replay(self, st, moves) -> None:
        """Play the forward model's `moves` ((action, checked) pairs) on `st`: a lazy link's
        state made again (infostate.Trail.fold)."""
        apply = self.interpret.apply_in_place
        for a, checked in moves:
            apply(st, a, checked=checked)

    def listed(self, st, seat: int, actions: list) -> dict:
        """id -> action, for `actions` of `seat` in `st`, each id that of the action as the seat's
        view names it (canonical.py: the copies of identical pieces renamed). What each action
        of the forward model is as such is kept, so that a listing costs a look-up an action:
        `plain`, the id of an action naming no copy of an identical piece; `known`, for the others,
        what renaming the pieces it names changes in its id (`_known`: ISMCTS' rollouts list every
        state they pass)."""
        ids = list(map(self.plain.get, actions))
        if None not in ids:
            return dict(zip(ids, actions))
        known = self.known
        try:
            entries = [(j, known[actions[j]]) for j, i in enumerate(ids) if i is None]
        except KeyError:  # an action not met yet
            entries = []
            for j, i in enumerate(ids):
                if i is None:
                    a = actions[j]
                    entry = known.get(a)
                    if entry is None:
                        entry = self._known(a)
                        if not entry[1]:  # it names no copy: its id is all there is to know
                            ids[j] = self.plain[a] = entry[0]
                            continue
                        known[a] = entry
                    entries.append((j, entry))
        for j, entry in entries:
            ids[j] = entry[0]
        if not entries:
            return dict(zip(ids, actions))
        names = self.canon.names(st, seat, set(chain.from_iterable([entry[1] for _, entry in entries])))
        if names:
            get = names.get
            for j, (i, _, digits) in entries:
                for key, weight, pos in digits:
                    new = get(key)
                    if new is not None:
                        d = pos.get(new)
                        if d is None:  # not numbered there: id_of tells how
                            return {self.index.id_of(n): a for n, a in
                                    zip(self.canon.renamed(st, seat, actions), actions)}
                        ids[j] = i = i + weight * (d - pos[key])
        return dict(zip(ids, actions))

    def _known(self, a: Action) -> tuple:
        """(the id of `a`, the copy keys among its arguments, and for each such argument: its key,
        the weight of its digit in the id and the digits of the keys its position numbers)."""
        copy_keys, index = self.canon.copy_keys, self.index
        i = index.id_of(a)
        at = [p for p, x in enumerate(a.args) if x in copy_keys]
        weights = index.weights(a.name)
        digits = tuple((a.args[p], weights[p], index.pos[a.name, p]) for p in at)
        return i, tuple(a.args[p] for p in at), digits


class InterpretState(pyspiel.State):
    def __init__(self, game: InterpretGame, st=None, trail=None, parts: _Parts | None = None, box=None):
        super().__init__(game)
        self._parts = parts = parts or _Parts(game)
        if box is None:
            if st is None:
                st = self._g.new_game(parts.seed, chance=EXPLICIT if parts.chance else SAMPLED)
            # what each seat observed after each decision, folded into its digest when asked
            box = Box(st, trail if trail is not None else Trail(self._g.num_players, st))
        self._box = box

    # The state's own attributes are its parts and its box: OpenSpiel serializes a Python state as
    # its attributes, each pickled (pyspiel.serialize_game_and_state; the parts as the game's string,
    # the box as its state, trail and moves: sampling.Box); what the parts hold is read through them.
    @property
    def _g(self) -> Game:
        return self._parts.interpret

    @property
    def _index(self) -> ActionIndex:
        return self._parts.index

    def __reduce__(self):  # pickle.dumps(state)
        return _state_named, (self._parts.text, self._box)

    @property
    def _st(self):
        return self._box.st

    @property
    def _trail(self):
        return self._box.trail

    # ---- what a seat knows, computed when asked ----
    def observation_text(self, seat: int) -> str:
        return self._parts.canon.view_text(self._st, seat)

    def _fold(self, seat: int) -> tuple[str, str]:
        """(the seat's information-state string, its digest): infostate.Trail.fold."""
        box = self._box
        return box.trail.fold(seat, self._parts.canon.view_text, current=box.st, replay=self._parts.replay)

    def info_text(self, seat: int) -> str:
        """The seat's view, then `history` and the digest of every view it had: kept by the trail's
        last link once written (a search asks it of the same node two or three times)."""
        trail = self._box.trail
        info = trail.last.texts[seat] if trail.pending is None else None
        return info if info is not None else self._fold(seat)[0]

    def observation_vector(self, seat: int) -> np.ndarray:
        return self._parts.layout.encode(self._parts.canon.view(self._st, seat))

    def info_vector(self, seat: int) -> np.ndarray:
        _, digest = self._fold(seat)
        bits = np.unpackbits(np.frombuffer(bytes.fromhex(digest), np.uint8)).astype(np.float32)
        return np.concatenate([self.observation_vector(seat), bits])

    # ---- the pyspiel.State contract ----
    def current_player(self):  # asked by OpenSpiel at every move: kept until the next move
        box = self._box
        p = box.player
        if p is None:
            flow = box.st["flow"]
            if flow["phase"] == "over":
                p = _TERMINAL
            elif flow.get("node") is not None:
                p = _CHANCE
            else:
                p = int(self._g.current_player(box.st))
            box.player = p
        return p

    def is_chance_node(self):
        return self._box.st["flow"].get("node") is not None

    def chance_outcomes(self):
        nd = self._box.st["flow"].get("node")
        if nd is None:
            return []
        n = nd["n"]
        uniform = _UNIFORM.get(n)
        if uniform is None:
            p = 1.0 / n
            uniform = _UNIFORM[n] = [(k, p) for k in range(n)]
        return uniform[:]

    def _legal_actions(self, player):
        box = self._box
        if player < 0:
            nd = box.st["flow"].get("node") if player == CHANCE else None
            return list(range(nd["n"])) if nd is not None else []
        if box.ids is not None:  # listed since the last move, for the seat deciding
            return box.ids if player == box.player else []
        if player != (box.player if box.player is not None else self.current_player()) or type(box.player) is not int:
            return []
        st = box.st
        actions = self._g.legal_actions(st)
        # id -> the action of the forward model's listing (applied as a trusted one), identical
        # pieces named as the seat's view names them (canonical.py)
        box.listed = listed = self._parts.listed(st, player, actions)
        box.ids = ids = sorted(listed)
        memo = box.trail.last.memo
        if memo is not None and not box.trail.since:  # kept for the states passing here again
            memo.listing = (player, box.listed, ids)
        return ids

    # ---- answered here for Python callers: pyspiel's own go through C++ and back into Python
    # (legal_actions asks current_player three times and is_terminal before _legal_actions),
    # which a search calling them at every node pays; C++ callers still take pyspiel's path,
    # which ends in the same methods. Anything unusual (a pseudo-player) is left to pyspiel.
    def legal_actions(self, player=None):
        p = self.current_player()
        if p < 0:
            if p == _TERMINAL:
                return []
            if p == _CHANCE:
                return list(range(self._box.st["flow"]["node"]["n"]))
        elif player is None or player == p:
            return self._legal_actions(p)[:]  # the caller's own list, as pyspiel gives
        elif player >= 0:
            return []
        return pyspiel.State.legal_actions(self, player)

    def information_state_string(self, player=None):
        if player is None:
            player = self.current_player()
        if 0 <= player < self._g.num_players:
            return self.info_text(player)
        return pyspiel.State.information_state_string(self, player)  # raises as pyspiel does

    def observation_string(self, player=None):
        if player is None:
            player = self.current_player()
        if 0 <= player < self._g.num_players:
            return self.observation_text(player)
        return pyspiel.State.observation_string(self, player)

    def id_of_action(self, action: Action) -> int:
        """The id of the forward model's `action`, legal here, as the deciding seat's view names it
        (identical pieces renamed): what an agent of the engine playing through this state applies."""
        if self._box.listed is None:
            self._legal_actions(self.current_player())
        for i, a in (self._box.listed or {}).items():
            if a == action:
                return i
        raise ValueError(f"{action} is not legal here")

    def apply_action(self, action):
        """pyspiel's apply_action, answered here for Python callers: pyspiel's own goes through C++
        and back into Python twice (current_player, then _apply_action), a third of what a move
        costs the adapter beyond the engine's own apply. Its only other work is the history it
        keeps in C++, which this state keeps itself (history() and the rest, below); C++ callers
        still take pyspiel's path, which ends in _apply_action."""
        self._apply_action(action if type(action) is int else index(action))

    def _apply_action(self, action):
        box = self._box
        player = box.player
        if player is None:
            player = self.current_player()
        box.past = (box.past, player, action)
        st, listed, trail = box.st, box.listed, box.trail
        box.listed = box.ids = box.player = box.sampling = None
        if trail.last.memo is not None:  # under a state drawn twice: what follows may be known (infostate.py)
            known = trail.recall(action)
            if known is not None:
                box.st, listing = known
                if listing is not None:
                    box.player, box.listed, box.ids = listing
                return
        g = self._g
        if player == _CHANCE:
            move = _OUTCOMES.get(action)
            if move is None:  # the forward model's action for outcome `action` (never checked again)
                move = (Action("chance", (str(action),)), True)
                if 0 <= action < 4096:
                    _OUTCOMES[action] = move
            g.apply_in_place(st, move[0])
            if st["flow"].get("node") is not None:
                trail.stopped(st, action, move)
                box.player = _CHANCE  # more chance events to resolve before the decision is done
                return
        else:
            a = listed.get(action) if listed is not None else None
            if a is not None:  # an action of the forward model's listing: done as a trusted one
                checked = False
            else:
                parts = self._parts
                a = parts.bare.get(action)
                if a is None:
                    a = self._index.action_of(action)
                    canon = parts.canon  # named as the seat's view names it
                    if canon.copy_keys.isdisjoint(a.args):
                        parts.bare[action] = a
                    else:
                        a = canon.renamed(st, g.current_player(st), [a], back=True)[0]
                noted = st.get(NOTES, NO_NOTES).listing  # what Game.apply trusts
                checked = noted is None or a not in noted
            g.apply_in_place(st, a, checked=checked)
            move = (a, checked)
        trail.push(st, action, move)  # a decision and its chance events are resolved
        notes = st.get(NOTES, NO_NOTES)
        if notes.listing is not None and st["flow"]["phase"] != "over":
            # the flow stopped for the turn's seat, no choice pending nor window open (Notes):
            # the player OpenSpiel asks for before the next move
            box.player = notes.seat.id

    def _action_to_string(self, player, action):
        if player == pyspiel.PlayerId.CHANCE or player == CHANCE:
            node = self._st["flow"].get("node")
            return f"{node['what']}: {action}" if node else f"chance {action}"
        return str(self._index.action_of(action))

    def is_terminal(self):
        return self._box.st["flow"]["phase"] == "over"

    def returns(self):
        trail = self._box.trail
        memo = trail.last.memo
        if memo is None or trail.since:
            return returns_of(self._g, self._st, self._parts.returns_how)
        if memo.returns is None:  # kept for the states passing here again
            memo.returns = returns_of(self._g, self._st, self._parts.returns_how)
        return list(memo.returns)

    def resample_from_infostate(self, player_id, probability_sampler):
        """A state drawn from what `player_id` observes: the cards it cannot identify dealt again
        among the places it cannot see, the other seats' secret choices drawn again, the random
        generator reseeded (observation.determinize), the piles whose order every seat knows put
        back in it (engine/chance.ordered_piles), a function of one number of `probability_sampler`
        (sampling.py); its information state is the seat's own."""
        box = self._box
        sampling = box.sampling.get(player_id) if box.sampling is not None else None
        if sampling is None:
            sampling = Sampling(self._g, box.st, player_id, self._fold(player_id), box.trail)
            box.sampling = {**(box.sampling or {}), player_id: sampling}
        return InterpretState(self.get_game(), parts=self._parts, box=sampling.draw(probability_sampler()))

    def clone(self):
        box = self._box
        return InterpretState(self.get_game(), parts=self._parts,
                              box=Box(carried(box.st), box.trail.copy(), box.listed, box.ids, box.player, box.past))

    def __deepcopy__(self, memo):
        return self.clone()

    # ---- the history, kept with the state: a clone is a new pyspiel state, whose own history (C++)
    # starts empty, and a move applied from Python (apply_action, above) does not reach it; C++
    # code reading a state's history (pyspiel.State.history) sees only the moves C++ applied.
    # A state drawn by resample_from_infostate has none: its deal is not the real one.
    def history(self):
        return [action for _player, action in self._moves()]

    def full_history(self):
        return [PlayerAction(player, action) for player, action in self._moves()]

    def history_str(self):
        return ", ".join(str(action) for _player, action in self._moves())

    def is_initial_state(self):
        return self._box.past is None

    def move_number(self):
        n, node = 0, self._box.past
        while node is not None:
            node, n = node[0], n + 1
        return n

    def _moves(self) -> list:
        out, node = [], self._box.past
        while node is not None:
            node, player, action = node
            out.append((player, action))
        out.reverse()
        return out

    def __str__(self):
        return self._parts.canon.state_text(self._st)


class PlayerAction(NamedTuple):
    """One move of a state's history, as pyspiel's PlayerAction reads (`.player`, `.action`): pyspiel's
    own cannot be made from Python."""
    player: int
    action: int


class _Observer:
    """Strings and tensors: the seat's observation, or its information state (perfect recall)."""

    def __init__(self, size: int, perfect_recall: bool):
        self.recall = perfect_recall
        self.tensor = np.zeros(size + (DIGEST_BITS if perfect_recall else 0), np.float32)
        self.dict = {"observation": self.tensor[:size]}
        if perfect_recall:
            self.dict["history"] = self.tensor[size:]

    def set_from(self, state, player):
        self.tensor[:] = state.info_vector(player) if self.recall else state.observation_vector(player)

    def string_from(self, state, player):
        return state.info_text(player) if self.recall else state.observation_text(player)


pyspiel.register_game(game_type(), InterpretGame)

__all__ = ["InterpretGame", "InterpretState"]
