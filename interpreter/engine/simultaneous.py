"""Simultaneous secret choices: a step where every seat of a set chooses in secret, and the
choices are revealed together (flow.turn.steps[i].simultaneous). A part of the flow (flow.py),
and through `game.simultaneous` the public API of such steps for agents and views: `waiting`,
`rewind`, `choices_of_others`, `redraw`, `public`.

The forward model stays turn-based: the seats of the set choose one after the other in a fixed
order (the order of `seats`), and each choice is only *recorded*. While the step is pending,
the first seat that has not chosen is the decider. When the last one has chosen, every recorded
action is done, in that order (the reveal), then the step's `reveal` effect runs and the step ends.

The record lives in the state as flow["sim"] = {"seats": [seat ids], "chosen": [[seat, action name,
[encoded arguments]], ...], "next": index of the next action to do while revealing}. Views show
only who has chosen (views.py); a seat sees its own choice. `determinize` draws the choices of
the other seats again among their legal actions (observation.py): a sample never holds another
seat's real secret choice.
"""
from __future__ import annotations

from ..runtime import context as rt
from ..errors import RuleRuntimeError
from ..information.handles import arg_key, resolve
from ..core.model import Action, Seat, label_of
from ..core.state import NO_NOTES, NOTES, own_notes, touch
from ..core.flowstate import Finish, Resume, wait
from .guard import run, run_effect

_MISSING = object()


class Simultaneous:
    """The simultaneous steps of match `m`. `listings`: the match's listers (listing.py);
    `next_step(ctx)`: the flow's move to the next step."""

    def __init__(self, m, *, listings, next_step):
        self.m = m
        self._list = listings.actions
        self._next_step = next_step
        # the listings made when a step opens hold for its every seat (`kept`), unless a variable
        # goes back to its default after each action (flow.py `_reset`), a secret choice included
        self._keeps = not m.resets["action"]

    def step(self, st):
        """The SimultaneousDef of the current step, or None."""
        m = self.m
        i = st["flow"].get("step", -1)
        return m.steps[i].sim if 0 <= i < len(m.steps) else None

    def decides(self, ctx, sim_def) -> bool:
        """Open the current simultaneous step (or go on with it): True when a seat must choose.
        False when the step is over (nobody has anything to choose): the next step begins."""
        st, m = ctx.st, self.m
        flow = st["flow"]
        sim = flow.get("sim")
        if sim is None:
            if sim_def.seats is None:
                seats = [s.id for s in m.seats]
            else:
                f, size = sim_def.seats
                ctx.me = rt.turn_player(m, st)
                ctx.locals = [None] * size
                got = f(ctx)
                if not isinstance(got, list) or not all(isinstance(s, Seat) for s in got):
                    raise RuleRuntimeError(f"the seats of simultaneous step `{rt.step_name(m, st)}` must be a list "
                                           f"of players, not {label_of(got)}", sim_def.where)
                seats = [s.id for s in got]
            # each seat is listed once, when the step opens: those with nothing to choose are left
            # out, and the others' actions are noted for their decisions (`kept`)
            listed = {}
            for s in seats:
                acts = self._list(st, m.seats[s], labels=False, bare=True)
                if acts:
                    listed[s] = acts
            if not listed:
                self._next_step(ctx)
                return False
            flow["sim"] = sim = {"seats": [s for s in seats if s in listed], "chosen": [], "next": 0}
            if self._keeps:
                own_notes(st).sim = (sim["seats"], listed)
        return len(sim["chosen"]) < len(sim["seats"])

    def kept(self, st, sim) -> list | None:
        """The legal actions of the seat that chooses now in the pending simultaneous step `sim`
        of `st`, as listed when the step opened (None: not noted). They hold until the step ends:
        a secret choice is only recorded (flow["sim"], which no rule reads), and nothing else
        changes the state in between (`_keeps`: no variable goes back to its default after each
        action). The notes name the step by its list of seats, which every record of a choice
        shares and a new step replaces; a state edited by hand has been `touch`ed."""
        noted = st.get(NOTES, NO_NOTES).sim
        if noted is None or noted[0] is not sim["seats"]:
            return None
        chosen = len(sim["chosen"])
        return noted[1].get(sim["seats"][chosen]) if chosen < len(sim["seats"]) else None

    def seat(self, st) -> int | None:
        """The seat that chooses now in a pending simultaneous step, or None."""
        sim = st["flow"].get("sim")
        if sim is None or len(sim["chosen"]) >= len(sim["seats"]):
            return None
        return sim["seats"][len(sim["chosen"])]

    def listing(self, st, seat: int, *, labels=False, first_only=False, viewer=None) -> list:
        """The (Action, label) pairs `seat` may choose in the current simultaneous step."""
        return self._list(st, self.m.seats[seat], labels=labels, first_only=first_only, viewer=viewer)

    def record(self, ctx, a) -> None:
        """Record the bound action `a` as the secret choice of the seat that decides; reveal
        every choice when it was the last one."""
        if self.note(ctx.st, a, ctx.locals):
            self.reveal(ctx)

    @staticmethod
    def note(st, a, frame) -> bool:
        """Record the action of definition `a` bound in `frame` (its locals) as the secret choice of
        the seat that decides in `st`: True when it was the last one (the reveal is due)."""
        sim = st["flow"]["sim"]
        seat = sim["seats"][len(sim["chosen"])]
        entry = [seat, a.name, [rt.encode(frame[slot]) for _, slot, _ in a.params]]
        # never changed in place: clones of a state share it (state.clone copies the flow shallowly)
        st["flow"]["sim"] = sim = dict(sim, chosen=sim["chosen"] + [entry])
        return len(sim["chosen"]) == len(sim["seats"])

    def reveal(self, ctx) -> None:
        """Do every recorded action in order, then the step's reveal effect; the step then ends.
        An effect that waits for a choice resumes the reveal afterwards (`Resume.SIM_REVEAL`)."""
        st, m = ctx.st, self.m
        flow = st["flow"]
        flow["sim"] = sim = dict(flow["sim"])  # a copy of its own: "next" changes below
        while sim["next"] < len(sim["chosen"]):
            seat, name, args = sim["chosen"][sim["next"]]
            sim["next"] += 1
            a = m.action_by_name[name]
            ctx.me = m.seats[seat]
            ctx.locals = [None] * a.nslots
            ctx.stack = []
            ctx.marks = None
            for (_, slot, _), v in zip(a.params, args):
                ctx.locals[slot] = rt.decode(m, v)
            run(ctx, a.effect)
            if st["pending"]:
                wait(flow, Resume.SIM_REVEAL)
                return
        sim_def = self.step(st)
        if sim_def is not None and sim_def.reveal is not None and sim["next"] == len(sim["chosen"]):
            sim["next"] += 1  # the reveal effect runs once
            run_effect(ctx, sim_def.reveal, rt.turn_player(m, st))
            if st["pending"]:
                wait(flow, Resume.SIM_REVEAL)
                return
        flow["sim"] = None
        if flow.get("finish") is None:
            flow["finish"] = Finish.STEP.value

    # ---- the public API of simultaneous steps (agents, views, observations) ---------------

    def choices_of_others(self, st, seat: int | None) -> list[int]:
        """The indices in flow["sim"]["chosen"] of the choices `seat` may not know."""
        sim = st["flow"].get("sim")
        if not sim:
            return []
        return [i for i, (s, _, _) in enumerate(sim["chosen"]) if s != seat]

    def redraw(self, st, seat: int | None, rng) -> None:
        """Replace, in `st` itself, the recorded choices of the seats other than `seat` by actions
        drawn with `rng` among their legal ones (what `seat` knows: only that they have chosen).
        Nothing has been done yet in the step, so each seat's legal actions are those of now."""
        sim = st["flow"].get("sim")
        if not sim:
            return
        m = self.m
        st["flow"]["sim"] = sim = dict(sim, chosen=list(sim["chosen"]))
        for i in self.choices_of_others(st, seat):
            s = sim["chosen"][i][0]
            acts = [a for a, _ in self.listing(st, s)]
            if not acts:
                continue
            act = acts[rng.randrange(len(acts))]
            by_key = m.value_by_key()
            args = []
            for key in act.args:
                v = by_key.get(key, _MISSING)
                if v is _MISSING:
                    v = int(key) if key.lstrip("-").isdigit() else (resolve(m, st, key) or key)
                args.append(rt.encode(v))
            sim["chosen"][i] = [s, act.name, args]
        touch(st)

    def waiting(self, st) -> list[int]:
        """The seats that have still to choose, in order, in the pending simultaneous step of `st`
        (the first one decides now); [] outside a simultaneous step."""
        sim = st["flow"].get("sim")
        if not sim:
            return []
        return sim["seats"][len(sim["chosen"]):]

    def rewind(self, st) -> bool:
        """Forget, in `st` itself, every choice recorded in its pending simultaneous step: the step
        as it opened, its first seat to choose (nothing is done before the reveal, so nothing else
        changes). What a search does to let the seats before the decider choose by its model of
        them. True when there was something to forget."""
        sim = st["flow"].get("sim")
        if not sim or not sim["chosen"]:
            return False
        st["flow"]["sim"] = dict(sim, chosen=[])
        touch(st)
        return True

    def public(self, st, seat: int | None) -> dict | None:
        """What `seat` may know of a pending simultaneous step: who has chosen, who has not,
        and its own choice."""
        sim = st["flow"].get("sim")
        if not sim:
            return None
        m = self.m
        done = {s for s, _, _ in sim["chosen"]}
        out = {"chosen": [m.seats[s].key for s in sim["seats"] if s in done],
               "waiting": [m.seats[s].key for s in sim["seats"] if s not in done]}
        for s, name, args in sim["chosen"]:
            if s == seat:
                out["mine"] = str(Action(name, tuple(arg_key(m, st, seat, rt.decode(m, v)) for v in args)))
        return out


__all__ = ["Simultaneous"]
