"""What the web page draws (interpreter/serve/picture.py): the layout and a seat's picture of every
bundled game and variant are plain JSON, name things as the content does (no internal key in a text
a player reads), and are public by construction: two states differing only in cards a seat cannot
identify give that seat the same picture (and cards it can identify, swapped, do not)."""
from __future__ import annotations

import json
import random
import re

import pytest

from interpreter import Game
from interpreter.information.observation import relabel, unseen_slots
from interpreter.play.render import Renderer
from interpreter.serve.picture import layout, picture
from interpreter.serve.strings import page_strings
from tests.test_observation import CONFIGS

KEY = re.compile(r"#\d|\.p\d\b|\b[a-z]+_[a-z_]+\b")  # card keys (spy_1#2, mark#1.p1), snake_case names


def _played(game, variant, players, seed=0, steps=60):
    g = Game.load(game, players=players, variants=[variant] if variant else [])
    rng = random.Random(seed)
    st = g.new_game(seed)
    states = [st]
    for _ in range(steps):
        if g.is_terminal(st):
            break
        st = g.apply(st, rng.choice(g.legal_actions(st)))
        states.append(st)
    return g, Renderer(g), states


def _player_texts(lay: dict, pic: dict) -> list[str]:
    """Every text of the layout and a picture that the page writes on the screen."""
    out = [lay["title"]] + lay["legend"] + lay["rules"] + [z["title"] for z in lay["zones"]]
    out += [c["name"] for c in (lay["grid"] or {}).get("cells", [])]
    out += list(lay["backs"].values()) + [s["name"] for s in lay["seats"]]
    for faces in (lay["faces"], pic["faces"]):
        out += [f["title"] for f in faces.values()]
    out += [pic["title"]] + pic["status"] + pic["private"] + [pic["prompt"] or ""]
    out += [c["text"] + c["marks"] for c in pic["cells"].values()]
    out += [e.get("title", "") for place in list(pic["cells"].values()) + list(pic["zones"].values())
            for e in place["cards"]]
    out += [f"{p['name']} {p['score']} {p['line']} {p['marks']}" for p in pic["players"]]
    return out


@pytest.mark.parametrize("game,variant,players", CONFIGS, ids=[f"{g}-{v or 'base'}-{p}" for g, v, p in CONFIGS])
def test_every_game_has_a_layout_and_pictures_in_its_own_words(game, variant, players):
    g, r, states = _played(game, variant, players)
    lay = layout(g, r)
    json.dumps(lay)
    ids = {z["id"] for z in lay["zones"]} | {c["id"] for c in (lay["grid"] or {}).get("cells", [])}
    assert lay["grid"] is None or len(lay["grid"]["cells"]) == len(r.grid_cells)
    for st in states[::6] + states[-1:]:
        for seat in list(range(players)) + [None]:
            pic = picture(g, r, st, seat)
            json.dumps(pic)
            assert set(pic["cells"]) | set(pic["zones"]) <= ids  # every place drawn is in the layout
            for text in _player_texts(lay, pic):
                assert not KEY.search(text), f"an internal key on the page: {text!r}"


def test_the_page_strings_are_sentences_of_the_catalogue():
    strings = page_strings()
    assert all(isinstance(v, str) and v for v in strings.values())
    # the fields the page fills in are named, never positional
    assert all(not re.search(r"\{\d*\}", v) for v in strings.values())


def _unseen_pair(g, st, seat, rng):
    m = g.m
    ids = [st["z"][z][p] for z, p in unseen_slots(g, st, seat)]
    by_back = {}
    for cid in ids:
        by_back.setdefault(m.cards[cid].back, []).append(cid)
    pairs = [(a, b) for group in by_back.values() for a in group for b in group if m.cards[a].name != m.cards[b].name]
    return rng.choice(pairs) if pairs else None


@pytest.mark.parametrize("game,players", [("agents-secrets", 4), ("dark-agent", 3), ("agent-dog", 4)])
def test_a_picture_is_the_same_whatever_the_seat_cannot_see(game, players):
    """Swapping two cards a seat cannot identify (same back, different faces) leaves its picture
    byte for byte; swapping two it can identify changes it (the control)."""
    g, r, states = _played(game, None, players, seed=3, steps=80)
    rng = random.Random(1)
    swapped = controls = 0
    for st in states[::5]:
        for seat in range(players):
            base = json.dumps(picture(g, r, st, seat), sort_keys=True)
            pair = _unseen_pair(g, st, seat, rng)
            if pair:
                other = relabel(g, st, {pair[0]: pair[1], pair[1]: pair[0]})
                assert json.dumps(picture(g, r, other, seat), sort_keys=True) == base, (seat, pair)
                swapped += 1
            hidden = {st["z"][z][p] for z, p in unseen_slots(g, st, seat)}
            seen = [c for ids in st["z"] for c in ids if c not in hidden]
            pairs = [(a, b) for a in seen[:40] for b in seen[:40]
                     if g.m.cards[a].name != g.m.cards[b].name and st["loc"][a] != st["loc"][b]]
            if pairs:
                a, b = rng.choice(pairs)
                assert json.dumps(picture(g, r, relabel(g, st, {a: b, b: a}), seat), sort_keys=True) != base
                controls += 1
    assert swapped > 5 and controls > 5


def test_a_track_declared_as_a_loop_reaches_the_page(make_game):
    g = Game.load("agent-dog", players=4)
    lay = layout(g, Renderer(g))
    assert lay["grid"]["loop"] == 16  # render.grid.loop (docs/content.md)
    g = Game.load("tic-tac-toe")
    assert layout(g, Renderer(g))["grid"]["loop"] is None


def test_a_renderer_and_its_game_go_once_no_table_holds_them():
    """The pictures' cache of what every picture of a renderer shares lives only as long as the
    renderer: a server (or a test process) that opened many tables does not keep each one's game."""
    import gc
    import weakref
    g = Game.load("agents-secrets", players=4)
    r = Renderer(g)
    st = g.new_game(0)
    first = picture(g, r, st, 0)
    assert picture(g, r, st, 0) == first  # the second picture is drawn from the cache
    gone_renderer, gone_game = weakref.ref(r), weakref.ref(g)
    del g, r, st, first
    gc.collect()
    assert gone_renderer() is None and gone_game() is None
