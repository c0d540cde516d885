"""Expressions of the rules language compiled to Python source, then to bytecode, once.

`Compiler.e` asks `ExprCodegen.function(node, scope)` for ``f(ctx) -> value``. The generator
writes one small Python module per expression, in the way Jinja2 compiles templates:

    def _expr(ctx):
        L = ctx.locals
        return (_t1.props.get(_k1) if type(_t1 := L[0]) is _Card else _k2(ctx, _t1))

What may appear in the generated text, and nothing else:
- identifiers the generator made (`_expr`, `_t1`, `_k2`, `_g3`), `ctx`, `L`, and Python keywords;
- integer literals it checked (`int(...)` of a NUMBER token);
- operators from its own tables.
Every value from the content (names, strings, cards, zones, the handlers of attributes, the
positions of errors) is passed in the module's globals under a mangled name, never spliced into
the text. The module's globals hold only those values and the helpers below: no builtins module
is reachable from a generated function (`__builtins__` is an empty dict).

A loop (`where`, `for` in a list or an aggregate) becomes a helper function in the same module,
taking `(ctx, L)`. A call of a built-in stands on a line of its own: when something fails inside
it, the line (`_SITES`) gives the call's position in the content; guard.py also reads `_WHERE`, the
position of the whole expression, for an error nobody foresaw.

The code object of each generated text is cached by its text (a bounded cache, and the disk cache), so the same rule in another match (another
player count, a variant) is compiled to bytecode once per process. `source_of(f)` gives the
generated source of an expression, for `interpret validate --source`.
"""
from __future__ import annotations

import functools
import itertools
import marshal
import operator

from . import ast as A

from ..ruleset import cache as diskcache
from ..runtime import context as rt
from ..runtime.helpers import _HELPERS
from .calls import Calls
from .operators import Operators
from .statements import Statements
from ..runtime.ops import _NUMBER
from .kindfacts import whole
from .known import Known
from .loops import Loops
from .repeated import _LITERALS, Repeated
from .sources import Generated, end_of
from .shortcuts import Shortcuts
from .pieces import called, texts, written
from .scope import _MISS, CompileError
from ..errors import did_you_mean
from ..core.model import label_of

GENERATED = "<interpret rules>"  # the file name of generated code in tracebacks (guard.py reads it)

# operators of the language -> (Python operator, fast-path condition on ints a and b)

# What a text the generator wrote reads, when it reads a value without computing anything (`read`):
# a local (`slot`), an item of one by a literal index (`item`), a cell's attribute (`cell attr`), a
# global (`global`), a whole number's literal (`number`), a temporary (`temp`), a read computed before a
# loop (`lifted`, repeated.py), the deciding player (`me`).
_PLAIN_READS = frozenset(("slot", "item", "cell attr", "global", "number"))  # read twice, nothing changes
_OBJECTS = frozenset(("slot", "temp", "lifted", "global", "me"))  # whose attributes' reads may be shared (repeated.py)


def _compiled(source: str):
    """The code object of a generated module, compiled once, or read from the disk cache."""
    cache = diskcache.store("code", marshal.dumps, marshal.loads)
    key = diskcache.key_of(source)
    code = cache.get(key)
    if code is None:
        code = compile(source, GENERATED, "exec")
        cache.put(key, code)
    return code


@functools.lru_cache(maxsize=8192)
def _code_of(source: str):
    """The code object of a generated module, for the same text in another match (another player
    count, a variant) of this process: a bounded cache in front of the disk cache."""
    return _compiled(source)


def source_of(f) -> str | None:
    """The generated Python source of a compiled expression (None for a closure)."""
    return getattr(f, "_interpret_source", None)


class ExprCodegen:
    """Writes the Python source of expressions and statements for one `Compiler` (one match).

    Its parts are objects it holds, each given the generator: `known` (kinds and values known at
    load time), `sharing` (reads computed once, repeated.py), `loops`, `shortcuts` and `writer`
    (statements), `calls`, `operators`. The module being written (its globals, helpers, temporaries, shared reads) is
    the generator's state, saved and restored around a nested module (`_STATE`)."""

    def __init__(self, compiler):
        self.c = compiler
        self.symbols = compiler.symbols
        for k in self._STATE:
            setattr(self, k, None)
        self.known = Known(self)
        self.sharing = Repeated(self)
        self.loops = Loops(self)
        self.shortcuts = Shortcuts(self)
        self.writer = Statements(self)
        self.calls = Calls(self)
        self.operators = Operators(self)
        self.reads: dict = {}  # a text written that reads without computing -> what it reads (`read`)
        self.places: dict = {}  # `zone`, `cell` -> a card's, by its place (_attr_text)
        self.writers = {}  # node type -> the method writing it (each part declares those it writes: WRITES)
        for part in (self, self.loops, self.calls, self.operators):
            self.writers.update((t, getattr(part, name)) for t, name in part.WRITES.items())
        self.statements = self.writer.statements
        self.mark = self.writer.mark  # a statement's mark line (definition/powers.py marks a modifier's text)

    # ---- one expression -> one function ----------------------------------------------------

    WRITES = {  # node type -> the method writing it
        A.Num: "g_number", A.Str: "g_string", A.Const: "g_const", A.Name: "g_name", A.ListOf: "g_list_",
        A.Attr: "g_attr", A.Index: "g_index",
    }

    _STATE = ("env", "values", "helpers", "helper_names", "unrolled", "names", "sites", "where", "stmt_locs", "spliced",
              "avail", "hoist", "shares", "src", "end", "notes", "tables", "card_ids")
    _read_state = staticmethod(operator.attrgetter(*_STATE))

    def function(self, node: A.Expr, scope, caller=None, then=None):
        """Compile the expression tree `node` to f(ctx). With `caller` (the name of a content
        function, its number of parameters, whether it is pure), f also has `_interpret_call`:
        ``call(ctx, position of the call, *arguments)``, which generated code calls directly.
        `then(self, text)` -> (lines, frame size): lines giving the value `v` from the text's
        (a modified function's modifiers, definition/powers.py)."""
        self.c.types.check(node, scope)  # what cannot work whatever the state (valuetypes.py)
        saved = self.saved()
        self._reset(node, scope)
        try:
            text = self.x(node, scope)
            lines, size = then(self, text) if then is not None else ([f"v = {text}"], scope.size)
            if caller is not None:
                self._caller(lines, size, *caller)
            role = "an expression" if caller is None else f"the content function `{caller[0]}`"
            return self._build(text if then is None else lines, role if then is None else role + ", its modifiers applied")
        finally:  # the closure compiler may call back here in the middle of a text
            self.restore(saved)

    def saved(self) -> tuple:
        """The state of the module being written (a nested module is written in the middle of one)."""
        return self._read_state(self)

    def restore(self, saved: tuple) -> None:
        self.__dict__.update(zip(self._STATE, saved))

    def domain_kind(self, tree, scope):
        """The kind (see Known.kind_of) of every value of a parameter's domain, when known at load
        time: a requirement reading the parameter, once it is bound from its domain, then reads it
        without type tests (rules.py, `scope.kinds`)."""
        saved = scope.loop_kinds
        scope.loop_kinds = {}
        try:
            k = self.known.elem_kind(tree, scope)
        except CompileError:
            k = None
        finally:
            scope.loop_kinds = saved
        return k if k in ("card", "cell", "zv", "cv", "pv") or whole(k) else None

    def value_kind(self, node, scope):
        """The kind (see Known.kind_of) of an expression's value, when known at load time and one
        whose attributes are read without type tests (a `let`'s name then reads it so)."""
        try:
            k = self.known.kind_of(node, scope)
        except CompileError:
            k = None
        return k if k in ("card", "cell", "zv", "cv", "pv") or whole(k) else None

    def _reset(self, node, scope, last=None) -> None:
        """Start a new module, whose errors nobody foresaw are reported at `node` (of `scope`'s text),
        written from the text from `node` to `last` (`node` by default: --source finds it by line)."""
        self.env: dict = {}  # the module's globals: every value the text names
        self.values: dict = {}  # a value (or its id) -> its global name, so each is named once
        self.helpers: list[str] = []  # the text of each function of the module
        self.helper_names: list[str] = []  # ... and its name
        self.unrolled: dict = {}  # the call of a written-out `any`/`all` -> its loops.Unrolled
        self.sites: dict = {}  # `_cN(` -> (function name, position): the calls of built-ins
        self.stmt_locs: list = []  # the positions of statements (statements.py)
        self.spliced = False  # a written-out loop was written in place: its helper may be called by nobody
        self.names = itertools.count(1)
        self.where = self.c.loc(node, scope) if node is not None else None
        self.notes: dict = {}  # a global's name -> what it is (const's `note`), for --source
        self.src, self.end = scope.src, end_of(last if last is not None else node)  # --source finds it by line
        self.avail, self.hoist = None, None  # reads shared (repeated.py)
        self.shares = None  # the module's shared reads (repeated.py), once there is one
        self.tables: set = set()  # the texts reading a table of variables of cards, zones or players
        self.card_ids: dict = {}  # the text of a zone's `.cards` -> the text of its cards' ids (a tuple; () for none)

    def _caller(self, lines, size, name, n, pure):
        """`_call(ctx, loc, a0, a1...)`: a content function called with its argument values, in its
        own frame (a list L: ctx.locals stays the caller's), spending one step of the budget; a pure one is remembered while the state
        cannot change (ctx.memo), under the same key as linker.function_caller."""
        args = [f"a{i}" for i in range(n)]
        frame = "[" + ", ".join(args + ["None"] * (max(size, n) - n)) + "]"
        body = ["ctx.budget = b = ctx.budget - 1", "if b < 0:",
                f"    _spend_failed(ctx, loc, {self.const(f'calls of `{name}`')})"]
        if pure:
            miss = self.const(_MISS)
            key = self.const((name,)) if not args else f"({', '.join([self.const(name)] + args)},)"
            body += ["memo = ctx.memo"]
            failed = ["        memo = None"]
            if args:
                # a list argument has no hash: not remembered. Once a call has met one, the arguments'
                # types are tested first (an exception at each call costs more than the tests)
                lists = self.const([False], f"whether `{name}` was called with a list")
                body += [f"if {lists}[0] and ({' or '.join(f'_type({a}) is list' for a in args)}):", "    memo = None"]
                failed.append(f"        {lists}[0] = True")
            body += ["if memo is not None:",
                     f"    key = {key}", "    try:",
                     f"        v = memo.get(key, {miss})", f"    except {self.const(TypeError)}:", *failed,
                     "    else:", f"        if v is not {miss}:", "            return v"]
        # the frame is L, which the text and its helpers are given: nothing generated reads ctx.locals
        start = len(body)  # the state's tables the text reads are looked up after a remembered value is returned
        if any("L[" in t or "(ctx, L)" in t for t in lines):
            body.append(f"L = {frame}")
        body += lines
        if pure:
            body += ["if memo is not None:", "    memo[key] = v"]
        self.define("_call", ", ".join(["ctx", "loc"] + args), body + ["return v"], hoist_at=start)

    def _build(self, text, role: str):
        """`_expr(ctx)` returning the text's value (or, for lines, their `v`) in the frame ctx.locals."""
        lines = text if isinstance(text, list) else [text]
        body = ["L = ctx.locals"] if any("L[" in t or "(ctx, L)" in t for t in lines) else []
        self.define("_expr", "ctx", body + (text + ["return v"] if isinstance(text, list) else [f"return {text}"]))
        return self._module("_expr", role)

    def _module(self, entry: str, role: str):
        """Compile the functions written so far as one module; its function `entry`. `role`: what
        it is (an expression, statements...), for --source."""
        helpers = self.helpers
        if self.spliced:  # a written-out loop written in place in another: its own helper may be called by nobody
            keep = called(compile("\n".join(helpers) + "\n", GENERATED, "exec"), (entry, "_call"))
            helpers = [h for h, n in zip(helpers, self.helper_names) if n in keep]
        source = "\n".join(helpers) + "\n"
        sites = {}  # line of the generated text -> (function name, position) of a built-in's call
        if self.sites:
            for lineno, line in enumerate(source.split("\n"), 1):
                site = self.sites.get(line.strip())
                if site is not None:
                    sites[lineno] = site
        code = _code_of(source)
        glob = dict(_HELPERS)
        glob.update(self.env)
        glob["_SITES"] = sites
        glob["_WHERE"] = self.where  # the expression's position: where an unforeseen error is reported
        if self.stmt_locs:
            glob["_LINES"] = self.writer.lines_of(source)  # line -> the statement written there
        glob["__builtins__"] = {}
        exec(code, glob)  # defines the entry and its helpers; the text holds only generated names
        f = glob[entry]
        f._interpret_source = source
        if "_call" in glob:
            f._interpret_call = glob["_call"]
        self.c.output.generated.append(Generated(self.where, self.src, self.end, source, self.env, self.notes, role))
        return f

    def define(self, name: str, params: str, body: list[str], pure: bool = False, hoist_at: int = 0) -> None:
        """A function of the module. When the module calls built-ins, its body is wrapped so that an
        error inside one is reported at the call's position (`_SITES`: line -> call). `pure`: the
        function only reads the state (a loop of an expression): the tables of variables of cards,
        zones and players it reads are looked up once, before its loop. The state's lists the body
        reads are looked up once, before its line `hoist_at` (lines before it read none of them)."""
        lines = [f"def {name}({params}):"]
        hoisted = []  # the state's lists read in the body, looked up once per call (nothing changes them here)
        for key, local in (("z", "_sz"), ("loc", "_sl")):
            read = f"ctx.st['{key}']"
            if any(read in b for b in texts(body)):
                body = [b.replace(read, local) if type(b) is str else b for b in body]
                hoisted.append(f"{local} = {read}")
        if pure:  # the tables of variables its text reads (written by _attr_text)
            tables = sorted(t for t in self.tables if any(t in b for b in texts(body)))
            for i, read in enumerate(tables):
                local = f"_vt{i}"
                body = [b.replace(read, local) if type(b) is str else b for b in body]
                hoisted.append(f"{local} = {read}")
        body = written(body[:hoist_at] + hoisted + body[hoist_at:])
        if self.sites:
            lines.append("    try:")
            lines += ["        " + b for b in body]
            lines += ["    except _CAUGHT as e:", "        raise _at_call(e, _SITES) from None"]
        else:
            lines += ["    " + b for b in body]
        self.helpers.append("\n".join(lines))
        self.helper_names.append(name)

    # ---- names --------------------------------------------------------------------------------

    def const(self, value, note: str | None = None) -> str:
        """The global name holding `value` (content strings, handlers, positions...). `note`: what
        it is, in the legend of `--source` (sources.py describes the others from their value)."""
        key = (type(value), value) if type(value) in (str, int, bool) else id(value)
        name = self.values.get(key)
        if name is None:
            name = self.read(f"_k{next(self.names)}", "global")
            self.env[name] = value
            self.values[key] = name
        if note is not None:
            self.notes[name] = note
        return name

    def tmp(self) -> str:
        return self.read(f"_t{next(self.names)}", "temp")

    def read(self, text: str, what: str) -> str:
        """`text`, recorded as a read of `what` (see _PLAIN_READS): the writer that makes a text
        says what it is, no pass guesses it from the text."""
        self.reads[text] = what
        return text

    def number(self, v: int, text: str) -> str:
        """`text`, the literal of the whole number `v`."""
        return self.read(text, "number") if v >= 0 else text

    def plain(self, text: str) -> bool:
        """Whether `text` reads a value without computing anything: reading it twice changes nothing."""
        return self.reads.get(text) in _PLAIN_READS

    def is_object(self, text: str) -> bool:
        """Whether `text` is a local, a temporary, a global or `me`: reads of its attributes may be shared."""
        return self.reads.get(text) in _OBJECTS

    def closure(self, f) -> str:
        return f"{self.const(f)}(ctx)"

    # ---- dispatch -------------------------------------------------------------------------

    def x(self, node, scope) -> str:
        """The text of an expression, a region of its own."""
        if type(node) in _LITERALS:
            return self.write(node, scope)
        return self.region(lambda: self.write(node, scope))

    def region(self, write) -> str:
        """The text `write()` gives, a region of its own: what it shares is computed in it."""
        saved, shares = self.avail, self.shares
        self.avail = {}
        first = len(shares.order) if shares is not None else 0
        try:
            text = write()
        finally:
            self.avail = saved
        shares = self.shares
        if shares is not None and len(shares.order) > first:
            return self.sharing.unshared(text, shares.order[first:])
        return text

    def xc(self, node, scope) -> str:
        """The text of a part evaluated whenever its whole is, after what was written before it:
        in its whole's region."""
        return self.write(node, scope)

    def write(self, node, scope) -> str:
        method = self.writers.get(type(node))
        if method is None:
            raise CompileError(f"internal: not an expression: {type(node).__name__}", node)
        return method(node, scope)

    def g_number(self, node, scope):
        return self.number(int(node.value), str(int(node.value)))



    def g_string(self, node, scope):
        return self.const(self.c.string(node.token))

    def g_const(self, node, scope):
        return {True: "True", False: "False", None: "None"}[node.value]

    def g_list_(self, node, scope):
        return "[" + ", ".join(self.x(a, scope) for a in node.items) + "]"

    def g_name(self, node, scope):
        name = str(node.name)
        m = self.symbols
        if name in scope.inlined:
            return self.sharing.arg_text(scope.inlined[name])
        if name in scope.slots:
            return self.read(f"L[{int(scope.slots[name])}]", "slot")
        if name in scope.bound:
            return self.const(scope.bound[name])
        if name == "me":
            return self.read("ctx.me", "me")
        if name in m.gvars:
            return self.decoded("gv", name, f"ctx.st['gv'][{self.const(name)}]")
        value = m.constant(name)
        if value is not _MISS:
            return self.const(value)
        builtin = m.builtin_value(name)
        if builtin is not None:
            if name in ("cells", "players", "cards", "rows", "columns"):  # fixed at load time
                return self.const(builtin(None))
            return self.closure(builtin)
        known = list(scope.slots) + list(scope.bound) + ["me"] + list(m.gvars) + m.constant_names() + m.builtin_value_names()
        raise CompileError(f"unknown name `{name}`", node, hint=did_you_mean(name, known))

    def decoded(self, kind: str, name: str, read: str) -> str:
        """The value of variable `name` (of kind gv, pv, cv, zv) from the text `read` of what the
        state stores: as its codec decodes it (runtime/context.py), a card, zone, cell or player
        found in place by its id (none stays none)."""
        m = self.symbols
        dec = m.var_codec(kind, name)[1]
        if dec is None:
            return read
        table = {"card": m.cards, "zone": m.zones, "cell": m.zones, "player": m.seats}.get(m.vars_of(kind)[name].get("type"))
        if table is None:
            return f"{self.const(dec)}({read})"
        t = self.tmp()
        return f"(None if ({t} := {read}) is None else {self.const(table, 'the values of a variable, by id')}[{t}])"

    def _attr_text(self, kind: str, name: str, o: str):
        """Python text reading attribute `name` of `o`, a card, zone or seat (kind cv, zv, pv),
        or None when that kind has no such attribute. Mirrors the definition's attr_handlers."""
        from ..runtime import library as bi
        m = self.symbols
        tables = {"cv": (bi._CARD_ATTRS, bi.CARD_ATTR_TEXT), "zv": (bi._ZONE_ATTRS, bi.ZONE_ATTR_TEXT),
                  "pv": (bi._SEAT_ATTRS, bi.SEAT_ATTR_TEXT)}
        handlers, texts = tables[kind]
        if name in handlers:
            if kind == "cv" and name in ("zone", "cell"):  # the card's zone (cell, or none) by its place (-1: the last, none)
                table = self.places.get(name) or self.places.setdefault(name, tuple(
                    z if name == "zone" or z.is_cell else None for z in self.symbols.zones) + (None,))
                return f"{self.const(table)}[ctx.st['loc'][{o}.id]]"
            if name in texts:
                return texts[name].format(o=o, t=self.tmp())
            return f"{self.const(handlers[name])}(ctx, {o})"
        if name in m.vars_of(kind):
            table = f"ctx.st[{self.const(kind)}][{self.const(name)}]"
            self.tables.add(table)
            return self.decoded(kind, name, f"{table}[{o}.id]")
        if kind == "cv" and name in m.card_props:
            return f"{o}.props.get({self.const(name)})"
        if kind == "zv" and name in m.zone_attrs:
            return f"{o}.attrs.get({self.const(name)})"
        if kind == "pv" and name in m.player_zones:
            return f"{self.const(m.player_zones[name])}[{o}.id]"
        return None

    def g_attr(self, node, scope):
        c, m = self.c, self.symbols
        obj = node.obj
        is_me = (type(obj) is A.Name and str(obj.name) == "me"
                 and "me" not in scope.slots and "me" not in scope.inlined)
        name = str(node.name)
        kind = self.known.kind_of(obj, scope)
        o = self.xc(obj, scope)
        get = m.attr_handlers(name)[3]
        if get is None:
            raise CompileError(f"nothing has an attribute `{name}`", node.name,
                               hint=did_you_mean(name, m.attribute_names()))
        self.env["_CARDS"], self.env["_ZONES"], self.env["_CARD_AT"] = m.cards, m.zones, m.cards.__getitem__
        if kind == "cell" and self.plain(o):  # a cell, never none, read from a local: nothing to test
            if name in ("row", "column") and name not in m.vars_of("zv"):  # every cell of the grid has both (kindfacts.py)
                text = f"{o}.attrs[{self.const(name)}]"
                return self.read(text, "cell attr") if self.reads.get(o) == "slot" else text
            text = self._attr_text("zv", name, o)
            if text is not None:
                if name == "cards":  # a new list at each read: a loop may go through its ids instead
                    self.card_ids[text] = f"ctx.st['z'][{o}.id]"
                return self.sharing.shared(o, name, text, fresh=name == "cards")
        if kind == "card" and self.plain(o):  # a card, never none, read from a local: nothing to test
            text = self._attr_text("cv", name, o)
            if text is not None:
                return self.sharing.shared(o, name, text)
        if kind in ("zv", "cv", "pv", "cell", "card"):
            t = self.tmp()
            text = self._attr_text({"cell": "zv", "card": "cv"}.get(kind, kind), name, t)
            if text is not None:  # the object's kind is known: no type test
                text = f"({text} if ({t} := {o}) is not None else None)"
                if kind in ("zv", "cell") and name == "cards":  # as above; none has no cards
                    self.card_ids[text] = f"(ctx.st['z'][{t}.id] if ({t} := {o}) is not None else ())"
                return self.sharing.shared(o, name, text, fresh=kind in ("zv", "cell") and name == "cards")
        loc = c.loc(node.name, scope)

        def slow(ctx, o, get=get, name=name, loc=loc):
            try:
                return get(ctx, o)
            except KeyError:
                raise rt.RuleRuntimeError(f"{label_of(o)} has no `{name}`", loc) from None
        ks = self.const(slow, f"`.{name}` of a value of any kind (the slow path)")
        t = self.tmp()
        self.env["_CARDS"] = m.cards
        seat = self._attr_text("pv", name, t)
        if is_me and seat is not None:
            return f"({seat} if ({t} := ctx.me) is not None else {ks}(ctx, {t}))"
        branches = [(typ, text) for typ, text in (("_Card", self._attr_text("cv", name, t)),
                                                  ("_Zone", self._attr_text("zv", name, t)),
                                                  ("_Seat", seat)) if text is not None]
        fresh = name == "cards" or name in self.sharing.decoded()  # a value made anew at each read: not shared
        if not branches:  # a key of a mapping constant
            return self.sharing.shared(o, name, f"(None if ({t} := {o}) is None else {ks}(ctx, {t}))", getters=not fresh)
        if len(branches) == 1:
            (typ, text), = branches
            return self.sharing.shared(o, name, f"({text} if _type({t} := {o}) is {typ} else None if {t} is None else {ks}(ctx, {t}))",
                                       getters=not fresh, fresh=name == "cards")
        ty = self.tmp()
        out = f"(None if {t} is None else {ks}(ctx, {t}))"  # an attribute of none is none
        for i, (typ, text) in enumerate(reversed(branches)):
            last = i == len(branches) - 1
            test = f"({ty} := _type({t} := {o}))" if last else ty
            out = f"({text} if {test} is {typ} else {out})"
        return self.sharing.shared(o, name, out, getters=not fresh, fresh=name == "cards")

    def g_index(self, node, scope):
        v = self.known.static_value(node, scope)
        if v is not _MISS:  # an item of a constant list by an index known at load time
            return self.g_value(v)
        sk, table = self.known.static_int(node.key, scope), self.known.static_value(node.obj, scope)
        o, k = self.x(node.obj, scope), self.x(node.key, scope)
        loc = self.const(self.c.loc(node, scope))
        to, tk = self.tmp(), self.tmp()
        if type(table) is dict:  # a table of the rules by a text or a number it has: found at once
            d, miss, text = self.const(table), self.const(_MISS, "no such key"), self.const(str, "the type of texts")
            return f"({to} if ((_type({tk} := {k}) is {text}) or (_type({tk}) is int)) and ({to} := {d}.get({tk}, {miss})) is not {miss} else _index_slow({d}, {tk}, {loc}))"
        if self.known.in_ints(self.known.kind_of(node.obj, scope), sk):  # item sk of a list of numbers that has it
            return self.read(f"{o}[{sk}]", "item") if self.reads.get(o) == "slot" else f"{o}[{sk}]"
        if sk is not None:
            size = f"{to}" if sk in (0, -1) else f"{-sk - 1 if sk < 0 else sk} < _len({to})"  # [0]: not empty
            return f"({to}[{sk}] if _type({to} := {o}) is list and {size} else _index_slow({to}, {sk}, {loc}))"
        return (f"({to}[{tk}] if ((_type({to} := {o}) is list) & (_type({tk} := {k}) is int)) "
                f"and -_len({to}) <= {tk} < _len({to}) else _index_slow({to}, {tk}, {loc}))")

    def g_value(self, v) -> str:
        """The text of a value known at load time: a checked whole number's literal, else its global."""
        if type(v) is int and -_NUMBER <= v <= _NUMBER:
            return self.number(v, str(v) if v >= 0 else f"({v})")
        return {True: "True", False: "False", None: "None"}[v] if v is None or type(v) is bool else self.const(v)
