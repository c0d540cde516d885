"""A guided game at the web table (issue 28, item 7): the lobby lists each game's tutorials, a
lesson is started by the host, only the taught move is played (another gets the lesson's hint, in
the table's language), the scripted seats' moves are narrated, and the outro ends it."""
from __future__ import annotations

import json

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")

from test_serve_protocol import HOST, client  # noqa: E402,F401  (the same server in a TestClient)


def _lesson(client, lang):
    r = client.post("/api/lessons", json={"game": "agent-dog", "tutorial": "first-round", "lang": lang},
                    headers={"X-Host-Token": HOST})
    assert r.status_code == 201, r.text
    return r.json()


def test_the_lobby_lists_tutorials_and_only_the_host_starts_one(client):
    games = {g["name"]: g for g in client.get("/api/games").json()}
    assert games["agent-dog"]["tutorials"] == [{"name": "first-round", "title": {
        "en": "A first round of Agent DOG", "fr": "Une première manche d'Agent DOG"}}]
    assert games["tic-tac-toe"]["tutorials"] == []
    assert client.post("/api/lessons", json={"game": "agent-dog", "tutorial": "first-round"}).status_code == 403
    for body in ({"game": "agent-dog", "tutorial": "nope"}, {"game": "chess", "tutorial": "x"}, []):
        r = client.post("/api/lessons", json=body, headers={"X-Host-Token": HOST})
        assert r.status_code == 400 and r.json()["error"], body
    lesson = _lesson(client, "en")  # its seats are the tutorial's: not handed to a bot or back
    r = client.post(f"/api/tables/{lesson['table']}/seats/2", json={"kind": "human"}, headers={"X-Host-Token": HOST})
    assert r.status_code == 400 and "guided" in r.json()["error"]


@pytest.mark.parametrize("lang,hint,done", [
    ("en", "Hint: Give the 2 to Chloé: keep the 3, you will need it at once.", "Guided game finished"),
    ("fr", "Donnez le 2 à Chloé : gardez le 3, il vous servira tout de suite.", "Une première manche d'Agent DOG")])
def test_only_the_taught_move_is_played_to_the_end(client, lang, hint, done):
    lesson = _lesson(client, lang)
    token = lesson["link"].split("token=")[1]
    with client.websocket_connect(f"/ws/{lesson['table']}") as ws:
        ws.send_text(json.dumps({"type": "join", "seat": lesson["seat"], "token": token, "lang": lang}))
        hello = ws.receive_json()
        assert hello["tutorial"]["intro"] and hello["lesson"]["places"] == ["hand.p1"]
        moves = {m["label"]: m["key"] for m in hello["moves"]}
        assert len(moves) == 2
        wrong = next(k for label, k in moves.items() if "3" in label)
        ws.send_text(json.dumps({"type": "move", "counter": hello["counter"], "key": wrong}))
        refused = ws.receive_json()
        assert refused["type"] == "refused" and hint in refused["reasons"][0], refused
        ws.send_text(json.dumps({"type": "undo", "counter": hello["counter"]}))
        assert ws.receive_json()["type"] == "refused"  # a guided game only goes forward
        counter, last, updates = hello["counter"], hello, 0
        while last["moves"]:
            # the taught move: the one whose refusal is not a hint (tried in order)
            for m in last["moves"]:
                ws.send_text(json.dumps({"type": "move", "counter": counter, "key": m["key"]}))
                answer = ws.receive_json()
                if answer["type"] == "update":
                    break
                assert answer["type"] == "refused"
            last, counter, updates = answer, answer["counter"], updates + 1
            assert any("Chloé" in e["text"] or "Bob" in e["text"] for e in answer["events"])
        assert updates == 3
        end = ws.receive_json()
        assert end["type"] == "end" and end["tutorial"] and any(done in line for line in end["lines"]), end
