"""The exceptions of interpret: one root, a few clear kinds.

Every error a user can cause carries where it happened (file:line:col) and
what was expected, so the command line can print it without a traceback.
"""
from __future__ import annotations

import difflib

from dataclasses import dataclass, field
from enum import Enum


@dataclass(frozen=True)
class Location:
    """A place in a content file: 1-based line and column."""

    file: str
    line: int = 0
    column: int = 0

    def __str__(self) -> str:
        if self.line:
            return f"{self.file}:{self.line}:{self.column}"
        return self.file


class InterpretError(Exception):
    """Root of every error raised by interpret."""


@dataclass
class Problem:
    """One problem found in content: where, what, and an optional hint."""

    location: Location | None
    message: str
    hint: str = ""
    context: str = ""  # source line(s) with a caret under the spot

    def render(self) -> str:
        head = f"{self.location}: {self.message}" if self.location else self.message
        parts = [head]
        if self.context:
            parts.append(self.context)
        if self.hint:
            parts.append(f"  hint: {self.hint}")
        return "\n".join(parts)


class ContentError(InterpretError):
    """Content (YAML, schema, DSL, cross references) is wrong. Holds every problem found."""

    def __init__(self, problems: list[Problem] | Problem):
        if isinstance(problems, Problem):
            problems = [problems]
        self.problems = list(problems)
        super().__init__("\n".join(p.render() for p in self.problems))


class RefusalKind(str, Enum):
    """Why an action is refused, as a kind a program can test (the reason text says it to a person)."""

    GAME_OVER = "game over"
    NOT_YOUR_TURN = "not your turn"
    CHOICE_PENDING = "a choice is pending"
    NOT_AN_OPTION = "not an option"
    UNKNOWN_ACTION = "unknown action"
    WRONG_STEP = "wrong step"
    LIMIT_REACHED = "limit reached"
    WRONG_ARGUMENTS = "wrong arguments"
    OUT_OF_DOMAIN = "parameter out of domain"
    REQUIREMENT_FAILED = "requirement failed"


class IllegalActionError(InterpretError):
    """An action was refused: `kind` says what kind of refusal, `reason` says why in words.
    `reasons`: the content's reason of every requirement that refuses it (each a sentence for
    a player, written for the reader it was explained to), when content refuses it; `facts`:
    what a refusal of another kind is about (for a value out of its domain: `param`, `key`, and
    the possible `values`), for writing it in a player's words."""

    def __init__(self, action: object, reason: str, kind: RefusalKind = RefusalKind.REQUIREMENT_FAILED,
                 *, reasons: tuple = (), facts: dict | None = None):
        self.action = action
        self.reason = reason
        self.kind = kind
        self.reasons = tuple(reasons)
        self.facts = facts or {}
        super().__init__(f"illegal action {action}: {reason}")


class RuleRuntimeError(InterpretError):
    """Content asked the engine for something impossible while playing (a bug in the rules)."""

    def __init__(self, message: str, location: Location | None = None):
        self.location = location
        super().__init__(f"{location}: {message}" if location else message)


class InternalError(InterpretError):
    """A bug in interpret itself."""


@dataclass
class ErrorList:
    """Collects problems so that a load reports all of them at once."""

    problems: list[Problem] = field(default_factory=list)

    def add(self, location: Location | None, message: str, hint: str = "", context: str = "") -> None:
        self.problems.append(Problem(location, message, hint, context))

    def raise_if_any(self) -> None:
        if self.problems:
            raise ContentError(self.problems)


def did_you_mean(name: str, known) -> str:
    close = difflib.get_close_matches(name, sorted(set(known)), n=3, cutoff=0.6)
    if close:
        return "did you mean " + " or ".join(f"`{c}`" for c in close) + "?"
    return ""
