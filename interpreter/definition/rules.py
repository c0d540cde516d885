"""Flow, actions, out-of-turn windows and scoring of a match, compiled.

A part of the GameDefinition (definition.py); `self.d` is the definition being built, `self.world`
its world, `self.links` its linked handlers.
"""
from __future__ import annotations

from .. import limits as lim
from ..runtime import context as rt
from ..lang import ast as A
from ..lang.scope import CompileError, Scope
from ..lang.together import together
from ..errors import did_you_mean
from ..lang.parser import parse
from ..core.model import Card, Zone, key_of, label_of
from ..ruleset.spec import NO_GROUP
from .presence import presence
from .parts import ActionDef, Part, SimultaneousDef, StepDef, WindowDef, _AlreadyReported, _names_in


class CompiledRules(Part):
    def __init__(self, d, world, links):
        super().__init__(d)
        self.world, self.links = world, links

    def compile(self):
        """The flow, the actions and the scoring."""
        self._compile_flow()
        self._compile_actions()
        self._compile_scoring()

    # ---- flow, actions, scoring ------------------------------------------------------

    @staticmethod
    def _text(spec, key, where):
        """The rules text of a typed entry (ruleset/spec.py) at `key` (a key, or a tuple of keys)."""
        return spec.text(*(key if isinstance(key, tuple) else (key,)), label=where)

    def _effect(self, spec, key, where, params=()):
        snip = self._text(spec, key, where)
        if snip is None:
            return None

        def build():
            stmts = parse(snip.src, "effect").body
            scope = Scope(params, src=snip.src, kind="effect")
            return (self.d.compiler.seq(stmts, scope, self.links.ret), scope)
        return self.links._guard(build, snip.src)

    def _expr(self, spec, key, where, scope):
        snip = self._text(spec, key, where)
        if snip is None:
            return None
        return self.links._guard(lambda: self.d.compiler.expr(snip.src, scope), snip.src)

    def _compile_flow(self):
        flow = self.d.spec.flow
        self.setup = self._effect(flow, "setup", "flow.setup")
        rnd, turn = flow.round, flow.turn
        self.round_start = self._effect(rnd, "start", "flow.round.start")
        self.round_end = self._effect(rnd, "end", "flow.round.end")
        self.round_order_scope = Scope()
        self.round_order = self._expr(rnd, "order", "flow.round.order", self.round_order_scope)
        self.round_until_scope = Scope()
        self.round_until = self._expr(rnd, "until", "flow.round.until", self.round_until_scope)
        self.turn_start = self._effect(turn, "start", "flow.turn.start")
        self.turn_end = self._effect(turn, "end", "flow.turn.end")
        self.steps = []
        for i, spec in enumerate(flow.steps):
            scope = Scope()
            skip = self._expr(spec, "skip", f"flow.turn.steps[{i}].skip", scope)
            self.steps.append(StepDef(spec.name, (skip, scope.size) if skip else None,
                                      self._compile_simultaneous(i, spec)))
        self.step_names = [s.name for s in self.steps]
        self.windows = []
        for i, spec in enumerate(flow.windows):
            self.links._guard(lambda i=i, spec=spec: self._compile_window(i, spec))
        self.window_action_names = {n: w for w in self.windows for n in w.actions}

    def _compile_simultaneous(self, i, spec):
        """flow.turn.steps[i].simultaneous: `true`, or {seats: players expr, reveal: effect}."""
        sim = spec.simultaneous
        if sim is None:
            return None
        where = f"flow.turn.steps[{i}].simultaneous"
        if sim.every_seat:
            return SimultaneousDef(None, None, spec.at("simultaneous"))
        scope = Scope()
        seats = self._expr(sim, "seats", f"{where}.seats", scope)
        return SimultaneousDef((seats, scope.size) if seats is not None else None,
                               self._effect(sim, "reveal", f"{where}.reveal"), spec.at("simultaneous"))

    def _compile_window(self, i, spec):
        where = f"flow.turn.windows[{i}]"
        steps = spec.steps
        for s in steps or ():
            if s not in self.step_names:
                self.d.errors.add(spec.at("steps"), f"window `{spec.name}`: unknown step `{s}`",
                                hint=did_you_mean(s, self.step_names) or "steps are declared in flow.turn.steps")
        for w in self.windows:
            if w.name == spec.name:
                self.d.errors.add(spec.at("name"), f"two windows are named `{w.name}`")
        actions = self.d.spec.actions
        for j, a in enumerate(spec.actions):
            if a not in actions:
                self.d.errors.add(spec.at("actions", j), f"window `{spec.name}`: no action `{a}`",
                                hint=did_you_mean(a, list(actions)) or "")
            elif actions[a].steps is not None:
                self.d.errors.add(actions[a].at("step"),
                                f"action `{a}` is played in window `{spec.name}`: it has no `step`",
                                hint="an action belongs to the turn's steps or to a window, not both")
            for w in self.windows:
                if a in w.actions:
                    self.d.errors.add(spec.at("actions", j),
                                    f"action `{a}` is already played in window `{w.name}`")
        decline = spec.decline
        if decline in actions:
            self.d.errors.add(spec.at("decline") if spec.has_decline else spec.at("name"),
                            f"window `{spec.name}`: its move `{decline}` has the name of an action",
                            hint="name the move that declines with `decline:`")
        scope = Scope()
        seats = self._expr(spec, "seats", f"{where}.seats", scope)
        if seats is None:
            raise _AlreadyReported()
        self.windows.append(WindowDef(spec.name, frozenset(steps) if steps else None, spec.each,
                                      (seats, scope.size), spec.actions, decline, spec.at()))

    def _compile_actions(self):
        self.actions: list[ActionDef] = []
        self.action_by_name: dict[str, ActionDef] = {}
        for name, spec, card, group in self._action_entries():
            a = self.links._guard(lambda: self._compile_action(name, spec, card, group))
            if a is not None:
                self.actions.append(a)
                self.action_by_name[name] = a
        self.actions_by_step = {}
        self.actions_by_cost = {}
        # an action whose requirement is false by the options alone (`field_powers` off...) can
        # never be played in this match: it is left out of the lists that are walked every decision
        self.never_legal = {a.name for a in self.actions if any(f is None for f in a.static_false)}
        live = [a for a in self.actions if a.name not in self.never_legal]
        # an action named by a window (flow.turn.windows) is played there only, never in the steps
        self.window_actions = [[a for a in live if a.name in w.actions] for w in self.windows]
        live = [a for a in live if a.name not in self.window_action_names]
        for s in self.step_names:
            self.actions_by_step[s] = [a for a in live if a.steps is None or s in a.steps]
            # to know quickly whether anything is legal: cheapest first
            self.actions_by_cost[s] = sorted(self.actions_by_step[s], key=lambda a: len(a.params))

    def _action_entries(self):
        """(name, spec, card name or None, group spec or None) of every action, in listing order:
        the rules' actions, where a group (`members: group`) stands for its members (the card
        actions naming it, in card order), then the card actions of no group, in card order."""
        actions = self.d.spec.actions
        groups = {n: s for n, s in actions.items() if s.is_group}
        card_actions = [a for c in self.d.spec.cards.values() for a in c.actions]
        seen = {n: s.defined_at for n, s in actions.items()}
        for a in card_actions:
            if a.name in seen:
                self.d.errors.add(a.defined_at, f"card `{a.card}`: an action `{a.name}` "
                                f"already exists", hint=f"first defined at {seen[a.name]}")
            seen[a.name] = a.defined_at
            g = a.group
            if g is not None and g not in groups:
                self.d.errors.add(a.at("group"), f"action `{a.name}`: no action group `{g}`",
                                hint=did_you_mean(g, list(groups)) or "declare it under `actions:` with `members: group`")
        out = []
        for name, spec in actions.items():
            if name in groups:
                out += [(a.name, a, a.card, spec) for a in card_actions if a.group == name]
            else:
                g = spec.group
                if g is not None and g not in groups:
                    self.d.errors.add(spec.at("group"), f"action `{name}`: no action group `{g}`",
                                    hint=did_you_mean(g, list(groups)) or "")
                out.append((name, spec, None, groups.get(g)))
        out += [(a.name, a, a.card, None) for a in card_actions if a.group is None]
        return out

    def _group_limit(self, group):
        """A group's shared limit: a requirement over the uses of its members this turn."""
        n = group.limit
        gname = group.name
        members = frozenset(a.name for c in self.d.spec.cards.values() for a in c.actions if a.group == gname) | {
            a for a, s in self.d.spec.actions.items() if s.group == gname}
        reason = group.limit_reason or f"the actions of `{gname}` may be played {n} time(s) per turn"

        def check(ctx):
            used = ctx.st["used"]
            return sum(used.get(a, 0) for a in members) < n
        return check, (lambda ctx: reason), 0

    def _compile_action(self, name, spec, card=None, group=None):
        """An action of the rules, or of a card (`card`: its name; `this` is the card, or with `from:`
        its first parameter, the first copy of the card in that zone), in a group or not."""
        group = group or NO_GROUP
        steps = spec.steps if spec.steps is not None else group.steps
        if steps is not None:
            for s in steps:
                if s not in self.step_names:
                    self.d.errors.add(spec.at("step"), f"action `{name}`: unknown step `{s}`",
                                    hint=did_you_mean(s, self.step_names) or "steps are declared in flow.turn.steps")
        params = [(p.name, p) for p in spec.params]
        for j, shown in enumerate(spec.shown):  # the parameters a move shows every seat (labels.shown_cards)
            if shown not in [p for p, _ in params]:
                self.d.errors.add(spec.at("shown", j), f"action `{name}`: `shown` names no parameter `{shown}`",
                                  hint=did_you_mean(str(shown), [p for p, _ in params]) or "parameters: "
                                  + (", ".join(p for p, _ in params) or "none"))
        holder = spec if spec.has_from else group
        bound_from = card is not None and holder.has_from
        if bound_from:
            params = [("this", None)] + params
        scope = Scope([p for p, _ in params])
        c = self.d.compiler
        if card is not None and not bound_from:
            copies = self.links.powers.copies_of(card)
            if len(copies) != 1:
                self.d.errors.add(spec.at(), f"action `{name}` of card `{card}`, which has {len(copies)} "
                                f"copies: which one is `this`?", hint="say where it is played from with `from: ZONE` "
                                "(`this` is then the first copy there)")
                raise _AlreadyReported()
            scope.bound["this"] = copies[0]
        compiled_params = []
        why_not = {}  # parameter index -> ((check, reason), ...): the conditions its values meet (`reasons`)
        failed = False
        kinds = {}  # slot of a parameter -> the kind of its domain's values
        fixed = {}  # parameter index -> (values, where, what, by key) when its domain is the same in every state
        from_tree = None
        for pname, dom in params:
            if pname == "this" and bound_from:
                snip = holder.text("from", label=f"action {name}.from")
                # shown as `card` in refusals ("... is not a possible card now"): `this` names it in rules
                compiled_params.append(("card", scope.slots[pname], self._copy_in(c.expr(snip.src, scope), card,
                                                                                  snip.src.locate(1, 1))))
                from_tree = parse(snip.src, "expr")  # the tree the compiler read (presence.py)
                continue
            optional = dom.optional
            snip = dom.text(f"action {name}.params.{pname}")
            tree = parse(snip.src, "expr")
            if not any(str(getattr(n, "var", "")) in scope.slots for n in tree.walk()):
                scope.kinds = kinds  # the parameters before it are bound (from their domains) when it is read
            try:
                f = c.expr(snip.src, scope)
            finally:
                scope.kinds = {}
            if optional:
                f = (lambda g: lambda ctx: list(g(ctx) or []) + [None])(f)
            kind = None if optional else c.codegen.domain_kind(tree, scope)
            scope.types[pname] = c.types.item_of(tree, scope)  # the type of its values, where known (valuetypes.py)
            if kind is not None:  # what a requirement reads in it, once bound (checked against its domain)
                kinds[scope.slots[pname]] = kind
            if dom.reasons:  # the conditions its values meet: they say why another value is not one of them
                reasons = tuple(self._requirement(req, f"action {name}.params.{pname}.reasons[{req.index}]",
                                                  scope, kinds) for req in dom.reasons)
                if any(r is None for r in reasons):
                    failed = True
                    continue
                why_not[len(compiled_params)] = tuple((r[0], r[1]) for r in reasons)
            if isinstance(tree, (A.Num, A.Neg, A.Str, A.Compare, A.Not, A.And, A.Or)) or (
                    type(tree) is A.Const and tree.value is not None):
                loc = snip.src.locate(1, 1)
                self.d.errors.add(loc, f"the domain of parameter `{pname}` must be a collection (a list, cards, "
                                     f"cells, players), not `{snip.src.text.strip()}`",
                                hint="the parameter takes each value of its domain in turn", context=snip.src.context(loc))
            domain = self._domain(f, pname, snip.src.locate(1, 1))
            before = [p for p, _ in params]
            # the same in every pass of the loops over the parameters before it (engine/listing.py)
            domain.invariant = not (_names_in(tree) & set(before[:before.index(pname)])) and not c.draws_chance(tree)
            compiled_params.append((pname, scope.slots[pname], domain))
            values = None if optional else self._fixed_domain(tree, f, scope)
            if values is not None:  # with what `_domain` reports when they are over the budget, and
                by_key = {}  # the value of each key (the first one: the checked path binds the first)
                for v in values:
                    by_key.setdefault(key_of(v), v)
                fixed[len(compiled_params) - 1] = (values, snip.src.locate(1, 1),
                                                   f"the values of parameter `{pname}`", by_key)
        requires = []
        req_trees = []  # the requirements' parsed texts (presence.py)
        written = {}  # id of a requirement's check -> (its tree, its text, the kinds it relies on): lang/together.py
        static_false = []
        if group.limit:
            requires.append(self._group_limit(group))
        for req in (*group.require, *spec.require):
            r = self._requirement(req, f"action {name}.require[{req.index}]", scope, kinds)
            if r is None:  # each part on its own: every problem of the action is reported
                failed = True
                continue
            f, reason, src = r[:3]
            written[id(f)] = (r[3], src, r[4])
            req_trees.append(parse(src, "expr"))
            # check a requirement as soon as the parameters it reads are bound
            used = _names_in(req_trees[-1])
            level = max([k + 1 for k, (p, _) in enumerate(params) if p in used], default=0)
            if self.links._is_static(parse(src, "expr")):
                try:
                    if not f(rt.Ctx({}, self.d)):
                        static_false.append(None)  # false whatever happens
                except Exception:
                    pass
            requires.append((f, reason, level))

        def make_label():
            if spec.label:
                return c.template_text(str(spec.label), scope, src=spec.source("label"))
            return c.template_text(name + "".join(f" {{{p}}}" for p, _ in params), scope)
        label = self.links._guard(make_label)
        listed = self._listed(requires, written, len(compiled_params), scope)  # before the frame's size is read

        def make_effect(spec, k):
            snip = spec.text("effect", label=f"action {name}.effect")
            stmts = parse(snip.src, "effect").body if snip else []
            return c.seq(stmts, scope.reading(snip.src if snip else None, "effect"), k)
        effect = self.links._guard(lambda: make_effect(spec, self.links.ret))
        if effect is not None and group.has_effect:  # the group's effect first, then the action's
            effect = self.links._guard(lambda: make_effect(group, effect))
        if failed or label is None or effect is None:
            raise _AlreadyReported()
        a = ActionDef(name, frozenset(steps) if steps else None, compiled_params, requires, spec.limit,
                      label, effect, scope.size, spec.section)
        a.static_false = static_false
        a.listed = listed
        a.why_not = tuple(why_not.get(i) for i in range(len(compiled_params)))
        a.fixed = tuple(fixed.get(i) for i in range(len(compiled_params)))
        a.presence = presence(self.d, card=card, bound_from=bound_from, from_tree=from_tree, requires=req_trees,
                              scope=scope)
        return a

    def _requirement(self, req, label, scope, kinds):
        """(check, reason, its text, its tree, the kinds it relies on) of a requirement or a
        parameter's condition (a RequireSpec) of an action whose locals are `scope` (`kinds`: its
        parameters' kinds); None when it does not compile (its problems are reported)."""
        c = self.d.compiler

        def one():
            snip = req.text(label)
            reason = req.reason or f"requires {req.check}"
            tree = parse(snip.src, "expr")
            relied = {}
            if not any(str(getattr(n, "var", "")) in scope.slots for n in tree.walk()):
                relied = kinds  # no loop of it rebinds a parameter: their kinds hold
            scope.kinds = relied
            try:
                f = c.expr(snip.src, scope)
            finally:
                scope.kinds = {}
            told = c.template_text(reason, scope.reading(snip.src), src=req.reason_source())
            if not req.reason:
                told.unwritten = True  # no reason a player can read (legality.py says so in words)
            return f, told, snip.src, tree, relied
        return self.links._guard(one)

    def _listed(self, requires, written, nparams, scope) -> list:
        """Per level (0: before any parameter is bound, then after each), the functions the listing
        calls (engine/listing.py): the level's requirements in declared order, those written in the
        rules language checked together by one generated function when there are several
        (lang/together.py). [] (each alone, engine/plan.py) when none is, when an observer counts
        each (coverage.py wraps them once built), or when they cannot be written together (then
        nothing is lost but speed)."""
        if self.d.observer is not None:
            return []
        out, joined = [], False
        for level in range(nparams + 1):
            fs = [f for f, _, lv in requires if lv == level]
            first = next((i for i, f in enumerate(fs) if id(f) in written), len(fs))
            run = fs[first:]
            if len(run) > 1 and all(id(f) in written for f in run):
                try:
                    fs = fs[:first] + [together(self.d.compiler.codegen, [written[id(f)] for f in run], scope)]
                    joined = True
                except (CompileError, RecursionError):
                    pass
            out.append(fs)
        return out if joined else []

    def _copy_in(self, zonef, card, where):
        """The domain of `this` for a card action with `from:`: the first copy of the card in that
        zone (copies are interchangeable), or nothing."""
        cards = self.world.cards

        def dom(ctx):
            z = zonef(ctx)
            if type(z) is not Zone:
                raise rt.RuleRuntimeError(f"`from:` must give a zone, not {label_of(z)}", where)
            for i in ctx.st["z"][z.id]:
                if cards[i].name == card:
                    return [cards[i]]
            return []
        return dom

    _FIXED_NAMES = ("cells", "players", "rows", "columns")  # builtin values fixed at load (not `cards`)

    def _fixed_domain(self, tree, f, scope):
        """The values of a parameter's domain (a tuple) when it is the same in every state and
        holds no card, else None: a name of the board's cells, the players, the rows or columns,
        a constant list, or a list of literals. Their keys are then the same for every seat
        (handles.py names only cards by their place), so the listing computes them once."""
        if type(tree) is A.Name:
            name = str(tree.name)
            if (name in scope.slots or name in scope.bound or name in scope.inlined or name == "me"
                    or name in self.world.gvars):
                return None
            if name not in self.world.constants and name not in self._FIXED_NAMES:
                return None
        elif type(tree) is not A.ListOf or not all(type(i) in (A.Num, A.Str) for i in tree.items):
            return None
        try:
            v = f(rt.Ctx({}, self.d))
        except Exception:  # an error in a state: left to the listing, which reports it there
            return None
        if type(v) not in (list, tuple) or any(type(i) is Card for i in v):
            return None
        return tuple(v)

    @staticmethod
    def _domain(f, pname, where):
        """A parameter's domain, checked to be a collection when it is computed. The listing
        (listing.py) writes the same check in its text around `dom.compiled`, `dom.where` and
        `dom.what`, with `domain_other` for what is not a list."""
        what = f"the values of parameter `{pname}`"

        def dom(ctx):
            v = f(ctx)
            if v is None or type(v) is list:
                if v:  # listing the bindings of every parameter: their product spends the budget
                    b = ctx.budget - len(v)
                    ctx.budget = b
                    if b < 0:
                        lim.spend_failed(ctx, where, what)
                return v
            return domain_other(v, pname, where)
        dom.compiled, dom.where, dom.what, dom.pname = f, where, what, pname
        return dom

    @staticmethod
    def _number(f, what, where):
        """A score or a tie-break: a number (yes/no and none count as numbers), else a rule error."""
        def number(ctx):
            v = f(ctx)
            if v is None or type(v) in (int, bool):
                return v
            raise rt.RuleRuntimeError(f"{what} must give a number, not {label_of(v)}", where)
        return number

    def _compile_scoring(self):
        sc = self.d.spec.scoring
        self.score_scope = Scope()
        self.score = self._expr(sc, "score", "scoring.score", self.score_scope) if sc.has_score else None
        if self.score is not None:
            self.score = self._number(self.score, "scoring.score", sc.at("score"))
        self.tiebreaks = []
        for i in range(sc.tiebreaks):
            f = self._expr(sc, ("tiebreak", i), f"scoring.tiebreak[{i}]", self.score_scope)
            if f is not None:
                self.tiebreaks.append(self._number(f, f"scoring.tiebreak[{i}]", sc.at("tiebreak", i)))
        self.winner_scope = Scope()
        self.winner = self._expr(sc, "winner", "scoring.winner", self.winner_scope) if sc.has_winner else None
        self.side = self._expr(sc, "side", "scoring.side", self.score_scope) if sc.has_side else None
        # a designer's hint for the bots: how good the position is for `me`, in points (agents/evaluate.py)
        self.evaluation = (self._expr(sc, "evaluation", "scoring.evaluation", self.score_scope)
                           if sc.has_evaluation else None)
        self.facets = []  # analysis.facets: (name, rules, locals) read per seat by `interpret analyze`
        facets = self.d.spec.facets
        for name in facets.node:
            scope = Scope()
            f = self._expr(facets, name, f"analysis.facets.{name}", scope)
            if f is not None:
                self.facets.append((str(name), f, scope))
        self.invariants = []
        for i, inv in enumerate(self.d.spec.invariants):
            scope = Scope()
            f = self._expr(inv, "check", f"invariants[{i}]", scope)
            if f is not None:
                self.invariants.append((f, inv.message, scope.size, inv.per_player))


def domain_other(v, pname, where):
    """A parameter's domain `v` that is neither a list nor None: as a list (it spends nothing),
    or the rule error that it is no collection."""
    if isinstance(v, (tuple, dict, set, frozenset)):
        return list(v)
    hint = f": write `{v.name}.cards`" if type(v) is Zone else ""
    raise rt.RuleRuntimeError(f"the domain of parameter `{pname}` is {label_of(v)}, not a collection{hint}", where)
