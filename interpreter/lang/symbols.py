"""What the compiler reads of the game's definition, and nothing else: the `SymbolTable` it is
given (`Compiler(symbols)`, held as `compiler.symbols`). The definition (definition/build.py)
provides it; tests/test_lang_parts.py checks that the compiler reads no other name of it and that
the definition has every one.

What the compiler produces (whether a rule uses chance, the continuations, the prompts of choices,
the generated sources) is not written here: it goes into the compiler's own `CompileOutput`
(output.py).
"""
from __future__ import annotations

from typing import Any, Callable, NamedTuple, Protocol


class FunctionDef(NamedTuple):
    """A content function, typed before it reaches the compiler: its parameters and its body
    parsed once (`tree`, None when it has no text or `failure`, the ParseFailure of its text)."""
    name: str
    params: tuple
    snip: Any  # its text (yamlio.Snippet), or None
    tree: Any  # its body (ast.Expr), or None
    failure: Any  # lang.parser.ParseFailure, or None


class SymbolTable(Protocol):
    # ---- the objects of the match, fixed at load time ---------------------------------------
    cards: list  # by id
    zones: list  # by id
    seats: list  # by id
    cell_at: dict  # (row, column) -> the board's cell
    player_zones: dict  # a family of per-player zones (`hand`) -> its zone by seat id
    all_tags: frozenset
    card_props: set  # names of the cards' properties
    zone_attrs: set  # names of the zones' attributes
    limits: Any  # limits.Limits: the caps of a collection, of a budget...
    rs: Any  # the ruleset (its zones' `refill_from`: a draw may shuffle)

    # ---- variables ---------------------------------------------------------------------------
    gvars: dict  # name -> its spec (`type`, `default`)
    pvars: dict
    cvars: dict
    zvars: dict

    def vars_of(self, kind: str) -> dict: ...  # "gv", "pv", "cv", "zv" -> those variables

    def var_codec(self, kind: str, name: str) -> tuple: ...  # (encode, decode) or (None, None)

    # ---- names: constants, built-ins, attributes ----------------------------------------------
    def constant(self, name: str) -> Any: ...  # its value, or scope._MISS

    def constant_names(self) -> list: ...

    def builtin_value(self, name: str) -> Callable | None: ...  # f(ctx) of `cells`, `players`...

    def builtin_value_names(self) -> list: ...

    def builtin_function(self, name: str) -> tuple | None: ...  # (fn, arities or None)

    def builtin_function_names(self) -> list: ...

    def zone_family(self, name: str): ...  # `hand(player)`: the family's zones, or None

    def zone_family_names(self) -> list: ...

    def attr_handlers(self, name: str) -> tuple: ...  # (card access, zone, seat, generic getter)

    def attribute_names(self) -> list: ...

    # ---- content functions -------------------------------------------------------------------
    function_defs: dict  # name -> its FunctionDef
    _IMPURE: set  # built-ins that draw at random

    def _is_pure(self, name: str) -> bool: ...

    def inline_body(self, name: str, seen=None, loops: bool = False): ...  # (tree, params, source) or None

    def direct_caller(self, name: str, nargs: int, node): ...  # [call] once compiled, or None

    def function_caller(self, name: str, nargs: int, node, loc): ...

    # ---- procedures and events ---------------------------------------------------------------
    procedure_params: dict  # name -> its parameters
    event_params: dict
    ret: Callable  # the end of a body: back to the caller's continuation

    def procedure_suspends(self, name: str) -> bool: ...

    def event_suspends(self, name: str) -> bool: ...

    def procedure_direct(self, name: str): ...

    def procedure_direct_plain(self, name: str): ...

    def event_direct(self, name: str): ...

    def super_direct(self, name: str, i: int): ...

    def procedure_entry_cps(self, name: str) -> tuple: ...

    def procedure_entry_cps_plain(self, name: str) -> tuple: ...

    def event_entry_cps(self, name: str) -> tuple: ...

    def super_entry_cps(self, name: str, i: int) -> tuple: ...


def members() -> frozenset:
    """The names a SymbolTable has."""
    names = set(SymbolTable.__annotations__)
    names |= {k for k, v in vars(SymbolTable).items() if callable(v) and not k.startswith("__")}
    return frozenset(names)
