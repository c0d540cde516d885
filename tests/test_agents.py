"""Agents (interpreter.agents): specifications, the decision they get, determinism, and that
they play every bundled game. The no-cheating test is in test_agents_no_cheating.py."""
from __future__ import annotations

import io
import random
import sys
from pathlib import Path

import pytest

from interpreter.play import cli, common
from interpreter.agents import (AgentSpec, AgentSpecError, Decision, GreedyAgent, ISMCTSAgent, MCTSAgent,
                                ParallelAgent, RandomAgent, RolloutAgent, bot_seed, decide, make_agent, make_decision,
                                parse_spec)
from interpreter.agents.parallel import cores
from interpreter.engine.game import Game
from interpreter.analysis.simulate import play_out

MINI = Path(__file__).parent / "fixtures" / "mini"


# ---- specifications -------------------------------------------------------------------------

@pytest.mark.parametrize("text, spec", [
    ("random", AgentSpec("random")),
    ("greedy", AgentSpec("greedy")),
    ("mcts:5000", AgentSpec("mcts", iterations=5000)),
    ("ismcts:2s", AgentSpec("ismcts", seconds=2.0)),
    ("ismcts:1.5s", AgentSpec("ismcts", seconds=1.5)),
    ("ISMCTS:500ms", AgentSpec("ismcts", seconds=0.5)),
    ("easy", AgentSpec("random")),
    ("normal", AgentSpec("greedy")),
    ("hard", AgentSpec("ismcts", seconds=0.3, workers=cores())),
    ("rollout:4@2,eval=leader", AgentSpec("rollout", iterations=4, workers=2, evaluation="leader")),
    ("ismcts:1s@2", AgentSpec("ismcts", seconds=1.0, workers=2)),
    ("mcts:300@3", AgentSpec("mcts", iterations=300, workers=3)),
    ("ismcts@all", AgentSpec("ismcts", workers=cores())),
])
def test_specifications_are_read(text, spec):
    assert parse_spec(text) == spec
    assert parse_spec(str(spec)) == spec  # the text it prints reads back the same


@pytest.mark.parametrize("text, says", [
    ("wizard", "no agent 'wizard'"),
    ("random:10", "takes no budget"),
    ("mcts:lots", "a budget is a number of iterations"),
    ("mcts:0", "at least 1 iteration"),
    ("ismcts:0s", "more than 0"),
    ("greedy@2", "only mcts and ismcts search with several workers"),
    ("ismcts:1s@0", "a number of workers"),
    ("ismcts@many", "a number of workers"),
])
def test_bad_specifications_say_what_is_expected(text, says):
    with pytest.raises(AgentSpecError) as e:
        parse_spec(text)
    assert says in str(e.value)


def test_make_agent_builds_each_kind_with_its_budget():
    assert isinstance(make_agent("random", 1), RandomAgent)
    assert isinstance(make_agent("normal", 1), GreedyAgent)
    m = make_agent("mcts:300", 1)
    assert type(m) is MCTSAgent and m.iterations == 300 and m.seconds is None
    h = make_agent("hard", 1)  # ismcts on every core, 0.3 s a decision (agents/parallel.py)
    one = h.local.agent if isinstance(h, ParallelAgent) else h
    assert type(one) is ISMCTSAgent and one.seconds == 0.3 and one.iterations is None
    assert (h.workers if isinstance(h, ParallelAgent) else 1) == cores()
    r = make_agent("rollout:0.3s@all,eval=leader", 1)  # the policy rollout, its samples shared out among the cores
    assert type(r) is RolloutAgent and r.seconds == 0.3 and r.samples is None and r.evaluation == "leader"
    assert r.workers == cores()
    p = make_agent("ismcts:0.3s@2", 1)
    assert isinstance(p, ParallelAgent) and type(p.local.agent) is ISMCTSAgent and p.workers == 2


# ---- the decision ---------------------------------------------------------------------------

def test_a_decision_holds_no_state_and_samples_fresh_states():
    game = Game.load("tic-tac-toe")
    st = game.new_game(seed=3)
    d = make_decision(game, st)
    assert isinstance(d, Decision) and d.seat == 0
    assert d.actions == tuple(game.legal_actions(st))
    assert "state" not in vars(d) and not any(v is st for v in vars(d).values())
    a, b = d.sample(random.Random(1)), d.sample(random.Random(1))
    assert a is not b and a is not st and a == b
    game.apply_in_place(a, d.actions[0])
    assert d.sample(random.Random(1)) == b  # a sample is the caller's to change
    assert d.observation["seat"] == "p1"
    with pytest.raises(Exception):
        d.seat = 1  # frozen


def test_a_kept_decision_survives_the_game_moving_on():
    game = Game.load("tic-tac-toe")
    st = game.new_game(seed=3)
    d = make_decision(game, st, keep=True)
    before = d.sample(random.Random(0))
    game.apply_in_place(st, d.actions[0])
    assert d.sample(random.Random(0)) == before


# ---- determinism ------------------------------------------------------------------------------

@pytest.mark.parametrize("spec", ["random", "greedy", "mcts:60", "ismcts:60"])
def test_agents_are_deterministic_for_a_seed_and_a_budget(spec):
    game = Game.load("connect-four")

    def game_with(seed):
        return play_out(game, 5, agents=[make_agent(spec, seed), make_agent("random", 9)]).decisions

    def first_moves(seed):
        st = game.new_game(seed=5)
        agents = [make_agent(spec, seed), make_agent(spec, seed + 1)]
        out = []
        for _ in range(8):
            if game.is_terminal(st):
                break
            a = decide(agents[game.current_player(st)], game, st)
            out.append(str(a))
            game.apply_in_place(st, a)
        return out

    random.seed(1)
    a = first_moves(11)
    random.seed(2)  # agents own their generators: the global one changes nothing
    assert first_moves(11) == a
    assert game_with(3) == game_with(3)
    if spec != "random":
        assert any(first_moves(s) != a for s in (12, 13, 14))  # the seed matters (ties, rollouts)


def test_a_time_budget_is_kept():
    import time
    game = Game.load("dark-agent", players=4)
    st = game.new_game(seed=2)
    agent = make_agent("ismcts:0.3s", 1)
    while len(game.legal_actions(st)) < 2:
        game.apply_in_place(st, game.legal_actions(st)[0])
    t = time.perf_counter()
    decide(agent, game, st)
    assert time.perf_counter() - t < 1.5
    assert agent.stats["iterations"] >= 1


# ---- every agent plays every bundled game -----------------------------------------------------

GAMES = [("tic-tac-toe", (), 2), ("connect-four", (), 2), ("dark-agent", (), 4), ("dark-agent", ("hidden-cards",), 3),
         ("agents-secrets", (), 6), ("agent-dog", (), 4)]


@pytest.mark.parametrize("name, variants, players", GAMES)
def test_every_agent_makes_legal_moves_in_every_game(name, variants, players):
    game = Game.load(name, players=players, variants=variants)
    st = game.new_game(seed=4)
    agents = [make_agent(k, bot_seed(4, i), **({} if k in ("random", "greedy") else {"rollout_depth": 8}))
              for i, k in zip(range(players), ["greedy", "mcts:12", "ismcts:12", "random"] * 3)]
    for _ in range(60):
        if game.is_terminal(st):
            break
        p = game.current_player(st)
        action = decide(agents[p], game, st)
        game.verify(st, action, seat=p)
        game.apply_in_place(st, action)


# ---- the command line ---------------------------------------------------------------------------

def run(capsys, *argv, stdin=None, monkeypatch=None):
    if stdin is not None:
        monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    code = cli.main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_seats_take_agent_specifications(capsys):
    code, out, err = run(capsys, "play", "tic-tac-toe", "--auto", "--seed", 1, "--seat", "1=mcts:200",
                         "--seat", "2=greedy")
    assert code == 0, err
    assert "p1 X (mcts:200), p2 O (greedy)" in out


def test_bots_sets_every_computer_seat(capsys):
    code, out, err = run(capsys, "play", "tic-tac-toe", "--auto", "--seed", 1, "--bots", "normal",
                         "--seat", "2=random")
    assert code == 0, err
    assert "p1 X (greedy), p2 O (random)" in out


def test_the_default_opponents_at_a_terminal_are_the_strong_bots():
    kinds = common.seat_kinds([], 4, auto=False, interactive=True)
    assert kinds == ["human"] + [str(parse_spec("ismcts:0.3s@all"))] * 3
    assert common.seat_kinds([], 2, auto=True, interactive=True) == ["random", "random"]
    assert common.seat_kinds(["2=mcts:50"], 3, auto=False, interactive=True, bots="easy") == ["human", "mcts:50", "random"]


@pytest.mark.parametrize("argv, says", [
    (["play", "tic-tac-toe", "--auto", "--seat", "1=mcts:fast"], "a budget is a number of iterations"),
    (["play", "tic-tac-toe", "--auto", "--bots", "impossible"], "no agent 'impossible'"),
    (["simulate", "tic-tac-toe", "--seat", "1=human"], "every seat of a simulation is a bot"),
])
def test_bad_agent_options_exit_2(capsys, argv, says):
    code, _, err = run(capsys, *argv)
    assert code == 2 and says in err and "Traceback" not in err


@pytest.mark.parametrize("entry", ["play", "simulate", "analyze", "strength"])
def test_a_time_budget_reaches_the_agents_from_every_entry_point(capsys, monkeypatch, tmp_path, entry):
    # `ismcts:30ms` (and `mcts:0.03s`) must make agents that think 0.03 s a decision, not a default
    # number of iterations, in `play`, `simulate`, `analyze` and benchmarks/strength.py.
    budgets = []
    act = MCTSAgent.act

    def spy(self, decision):
        budgets.append((self.kind, self.iterations, self.seconds))
        return act(self, decision)

    monkeypatch.setattr(MCTSAgent, "act", spy)
    if entry == "strength":
        sys.path.insert(0, str(Path(__file__).parent.parent / "benchmarks"))
        import strength
        assert strength.main(["ttt", "--mcts", "30ms", "--games", "1"]) == 0
    else:
        argv = {"play": ["play", "tic-tac-toe", "--auto", "--seed", 1],
                "simulate": ["simulate", "tic-tac-toe", "-n", 1],
                "analyze": ["analyze", "tic-tac-toe", "--games", 1, "--jobs", 1, "--out", tmp_path / "run", "-q"]}[entry]
        code, out, err = run(capsys, *argv, "--seat", "1=ismcts:30ms", "--seat", "2=mcts:0.03s")
        assert code == 0, err
    assert budgets and all(it is None and sec == 0.03 for _, it, sec in budgets), budgets


def test_simulate_takes_seat_specifications(capsys):
    import json
    code, out, err = run(capsys, "simulate", "tic-tac-toe", "-n", 6, "--seat", "1=mcts:150", "--json")
    assert code == 0, err
    d = json.loads(out)
    assert d["seats"][0]["wins"] >= 4  # mcts beats random as X


# ---- greedy and the content's evaluation ------------------------------------------------------

def _mini_with(tmp_path, evaluation=None) -> Game:
    import shutil
    folder = tmp_path / "mini"
    shutil.copytree(MINI, folder)
    if evaluation is not None:
        text = (folder / "game.yaml").read_text()
        (folder / "game.yaml").write_text(text.replace("  score: me.score\n",
                                                       f"  score: me.score\n  evaluation: {evaluation!r}\n"))
    return Game.load(str(folder), players=2)


def test_greedy_takes_what_scores_most(tmp_path):
    game = _mini_with(tmp_path)
    for seed in range(6):
        st = game.new_game(seed=seed)
        a = decide(make_agent("greedy", seed), game, st)
        gems = [z for z in game.m.zones if z.is_cell and any(game.m.cards[c].name == "gem" for c in st["z"][z.id])]
        if gems:
            assert a.name == "take" and a.args[0] in {z.key for z in gems}


def test_greedy_follows_the_contents_evaluation(tmp_path):
    game = _mini_with(tmp_path, "me.purse.count * 10 - me.score")  # a card in the purse, the cheaper the better
    for seed in range(6):
        st = game.new_game(seed=seed)
        a = decide(make_agent("greedy", seed), game, st)
        cell = game.m.zones[[z.key for z in game.m.zones].index(a.args[0])]
        assert a.name == "take" and game.m.cards[st["z"][cell.id][0]].name == "coin"
    assert game.m.evaluation is not None


def test_a_broken_evaluation_is_reported_with_its_place(tmp_path, capsys):
    import shutil
    folder = tmp_path / "mini"
    shutil.copytree(MINI, folder)
    text = (folder / "game.yaml").read_text()
    (folder / "game.yaml").write_text(text.replace("  score: me.score\n", "  score: me.score\n  evaluation: me.scor\n"))
    code, _, err = run(capsys, "validate", folder)
    assert code == 1 and "game.yaml:" in err and "scor" in err


def test_rollouts_play_on_while_the_evaluation_tells_nothing():
    """Connect four's score is set by the end only: a rollout cut at 20 decisions would judge the
    position "a draw", so rollouts play on to the end. Where the evaluation tells the seats apart
    (Agents Secrets, once a mission is won), they are cut at the rollout depth."""
    from interpreter.agents import make_agent, make_decision
    from interpreter.engine.game import Game

    def judged(name, players, decisions):
        game = Game.load(name, players=players)
        st = game.new_game(seed=3)
        rng = random.Random(3)
        for _ in range(decisions):
            acts = game.legal_actions(st)
            game.apply_in_place(st, acts[rng.randrange(len(acts))])
        agent = make_agent("mcts:40", 1, rollout_depth=4)
        seen = []
        ev = agent.evaluator(game)
        values = ev.values
        ev.values = lambda s: (seen.append(game.is_terminal(s)), values(s))[1]
        agent.act(make_decision(game, st))
        return seen

    four = judged("connect-four", 2, 0)
    assert len(four) == 40 and all(four)
    secrets = judged("agents-secrets", 6, 30)
    assert len(secrets) == 40 and not any(secrets)
