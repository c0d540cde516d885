"""One game folder as the server holds it: its files, the editor's unsaved texts over them, each
file walked once per text, the names' index, the last ruleset read from them and what its checks found."""
from __future__ import annotations

import hashlib
import threading
from pathlib import Path

from ..errors import Location
from ..ruleset.paths import display_path
from ..ruleset.yamlio import overlaid
from . import documents
from .index import Index


def game_root(path: Path) -> Path | None:
    """The game folder holding a file: the nearest folder above it with a game.yaml."""
    path = path.resolve()
    for folder in [path.parent, *path.parent.parents]:
        if (folder / "game.yaml").is_file():
            return folder
    return None


class GameModel:
    def __init__(self, root: Path):
        self.root = root.resolve()
        self.open: dict[Path, str] = {}  # the editor's texts, by absolute path
        self._walked: dict[Path, tuple] = {}  # path -> (text, role, Walked)
        self._index: Index | None = None
        self._index_key = None
        self._displays: dict[Path, str] = {}  # path -> display_path (how messages name it)
        self._absolute: dict[Path, Path] = {}  # path listed -> resolved
        self._roles: dict[Path, str | None] = {}  # path -> documents.role_of
        self.rs = None  # the ruleset last read (keep_going: with its problems)
        self.lock = threading.RLock()  # the index and the ruleset, built by one thread at a time
        self.coverage_lock = threading.Lock()  # the scenarios' run (lens.py): long, and apart
        self.coverage = None  # scenarios.coverage.CoverageReport, computed on demand (lens.py)
        self.trees: dict = {}  # the YAML trees of the game's last check (yamlio.shared_trees)
        self.checked: dict = {}  # diagnose.full's problems of the game, by content_key (the last one)
        self.variants_checked: dict[Path, tuple] = {}  # a variant -> (content_key, its text, its problems)

    # ---- texts ---------------------------------------------------------------------------
    def text_of(self, path: Path) -> str | None:
        path = Path(path).resolve()
        if path in self.open:
            return self.open[path]
        try:
            return path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            return None

    def files(self) -> list[Path]:
        on_disk = [self._resolved(p) for p in documents.game_files(self.root)]
        extra = [p for p in self.open if p not in set(on_disk) and self.role_of(p)]
        return on_disk + sorted(extra)

    def role_of(self, path: Path) -> str | None:
        path = Path(path)
        if path not in self._roles:  # a path's role does not change: its place in the folder
            self._roles[path] = documents.role_of(self.root, path)
        return self._roles[path]

    def display(self, path: Path) -> str:
        shown = self._displays.get(path)
        if shown is None:
            shown = self._displays[path] = display_path(path)
        return shown

    def _resolved(self, path: Path) -> Path:
        """A file's absolute path, links followed (remembered: a check lists every file)."""
        found = self._absolute.get(path)
        if found is None:
            found = self._absolute[path] = path.resolve()
        return found

    def paths_of(self):
        """A function giving the file a problem's location names (its display path, as messages
        write it), or None. Problems are found in the rules' files and in the editor's (a variant,
        a scenario), listed once for all the problems of a check; any other file by its name."""
        by_display = {self.display(p): p for p in [*map(self._resolved, documents.rules_files(self.root)), *self.open]}

        def path_of(location: Location | None) -> Path | None:
            if location is None or not location.file:
                return None
            if location.file in by_display:
                return by_display[location.file]
            p = Path(location.file)
            return p.resolve() if p.is_file() else None
        return path_of

    def ruleset(self):
        """The ruleset last read, or the folder read now (with its problems kept) when none was yet."""
        if self.rs is None:
            from ..errors import ContentError
            from ..ruleset.loader import load_ruleset
            with self.lock, self.overlay():
                try:
                    self.rs = load_ruleset(self.root, keep_going=True)
                except ContentError:
                    return None
        return self.rs

    def overlay(self):
        return overlaid(dict(self.open))

    def content_key(self) -> bytes:
        """A digest of what `validate` of the game reads: its content files and languages' texts
        (the editor's text, else the saved one) and a learnt evaluation beside them. Equal keys,
        equal problems: an edit of a scenario, a tutorial or a variant leaves it as it was."""
        h = hashlib.blake2b(digest_size=20)
        for path in [*documents.rules_files(self.root), self.root / "evaluation.json"]:
            text = self.text_of(path)
            h.update(f"{path}\0{len(text) if text is not None else -1}\0".encode())
            h.update((text or "").encode("utf-8", "surrogatepass"))
        return h.digest()

    # ---- structure ---------------------------------------------------------------------------
    def walked(self, path: Path):
        """(role, documents.Walked) of a file, read again only when its text changed."""
        path = Path(path).resolve()
        text = self.text_of(path)
        cached = self._walked.get(path)
        if cached is not None and cached[0] == text:
            return cached[1], cached[2]
        role = self.role_of(path)
        doc = documents.parse_text(text, display_path(path)) if text is not None and role else None
        w = documents.walk(doc, role) if doc is not None else documents.Walked([], [])
        self._walked[path] = (text, role, w)
        return role, w

    def index(self) -> Index:
        with self.lock:
            files = self.files()
            walked = {p: self.walked(p) for p in files}
            key = tuple((p, id(walked[p][1])) for p in files)
            if self._index is None or key != self._index_key:
                self._index = Index(walked)
                self._index_key = key
            return self._index

    def texts_of(self, path: Path) -> list:
        return self.walked(path)[1].texts

    def rules_text_at(self, path: Path, line: int, column: int):
        """The rules text (documents.RulesText) holding a 0-based position, or None."""
        for t in self.texts_of(path):
            if _inside(t.src, line + 1, column + 1):
                return t
        return None


def _inside(src, line: int, column: int) -> bool:
    """Whether a 1-based file position falls in a rules text's span, from its first character to
    just after its last (where a designer types the next word)."""
    lines = src.text.rstrip("\n").split("\n")
    end = src.locate(len(lines), len(lines[-1]) + 1)
    if (line, column) < (src.line, src.column) or (line, column) > (end.line, end.column):
        return False
    return not (src.block and line > src.line and column <= src.indent)


__all__ = ["GameModel", "game_root"]
