"""The forward model: the one contract shared by the CLI, the tests and the bots.

    game = Game.load("dark-agent", players=4)
    state = game.new_game(seed=1)
    while not game.is_terminal(state):
        action = game.legal_actions(state)[0]
        state = game.apply(state, action)
    game.scores(state)

`apply` never changes its argument: it works on a clone, so a refused action
leaves nothing half-done. `apply_in_place` is the same without the copy, for
bots that own their state.
"""
from __future__ import annotations

from . import chance as _chance
from ..runtime import results
from ..runtime import context as rt
from ..runtime.draws import CHANCE, EXPLICIT, SAMPLED
from ..errors import InterpretError, RuleRuntimeError
from .flow import Flow
from .legality import Legality
from .guard import PYTHON_ERRORS, guard_methods, translate
from .listing import step_lister, window_lister
from ..definition.build import build_definition
from ..definition.definition import GameDefinition
from ..core.model import Action, Step, label_for, label_of
from ..core.rng import seed_state
from ..core.state import clone, from_json, initial, to_json

__all__ = ["Game", "Step", "CHANCE", "clone", "from_json", "to_json"]  # the forward model and its state helpers


class Game(Legality, Flow):
    """A compiled match plus the forward model over its states."""

    def __init__(self, match: GameDefinition):
        self.m = match
        self.seats = match.seats
        self.num_players = len(match.seats)
        self._listed = None  # (state, its legal actions): the last decision the flow stopped at
        self._offered = None  # (state, its pending choice, the options, their keys): see _options
        self._step_listers = {}  # step name, and step index -> its generated listing (listing.py)
        self._started = None  # (state after the start, its listing) when the start draws nothing (new_game)
        self._plan_flow()

    def __deepcopy__(self, memo):
        return self  # a game is a frozen definition: copies of a state share it

    def forget_listing(self, st) -> None:
        """Forget the legal actions listed for `st`: call it after changing a state by hand."""
        if self._listed is not None and self._listed[0] is st:
            self._listed = None
        if self._offered is not None and self._offered[0] is st:
            self._offered = None

    @classmethod
    def load(cls, game: str, players: int | None = None, options: dict | None = None, variants=()) -> "Game":
        from ..ruleset.loader import load_ruleset
        rs = load_ruleset(game, variants=variants)
        return cls(build_definition(rs, players or rs.default_players, options))

    # ---- start ----------------------------------------------------------------------

    def new_game(self, seed: int = 0, forced=None, chance: str = SAMPLED) -> dict:
        """The state after setup (setup choices, if any, are the first decisions).

        `chance`: "sampled" (the state's seeded generator picks every random outcome) or
        "explicit" (the game stops at each random draw, a chance node: see chance.py)."""
        m = self.m
        started = self._started
        if started is not None and chance == SAMPLED and not forced:
            # the start drew nothing at random: it is the same for every seed, but for the generator
            first, listed = started
            st = clone(first)
            st["rng"] = seed_state(seed)
            if listed is not None:
                self._listed = (st, listed[1], listed[2])
            return st
        st = initial(m, seed)
        if forced:
            st["forced"] = list(forced)
        if chance == EXPLICIT:
            st["flow"]["chance"] = EXPLICIT
            _chance.run_explicit(self, st, None, start=self._start)
            return st
        if chance != SAMPLED:
            raise ValueError(f"chance is {SAMPLED!r} or {EXPLICIT!r}, not {chance!r}")
        self._start(st)
        if not forced and m.observer is None and st["rng"] == seed_state(seed):
            # no draw read the generator, so the start depended neither on it nor on the seed
            listed = self._listed if self._listed is not None and self._listed[0] is st else None
            self._started = (clone(st), listed)
        return st

    def _start(self, st) -> None:
        """Run the setup on a new state, up to the first decision."""
        m = self.m
        ctx = rt.Ctx(st, m)
        if m.setup is not None:
            entry, scope = m.setup
            ctx.locals = [None] * scope.size
            self._run(ctx, entry)
        self._settle(ctx)

    # ---- queries --------------------------------------------------------------------

    def current_player(self, st) -> int | None:
        """The seat index to decide now, or None when the game is over."""
        if st["flow"]["phase"] == "over":
            return None
        if st["flow"].get("node") is not None:
            return CHANCE
        if st["pending"]:
            return st["pending"][-1]["player"]
        if st["flow"].get("sim"):  # a simultaneous step: the first seat that has not chosen
            return self._sim_seat(st)
        win = st["flow"].get("win")
        if win:
            return win[1][0]  # an out-of-turn window is open: its first seat decides
        p = rt.turn_player(self.m, st)
        return p.id if p is not None else None

    def is_terminal(self, st) -> bool:
        return st["flow"]["phase"] == "over"

    def is_chance(self, st) -> bool:
        """Whether `st` stands at a chance node (explicit chance only: see chance.py)."""
        return st["flow"].get("node") is not None

    def chance_outcomes(self, st) -> list[tuple[int, float]]:
        """The outcomes of the chance node `st` stands at, with their probabilities (uniform);
        [] when it is not a chance node. Outcome k is played as the action `chance k`."""
        nd = st["flow"].get("node")
        if nd is None:
            return []
        p = 1.0 / nd["n"]
        return [(k, p) for k in range(nd["n"])]

    def step_name(self, st) -> str | None:
        return rt.step_name(self.m, st)

    def legal_actions(self, st) -> list[Action]:
        """The actions the deciding seat may play now, in a stable order.

        The flow lists them once when it stops for a decision (see `_settle`) and keeps that
        list until the state changes through the forward model, so a bot's listing costs nothing
        more. Whoever changes a state by hand calls `forget_listing(st)` (scenarios do)."""
        listed = self._listed
        if listed is not None and listed[0] is st:
            return listed[1][:]  # no rule runs: not guarded
        return self._listed_now(st)

    def _listed_now(self, st) -> list[Action]:
        if st["flow"].get("node") is not None:
            return _chance.outcome_actions(st)
        return [a for a, _ in self._legal(st, labels=False)]

    def legal_actions_with_labels(self, st) -> list[tuple[Action, str]]:
        """Legal actions with their labels, written for the deciding seat: a card it cannot
        identify (a concealed one, one in another's hidden zone) reads `a card`."""
        seat = self.current_player(st)
        if seat == CHANCE:
            what = st["flow"]["node"]["what"]
            return [(a, f"{what}: {a.args[0]}") for a in _chance.outcome_actions(st)]
        if seat is None:
            return self._legal(st, labels=True)
        from ..information.views import visible_cards_ids
        return self._legal(st, labels=True, viewer=visible_cards_ids(self, st, seat))

    def label(self, st, action: Action) -> str:
        for a, text in self._legal(st, labels=True):
            if a == action:
                return text
        return str(action)

    def _legal(self, st, labels: bool, first_only: bool = False, viewer=None) -> list[tuple[Action, str | None]]:
        """The legal actions, with their labels when `labels` (written for a seat that identifies
        the cards whose ids are in `viewer`; None: every card)."""
        m = self.m
        if st["flow"]["phase"] == "over":
            return []
        if st["flow"].get("node") is not None:
            return [(a, None) for a in _chance.outcome_actions(st)]
        if st["pending"]:
            p = st["pending"][-1]
            out = []
            if labels:
                from ..information.views import prompt_for
                prompt = prompt_for(self, st, p, viewer)  # written for the viewer, from values
            # a card the chooser cannot identify is named by its place (handles.py)
            for v, key in zip(*self._options(st, p)):
                shown = label_of(v) if viewer is None else label_for(v, viewer)
                out.append((Action("choose", (key,)), f"{prompt}: {shown}" if labels else None))
            if p["optional"]:
                out.append((Action("choose", ("none",)), f"{prompt}: none" if labels else None))
            return out
        if st["flow"].get("sim"):
            return self._sim_listing(st, self._sim_seat(st), labels=labels, first_only=first_only, viewer=viewer)
        win = st["flow"].get("win")
        if win:  # an out-of-turn window: declining first, then its actions, for its seat
            w = m.windows[win[0][0]]
            ctx = rt.Ctx(st, m, m.seats[win[1][0]])
            ctx.memo = {}
            ctx.viewer = viewer
            out = [(Action(w.decline), f"{w.decline} ({w.name})" if labels else None)]
            return window_lister(self, win[0][0])(ctx, out, labels, False)
        player = rt.turn_player(m, st)
        if player is None:
            return []
        return self._list_step(st, player, labels=labels, first_only=first_only, viewer=viewer)

    def _list_step(self, st, player, *, labels: bool, first_only: bool = False, viewer=None, bare=False) -> list:
        """The legal (Action, label) pairs of the current step's actions, with `me` = `player`
        (`bare`: the actions alone)."""
        i = st["flow"].get("step", 0)
        lister = self._step_listers.get(i)  # also kept by the step's index: no name to look up
        if lister is None:
            m = self.m
            step = m.step_names[i] if 0 <= i < len(m.step_names) else None  # rt.step_name
            lister = self._step_listers[i] = step_lister(self, step)
        capped = lister.capped
        if capped is not None:  # every definition limited: nothing to list once all are used up
            used = st["used"]
            for name, limit in capped:
                if used.get(name, 0) < limit:
                    break
            else:
                return []
        ctx = rt.Ctx(st, self.m, player)
        ctx.memo = {}
        ctx.viewer = viewer
        if bare:
            return lister.bare(ctx, [])
        return lister(ctx, [], labels and not first_only, first_only)

    # ---- apply ----------------------------------------------------------------------

    def apply(self, st, action: Action | str) -> dict:
        new = clone(st)
        self.apply_in_place(new, action)
        return new

    def apply_in_place(self, st, action: Action | str, *, checked: bool = True) -> Step:
        """Apply `action` to `st` itself: verify it, then do it. `checked=False` is the fast path
        of bots and replays: it trusts that the action was taken from `legal_actions(st)`, so its
        arguments are looked up by key and nothing is re-checked.

        Guarded here rather than by guard_methods (below): one call less on the path of every move."""
        try:
            if isinstance(action, str):
                action = Action.parse(action)
            if st["flow"].get("chance") is not None:
                return _chance.run_explicit(self, st, action)
            return self._apply_plain(st, action, checked)
        except InterpretError:
            raise
        except PYTHON_ERRORS as e:
            raise translate(e) from None

    def _apply_plain(self, st, action: Action, checked: bool) -> Step:
        listed = self._listed
        if listed is not None and listed[0] is st:
            # the flow stopped here for the turn's player (listed[2]) with these actions: no
            # choice is pending, no window open, no simultaneous step; a trusted action is done
            # at once, nothing asked again
            if not checked and (a := self.m.action_by_name.get(action.name)) is not None:
                self._listed = None
                player = listed[2]
                return self._do(self._trusted_ctx(st, a, player, action), a, action, player.id)
        player = self.current_player(st)
        ctx, a = self._bind(st, action, verify=checked or bool(st["pending"]))
        if self._listed is not None and self._listed[0] is st:
            self._listed = None
        m = self.m
        if ctx is None and a is not None:  # the seat of an open window declines: the next one is asked
            win = st["flow"]["win"]
            st["flow"]["win"] = [win[0], win[1][1:]]
            ctx = rt.Ctx(st, m)
            self._settle(ctx)
            return Step(action, player, ctx.events)
        if ctx is None:  # a pending choice
            p = st["pending"].pop()
            ctx = rt.Ctx(st, m, m.seats[p["me"]] if p["me"] is not None else None)
            ctx.locals = rt.decode(m, p["locals"])
            ctx.stack = [(k, rt.decode(m, loc)) for k, loc in p["stack"]]
            ctx.locals[p["slot"]] = None if action.args[0] == "none" else self._decode_choice(st, p, action.args[0])
            self._offered = None
            self._run(ctx, m.conts[p["k"]])
        elif st["flow"].get("sim"):  # a secret choice: recorded, done when every seat has chosen
            self._sim_record(ctx, a)
        else:
            return self._do(ctx, a, action, player)
        if self._action_resets and not st["pending"]:
            self._reset(st, "action")  # modifiers that last for this action only
        self._settle(ctx)
        return Step(action, player, ctx.events)

    def _do(self, ctx, a, action: Action, player) -> Step:
        """Do the bound action `a` of the turn's player (or of an open window's seat), then move
        the flow on to the next decision."""
        st = ctx.st
        used = st["used"]
        used[a.name] = used.get(a.name, 0) + 1
        if self._windows and not st["flow"].get("win"):  # the turn's player acted: windows `each: action` open again
            st["flow"]["acts"] = st["flow"].get("acts", 0) + 1
        a.effect(ctx)  # only ever reached from apply_in_place, which guards it (a RecursionError too)
        if self._action_resets and not st["pending"]:
            self._reset(st, "action")  # modifiers that last for this action only
        self._settle(ctx)
        return Step(action, player, ctx.events)

    def _run(self, ctx, entry):
        try:
            entry(ctx)
        except RecursionError as e:
            raise translate(e) from None

    # ---- results --------------------------------------------------------------------

    def observe(self, st, seat: int | None) -> dict:
        """What `seat` knows of `st` (observation.py): the only input bots and remote clients get."""
        from ..information.observation import observe
        return observe(self, st, seat)

    def determinize(self, st, seat: int | None, rng) -> dict:
        """A full state consistent with what `seat` knows, sampled with `rng` (observation.py)."""
        from ..information.observation import determinize
        return determinize(self, st, seat, rng)

    def scores(self, st) -> list:
        m = self.m
        if m.score is None:
            return [0] * self.num_players
        ctx = rt.Ctx(st, m)
        out = []
        for s in m.seats:
            ctx.me = s
            ctx.locals = [None] * m.score_scope.size
            out.append(m.score(ctx))
        return out

    def ranking(self, st) -> list[int]:
        """Seat indices from first to last: score, then each tie-break in order."""
        return results.ranking(self.m, st)

    def winners(self, st) -> list[int]:
        return results.winners(self.m, st)

    def check_invariants(self, st) -> list[str]:
        """The content's declared invariants that do not hold in `st`."""
        m = self.m
        ctx = rt.Ctx(st, m)
        bad = []
        for f, message, size, per_player in m.invariants:
            for s in (m.seats if per_player else [None]):
                ctx.me = s
                ctx.locals = [None] * size
                try:
                    ok = f(ctx)
                except RuleRuntimeError as e:
                    bad.append(f"{message}: {e}")
                    continue
                if not ok:
                    bad.append(f"{message}" + (f" (for {s.key})" if s is not None else ""))
        # and the engine's own: every card in exactly one zone, the index agrees
        seen = [0] * len(m.cards)
        for zid, ids in enumerate(st["z"]):
            for cid in ids:
                seen[cid] += 1
                if st["loc"][cid] != zid:
                    bad.append(f"card {m.cards[cid].key} is in {m.zones[zid].key} but indexed elsewhere")
            cap = m.zones[zid].capacity
            if cap is not None and len(ids) > cap:
                bad.append(f"zone {m.zones[zid].key} holds {len(ids)} cards, more than its capacity {cap}")
        for cid, k in enumerate(seen):
            if k != 1:
                bad.append(f"card {m.cards[cid].key} is in {k} zones")
        return bad

    # ---- evaluation of rules text against a state (scenarios, the CLI, tests) ------------

    def evaluate(self, st, text: str, me: int | None = None):
        from ..lang.compiler import Scope
        from ..ruleset.yamlio import SourceText
        from ..lang.compiler import CompileError
        from ..lang.parser import ParseFailure
        from ..errors import ContentError
        src = text if isinstance(text, SourceText) else SourceText.plain(text, "<expression>")
        scope = Scope()
        try:
            f = self.m.compiler.expr(src, scope)
        except ParseFailure as e:
            raise ContentError(e.problem) from None
        except CompileError as e:
            raise ContentError(self.m.compiler.problem(e)) from None
        ctx = rt.Ctx(st, self.m, self.m.seats[me] if me is not None else rt.turn_player(self.m, st))
        ctx.locals = [None] * scope.size
        return f(ctx)


# Python exceptions met while the rules run (recursion without end, values that do not go
# together) leave the forward model as rule errors at the rule's position (guard.py).
guard_methods(Game, ("new_game", "chance_outcomes", "_listed_now", "legal_actions_with_labels", "label", "verify",
                     "can", "explain", "scores", "ranking", "winners", "check_invariants", "evaluate"))
