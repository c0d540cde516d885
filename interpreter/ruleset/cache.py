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
  rename (never half-written).
- Nothing read back is trusted (docs/trust.md). A store file is a plain container (`_pack`), read
  without running anything; each entry carries a keyed checksum (BLAKE2b keyed by a secret made
  once per user, `.key` in the cache folder) of its bytes, its store, its key and the fingerprint:
  an entry that does not check (a flipped byte, another interpret, another user's cache) is ignored,
  rebuilt and written again, and the process says so once on stderr, never as an error. Values are
  code objects (marshal) or pickles read by an unpickler that builds only the classes of `_CLASSES`
  (typed trees, YAML nodes), never a function. A cache folder that others may write is not used.
"""
from __future__ import annotations

import atexit
import hashlib
import hmac
import io
import os
import pickle
import struct
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


_MAGIC = b"interpret-cache 2\n"
_MAC = 32  # bytes of an entry's keyed checksum
_CLASSES = {  # what a cached tree may be built of: data classes only, never a function
    "interpreter.lang.ast": None,  # any class of the typed trees
    "lark.lexer": {"Token"},
    "ruamel.yaml.comments": None, "ruamel.yaml.error": {"StringMark", "FileMark", "StreamMark"},
    "ruamel.yaml.scalarint": None, "ruamel.yaml.scalarfloat": None, "ruamel.yaml.scalarbool": None,
    "ruamel.yaml.scalarstring": None, "ruamel.yaml.tokens": {"CommentToken"}, "ruamel.yaml.anchor": None,
    "ruamel.yaml.timestamp": None, "datetime": {"date", "datetime", "timedelta", "timezone"},
}
_key: bytes | None = None
_warned = False


class _Unpickler(pickle.Unpickler):
    def find_class(self, module, name):
        allowed = _CLASSES.get(module, ())
        if allowed is not None and name not in allowed:
            raise pickle.UnpicklingError(f"{module}.{name} is not a class a cache entry is made of")
        found = super().find_class(module, name)
        if not isinstance(found, type):
            raise pickle.UnpicklingError(f"{module}.{name} is not a class")
        return found


def _pickle_dumps(value) -> bytes:
    raw = pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)
    _pickle_loads(raw)  # a value made of a class the reader refuses is not cached (rather than rebuilt each time)
    return raw


def _pickle_loads(raw: bytes):
    return _Unpickler(io.BytesIO(raw)).load()


def warn_once(*, shared: bool = False) -> None:
    """Say once per process, on stderr, that entries of the cache were damaged and are rebuilt, or
    that its folder is not used (`shared`: others may write it). Never an error."""
    global _warned
    if _warned:
        return
    _warned = True
    from ..i18n import _
    if shared:
        text = _("warning: others may write the cache folder {folder}: it is not used")
    else:
        text = _("warning: damaged entries of the cache in {folder} are ignored and rebuilt")
    try:
        sys.stderr.write(text.format(folder=cache_dir()) + "\n")
    except (OSError, ValueError):
        pass


def _owned(path: Path, others: int) -> bool:
    """Whether a folder or file of the cache is this user's own, with none of the `others` mode bits."""
    if not hasattr(os, "getuid"):
        return True
    st = path.stat()
    return st.st_uid == os.getuid() and not st.st_mode & others


def secret() -> bytes | None:
    """This user's key for the cache's checksums (made once, readable by this user only), or None:
    no cache this time (its folder cannot be made, or anyone may write it)."""
    global _key
    if _key is None:
        _key = b""
        root = cache_dir()
        try:
            root.mkdir(parents=True, exist_ok=True, mode=0o700)
            if not _owned(root, 0o002):
                warn_once(shared=True)
                return None
            _key = _read_key(root / ".key")
        except OSError:
            pass
    return _key or None


def _read_key(path: Path) -> bytes:
    """The key in `path`, made whole or not at all (linked from a written file: two processes
    starting at once read the same key); a damaged one, or one others may read, is made again."""
    for _attempt in range(3):
        try:
            with open(path, "rb") as f:
                key = f.read(64)
            if len(key) == 32 and _owned(path, 0o077):
                return key
        except FileNotFoundError:
            pass
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".key.")
        try:
            with os.fdopen(fd, "wb") as f:
                f.write(os.urandom(32))
            if path.exists():
                os.replace(tmp, path)  # damaged: every entry is rebuilt
            else:
                try:
                    os.link(tmp, path)
                except FileExistsError:  # another process made it first: theirs is read
                    pass
        finally:
            if os.path.exists(tmp):
                os.unlink(tmp)
    return b""


def _mac(name: str, key: bytes, raw: bytes) -> bytes:
    h = hashlib.blake2b(key=secret() or b"", digest_size=_MAC)
    h.update(f"{fingerprint()} {name} {len(key)} ".encode())
    h.update(key)
    h.update(raw)
    return h.digest()


def _pack(entries: dict) -> bytes:
    """The store's file: a magic line, then each entry as (key length, key, checksum, length, bytes)."""
    out = [_MAGIC]
    for k, (mac, raw) in entries.items():
        out += [struct.pack("<H", len(k)), k, mac, struct.pack("<I", len(raw)), raw]
    return b"".join(out)


def _unpack(data: bytes) -> tuple[dict, bool]:
    """The entries of a store file (their checksums unchecked) and whether all of it was read."""
    if not data.startswith(_MAGIC):
        return {}, not data
    view, at, out = memoryview(data), len(_MAGIC), {}
    while at < len(data):
        if at + 2 > len(data):
            return out, False
        (klen,) = struct.unpack_from("<H", view, at)
        head = at + 2 + klen + _MAC + 4
        if head > len(data):
            return out, False
        k = bytes(view[at + 2:at + 2 + klen])
        mac = bytes(view[at + 2 + klen:head - 4])
        (size,) = struct.unpack_from("<I", view, head - 4)
        if head + size > len(data):
            return out, False
        out[k] = (mac, bytes(view[head:head + size]))
        at = head + size
    return out, True


class Store:
    """A dict from key (bytes) to a value written as bytes (a pickle by default), kept in one file."""

    def __init__(self, name: str, dumps=None, loads=None):
        self.name = name
        self.dumps = dumps or _pickle_dumps
        self.loads = loads or _pickle_loads
        self.entries: dict[bytes, tuple[bytes, bytes]] | None = None
        self.added: dict[bytes, tuple[bytes, bytes]] = {}
        self.damaged = False  # entries were left out when read: the file is written again without them

    def _path(self) -> Path:
        return cache_dir() / fingerprint() / f"{self.name}.store"

    def _read(self, *, report: bool) -> dict:
        """The entries whose checksums check; the others are left out (and said once, if `report`)."""
        try:
            with open(self._path(), "rb") as f:
                data = f.read(MAX_STORE_BYTES + 1)
        except OSError:  # absent or unreadable: rebuilt
            return {}
        entries, whole = _unpack(data) if len(data) <= MAX_STORE_BYTES else ({}, False)
        good = {k: e for k, e in entries.items() if hmac.compare_digest(e[0], _mac(self.name, k, e[1]))}
        if report and (not whole or len(good) < len(entries)):
            self.damaged = True
            warn_once()
        return good

    def get(self, key: bytes):
        if self.entries is None:
            self.entries = self._read(report=True) if enabled() and secret() else {}
        entry = self.entries.get(key)
        if entry is None:
            return None
        try:
            return self.loads(entry[1])
        except Exception:  # checked, yet not readable (a class renamed since): rebuilt
            del self.entries[key]
            self.damaged = True
            warn_once()
            return None

    def put(self, key: bytes, value) -> None:
        if not enabled() or not secret():
            return
        try:
            raw = self.dumps(value)
        except Exception:  # a value that cannot be written is simply not cached
            return
        entry = (_mac(self.name, key, raw), raw)
        if self.entries is not None:
            self.entries[key] = entry
        self.added[key] = entry

    def flush(self) -> None:
        """Write the entries added, and rewrite a damaged file without its bad entries (even when
        nothing was added: an entry this run did not need is not warned about again next run)."""
        if not (self.added or self.damaged) or not enabled() or not secret():
            return
        path = self._path()
        try:
            path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
            merged = self._read(report=False)
            if self.entries is not None:  # what this run found unreadable is not written back
                merged = {k: e for k, e in merged.items() if k in self.entries or k in self.added}
            merged.update(self.added)
            if sum(len(v[1]) for v in merged.values()) > MAX_STORE_BYTES:
                merged = dict(self.added)
            fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{self.name}.")
            try:
                with os.fdopen(fd, "wb") as f:
                    f.write(_pack(merged))
                os.replace(tmp, path)
            finally:
                if os.path.exists(tmp):
                    os.unlink(tmp)
            self.added, self.damaged = {}, False
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
