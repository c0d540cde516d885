"""Whatever Python raises while the rules run becomes a rule error at the rule's position.

Content that validates should never meet a Python exception at run time (the compiler and its
checks are there for that), and every known case raises a RuleRuntimeError with its position.
Should one still escape — a RecursionError of rules that call themselves without end, a
TypeError of values that do not go together — the public methods of the forward model turn it
into an UnexpectedRuleError: the position of the innermost rule that was running, the Python
message (it names the values' types), and exit 1 on the command line instead of a traceback.
"""
from __future__ import annotations

import functools
from pathlib import Path

from ..lang.codegen import GENERATED
from ..errors import InterpretError, Location, RuleRuntimeError

# the files whose closures are compiled rules: their `loc`-like locals are positions in content
_PACKAGE = Path(__file__).parent.parent
_RULE_FILES = {str(_PACKAGE / part) for part in (
    "lang/resumable.py", "lang/templates.py", "definition/dispatch.py", "definition/linker.py",
    "definition/powers.py", "definition/rules.py")}
PYTHON_ERRORS = (TypeError, AttributeError, KeyError, IndexError, ValueError, ZeroDivisionError, OverflowError,
                  MemoryError, RecursionError)


class UnexpectedRuleError(RuleRuntimeError):
    """A Python exception met by running rules: a gap of the static checks, reported at the rule."""

    def __init__(self, message: str, location: Location | None, cause: BaseException):
        self.cause = cause
        super().__init__(message, location)


def rule_location(tb) -> Location | None:
    """The position of the innermost compiled rule in a traceback: a closure's `loc`, or for
    generated code (lang/codegen.py) the call on that line, else the statement written there, else
    the expression's position."""
    found = None
    while tb is not None:
        frame = tb.tb_frame
        if frame.f_code.co_filename == GENERATED:
            g = frame.f_globals
            site = g.get("_SITES", {}).get(tb.tb_lineno)
            found = (site[1] if site is not None else g.get("_LINES", {}).get(tb.tb_lineno)
                     or g.get("_WHERE") or found)
        elif frame.f_code.co_filename in _RULE_FILES:
            for value in frame.f_locals.values():
                if isinstance(value, Location) and value.line:
                    found = value
                    break
        tb = tb.tb_next
    return found


def translate(e: BaseException) -> UnexpectedRuleError:
    where = rule_location(e.__traceback__)
    if isinstance(e, RecursionError):
        return UnexpectedRuleError("the rules recurse too deeply: a function, procedure or event that calls "
                                   "itself (or triggers itself) without end?", where, e)
    if isinstance(e, MemoryError):
        return UnexpectedRuleError("the rules ran out of memory", where, e)
    return UnexpectedRuleError(f"the rules failed on values that do not go together ({type(e).__name__}: {e})",
                               where, e)


def rules_guard(fn):
    """Wrap a public method that runs rules: Python exceptions leave it as rule errors."""
    @functools.wraps(fn)
    def guarded(*args, **kwargs):
        try:
            return fn(*args, **kwargs)
        except InterpretError:
            raise
        except PYTHON_ERRORS as e:
            raise translate(e) from None
    guarded.__wrapped_by_guard__ = True
    return guarded


def guard_methods(cls, names) -> None:
    for name in names:
        method = getattr(cls, name)
        if not getattr(method, "__wrapped_by_guard__", False):
            setattr(cls, name, rules_guard(method))


def run(ctx, entry) -> None:
    """Run a compiled rule entry (an effect, a continuation): rules that recurse without end leave
    it as a rule error (every other Python error is translated by the public method around it)."""
    try:
        entry(ctx)
    except RecursionError as e:
        raise translate(e) from None


def run_effect(ctx, compiled, me=None, *, cause=None) -> None:
    """Run a flow effect (entry, scope), or nothing for None, with `me` = `me` and fresh locals;
    what it emits has `cause` for cause (the flow hook's (name, args): runtime/context.py Ctx.causes)."""
    if compiled is None:
        return
    entry, scope = compiled
    ctx.me = me
    ctx.locals = [None] * scope.size
    ctx.stack = []
    ctx.marks = None
    ctx.cause = cause
    try:
        run(ctx, entry)
    finally:
        ctx.cause = None
