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

Game holds its parts as objects, each usable alone: `listings` (the generated listers of the
steps, listing.py), `flow` (rounds, turns, steps, windows: flow.py), `simultaneous` (the public
API of simultaneous steps: simultaneous.py) and `binder` (binding and verifying actions:
legality.py). It keeps nothing about a state: what is worth keeping is noted in the state
itself (core/state.py `Notes`).
"""
from __future__ import annotations

from . import chance as _chance
from ..runtime import results
from ..runtime import context as rt
from ..runtime.draws import CHANCE, EXPLICIT, SAMPLED
from ..errors import InterpretError, RuleRuntimeError
from .flow import Flow
from .legality import Binder
from .guard import PYTHON_ERRORS, guard_methods, run, translate
from .listing import Listings
from ..definition.build import build_definition
from ..definition.definition import GameDefinition
from ..core.model import Action, Step, label_for, label_of
from ..core.rng import seed_state
from ..core.state import NO_NOTES, NOTES, Notes, clone, from_json, initial, to_json, touch

__all__ = ["Game", "Step", "CHANCE", "clone", "from_json", "to_json", "touch"]  # the forward model, state helpers


class Game:
    """A compiled match plus the forward model over its states."""

    def __init__(self, match: GameDefinition):
        self.m = match
        self.seats = match.seats
        self.num_players = len(match.seats)
        self.listings = Listings(match)
        self.flow = Flow(match, listings=self.listings)
        self.simultaneous = self.flow.simultaneous
        self.binder = Binder(match, simultaneous=self.simultaneous, current_player=self.current_player)
        # the parts' methods on the path of every move, bound once
        self._settle, self._play, self._after_action = self.flow.settle, self.flow.play, self.flow.after_action
        self._list_step = self.listings.actions
        self._sim_seat, self._sim_kept = self.simultaneous.seat, self.simultaneous.kept
        self._bind, self._trusted_ctx, self._options = self.binder.bind, self.binder.trusted_ctx, self.binder.options
        self._bound_frame = self.binder.bound_frame
        # the state after a start that draws nothing at random (the same for every seed), with
        # its notes; a copy of it is every new game's (new_game). Depends on the definition alone.
        self._started = None

    def __deepcopy__(self, memo):
        return self  # a game is a frozen definition: copies of a state share it

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
        first = self._started
        if first is not None and chance == SAMPLED and not forced:
            # the start drew nothing at random: it is the same for every seed, but for the generator
            st = clone(first)
            st["rng"] = seed_state(seed)
            st[NOTES] = notes = Notes(first[NOTES].listing, first[NOTES].seat)  # its own
            notes.sim = first[NOTES].sim  # (the clone shares the step's list of seats it names)
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
            first = clone(st)
            first[NOTES] = notes = Notes(st[NOTES].listing, st[NOTES].seat)
            notes.sim = st[NOTES].sim
            self._started = first
        return st

    def _start(self, st) -> None:
        """Run the setup on a new state, up to the first decision."""
        m = self.m
        ctx = rt.Ctx(st, m)
        if m.setup is not None:
            entry, scope = m.setup
            ctx.locals = [None] * scope.size
            run(ctx, entry)
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

        The flow lists them once when it stops for a decision (flow.py `settle`) and notes them
        in the state (`Notes.listing`) until it changes through the forward model, so a bot's
        listing costs nothing more. Whoever edits a state by hand calls `touch(st)` (core/state.py;
        scenarios do)."""
        listed = st.get("_notes", NO_NOTES).listing  # state.NOTES
        if listed is not None:
            return listed[:]  # no rule runs: not guarded
        return self._listed_now(st)

    def _listed_now(self, st) -> list[Action]:
        flow = st["flow"]
        if flow.get("node") is not None:
            return _chance.outcome_actions(st)
        sim = flow.get("sim")
        if sim and not st["pending"]:  # a secret choice: its seat was listed when the step opened
            kept = self._sim_kept(st, sim)
            if kept is not None:
                return kept[:]
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
            # a card the chooser cannot identify is named by its place (handles.py)
            values, keys = self._options(st, p)
            if labels:
                from ..information.views import prompt_for
                prompt = prompt_for(self, st, p, viewer)  # written for the viewer, from values
                out = []
                for v, key in zip(values, keys):
                    shown = label_of(v) if viewer is None else label_for(v, viewer)
                    out.append((Action("choose", (key,)), f"{prompt}: {shown}"))
            else:  # the actions alone: no option's text written
                out = [(Action("choose", (key,)), None) for key in keys]
            if p["optional"]:
                out.append((Action("choose", ("none",)), f"{prompt}: none" if labels else None))
            return out
        if st["flow"].get("sim"):
            return self.simultaneous.listing(st, self._sim_seat(st), labels=labels, first_only=first_only,
                                             viewer=viewer)
        win = st["flow"].get("win")
        if win:  # an out-of-turn window: declining first, then its actions, for its seat
            w = m.windows[win[0][0]]
            ctx = rt.Ctx(st, m, m.seats[win[1][0]])
            ctx.memo = {}
            ctx.viewer = viewer
            out = [(Action(w.decline), f"{w.decline} ({w.name})" if labels else None)]
            return self.listings.window(win[0][0])(ctx, out, labels, False)
        player = rt.turn_player(m, st)
        if player is None:
            return []
        return self._list_step(st, player, labels=labels, first_only=first_only, viewer=viewer)

    # ---- apply ----------------------------------------------------------------------

    def apply(self, st, action: Action | str) -> dict:
        """`action` done on a copy of `st` (verified first), which is returned. The copy starts
        with what was noted about `st` (core/state.py `Notes`), which holds for it as long as it is
        unchanged: an action found in the listing the flow noted is done without being verified
        again, and the next listing of a simultaneous step is not made again."""
        new = clone(st)
        notes = st.get(NOTES, NO_NOTES)
        listed = None
        if notes is not NO_NOTES:
            new[NOTES] = carried = Notes(notes.listing, notes.seat, notes.options)
            carried.sim = notes.sim  # the copy shares the step's list of seats that names them
            listed = notes.listing
            if listed is None and not new["pending"] and (sim := new["flow"].get("sim")):
                listed = self._sim_kept(new, sim)
            if listed is not None and isinstance(action, str) and action.split():
                action = Action.parse(action)
        # what the listing holds, verifying accepts: an action found there is done as a trusted one
        self.apply_in_place(new, action, checked=listed is None or action not in listed)
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
                return _chance.run_explicit(self, st, action, checked=checked)
            return self._apply_plain(st, action, checked)
        except InterpretError:
            raise
        except PYTHON_ERRORS as e:
            raise translate(e) from None

    def _apply_plain(self, st, action: Action, checked: bool) -> Step:
        notes = st.get("_notes", NO_NOTES)  # state.NOTES
        if notes.listing is not None:
            # the flow stopped here for the turn's player (notes.seat) with these actions: no
            # choice is pending, no window open, no simultaneous step; a trusted action is done
            # at once, nothing asked again
            if not checked and (a := self.m.action_by_name.get(action.name)) is not None:
                player = notes.seat
                notes.listing = None
                ctx = self._trusted_ctx(st, a, player, action)
                self._play(ctx, a)
                return Step(action, player.id, ctx.events, ctx.causes)
        if not st["pending"] and (sim := st["flow"].get("sim")):
            # a trusted secret choice, its seat listed when the step opened (Simultaneous.kept):
            # recorded at once, nothing asked again
            if not checked and self._sim_kept(st, sim) is not None and \
                    (a := self.m.action_by_name.get(action.name)) is not None:
                seat = sim["seats"][len(sim["chosen"])]
                if (step := self._noted(st, sim, a, action, seat)) is not None:
                    return step
                ctx = self._trusted_ctx(st, a, self.m.seats[seat], action)
                self.simultaneous.record(ctx, a)
                self._after_action(ctx)
                return Step(action, seat, ctx.events, ctx.causes)
        player = self.current_player(st)
        ctx, a = self._bind(st, action, verify=checked or bool(st["pending"]))
        if notes.listing is not None:
            notes.listing = None  # accepted: the state changes now
        m = self.m
        if ctx is None and a is not None:  # the seat of an open window declines: the next one is asked
            win = st["flow"]["win"]
            st["flow"]["win"] = [win[0], win[1][1:]]
            ctx = rt.Ctx(st, m)
            self._settle(ctx)
            return Step(action, player, ctx.events, ctx.causes)
        if ctx is None:  # a pending choice
            p = st["pending"].pop()
            ctx = rt.Ctx(st, m, m.seats[p["me"]] if p["me"] is not None else None)
            ctx.locals = rt.decode(m, p["locals"])
            ctx.stack = [(k, rt.decode(m, loc)) for k, loc in p["stack"]]
            ctx.locals[p["slot"]] = None if action.args[0] == "none" else self.binder.decode_choice(st, p, action.args[0])
            if notes.options is not None:
                notes.options = None
            run(ctx, m.conts[p["k"]])
        elif st["flow"].get("sim"):  # a secret choice: recorded, done when every seat has chosen
            self.simultaneous.record(ctx, a)
        else:
            self._play(ctx, a)
            return Step(action, player, ctx.events, ctx.causes)
        self._after_action(ctx)
        return Step(action, player, ctx.events, ctx.causes)

    def _noted(self, st, sim, a, action: Action, seat: int) -> Step | None:
        """A trusted secret choice (of definition `a`, by `seat`) that is not the last of the
        simultaneous step `sim`, its arguments bound before from their keys alone: only recorded,
        no rule runs, and the flow stays where it was settled (the same step, the next seat to
        choose: what `_after_action` would find). None if it is not such a choice."""
        if len(sim["chosen"]) + 1 < len(sim["seats"]) and (frame := self._bound_frame(action, a)) is not None:
            self.simultaneous.note(st, a, frame)
            return Step(action, seat, [], [])
        return None

    def _only_recorded(self, st, action: Action) -> Step | None:
        """Done, if trusted `action` on `st` is a secret choice that is only recorded (`_noted`:
        no rule runs, so it draws nothing), the way `_apply_plain` does it; else None, `st`
        unchanged. Explicit chance runs such a choice in place (chance.run_explicit)."""
        if st.get(NOTES, NO_NOTES).listing is not None or st["pending"] or not (sim := st["flow"].get("sim")) \
                or self._sim_kept(st, sim) is None or (a := self.m.action_by_name.get(action.name)) is None:
            return None
        return self._noted(st, sim, a, action, sim["seats"][len(sim["chosen"])])

    # ---- verify / can / explain (legality.py) ----------------------------------------

    def verify(self, st, action: Action | str, *, seat: int | None = None) -> None:
        """Raise IllegalActionError (with its `kind` and `reason`) when `action` is refused in
        `st`; with `seat`, also when that seat is not the one to decide."""
        self.binder.verify(st, action, seat=seat)

    def can(self, st, action: Action | str, *, seat: int | None = None) -> bool:
        """Whether `verify` accepts `action`."""
        return self.binder.can(st, action, seat=seat)

    def explain(self, st, action: Action | str, *, seat: int | None = None) -> str | None:
        """Why `action` is refused in `st` (the reasons `verify` gives: every requirement that
        fails), or None when it is legal."""
        return self.binder.explain(st, action, seat=seat)

    def refusal(self, st, action: Action | str, *, seat: int | None = None, reader=None):
        """The IllegalActionError refusing `action` in `st` (its `kind`, `reason`, and the content's
        `reasons` written for `reader`, a labels.Reader), or None when it is legal."""
        return self.binder.refusal(st, action, seat=seat, reader=reader)

    # ---- results --------------------------------------------------------------------

    def observe(self, st, seat: int | None) -> dict:
        """What `seat` knows of `st` (observation.py): the only input bots and remote clients get."""
        from ..information.observation import observe
        return observe(self, st, seat)

    def determinize(self, st, seat: int | None, rng) -> dict:
        """A full state consistent with what `seat` knows, sampled with `rng` (observation.py)."""
        from ..information.observation import determinize
        return determinize(self, st, seat, rng)

    def sampler(self, st, seat: int | None, *, memory: dict | None = None):
        """`determinize` for many draws of `st`, unchanged meanwhile: `.draw(rng)` gives what
        `determinize(st, seat, rng)` gives (`memory`: what the seat remembers, memory.Memory.of),
        with what every draw needs found once (observation.Sampler)."""
        from ..information.observation import Sampler
        return Sampler(self, st, seat, memory=memory)

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

    # ---- what the game is made of, for its users (read-only) ----------------------------
    # The outer packages (agents, adapters, play, analysis, scenarios) read the game through the
    # forward model above and these, never through `self.m` (tests/test_architecture.py). The
    # methods under "edits of a state by hand" change `st` outside the forward model: each
    # forgets what was noted of it (core/state.touch).

    @classmethod
    def from_ruleset(cls, ruleset, *, players: int | None = None, options: dict | None = None,
                     observer=None, spec=None) -> "Game":
        """`Game.load` for content already loaded (ruleset.loader.load_ruleset), for tools that build
        a game several times from one ruleset; `observer` wraps the compiled rules (coverage.py);
        `spec`, the ruleset's typed content (ruleset.spec.ContentSpec.of(ruleset)), when the caller
        builds several player counts of one unchanged ruleset."""
        return cls(build_definition(ruleset, players or ruleset.default_players, options, observer=observer,
                                    spec=spec))

    @property
    def catalog(self):
        """The cards, zones, seats, steps, actions, variables and declarations of this game
        (catalog.Catalog, read-only)."""
        c = self.__dict__.get("_catalog")
        if c is None:
            from .catalog import Catalog
            c = self.__dict__["_catalog"] = Catalog(self.m)
        return c

    @property
    def title(self) -> str:
        return self.m.rs.title

    def turn_seat(self, st):
        """The Seat whose turn it is (not always who decides now: see current_player), None outside play."""
        return rt.turn_player(self.m, st)

    def estimates(self, st) -> list[float]:
        """Each seat's raw value of an unfinished `st` for the bots: the content's `scoring.evaluation`
        (a hint in points), else its score; 0 for a value that is no number, and for every seat when
        neither is declared (agents/evaluate.py)."""
        m = self.m
        f = m.evaluation or m.score
        if f is None:
            return [0.0] * self.num_players
        ctx = rt.Ctx(st, m)
        out = []
        size = m.score_scope.size
        for s in m.seats:
            ctx.me = s
            ctx.locals = [None] * size
            v = f(ctx)
            out.append(float(v) if isinstance(v, (int, float)) else 0.0)  # a bool too
        return out

    def ranking_keys(self, st) -> list[tuple]:
        """Per seat, what `ranking` compares: (score, tie-break 1, tie-break 2, ...)."""
        return results.ranking_keys(self.m, st)

    def facet_values(self, st) -> dict:
        """{facet: [its value for each seat]}: the content's `analysis.facets` read in `st`."""
        return results.facet_values(self.m, st)

    def chance_outcomes_bound(self) -> int:
        """The most outcomes a chance node of this game can have (chance.py)."""
        return _chance.outcomes_bound(self.m)

    def compile_expression(self, src, scope):
        """Compile rules-language text (a SourceText) with its locals in `scope` (lang Scope):
        f(context), run with a `rules_context`. A problem raises ContentError."""
        return self._compiled(self.m.compiler.expr, src, scope)

    def compile_piece(self, src, scope):
        """Compile the text of a `{piece}` of a template (lang.templates.Piece), as compile_expression."""
        return self._compiled(self.m.compiler.piece, src, scope)

    def _compiled(self, how, src, scope):
        from ..lang.compiler import CompileError
        from ..lang.parser import ParseFailure
        from ..errors import ContentError
        try:
            return how(src, scope)
        except ParseFailure as e:
            raise ContentError(e.problem) from None
        except CompileError as e:
            raise ContentError(self.m.compiler.problem(e)) from None

    def rules_context(self, st, *, me=None, bound=(), size: int = 0):
        """What the functions of compile_expression and compile_piece run with: `st`, `me` (a Seat,
        or None) and the scope's locals, the first ones bound to `bound` (`size`: the scope's size).
        Reading only: whatever the compiled text changes in `st` is not the forward model's."""
        ctx = rt.Ctx(st, self.m, me)
        ctx.locals = list(bound) + [None] * (size - len(bound))
        return ctx

    def listers(self) -> list:
        """(what, function) of each step's and out-of-turn window's generated lister of legal
        actions (listing.py), whose `_interpret_source` is its Python (interpret validate --source)."""
        m = self.m
        return [(f"step `{step}`", self.listings.named(step)) for step in m.actions_by_step] + \
               [(f"out-of-turn window {i + 1}", self.listings.window(i)) for i in range(len(m.window_actions))]

    # ---- edits of a state by hand (scenarios, positions): each forgets the notes of `st` ------

    def move_card(self, st, card, zone, *, top: bool = False) -> None:
        """Edits `st`: move `card` into `zone` (at its top when `top`), as the rules' `move` does."""
        touch(st)
        rt.move(rt.Ctx(st, self.m), card, zone, top)

    def swap_cards(self, st, a, b) -> None:
        """Edits `st`: swap two cards' places (or two zones' contents), as the rules' `swap` does."""
        touch(st)
        rt.swap(rt.Ctx(st, self.m), a, b)

    def read_variable(self, st, *, kind: str, name: str, index: int | None = None):
        """A variable's value in `st`: `kind` "game", "player", "card" or "zone" (catalog.variables),
        `index` the seat's, card's or zone's id."""
        from .catalog import VARIABLE_KINDS
        code = VARIABLE_KINDS[kind]
        _, dec = self.m.var_codec(code, name)
        raw = st["gv"][name] if code == "gv" else st[code][name][index]
        return dec(raw) if dec else raw

    def write_variable(self, st, *, kind: str, name: str, index: int | None = None, value) -> None:
        """Edits `st`: set a variable (as read_variable names it) to `value`, stored as the rules store
        it (core/state.py's set_global / set_value write it and forget the state's notes)."""
        from .catalog import VARIABLE_KINDS
        from ..core.state import set_global, set_value
        code = VARIABLE_KINDS[kind]
        enc, _ = self.m.var_codec(code, name)
        stored = enc(value) if enc else value
        if code == "gv":
            set_global(st, name, stored)
        else:
            set_value(st, code, name, index, stored)

    def restart_simultaneous(self, st) -> None:
        """Edits `st`: when its step is simultaneous, its seats choose afresh from the first one
        (after a position set the turn by hand: simultaneous.py)."""
        touch(st)
        sim = self.simultaneous.step(st)
        if sim is not None:
            self.simultaneous.decides(rt.Ctx(st, self.m), sim)


# Python exceptions met while the rules run (recursion without end, values that do not go
# together) leave the forward model as rule errors at the rule's position (guard.py).
guard_methods(Game, ("new_game", "chance_outcomes", "_listed_now", "legal_actions_with_labels", "label", "verify",
                     "can", "explain", "scores", "ranking", "winners", "check_invariants", "evaluate"))
