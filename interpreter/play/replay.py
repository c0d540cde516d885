"""Game logs: what `interpret play --log FILE` writes and `interpret replay FILE` reads.

A log is JSON lines, written as the game goes (a game left half-way is still a log):

    {"log": "interpret", "version": 1, "game": "dark-agent", "players": 4, "options": {},
     "seed": 7, "seats": ["human", "random", ...], "content_sha256": "..."}
    {"n": 1, "player": "p1", "action": "take r1c1"}
    ...
    {"result": {"decisions": 41, "rounds": 3, "scores": [...], "ranking": ["p2", ...], "winners": ["p2"]}}

Content, seed and actions determine the game (the random generator lives in the
state), so replaying the actions reproduces every state and the result.
A single JSON object holding the same keys and an "actions" list is read too.
"""
from __future__ import annotations

import errno
import functools
import hashlib
import json
import os
from dataclasses import dataclass, field
from pathlib import Path

from ..errors import ContentError, InterpretError, Location, Problem
from ..i18n import _
from ..core.jsondepth import json_too_deep
from ..ruleset.loader import content_files
from ..ruleset.paths import content_dir, game_dir, shown, too_long

FORMAT = "interpret"
VERSION = 1
MAX_LOG_BYTES = 256 * 2 ** 20  # a million decisions take about 50 MB


class LogError(InterpretError):
    """A log file cannot be read or does not replay."""

    def __init__(self, location: Location, message: str):
        self.location = location
        super().__init__(f"{location}: {message}")


def game_reference(name_or_path: str) -> str:
    """How a log names a game: bundled games by name, others by absolute folder path."""
    p = Path(name_or_path)
    if p.exists():
        bundled = (content_dir() / p.name).resolve()
        if p.resolve() == bundled:
            return p.name
        return str(p.resolve())
    return name_or_path


def variant_reference(game: str, ref: str) -> str:
    """How a log names a variant: the game's own by name, a designer's file by absolute path."""
    p = Path(ref)
    if p.exists() and p.resolve().parent != (game_dir(game) / "variants").resolve():
        return str(p.resolve())
    return p.stem if p.suffix == ".yaml" else ref


def content_digest(name_or_path: str) -> str | None:
    """A SHA-256 of a game's content files, to tell when a log's content has changed."""
    root = game_dir(name_or_path)
    if not root.is_dir():
        return None
    h = hashlib.sha256()
    for path in content_files(root):
        h.update(str(path.relative_to(root)).encode())
        h.update(b"\0")
        h.update(path.read_bytes())
        h.update(b"\0")
    return h.hexdigest()


@dataclass
class Record:
    """A log read back: the game's settings, its actions and, when it ended, its result."""

    game: str
    players: int
    options: dict
    seed: int
    seats: list = field(default_factory=list)
    actions: list = field(default_factory=list)  # (line number, seat key or None, action text)
    result: dict | None = None
    content_sha256: str | None = None
    variants: list = field(default_factory=list)
    where: dict = field(default_factory=dict)  # header key -> its Location in the log file
    document: bool = False  # one JSON document with an `actions` list, rather than JSON lines


SPOILERS = ("full information: this log holds every secret of the game (hidden cards, dice to come); "
            "show a player only their own account (`interpret play --log-seat SEAT FILE`)")


class LogWriter:
    """Writes a log line by line, flushed, so that an interrupted game keeps its log."""

    def __init__(self, path: str | Path, *, game: str, players: int, options: dict, seed: int, seats: list,
                 variants: list | None = None, sync: bool = False, resume: list | None = None,
                 keep: int | None = None):
        """`sync`: each line is on the disk (fsync) before the game goes on, so that a game killed
        at any moment can be resumed (`play --resume`). `resume`: append to the log of a game
        whose action lines start at these offsets, instead of writing a new log, after its first
        `keep` bytes (`Saved.keep`: a last line left unfinished by a crash is cut only now that the
        log has been accepted)."""
        self.path = Path(path)
        self.sync = sync
        try:
            if resume is not None and keep is not None:
                _cut(self.path, keep)
            self.f = self.path.open("a" if resume is not None else "w", encoding="utf-8")
        except OSError as e:
            raise LogError(Location(str(path)), _("cannot write the log: {why}").format(why=e.strerror)) from None
        self.offsets = []  # where each action line starts: undo cuts the log there
        if resume is not None:
            self.n = len(resume)
            self.offsets = list(resume)
            return
        from .. import __version__
        self._write({"log": FORMAT, "version": VERSION, "interpret": __version__, "game": game_reference(game),
                     "players": players,
                     "options": options, "variants": [variant_reference(game, v) for v in variants or []],
                     "seed": seed, "seats": seats, "content_sha256": content_digest(game),
                     "spoilers": SPOILERS})
        self.n = 0

    def _write(self, obj) -> None:
        try:
            self.f.write(json.dumps(obj, ensure_ascii=False, default=str) + "\n")
            self.f.flush()
            if self.sync:
                os.fsync(self.f.fileno())
        except OSError as e:
            self._abandon()
            raise LogError(Location(str(self.path)), _("cannot write the log: {why}").format(why=e.strerror or e)) from None

    def _abandon(self) -> None:
        try:
            self.f.close()
        except OSError:
            pass

    def action(self, player: str | None, action) -> None:
        self.n += 1
        self.offsets.append(self.f.tell())
        self._write({"n": self.n, "player": player, "action": str(action)})

    def truncate(self, n: int) -> None:
        """Keep only the first `n` actions (undo). Only the actions written by this writer can go."""
        if n >= self.n:
            return
        at = self.offsets[n]
        try:
            self.f.flush()
            self.f.truncate(at)
            self.f.seek(at)
            if self.sync:
                os.fsync(self.f.fileno())
        except OSError as e:
            raise LogError(Location(str(self.path)), _("cannot write the log: {why}").format(why=e.strerror or e)) from None
        del self.offsets[n:]
        self.n = n

    def result(self, result: dict) -> None:
        self._write({"result": result})

    def close(self) -> None:
        """Flush the log and make sure it is on the disk (fsync), then close it."""
        if self.f.closed:
            return
        try:
            self.f.flush()
            try:
                os.fsync(self.f.fileno())
            except OSError as e:
                if e.errno not in (errno.EINVAL, errno.ENOTSUP, errno.EBADF):  # a device or a pipe: nothing to sync
                    raise
            self.f.close()
        except OSError as e:
            self._abandon()
            raise LogError(Location(str(self.path)), _("cannot write the log: {why}").format(why=e.strerror or e)) from None


_BREAKS = frozenset("\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029")  # line breaks of str.splitlines besides \n


@dataclass
class Saved:
    """A saved game read back for `play --resume`, the file left as it was."""

    record: Record
    offsets: list  # where each action line starts (bytes), for undo
    keep: int  # the bytes that are the log; what follows (a line cut off by a crash) goes when resumed


def read_saved(path) -> Saved:
    """A log read for resuming it, checked as `replay` reads it (`read_log`), without writing to it.
    A last line with no line break that is not JSON was cut off by a crash (its action was never
    applied): it is left out here, and cut from the file only when the game resumes (`LogWriter`)."""
    name = str(path)
    raw = _read_bytes(name)
    keep = len(raw)
    try:
        rec = _read_log(name, raw)
    except LogError as first:
        if raw.endswith(b"\n") or b"\n" not in raw:
            raise
        keep = raw.rfind(b"\n") + 1
        try:
            rec = _read_log(name, raw[:keep])
        except LogError:
            raise first from None
    if rec.document:
        raise LogError(Location(name), "this log is one JSON document: only the JSON lines that "
                                       "`play --log` writes can be continued (`interpret replay` shows it)")
    starts, at = [], 0
    for line in raw[:keep].split(b"\n"):
        starts.append(at)
        at += len(line) + 1
    if _BREAKS.intersection(raw[:keep].decode("utf-8").replace("\r\n", "\n")):  # lines numbered unlike bytes
        raise LogError(Location(name), "the log has line breaks inside its lines: it cannot be continued")
    return Saved(rec, [starts[line - 1] for line, _who, _text in rec.actions], keep)


def _cut(path: Path, keep: int) -> None:
    """Cut a log accepted for resuming to its first `keep` bytes, ending with a line break."""
    try:
        with path.open("r+b") as f:
            f.truncate(keep)
            if keep:
                f.seek(keep - 1)
                if f.read(1) != b"\n":
                    f.write(b"\n")
    except OSError as e:
        raise LogError(Location(str(path)), _("cannot write the log: {why}").format(why=e.strerror or e)) from None


def check_new_log(path, *, force: bool = False) -> None:
    """`play --log FILE`: an earlier game's log is not overwritten without --force."""
    if too_long(path):
        raise LogError(Location(shown(path)), _("this name is too long for a file: give a shorter one for the log"))
    p = Path(path)
    if p.is_dir():
        raise LogError(Location(str(p)), _("is a folder: give a file name for the log"))
    if p.is_file() and p.stat().st_size > 0 and not force:
        raise LogError(Location(str(p)), _("a log is there already: give another file name, or --force to overwrite it"))
    if not p.parent.is_dir():
        raise LogError(Location(str(p)), _("there is no folder {folder}").format(folder=p.parent))


def read_log(path: str | Path) -> Record:
    return _read_log(str(path), _read_bytes(str(path)))


def _read_bytes(name: str) -> bytes:
    if too_long(name):  # a NUL, a name over NAME_MAX: no file has it
        raise LogError(Location(shown(name)), f"cannot read the log: {too_long(name)}")
    try:
        with open(name, "rb") as f:  # bounded: a device such as /dev/zero never ends
            raw = f.read(MAX_LOG_BYTES + 1)
    except OSError as e:
        raise LogError(Location(name), f"cannot read the log: {e.strerror}") from None
    if len(raw) > MAX_LOG_BYTES:
        raise LogError(Location(name), f"the log is larger than {MAX_LOG_BYTES // 2 ** 20} MB: not a game log")
    return raw


def _read_log(name: str, raw: bytes) -> Record:
    try:
        text = raw.decode("utf-8").replace("\r\n", "\n").replace("\r", "\n")  # as a text file reads
    except UnicodeDecodeError as e:
        before = raw[:e.start]
        raise LogError(Location(name, before.count(b"\n") + 1, e.start - (before.rfind(b"\n") + 1) + 1),
                       "the log is not UTF-8 text (a log is JSON lines, as `play --log` writes them)") from None
    if "\x00" in text:
        at = text.index("\x00")
        raise LogError(Location(name, text.count("\n", 0, at) + 1, at - (text.rfind("\n", 0, at) + 1) + 1),
                       "the log holds a NUL character: it is not a text file")
    stripped = text.strip()
    if not stripped:
        raise LogError(Location(name), "the log is empty")
    if stripped.startswith("{") and "\n" not in stripped:
        entries = [(1, _json(name, 1, stripped))]
    else:
        try:  # one JSON document over several lines?
            whole = _json(name, 1, stripped)
        except LogError:
            whole = None
        if isinstance(whole, dict) and "actions" in whole:
            entries = [(1, whole)]
        else:
            entries = [(i, _json(name, i, line)) for i, line in enumerate(text.splitlines(), 1) if line.strip()]
    line, head = entries[0]
    lines = text.splitlines() if len(entries) > 1 or "\n" not in stripped else stripped.splitlines()
    if not isinstance(head, dict):
        raise LogError(Location(name, line, 1), "the first line must be the log's header (a JSON object)")
    _check(name, lines, line, head, "header")
    rec = Record(game=str(head["game"]), players=head["players"], options=dict(head.get("options") or {}),
                 seed=head["seed"], seats=list(head.get("seats") or []), content_sha256=head.get("content_sha256"),
                 variants=[str(v) for v in head.get("variants") or []],
                 where={k: _key_location(name, lines, line, k) for k in head}, document="actions" in head)
    for i, a in enumerate(head.get("actions") or [], 1):  # the single-document form
        rec.actions.append((line, None, str(a)))
    if isinstance(head.get("result"), dict):
        rec.result = head["result"]
    for line, entry in entries[1:]:
        if not isinstance(entry, dict):
            raise LogError(Location(name, line, 1), "expected a JSON object")
        if "action" in entry:
            _check(name, lines, line, entry, "action")
        elif "result" in entry:
            _check(name, lines, line, entry, "result_line")
        if "action" in entry:
            rec.actions.append((line, entry.get("player"), str(entry["action"])))
        elif "result" in entry:
            rec.result = entry["result"]
        else:
            raise LogError(Location(name, line, 1), "expected an `action` or a `result`")
    return rec


def play_back(game, rec: Record, name: str, st, *, before=None, after=None) -> int:
    """Play the recorded actions of `rec` on `st` (the game's first state), each checked as the game
    would check it live: the game is not over, the line names the seat that decides (when it names
    one), the text is an action, and it is legal. The one checker of
    `replay`, `play --resume` and the server's tables; a refused line raises LogError at its line.
    `before(p, action, text)` is called before each action is applied, `after(p, action, step)` after it.
    Returns the number of actions played."""
    from ..core.model import Action
    from ..errors import IllegalActionError
    n = 0
    for line, player, text in rec.actions:
        where = Location(name, line, 1)
        if game.is_terminal(st):
            raise LogError(where, f"`{text}`: the game is already over")
        p = game.current_player(st)
        if player is not None and p is not None and player != game.seats[p].key:
            raise LogError(where, f"`{text}` is recorded for {player}, but {game.seats[p].key} decides here")
        try:
            action = Action.parse(text)
        except ValueError as e:
            raise LogError(where, f"not an action: {e}") from None
        if before is not None:
            before(p, action, text)
        try:
            step = game.apply_in_place(st, action)
        except IllegalActionError as e:
            raise LogError(where, f"`{text}` is refused: {e.reason}") from None
        n += 1
        if after is not None:
            after(p, action, step)
    return n


def _key_location(name: str, lines: list, line: int, key) -> Location:
    """Where `"key"` is written, from `line` on (a log line, or the lines of one document)."""
    needle = json.dumps(str(key))
    for i in range(max(line - 1, 0), len(lines)):
        col = lines[i].find(needle)
        if col >= 0:
            return Location(name, i + 1, col + 1)
    return Location(name, line, 1)


@functools.lru_cache(maxsize=None)
def _validator(kind: str):
    from jsonschema import Draft202012Validator

    from ..ruleset.schema import schema
    whole = schema("log")
    return Draft202012Validator({**whole["$defs"][kind], "$defs": whole["$defs"]})


def from_header(e: ContentError, rec: Record) -> ContentError:
    """Problems of the game's settings read from a log (players, options, variants, game) placed at
    the header's key instead of at the command-line option they would come from in `play`."""
    keys = {"--players": "players", "--option": "options", "--variant": "variants"}
    out = []
    for p in e.problems:
        key = keys.get(p.location.file if p.location else "")
        if key is None and p.location is not None and str(rec.game) in p.location.file and not p.location.line:
            key = "game"
        if key is not None and key in rec.where:
            out.append(Problem(rec.where[key], f"the log's `{key}`: {p.message}", p.hint))
        else:
            out.append(p)
    return ContentError(out)


def _check(name: str, lines: list, line: int, entry: dict, kind: str) -> None:
    """An entry against schemas/log.schema.json: the first problem, at the key it is about."""
    errors = sorted(_validator(kind).iter_errors(entry), key=lambda e: (len(e.absolute_path), list(map(str, e.absolute_path))))
    if not errors:
        return
    err = errors[0]
    path = list(err.absolute_path)
    where = _key_location(name, lines, line, path[0]) if path else Location(name, line, 1)
    field_name = ".".join(str(p) for p in path)
    what = {"header": "the log's header", "action": "an action line", "result_line": "the result line"}[kind]
    msg = err.message
    if err.validator == "required":
        msg = f"{what} has no " + msg.split(" is a required")[0].replace("'", "`")
    elif field_name:
        msg = f"{what}: `{field_name}`: {msg}"
    else:
        msg = f"{what}: {msg}"
    raise LogError(where, msg + " (see schemas/log.schema.json)")


def _json(name, line, text):
    deep = json_too_deep(text)
    if deep is not None:
        before = text[:deep]
        raise LogError(Location(name, line + before.count("\n"), deep - (before.rfind("\n") + 1) + 1),
                       "nested too deeply: a log holds flat JSON objects")
    try:
        return json.loads(text)
    except json.JSONDecodeError as e:
        raise LogError(Location(name, line, e.colno), f"not JSON: {e.msg}") from None


__all__ = ["LogWriter", "LogError", "Record", "Saved", "play_back", "read_log", "read_saved", "game_reference",
           "content_digest"]
