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

from dataclasses import dataclass, field

from . import runtime as rt
from .errors import IllegalActionError, Location, RefusalKind, RuleRuntimeError
from .guard import guard_methods, translate
from .match import Match
from .model import Action, Seat, key_of, label_for, label_of
from .state import clone, from_json, to_json

__all__ = ["Game", "Step", "clone", "from_json", "to_json"]  # the forward model and its state helpers

_MISSING = object()
_MAX_SETTLE = 10_000


@dataclass
class Step:
    """What one apply did: the action, who played it, and the events it caused."""

    action: Action
    player: int | None
    events: list = field(default_factory=list)


class Game:
    """A compiled match plus the forward model over its states."""

    def __init__(self, match: Match):
        self.m = match
        self.seats = match.seats
        self.num_players = len(match.seats)
        self._listed = None  # (state, its legal actions): the last decision the flow stopped at

    def __deepcopy__(self, memo):
        return self  # a game is a frozen definition: copies of a state share it

    def forget_listing(self, st) -> None:
        """Forget the legal actions listed for `st`: call it after changing a state by hand."""
        if self._listed is not None and self._listed[0] is st:
            self._listed = None

    @classmethod
    def load(cls, game: str, players: int | None = None, options: dict | None = None, variants=()) -> "Game":
        from .loader import load_ruleset
        rs = load_ruleset(game, variants=variants)
        return cls(Match(rs, players or rs.default_players, options))

    # ---- start ----------------------------------------------------------------------

    def new_game(self, seed: int = 0, forced=None) -> dict:
        """The state after setup (setup choices, if any, are the first decisions)."""
        m = self.m
        st = m.new_state(seed)
        if forced:
            st["forced"] = list(forced)
        ctx = rt.Ctx(st, m)
        if m.setup is not None:
            entry, scope = m.setup
            ctx.locals = [None] * scope.size
            self._run(ctx, entry)
        self._settle(ctx)
        return st

    # ---- queries --------------------------------------------------------------------

    def current_player(self, st) -> int | None:
        """The seat index to decide now, or None when the game is over."""
        if st["flow"]["phase"] == "over":
            return None
        if st["pending"]:
            return st["pending"][-1]["player"]
        win = st["flow"].get("win")
        if win:
            return win[1][0]  # an out-of-turn window is open: its first seat decides
        p = self.m.turn_player(st)
        return p.id if p is not None else None

    def is_terminal(self, st) -> bool:
        return st["flow"]["phase"] == "over"

    def step_name(self, st) -> str | None:
        return self.m.step_name(st)

    def legal_actions(self, st) -> list[Action]:
        """The actions the deciding seat may play now, in a stable order.

        The flow lists them once when it stops for a decision (see `_settle`) and keeps that
        list until the state changes through the forward model, so a bot's listing costs nothing
        more. Whoever changes a state by hand calls `forget_listing(st)` (scenarios do)."""
        listed = self._listed
        if listed is not None and listed[0] is st:
            return listed[1][:]
        return [a for a, _ in self._legal(st, labels=False)]

    def legal_actions_with_labels(self, st) -> list[tuple[Action, str]]:
        """Legal actions with their labels, written for the deciding seat: a card it cannot
        identify (a concealed one, one in another's hidden zone) reads `a card`."""
        seat = self.current_player(st)
        if seat is None:
            return self._legal(st, labels=True)
        from .views import redact_for, visible_cards_ids
        out = self._legal(st, labels=True, viewer=visible_cards_ids(self, st, seat))
        if st["pending"]:  # the prompt was written when the rule stopped, for nobody in particular
            return [(a, redact_for(self, st, seat, text)) for a, text in out]
        return out

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
        if st["pending"]:
            p = st["pending"][-1]
            out = []
            for v in rt.decode(m, p["options"]):
                shown = label_of(v) if viewer is None else label_for(v, viewer)
                out.append((Action("choose", (key_of(v),)), f"{p['prompt']}: {shown}"))
            if p["optional"]:
                out.append((Action("choose", ("none",)), f"{p['prompt']}: none"))
            return out
        win = st["flow"].get("win")
        if win:  # an out-of-turn window: declining first, then its actions, for its seat
            w = m.windows[win[0][0]]
            ctx = rt.Ctx(st, m, m.seats[win[1][0]])
            ctx.memo = {}
            ctx.viewer = viewer
            out = [(Action(w.decline), f"{w.decline} ({w.name})" if labels else None)]
            for a in m.window_actions[win[0][0]]:
                self._walk(ctx, a, out, labels=labels)
            return out
        player = m.turn_player(st)
        if player is None:
            return []
        ctx = rt.Ctx(st, m, player)
        ctx.memo = {}
        ctx.viewer = viewer
        out = []
        for a in m.actions_by_step.get(m.step_name(st), ()):
            self._walk(ctx, a, out, labels=labels, first_only=first_only)
            if first_only and out:
                break
        return out

    # ---- one legality path: walk an action definition's parameters ------------------
    #
    # Listing (every legal binding), verifying an action (its binding, or why there is none)
    # and binding a trusted action (one taken from the listing) all walk a definition the
    # same way: parameter by parameter, each bound from its domain, each requirement checked.

    def _walk(self, ctx, a, out, *, labels=True, first_only=False):
        """Append to `out` the legal (Action, label) pairs of definition `a`.

        Each requirement is checked as soon as the parameters it reads are bound,
        so whole branches of the parameter product are cut early."""
        if a.limit is not None and ctx.st["used"].get(a.name, 0) >= a.limit:
            return
        ctx.locals = [None] * a.nslots
        params = a.params
        by_level = a.requires_by_level
        if not params:  # the frequent case of an action without parameters
            for f in by_level[0]:
                if not f(ctx):
                    return
            out.append((Action(a.name, ()), a.label(ctx) if labels and not first_only else None))
            return
        n = len(params)

        def rec(i, keys):
            for f in by_level[i]:
                if not f(ctx):
                    return False
            if i == n:
                out.append((Action(a.name, tuple(keys)), a.label(ctx) if labels and not first_only else None))
                return first_only
            _, slot, dom = params[i]
            for v in list(dom(ctx) or []):
                ctx.locals[slot] = v
                if rec(i + 1, keys + [key_of(v)]):
                    return True
            ctx.locals[slot] = None
            return False
        rec(0, [])

    def _bind(self, st, action: Action, *, verify: bool = True, seat: int | None = None):
        """The binding of `action` in `st`: (ctx, definition), or (None, None) for a pending choice.

        With `verify`, every rule of the definition is checked in the order a player reads them
        (the step, the limit, the arguments against their domains, then each requirement as
        declared) and a refusal raises IllegalActionError with its kind and reason. Without it
        the action is trusted to come from `legal_actions(st)`: its arguments are looked up by key."""
        m = self.m
        if st["flow"]["phase"] == "over":
            raise IllegalActionError(action, "the game is over", RefusalKind.GAME_OVER)
        if seat is not None and verify:
            deciding = self.current_player(st)
            if deciding != seat:
                who = m.seats[deciding].key if deciding is not None else "nobody"
                raise IllegalActionError(action, f"it is {who}'s decision, not p{seat + 1}'s",
                                         RefusalKind.NOT_YOUR_TURN)
        if st["pending"]:
            p = st["pending"][-1]
            if action.name != "choose" or len(action.args) != 1:
                raise IllegalActionError(action, f"a choice is pending ({p['prompt']}): play `choose OPTION`",
                                         RefusalKind.CHOICE_PENDING)
            key = action.args[0]
            if key == "none" and p["optional"]:
                return None, None
            for v in rt.decode(m, p["options"]):
                if key_of(v) == key:
                    return None, None
            opts = ", ".join(key_of(v) for v in rt.decode(m, p["options"]))
            raise IllegalActionError(action, f"{key} is not one of the options for {p['prompt']}: {opts}",
                                     RefusalKind.NOT_AN_OPTION)
        player = m.turn_player(st)
        win = st["flow"].get("win")
        if win:
            w = m.windows[win[0][0]]
            player = m.seats[win[1][0]]
            if action.name == w.decline:
                if action.args:
                    raise IllegalActionError(action, f"`{w.decline}` takes no argument")
                return None, w
            if action.name not in w.actions:
                raise IllegalActionError(action, f"window `{w.name}` is open: {player.key} may play "
                                                 + ", ".join(f"`{n}`" for n in (w.decline,) + w.actions))
        else:
            w = m.window_action_names.get(action.name)
            if w is not None:
                raise IllegalActionError(action, f"`{action.name}` is played in window `{w.name}`, "
                                                 "which is not open now")
            if any(action.name == w.decline for w in m.windows):
                raise IllegalActionError(action, f"`{action.name}` declines a window, and none is open now")
        a = m.action_by_name.get(action.name)
        if not verify:
            ctx = rt.Ctx(st, m, player)
            ctx.locals = [None] * a.nslots
            by_key = m.value_by_key()
            for (_, slot, _), key in zip(a.params, action.args):
                v = by_key.get(key, _MISSING)
                if v is _MISSING:
                    v = int(key) if key.lstrip("-").isdigit() else key
                ctx.locals[slot] = v
            return ctx, a
        if a is None:
            from .dsl.compiler import did_you_mean
            hint = did_you_mean(action.name, m.action_by_name)
            raise IllegalActionError(action, f"no action `{action.name}` in this game" + (f"; {hint}" if hint else ""),
                                     RefusalKind.UNKNOWN_ACTION)
        step = m.step_name(st)
        if a.name in m.never_legal:
            ctx = rt.Ctx(st, m, player)
            for f, reason, _ in a.requires:
                ctx.locals = [None] * a.nslots
                try:
                    if not f(ctx):
                        raise IllegalActionError(action, reason(ctx))
                except IllegalActionError:
                    raise
                except Exception:
                    pass
            raise IllegalActionError(action, f"`{a.name}` is not played with these options")
        if a.steps is not None and step not in a.steps and not win:
            raise IllegalActionError(action, f"`{a.name}` is played in step {'/'.join(sorted(a.steps))}, "
                                             f"and this is step {step}", RefusalKind.WRONG_STEP)
        if a.limit is not None and st["used"].get(a.name, 0) >= a.limit:
            raise IllegalActionError(action, f"`{a.name}` may be played {a.limit} time(s) per turn",
                                     RefusalKind.LIMIT_REACHED)
        if len(action.args) != len(a.params):
            raise IllegalActionError(action, f"`{a.name}` takes {len(a.params)} argument(s): "
                                             + " ".join(p for p, _, _ in a.params), RefusalKind.WRONG_ARGUMENTS)
        ctx = rt.Ctx(st, m, player)
        ctx.memo = {}  # nothing changes the state while the action is checked
        ctx.locals = [None] * a.nslots
        for (pname, slot, dom), key in zip(a.params, action.args):
            options = list(dom(ctx) or [])
            for v in options:
                if key_of(v) == key:
                    ctx.locals[slot] = v
                    break
            else:
                shown = ", ".join(key_of(v) for v in options[:12]) or "none"
                raise IllegalActionError(action, f"{key} is not a possible {pname} now (possible: {shown})",
                                         RefusalKind.OUT_OF_DOMAIN)
        for f, reason, _ in a.requires:
            if not f(ctx):
                raise IllegalActionError(action, reason(ctx))
        ctx.memo = None
        return ctx, a

    # ---- verify / can / do ---------------------------------------------------------

    def verify(self, st, action: Action | str, *, seat: int | None = None) -> None:
        """Raise IllegalActionError (with its `kind` and `reason`) when `action` is refused in
        `st`; with `seat`, also when that seat is not the one to decide."""
        if isinstance(action, str):
            action = Action.parse(action)
        self._bind(st, action, seat=seat)

    def can(self, st, action: Action | str, *, seat: int | None = None) -> bool:
        """Whether `verify` accepts `action`."""
        try:
            self.verify(st, action, seat=seat)
        except IllegalActionError:
            return False
        return True

    def explain(self, st, action: Action | str, *, seat: int | None = None) -> str | None:
        """Why `action` is refused in `st`, or None when it is legal."""
        try:
            self.verify(st, action, seat=seat)
        except IllegalActionError as e:
            return e.reason
        return None

    def is_legal(self, st, action: Action | str) -> bool:
        return self.can(st, action)

    # ---- apply ----------------------------------------------------------------------

    def apply(self, st, action: Action | str) -> dict:
        new = clone(st)
        self.apply_in_place(new, action)
        return new

    def apply_in_place(self, st, action: Action | str, *, checked: bool = True) -> Step:
        """Apply `action` to `st` itself: verify it, then do it. `checked=False` is the fast path
        of bots and replays: it trusts that the action was taken from `legal_actions(st)`, so its
        arguments are looked up by key and nothing is re-checked."""
        if isinstance(action, str):
            action = Action.parse(action)
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
            ctx.locals[p["slot"]] = None if action.args[0] == "none" else self._decode_choice(p, action.args[0])
            self._run(ctx, m.conts[p["k"]])
        else:
            st["used"][a.name] = st["used"].get(a.name, 0) + 1
            if m.windows and not st["flow"].get("win"):  # the turn's player acted: windows `each: action` open again
                st["flow"]["acts"] = st["flow"].get("acts", 0) + 1
            self._run(ctx, a.effect)
        if not st["pending"]:
            self._reset(st, "action")  # modifiers that last for this action only
        self._settle(ctx)
        return Step(action, player, ctx.events)

    def _decode_choice(self, p, key):
        for v in rt.decode(self.m, p["options"]):
            if key_of(v) == key:
                return v
        return None

    def _run(self, ctx, entry):
        try:
            entry(ctx)
        except RecursionError as e:
            raise translate(e) from None

    # ---- the flow of rounds, turns and steps -------------------------------------------

    def _call_effect(self, ctx, compiled, me=None):
        if compiled is None:
            return
        entry, scope = compiled
        ctx.me = me
        ctx.locals = [None] * scope.size
        ctx.stack = []
        self._run(ctx, entry)

    def _emit(self, ctx, name, args):
        if self.m._handlers["on"].get(name):
            ctx.events.append((name, args))
            self.m._event_direct[name](ctx, args)

    def _settle(self, ctx):
        """Move the flow on until a decision is needed or the game is over."""
        st = ctx.st
        m = self.m
        flow = st["flow"]
        for _ in range(_MAX_SETTLE):
            if flow["phase"] == "over":
                return
            fin = flow.get("finish")
            if fin == "game":
                st["pending"].clear()
                flow["phase"] = "over"
                flow["finish"] = None
                return
            if st["pending"]:
                if fin is None or flow["phase"] == "setup":
                    return
                st["pending"].clear()  # a turn that ends drops what was waiting
            resume = flow.get("resume")
            if resume:  # a flow effect (round or turn start/end) waited for a choice: carry on
                flow["resume"] = None
                if resume == "order":
                    self._begin_order(ctx)
                elif resume == "first_step":
                    self._next_step(ctx)
                elif resume in ("turn_ended:next", "turn_ended:round"):
                    self._after_end_turn(ctx, resume.split(":")[1])
                elif resume == "round_ended":
                    self._after_round_end(ctx)
                continue
            if flow["phase"] == "setup":
                self._start_round(ctx)
                continue
            if fin is not None and flow.get("win"):
                flow["win"] = None  # a step, turn or round that ends closes its window
            if fin == "round":
                flow["finish"] = None
                self._end_turn(ctx, then="round")
                continue
            if fin == "turn":
                flow["finish"] = None
                self._end_turn(ctx, then="next")
                continue
            if fin == "step":
                flow["finish"] = None
                self._next_step(ctx)
                continue
            # no pending choice, nothing finished: does the current step need a decision?
            if flow["pos"] >= len(flow["order"]):
                self._end_round(ctx)
                continue
            step = m.steps[flow["step"]] if flow["step"] < len(m.steps) else None
            if step is None:
                self._end_turn(ctx, then="next")
                continue
            if m.windows and self._window_decides(ctx):
                return
            if self._has_action(st):
                return
            self._next_step(ctx)
        rs = m.rs
        where = next((rs.origins[k] for k in (("flow", "turn"), ("flow", "round")) if k in rs.origins),
                     Location(rs.files[0] if rs.files else rs.name))
        raise RuleRuntimeError(f"the flow did not settle after {_MAX_SETTLE} transitions without a decision: "
                               f"the rules loop (a turn, step or round that always finishes at once, with "
                               f"no action to play?)", where)

    def _has_action(self, st) -> bool:
        """Whether the turn player has a legal action in the current step. The list is kept
        for `legal_actions` (with the state it is of: the last state the flow stopped in)."""
        listed = [a for a, _ in self._legal(st, labels=False)]
        if listed:
            self._listed = (st, listed)
            return True
        return False

    # ---- out-of-turn windows (flow.turn.windows) ---------------------------------------------
    # flow["win"] is None or [windows still to visit at this moment (the first is open),
    # its seats still to ask (the first decides; None until the window opens)]. flow["wseen"] is
    # the last moment [step, actions of the turn's player] at which the windows were visited.

    def _window_decides(self, ctx) -> bool:
        """Open, go on with or close the windows at this moment of the turn: True when a seat of an
        open window has a decision. A seat with nothing to do but decline is not asked."""
        st, m = ctx.st, self.m
        flow = st["flow"]
        win = flow.get("win")
        if not win:
            moment = [flow["step"], flow.get("acts", 0)]
            seen = flow.get("wseen")
            if seen == moment:
                return False
            new_step = seen is None or seen[0] != moment[0]
            flow["wseen"] = moment
            step = m.step_name(st)
            due = [i for i, w in enumerate(m.windows)
                   if (w.steps is None or step in w.steps) and (new_step or w.each == "action")]
            if not due:
                return False
            win = [due, None]
        while win:
            due, seats = win
            if seats is None:
                seats = self._window_seats(ctx, m.windows[due[0]])
            while seats and not self._window_has_action(st, due[0], seats[0]):
                seats = seats[1:]
            if seats:
                flow["win"] = [due, seats]
                return True
            win = [due[1:], None] if len(due) > 1 else None
        flow["win"] = None
        return False

    def _window_seats(self, ctx, w) -> list[int]:
        m = self.m
        f, size = w.seats
        ctx.me = m.turn_player(ctx.st)
        ctx.locals = [None] * size
        got = f(ctx)
        if not isinstance(got, list) or not all(isinstance(s, Seat) for s in got):
            raise RuleRuntimeError(f"the seats of window `{w.name}` must be a list of players, not {label_of(got)}",
                                   w.where)
        return [s.id for s in got]

    def _window_has_action(self, st, i, seat) -> bool:
        m = self.m
        ctx = rt.Ctx(st, m, m.seats[seat])
        ctx.memo = {}
        out = []
        for a in m.window_actions[i]:
            self._walk(ctx, a, out, first_only=True)
            if out:
                return True
        return False

    def _start_round(self, ctx):
        st = ctx.st
        m = self.m
        flow = st["flow"]
        flow["phase"] = "play"
        flow["round"] += 1
        self._reset(st, "round")
        self._call_effect(ctx, m.round_start)
        self._emit(ctx, "round_start", [])
        if st["pending"]:
            flow["resume"] = "order"
            return
        self._begin_order(ctx)

    def _begin_order(self, ctx):
        st, m = ctx.st, self.m
        flow = st["flow"]
        if m.round_order is not None:
            ctx.me = None
            ctx.locals = [None] * m.round_order_scope.size
            got = m.round_order(ctx)
            if not isinstance(got, list) or not all(isinstance(s, Seat) for s in got):
                raise RuleRuntimeError(f"flow.round.order must give a list of players, not {label_of(got)}",
                                       m.rs.where_of(m.rs.flow["round"], "order"))
            order = [s.id for s in got]
        else:
            order = [s.id for s in m.seats]
        flow["order"] = order
        flow["pos"] = 0
        self._start_turn(ctx)

    def _start_turn(self, ctx):
        st, m = ctx.st, self.m
        flow = st["flow"]
        if flow["pos"] >= len(flow["order"]):
            return
        flow["step"] = -1
        if m.windows:  # a game without windows keeps none of their bookkeeping in its state
            flow["win"] = flow["wseen"] = None
            flow["acts"] = 0
        st["used"] = {}
        player = m.turn_player(st)
        self._call_effect(ctx, m.turn_start, player)
        self._emit(ctx, "turn_start", [player])
        if st["pending"]:
            flow["resume"] = "first_step"
            return
        self._next_step(ctx)

    def _next_step(self, ctx):
        st, m = ctx.st, self.m
        flow = st["flow"]
        player = m.turn_player(st)
        i = flow["step"] + 1
        while i < len(m.steps):
            step = m.steps[i]
            if step.skip is not None:
                f, size = step.skip
                ctx.me = player
                ctx.locals = [None] * size
                if f(ctx):
                    i += 1
                    continue
            break
        flow["step"] = i

    def _end_turn(self, ctx, then: str):
        """End the turn, then go to the next turn (`next`) or end the round (`round`)."""
        st, m = ctx.st, self.m
        player = m.turn_player(st)
        if player is not None:
            self._emit(ctx, "turn_end", [player])
            self._call_effect(ctx, m.turn_end, player)
            if st["pending"]:
                st["flow"]["resume"] = f"turn_ended:{then}"
                return
        self._after_end_turn(ctx, then)

    def _after_end_turn(self, ctx, then: str):
        st = ctx.st
        if self.m.turn_player(st) is not None:
            self._reset(st, "turn")
            st["used"] = {}
        if st["flow"].get("finish") == "turn":
            st["flow"]["finish"] = None
        if then == "round":
            self._end_round(ctx)
        else:
            self._next_turn(ctx)

    def _next_turn(self, ctx):
        flow = ctx.st["flow"]
        if flow["phase"] == "over":
            return
        flow["pos"] += 1
        if flow["pos"] < len(flow["order"]):
            self._start_turn(ctx)

    def _end_round(self, ctx):
        st, m = ctx.st, self.m
        flow = st["flow"]
        self._emit(ctx, "round_end", [])
        self._call_effect(ctx, m.round_end)
        if st["pending"]:
            flow["resume"] = "round_ended"
            return
        self._after_round_end(ctx)

    def _after_round_end(self, ctx):
        st, m = ctx.st, self.m
        flow = st["flow"]
        if flow.get("finish") == "game":
            return
        flow["finish"] = None
        if m.round_until is not None:
            ctx.me = None
            ctx.locals = [None] * m.round_until_scope.size
            if not m.round_until(ctx):
                self._begin_order(ctx)  # the round goes on: another pass through the order
                return
        self._start_round(ctx)

    def _reset(self, st, scope):
        for kind, name, default in self.m.resets[scope]:
            if kind == "gv":
                st["gv"][name] = list(default) if isinstance(default, list) else default
            else:
                values = st[kind][name]
                if isinstance(default, list):
                    st[kind][name] = [list(default) for _ in values]
                else:
                    st[kind][name] = [default] * len(values)

    # ---- results --------------------------------------------------------------------

    def observe(self, st, seat: int | None) -> dict:
        """What `seat` knows of `st` (observation.py): the only input bots and remote clients get."""
        from .observation import observe
        return observe(self, st, seat)

    def determinize(self, st, seat: int | None, rng) -> dict:
        """A full state consistent with what `seat` knows, sampled with `rng` (observation.py)."""
        from .observation import determinize
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
        return self.m.ranking(st)

    def winners(self, st) -> list[int]:
        return self.m.winners(st)

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
        from .dsl.compiler import Scope
        from .yamlio import SourceText
        from .dsl.compiler import CompileError
        from .dsl.parser import ParseFailure
        from .errors import ContentError
        src = text if isinstance(text, SourceText) else SourceText.plain(text, "<expression>")
        scope = Scope()
        try:
            f = self.m.compiler.expr(src, scope)
        except ParseFailure as e:
            raise ContentError(e.problem) from None
        except CompileError as e:
            raise ContentError(self.m.compiler.problem(e)) from None
        ctx = rt.Ctx(st, self.m, self.m.seats[me] if me is not None else self.m.turn_player(st))
        ctx.locals = [None] * scope.size
        return f(ctx)


# Python exceptions met while the rules run (recursion without end, values that do not go
# together) leave the forward model as rule errors at the rule's position (guard.py).
guard_methods(Game, ("new_game", "apply_in_place", "legal_actions", "legal_actions_with_labels", "label", "verify",
                     "can", "explain", "is_legal", "scores", "ranking", "winners", "check_invariants", "evaluate"))
