"""Where the tables are kept: two files per table in the server's data folder, both crash-safe.

- `ID.jsonl`: the game's log in play's format (play/replay.py: header, then an action per line),
  each line on the disk (fsync) before the table goes on; an undo cuts it. `interpret replay`
  reads it, and `interpret play --resume` can go on with it at a terminal.
- `ID.table.json`: the table's settings that a play log does not hold (the seats' kinds and
  tokens, the timer, the language, the counter's undos), written to a temporary file, synced,
  then renamed over the old one: it is always the old or the new, never half of one. It holds
  the seats' credentials: owner-only (0600), in a folder of the owner's.

What comes back from the disk is input: `load_all` checks each table, plays its log back with
`replay`'s checker (a log `replay` refuses is refused), and skips a bad one with a message saying
why (its files left as they were), never stopping the server.
"""
from __future__ import annotations

import json
import os
import re
from pathlib import Path

from ..errors import InterpretError
from ..play.replay import LogError, LogWriter, play_back, read_saved
from .table import Seat, Table, agent_spec, check_kind

SETTINGS = ".table.json"
MAX_SETTINGS_BYTES = 64 * 1024
TABLE_ID = re.compile(r"[A-Za-z0-9_-]{6,40}")


def default_dir() -> Path:
    """The user's state folder, as `interpret play` keeps its saved games there."""
    base = Path(os.environ.get("XDG_STATE_HOME") or Path.home() / ".local" / "state")
    return base / "interpret" / "tables"


def prepare(folder: Path) -> Path:
    try:
        folder.mkdir(parents=True, exist_ok=True, mode=0o700)
    except OSError as e:
        raise InterpretError(f"{folder}: cannot keep the tables there: {e.strerror or e}") from None
    return folder


def _settings(table: Table) -> dict:
    return {"table": table.tid, "game": table.ref, "players": table.game.num_players, "variants": table.variants,
            "options": table.options, "seed": table.seed, "lang": table.lang, "timer": table.timer,
            "seats": [{"kind": s.kind, "token": s.token} for s in table.seats],
            "undone": table.undone, "undos": table.undos}


def save_settings(folder: Path, table: Table) -> None:
    """Write `ID.table.json` whole or not at all: a temporary file, synced, renamed over the old."""
    path = folder / f"{table.tid}{SETTINGS}"
    tmp = path.with_name(path.name + ".tmp")
    data = json.dumps(_settings(table), ensure_ascii=False, indent=1).encode()
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    try:
        os.write(fd, data)
        os.fsync(fd)
    finally:
        os.close(fd)
    os.replace(tmp, path)
    try:  # the rename itself on the disk
        dfd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(dfd)
        finally:
            os.close(dfd)
    except OSError:
        pass


def start_log(folder: Path, table: Table) -> None:
    """A new table's log (header written and synced) and its settings."""
    table.log = LogWriter(folder / f"{table.tid}.jsonl", game=table.ref, players=table.game.num_players,
                          options=table.options, seed=table.seed, seats=[agent_spec(s.kind, table.levels) for s in table.seats],
                          variants=table.variants, sync=True)
    table.history.log = table.log
    save_settings(folder, table)


class BadTable(Exception):
    """A table's files that cannot be resumed: the message says why."""


def _read_settings(path: Path) -> dict:
    try:
        with open(path, "rb") as f:
            raw = f.read(MAX_SETTINGS_BYTES + 1)
    except OSError as e:
        raise BadTable(f"cannot read it: {e.strerror or e}") from None
    if len(raw) > MAX_SETTINGS_BYTES:
        raise BadTable("too large for a table's settings")
    try:
        s = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as e:
        raise BadTable(f"not JSON ({e})") from None
    checks = [
        (isinstance(s, dict), "not a JSON object"),
        (isinstance(s.get("table"), str) and TABLE_ID.fullmatch(s["table"] or ""), "no valid `table` id"),
        (isinstance(s.get("game"), str) and s["game"], "no `game`"),
        (type(s.get("players")) is int and 0 < s["players"] <= 64, "no valid `players`"),
        (type(s.get("seed")) is int, "no valid `seed`"),
        (isinstance(s.get("variants"), list) and all(isinstance(v, str) for v in s["variants"]), "bad `variants`"),
        (isinstance(s.get("options"), dict), "bad `options`"),
        (isinstance(s.get("lang"), str), "bad `lang`"),
        (s.get("timer") is None or (type(s["timer"]) in (int, float) and 0 < s["timer"] <= 86400), "bad `timer`"),
        (isinstance(s.get("seats"), list) and len(s["seats"]) == s.get("players")
         and all(isinstance(x, dict) and isinstance(x.get("token"), str) and len(x["token"]) >= 16
                 for x in s["seats"]), "bad `seats`"),
        (type(s.get("undone", 0)) is int and type(s.get("undos", 0)) is int, "bad undo counts"),
    ] if isinstance(s, dict) else [(False, "not a JSON object")]
    for ok, why in checks:
        if not ok:
            raise BadTable(why)
    if path.name != f"{s['table']}{SETTINGS}":
        raise BadTable(f"its `table` ({s['table']}) is not its file's name")
    return s


def load_table(folder: Path, path: Path, load_game) -> Table:
    """A table read back from its two files. Its log is read and played back by `replay`'s own checker
    (`replay.read_saved`, `replay.play_back`) before the table is built: a log `interpret replay`
    would refuse is refused here, at its line, and the files are left as they were. A last line cut
    off by a crash is cut from the log only once the table is accepted."""
    s = _read_settings(path)
    try:
        seats = [Seat(check_kind(x.get("kind")), x["token"]) for x in s["seats"]]
    except ValueError as e:
        raise BadTable(str(e)) from None
    log_path = folder / f"{s['table']}.jsonl"
    try:
        saved = read_saved(log_path)
    except LogError as e:
        raise BadTable(str(e)) from None
    rec = saved.record
    if (rec.seed, rec.players, rec.options) != (s["seed"], s["players"], s["options"]):
        raise BadTable(f"{log_path.name} is the log of another game (its seed, players or options differ)")
    try:
        game = load_game(s["game"], players=s["players"], options=s["options"], variants=s["variants"], lang=s["lang"])
        play_back(game, rec, log_path.name, game.new_game(seed=s["seed"]))  # each line as `replay` checks it
        table = Table(tid=s["table"], game=game, ref=s["game"], variants=s["variants"], options=s["options"],
                      seed=s["seed"], seats=seats, timer=s["timer"], lang=s["lang"])
        table.undone, table.undos = s.get("undone", 0), s.get("undos", 0)
        for _line, _who, text in rec.actions:
            table.play_again(text)
    except BadTable:
        raise
    except (InterpretError, ValueError) as e:
        raise BadTable(str(e)) from None
    _check_result(log_path.name, rec.result, table.result)
    table.log = LogWriter(log_path, game=s["game"], players=s["players"], options=s["options"], seed=s["seed"],
                          seats=[], sync=True, resume=saved.offsets, keep=saved.keep)
    table.history.log = table.log
    return table


def _check_result(name: str, recorded: dict | None, result: dict | None) -> None:
    """The result a log records is the one its moves reach (as `replay` checks it)."""
    if recorded is None:
        return
    if result is None:
        raise BadTable(f"{name}: it records a result, but its moves do not end the game")
    mine = json.loads(json.dumps(result, default=str))
    if mine != json.loads(json.dumps({k: recorded.get(k) for k in mine}, default=str)):
        raise BadTable(f"{name}: its moves do not reach the result it records")


def load_all(folder: Path, load_game, warn) -> dict[str, Table]:
    """Every table kept in `folder`, by id; `warn(text)` is told of each one skipped, and why."""
    out = {}
    for path in sorted(folder.glob(f"*{SETTINGS}")):
        try:
            table = load_table(folder, path, load_game)
        except BadTable as e:
            warn(f"{path}: skipped, cannot resume this table: {e}")
            continue
        except Exception as e:  # a table that cannot come back must not keep the others away
            warn(f"{path}: skipped, cannot resume this table: {type(e).__name__}: {e}")
            continue
        out[table.tid] = table
    return out


__all__ = ["BadTable", "default_dir", "load_all", "load_table", "prepare", "save_settings", "start_log"]
