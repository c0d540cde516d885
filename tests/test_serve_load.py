"""Load (issue 28): a real `interpret serve` on loopback holds 50 tables and 200 connected clients.

Each table (tic-tac-toe and connect-four in turn) has two seats played by clients choosing random
moves and two spectators. Measured: the latency from a move sent to the moment every client of the
table has its update (p50, p99), and the server's memory per table (its RSS after the tables were
made and joined, less before, over the tables). The figures are printed:

    python -m pytest -p no:cacheprovider -n 0 -s -m load tests/test_serve_load.py
    SERVE_LOAD_TABLES=200 python -m pytest -p no:cacheprovider -n 0 -s -m load tests/test_serve_load.py

Bounded (one game per table, two minutes at most), it runs with the suite (marker `load`).
"""
from __future__ import annotations

import asyncio
import json
import os
import random
import statistics
import time

import pytest

pytest.importorskip("uvicorn")
pytest.importorskip("websockets")
httpx = pytest.importorskip("httpx")

from test_serve_resume import _start  # noqa: E402  (a real server on a free port)

TABLES = int(os.environ.get("SERVE_LOAD_TABLES", "50"))
GAMES = ["tic-tac-toe", "connect-four"]


def _rss_kb(pid: int) -> int:
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


async def _table(port, tid, tokens, rng, latencies):
    from websockets.asyncio.client import connect
    url = f"ws://127.0.0.1:{port}/ws/{tid}"
    clients = []
    for seat, token in [(1, tokens[0]), (2, tokens[1]), (None, None), (None, None)]:
        ws = await connect(url, open_timeout=60, max_size=2 ** 22)
        await ws.send(json.dumps({"type": "join", "seat": seat, "token": token}))
        clients.append((seat, ws, json.loads(await ws.recv())))
    state = {seat: hello for seat, _ws, hello in clients if seat}
    counter = clients[0][2]["counter"]
    for _ in range(60):
        decider = next((s for s, msg in state.items() if msg.get("moves")), None)
        if decider is None:
            break
        ws = next(w for s, w, _h in clients if s == decider)
        sent = time.perf_counter()
        await ws.send(json.dumps({"type": "move", "counter": counter,
                                  "key": rng.choice(state[decider]["moves"])["key"]}))
        for seat, w, _h in clients:
            while True:
                msg = json.loads(await asyncio.wait_for(w.recv(), 60))
                if msg["type"] == "update":
                    break
            if seat:
                state[seat] = msg
        latencies.append(time.perf_counter() - sent)
        counter = msg["counter"]
    for _seat, w, _h in clients:
        await w.close()
    return len(clients)


@pytest.mark.load
def test_fifty_tables_and_two_hundred_clients(tmp_path):
    proc, port, host = _start(tmp_path / "tables", tmp_path / "server.out")
    try:
        base = _rss_kb(proc.pid)
        made = []
        for i in range(TABLES):
            r = httpx.post(f"http://127.0.0.1:{port}/api/tables", headers={"X-Host-Token": host}, timeout=60,
                           json={"game": GAMES[i % len(GAMES)], "seats": ["human", "human"]})
            assert r.status_code == 201, r.text
            made.append((r.json()["table"], [s["link"].split("token=")[1] for s in r.json()["seats"]]))
        latencies: list = []

        async def everything():
            rng = random.Random(50)
            return await asyncio.gather(*[_table(port, tid, tokens, random.Random(rng.random()), latencies)
                                          for tid, tokens in made])

        started = time.perf_counter()
        clients = asyncio.run(asyncio.wait_for(everything(), 240))
        took = time.perf_counter() - started
        per_table = (_rss_kb(proc.pid) - base) / TABLES
        assert proc.poll() is None, "the server died"
    finally:
        proc.kill()
        proc.wait(timeout=30)
    q = statistics.quantiles(latencies, n=100)
    print(f"\nload: {TABLES} tables, {sum(clients)} clients, {len(latencies)} moves in {took:.1f} s; "
          f"move to every client's update p50 {q[49] * 1000:.1f} ms, p99 {q[98] * 1000:.1f} ms; "
          f"memory {per_table:.0f} KiB a table (RSS delta / tables)")
    assert sum(clients) >= 4 * TABLES and len(latencies) >= 5 * TABLES
