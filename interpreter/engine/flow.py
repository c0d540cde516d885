"""The flow of a game: rounds, turns, steps, out-of-turn windows, and settling the state after
each move until someone must decide. A part of Game (`game.flow`), which calls it; it holds the
simultaneous steps (simultaneous.py) as a part of its own.
"""
from __future__ import annotations

from ..runtime import context as rt
from ..errors import Location, RuleRuntimeError
from ..core.model import Seat, label_of
from ..core.state import NO_NOTES, own_notes
from ..core.flowstate import Finish, Phase, Resume, take_resume, wait
from .guard import run_effect
from .simultaneous import Simultaneous

_MAX_SETTLE = 10_000
# the flow's values as the texts a state holds, read where every transition reads them (flowstate.py)
OVER, SETUP, PLAY = Phase.OVER.value, Phase.SETUP.value, Phase.PLAY.value
GAME, ROUND, TURN = Finish.GAME.value, Finish.ROUND.value, Finish.TURN.value
_MISSING = object()


class Flow:
    """The flow of match `m`, whose listers are `listings` (listing.py). It moves a state on until
    someone must decide (`settle`), and notes in the state what that seat may play (core/state.py `Notes`)."""

    def __init__(self, m, *, listings):
        self.m = m
        self._list_step = listings.actions
        self._window_lister = listings.window
        self.simultaneous = sim = Simultaneous(m, listings=listings, next_step=self._next_step)
        self._sim_decides, self._sim_reveal = sim.decides, sim.reveal
        self._plan_flow()

    # ---- the flow of rounds, turns and steps -------------------------------------------

    def _plan_flow(self):
        """What the flow may skip in this match, known at load: steps without a skip condition are
        never asked about, events the flow emits without an `on` trigger are not emitted."""
        m = self.m
        self._skips = any(s.skip is not None for s in m.steps)
        self._sims = any(s.sim is not None for s in m.steps)  # flow["sim"] is only ever set by such a step
        # scope -> the tables of defaults to put back, and the other variables (_reset)
        self._reset_plan = {scope: self._plan_reset(scope) for scope in m.resets}
        self._action_resets = bool(m.resets["action"])  # variables back to their defaults after each action
        self._windows = bool(m.windows)
        self._on = on = m._handlers["on"]
        # a turn that ends and the next that begins run nothing: no effect, no trigger, no variable
        # reset per turn, no step skipped, no window (whose bookkeeping a turn resets)
        self._quiet_turns = not (m.turn_start or m.turn_end or on.get("turn_start") or on.get("turn_end")
                                 or m.resets["turn"] or self._skips or m.windows)
        # and a round that ends and the next that begins run nothing either: no effect, no trigger,
        # no reset per round, no `until`, the seats in their order
        self._quiet_rounds = self._quiet_turns and not (
            m.round_start or m.round_end or on.get("round_start") or on.get("round_end") or m.resets["round"]
            or m.round_until is not None or m.round_order is not None)

    def play(self, ctx, a) -> None:
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
        self.settle(ctx)

    def after_action(self, ctx) -> None:
        """After a choice, a secret choice recorded or a window declined: the modifiers that
        last for an action end (when nothing waits), and the flow moves on."""
        st = ctx.st
        if self._action_resets and not st["pending"]:
            self._reset(st, "action")
        self.settle(ctx)

    def _emit(self, ctx, name, args):
        if self._on.get(name):
            ctx.events.append((name, args))
            ctx.causes.append(None)  # the flow's own event: the decision set it off
            ctx.cause = len(ctx.causes) - 1
            try:
                self.m._event_direct[name](ctx, args)
            finally:
                ctx.cause = None

    def settle(self, ctx):
        """Move the flow on until a decision is needed or the game is over: one transition per
        turn of the loop, in this order (flowstate.py names the flow's values):

        1. the game is over, or finished (`finish game`): settled;
        2. a choice waits: settled, unless a step, turn or round was finished (the choice is dropped);
        3. a flow effect that waited for a choice goes on (`resume`);
        4. the setup is done: the first round starts;
        5. a step, turn or round finished by the rules ends (and closes an open window);
        6. the round's seats have all played: the round ends; the turn's steps are done: the turn ends;
        7. a simultaneous step opens or goes on; an out-of-turn window opens or goes on;
        8. the turn's seat has an action in the step: settled (the listing is noted in the state);
           else the next step.

        Steps 1-5 are asked only when rules ran since they were last asked (`check`): the flow's
        own arithmetic changes none of what they read. A turn that ends and the next that begins
        run nothing in a game that declares nothing around them (`_quiet_turns`, `_quiet_rounds`):
        they are done by arithmetic, without the transitions' calls. The turn's player is read once
        per transition (nothing the rules do changes the order or the position in it)."""
        st = ctx.st
        flow = st["flow"]
        seats = self.m.seats
        steps = self.m.steps
        nsteps = len(steps)
        quiet_turns = self._quiet_turns
        quiet_rounds = self._quiet_rounds
        sims = self._sims
        windows = self._windows
        list_step = self._list_step
        check = True  # whether rules ran since steps 1-5 were last asked
        for _ in range(_MAX_SETTLE):
            if check:
                if flow["phase"] != PLAY or flow.get("finish") is not None or flow.get("resume") or st["pending"]:
                    if self._transition(ctx):
                        return
                    continue
                check = False
            order = flow["order"]
            pos = flow["pos"]
            if pos >= len(order):
                if quiet_rounds:  # _end_round, _start_round, _begin_order and _start_turn, with nothing to run
                    flow["round"] += 1
                    flow["order"] = [s.id for s in seats]
                    flow["pos"] = 0
                    flow["step"] = 0
                    st["used"] = {}
                    if sims and flow.get("sim") is not None:
                        flow["sim"] = None
                    continue
                self._end_round(ctx)
                check = True
                continue
            i = flow["step"]
            if i >= nsteps:
                if quiet_turns:  # _end_turn, then _start_turn, when nothing runs between turns
                    st["used"] = {}
                    flow["pos"] = pos = pos + 1
                    if pos < len(order):
                        flow["step"] = 0
                        if sims and flow.get("sim") is not None:
                            flow["sim"] = None
                    continue
                self._end_turn(ctx, "next", seats[order[pos]])
                check = True
                continue
            if sims and steps[i].sim is not None:  # every seat of a set chooses in secret (simultaneous.py)
                if self._sim_decides(ctx, steps[i].sim):
                    return
                check = True
                continue
            if windows:
                if self._window_decides(ctx):
                    return
                check = True
            player = seats[order[pos]]
            listed = list_step(st, player, labels=False, bare=True)  # does the seat have an action?
            if listed:
                notes = st.get("_notes", NO_NOTES)  # state.NOTES
                if notes is NO_NOTES:
                    notes = own_notes(st)
                notes.listing, notes.seat = listed, player
                return
            if self._skips:
                self._next_step(ctx, player)
                check = True
            else:
                flow["step"] = i + 1
        raise self._unsettled()

    def _transition(self, ctx) -> bool:
        """Steps 1-5 of `settle`, asked when the flow is not in a turn with nothing finished or
        waiting: True when settled, else one transition was made."""
        st = ctx.st
        flow = st["flow"]
        if flow["phase"] == OVER:
            return True
        fin = flow.get("finish")
        if fin == GAME:
            st["pending"].clear()
            flow["phase"] = OVER
            flow["finish"] = None
            return True
        if st["pending"]:
            if fin is None or flow["phase"] == SETUP:
                return True
            st["pending"].clear()  # a turn that ends drops what was waiting
        resume = take_resume(flow)
        if resume is not None:  # a flow effect (round or turn start/end) waited for a choice: carry on
            if resume is Resume.ORDER:
                self._begin_order(ctx)
            elif resume is Resume.FIRST_STEP:
                self._next_step(ctx)
            elif resume is Resume.ROUND_ENDED:
                self._after_round_end(ctx)
            elif resume is Resume.SIM_REVEAL:
                self._sim_reveal(ctx)
            else:
                self._after_end_turn(ctx, resume.then)
            return False
        if flow["phase"] == SETUP:
            self._start_round(ctx)
            return False
        if flow.get("win"):
            flow["win"] = None  # a step, turn or round that ends closes its window
        flow["finish"] = None
        if fin == ROUND:
            self._end_turn(ctx, then="round")
        elif fin == TURN:
            self._end_turn(ctx, then="next")
        else:
            self._next_step(ctx)
        return False

    def _unsettled(self) -> RuleRuntimeError:
        rs = self.m.rs
        where = next((rs.origins[k] for k in (("flow", "turn"), ("flow", "round")) if k in rs.origins),
                     Location(rs.files[0] if rs.files else rs.name))
        return RuleRuntimeError(f"the flow did not settle after {_MAX_SETTLE} transitions without a decision: "
                                f"the rules loop (a turn, step or round that always finishes at once, with "
                                f"no action to play?)", where)

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
            step = rt.step_name(m, st)
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
        ctx.me = rt.turn_player(m, ctx.st)
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
        return bool(self._window_lister(i)(ctx, [], False, True))

    def _start_round(self, ctx):
        st = ctx.st
        m = self.m
        flow = st["flow"]
        flow["phase"] = PLAY
        flow["round"] += 1
        if m.resets["round"]:
            self._reset(st, "round")
        if m.round_start is not None:
            run_effect(ctx, m.round_start, cause=("round_start", []))
        self._emit(ctx, "round_start", [])
        if st["pending"]:
            wait(flow, Resume.ORDER)
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
        pos = flow["pos"]
        order = flow["order"]
        if pos >= len(order):
            return
        flow["step"] = -1
        if flow.get("sim") is not None:
            flow["sim"] = None
        if m.windows:  # a game without windows keeps none of their bookkeeping in its state
            flow["win"] = flow["wseen"] = None
            flow["acts"] = 0
        st["used"] = {}
        player = m.seats[order[pos]]  # the phase is play: rt.turn_player
        if m.turn_start is not None:
            run_effect(ctx, m.turn_start, player, cause=("turn_start", [player]))
        self._emit(ctx, "turn_start", [player])
        if st["pending"]:
            wait(flow, Resume.FIRST_STEP)
            return
        self._next_step(ctx, player)

    def _next_step(self, ctx, player=_MISSING):
        """Go to the next step of the turn that is not skipped (`player`: the turn's, if known)."""
        st, m = ctx.st, self.m
        flow = st["flow"]
        i = flow["step"] + 1
        if self._skips:
            steps = m.steps
            while i < len(steps):
                step = steps[i]
                if step.skip is not None:
                    f, size = step.skip
                    if player is _MISSING:  # asked only of a step that may be skipped
                        player = rt.turn_player(m, st)
                    ctx.me = player
                    ctx.locals = [None] * size
                    if f(ctx):
                        i += 1
                        continue
                break
        flow["step"] = i

    def _end_turn(self, ctx, then: str, player=_MISSING):
        """End the turn, then go to the next turn (`next`) or end the round (`round`)."""
        st, m = ctx.st, self.m
        if player is _MISSING:
            player = rt.turn_player(m, st)
        if player is not None:
            self._emit(ctx, "turn_end", [player])
            if m.turn_end is not None:
                run_effect(ctx, m.turn_end, player, cause=("turn_end", [player]))
            if st["pending"]:
                wait(st["flow"], Resume.turn_ended(then))
                return
        self._after_end_turn(ctx, then, player)

    def _after_end_turn(self, ctx, then: str, player=_MISSING):
        st = ctx.st
        if player is _MISSING:
            player = rt.turn_player(self.m, st)
        if player is not None:
            if self.m.resets["turn"]:
                self._reset(st, "turn")
            st["used"] = {}
        flow = st["flow"]
        if flow.get("finish") == TURN:
            flow["finish"] = None
        if then == "round":
            self._end_round(ctx)
        elif flow["phase"] != OVER:  # the next turn
            flow["pos"] += 1
            if flow["pos"] < len(flow["order"]):
                self._start_turn(ctx)

    def _end_round(self, ctx):
        st, m = ctx.st, self.m
        flow = st["flow"]
        self._emit(ctx, "round_end", [])
        if m.round_end is not None:
            run_effect(ctx, m.round_end, cause=("round_end", []))
        if st["pending"]:
            wait(flow, Resume.ROUND_ENDED)
            return
        self._after_round_end(ctx)

    def _after_round_end(self, ctx):
        st, m = ctx.st, self.m
        flow = st["flow"]
        if flow.get("finish") == GAME:
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
        """Every variable declared `reset: SCOPE` back to its default. A table of plain defaults is
        one tuple made at load and shared by every state (tables are replaced on write, never
        changed in place), put back by one dict update per kind."""
        tables, rest = self._reset_plan[scope]
        for kind, reset in tables:
            st[kind].update(reset)
        for kind, name, default in rest:
            if kind == "gv":
                st["gv"][name] = list(default) if isinstance(default, list) else default
            else:
                st[kind][name] = tuple([list(default) for _ in st[kind][name]])

    def _plan_reset(self, scope):
        m = self.m
        size = {"cv": len(m.cards), "zv": len(m.zones), "pv": len(m.seats)}
        tables, rest = {}, []
        for kind, name, default in m.resets[scope]:
            if kind == "gv" or isinstance(default, list):
                rest.append((kind, name, default))
            else:
                tables.setdefault(kind, {})[name] = (default,) * size[kind]
        return list(tables.items()), rest
