"""A cache on disk of what is slow to rebuild and depends only on a text, as Python keeps .pyc files:
YAML files read with their positions, rules texts parsed into typed trees, generated Python
compiled to code objects, and which documents the JSON Schema passed (schema.py). A fresh process
that loads a game it loaded before skips that work.

- Where: `$INTERPRET_CACHE_DIR`, else `$XDG_CACHE_HOME/interpret`, else `~/.cache/interpret`.
  `INTERPRET_CACHE=off` turns it off.
- Each store is one file under a folder named by a fingerprint of interpret itself (its Python
  modules, its grammar, the Python, lark, ruamel.yaml and jsonschema versions), so a changed
  interpret never reads what an older one wrote. Keys are the texts themselves (hashed): a changed
  text is a miss.
- Stores are read once, when first asked, and written back at exit when something was added,
  merged with what another process may have written meanwhile, through a temporary file and a
  rename (never half-written). A store that cannot be read is ignored and rebuilt.
- The files hold pickles: like .pyc files, they are trusted as the user's own (the folder is
  created private to the user).
"""
from __future__ import annotations

import atexit
import hashlib
import os
import pickle
import sys
import tempfile
from pathlib import Path

MAX_STORE_BYTES = 64 * 2 ** 20  # a store over this starts afresh
_stores: dict[str, "Store"] = {}
_fingerprint: str | None = None


def enabled() -> bool:
    return os.environ.get("INTERPRET_CACHE", "").lower() not in ("off", "0", "no", "false")


def cache_dir() -> Path:
    explicit = os.environ.get("INTERPRET_CACHE_DIR")
    if explicit:
        return Path(explicit)
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "interpret"


def fingerprint() -> str:
    """What the cached values depend on besides their texts: interpret's own code and libraries."""
    global _fingerprint
    if _fingerprint is None:
        from .paths import grammar_path
        h = hashlib.sha256(sys.version.encode())
        for lib in ("lark", "ruamel.yaml", "jsonschema"):
            h.update(f"{lib} {_installed(lib)}".encode())
        here = Path(__file__).resolve().parent.parent  # all of interpreter/
        for path in sorted(here.rglob("*.py")) + [grammar_path()]:
            h.update(path.name.encode())
            h.update(path.read_bytes())
        _fingerprint = h.hexdigest()[:16]
    return _fingerprint


def _installed(lib: str) -> str:
    """Which release of a library is installed: the names of its metadata folders next to it
    (`lark-1.3.1.dist-info`), found without importing it or importlib.metadata (slow to import),
    else the size and time of its main file."""
    import importlib.util
    import re
    try:
        spec = importlib.util.find_spec(lib)
    except (ImportError, ValueError):
        spec = None
    if spec is None or not spec.origin:
        return "absent"
    package = Path(spec.origin).parent
    home = package.parent
    for _ in lib.split(".")[1:]:  # ruamel/yaml/__init__.py: the metadata is beside ruamel/
        home = home.parent
    want = re.sub(r"[-_.]+", "_", lib).lower()
    try:
        names = sorted(n for n in os.listdir(home) if n.endswith((".dist-info", ".egg-info"))
                       and re.sub(r"[-_.]+", "_", n.split("-")[0]).lower() == want)
    except OSError:
        names = []
    if names:
        return " ".join(names)
    st = os.stat(spec.origin)
    return f"{spec.origin} {st.st_size} {st.st_mtime_ns}"


def key_of(*parts: str) -> bytes:
    h = hashlib.blake2b(digest_size=20)
    for p in parts:
        h.update(p.encode("utf-8", "surrogatepass"))
        h.update(b"\0")
    return h.digest()


class Store:
    """A dict from key (bytes) to a value written as bytes (pickled by default), kept in one file."""

    def __init__(self, name: str, dumps=None, loads=None):
        self.name = name
        self.dumps = dumps or (lambda v: pickle.dumps(v, protocol=pickle.HIGHEST_PROTOCOL))
        self.loads = loads or pickle.loads
        self.entries: dict[bytes, bytes] | None = None
        self.added: dict[bytes, bytes] = {}

    def _path(self) -> Path:
        return cache_dir() / fingerprint() / f"{self.name}.pickle"

    def _read(self) -> dict:
        try:
            with open(self._path(), "rb") as f:
                data = pickle.load(f)
            return data if isinstance(data, dict) else {}
        except Exception:  # absent, unreadable or from a broken write: rebuilt
            return {}

    def get(self, key: bytes):
        if self.entries is None:
            self.entries = self._read() if enabled() else {}
        raw = self.entries.get(key)
        if raw is None:
            return None
        try:
            return self.loads(raw)
        except Exception:
            del self.entries[key]
            return None

    def put(self, key: bytes, value) -> None:
        if not enabled():
            return
        try:
            raw = self.dumps(value)
        except Exception:  # a value that does not pickle is simply not cached
            return
        if self.entries is not None:
            self.entries[key] = raw
        self.added[key] = raw

    def flush(self) -> None:
        if not self.added or not enabled():
            return
        path = self._path()
        try:
            path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
            merged = self._read()
            merged.update(self.added)
            if sum(len(v) for v in merged.values()) > MAX_STORE_BYTES:
                merged = dict(self.added)
            fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{self.name}.")
            try:
                with os.fdopen(fd, "wb") as f:
                    pickle.dump(merged, f, protocol=pickle.HIGHEST_PROTOCOL)
                os.replace(tmp, path)
            finally:
                if os.path.exists(tmp):
                    os.unlink(tmp)
            self.added = {}
        except OSError:
            pass  # a read-only or full disk: no cache, nothing else changes


def store(name: str, dumps=None, loads=None) -> Store:
    """The store `name` of this process (values pickled, or written with `dumps`/`loads`)."""
    s = _stores.get(name)
    if s is None:
        s = _stores[name] = Store(name, dumps, loads)
    return s


@atexit.register
def flush_all() -> None:
    for s in _stores.values():
        s.flush()
