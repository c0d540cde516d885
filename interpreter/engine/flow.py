"""The flow of a game: rounds, turns, steps, out-of-turn windows, and settling the state after
each move until someone must decide. A part of Game (`game.flow`), which calls it; it holds the
simultaneous steps (simultaneous.py) as a part of its own.
"""
from __future__ import annotations

from ..runtime import context as rt
from ..errors import Location, RuleRuntimeError
from ..core.model import Seat, label_of
from ..core.state import NO_NOTES, own_notes
from .guard import run_effect
from .simultaneous import Simultaneous

_MAX_SETTLE = 10_000
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
            self.m._event_direct[name](ctx, args)

    def settle(self, ctx):
        """Move the flow on until a decision is needed or the game is over.

        The loop below is the flow's common path: a turn of the play phase, nothing finished,
        nothing waiting, no window, no simultaneous step. The turn's player is read once per
        transition and handed to the transitions (nothing the rules do changes the order or the
        position in it: only the flow does). Anything else goes to `_settle_any`, the whole state
        machine, which makes the same transitions in the same order."""
        st = ctx.st
        if self._windows:
            return self._settle_any(ctx, 0)
        flow = st["flow"]
        seats = self.m.seats
        steps = self.m.steps
        nsteps = len(steps)
        quiet_turns = self._quiet_turns
        quiet_rounds = self._quiet_rounds
        sims = self._sims
        list_step = self._list_step
        check = True  # whether rules ran since the state was last checked for the common path
        for n in range(_MAX_SETTLE):
            if check:
                if flow["phase"] != "play" or flow.get("finish") is not None or flow.get("resume") or st["pending"]:
                    return self._settle_any(ctx, n)
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
            if sims and (steps[i].sim is not None or flow.get("sim")):
                return self._settle_any(ctx, n)
            player = seats[order[pos]]
            listed = list_step(st, player, labels=False, bare=True)  # _has_action; listing changes nothing
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

    def _settle_any(self, ctx, done: int):
        """`_settle` from any state of the flow (`done`: transitions made already)."""
        st = ctx.st
        m = self.m
        flow = st["flow"]
        for _ in range(done, _MAX_SETTLE):
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
                elif resume == "sim_reveal":
                    self._sim_reveal(ctx)
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
            if step.sim is not None:  # every seat of a set chooses in secret (simultaneous.py)
                if self._sim_decides(ctx, step.sim):
                    return
                continue
            if m.windows and self._window_decides(ctx):
                return
            if self._has_action(st, rt.turn_player(m, st)):
                return
            self._next_step(ctx)
        raise self._unsettled()

    def _unsettled(self) -> RuleRuntimeError:
        rs = self.m.rs
        where = next((rs.origins[k] for k in (("flow", "turn"), ("flow", "round")) if k in rs.origins),
                     Location(rs.files[0] if rs.files else rs.name))
        return RuleRuntimeError(f"the flow did not settle after {_MAX_SETTLE} transitions without a decision: "
                                f"the rules loop (a turn, step or round that always finishes at once, with "
                                f"no action to play?)", where)

    def _has_action(self, st, player) -> bool:
        """Whether `player` (the turn's) has a legal action in the current step. The list is noted
        in the state (`Notes`) for `legal_actions` and `apply_in_place`, with the seat that decides there."""
        if player is None:
            return False
        listed = self._list_step(st, player, labels=False, bare=True)
        if listed:
            notes = own_notes(st)
            notes.listing, notes.seat = listed, player
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
        flow["phase"] = "play"
        flow["round"] += 1
        if m.resets["round"]:
            self._reset(st, "round")
        if m.round_start is not None:
            run_effect(ctx, m.round_start)
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
            run_effect(ctx, m.turn_start, player)
        self._emit(ctx, "turn_start", [player])
        if st["pending"]:
            flow["resume"] = "first_step"
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
                run_effect(ctx, m.turn_end, player)
            if st["pending"]:
                st["flow"]["resume"] = f"turn_ended:{then}"
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
        if flow.get("finish") == "turn":
            flow["finish"] = None
        if then == "round":
            self._end_round(ctx)
        elif flow["phase"] != "over":  # the next turn
            flow["pos"] += 1
            if flow["pos"] < len(flow["order"]):
                self._start_turn(ctx)

    def _end_round(self, ctx):
        st, m = ctx.st, self.m
        flow = st["flow"]
        self._emit(ctx, "round_end", [])
        if m.round_end is not None:
            run_effect(ctx, m.round_end)
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
