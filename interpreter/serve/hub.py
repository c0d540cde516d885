"""The server's tables and who is connected to them: moves, bots, timers, and what each client is sent.

One asyncio lock per table: every change of a table (a move, an undo, a bot's move, a seat handed
to a bot) happens under it, and the messages of a change are queued for every connection before
the lock is released, so each client sees the changes in order. A connection's messages go out
through its own queue and writer (a slow client never holds a table); one that falls too far
behind is closed, and reconnects like anyone: "connect again" sends `hello`.

Bots search in worker threads (the `hard` level's search uses processes of its own,
agents/parallel.py), from a copy of the state taken under the lock; the move is played only if
the table has not changed meanwhile. A random bot (`easy`, and chance) plays at once.
"""
from __future__ import annotations

import asyncio
import json
import logging
import os
import secrets
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from ..i18n import LANGUAGES
from ..play.common import HUMAN
from . import store
from .guard import BadMessage, Bucket, counter_of, read_message, same_token, text_field
from .lesson import Lesson, LessonError, start_lesson
from .lobby import Games, LobbyError
from .table import Seat, Table, check_kind, new_token

log = logging.getLogger("interpret.serve")

QUEUE_LIMIT = 256  # messages waiting for one client: beyond, it is closed (it reconnects)


def dumps(msg: dict) -> str:
    return json.dumps(msg, ensure_ascii=False, separators=(",", ":"))


def error(code: str, message: str) -> str:
    return dumps({"type": "error", "code": code, "message": message})


class Conn:
    """One WebSocket client: its seat once joined (None: a spectator), its queue, its bucket."""

    def __init__(self, send):
        self.send = send  # async (text) -> None
        self.queue: asyncio.Queue = asyncio.Queue()
        self.bucket = Bucket()
        self.joined = False
        self.seat: int | None = None
        self.lang: str | None = None  # the language it asked for in `join` (None: the table's)
        self.closed = False

    def put(self, text: str) -> None:
        if self.closed:
            return
        if self.queue.qsize() >= QUEUE_LIMIT:
            self.closed = True  # too far behind: dropped, it will connect again
            self.queue.put_nowait(None)
            return
        self.queue.put_nowait(text)

    async def writer(self) -> None:
        while True:
            text = await self.queue.get()
            if text is None:
                return
            try:
                await self.send(text)
            except Exception:  # the client went away
                self.closed = True
                return


class Hub:
    """Every table of a server, its connections, bots and timers."""

    def __init__(self, *, games: Games, data: Path | None, lang: str, pause: float = 0.0, workers: int = 2,
                 searches: int = 1):
        self.games = games
        self.data = store.prepare(data) if data is not None else None
        self.lang = lang
        self.pause = pause  # seconds between two bots' moves, for humans to follow
        self.tables: dict[str, Table] = {}
        self.locks: dict[str, asyncio.Lock] = {}
        self.conns: dict[str, set[Conn]] = {}
        self.deadlines: dict[str, tuple[int, int]] = {}  # table -> (counter, deadline in ms since the epoch)
        self.tasks: dict[tuple[str, str], asyncio.Task] = {}  # (table, "bots"|"timer") -> its task
        self.executor = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="bot")
        # the hard bots' searches (each on every core) at once, server-wide; the others wait their turn
        self.searches = asyncio.Semaphore(max(searches, 1))
        self.searching, self.searching_peak = 0, 0

    # -- tables

    def resume(self, warn) -> int:
        """Every table kept in the data folder, back (each bad one skipped with a message)."""
        if self.data is None:
            return 0
        for tid, table in store.load_all(self.data, self._load_kept, warn).items():
            self._add(table)
        return len(self.tables)

    def _load_kept(self, ref, *, players, options, variants, lang):
        if ref not in self.games.refs.values():
            raise store.BadTable(f"the game {ref!r} is not served now (give it to `interpret serve`)")
        return self.games.load(ref, players=players, options=options, variants=variants, lang=lang)

    def _add(self, table: Table) -> None:
        if not isinstance(table, Lesson):  # a seat may ask for its own language: the game loaded in it
            table.load_game = lambda lang: self.games.load(table.ref, players=table.game.num_players,
                                                           options=table.options, variants=table.variants, lang=lang)
        self.tables[table.tid] = table
        self.locks[table.tid] = asyncio.Lock()
        self.conns[table.tid] = set()

    def create(self, body) -> Table:
        """A new table from a lobby request (LobbyError when it asks for the impossible)."""
        if not isinstance(body, dict):
            raise LobbyError("the request is a JSON object")
        ref = self.games.check(body.get("game"), body.get("variants", []) or [])
        variants = list(body.get("variants") or [])
        players = body.get("players")
        options = body.get("options") or {}
        if not isinstance(options, dict) or not all(isinstance(k, str) and isinstance(v, (str, int, float, bool))
                                                    for k, v in options.items()):
            raise LobbyError("options are {name: value}")
        options = {k: str(v).lower() if isinstance(v, bool) else str(v) for k, v in options.items()}
        lang = body.get("lang") or self.lang
        if lang not in ("en", "fr"):
            raise LobbyError("lang is en or fr")
        timer = body.get("timer")
        if timer is not None and (type(timer) not in (int, float) or not 1 <= timer <= 86400):
            raise LobbyError("timer is null or seconds (1 to 86400)")
        if players is not None and type(players) is not int:
            raise LobbyError("players is a number")
        try:
            game = self.games.load(ref, players=players, options=options, variants=variants, lang=lang)
        except LobbyError:
            raise
        except Exception as e:
            raise LobbyError(str(e).splitlines()[0] if str(e) else type(e).__name__) from None
        kinds = body.get("seats") or [HUMAN] * game.num_players
        if not isinstance(kinds, list) or len(kinds) != game.num_players:
            raise LobbyError(f"seats: one kind per seat ({game.num_players})")
        try:
            seats = [Seat(check_kind(k), new_token()) for k in kinds]
        except ValueError as e:
            raise LobbyError(str(e)) from None
        seed = body.get("seed")  # a chosen deal (tests); else a secret one
        if seed is None:
            seed = secrets.randbelow(1_000_000_000)
        elif type(seed) is not int or not 0 <= seed < 2**63:
            raise LobbyError("seed is a whole number")
        tid = secrets.token_urlsafe(9)
        table = Table(tid=tid, game=game, ref=ref, variants=variants, options=options,
                      seed=seed, seats=seats, timer=timer, lang=lang)
        if self.data is not None:
            store.start_log(self.data, table)
        self._add(table)
        self.kick(tid)
        return table

    def create_lesson(self, body) -> Table:
        """A guided game from the lobby: `{"game", "tutorial", "lang"}` (LobbyError when it cannot be)."""
        if not isinstance(body, dict):
            raise LobbyError("the request is a JSON object")
        lang = body.get("lang") or self.lang
        if lang not in ("en", "fr"):
            raise LobbyError("lang is en or fr")
        try:
            lesson = start_lesson(self.games, tid=secrets.token_urlsafe(9), name=body.get("game"),
                                  tutorial=body.get("tutorial"), lang=lang)
        except LessonError as e:
            raise LobbyError(str(e)) from None
        self._add(lesson)
        return lesson

    def summary(self) -> list[dict]:
        out = []
        for tid, t in self.tables.items():
            connected = [0] * t.game.num_players
            spectators = 0
            for c in self.conns[tid]:
                if c.joined and c.seat is not None:
                    connected[c.seat] += 1
                elif c.joined:
                    spectators += 1
            out.append({"table": tid, "game": t.game.catalog.name, "title": t.game.title, "counter": t.counter,
                        "ended": t.over(), "spectators": spectators,
                        "seats": [{"seat": i + 1, "name": t.game.seats[i].name, "kind": s.kind,
                                   "connected": connected[i] > 0} for i, s in enumerate(t.seats)]})
        return out

    async def set_seat(self, tid: str, seat: int, kind) -> None:
        """The host hands a seat to a bot, or back to its human."""
        table = self.tables.get(tid)
        if table is None:
            raise LobbyError("no such table")
        if type(seat) is not int or not 1 <= seat <= len(table.seats):
            raise LobbyError(f"seats are 1 to {len(table.seats)}")
        if isinstance(table, Lesson):
            raise LobbyError("a guided game's seats are the tutorial's")
        try:
            kind = check_kind(kind)
        except ValueError as e:
            raise LobbyError(str(e)) from None
        async with self.locks[tid]:
            table.seats[seat - 1].kind = kind
            if self.data is not None:
                store.save_settings(self.data, table)
            since = table.marks()
            self._broadcast(table, since)
        self.kick(tid)

    # -- connections

    async def serve(self, tid: str, conn: Conn, receive) -> None:
        """A connection's life: `receive()` gives each frame (None: the client left)."""
        writer = asyncio.create_task(conn.writer())
        try:
            table = self.tables.get(tid)
            if table is None:
                conn.put(error("unknown-table", "there is no such table (ask the host for a new link)"))
                return
            self.conns[tid].add(conn)
            while not conn.closed:
                frame = await receive()
                if frame is None:
                    return
                if not conn.bucket.allow():
                    if conn.bucket.dropped == 1:
                        conn.put(error("rate", "too many messages: some were dropped"))
                    if conn.bucket.flooding:
                        return
                    continue
                try:
                    await self.handle(table, conn, read_message(frame))
                except BadMessage as e:
                    conn.put(error(e.code, e.message))
                except Exception:  # a bug must not take the server down: this client is told
                    log.exception("table %s: a message could not be handled", tid)
                    conn.put(error("internal", "the server could not handle this message"))
        finally:
            self.conns.get(tid, set()).discard(conn)
            conn.put(None)
            await writer

    async def handle(self, table: Table, conn: Conn, msg: dict) -> None:
        kind = msg["type"]
        if kind == "ping":
            conn.put(dumps({"type": "pong"}))
            return
        if kind == "join":
            self._join(table, conn, msg)
            return
        if not conn.joined:
            raise BadMessage("not-joined", "the first message is `join`")
        if conn.seat is None:
            raise BadMessage("not-seated", "a spectator watches: only a seat plays")
        async with self.locks[table.tid]:
            if kind == "why":
                conn.put(dumps(table.voice(conn.lang).why(conn.seat, text_field(msg, "text") or "")))
                return
            counter = counter_of(msg)
            if counter != table.counter:
                raise BadMessage("stale", f"the table has moved on (counter {table.counter}): look again")
            if kind == "move":
                await self._move(table, conn, msg)
            elif kind == "undo":
                self._undo(table, conn)

    def _join(self, table: Table, conn: Conn, msg: dict) -> None:
        if conn.joined:
            raise BadMessage("joined", "this connection has joined already")
        seat = msg.get("seat")
        if seat is not None:
            if type(seat) is not int or not 1 <= seat <= len(table.seats):
                raise BadMessage("bad-seat", f"seats are 1 to {len(table.seats)}, or null to watch")
            if not same_token(msg.get("token"), table.seats[seat - 1].token):
                raise BadMessage("bad-token", "this link's credential is not this seat's")
            seat -= 1
        lang = msg.get("lang")
        conn.joined, conn.seat, conn.lang = True, seat, lang if lang in LANGUAGES else None
        view = table.voice(conn.lang)
        conn.put(dumps(view.hello(seat, deadline_ms=self._deadline(table))))
        if table.over():
            conn.put(dumps(view.end()))

    async def _move(self, table: Table, conn: Conn, msg: dict) -> None:
        key, text = text_field(msg, "key", limit=16), text_field(msg, "text")
        if key is None and text is None:
            raise BadMessage("bad-message", "a move gives a `key` (as listed) or a `text`")
        action, refused = table.voice(conn.lang).find(conn.seat, key=key, text=text)
        if refused is not None:
            conn.put(dumps(refused))
            return
        since = table.marks()
        table.play(action)
        self._broadcast(table, since)
        self.kick(table.tid)

    def _undo(self, table: Table, conn: Conn) -> None:
        view = table.voice(conn.lang)
        why = view.why_no_undo(conn.seat)
        if why is not None:
            conn.put(dumps({"type": "refused", "counter": table.counter, "text": view.cannot_undo(why),
                            "reasons": [why]}))
            return
        table.undo(conn.seat)
        if self.data is not None:
            store.save_settings(self.data, table)
        for c in list(self.conns[table.tid]):  # the narration was told again: everyone looks again
            if c.joined:
                c.put(dumps(table.voice(c.lang).hello(c.seat, deadline_ms=self._deadline(table))))
        self.kick(table.tid)

    def _broadcast(self, table: Table, since: dict) -> None:
        """Each joined client's update (one text per viewer, shared by its connections), then the
        end screen when the game is over."""
        texts: dict = {}
        self.kick(table.tid)  # the next decision's timer first: the update tells its deadline
        deadline = self._deadline(table)
        over = table.over()
        for c in list(self.conns[table.tid]):
            if not c.joined:
                continue
            view = table.voice(c.lang)
            if (view.lang, c.seat) not in texts:
                texts[(view.lang, c.seat)] = dumps(view.update(c.seat, since, deadline_ms=deadline))
            c.put(texts[(view.lang, c.seat)])
            if over:
                if view.lang not in texts:
                    texts[view.lang] = dumps(view.end())
                c.put(texts[view.lang])

    # -- bots and timers

    def _deadline(self, table: Table) -> int | None:
        held = self.deadlines.get(table.tid)
        return held[1] if held is not None and held[0] == table.counter else None

    def kick(self, tid: str) -> None:
        """After a change: a bot to play, or a timer to start, if the table needs one."""
        table = self.tables[tid]
        if table.waiting_on_bot():
            task = self.tasks.get((tid, "bots"))
            if task is None or task.done():
                self.tasks[(tid, "bots")] = asyncio.get_running_loop().create_task(self._bots(tid))
        elif table.timer and table.deciding() is not None:
            held = self.deadlines.get(tid)
            if held is None or held[0] != table.counter:
                deadline = int(time.time() * 1000 + table.timer * 1000)
                self.deadlines[tid] = (table.counter, deadline)
                old = self.tasks.get((tid, "timer"))
                if old is not None and not old.done():
                    old.cancel()
                self.tasks[(tid, "timer")] = asyncio.get_running_loop().create_task(
                    self._timer(tid, table.counter, table.timer))

    async def _bots(self, tid: str) -> None:
        try:
            await self._bots_play(tid)
        except asyncio.CancelledError:
            raise
        except Exception:  # a bot that fails leaves its table waiting; the server goes on
            log.exception("table %s: a bot could not play", tid)

    async def _bots_play(self, tid: str) -> None:
        table, lock = self.tables[tid], self.locks[tid]
        loop = asyncio.get_running_loop()
        while True:
            if self.pause:
                await asyncio.sleep(self.pause)
            async with lock:
                if not table.waiting_on_bot():
                    break
                counter, search = table.snapshot()
                action = search() if table.is_quick_bot() else None
                searching = table.is_searching_bot()
            if action is None and searching:
                action = await self._search(search)
            elif action is None:
                action = await loop.run_in_executor(self.executor, search)
            async with lock:
                if table.counter != counter or not table.waiting_on_bot():
                    continue
                since = table.marks()
                table.play(action)
                self._broadcast(table, since)
            await asyncio.sleep(0)  # the other tables and clients get their turn
        self.kick(tid)

    async def _search(self, search):
        """A hard bot's search, when no more than `searches` others run (server-wide, in the order asked)."""
        async with self.searches:
            self.searching += 1
            self.searching_peak = max(self.searching_peak, self.searching)
            try:
                return await asyncio.get_running_loop().run_in_executor(self.executor, search)
            finally:
                self.searching -= 1

    async def _timer(self, tid: str, counter: int, seconds: float) -> None:
        await asyncio.sleep(seconds)
        table, lock = self.tables[tid], self.locks[tid]
        async with lock:
            if table.counter != counter or table.deciding() is None:
                return
            _counter, search = table.snapshot()  # the seat's time is up: the normal bot plays for it
        action = await asyncio.get_running_loop().run_in_executor(self.executor, search)
        async with lock:
            if table.counter != counter:
                return
            since = table.marks()
            table.play(action)
            self._broadcast(table, since)
        self.kick(tid)

    def start(self) -> None:
        """At start-up (in the event loop): the bots and timers of the tables resumed."""
        for tid in self.tables:
            self.kick(tid)

    async def close(self) -> None:
        for task in self.tasks.values():
            task.cancel()
        for t in self.tables.values():
            if t.log is not None:
                try:
                    t.log.close()
                except Exception:
                    pass
        self.executor.shutdown(wait=False, cancel_futures=True)


def host_token(data: Path | None) -> str:
    """The lobby's credential: kept in the data folder (owner-only) so that a restart keeps the link."""
    if data is None:
        return new_token()
    path = data / "host.token"
    try:
        text = path.read_text(encoding="utf-8").strip()
        if len(text) >= 16:
            return text
    except OSError:
        pass
    token = new_token()
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    try:
        os.write(fd, token.encode())
    finally:
        os.close(fd)
    return token


__all__ = ["Conn", "Hub", "dumps", "error", "host_token"]
