"""What a variable may hold, checked when the rules are compiled.

A variable's type is declared (`type: player`) or is the kind of its default (a number, yes/no, a
text, a list). An assignment of a literal of another kind (`first_player = 7`, `lst += 1`) cannot
work, whatever the state: it is a validate error at the literal, instead of a crash while playing.
"""
from __future__ import annotations

from . import ast as A

LITERAL_KINDS = {A.Num: "int", A.Neg: "int", A.Str: "str", A.ListOf: "list", A.ListFor: "list"}
HOLDS = {"int": ("int",), "bool": ("bool",), "str": ("str",), "list": ("list",), "cards": ("list",),
         "zones": ("list",), "cells": ("list",), "players": ("list",), "player": (), "card": (), "zone": (),
         "cell": ()}
KIND_WORDS = {"int": "a number", "bool": "yes/no (true or false)", "str": "a text", "list": "a list"}


def declared_type(spec) -> str:
    """A variable's type: declared, else the kind of its default (a number, yes/no, a text, a list)."""
    typ, default = spec["type"], spec["default"]
    if typ != "any" or default is None:
        return typ
    for kind, word in ((bool, "bool"), (int, "int"), (str, "str"), (list, "list")):
        if isinstance(default, kind):
            return word
    return typ


def target_types(m, target, scope) -> tuple[str, list]:
    """The variable an assignment changes, and the types it was declared (or inferred) with."""
    if type(target) is A.Name:
        name = str(target.name)
        if name in scope.slots or name not in m.gvars:
            return name, []
        return name, [declared_type(m.gvars[name])]
    if type(target) is A.Attr:
        name = str(target.name)
        return name, [declared_type(m.vars_of(k)[name]) for k in ("cv", "pv", "zv") if name in m.vars_of(k)]
    return "", []


def check_assigned(compiler, target, op, value, scope) -> None:
    """`var = LITERAL` (or `+=`, `-=`, `*=`) of a kind the variable cannot hold: a CompileError."""
    from .scope import CompileError
    if type(value) is A.Const:
        kind = "bool" if value.value in (True, False) else None
    else:
        kind = LITERAL_KINDS.get(type(value))
    if kind is None:
        return
    name, types = target_types(compiler.symbols, target, scope)
    types = [t for t in types if t in HOLDS]  # `any` and unknown types hold anything
    if not types:
        return
    if op == "=":
        ok = any(kind in HOLDS[t] for t in types)
    elif op in ("+=", "-="):
        ok = any((t == "int" and kind == "int") or (op == "+=" and HOLDS[t] == ("list",) and kind == "list")
                 for t in types)
    else:  # *=: numbers, or a list repeated
        ok = kind == "int" and any(HOLDS[t] in (("int",), ("list",)) for t in types)
    if not ok:
        held = " or ".join(sorted({KIND_WORDS.get(t, f"a {t}") for t in types}))
        raise CompileError(f"`{name}` holds {held}: `{op}` {KIND_WORDS[kind]} does not fit", value,
                           hint="its type comes from `vars:` (its `type:`, or the kind of its default)")
