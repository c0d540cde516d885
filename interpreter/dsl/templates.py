"""Texts with {expressions} (labels, prompts, logs, the render section): compiled once, written
for a viewer when they are shown. A part of Compiler (compiler.py), which inherits it.
"""
from __future__ import annotations

import re

from lark import Token

from ..model import label_for, label_of
from ..yamlio import SourceText



def _loc_tuple(loc):
    return loc.file, loc.line, loc.column


class Templates:
    # ---- text with {expressions} -------------------------------------------------------

    def template(self, tok, scope):
        """A quoted string of rules text with {expressions}; errors point inside the string."""
        text = self.string(tok) if isinstance(tok, Token) else tok
        src = self.src
        if isinstance(tok, Token) and src is not None:
            line, column = tok.line, tok.column
            if self.kind == "expr" and "\n" in src.text:
                here = self.loc(tok)
                return self.template_text(text, scope, at=lambda k: (here.file, here.line, here.column + 1 + k, src))
            return self.template_text(text, scope, at=lambda k: (*_loc_tuple(src.locate(line, column + 1 + k)), src))
        return self.template_text(text, scope)

    def template_text(self, text: str, scope, src: SourceText | None = None, at=None):
        """Compile a text with {expressions}. `src` is the YAML value holding it, or `at(offset)`
        gives (file, line, column, source) of an offset in the text: errors then point inside it."""
        if at is None and src is not None:
            def at(k, src=src):
                before = src.text[:k]
                line = before.count("\n") + 1
                column = k - (before.rfind("\n") + 1) + 1
                return (*_loc_tuple(src.locate(line, column)), src)
        parts = []
        offset = 0
        for i, piece in enumerate(re.split(r"\{([^{}]*)\}", text)):
            if i % 2 == 0:
                if piece:
                    parts.append(piece)
                offset += len(piece) + 1
            else:
                saved = self.src, self.kind
                if at is not None:
                    file, line, column, whole = at(offset)
                    piece_src = SourceText(piece, file, line, column, False, 0, whole.lines)
                else:
                    piece_src = SourceText.plain(piece, self.src.file if self.src else "<text>")
                try:
                    f = self.expr(piece_src, scope)
                finally:
                    self.src, self.kind = saved
                parts.append(f)
                offset += len(piece) + 1
        parts = tuple(parts)

        def render(ctx):
            viewer = ctx.viewer
            if viewer is None:
                return "".join(p if isinstance(p, str) else label_of(p(ctx)) for p in parts)
            return "".join(p if isinstance(p, str) else label_for(p(ctx), viewer) for p in parts)
        return render
