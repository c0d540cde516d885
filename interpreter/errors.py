"""The exceptions of interpret: one root, a few clear kinds.

Every error a user can cause carries where it happened (file:line:col) and
what was expected, so the command line can print it without a traceback.
"""
from __future__ import annotations

from dataclasses import dataclass, field


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


class IllegalActionError(InterpretError):
    """An action was refused; `reason` says why."""

    def __init__(self, action: object, reason: str):
        self.action = action
        self.reason = reason
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
