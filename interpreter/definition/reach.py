"""Where each card may ever lie, and what a `choose` may ever offer, read from the rules (issue 33).

A card starts in its `start` zone; the rules' statements move it: `move`, `draw`, `swap`, `cycle`
(and a draw refills its zone from the one it `refill_from`s). Every body the compiler compiled
(its CompileOutput's `bodies`: each action's effect, procedure, trigger, the flow's texts, the
cards' powers) is walked, its `let`, `for` and `choose` names bound to what they may hold, an
action's parameters to their domains (domains.py), every other name to every value of its type;
each movement then lets the cards it may move lie in the zones it may move them to. The walk is
repeated until no card may lie anywhere new (a domain such as `contents(Z)` grows with what may lie
in Z): the result holds every place a card can reach in play.

A search's determinization (information/observation.py) deals again the cards a seat cannot
identify among the places it cannot see, between cards of one back: such a card may also lie
wherever another card of its back may lie unseen.
"""
from __future__ import annotations

from ..core.model import Card, Zone
from ..lang import ast as A
from .domains import Domains, Vals

_ROUNDS = 50  # the walk settles in a few rounds; a guard, never reached by the bundled games


class Walk:
    """One walk of every body with what is known of where cards lie (`lying`): the movements it
    sees and the options of each `choose`."""

    def __init__(self, m, lying: dict, changed: dict, params: dict):
        self.m = m
        self.dom = Domains(m, lying, changed)
        self.changed = {}  # card variable -> the cards an assignment may change it of
        self.params = params  # (text's file, line, column) of an action's effect -> [{name: Vals}]
        self.moves = []  # (cards, zones): those cards may go to those zones
        self.swaps = []  # (Vals, Vals): each side may go where the other lies
        self.cycles = []  # zones whose cards may go to each other
        self.options = None  # what a `choose` may offer (None: the rules never ask one)
        self.called = {}  # procedure -> its arguments' {name: Vals}, joined over the `do`s seen
        self.todo = []  # procedures whose arguments grew: walked again

    def run(self):
        m = self.m
        # a procedure (and what triggers on it) runs only through `do`: walked with its arguments there
        callee = {}
        for name in m.procedure_params:
            spec = m.spec.procedures.get(name)
            snip = spec.text("effect", label=f"procedure {name}") if spec is not None else None
            if snip is not None:
                callee[_key(snip.src)] = name
            for kind in ("on", "instead"):
                for _, snip, _ in m.triggers[kind].get(name, ()):
                    callee[_key(snip.src)] = name
        self.bodies_of = {}
        for stmts, scope in m.compiler.output.bodies:
            name = callee.get(_key(scope.src)) if scope.src is not None else None
            if name is not None and list(scope.slots)[:len(m.procedure_params[name])] == list(m.procedure_params[name]):
                self.bodies_of.setdefault(name, []).append((stmts, scope))
            else:
                self.body(stmts, self.env_of(scope), scope)
        while self.todo:
            name = self.todo.pop()
            for stmts, scope in self.bodies_of.get(name, ()):
                self.body(stmts, dict(self.called[name]), scope)
        return self

    def env_of(self, scope) -> dict:
        """An action's effect: its parameters bound to their domains (the union, when several
        actions share the text: a group's effect)."""
        envs = self.params.get(_key(scope.src)) if scope.src is not None else None
        if not envs:
            return {}
        names = list(scope.slots)
        out = {}
        for env in envs:
            if list(env) != names[:len(env)]:
                return {}  # not this action's frame: nothing known of its names
            for k, v in env.items():
                out[k] = out[k] | v if k in out else v
        return out

    def body(self, stmts, env: dict, scope) -> dict:
        for s in stmts:
            env = self.stmt(s, env, scope)
        return env

    def stmt(self, s, env: dict, scope) -> dict:
        dom, t = self.dom, type(s)
        if t is A.Let:
            return {**env, str(s.name): dom.value(s.value, env, scope)}
        if t is A.Assign:
            self.assigned(s.target, env, scope)
        if t is A.Assign and type(s.target) is A.Name and str(s.target.name) in env:
            name = str(s.target.name)
            return {**env, name: env[name] | dom.value(s.value, env, scope)}  # `=`, or `+=` of items
        if t is A.If:
            out = dict(env) if s.otherwise is None else None
            for _, stmts in s.branches + ([(None, s.otherwise)] if s.otherwise is not None else []):
                after = self.body(stmts, dict(env), scope)
                out = after if out is None else _joined(out, after)
            return out
        if t is A.For:
            inner = {**env, str(s.var): dom.items(s.coll, env, scope)}
            return _joined(env, self.body(s.body, self.body(s.body, inner, scope), scope))
        if t is A.Repeat:
            return _joined(env, self.body(s.body, self.body(s.body, dict(env), scope), scope))
        if t is A.Choose:
            options = dom.items(s.options, env, scope)
            options = options if s.by is None else options._replace(own=False)
            self.options = options if self.options is None else self.options | options
            return {**env, str(s.var): options}
        if t in (A.Move, A.Draw, A.Swap, A.Cycle):
            self.moved(s, env, scope)
            # cards moved: where the names' cards lay when they were bound no longer holds
            return {k: v._replace(places=None) if v.places else v for k, v in env.items()}
        if t is A.Do or (t is A.Super and scope.replacing is not None):
            name = str(s.name) if t is A.Do else scope.replacing[0]
            params = self.m.procedure_params.get(name)
            if params is not None:
                if t is A.Super and s.args is None:  # `super`: the procedure with the handler's own arguments
                    args = {str(p): env.get(str(p), dom.every(None)) for p in params}
                else:
                    args = {str(p): dom.value(a, env, scope) for p, a in zip(params, s.args)}
                before = self.called.get(name)
                after = args if before is None else _joined(before, args)
                if after != before:
                    self.called[name] = after
                    self.todo.append(name)
        return env

    def moved(self, s, env, scope):
        """A `move`, `draw`, `swap` or `cycle`: what it may move, and where."""
        dom, t = self.dom, type(s)
        if t is A.Move:
            self.moves.append((dom.value(s.what, env, scope), dom.value(s.to, env, scope)))
        elif t is A.Draw:
            source, to = dom.value(s.source, env, scope), dom.value(s.to, env, scope)
            for z in self.zones(source):
                self.moves.append((dom.cards_in(Vals(frozenset({z}))), to))
                if z.refill_from is not None:
                    other = self.m.zone_by_name.get(z.refill_from)
                    if other is not None:
                        self.moves.append((dom.cards_in(Vals(frozenset({other}))), Vals(frozenset({z}))))
        elif t is A.Swap:
            self.swaps.append((dom.value(s.a, env, scope), dom.value(s.b, env, scope)))
        elif t is A.Cycle:
            self.cycles.append(self.zones(dom.items(s.zones, env, scope)))

    def assigned(self, target, env, scope):
        """`card.V = ...` (or `card.V[i] = ...`): the cards whose V may change."""
        while type(target) in (A.Attr, A.Index):
            if type(target) is A.Attr and str(target.name) in self.m.cvars:
                cards = _cards(self.dom.value(target.obj, env, scope), self.m)
                self.changed.setdefault(str(target.name), set()).update(cards)
            target = target.obj

    def zones(self, vals: Vals) -> list:
        """The zones `vals` may be: every zone when it may be something not known."""
        if vals.numbers or vals.texts or vals.places is None and any(type(v) is Card for v in vals.values):
            return list(self.m.zones)
        return [z for z in vals.values if type(z) is Zone]


def _key(src) -> tuple:
    """A text's place in the content, which tells the bodies apart."""
    return (src.file, src.line, src.column, src.text)


def _joined(a: dict, b: dict) -> dict:
    """What a name may hold after one of two paths."""
    out = dict(a)
    for k, v in b.items():
        out[k] = out[k] | v if k in out else v
    return out


def _cards(vals: Vals, m) -> set:
    if vals.numbers or vals.texts:
        return set(m.cards)
    return {c for c in vals.values if type(c) is Card}


def reach(m, params_of) -> tuple[dict, dict, Vals]:
    """(card -> the zones it may lie in, card variable -> the cards whose value may leave its
    default, what a `choose` may offer). `params_of(dom)`: for a
    Domains, {(file, line, column, text) of an action's effect: [its parameters' {name: Vals}]}."""
    zones = m.zones
    lying = {c: {zones[m.start_zone[c.id]]} for c in m.cards}
    changed = {}
    for _ in range(_ROUNDS):
        frozen = {c: frozenset(v) for c, v in lying.items()}
        was = {k: frozenset(v) for k, v in changed.items()}
        walk = Walk(m, frozen, was, params_of(Domains(m, frozen, was))).run()
        for name, cards in walk.changed.items():
            changed.setdefault(name, set()).update(cards)
        for what, to in walk.moves:
            dest = set(walk.zones(to))
            for c in _cards(what, m):
                lying[c] |= dest
        for a, b in walk.swaps:
            ca, cb = _cards(a, m), _cards(b, m)
            if ca or cb:  # each card goes where the other lay: among the places its side was read from
                za = set().union(*(frozen[c] for c in ca)) if ca else set()
                zb = set().union(*(frozen[c] for c in cb)) if cb else set()
                za = za if a.places is None else za & a.places
                zb = zb if b.places is None else zb & b.places
                for c in ca:
                    lying[c] |= zb
                for c in cb:
                    lying[c] |= za
            else:  # two zones: their contents change places
                for z1 in walk.zones(a):
                    for z2 in walk.zones(b):
                        _trade(lying, frozen, z1, z2)
        for ring in walk.cycles:
            every = set(ring)
            for c, where in frozen.items():
                if where & every:
                    lying[c] |= every
        _unseen(m, lying, changed)
        if all(lying[c] == frozen[c] for c in lying) and changed == was:
            return frozen, was, walk.options
    raise RecursionError("where the cards may lie did not settle")  # never with finite zones: a guard


def _trade(lying, frozen, z1, z2):
    for c, where in frozen.items():
        if z1 in where:
            lying[c].add(z2)
        if z2 in where:
            lying[c].add(z1)


def _unseen(m, lying, changed):
    """A card that may lie unseen may be dealt again to where another of its back may lie unseen,
    with that card's variables."""
    dom = Domains(m, None, {k: frozenset(v) for k, v in changed.items()})
    unseen = {}
    for c in m.cards:
        hidden = dom.concealable(c)
        unseen[c] = {z for z in lying[c] if hidden or m.handle_plan[z.id] is not None}
    by_back = {}
    for c, zs in unseen.items():
        if zs:
            by_back.setdefault(c.back, set()).update(zs)
    for c, zs in unseen.items():
        if zs:
            lying[c] |= by_back[c.back]
    for cards in changed.values():
        backs = {c.back for c in cards if unseen[c]}
        cards.update(c for c in m.cards if c.back in backs and unseen[c])
