"""The web table's protocol through Starlette's TestClient (issue 28): the lobby, joining, moves by
key and by text, refusals with their reasons, stale counters, undo's policy, spectators, the end
screen, a seat handed to a bot and back, turn timers; credentials and bad input."""
from __future__ import annotations

import json
import random
import time

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")

from starlette.testclient import TestClient  # noqa: E402

from interpreter.serve.app import build_app  # noqa: E402
from interpreter.serve.hub import Hub  # noqa: E402
from interpreter.serve.lobby import Games  # noqa: E402

HOST = "the-host-token-for-tests-0123456789"


@pytest.fixture()
def client():
    hub = Hub(games=Games(), data=None, lang="en")
    with TestClient(build_app(hub, host_token=HOST)) as c:
        c.hub = hub
        yield c


def _table(client, game="tic-tac-toe", seats=("human", "human"), **more):
    r = client.post("/api/tables", json={"game": game, "seats": list(seats), **more}, headers={"X-Host-Token": HOST})
    assert r.status_code == 201, r.text
    t = r.json()
    t["tokens"] = [s["link"].split("token=")[1] for s in t["seats"]]
    return t


def _join(ws, seat, token):
    ws.send_text(json.dumps({"type": "join", "seat": seat, "token": token, "lang": "en"}))
    return ws.receive_json()


def test_the_lobby_is_the_hosts(client):
    assert client.post("/api/tables", json={"game": "tic-tac-toe"}).status_code == 403
    assert client.post("/api/tables", json={"game": "tic-tac-toe"}, headers={"X-Host-Token": "nope"}).status_code == 403
    assert client.get("/api/tables").status_code == 403
    assert client.get(f"/api/tables?host={HOST}").status_code == 200
    games = {g["name"]: g for g in client.get("/api/games").json()}
    assert games["dark-agent"]["players"] == [2, 4] and games["dark-agent"]["bots"] == ["easy", "normal", "hard"]
    assert any(v["name"] == "teams" for v in games["dark-agent"]["variants"])
    for body in ({"game": "chess"}, {"game": "tic-tac-toe", "seats": ["human"]}, {"game": "tic-tac-toe", "variants": ["x"]},
                 {"game": "tic-tac-toe", "seats": ["human", "bot:genius"]}, [], {"game": "tic-tac-toe", "timer": -1}):
        r = client.post("/api/tables", json=body, headers={"X-Host-Token": HOST})
        assert r.status_code == 400 and r.json()["error"], body


def test_two_players_play_tic_tac_toe_to_the_end(client):
    t = _table(client)
    tid = t["table"]
    with client.websocket_connect(f"/ws/{tid}") as one, client.websocket_connect(f"/ws/{tid}") as two, \
            client.websocket_connect(f"/ws/{tid}") as watcher:
        h1, h2 = _join(one, 1, t["tokens"][0]), _join(two, 2, t["tokens"][1])
        hw = _join(watcher, None, None)
        assert h1["type"] == h2["type"] == hw["type"] == "hello"
        assert h1["seat"] == 1 and hw["seat"] is None and h1["counter"] == 0
        assert [m["key"] for m in h1["moves"]][:2] == ["a1", "a2"] and h2["moves"] == [] and hw["moves"] == []
        assert h1["layout"]["grid"]["rows"] == [1, 2, 3] and h1["picture"]["turn"] == 1
        assert "seed" not in json.dumps(h1) and t["tokens"][0] not in json.dumps(h1)
        players = {1: one, 2: two}
        counter, seat, moves = 0, 1, h1["moves"]
        for cell in ["r1c1", "r2c1", "r1c2", "r2c2"]:  # X takes the first row, O the second
            move = next(m for m in moves if m["places"] == [cell])
            players[seat].send_text(json.dumps({"type": "move", "counter": counter, "key": move["key"]}))
            updates = [ws.receive_json() for ws in (one, two, watcher)]
            assert all(u["type"] == "update" and u["counter"] == counter + 1 for u in updates), updates
            assert updates[0]["last"] == {"seat": seat, "label": move["label"], "marks": [cell]}
            assert updates[0]["events"] and updates[2]["picture"]["cells"][cell]["cards"]
            counter, seat = counter + 1, 3 - seat
            moves = updates[seat - 1]["moves"]
            assert moves and updates[2 - seat]["moves"] == []
        players[seat].send_text(json.dumps({"type": "move", "counter": counter, "text": "X marks r1c3"}))
        finals = [ws.receive_json() for ws in (one, two, watcher)]
        assert all(f["type"] == "update" for f in finals)
        ends = [ws.receive_json() for ws in (one, two, watcher)]
        assert all(e["type"] == "end" and e["lines"][0].startswith("Game over after 5 decisions") for e in ends)
        assert any("X wins." in line for line in ends[0]["lines"])


def test_refusals_stale_counters_and_who_may_move(client):
    t = _table(client)
    with client.websocket_connect(f"/ws/{t['table']}") as one, client.websocket_connect(f"/ws/{t['table']}") as two:
        _join(one, 1, t["tokens"][0])
        _join(two, 2, t["tokens"][1])
        two.send_text(json.dumps({"type": "move", "counter": 0, "key": "a1"}))
        r = two.receive_json()
        assert r["type"] == "refused" and r["reasons"] == ["it is not your decision now"]
        one.send_text(json.dumps({"type": "move", "counter": 0, "key": "z9"}))
        assert one.receive_json()["type"] == "refused"
        one.send_text(json.dumps({"type": "move", "counter": 0, "key": "a1"}))
        one.receive_json(), two.receive_json()
        two.send_text(json.dumps({"type": "move", "counter": 0, "key": "a2"}))  # an old counter
        assert two.receive_json()["code"] == "stale"
        two.send_text(json.dumps({"type": "why", "text": "O marks r1c1"}))
        r = two.receive_json()
        assert r["type"] == "refused" and r["reasons"] and "r1c1" not in r["reasons"][0] or r["reasons"]


def test_undo_under_the_terminals_policy(client):
    t = _table(client)
    with client.websocket_connect(f"/ws/{t['table']}") as one, client.websocket_connect(f"/ws/{t['table']}") as two:
        _join(one, 1, t["tokens"][0])
        _join(two, 2, t["tokens"][1])
        two.send_text(json.dumps({"type": "undo", "counter": 0}))
        assert two.receive_json()["reasons"] == ["you have no decision to take back"]
        one.send_text(json.dumps({"type": "move", "counter": 0, "key": "a1"}))
        one.receive_json(), two.receive_json()
        one.send_text(json.dumps({"type": "undo", "counter": 1}))  # nobody decided since: taken back
        h1, h2 = one.receive_json(), two.receive_json()
        assert h1["type"] == h2["type"] == "hello" and h1["counter"] == 2 and h1["picture"]["turn"] == 1
        assert h1["history"] == [] or all(e["n"] == 0 for e in h1["history"])
        one.send_text(json.dumps({"type": "move", "counter": 2, "key": "a1"}))
        one.receive_json(), two.receive_json()
        two.send_text(json.dumps({"type": "move", "counter": 3, "key": "a1"}))
        one.receive_json(), two.receive_json()
        one.send_text(json.dumps({"type": "undo", "counter": 4}))  # O decided since: never another's move
        r = one.receive_json()
        assert r["type"] == "refused" and r["counter"] == 4


def test_a_seat_handed_to_a_bot_and_back(client):
    t = _table(client)
    tid = t["table"]
    with client.websocket_connect(f"/ws/{tid}") as one:
        _join(one, 1, t["tokens"][0])
        r = client.post(f"/api/tables/{tid}/seats/2", json={"kind": "bot:easy"}, headers={"X-Host-Token": HOST})
        assert r.status_code == 200 and r.json()["kind"] == "bot:easy"
        assert one.receive_json()["type"] == "update"  # the seat's change
        one.send_text(json.dumps({"type": "move", "counter": 0, "key": "a1"}))
        assert one.receive_json()["counter"] == 1
        bot = one.receive_json()  # the bot answers at once
        assert bot["type"] == "update" and bot["counter"] == 2 and bot["last"]["seat"] == 2 and bot["moves"]
        r = client.post(f"/api/tables/{tid}/seats/2", json={"kind": "human"}, headers={"X-Host-Token": HOST})
        assert r.status_code == 200
        assert client.post(f"/api/tables/{tid}/seats/2", json={"kind": "x"}, headers={"X-Host-Token": HOST}).status_code == 400
        assert client.post(f"/api/tables/{tid}/seats/9", json={"kind": "human"}, headers={"X-Host-Token": HOST}).status_code == 400
        assert client.post(f"/api/tables/{tid}/seats/2", json={"kind": "human"}).status_code == 403
        listed = client.get("/api/tables", headers={"X-Host-Token": HOST}).json()
        assert listed[0]["seats"][0]["connected"] and not listed[0]["seats"][1]["connected"]


def test_a_turn_timer_lets_a_bot_play_for_the_seat(client):
    t = _table(client, timer=1)
    with client.websocket_connect(f"/ws/{t['table']}") as one:
        hello = _join(one, 1, t["tokens"][0])
        assert hello["timer"]["seat"] == 1 and hello["timer"]["deadline_ms"] > time.time() * 1000
        update = one.receive_json()  # about a second later, the normal bot played for seat 1
        assert update["type"] == "update" and update["last"]["seat"] == 1 and update["counter"] == 1
        assert update["timer"]["seat"] == 2


def test_credentials(client):
    t = _table(client)
    tid = t["table"]
    with client.websocket_connect(f"/ws/{tid}") as ws:
        for seat, token in [(1, None), (1, ""), (1, t["tokens"][1]), (2, t["tokens"][0]), (1, t["tokens"][0][:-1]),
                            (1, 12345), (1, t["tokens"][0] + "x")]:
            assert _join(ws, seat, token)["code"] == "bad-token", (seat, token)
        for seat in [0, 3, "1", 1.0, True]:
            assert _join(ws, seat, t["tokens"][0])["code"] == "bad-seat", seat
        ws.send_text(json.dumps({"type": "move", "counter": 0, "key": "a1"}))
        assert ws.receive_json()["code"] == "not-joined"
        assert _join(ws, 1, t["tokens"][0])["type"] == "hello"
        assert _join(ws, 2, t["tokens"][1])["code"] == "joined"  # one seat per connection
    with client.websocket_connect(f"/ws/{tid}") as watcher:
        _join(watcher, None, None)
        watcher.send_text(json.dumps({"type": "move", "counter": 0, "key": "a1"}))
        assert watcher.receive_json()["code"] == "not-seated"
    with client.websocket_connect("/ws/no-such-table") as ws:
        assert ws.receive_json()["code"] == "unknown-table"


def _frames(rng):
    """Malformed frames: not JSON, JSON of the wrong shape or types, too big, too deep, binary."""
    fixed = ["", "{", "null", "[]", "42", '"join"', "{}", '{"type": 1}', '{"type": "dance"}', '{"type": "move"}',
             '{"type": "move", "counter": "0", "key": "a1"}', '{"type": "move", "counter": 0}',
             '{"type": "move", "counter": 0, "key": ["a1"]}', '{"type": "why", "text": 7}',
             '{"type": "undo", "counter": null}', '{"type": "join", "seat": {"x": 1}}', "[" * 5000 + "]" * 5000,
             '{"type": "move", "counter": 0, "key": "' + "a" * 20000 + '"}', "\ud800", '{"type": "why", "text": "' +
             "x" * 1000 + '"}', b"\xff\xfe", b'{"type": "ping"}']
    out = list(fixed)
    alphabet = '{}[]":,0123456789abcdefghijklmnopqrstuvwxyz \\\ttypemovejoinundowhycounterkeytoken-'
    for _ in range(300):
        base = rng.choice(fixed[4:16] if rng.random() < 0.5 else ['{"type": "move", "counter": 0, "key": "a1"}'])
        if isinstance(base, bytes):
            base = base.decode()
        chars = list(base)
        for _ in range(rng.randint(1, 6)):
            at = rng.randrange(len(chars) + 1)
            chars.insert(at, rng.choice(alphabet)) if rng.random() < 0.6 else (chars.pop(at - 1) if chars and at else None)
        out.append("".join(chars))
    return out


def test_bad_input_is_answered_or_dropped_and_the_server_lives(client, monkeypatch):
    from interpreter.serve import guard
    monkeypatch.setattr(guard, "RATE", 1e6)  # here every frame must be answered: no rate limit
    monkeypatch.setattr(guard.Bucket.__init__, "__defaults__", (1e6, 10 ** 6, time.monotonic))
    t = _table(client)
    rng = random.Random(28)
    with client.websocket_connect(f"/ws/{t['table']}") as ws:
        _join(ws, 1, t["tokens"][0])
        answered = 0
        for frame in _frames(rng):
            if isinstance(frame, bytes):
                ws.send_bytes(frame)
            else:
                try:
                    ws.send_text(frame)
                except UnicodeEncodeError:
                    continue
            reply = ws.receive_json()
            assert reply["type"] in ("error", "refused", "update", "pong"), reply
            if reply["type"] == "update":  # a mutated frame that is a legal move: the game goes on
                continue
            answered += 1
            if reply["type"] == "error":
                assert reply["code"] != "internal", (frame[:80], reply)
        assert answered > 300
        ws.send_text(json.dumps({"type": "ping"}))
        assert ws.receive_json() == {"type": "pong"}
    with client.websocket_connect(f"/ws/{t['table']}") as again:  # the server still serves the table
        assert _join(again, 1, t["tokens"][0])["type"] == "hello"


def test_a_flood_is_dropped(client, monkeypatch):
    from interpreter.serve import guard, hub
    # the clock stands still: the bucket refills with time, and on a loaded machine the 120 pings may take
    # long enough to refill it; what is checked is the burst and the error
    monkeypatch.setattr(hub, "Bucket", lambda: guard.Bucket(clock=lambda: 0.0))
    t = _table(client)
    with client.websocket_connect(f"/ws/{t['table']}") as ws:
        _join(ws, 2, t["tokens"][1])
        for _ in range(120):
            ws.send_text('{"type": "ping"}')
        replies = []  # the burst (the join took one), then the error; and any message sent to every seat meanwhile
        while len(replies) < 30 + sum(r.get("type") not in ("pong", "error") for r in replies):
            replies.append(ws.receive_json())
        assert sum(r == {"type": "pong"} for r in replies) >= 20
        assert {"type": "error", "code": "rate", "message": "too many messages: some were dropped"} in replies


def test_each_seat_is_told_in_its_own_language(client):
    """`join.lang`: seat 1 in French, seat 2 and a spectator in English, at a table made in English:
    each gets its layout, page strings, moves, narration, refusals and end screen in its language."""
    t = _table(client, lang="en")
    tid = t["table"]
    with client.websocket_connect(f"/ws/{tid}") as one, client.websocket_connect(f"/ws/{tid}") as two, \
            client.websocket_connect(f"/ws/{tid}") as watcher:
        one.send_text(json.dumps({"type": "join", "seat": 1, "token": t["tokens"][0], "lang": "fr"}))
        h1, h2, hw = one.receive_json(), _join(two, 2, t["tokens"][1]), _join(watcher, None, None)
        assert (h1["layout"]["title"], h2["layout"]["title"], hw["layout"]["title"]) == ("Morpion", "Tic-tac-toe",
                                                                                       "Tic-tac-toe")
        assert h1["layout"]["strings"]["undo"] == "Annuler mon dernier coup"
        assert h2["layout"]["strings"]["undo"] == "Undo my last move"
        assert h1["moves"][0]["label"] == "X marque r1c1"
        two.send_text(json.dumps({"type": "move", "counter": 0, "key": "a1"}))
        assert two.receive_json()["reasons"] == ["it is not your decision now"]
        counter, seat, players = 0, 1, {1: one, 2: two}
        for cell in ["r1c1", "r2c1", "r1c2", "r2c2", "r1c3"]:
            players[seat].send_text(json.dumps({"type": "move", "counter": counter, "text": f"play {cell}"}))
            u1, u2, uw = one.receive_json(), two.receive_json(), watcher.receive_json()
            assert u1["counter"] == u2["counter"] == counter + 1
            mark = "X" if seat == 1 else "O"
            assert any(f"{mark} marque {cell}" in e["text"] for e in u1["events"]), u1["events"]
            assert any(f"{mark} marks {cell}" in e["text"] for e in u2["events"] + uw["events"]), u2["events"]
            if seat == 2 and cell == "r2c1":
                one.send_text(json.dumps({"type": "move", "counter": counter + 1, "key": "zz"}))
                assert one.receive_json()["text"].startswith("Refus")  # the French refusal
            counter, seat = counter + 1, 3 - seat
        e1, e2 = one.receive_json(), two.receive_json()
        assert e1["lines"][0].startswith("Partie terminée après 5") and e2["lines"][0].startswith("Game over after 5")


def test_a_language_spoken_in_a_block_stays_in_its_thread():
    """i18n.speaking: the block's thread (or task) speaks its language, another thread the process's."""
    import threading

    from interpreter.i18n import _, language, speaking
    seen = {}
    before = language()
    with speaking("fr"):
        assert _("Undo my last move") == "Annuler mon dernier coup"
        worker = threading.Thread(target=lambda: seen.update(lang=language(), text=_("Undo my last move")))
        worker.start()
        worker.join()
    assert seen == {"lang": before, "text": "Undo my last move" if before == "en" else seen["text"]}
    assert language() == before


def test_the_only_possible_move_is_played_for_the_seat(client):
    """As at the terminal: a person with one legal move has it played for them, told as such, and
    it is not a decision to undo to."""
    t = _table(client)
    with client.websocket_connect(f"/ws/{t['table']}") as one, client.websocket_connect(f"/ws/{t['table']}") as two:
        _join(one, 1, t["tokens"][0])
        _join(two, 2, t["tokens"][1])
        players = {1: one, 2: two}
        seat = 1
        for counter, cell in enumerate(["r1c1", "r1c2", "r1c3", "r2c2", "r2c1", "r2c3", "r3c2", "r3c1"]):  # a draw
            players[seat].send_text(json.dumps({"type": "move", "counter": counter, "text": f"play {cell}"}))
            assert one.receive_json()["counter"] == two.receive_json()["counter"] == counter + 1
            seat = 3 - seat
        deadline = time.time() + 20  # (asked of the lobby first: a receive would wait for ever without it)
        while time.time() < deadline and client.get(f"/api/tables?host={HOST}").json()[-1]["counter"] < 9:
            time.sleep(0.02)
        assert client.get(f"/api/tables?host={HOST}").json()[-1]["counter"] == 9
        forced = one.receive_json()  # X's last move, r3c3, played for X
        assert forced["type"] == "update" and forced["counter"] == 9 and forced["last"]["label"] == "X marks r3c3"
        assert any("(the only possible move)" in e["text"] for e in forced["events"]), forced["events"]
        assert two.receive_json()["counter"] == 9
        assert one.receive_json()["type"] == two.receive_json()["type"] == "end"


def test_hard_bots_search_one_at_a_time_server_wide(monkeypatch):
    """The server's cap on hard searches (`searches`): three tables of hard bots, each search slowed,
    never search more than the cap at once, and all of them finish."""
    import time as clock

    from interpreter.serve.table import Table

    def slow(table):  # the hard search, slowed, without its processes: a random legal move
        counter, game, st = table.counter, table.game, table.st
        moves = game.legal_actions(st)
        return counter, lambda: (clock.sleep(0.03), random.Random(counter).choice(moves))[1]

    usual = Table.snapshot
    monkeypatch.setattr(Table, "snapshot", lambda self: slow(self) if self.is_searching_bot() else usual(self))
    for cap in (1, 2):
        hub = Hub(games=Games(), data=None, lang="en", searches=cap, workers=4)
        with TestClient(build_app(hub, host_token=HOST)) as c:
            tables = [_table(c, seats=("bot:hard", "bot:hard")) for _ in range(3)]
            deadline = time.time() + 60
            while time.time() < deadline and not all(t["ended"] for t in c.get(f"/api/tables?host={HOST}").json()):
                time.sleep(0.05)
            assert all(t["ended"] for t in c.get(f"/api/tables?host={HOST}").json()), tables
            assert hub.searching_peak == cap, (cap, hub.searching_peak)
