"""`interpret serve`: the web table (issue 28), the top layer, above play.

A Starlette application on uvicorn (the optional `web` extra): a lobby where the host makes
tables, a WebSocket per connection, tables played through play/'s parts (narration per viewer,
stable choice keys, refusals, undo, end screens), bots and timers, a crash-safe log per table.
Nothing here imports Starlette at module level but app.py: `interpret serve` says which extra
to install when it is missing (cli.py)."""
