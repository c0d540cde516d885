"""Card powers: the triggers, replacements and modifiers a card declares in its own entry.

A card entry may hold `powers:` (a list of `rule: "on EVENT ...: ..."` / `rule: "instead of
PROCEDURE ...: ..."` and `modify: FUNCTION, value: EXPR`) and `while:` (when the card's powers
apply, default always). Inside them `this` is the card, a value known at load time: a card with
several copies (or one per player) has its powers once per copy, each with its own `this`.

A card entry may also hold `effects:`, lasting effects its rules start with `grant NAME [with
VALUE]`: each is a player variable NAME (world.py; its value, `default` while inactive), ended by
its `until:` (`turn`, `round`: the variable's reset; an event: every player's NAME goes back to its
default when the event happens) and holding `powers:` that apply while `me.NAME` is true (not
false, none, 0 or empty), once however many copies the card has.

Everything is linked here, once per match: a card's triggers join the rules' triggers under their
hook (linker.py), its modifiers are kept by the function they modify (written into its
generated function, `modifier_lines`; closures around it under an observer, `with_modifiers`).
Nothing scans the cards while playing.

A part of the definition of its own (`powers`), held by the linker (linker.py, `self.links` here),
which collects them with the rules' triggers (`collect`) and compiles them.
"""
from __future__ import annotations

from typing import NamedTuple

from ..lang.parser import ParseFailure, parse
from ..lang.scope import Scope, stamped
from ..errors import did_you_mean
from ..ruleset.yamlio import Snippet, SourceText
from .parts import Part


class Binding(NamedTuple):
    """What a card's power is bound to: its card (`this`) and the card's `while` (or None)."""

    card: object
    while_: object  # Snippet of the card's `while:`, or None


class Powers(Part):
    def __init__(self, d, world, links):
        super().__init__(d)
        self.world, self.links = world, links
        self.modifiers = {}  # function name -> [(value Snippet, when Snippet or None, Binding)]

    def copies_of(self, name) -> list:
        """Every card instance of the definition `name` (copies and per-player cards), in id order."""
        cache = self.__dict__.get("_copies")
        if cache is None:
            cache = self._copies = {}
            for c in self.world.cards:
                cache.setdefault(c.name, []).append(c)
        return cache.get(name, [])

    def card_while(self, card):
        """The Snippet of a card's `while:` (checked to parse), or None (`card`: its CardSpec)."""
        if not card.has_while:
            return None
        snip = card.text("while", label=f"cards.{card.name}.while")
        try:
            parse(snip.src, "expr")
        except ParseFailure as e:
            self.d.errors.problems.extend(e.problems)  # every line's syntax error (parser._further)
            return None
        return snip

    def collect(self):
        """Index every card's triggers and replacements by hook (the linker's `add_trigger`), and its
        modifiers by function."""
        for name, card in self.d.spec.cards.items():
            if card.powers:
                w = self.card_while(card)
                self._add_powers(card.powers, [Binding(c, w) for c in self.copies_of(name)])
            for effect in card.effects:
                self._add_effect(name, effect)

    def _add_effect(self, card, effect):
        """A lasting effect: its powers, bound once (`this`: the card's first copy) under the
        condition `me.NAME`, and a trigger per event of its `until` ending it for every player."""
        name = effect.name
        where = f"cards.{card}.effects.{name}"
        copies = self.copies_of(card)
        if effect.powers and copies:  # first: a power answering the event that ends the effect still applies
            active = Snippet(SourceText.plain(f"me.{name}"), f"{where}.active")
            self._add_powers(effect.powers, [Binding(copies[0], active)])
        for ev in effect.until:
            if ev in ("turn", "round"):
                continue
            if ev not in self.links.event_params:
                self.d.errors.add(effect.at("until"), f"{where}: `until` names no event `{ev}`",
                                hint=did_you_mean(ev, list(self.links.event_params)) or
                                "`turn`, `round`, or an event declared under `events:`")
                continue
            default = self.world.pvars[name]["default"] if name in self.world.pvars else False
            text = f"on {ev}: for p in players do p.{name} = {_literal(default)} end"
            self.links.add_trigger(Snippet(SourceText.plain(text), f"{where}.until"), None)

    def _add_powers(self, powers, bindings):
        functions = self.d.spec.functions
        for p in powers:
            where = p.name
            if p.is_rule:
                self.links.add_trigger(Snippet(p.source("rule"), where, p.id), bindings)
                continue
            fn = p.modify
            spec_fn = functions.get(fn)
            if spec_fn is None:
                self.d.errors.add(p.at("modify"), f"{where}: no function `{fn}` to modify",
                                hint=did_you_mean(fn, [f for f, s in functions.items() if s.modifiable]) or
                                "a card modifies a function the rules declare with `modifiable: true`")
                continue
            if not spec_fn.modifiable:
                self.d.errors.add(p.at("modify"), f"{where}: function `{fn}` is not modifiable",
                                hint=f"the rules expose it to cards with `modifiable: true` on functions.{fn}")
                continue
            value = p.text("value", label=f"{where}.value")
            when = p.text("when", label=f"{where}.when") if p.has_when else None
            self.modifiers.setdefault(fn, []).extend((value, when, b) for b in bindings)

    def condition(self, binding, scope, cond):
        """A power's condition: the card's `while` (compiled in the power's scope), then its own."""
        if binding.while_ is None:
            return cond
        src = binding.while_.src
        w = self.d.compiler.e(parse(src, "expr"), scope.reading(src))
        if cond is None:
            return w
        return lambda ctx: w(ctx) and cond(ctx)

    def modifier_lines(self, name, params, base_scope):
        """`then` of codegen.function for the function `name` modified by cards: the lines turning
        its value `v` into the modified one, its modifiers in card order, each when its card's
        `while` and its own `when` hold (in that order), `value` (the slot after the parameters)
        bound to the value so far. Each text compiled as `with_modifiers` compiles it; a mark before
        it (and in its loops) makes an error nobody foresaw point at it, as its own module did."""
        def then(g, text):
            lines = [f"v = {text}"]
            size = base_scope.size
            slot = len(params)
            for value, when, binding in self.modifiers[name]:
                scope = Scope(list(params) + ["value"])
                scope.bound["this"] = binding.card
                texts = {}
                for key, snip in (("value", value), ("when", when), ("while", binding.while_)):
                    if snip is not None:  # compiled in this order, as `with_modifiers` does
                        texts[key] = self._piece(g, snip.src, scope)
                size = max(size, scope.size)
                lines.append(f"L[{slot}] = v")
                indent = ""
                for key in ("while", "when"):
                    if key in texts:
                        mark, cond = texts[key]
                        lines += [indent + mark, f"{indent}if {cond}:"]
                        indent += "    "
                mark, v = texts["value"]
                lines += [indent + mark, f"{indent}v = {v}"]
            then.size = size
            return lines, size
        return then

    @staticmethod
    def _piece(g, src, scope):
        """(mark line, Python text) of the expression `src` read in `scope`, in the module `g` is
        writing; the loops it writes (helpers) are marked as its own too."""
        view = scope.reading(src)
        tree = parse(src, "expr")
        start = len(g.helpers)
        text = stamped(src, "expr", lambda: g.x(tree, view))
        mark = g.mark(tree, view)
        g.helpers[start:] = [h.replace("\n", f"\n    {mark}\n", 1) for h in g.helpers[start:]]
        return mark, text

    def with_modifiers(self, name, base, params, size):
        """The function `name` with its modifiers applied in card order: each active one turns the
        value so far (`value`) into its own; returns (f, frame size). Closures, for an observer
        (coverage) that counts each modifier; otherwise `modifier_lines` writes them."""
        c = self.d.compiler
        mods = []
        for value, when, binding in self.modifiers[name]:
            scope = Scope(list(params) + ["value"])
            scope.bound["this"] = binding.card
            f = c.expr(value.src, scope)
            if self.d.observer is not None:  # coverage (coverage.py): counted when it applies
                f = self.d.observer.instrument_modifier(value.src, f)
            cond = c.expr(when.src, scope) if when is not None else None
            cond = self.condition(binding, scope, cond)
            mods.append((cond, f))
            size = max(size, scope.size)
        slot = len(params)
        mods = tuple(mods)

        def modified(ctx):
            v = base(ctx)
            loc = ctx.locals
            for cond, f in mods:
                loc[slot] = v
                if cond is None or cond(ctx):
                    v = f(ctx)
            return v
        return modified, size


def _literal(value) -> str:
    """The rules text of a variable's default (false, 0, a text, an empty list...)."""
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return str(value)
    if isinstance(value, str):
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if isinstance(value, list):
        return "[" + ", ".join(_literal(v) for v in value) + "]"
    raise ValueError(f"no rules text for {value!r}")
