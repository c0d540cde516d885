"""`interpret serve`: its arguments (added to the `interpret` command by play/cli.py) and its run.

Nothing heavy is imported here at module level: the command line is built without Starlette,
and `interpret serve` without the `web` extra says which extra to install."""
from __future__ import annotations

import sys

from ..i18n import language

EXTRA = "web"
NEEDS = ("starlette", "uvicorn", "websockets")


def add_parser(sub, debug_flag, *, lang_flag) -> None:
    q = sub.add_parser("serve", help="the web table: play in the browser, with friends over the network and bots",
                       description="Start the web table's server. It prints the lobby's link (with the host's "
                                   "credential): make tables there and send each player their seat's link.")
    q.add_argument("games", nargs="*", metavar="GAME_OR_FOLDER",
                   help="content folders or variant files to offer besides the bundled games")
    q.add_argument("--host", default="127.0.0.1", help="the address to listen on (default 127.0.0.1: this "
                                                       "machine only; 0.0.0.0 opens it to the network)")
    q.add_argument("--port", type=int, default=8000, help="the port (default 8000; 0: any free port)")
    q.add_argument("--open-lobby", action="store_true", help="anyone who can reach the server may make tables "
                                                             "(default: only with the host's link)")
    q.add_argument("--data", metavar="DIR", help="where the tables are kept (default: "
                                                 "~/.local/state/interpret/tables); a restart resumes them")
    q.add_argument("--bot-pause", type=float, default=0.6, metavar="SECONDS",
                   help="a pause before each bot's move, for the humans to follow (default 0.6)")
    q.add_argument("--hard-searches", type=int, default=1, metavar="N",
                   help="how many hard bots search at once, server-wide (each uses every core; the others "
                        "wait their turn; default 1)")
    lang_flag(q)
    debug_flag(q)
    q.set_defaults(run=cmd_serve)


def cmd_serve(args) -> int:
    from ..play.common import require_extra
    require_extra("serve", EXTRA, NEEDS)
    from pathlib import Path

    import uvicorn

    from . import store
    from .app import build_app
    from .guard import quiet_logs
    from .hub import Hub, host_token
    from .lobby import Games

    data = Path(args.data).expanduser() if args.data else store.default_dir()
    hub = Hub(games=Games(args.games), data=data, lang=args.lang or language(), pause=max(args.bot_pause, 0.0),
              searches=max(args.hard_searches, 1))
    resumed = hub.resume(lambda text: print(text, file=sys.stderr, flush=True))
    token = host_token(hub.data)
    app = build_app(hub, host_token=token, open_lobby=args.open_lobby)
    quiet_logs()
    config = uvicorn.Config(app, host=args.host, port=args.port, access_log=False, log_level="warning",
                            ws_max_size=64 * 1024, ws="websockets-sansio" if _has_sansio() else "auto",
                            lifespan="on")
    server = uvicorn.Server(config)

    def announce() -> None:
        port = args.port
        for s in server.servers:  # the port chosen when --port 0
            for sock in s.sockets:
                port = sock.getsockname()[1]
                break
        shown = args.host if args.host not in ("0.0.0.0", "::") else "localhost"
        print(f"Lobby: http://{shown}:{port}/?host={token}", flush=True)
        print(f"(tables kept in {hub.data}; {resumed} resumed)", flush=True)

    import asyncio

    async def run() -> None:
        serving = asyncio.create_task(server.serve())
        while not server.started and not serving.done():
            await asyncio.sleep(0.05)
        if server.started:
            announce()
        await serving

    try:
        asyncio.run(run())
    except KeyboardInterrupt:
        pass
    return 0 if server.started else 1


def _has_sansio() -> bool:
    try:
        from uvicorn.protocols.websockets import websockets_sansio_impl  # noqa: F401
        return True
    except ImportError:
        return False


__all__ = ["add_parser", "cmd_serve"]
