"""The one legality path of the forward model: binding an action to its definition, verifying
it (a typed refusal with its reason), `verify` / `can` / `explain`, and the options of a pending
choice. A part of Game (`game.binder`), which calls it.
"""
from __future__ import annotations

from . import chance as _chance
from ..runtime import context as rt
from ..errors import IllegalActionError, RefusalKind
from ..i18n import _
from ..information.handles import arg_keys, resolve
from ..core.model import Action
from ..core.state import NO_NOTES, NOTES, own_notes
from ..limits import spend_failed
from .plan import ActionPlan

_MISSING = object()
_BOUND_KEPT = 8192  # trusted actions whose frames are kept (trusted_ctx), at most


def _told(reason, ctx, reader) -> str:
    """A requirement's reason (a template) written for `reader` (None: every card by its key).
    A reader is never shown the rules text that stands for a reason content did not write."""
    if reader is not None and getattr(reason, "unwritten", False):
        return _("a rule of this move does not allow it now")
    ctx.viewer = reader
    try:
        return reason(ctx)
    finally:
        ctx.viewer = None


def _failing(ctx, checks, reader, *, every: bool = False) -> tuple:
    """The reasons of the checks ((f, reason), ...) that fail in `ctx`, in order. A check that
    raises is passed over once an earlier one failed (it may read what that one guards), or
    always with `every`; else its error is raised."""
    out = []
    for f, reason in checks:
        try:
            ok = f(ctx)
        except Exception:
            if out or every:
                continue
            raise
        if not ok:
            out.append(_told(reason, ctx, reader))
    return tuple(out)


class Binder:
    """Binds actions to their definitions in a match `m`. `simultaneous`: the part that knows who
    chooses in a simultaneous step; `current_player(st)`: the seat that decides in `st`."""

    def __init__(self, m, *, simultaneous, current_player):
        self.m = m
        # each definition's plan (plan.py): what the listing is generated from, walked by `bind`
        self._plans = {name: ActionPlan.of(a) for name, a in m.action_by_name.items()}
        self._bound = {}  # trusted actions -> (definition, frame) bound from their keys alone (trusted_ctx)
        self._sim_seat = simultaneous.seat
        self._current_player = current_player

    # ---- one legality path --------------------------------------------------------
    #
    # Listing (every legal binding: listing.py, one generated function per step), verifying an
    # action (its binding, or why there is none) and binding a trusted action (one taken from
    # the listing) go through a definition the same way: parameter by parameter, each bound from
    # its domain, each requirement checked as soon as the parameters it reads are bound.

    def bind(self, st, action: Action, *, verify: bool = True, seat: int | None = None, reader=None):
        """The binding of `action` in `st`: (ctx, definition), or (None, None) for a pending choice.

        With `verify`, every rule of the definition is checked in the order a player reads them
        (the step, the limit, then by the plan the listing is generated from: the arguments
        against their domains, each requirement as declared: `_walk`) and a refusal raises
        IllegalActionError with its kind and reason: every requirement that fails is named, each
        reason written for `reader` (labels.Reader; None: every card by its key). Without it
        the action is trusted to come from `legal_actions(st)`: its arguments are looked up by key."""
        m = self.m
        if st["flow"]["phase"] == "over":
            raise IllegalActionError(action, "the game is over", RefusalKind.GAME_OVER)
        if st["flow"].get("node") is not None:
            _chance.outcome_of(st, action)
            return None, None
        if seat is not None and verify:
            deciding = self._current_player(st)
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
            _, offered = self.options(st, p)
            if key in offered:
                return None, None
            opts = ", ".join(offered)
            raise IllegalActionError(action, f"{key} is not one of the options for {p['prompt']}: {opts}",
                                     RefusalKind.NOT_AN_OPTION)
        player = rt.turn_player(m, st)
        if st["flow"].get("sim"):
            player = m.seats[self._sim_seat(st)]
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
        elif m.windows:
            w = m.window_action_names.get(action.name)
            if w is not None:
                raise IllegalActionError(action, f"`{action.name}` is played in window `{w.name}`, "
                                                 "which is not open now")
            if any(action.name == w.decline for w in m.windows):
                raise IllegalActionError(action, f"`{action.name}` declines a window, and none is open now")
        a = m.action_by_name.get(action.name)
        if not verify:
            return self.trusted_ctx(st, a, player, action), a
        if a is None:
            from ..errors import did_you_mean
            hint = did_you_mean(action.name, m.action_by_name)
            raise IllegalActionError(action, f"no action `{action.name}` in this game" + (f"; {hint}" if hint else ""),
                                     RefusalKind.UNKNOWN_ACTION)
        step = rt.step_name(m, st)
        if a.name in m.never_legal:
            ctx = rt.Ctx(st, m, player)
            for f, reason, _ in a.requires:
                ctx.locals = [None] * a.nslots
                try:
                    if not f(ctx):
                        told = _told(reason, ctx, reader)
                        raise IllegalActionError(action, told, reasons=(told,))
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
        plan = self._plans[a.name]
        self._walk(ctx, plan, action, reader)
        ctx.memo = None
        # the effect starts as a trusted action's does (trusted_ctx): its arguments bound, and none
        # of what the domains' and requirements' loops left in the other locals
        walked, ctx.locals = ctx.locals, [None] * plan.nslots
        for p in plan.params:
            ctx.locals[p.slot] = walked[p.slot]
        return ctx, a

    def _walk(self, ctx, plan, action: Action, reader=None) -> None:
        """Bind the arguments of `action` in `ctx` by the plan the listing is generated from
        (plan.py): each parameter from its domain, then its checks in the order they are
        declared. A refusal names every check that fails, each with its reason written for
        `reader` (a check that cannot be read once an earlier one failed is passed over)."""
        st, m = ctx.st, self.m
        ctx.locals = loc = [None] * plan.nslots
        seat = ctx.me.id if ctx.me is not None else None
        for i, (p, key) in enumerate(zip(plan.params, action.args)):
            if p.fixed is not None:  # the same values in every state: spent as the listing spends
                values, keys = p.fixed[0], p.keys
                if values:
                    ctx.budget = b = ctx.budget - len(values)
                    if b < 0:
                        spend_failed(ctx, p.fixed[1], p.fixed[2])
            else:
                values, keys = arg_keys(m, st, seat, list(p.domain(ctx) or []), ctx.memo)
            for v, k in zip(values, keys):
                if k == key:
                    loc[p.slot] = v
                    break
            else:
                # why not: the conditions of its values that this one fails, then the checks of what is bound
                reasons = self._why_not(ctx, p, key, reader)
                loc[p.slot] = None
                bound = {id(f) for q in plan.params[:i] for f, _ in q.checks} | {id(f) for f, _ in plan.checks}
                reasons += _failing(ctx, [(f, r) for f, r in plan.in_order if id(f) in bound], reader)
                said = f"{key} is not a possible {p.name} now"
                if reasons:
                    said += ": " + "; ".join(reasons)
                else:
                    said += f" (possible: {', '.join(keys[:12]) or 'none'})"
                raise IllegalActionError(action, said, RefusalKind.OUT_OF_DOMAIN, reasons=reasons,
                                         facts={"param": p.name, "key": key, "values": values})
        failed = _failing(ctx, plan.in_order, reader)
        if failed:
            raise IllegalActionError(action, "; ".join(failed), reasons=failed)

    def _why_not(self, ctx, p, key, reader) -> tuple:
        """The reasons of the conditions of parameter `p` (`reasons`, met by each value of its
        domain) that the value of key `key` fails, bound to it in `ctx`; () when it has none, or
        when no value has that key for the seat deciding (what it cannot identify is not told). A
        condition that cannot be read of that value is passed over."""
        if p.why_not is None:
            return ()
        value = self.m.value_by_key().get(key, _MISSING)  # a card, zone or seat
        if value is _MISSING:
            if not key.lstrip("-").isdigit():
                return ()
            value = int(key)
        seat = ctx.me.id if ctx.me is not None else None
        if arg_keys(self.m, ctx.st, seat, [value], ctx.memo)[1] != [key]:
            return ()
        ctx.locals[p.slot] = value
        return _failing(ctx, p.why_not, reader, every=True)

    def trusted_ctx(self, st, a, player, action: Action):
        """The context of definition `a` played by `player` with the arguments of `action`, which
        is trusted to come from the listing: each argument is looked up by its key.

        Arguments whose keys name the same values in every state (a fixed domain's, a card's, a
        zone's, a seat's, a whole number's) are bound as they were the last time the same action
        was played (`_bound`: the frame's values by action); a handle or a domain's own value is
        found in the state each time."""
        m = self.m
        kept = self._bound.get(action)
        if kept is not None and kept[0] is a:
            return rt.Ctx(st, m, player, kept[1][:])
        loc = [None] * a.nslots
        ctx = rt.Ctx(st, m, player, loc)
        params = self._plans[a.name].params
        if params:
            if len(params) == 1:  # the frequent case: one argument, a value of a fixed domain or a card, zone...
                f0 = params[0].fixed
                v = (f0[3] if f0 is not None else m.value_by_key()).get(action.args[0], _MISSING)
                if v is not _MISSING:
                    loc[params[0].slot] = v
                    self._keep(action, a, loc)
                    return ctx
            by_key = m.value_by_key()
            stateless = True  # every argument's value found from its key alone
            for p, key in zip(params, action.args):
                # a domain the same in every state: the value its key was made from (a text of
                # digits stays a text, a list a list); else a card, zone or seat, a number, a handle
                v = p.fixed[3].get(key, _MISSING) if p.fixed is not None else by_key.get(key, _MISSING)
                if v is _MISSING:
                    if key.lstrip("-").isdigit():
                        v = int(key)
                    else:
                        stateless = False
                        v = resolve(m, st, key)
                        if v is None:  # a text, a list...: the domain's value with that key, as `bind` finds it
                            probe = rt.Ctx(st, m, player, loc)  # its own budget: the effect's is not spent
                            probe.memo = {}
                            values, keys = arg_keys(m, st, player.id if player is not None else None,
                                                    list(p.domain(probe) or []), probe.memo)
                            v = next((x for x, k in zip(values, keys) if k == key), key)
                loc[p.slot] = v
            if stateless:
                self._keep(action, a, loc)
        return ctx

    def bound_frame(self, action, a):
        """The frame of trusted `action` (of definition `a`) as `trusted_ctx` bound it from its
        keys alone the last time, or None (not played yet, or an argument read in the state).
        Shared: only read."""
        kept = self._bound.get(action)
        return kept[1] if kept is not None and kept[0] is a else None

    def _keep(self, action, a, loc) -> None:
        """Note the frame `loc` of `action` (of definition `a`), bound from its keys alone."""
        bound = self._bound
        if len(bound) >= _BOUND_KEPT:
            bound.clear()
        bound[action] = (a, loc[:])

    # ---- verify / can / do ---------------------------------------------------------

    def verify(self, st, action: Action | str, *, seat: int | None = None, reader=None) -> None:
        """Raise IllegalActionError (with its `kind`, `reason` and content `reasons`, written for
        `reader`) when `action` is refused in `st`; with `seat`, also when that seat is not the
        one to decide."""
        if isinstance(action, str):
            action = Action.parse(action)
        self.bind(st, action, seat=seat, reader=reader)

    def can(self, st, action: Action | str, *, seat: int | None = None) -> bool:
        """Whether `verify` accepts `action`."""
        try:
            self.verify(st, action, seat=seat)
        except IllegalActionError:
            return False
        return True

    def explain(self, st, action: Action | str, *, seat: int | None = None) -> str | None:
        """Why `action` is refused in `st` (every requirement that fails), or None when it is legal."""
        e = self.refusal(st, action, seat=seat)
        return None if e is None else e.reason

    def refusal(self, st, action: Action | str, *, seat: int | None = None, reader=None):
        """The IllegalActionError refusing `action` in `st`, its content reasons written for
        `reader`; None when it is legal."""
        try:
            self.verify(st, action, seat=seat, reader=reader)
        except IllegalActionError as e:
            return e
        return None

    def decode_choice(self, st, p, key):
        """The value of option `key` of the pending choice `p`."""
        values, keys = self.options(st, p)
        try:
            return values[keys.index(key)]  # the first option of that key
        except ValueError:
            return None

    def options(self, st, p) -> tuple[list, list]:
        """(values, keys) of the options of the pending choice `p` (the last of st["pending"]),
        keyed for its chooser (handles.py). Listing, verifying and applying a choice all need
        them: they are decoded and keyed once, and noted in the state with the entry they are of
        (`Notes.options`: an entry is never changed in place; whoever edits a state by hand
        calls `touch`)."""
        offered = st.get(NOTES, NO_NOTES).options
        if offered is not None and offered[0] is p:
            return offered[1], offered[2]
        m = self.m
        values, keys = arg_keys(m, st, p["player"], rt.decode(m, p["options"]), {})
        own_notes(st).options = (p, values, keys)
        return values, keys
