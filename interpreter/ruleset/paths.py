"""Where the grammar, schemas and bundled content are, in a checkout or an installed wheel."""
from __future__ import annotations

import os
from pathlib import Path

_HERE = Path(__file__).resolve().parent.parent  # interpreter/


def _find(name: str) -> Path:
    for base in (_HERE.parent / name, _HERE / "_data" / name):
        if base.exists():
            return base
    raise FileNotFoundError(f"interpret is missing its {name}/ folder")


def grammar_path() -> Path:
    return _find("grammar") / "rules.lark"


def schemas_dir() -> Path:
    return _find("schemas")


def content_dir() -> Path:
    return _find("content")


def game_dir(name_or_path: str) -> Path:
    """A game by its folder path, or by its name under the bundled content/."""
    p = Path(name_or_path)
    if is_there(p):
        return p
    return content_dir() / name_or_path


NAME_MAX = 255  # the bytes of one file or folder name (most file systems)
PATH_MAX = 4095  # the bytes of a whole path (Linux)


def too_long(ref) -> str | None:
    """Why `ref` cannot name a file (a part over NAME_MAX bytes, the whole over PATH_MAX, a NUL), or None."""
    text = str(ref)
    if "\0" in text:
        return "a name cannot hold a NUL character"
    try:
        size = len(os.fsencode(text))
        parts = [len(os.fsencode(part)) for part in Path(text).parts]
    except (UnicodeError, ValueError):
        return "it cannot be a file name"
    if size > PATH_MAX:
        return f"a path is at most {PATH_MAX:,} bytes, this one has {size:,}"
    if parts and max(parts) > NAME_MAX:
        return f"a file or folder name is at most {NAME_MAX} bytes, this one has {max(parts):,}"
    return None


def shown(ref, width: int = 60) -> str:
    """A user's path or name as a message quotes it: a long one cut short."""
    text = str(ref)
    return text if len(text) <= width else text[:width] + f"… ({len(text):,} characters)"


def is_there(path, test: str = "exists") -> bool:
    """`Path(path).exists()` (or `is_file`, `is_dir`), false for a name no file can have instead of
    an OSError (a name too long, a NUL byte)."""
    try:
        return getattr(Path(path), test)()
    except (OSError, ValueError):
        return False


def display_path(path: Path) -> str:
    """How messages name a content file. A file of a bundled game reads GAME/FILE
    (`dark-agent/cards.yaml`) wherever interpret is installed, never a site-packages path;
    another file reads relative to the working folder when it is inside it, else as given."""
    resolved = Path(path).resolve()
    try:
        return resolved.relative_to(content_dir().resolve()).as_posix()
    except (ValueError, FileNotFoundError):
        pass
    try:
        return resolved.relative_to(Path.cwd().resolve()).as_posix()
    except ValueError:
        return str(path)
