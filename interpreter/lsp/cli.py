"""`interpret lsp`: its arguments (added to the `interpret` command by play/cli.py) and its run.

Nothing heavy is imported here at module level: the command line is built without pygls, and
`interpret lsp` without the `lsp` extra says which extra to install."""
from __future__ import annotations

EXTRA = "lsp"
NEEDS = ("pygls", "lsprotocol")


def add_parser(sub, debug_flag) -> None:
    q = sub.add_parser("lsp", help="a language server for content files, for editors (stdio by default)",
                       description="Start the language server of interpret: diagnostics as you type, completion, "
                                   "hover, go to definition, references, rename, quick fixes, semantic tokens and "
                                   "a code lens per rule, for a game's content, variants, scenarios and "
                                   "tutorials (docs/lsp.md). An editor starts it and talks to it on stdin/stdout.")
    q.add_argument("--tcp", action="store_true", help="listen on TCP instead of stdio (for debugging a client)")
    q.add_argument("--host", default="127.0.0.1", help="with --tcp: the address (default 127.0.0.1)")
    q.add_argument("--port", type=int, default=2087, help="with --tcp: the port (default 2087)")
    debug_flag(q)
    q.set_defaults(run=cmd_lsp)


def cmd_lsp(args) -> int:
    from ..play.common import require_extra
    require_extra("lsp", EXTRA, NEEDS)
    from importlib.metadata import PackageNotFoundError, version

    from .server import build
    try:
        v = version("interpret")
    except PackageNotFoundError:
        v = "0"
    server = build(v)
    if args.tcp:
        server.start_tcp(args.host, args.port)
    else:
        server.start_io()
    return 0


__all__ = ["add_parser", "cmd_lsp"]
