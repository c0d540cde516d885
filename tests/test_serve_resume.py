"""Resume after kill (issue 28): a real `interpret serve` on a free port, moves played through a real
WebSocket client, the server killed (SIGKILL), started again on the same data folder: the client
connects again and gets the same counter and picture. Tokens never reach the server's output."""
from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytest.importorskip("uvicorn")
websockets = pytest.importorskip("websockets")
httpx = pytest.importorskip("httpx")

from websockets.sync.client import connect  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent


def _lobbies(out: Path) -> list:
    text = out.read_text(errors="replace") if out.exists() else ""
    return re.findall(r"Lobby: http://127\.0\.0\.1:(\d+)/\?host=(\S+)", text)


def _start(data: Path, out: Path):
    before = len(_lobbies(out))
    f = out.open("ab")
    proc = subprocess.Popen([sys.executable, "-m", "interpreter", "serve", "--port", "0", "--data", str(data),
                             "--bot-pause", "0", "--lang", "en"], cwd=ROOT, stdout=f, stderr=subprocess.STDOUT,
                            env={**os.environ, "PYTHONPATH": str(ROOT)})
    deadline = time.time() + 120
    while time.time() < deadline:
        found = _lobbies(out)
        if len(found) > before:
            return proc, int(found[-1][0]), found[-1][1]
        if proc.poll() is not None:
            break
        time.sleep(0.1)
    proc.kill()
    raise AssertionError("the server did not start:\n" + out.read_text(errors="replace"))


def _hello(port, tid, seat, token):
    ws = connect(f"ws://127.0.0.1:{port}/ws/{tid}", open_timeout=30)
    ws.send(json.dumps({"type": "join", "seat": seat, "token": token}))
    return ws, json.loads(ws.recv(timeout=30))


def test_a_killed_server_resumes_every_table(tmp_path):
    data, out = tmp_path / "tables", tmp_path / "server.out"
    proc, port, host = _start(data, out)
    try:
        r = httpx.post(f"http://127.0.0.1:{port}/api/tables", headers={"X-Host-Token": host}, timeout=30,
                       json={"game": "dark-agent", "players": 3, "seats": ["human", "bot:easy", "bot:easy"]})
        assert r.status_code == 201, r.text
        tid = r.json()["table"]
        link = r.json()["seats"][0]["link"]
        token = link.split("token=")[1]
        assert httpx.get(link, timeout=30).status_code in (200, 404)  # the page (the link is not logged)
        ws, hello = _hello(port, tid, 1, token)
        counter, played = hello["counter"], 0
        deadline = time.time() + 120
        while played < 4 and time.time() < deadline:  # the human plays its first moves; bots answer
            msg = hello if played == 0 and hello["moves"] else json.loads(ws.recv(timeout=60))
            if msg["type"] in ("hello", "update"):
                counter = msg["counter"]
                if msg["moves"]:
                    ws.send(json.dumps({"type": "move", "counter": counter, "key": msg["moves"][0]["key"]}))
                    played += 1
                    hello = {"moves": []}
        assert played == 4
        time.sleep(1.0)  # the bots' answers to the last move
        ws.close()
        ws, before = _hello(port, tid, 1, token)
        ws.close()
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(timeout=30)
        proc, port, host2 = _start(data, out)
        assert host2 == host  # the lobby's link survives a restart
        ws, after = _hello(port, tid, 1, token)
        ws.close()
        assert after["counter"] == before["counter"] > 4
        assert after["picture"] == before["picture"] and after["history"] == before["history"]
        assert after["moves"] == before["moves"]
    finally:
        proc.kill()
        proc.wait(timeout=30)
    printed = out.read_text(errors="replace")
    assert token not in printed, "a seat's token reached the server's output"
    assert "1 resumed" in printed
