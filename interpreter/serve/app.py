"""The Starlette application of `interpret serve`: the lobby's routes, the pages, the WebSocket.

    GET  /                      the lobby page            GET /t/ID   the table page
    GET  /static/...            the page's files (vendored: nothing from a CDN)
    GET  /api/games             what the lobby offers
    POST /api/tables            a new table (the host)    GET /api/tables   the tables (the host)
    POST /api/tables/ID/seats/N a seat to a bot and back (the host)
    POST /api/lessons           a guided game: a game's tutorial played in the page (the host)
    WS   /ws/ID                 a seat's or a spectator's connection (hub.py)

The host's credential is the header `X-Host-Token` or `?host=`; with `open_lobby` anyone may make
tables. docs/web.md tells the protocol.
"""
from __future__ import annotations

import contextlib
import json
from pathlib import Path

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, PlainTextResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from .guard import MAX_BODY, MAX_FRAME, same_token
from .hub import Conn, Hub, dumps
from .lobby import LobbyError
from .strings import page_strings
from ..i18n import speaking

STATIC = Path(__file__).resolve().parent / "static"
PAGES = {"lobby": "lobby.html", "table": "table.html"}


def _page(name: str):
    async def page(request: Request) -> Response:
        path = STATIC / PAGES[name]
        if not path.is_file():
            return PlainTextResponse("the web table's pages are not installed (interpreter/serve/static)", 404)
        return FileResponse(path, headers={"Cache-Control": "no-store", "Referrer-Policy": "no-referrer"})
    return page


def _problem(status: int, message: str) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status)


async def _body(request: Request):
    raw = b""
    async for chunk in request.stream():
        raw += chunk
        if len(raw) > MAX_BODY:
            raise LobbyError(f"a request is at most {MAX_BODY} bytes")
    try:
        return json.loads(raw or b"{}")
    except ValueError:
        raise LobbyError("the request is not valid JSON") from None


def build_app(hub: Hub, *, host_token: str, open_lobby: bool = False) -> Starlette:
    """The application serving `hub`'s tables."""

    def is_host(request: Request) -> bool:
        if open_lobby:
            return True
        given = request.headers.get("x-host-token") or request.query_params.get("host")
        return same_token(given, host_token)

    def link(request: Request, path: str) -> str:
        return str(request.base_url).rstrip("/") + path

    async def games(request: Request) -> Response:
        return JSONResponse(hub.games.listing())

    async def strings(request: Request) -> Response:  # the page's own words (strings.py)
        lang = request.query_params.get("lang")
        with speaking(lang if lang in ("en", "fr") else hub.lang):
            return JSONResponse(page_strings())

    async def tables(request: Request) -> Response:
        if not is_host(request):
            return _problem(403, "the lobby is the host's: open the link `interpret serve` printed")
        if request.method == "GET":
            return JSONResponse(hub.summary())
        try:
            table = hub.create(await _body(request))
        except LobbyError as e:
            return _problem(400, str(e))
        seats = [{"seat": i + 1, "kind": s.kind, "link": link(request, f"/t/{table.tid}?seat={i + 1}&token={s.token}")}
                 for i, s in enumerate(table.seats)]
        return JSONResponse({"table": table.tid, "seats": seats, "spectator": link(request, f"/t/{table.tid}")},
                            status_code=201)

    async def lessons(request: Request) -> Response:  # a guided game: {"game", "tutorial", "lang"}
        if not is_host(request):
            return _problem(403, "the lobby is the host's: open the link `interpret serve` printed")
        try:
            lesson = hub.create_lesson(await _body(request))
        except LobbyError as e:
            return _problem(400, str(e))
        seat = lesson.learner
        return JSONResponse({"table": lesson.tid, "seat": seat + 1,
                             "link": link(request, f"/t/{lesson.tid}?seat={seat + 1}&token={lesson.seats[seat].token}"),
                             "spectator": link(request, f"/t/{lesson.tid}")}, status_code=201)

    async def seat(request: Request) -> Response:
        if not is_host(request):
            return _problem(403, "the lobby is the host's: open the link `interpret serve` printed")
        try:
            body = await _body(request)
            number = int(request.path_params["seat"])
            await hub.set_seat(request.path_params["table"], number, body.get("kind") if isinstance(body, dict) else None)
        except (LobbyError, ValueError) as e:
            return _problem(404 if str(e) == "no such table" else 400, str(e))
        return JSONResponse({"table": request.path_params["table"], "seat": number,
                             "kind": hub.tables[request.path_params["table"]].seats[number - 1].kind})

    async def socket(websocket: WebSocket) -> None:
        await websocket.accept()
        conn = Conn(websocket.send_text)

        async def receive():
            try:
                message = await websocket.receive()
            except (WebSocketDisconnect, RuntimeError):
                return None
            if message["type"] == "websocket.disconnect":
                return None
            text = message.get("text")
            return text if text is not None else (message.get("bytes") or b"")

        await hub.serve(websocket.path_params["table"], conn, receive)
        try:
            await websocket.close()
        except Exception:  # already closed by the client
            pass

    @contextlib.asynccontextmanager
    async def lifespan(app):
        hub.start()
        try:
            yield
        finally:
            await hub.close()

    routes = [
        Route("/", _page("lobby")),
        Route("/t/{table}", _page("table")),
        Route("/api/games", games),
        Route("/api/strings", strings),
        Route("/api/tables", tables, methods=["GET", "POST"]),
        Route("/api/tables/{table}/seats/{seat}", seat, methods=["POST"]),
        Route("/api/lessons", lessons, methods=["POST"]),
        WebSocketRoute("/ws/{table}", socket),
        Mount("/static", StaticFiles(directory=STATIC, check_dir=False), name="static"),
    ]
    return Starlette(routes=routes, lifespan=lifespan)


__all__ = ["MAX_FRAME", "STATIC", "build_app", "dumps"]
