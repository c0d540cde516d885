"""Rules text read as an editor needs it: every syntax mistake of one text (the parser resumes at
the next statement), and what the grammar accepts at a point (lark's interactive parser)."""
from __future__ import annotations

import functools
import re

from lark.exceptions import LarkError, UnexpectedCharacters, UnexpectedInput

from ..errors import Problem
from ..lang.parser import ENTRY, _problem, parser
from ..ruleset.yamlio import SourceText

EFFECT_KEYS = {"effect", "setup", "start", "end", "reveal", "do"}
TRIGGER_KEYS = {"rule"}
MAX_MISTAKES = 20
_OPENS = re.compile(r"^\s*(if|for|repeat)\b|\b(then|do|times)\s*$")


def kind_of(path) -> str:
    """expr, effect or trigger: how the compiler reads the rules text at this key."""
    last = next((p for p in reversed(path) if isinstance(p, str)), "")
    return "trigger" if last in TRIGGER_KEYS else "effect" if last in EFFECT_KEYS else "expr"


def _stand_in(line: str) -> str:
    """A statement with the same block structure as a broken line: the next ones parse as before."""
    indent = line[: len(line) - len(line.lstrip())]
    words = line.split()
    if not words:
        return line
    if words[0] == "elif":
        return indent + "elif true then"
    if words[0] == "else":
        return indent + "else"
    if words[0] == "end" and len(words) == 1:
        return indent + "pass"
    if _OPENS.search(line):
        return indent + "if true then"
    return indent + "pass"


@functools.lru_cache(maxsize=1024)
def _mistakes(text: str, kind: str) -> tuple:
    """(line, column, the lark error) of each syntax mistake of a text, in order: after each, its
    line is replaced by a statement of the same shape and the text parsed again."""
    lines = text.split("\n")
    out = []
    seen = set()
    for _ in range(MAX_MISTAKES):
        body = "\n".join(lines)
        try:
            parser().parse(body.replace("\n", " ") if kind == "expr" else body, start=ENTRY[kind])
            break
        except UnexpectedInput as e:
            line = getattr(e, "line", 0) or 0
            if line < 1 or line in seen or (kind == "trigger" and line == 1 and out):
                break
            out.append(e)
            if kind == "expr" or line > len(lines) or getattr(getattr(e, "token", None), "type", "") == "$END":
                break
            seen.add(line)
            if kind == "trigger" and line == 1:
                head, sep, _ = lines[0].partition(":")
                lines[0] = (head + sep + " pass") if sep else lines[0]
                if not sep:
                    break
                continue
            lines[line - 1] = _stand_in(lines[line - 1])
        except LarkError:
            break
    return tuple(out)


def syntax_problems(src: SourceText, kind: str) -> list[Problem]:
    """Every syntax mistake of a rules text, each as `interpret validate` words the first."""
    text = src.text.rstrip()
    if not text.strip():
        return []
    return [_problem(src, e, kind) for e in _mistakes(text, kind)]


def _words(pattern) -> list[str]:
    value = pattern.value
    if type(pattern).__name__ == "PatternStr":
        return [value] if re.fullmatch(r"[a-z_]+", value) else []
    m = re.fullmatch(r"\(\?:([a-z_|]+)\)|\(([a-z_|]+)\)([a-z_]*)(?:\(\?!.*\))?", value)
    if not m:
        return []  # operators, numbers, strings: nothing to complete
    if m.group(1):
        return m.group(1).split("|")
    return [w + m.group(3) for w in m.group(2).split("|")]


def accepted(text: str, kind: str) -> tuple[list[str], bool]:
    """What may come after `text` (a rules text up to the cursor): (the keywords, whether a name may).
    A text that cannot be read up to there gives ([], True): names are the likely want."""
    p = parser()
    try:
        ip = p.parse_interactive(text.replace("\n", " ") if kind == "expr" else text, start=ENTRY[kind])
        ip.exhaust_lexer()
        accepts = ip.accepts()
    except (UnexpectedCharacters, UnexpectedInput, LarkError):
        return [], True
    words = []
    for name in sorted(accepts):
        if name in ("NAME", "$END") or name.startswith("_"):
            continue
        try:
            words += _words(p.get_terminal(name).pattern)
        except KeyError:
            continue
    return sorted(set(words)), "NAME" in accepts


__all__ = ["accepted", "kind_of", "syntax_problems"]
