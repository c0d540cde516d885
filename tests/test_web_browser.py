"""The web table in a real headless browser (Debian's chromium, driven by selenium and chromedriver)
against a real `interpret serve` subprocess on a free port: two people play tic-tac-toe by clicking
from two browsers, a Dark Agent player targets, attacks and sees the dice, two Agents Secrets
players never receive each other's hidden cards (neither in the page nor in a frame the page got),
a closed page comes back where it was, and a page outlives a server killed and restarted.

Skipped only where chromium and chromedriver are absent (CI installs them: .ci/run).
`INTERPRET_WEB_SHOTS=1` also writes docs/web-GAME.png, the README's pictures of each game's page.
"""
from __future__ import annotations

import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

# One server and its two browsers for the module, on one worker (--dist loadgroup, pyproject.toml)
pytestmark = pytest.mark.xdist_group("test_web_browser")

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
DRIVER = shutil.which("chromedriver")
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-component-update", "--no-first-run", "--disable-dev-shm-usage", "--window-size=1400,1000"]
ROOT = Path(__file__).resolve().parent.parent
SHOTS = os.environ.get("INTERPRET_WEB_SHOTS") == "1"


# ---- the server ---------------------------------------------------------------------------

def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    """`interpret serve` in a subprocess; `restart()` after `kill()` resumes from the same --data."""

    def __init__(self, data: Path):
        self.data = data
        self.port = _free_port()
        self.proc = None
        self.host = None
        self.base = f"http://127.0.0.1:{self.port}"
        self.start()

    def start(self) -> None:
        env = dict(os.environ, PYTHONUNBUFFERED="1", NO_COLOR="1")
        self.proc = subprocess.Popen([sys.executable, "-m", "interpreter", "serve", "--port", str(self.port),
                                      "--data", str(self.data)], cwd=ROOT, env=env, text=True,
                                     stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        deadline = time.time() + 60
        seen = []
        while time.time() < deadline:
            line = self.proc.stdout.readline()
            if not line:
                break
            seen.append(line)
            found = re.search(r"Lobby: (http://\S+?)/\?host=(\S+)", line)
            if found:
                self.host = found.group(2)
                break
        assert self.host, "".join(seen)
        # the rest of its output is read away, so that a full pipe never blocks the server
        import threading
        threading.Thread(target=lambda out=self.proc.stdout: [None for _ in out], daemon=True).start()

    def kill(self) -> None:
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(10)

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.kill()

    def api(self, path: str, body: dict | None = None):
        request = urllib.request.Request(self.base + path, data=json.dumps(body).encode() if body is not None else None,
                                         headers={"X-Host-Token": self.host, "Content-Type": "application/json"})
        with urllib.request.urlopen(request, timeout=30) as r:
            return json.loads(r.read())

    def table(self, game: str, seats: list[str], **more) -> dict:
        return self.api("/api/tables", dict({"game": game, "players": len(seats), "variants": [], "options": {},
                                             "seats": seats, "timer": None}, **more))

    def url(self, link: str) -> str:
        return link if link.startswith("http") else self.base + link


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    pytest.importorskip("starlette", reason="the web extra is not installed (pip install '.[web]')")
    s = Server(tmp_path_factory.mktemp("serve"))
    yield s
    s.stop()


# ---- the browsers -------------------------------------------------------------------------

def _browser():
    if not (CHROMIUM and DRIVER):
        if os.environ.get("CI"):
            pytest.fail("CI must have chromium and chromium-driver (.ci/run installs them)")
        pytest.skip("chromium and chromedriver are not installed here (apt-get install chromium chromium-driver)")
    webdriver = pytest.importorskip("selenium.webdriver", reason="selenium is not installed (pip install '.[test]')")
    from selenium.webdriver.chrome.service import Service
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for f in FLAGS:
        options.add_argument(f)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    return webdriver.Chrome(service=Service(executable_path=DRIVER), options=options)


@pytest.fixture(scope="module")
def browsers():
    """Two browsers (two people), opened once for the module."""
    made = []

    def get(i: int):
        while len(made) <= i:
            made.append(_browser())
        return made[i]
    yield get
    for d in made:
        d.quit()


def wait(predicate, timeout: float = 20, what: str = ""):
    deadline = time.time() + timeout
    from selenium.common.exceptions import StaleElementReferenceException
    while time.time() < deadline:
        try:
            value = predicate()
        except StaleElementReferenceException:  # the page redrew what the predicate was reading: look again
            value = None
        if value:
            return value
        time.sleep(0.05)
    raise AssertionError(f"timed out waiting for {what or predicate}")


def frames(driver) -> list[dict]:
    """Every frame the page received, in order (the page keeps them: window.interpretFrames)."""
    return [json.loads(x) for x in driver.execute_script("return window.interpretFrames || []")]


def last_of(driver, *types) -> dict | None:
    for f in reversed(frames(driver)):
        if f["type"] in types:
            return f
    return None


def my_moves(driver) -> list[dict]:
    f = last_of(driver, "hello", "update", "end")
    return [] if f is None or f["type"] == "end" else f["moves"]


def console_errors(driver) -> list:
    """The page's errors (a socket refused while a server was down, in the restart test, aside)."""
    return [e for e in driver.get_log("browser") if e["level"] in ("SEVERE", "ERROR")
            and "ERR_CONNECTION_REFUSED" not in e["message"]]


def css(driver, selector):
    from selenium.webdriver.common.by import By
    return driver.find_elements(By.CSS_SELECTOR, selector)


def click_on_board(driver, move: dict) -> None:
    """Play `move` as a person would: a click on its place or card on the board, then, when that
    selects several moves, its line in the small menu."""
    if move["places"]:
        target = css(driver, f'[data-place="{move["places"][0]}"]')
    else:
        target = css(driver, f'g.card[data-card="{move["cards"][0]}"]') or \
            [g for g in css(driver, "g.cell.playable") if _cell_holds(driver, g, move["cards"][0])]
    assert target, f"nothing on the board to click for {move}"
    node = target[0]
    if node.tag_name == "section":  # a zone: its button
        node = node.find_element("css selector", "button.zone-pick")
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", node)
    node.click()
    menu = css(driver, f'#pick-menu button[data-key="{move["key"]}"]')
    if menu:
        menu[0].click()


def _cell_holds(driver, g, card: str) -> bool:
    place = g.get_attribute("data-place")
    picture = last_of(driver, "hello", "update")["picture"]
    return any(e.get("id") == card for e in picture["cells"].get(place, {}).get("cards", []))


def counter(driver) -> int:
    f = last_of(driver, "hello", "update", "end")
    return -1 if f is None else f["counter"]


def screenshot(driver, game: str) -> None:
    if SHOTS:
        driver.execute_script("window.scrollTo(0, 0)")
        driver.save_screenshot(str(ROOT / "docs" / f"web-{game}.png"))


# ---- the tests ----------------------------------------------------------------------------

def test_two_people_play_tic_tac_toe_by_clicking(server, browsers):
    """The host makes the table in the lobby; each player opens their own link in their own browser
    and they play a whole game by clicking cells; both see the last move and the end screen."""
    from selenium.webdriver.support.ui import Select
    a, b = browsers(0), browsers(1)
    a.get(f"{server.base}/?host={server.host}&lang=en")
    wait(lambda: css(a, "#game option"), what="the lobby's games")
    Select(css(a, "#game")[0]).select_by_value("tic-tac-toe")
    wait(lambda: len(css(a, "#seats select")) == 2, what="two seats")
    for sel in css(a, "#seats select"):
        Select(sel).select_by_value("human")
    css(a, "#create-table")[0].click()
    links = wait(lambda: [i.get_attribute("value") for i in css(a, "#links input[data-seat]")], what="the join links")
    assert len(links) == 2 and all("token=" in x for x in links)
    assert server.host not in a.find_element("tag name", "body").text  # the host's token is not shown
    a.get(links[0])
    b.get(links[1])
    players = {0: a, 1: b}
    # X: r1c1 r1c2 r1c3 (three in a row); O: r2c1 r2c2
    for i, cell in enumerate(["r1c1", "r2c1", "r1c2", "r2c2", "r1c3"]):
        me, other = players[i % 2], players[1 - i % 2]
        wait(lambda: any(cell in m["places"] for m in my_moves(me)), what=f"the move on {cell}")
        assert my_moves(other) == []  # only the seat that decides gets moves
        before = counter(me)
        node = css(me, f'g.cell.playable[data-place="{cell}"]')[0]
        node.click()
        wait(lambda: counter(other) > before, what="the other page's update")
        # the other page shows the move: the cell's mark, highlighted as the last move
        assert css(other, f'g.cell.last[data-place="{cell}"]')
        assert ("X" if i % 2 == 0 else "O") in css(other, f'g.cell[data-place="{cell}"] text')[0].text
        if i == 0:  # O asks why not the cell X took: the answer of the rules, shown on the page
            css(b, "#command")[0].send_keys("r1c1")
            css(b, "#why")[0].click()
            refused = wait(lambda: css(b, "#refused:not([hidden])"), what="the answer to why")
            assert "r1c1" in refused[0].text and "#" not in refused[0].text, refused[0].text
        if i == 1:
            screenshot(a, "tic-tac-toe")
    for d in (a, b):
        end = wait(lambda: css(d, "#end:not([hidden])"), what="the end screen")
        assert "X" in end[0].text
        history = css(d, "#history li")
        assert len(history) >= 5, [h.text for h in history]
        assert not console_errors(d)
        body = d.find_element("tag name", "body").text
        assert "token" not in body and "#" not in body  # no credential, no internal key on screen


def _wait_for_turn(driver, done, timeout=30):
    """Wait until `driver`'s seat has moves or `done()` holds; its moves."""
    wait(lambda: my_moves(driver) or done() or last_of(driver, "end"), timeout, what="my turn")
    return my_moves(driver)


def _picture(driver) -> dict:
    return last_of(driver, "hello", "update")["picture"]


def _dark_agent_choice(driver, moves: list[dict]) -> dict:
    """The move a player bent on attacking picks: an attack; else a targeting of the cell holding
    their spy (it engages), else of a card in that column (Média's long choices aside); satellites
    above their spy's column; else the first move."""
    f = last_of(driver, "hello", "update")
    cells, grid = f["picture"]["cells"], last_of(driver, "hello")["layout"]["grid"]["cells"]
    column = {c["id"]: c["column"] for c in grid}
    row = {c["id"]: c["row"] for c in grid}
    spies = [p for p, c in cells.items() if c.get("owner") == 1 and row[p] > 0]
    home = column[spies[0]] if spies else 1
    group = lambda m, word: word in m["group"].lower()  # noqa: E731
    attack = [m for m in moves if group(m, "attack")]
    target = [m for m in moves if group(m, "target") and m["places"]]
    spy = [m for m in target if m["places"][0] in spies]
    near = sorted((m for m in target if "MEDIA" not in m["label"]), key=lambda m: abs(column[m["places"][0]] - home))
    placed = sorted((m for m in moves if m["places"] and row.get(m["places"][0]) == 0),
                    key=lambda m: abs(column[m["places"][0]] - home))
    return (attack or spy or near or placed or moves)[0]


def test_dark_agent_a_player_targets_attacks_and_sees_the_dice(server, browsers):
    """Alone against three bots: the player clicks the board to place satellites, to target (a cell
    holding their spy first, which engages it, then a card beside it), then attacks a targeted
    card, and the history shows the dice, drawn as dice faces."""
    t = server.table("dark-agent", ["human", "bot:easy", "bot:easy", "bot:easy"], seed=DARK_AGENT_SEED)
    d = browsers(0)
    d.get(server.url(t["seats"][0]["link"]))
    # the roll as the history tells it (§6.3 « Anne attacks T2: dice 3, 4, 6, 6, total 20 … »)
    rolled = re.compile(r"attacks .*dice \d")
    dice = lambda: [li for li in css(d, "#history li") if rolled.search(li.text)]  # noqa: E731
    targeted = attacked = False
    for _ in range(40):
        moves = _wait_for_turn(d, lambda: attacked and dice())
        if attacked:
            break
        assert not last_of(d, "end"), "the game ended before an attack"
        move = _dark_agent_choice(d, moves)
        before = counter(d)
        if move["places"] or move["cards"]:
            click_on_board(d, move)
        else:
            css(d, f'#moves button[data-key="{move["key"]}"]')[0].click()
        wait(lambda: counter(d) > before, what=f"the move {move}")
        attacked = "attack" in move["group"].lower()
        if "target" in move["group"].lower():
            targeted = True  # the targeted cell is marked on the board as the last move
            wait(lambda: css(d, f'g.cell.last[data-place="{move["places"][0]}"]'), what="the last move marked")
    assert targeted and attacked
    wait(dice, what="the dice in the history")
    # drawn as dice faces: in the history, on the line of the roll, and beside the move that rolled
    faces = wait(lambda: [f for li in dice() for f in li.find_elements("css selector", "svg.die")], what="die faces")
    told = [e for f in frames(d) for e in f.get("events", []) + f.get("history", []) if e.get("dice")]
    assert told and [int(f.get_attribute("data-value")) for f in faces][:len(told[0]["dice"])] == told[0]["dice"]
    assert all(1 <= v <= 6 for e in told for v in e["dice"])
    assert any((f.get("last") or {}).get("dice") for f in frames(d)), "the roll beside the last move"
    screenshot(d, "dark-agent")
    assert not console_errors(d)


# a deal where the player can attack after a few clicks (found by playing the test's choices)
DARK_AGENT_SEED = 5


def _hidden_of(driver, seat: int) -> tuple[set, set]:
    """(ids, titles) of the cards `seat` holds in its own hidden zones, as its page was told."""
    f = last_of(driver, "hello", "update")
    layout = last_of(driver, "hello")["layout"]
    hands = [z["id"] for z in layout["zones"] if z["owner"] == seat and z["kind"] == "hand"]
    ids, titles = set(), set()
    for zid in hands:
        for e in f["picture"]["zones"][zid]["cards"]:
            if e.get("id"):
                ids.add(e["id"])
                face = f["picture"]["faces"].get(e["face"]) or layout["faces"].get(e["face"])
                titles.add(face["title"])
    return ids, titles


def test_agents_secrets_two_players_never_receive_each_others_hidden_cards(server, browsers):
    """Two people at one Agents Secrets table (two bots in the other seats): after the first secret
    choice, neither page's DOM nor any frame it received holds the other's hidden cards (identity
    and hand) by id, nor the other's identity by title when it differs from one's own."""
    t = server.table("agents-secrets", ["human", "human", "bot:easy", "bot:easy"])
    a, b = browsers(0), browsers(1)
    a.get(server.url(t["seats"][0]["link"]))
    b.get(server.url(t["seats"][1]["link"]))
    pages = {1: a, 2: b}
    for d in pages.values():
        wait(lambda: last_of(d, "hello"), what="hello")
    hidden = {s: _hidden_of(d, s) for s, d in pages.items()}
    assert all(ids for ids, _ in hidden.values()), hidden  # each holds an identity and cards
    # the first secret choice of each: a card of the hand (a click on it), then where it goes
    for s, d in pages.items():
        moves = _wait_for_turn(d, lambda: False)
        move = next(m for m in moves if m["cards"])
        before = counter(d)
        click_on_board(d, move)
        wait(lambda: counter(d) > before, what="the choice taken")
    for s, d in pages.items():
        other = 3 - s
        ids, titles = hidden[other]
        own = hidden[s][1]
        seen = d.page_source + "\n".join(d.execute_script("return window.interpretFrames"))
        for cid in ids:
            assert cid not in seen, f"seat {s}'s page holds seat {other}'s hidden card {cid}"
        identity = [x for x in titles - own if "(" in x]  # an identity's title: « Agent (CIA) »
        for title in identity:
            assert title not in seen, f"seat {s}'s page names seat {other}'s {title}"
        # the positive control: its own hidden cards are there
        assert all(cid in seen for cid in hidden[s][0])
        assert not console_errors(d)
    screenshot(a, "agents-secrets")


def test_a_closed_page_comes_back_where_it_was(server, browsers):
    """A move taken back with the undo button; then connecting again is opening the link again: the
    board, the history and the moves return."""
    t = server.table("tic-tac-toe", ["human", "human"])
    a = browsers(0)
    link = server.url(t["seats"][0]["link"])
    a.get(link)
    wait(lambda: css(a, 'g.cell.playable[data-place="r2c2"]'), what="the board")
    css(a, 'g.cell.playable[data-place="r2c2"]')[0].click()
    wait(lambda: counter(a) >= 1 and css(a, "#history li"), what="the move")
    # taken back with the page's undo (the player's own move, nobody has played since), then again
    css(a, "#undo")[0].click()
    wait(lambda: css(a, 'g.cell.playable[data-place="r2c2"]'), what="the move taken back")
    assert not css(a, 'g.cell[data-place="r2c2"] text')[0].text.strip()
    css(a, 'g.cell.playable[data-place="r2c2"]')[0].click()
    wait(lambda: "X" in css(a, 'g.cell[data-place="r2c2"] text')[0].text and not my_moves(a), what="the move again")
    history = [li.text for li in css(a, "#history li")]
    a.get("about:blank")  # the page is closed: its connection ends
    a.get(link)
    wait(lambda: last_of(a, "hello"), what="hello again")
    assert [li.text for li in css(a, "#history li")] == history
    assert "X" in css(a, 'g.cell[data-place="r2c2"] text')[0].text
    assert my_moves(a) == []  # O decides now
    b = browsers(1)
    b.get(server.url(t["seats"][1]["link"]))
    wait(lambda: css(b, 'g.cell.playable[data-place="r1c1"]'), what="O's board")
    css(b, 'g.cell.playable[data-place="r1c1"]')[0].click()
    wait(lambda: css(a, 'g.cell.last[data-place="r1c1"]'), what="the reconnected page's update")


def test_the_pages_outlive_a_server_killed_and_restarted(tmp_path, browsers):
    """kill -9 mid-game, the same command again: both pages connect again by themselves, show
    the same board, and the game goes on."""
    pytest.importorskip("starlette", reason="the web extra is not installed (pip install '.[web]')")
    s = Server(tmp_path / "data")
    try:
        t = s.table("tic-tac-toe", ["human", "human"])
        a, b = browsers(0), browsers(1)
        a.get(s.url(t["seats"][0]["link"]))
        b.get(s.url(t["seats"][1]["link"]))
        wait(lambda: css(a, 'g.cell.playable[data-place="r1c1"]'), what="the board")
        css(a, 'g.cell.playable[data-place="r1c1"]')[0].click()
        wait(lambda: counter(b) == 1, what="the move")
        s.kill()
        wait(lambda: css(a, "#connection .offline"), what="the page noticing")
        s.start()
        for d in (a, b):
            wait(lambda: not css(d, "#connection .offline") and last_of(d, "hello") is not frames(d)[0], 30,
                 what="connected again")
            assert counter(d) == 1
            assert "X" in css(d, 'g.cell[data-place="r1c1"] text')[0].text
        wait(lambda: css(b, 'g.cell.playable[data-place="r3c3"]'), what="O's move")
        css(b, 'g.cell.playable[data-place="r3c3"]')[0].click()
        wait(lambda: counter(a) == 2 and css(a, 'g.cell.last[data-place="r3c3"]'), what="the game going on")
    finally:
        s.stop()


@pytest.mark.parametrize("game,seats", [("connect-four", ["human", "bot:easy"]),
                                        ("agent-dog", ["human", "bot:easy", "bot:easy", "bot:easy"]),
                                        ("kuhn-poker", ["human", "bot:easy"]),
                                        ("leduc-poker", ["human", "bot:easy"])])
def test_every_game_is_drawn_and_played_by_a_click(server, browsers, game, seats):
    """The other bundled games: the board's cells and zones are drawn from the layout, a move is
    played by a click on the board where it can be, and nothing internal shows."""
    t = server.table(game, seats)
    d = browsers(0)
    d.get(server.url(t["seats"][0]["link"]))
    hello = wait(lambda: last_of(d, "hello"), what="hello")
    cells = (hello["layout"].get("grid") or {}).get("cells", [])  # a card game draws no grid
    wait(lambda: len(css(d, "#board g.cell")) == len(cells), what="the cells")
    moves = _wait_for_turn(d, lambda: False)
    clickable = [m for m in moves if m["places"] or m["cards"]]
    move = (clickable or moves)[0]
    before = counter(d)
    if clickable:
        click_on_board(d, move)
    else:
        css(d, f'#moves button[data-key="{move["key"]}"]')[0].click()
    wait(lambda: counter(d) > before, what="the move played")
    screenshot(d, game)
    body = d.find_element("tag name", "body").text
    assert "#" not in body, body
    assert not console_errors(d)


def _taught_labels(game: str, tutorial: str) -> list[str]:
    """The moves the tutorial teaches, as the learner's move list reads them (played in-process
    with its expected moves: tutorial.Script)."""
    from interpreter.engine.game import Game  # noqa: F401 (the content's games load through the shelf)
    from interpreter.play.render import Renderer
    from interpreter.scenarios.tutorial import Asked, Script, Tutorial, game_tutorials, load_game_for, load_tutorial
    path = next(p for p in game_tutorials(game) if p.stem == tutorial)
    doc = load_tutorial(path)
    script = Script()
    t = Tutorial(load_game_for(path, doc), path, doc, script)
    t.run()
    renderer = Renderer(t.game)
    return [renderer.label(f.state, t.seat.id, f.expected) for f in script.frames if isinstance(f, Asked)]


def test_a_tutorial_is_played_to_its_end_in_the_page(server, browsers):
    """The lobby's guided game of Agent DOG: the page shows the intro and each lesson with the
    places it points at highlighted; a move the lesson does not teach is refused with its hint;
    the taught moves, clicked, take the learner to the end."""
    taught = _taught_labels("agent-dog", "first-round")
    assert len(taught) == 3
    d = browsers(0)
    d.get(f"{server.base}/?host={server.host}&lang=en")
    wait(lambda: css(d, '#learn button[data-game="agent-dog"][data-tutorial="first-round"]'), what="the learn entry")
    css(d, '#learn button[data-game="agent-dog"][data-tutorial="first-round"]')[0].click()
    wait(lambda: "/t/" in d.current_url and last_of(d, "hello"), what="the guided game's page")
    wait(lambda: css(d, "#lesson-intro") and "Two teams of two" in css(d, "#lesson-intro")[0].text, what="the intro")
    wrong_seen, pointing = False, 0
    for label in taught:
        moves = _wait_for_turn(d, lambda: False)
        wait(lambda: css(d, "#lesson-text"), what="the lesson's text")
        places = last_of(d, "hello", "update")["lesson"]["places"]
        pointed = lambda: sorted(e.get_attribute("data-place") for e in css(d, ".pointed"))  # noqa: E731
        wait(lambda: pointed() == sorted(places), what=f"the lesson's places {places} highlighted")
        pointing += bool(places)
        if not wrong_seen:
            wrong = next(m for m in moves if m["label"] != label)
            before = len(frames(d))
            css(d, f'#moves button[data-key="{wrong["key"]}"]')[0].click()
            wait(lambda: any(f["type"] == "refused" for f in frames(d)[before:]), what="the refusal")
            box = wait(lambda: css(d, "#refused:not([hidden])"), what="the hint shown")[0]
            assert "Hint: Give the 2 to Chloé" in box.text, box.text
            wrong_seen = True
        move = next(m for m in moves if m["label"] == label)
        before = counter(d)
        css(d, f'#moves button[data-key="{move["key"]}"]')[0].click()
        wait(lambda: counter(d) > before, what=f"the taught move {label}")
    end = wait(lambda: css(d, "#end:not([hidden])"), what="the end of the guided game")[0]
    assert "Guided game finished: A first round of Agent DOG." in end.text
    assert "Every hand is empty" in css(d, "#lesson-text")[0].text
    assert pointing == 2  # the hand, then the two cells of the capture
    assert not console_errors(d)


def test_each_seat_reads_the_table_in_its_own_language(server, browsers):
    """Two people at one English table, one page in French: each page is told in its own language
    (the board's title, the page's words, the moves), and the language switch tells it in the other."""
    t = server.table("tic-tac-toe", ["human", "human"], lang="en")
    fr, en = browsers(0), browsers(1)
    fr.get(server.url(t["seats"][0]["link"]) + "&lang=fr")
    en.get(server.url(t["seats"][1]["link"]) + "&lang=en")
    wait(lambda: css(fr, "#title") and css(fr, "#title")[0].text == "Morpion", what="the French page")
    wait(lambda: css(en, "#title") and css(en, "#title")[0].text == "Tic-tac-toe", what="the English page")
    wait(lambda: css(fr, "#undo") and css(fr, "#undo")[0].text == "Annuler mon dernier coup", what="French words")
    assert "X marque r1c1" in [m["label"] for m in my_moves(fr)]
    from selenium.webdriver.support.ui import Select
    Select(css(fr, "#lang")[0]).select_by_value("en")
    wait(lambda: "lang=en" in fr.current_url and css(fr, "#title") and css(fr, "#title")[0].text == "Tic-tac-toe",
         what="the page told again in English")
    assert "X marks r1c1" in [m["label"] for m in my_moves(fr)]
    assert not console_errors(fr) and not console_errors(en)
