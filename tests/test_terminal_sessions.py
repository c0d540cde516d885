"""`interpret play` through a real pseudo-terminal (pexpect): what the screen shows for each game —
the legend, the dice of an attack, the cards revealed at a resolution, choices without duplicates,
undo, and a game killed (kill -9) then resumed exactly where it stopped."""
from __future__ import annotations

import json
import os
import re
import signal
import sys

import pytest

pexpect = pytest.importorskip("pexpect")

GAMES = ["dark-agent", "agents-secrets", "agent-dog"]
# the choices' keys: a letter per kind of move and a number within it (a1-c4); group 1 is the first
PROMPT = r"your choice \(([a-z]+\d+\+?)(?:-[a-z]+\d+\+?)?, \? for help\): "
WHICH = r"which one \(([a-z]+\d+)(?:-[a-z]+\d+)?, b to go back\): "
LISTED = r"^\s+([a-z]+\d+\+?)\.\s+(.*?)\r?$"  # a choice as listed: its key, then its label


def spawn(tmp_path, *args):
    env = dict(os.environ, XDG_STATE_HOME=str(tmp_path / "state"), NO_COLOR="1", PYTHONUNBUFFERED="1")
    return pexpect.spawn(sys.executable, ["-m", "interpreter", "play", *map(str, args)], env=env,
                         encoding="utf-8", timeout=60, dimensions=(60, 140))


def choose(p, answer=None):
    """Wait for a prompt (a choice, or one inside a group) and answer it (by default with the
    first choice's key); the screen before it."""
    i = p.expect([PROMPT, WHICH])
    screen = p.before
    p.sendline(answer or p.match.group(1))
    return screen


def leave(p):
    p.expect([PROMPT, WHICH])
    p.sendline("q")
    p.expect(r"\(y/N\) ")
    p.sendline("y")
    p.expect(pexpect.EOF)
    return p.before


def actions_in(log) -> list[str]:
    return [json.loads(line)["action"] for line in log.read_text().splitlines() if '"action"' in line]


@pytest.mark.parametrize("game", GAMES)
def test_the_legend_is_shown_and_choices_have_no_duplicates(tmp_path, game):
    p = spawn(tmp_path, game, "--seed", 5, "--bots", "random", "--log", tmp_path / "g.jsonl")
    p.expect("Legend: ")
    p.expect(r"\(type \? for help")
    for _ in range(12):
        p.expect([PROMPT, WHICH])
        listed = [label for _, label in re.findall(LISTED, p.before.split("choices:")[-1], re.M)]
        assert len(listed) == len(set(listed)), listed
        p.sendline(p.match.group(1))
    p.expect([PROMPT, WHICH])
    p.sendline("legend")
    p.expect("seats: p1 = ")
    leave(p)


def test_dark_agent_shows_the_dice_of_an_attack(tmp_path):
    p = spawn(tmp_path, "dark-agent", "--seed", 4, "--bots", "random", "--log", tmp_path / "g.jsonl")
    seen = ""
    for _ in range(80):
        i = p.expect([PROMPT, WHICH, r"§6\.3 \w+ attacks [^:\r\n]+: dice \d, \d, \d, \d, total \d+ against defence \d+"])
        if i == 2:
            seen = p.after
            break
        p.sendline(p.match.group(1))
    assert seen, "no attack narrated in 80 decisions"
    p.expect(r"§6\.[45] (success|failure)")
    p.expect([PROMPT, WHICH, pexpect.EOF])
    p.kill(signal.SIGKILL)


def test_agents_secrets_shows_the_cards_revealed_at_a_resolution(tmp_path):
    p = spawn(tmp_path, "agents-secrets", "--seed", 2, "--bots", "random", "--log", tmp_path / "g.jsonl")
    for _ in range(4):
        choose(p)
    p.expect(r"Rio: the cards played are revealed: (CIA|KGB) ")
    p.expect(r"Rio \(\d points\): CIA -?\d+, KGB -?\d+")
    leave(p)


@pytest.mark.parametrize("game", GAMES)
def test_undo_takes_back_the_last_decision(tmp_path, game):
    log = tmp_path / "g.jsonl"
    p = spawn(tmp_path, game, "--seed", 3, "--bots", "random", "--log", log)
    screen = choose(p, "u")
    p.expect("Cannot undo: you have no decision to take back.")
    p.sendline(re.findall(LISTED, screen, re.M)[1][0])  # the second choice
    p.expect([PROMPT, WHICH])
    before = actions_in(log)
    p.sendline("u")
    i = p.expect([r"Undone: back to decision (\d+), your move again\.", r"Cannot undo: ([^\r\n]+)"])
    if i == 0:
        n = int(p.match.group(1))
        assert actions_in(log) == before[:n - 1]
        p.expect([PROMPT, WHICH])
        p.sendline(p.match.group(1))
        p.expect(rf"\s{n}\. p1 ")
    else:  # chance or a reveal since: refused, with the reason
        assert "chance" in p.match.group(1) or "revealed" in p.match.group(1)
    leave(p)


@pytest.mark.parametrize("game", GAMES)
def test_a_killed_game_resumes_exactly_where_it_stopped(tmp_path, game):
    log = tmp_path / "g.jsonl"
    p = spawn(tmp_path, game, "--seed", 7, "--bots", "random", "--log", log)
    for _ in range(5):
        choose(p)
    p.expect([PROMPT, WHICH])
    p.kill(signal.SIGKILL)  # no goodbye: the log must already hold every decision
    p.wait()
    played = actions_in(log)
    assert played
    q = spawn(tmp_path, "--resume", log)
    q.expect(rf"\(resumed after {len(played)} decisions\)")
    q.expect([PROMPT, WHICH])
    screen = q.before
    # the same game: the state rebuilt from the log is the one the killed process had reached
    from interpreter.engine.game import Game
    from interpreter.play.render import Renderer
    g = Game.load(game)
    st = g.new_game(seed=7)
    for a in played:
        g.apply_in_place(st, a)
    first_line = Renderer(g).screen(st, g.current_player(st)).splitlines()[0]
    assert first_line.split("═")[2].strip() in screen
    q.sendline(q.match.group(1))
    out = leave(q)
    assert f"interpret play --resume {log}" in out
    assert actions_in(log)[:len(played)] == played and len(actions_in(log)) > len(played)


def test_a_secret_vote_is_told_to_the_others_without_its_suspect():
    """Agents Secrets: the vote's label names the suspect's owner without naming the suspect card:
    the other seats read `vote against: a secret choice` (the words its label starts with), the voter `vote against …`."""
    import contextlib
    import io
    import random

    from interpreter.engine.game import Game
    from interpreter.play.narration import Narrator
    from interpreter.play.render import Renderer
    g = Game.load("agents-secrets")
    r = Renderer(g)
    st = g.new_game(seed=2)
    rng = random.Random(1)
    while g.step_name(st) != "vote":
        g.apply_in_place(st, rng.choice(g.legal_actions(st)))
    p = g.current_player(st)
    action, label = g.legal_actions_with_labels(st)[1]
    assert label.startswith("vote against ")
    told = {}
    narrators = {seat: Narrator(g, r, viewer=seat) for seat in (p, (p + 1) % g.num_players)}
    labels = {seat: n.hide(st, p, label, action) for seat, n in narrators.items()}
    step = g.apply_in_place(st, action)
    for seat, n in narrators.items():
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            n.move(st, n=1, player=p, label=labels[seat], events=step.events, action=action)
        told[seat] = out.getvalue()
    assert label in told[p]
    other = (p + 1) % g.num_players
    assert "vote against: a secret choice" in told[other] and label not in told[other]


def test_an_unknown_event_in_render_narrate_is_a_content_error(write_game, capsys):
    from interpreter.play import cli
    folder = write_game("""
        game: {name: n, title: N, players: {min: 1, max: 1}}
        cards: {chip: {copies: 2, start: bag}}
        zones: {bag: {visibility: public}, done: {visibility: public}}
        actions:
          take: {params: {c: bag.cards}, effect: move c to done}
        flow: {turn: {steps: [{name: take}]}, end: bag.count == 0}
        render:
          narrate:
            tkae: "took"
    """)
    assert cli.main(["validate", str(folder)]) == 1
    err = capsys.readouterr().err
    assert "render.narrate: no event or procedure `tkae`" in err and "game.yaml:" in err


def test_agent_dog_discard_shows_the_cards_played_face_up():
    """The discard's visibility is `top`: a player who watched the cards played face up remembers
    them under the top one (render.Memory); a card put under the pile unseen stays `?`."""
    import random

    from interpreter.engine.game import Game
    from interpreter.play.render import HIDDEN, Renderer
    g = Game.load("agent-dog")
    r = Renderer(g)
    st = g.new_game(seed=2)
    rng = random.Random(2)
    for _ in range(40):
        g.apply_in_place(st, rng.choice(g.legal_actions(st)))
        r.remember(st, 0)
    discard = g.m.zone_by_name["discard"]
    watched = r.zone_text(r.sight(st, 0), discard)
    unwatched = r.zone_text(Renderer(g).sight(st, 0), discard)
    named = lambda text: [x for x in text.split(") ", 1)[1].split(", ") if not x.startswith(HIDDEN)]
    assert len(st["z"][discard.id]) > 3
    assert len(named(unwatched)) <= 1 < len(named(watched)), (watched, unwatched)
