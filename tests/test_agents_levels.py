"""The levels mean something (issue 29, item 5): `normal` takes the value in reach and does not
harm its own side; `hard` searches on every core within its time; and every strength figure the
README publishes names the command that reproduces it."""
from __future__ import annotations

import random
import re
import statistics
import time
from pathlib import Path

import pytest

from interpreter.agents import GreedyAgent, make_agent, make_decision
from interpreter.agents.evaluate import Evaluator
from interpreter.engine.game import clone
from interpreter.engine.game import Game
from interpreter.information.views import seat_sides

README = Path(__file__).resolve().parent.parent / "README.md"


# ---- normal ---------------------------------------------------------------------------------

def _attacks(depth: int, seed: int) -> tuple[int, int]:
    """A Dark Agent game, seat 1 greedy (`depth` decisions of its own move followed), the others
    random: how often it attacked, and its score after 200 decisions."""
    game = Game.load("dark-agent", players=4)
    st = game.new_game(seed=seed)
    rng = random.Random(seed)
    agent = GreedyAgent(seed, depth=depth)
    attacks = 0
    for _ in range(200):
        if game.is_terminal(st):
            break
        p = game.current_player(st)
        if p == 0:
            a = agent.act(make_decision(game, st, p))
            attacks += a.name == "attack"
        else:
            acts = game.legal_actions(st)
            a = acts[rng.randrange(len(acts))]
        game.apply_in_place(st, a)
    return attacks, game.scores(st)[0]


def test_normal_goes_for_the_attack_its_turn_can_reach():
    """Dark Agent: an attack comes after the targets of the turn, several steps in; the one-ply
    greedy ended its turns at random before it (1 attack in 3 games of 200 decisions, 12 points in
    all); following the move to its end, `normal` attacks (21 attacks, 99 points, same games)."""
    attacks, score = _attacks(GreedyAgent(0).depth, 0)
    assert attacks >= 3 and score >= 10, (attacks, score)


def _side_value(game, st, seat: int, rng: random.Random, completions: int = 60) -> float:
    """The mean margin of `seat`'s side once the others' secret ballots are drawn at random and
    counted (on the true state: the oracle the test judges the agent's ballot by)."""
    ev = Evaluator(game)
    total = 0.0
    for _ in range(completions):
        s = clone(st)
        while not game.is_terminal(s) and game.simultaneous.waiting(s):
            acts = game.legal_actions(s)
            game.apply_in_place(s, acts[rng.randrange(len(acts))])
        total += ev.margin(s, seat)
    return total / completions


def test_a_normal_double_agent_does_not_cast_a_ballot_that_costs_his_side():
    """Agents Secrets, Hunt for the Double Agent: a ballot against a player helps designate them,
    and a designated player's missions count for no one (scoring.yaml). A double agent's own
    missions count for his true side: voting against himself can only cost it. The one-ply greedy
    judged the ballot before the count (every ballot alike) and voted at random: against himself
    in 4 of 20 votes of seeds 0-9. `normal` completes the step before judging."""
    game = Game.load("agents-secrets", players=6)
    keys = [s.key for s in game.m.seats]
    rng = random.Random(0)
    judged = 0
    for seed in range(10):
        st = game.new_game(seed=seed)
        while not game.is_terminal(st) and game.legal_actions(st)[0].name != "vote":
            acts = game.legal_actions(st)
            game.apply_in_place(st, acts[rng.randrange(len(acts))])
        sides, company = seat_sides(game, st), st["pv"]["company"]
        while not game.is_terminal(st) and game.legal_actions(st)[0].name == "vote":
            p = game.current_player(st)
            acts = game.legal_actions(st)
            if sides[p] != company[p]:  # a double agent
                chosen = GreedyAgent(seed * 7 + p).act(make_decision(game, st, p))
                if chosen.args == (keys[p],):
                    blank = next(a for a in acts if a.args != (keys[p],))
                    mine, other = clone(st), clone(st)
                    game.apply_in_place(mine, chosen)
                    game.apply_in_place(other, blank)
                    assert _side_value(game, mine, p, random.Random(1)) >= _side_value(game, other, p, random.Random(1)) - 0.5, \
                        f"seed {seed}: {keys[p]} voted against himself, and it cost his side"
                judged += 1
                a = chosen
            else:
                a = acts[rng.randrange(len(acts))]
            game.apply_in_place(st, a)
    assert judged >= 10


# ---- hard -----------------------------------------------------------------------------------

@pytest.mark.parametrize("spec", ["hard", "rollout:0.3s@all,eval=leader"])
def test_hard_thinks_within_its_time_on_every_core(spec):
    """`hard` (ismcts on every core) and the policy rollout on every core: within their time, a worker
    process per other core."""
    from interpreter.agents import ParallelAgent, RolloutAgent
    from interpreter.agents.parallel import cores
    game = Game.load("dark-agent", players=4)
    st = game.new_game(seed=2)
    agent = make_agent(spec, 1)
    rng = random.Random(2)
    times = []
    try:
        while len(times) < 3:
            acts = game.legal_actions(st)
            if len(acts) > 1 and game.current_player(st) == 0:
                start = time.perf_counter()
                agent.act(make_decision(game, st, keep=True))
                times.append(time.perf_counter() - start)
            game.apply_in_place(st, acts[rng.randrange(len(acts))])
        forked = agent.in_processes if isinstance(agent, RolloutAgent) else None
    finally:
        getattr(agent, "close", lambda: None)()
    assert statistics.median(times) < 1.5, times  # 0.3 s a decision, with room for a loaded machine
    if isinstance(agent, RolloutAgent):
        assert spec != "hard" and agent.workers == cores()
        assert forked == (cores() > 1)  # the samples followed in a worker process per other core
    elif cores() > 1:
        assert isinstance(agent, ParallelAgent) and agent.workers == cores()


# ---- published figures ----------------------------------------------------------------------

def _strength_rows(text: str) -> list[str]:
    """The rows of every table of the README whose header has a win rate."""
    rows, inside = [], False
    for line in text.splitlines():
        if line.startswith("|") and "win rate [95 % CI]" in line:
            inside = True
            continue
        if inside and line.startswith("| ---"):
            continue
        if inside and line.startswith("|"):
            rows.append(line)
        else:
            inside = False
    return rows


def test_every_strength_row_of_the_readme_names_its_command():
    rows = _strength_rows(README.read_text(encoding="utf-8"))
    assert len(rows) >= 5
    command = re.compile(r"`python benchmarks/strength\.py [a-z0-9-]+( [a-z0-9-]+)* --games \d+ --seed \d+[^`]*`")
    missing = [r for r in rows if not command.search(r)]
    assert not missing, "rows without the command that reproduces them:\n" + "\n".join(missing)


def test_the_check_of_the_readme_catches_a_row_without_its_command():
    table = ("| command | what |\n| --- | --- |\n| analyze | win rates by seat |\n\n"
             "| match | agents | n | won/drawn/lost | win rate [95 % CI] | command |\n| --- | --- |\n"
             "| a | b | 1 | 1/0/0 | 100 % | `python benchmarks/strength.py dark --games 1 --seed 0` |\n"
             "| a | b | 1 | 1/0/0 | 100 % | measured by hand |\n\nafter")
    rows = _strength_rows(table)
    assert len(rows) == 2 and "by hand" in rows[1]


@pytest.mark.skipif("not config.getoption('--strength')", reason="long: run with --strength")
def test_normal_beats_random_at_dark_agent():
    import sys
    sys.path.insert(0, str(README.parent / "benchmarks"))
    import strength
    m = strength.matches("150", False)["dark-normal"][0]
    for g in range(12):
        strength.play(m, g, 900 + g)
    assert m.wins >= 4, m.row()  # 25 % is equal strength


# ---- at the table ---------------------------------------------------------------------------

def test_hard_bots_at_a_terminal_answer_and_leave_no_trace(tmp_path):
    """`--bots hard` at a real terminal: the bots search in worker processes, play their moves, and
    Ctrl-C at the table shows no worker's traceback (the workers ignore it; the game is saved)."""
    import os
    import sys
    pexpect = pytest.importorskip("pexpect")
    env = dict(os.environ, XDG_STATE_HOME=str(tmp_path / "state"), NO_COLOR="1", PYTHONUNBUFFERED="1")
    import signal
    # as a shell starts it: Ctrl-C at its default (an ignored SIGINT is inherited through exec, and
    # an earlier test of the same pytest worker may have left this process ignoring it)
    p = pexpect.spawn(sys.executable, ["-m", "interpreter", "play", "connect-four", "--seed", "1", "--bots", "hard"],
                      env=env, encoding="utf-8", timeout=120, dimensions=(60, 140),
                      preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    prompt = r"your choice \([^)]*\): "
    p.expect(prompt)
    p.sendline("drop 4")
    p.expect(prompt)  # the hard bot answered
    p.sendline("drop 4")
    p.expect(prompt)
    p.sendintr()  # Ctrl-C: the terminal signals every process of the foreground group
    p.expect(pexpect.EOF, timeout=300)
    assert "Traceback" not in p.before and "KeyboardInterrupt" not in p.before, p.before[-2000:]
