"""Where the grammar, schemas and bundled content are, in a checkout or an installed wheel."""
from __future__ import annotations

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
    if p.exists():
        return p
    return content_dir() / name_or_path


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
