"""Texts with {expressions} (labels, prompts, logs, the render section): compiled once, written
for a viewer when they are shown. A part of Compiler (compiler.py), held as
`templates`.

A text is written for a viewer from the values its pieces evaluate to, never by rewriting the
finished text: a card the viewer cannot identify reads `a card` (model.label_for), and a piece
that *reads* something of such a card beyond its place (its key, name, owner, a property, a
variable, a tag, a comparison with it, a function of it) reads as that card would, or `?`. So
`{c.name}` of a card hidden from the viewer never shows its name. The sub-expressions a piece
reads a card through are found once, at compile time (`reads_of`), and evaluated only when a
text is written for a viewer.
"""
from __future__ import annotations

import re

from lark import Token

from ..core.model import Card, label_for, label_of
from ..runtime.visibility import place_of, seats_identifying
from ..ruleset.yamlio import SourceText
from . import ast as A
from .analysis import loop_of, reveals
from .parser import parse

HIDDEN = "?"  # a piece that reads something the viewer may not know


def _loc_tuple(loc):
    return loc.file, loc.line, loc.column


def _names(node) -> set:
    return {str(n.name) for n in node.walk() if type(n) is A.Name}


def reads_of(tree) -> list:
    """The sub-expressions of a template piece through which it reads a card's identity: the
    object of an attribute other than its place, the operands of a comparison, a membership or a
    tag test, the arguments of a function (but analysis.PASSING_CALLS): analysis.py declares them. When one of those reads a variable
    bound inside the piece (`c` of `sum(c.value for c in deck.cards)`, `it` of a `where`), the
    collection it ranges over is read instead, and so is every value the read takes over the
    loops it depends on (`[z.card for z in cells]` for `sum(z.card.worth for z in cells)`, nested
    lists when a loop's collection depends on an outer loop's variable). A loop's condition is not
    applied: every value of its collection counts."""
    out: list = []
    seen: set = set()

    def add(node):
        if id(node) not in seen:
            seen.add(id(node))
            out.append(node)

    def visit(node, ranges):
        # ranges: (variable, its collection, whether that collection is closed), innermost last
        reads = reveals(node)  # an error for a kind of node analysis.py does not declare
        bound = {var for var, _, _ in ranges}
        for r in reads:
            if type(r) is A.Name and str(r.name) == "me" and "me" not in bound:
                continue  # the seat the text is about: never a card
            free = _names(r) & bound
            if not free:
                add(r)
                continue
            for var, coll, closed in ranges:
                if var in free and closed:
                    add(coll)
            if type(r) is A.Name and len(ranges) == 1:
                continue  # the variable itself: its collection, added above
            # every value the read takes over the loops it depends on, innermost first:
            # `[z.card for z in cells]` for `sum(z.card.worth for z in cells)`, and
            # `[[c for c in z.cards] for z in cells]` when a collection depends on an outer variable
            each, used = r, set(free)
            for var, coll, _ in reversed(ranges):
                if var in used:
                    each = A.ListFor(each, Token("NAME", var), coll, None, r.at)
                    used |= _names(coll)
            add(each)
        loop = loop_of(node)
        if loop is not None:
            visit(loop.coll, ranges)
            closed = not (_names(loop.coll) & bound)
            inner = ranges + [(loop.var, loop.coll, closed)]
            for child in loop.parts:
                if child is not None:
                    visit(child, inner)
            return
        for child in node.children():
            visit(child, ranges)

    visit(tree, [])
    return out


def _hidden_card(v, viewer):
    """The first card in value `v` (a card, or a list holding cards) that `viewer` cannot identify."""
    t = type(v)
    if t is Card:
        return None if v.id in viewer else v
    if t is list or t is tuple:
        for x in v:
            c = _hidden_card(x, viewer)
            if c is not None:
                return c
    return None


class Piece:
    """One {expression} of a text: `value(ctx)`, the reads of its identity-revealing parts
    (reads_of) and, when the piece is `X.key` or `X.name`, which of the reads is X (a card's
    key or name reads as the card itself)."""

    __slots__ = ("value", "reads", "direct", "as_card")

    def __init__(self, value, reads=(), direct=None, as_card=False):
        self.value = value
        self.reads = reads
        self.direct = direct
        self.as_card = as_card

    def read(self, ctx) -> tuple:
        """(the piece's value, the values of its reads): what writing it for any viewer needs."""
        out = []
        for r in self.reads:
            try:
                out.append(r(ctx))
            except Exception:  # the piece itself says what went wrong
                out.append(None)
        return self.value(ctx), tuple(out)

    def hides(self, reads: tuple, viewer) -> str | None:
        """What the piece reads as for `viewer` when it reads a card `viewer` cannot identify
        (that card as `viewer` writes it, for `X.key` and `X.name`; else `?`); None otherwise."""
        for i, v in enumerate(reads):
            hidden = _hidden_card(v, viewer)
            if hidden is not None:
                return label_for(hidden, viewer) if i == self.direct and hidden is v else HIDDEN
        return None

    def text(self, value, reads: tuple, viewer) -> str:
        """The piece written for `viewer` (the ids of the cards it identifies, or a Reader)."""
        if reads:
            hidden = self.hides(reads, viewer)
            if hidden is not None:
                return hidden
        if self.as_card and self.direct is not None and type(reads[self.direct]) is Card:
            return label_for(reads[self.direct], viewer)
        return label_for(value, viewer)


def _cards_in(v, out: list) -> None:
    t = type(v)
    if t is Card:
        out.append(v)
    elif t is list or t is tuple:
        for x in v:
            if type(x) is Card:
                out.append(x)
            elif type(x) is list or type(x) is tuple:
                _cards_in(x, out)


class Said:
    """A message from the rules (`log`): the values it was written from and where each card it
    names lay when it was said, so that it is written for each reader (`for_viewer`): a card
    counts as identified by a reader who identifies it now or did when it was said. Its text for
    everyone (`str`) is written when first read: random play and searches say many messages
    that nobody reads (issue 29). Equal to its text, and to a text equal to it."""

    __slots__ = ("parts", "m", "where", "_text")

    def __init__(self, parts: tuple, m, where: dict):
        self.parts = parts  # texts, and (piece, value, reads) of each {expression}
        self.m = m
        self.where = where
        self._text = None

    def __str__(self) -> str:
        text = self._text
        if text is None:
            text = self._text = "".join(p if type(p) is str else label_of(p[1]) for p in self.parts)
        return text

    def __eq__(self, other):
        if type(other) is Said:
            return str(self) == str(other)
        if isinstance(other, str):
            return str(self) == other
        return NotImplemented

    def __hash__(self) -> int:
        return hash(str(self))

    def __repr__(self) -> str:
        return repr(str(self))

    def __len__(self) -> int:
        return len(str(self))

    def __contains__(self, part) -> bool:
        return part in str(self)

    def for_viewer(self, viewer, seat=None) -> str:
        """The message written for `viewer` (a Reader or a set of card ids; None: everything),
        whose seat is `seat` (None: a spectator)."""
        if viewer is None:
            return str(self)
        then = {cid for cid, seats in self.seen.items() if seat in seats}
        if then:
            viewer = viewer.also(then) if hasattr(viewer, "also") else set(viewer) | then
        return "".join(p if type(p) is str else p[0].text(p[1], p[2], viewer) for p in self.parts)

    def __copy__(self):
        return self  # never changed once said

    def __deepcopy__(self, memo):
        return self

    @property
    def seen(self) -> dict:
        """card id -> the seats (None: a spectator) that identified it when the message was said."""
        return {c: seats_identifying(self.m, *where) for c, where in self.where.items()}


def said_of(ctx, parts: tuple) -> Said:
    """The Said of `parts`: texts, and (piece, value, reads) of each {expression}, evaluated in `ctx`."""
    cards = []
    for p in parts:
        if type(p) is str:
            continue
        value = p[1]
        t = type(value)
        if t is Card:
            cards.append(value)
        elif t is list or t is tuple:
            _cards_in(value, cards)
        for r in p[2]:
            _cards_in(r, cards)
    return Said(parts, ctx.m, _where_said(ctx, cards) if cards else {})


def _where_said(ctx, cards) -> dict:
    """card id -> (zone id, position, concealed, sides) of each of `cards` in ctx.st: enough to
    tell later who identified it then (runtime/visibility.py)."""
    return {c.id: place_of(ctx.m, ctx.st, c) for c in cards}


class Templates:
    """A part of the Compiler `c` (compiler.py)."""

    def __init__(self, c):
        self.c, self.symbols = c, c.symbols

    # ---- text with {expressions} -------------------------------------------------------

    def template(self, tok, scope):
        """A quoted string of rules text with {expressions}; errors point inside the string."""
        text = self.c.string(tok) if isinstance(tok, Token) else tok
        src = scope.src
        if isinstance(tok, Token) and src is not None:
            line, column = tok.line, tok.column
            if scope.kind == "expr" and "\n" in src.text:
                here = self.c.loc(tok, scope)
                return self.template_text(text, scope, at=lambda k: (here.file, here.line, here.column + 1 + k, src))
            return self.template_text(text, scope, at=lambda k: (*_loc_tuple(src.locate(line, column + 1 + k)), src))
        return self.template_text(text, scope)

    def piece(self, src: SourceText, scope) -> Piece:
        """Compile one {expression} of a text (see Piece)."""
        return self._piece(src, scope)[0]

    def _piece(self, src: SourceText, scope) -> tuple:
        """(Piece, its tree, the trees of its reads): a {expression} compiled, and what a `log`
        writes in place (statements.py)."""
        tree = parse(src, "expr")
        scope = scope.reading(src)
        value = self.c.e(tree, scope)
        nodes = reads_of(tree)
        reads = tuple(self.c.e(n, scope) for n in nodes)
        direct = as_card = None
        if type(tree) is A.Attr and str(tree.name) in ("key", "name"):
            direct = next((i for i, n in enumerate(nodes) if n is tree.obj), None)
            as_card = str(tree.name) == "key"
        return Piece(value, reads, direct, bool(as_card)), tree, nodes

    def template_text(self, text: str, scope, src: SourceText | None = None, at=None):
        """Compile a text with {expressions}. `src` is the YAML value holding it, or `at(offset)`
        gives (file, line, column, source) of an offset in the text: errors then point inside it.
        Returns render(ctx), written for `ctx.viewer` (None: every card by its key); its
        `said(ctx)` gives the text as a Said (a `log` message)."""
        if at is None and src is not None:
            def at(k, src=src):
                before = src.text[:k]
                line = before.count("\n") + 1
                column = k - (before.rfind("\n") + 1) + 1
                return (*_loc_tuple(src.locate(line, column)), src)
        parts, trees = [], []
        offset = 0
        for i, piece in enumerate(re.split(r"\{([^{}]*)\}", text)):
            if i % 2 == 0:
                if piece:
                    parts.append(piece)
                offset += len(piece) + 1
            else:
                if at is not None:
                    file, line, column, whole = at(offset)
                    piece_src = SourceText(piece, file, line, column, False, 0, whole.lines)
                else:
                    piece_src = SourceText.plain(piece, scope.src.file if scope.src else "<text>")
                piece_, tree, nodes = self._piece(piece_src, scope)
                parts.append(piece_)
                trees.append((piece_, piece_src, tree, nodes))
                offset += len(piece) + 1
        parts = tuple(parts)

        def render(ctx):
            viewer = ctx.viewer
            if viewer is None:
                return "".join(p if type(p) is str else label_of(p.value(ctx)) for p in parts)
            out = []
            for p in parts:
                if type(p) is str:
                    out.append(p)
                else:
                    value, reads = p.read(ctx)
                    out.append(p.text(value, reads, viewer))
            return "".join(out)

        def said(ctx) -> Said:
            """The message with the values it is written from; its text is written when read."""
            return said_of(ctx, tuple(p if type(p) is str else (p, *(p.read(ctx) if p.reads else (p.value(ctx), ())))
                                      for p in parts))
        render.said = said
        # what a `log` writes in place of `said` (statements.py): texts, and (Piece, its source,
        # its tree, the trees of its reads) of each {expression}
        pieces = iter(trees)
        render.written = tuple(p if type(p) is str else next(pieces) for p in parts)
        return render
