"""Agents never see more than their seat's observation (issue 13, item 5).

At decisions of random games of every bundled game and variant, build a second state that differs
from the real one only by two cards the deciding seat cannot see (their places swapped). Given the
same seed and budget, every agent must play the same action in both. Positive control: swapping
two cards the seat can see changes what it is given, and changes the agents' play somewhere.

Bounded by default (a few decisions per configuration, small budgets); `--agents-long` checks
many more decisions with larger budgets.
"""
from __future__ import annotations

import random
from types import SimpleNamespace

import pytest

from interpreter.agents import make_agent, make_decision
from interpreter.agents.base import observe
from interpreter.engine.game import Game, clone
from interpreter.errors import InterpretError
from interpreter.information.observation import relabel, unseen_slots

from tests.test_agents_belief import _two_decisions

CONFIGS = [
    ("dark-agent", (), 4), ("dark-agent", (), 2), ("dark-agent", ("all-objectives",), 3),
    ("dark-agent", ("eclair",), 4), ("dark-agent", ("expansion-5-10",), 6), ("dark-agent", ("hidden-cards",), 4),
    ("dark-agent", ("long",), 2), ("dark-agent", ("no-dice",), 4), ("dark-agent", ("solo",), 1),
    ("dark-agent", ("teams",), 4), ("agents-secrets", (), 6), ("agents-secrets", ("le-monde-est-vaste",), 8),
    ("agent-dog", (), 4), ("agent-dog", ("2-3-joueurs",), 2), ("tic-tac-toe", (), 2), ("connect-four", (), 2),
    ("kuhn-poker", (), 2), ("leduc-poker", (), 2),
]
AGENTS = ["greedy:2", "mcts:{n}", "ismcts:{n}"]

@pytest.fixture(scope="module")
def budget(request) -> dict:
    long = request.config.getoption("--agents-long")
    return {"decisions": 40 if long else 2, "games": 3 if long else 1, "iterations": 60 if long else 8,
            "depth": 20 if long else 6, "swaps": 3 if long else 2}


def _swap(game, st, a: int, b: int) -> dict:
    """A copy of `st` where cards `a` and `b` trade identities (each place keeps its state)."""
    return relabel(game, st, {a: b, b: a})


def _pairs(game, st, seat, rng, *, visible: bool, tries: int = 80):
    """Pairs of cards of different names that `seat` cannot identify (visible=False: same back,
    so that nothing it sees tells them apart), or that it sees (visible=True). Two places are
    drawn first (the same one twice: an order within a pile), then a card in each (often the top
    one): every place counts, not only the biggest pile."""
    m = game.m
    unseen = unseen_slots(game, st, seat)
    hidden = {st["z"][z][pos] for z, pos in unseen}
    by_zone = {}
    for c in m.cards:
        if (c.id not in hidden) == visible:
            by_zone.setdefault(st["loc"][c.id], []).append(c.id)
    zones = sorted(by_zone)
    out = []
    for _ in range(tries if zones else 0):
        za, zb = rng.choice(zones), rng.choice(zones)
        top = st["z"][za][0]
        a = top if rng.random() < 0.5 and top in by_zone[za] else rng.choice(by_zone[za])
        b = rng.choice(by_zone[zb])
        ca, cb = m.cards[a], m.cards[b]
        differ = ca.name != cb.name or (visible and ca.owner is not cb.owner)  # (two players' marks)
        if a != b and differ and (visible or ca.back == cb.back) and (a, b) not in out:
            out.append((a, b))
    return out


def _decisions(game, seed: int, count: int):
    """States of one random game at `count` decisions with several legal actions, spread out."""
    rng = random.Random(seed)
    st = game.new_game(seed=seed)
    states = []
    while not game.is_terminal(st) and len(states) < 400:
        acts = game.legal_actions(st)
        if len(acts) > 1:
            states.append(clone(st))
        game.apply_in_place(st, rng.choice(acts))
    rng.shuffle(states)
    return states[:count]


def _act(game, st, spec, seed, depth):
    """What the agent plays, and what it thought of every action (its search, not only its choice)."""
    options = {} if spec.startswith("greedy") else {"rollout_depth": depth}
    agent = make_agent(spec, seed, **options)
    action = agent.act(make_decision(game, st, keep=False))
    return action, agent.last_values


def _check(game, budget) -> tuple[int, list]:
    """(swaps checked, what differed): each agent at decisions of random games, on the real state
    and on the state with two unseen cards swapped, with the same seed and budget."""
    specs = [s.format(n=budget["iterations"]) for s in AGENTS]
    checked, broken, differ = 0, 0, []
    for g in range(budget["games"]):
        rng = random.Random(1000 + g)
        for st in _decisions(game, 77 + g, budget["decisions"]):
            seat = game.current_player(st)
            for a, b in _pairs(game, st, seat, rng, visible=False)[:budget["swaps"]]:
                other = _swap(game, st, a, b)
                if observe(game, other, seat) != observe(game, st, seat) or game.check_invariants(other):
                    continue  # a state the rules never reach (the information model's own test checks the rest)
                for spec in specs:
                    seed = rng.randrange(10**6)
                    first = _act(game, st, spec, seed, budget["depth"])
                    try:
                        second = _act(game, other, spec, seed, budget["depth"])
                    except InterpretError:
                        broken += 1  # the swap made a state the rules cannot play
                        break
                    checked += 1
                    if first != second:
                        differ.append(f"{spec} at seat {seat} plays {first[0]} or {second[0]} (or weighs its actions "
                                      f"differently) depending on {game.m.cards[a].key} <-> {game.m.cards[b].key}")
    assert broken <= checked // 2, f"{broken} swaps made states the rules cannot play, {checked} checked"
    return checked, differ


@pytest.mark.parametrize("name, variants, players", CONFIGS, ids=lambda v: "+".join(v) if isinstance(v, tuple) else v)
def test_agents_play_the_same_whatever_the_cards_they_cannot_see(name, variants, players, budget):
    game = Game.load(name, players=players, variants=variants)
    checked, differ = _check(game, budget)
    assert not differ, "agents that read cards they cannot see:\n" + "\n".join(differ)
    if name not in ("tic-tac-toe", "connect-four"):  # perfect information: nothing is hidden there
        assert checked > 0, "no hidden card to swap was found: the test checked nothing"


def test_the_check_catches_an_agent_that_samples_the_true_state(monkeypatch, budget):
    """The test can fail: with a `determinize` that keeps the true cards (only the dice reseeded),
    the agents' play depends on the hidden cards, and the check says so."""
    def cheat(self, st, seat, rng):
        out = clone(st)
        out["rng"] = rng.getrandbits(64)
        return out
    monkeypatch.setattr(Game, "determinize", cheat)
    # agents draw many samples of a decision through a sampler (Game.sampler): it cheats the same way
    monkeypatch.setattr(Game, "sampler", lambda self, st, seat, memory=None: SimpleNamespace(
        draw=lambda rng: cheat(self, st, seat, rng)))
    game = Game.load("dark-agent", players=4, variants=("hidden-cards",))
    _, differ = _check(game, budget)
    assert differ


@pytest.mark.parametrize("name, players", [("tic-tac-toe", 2), ("connect-four", 2)])
def test_positive_control_swapping_cards_the_seat_sees_changes_its_play(name, players, budget):
    game = Game.load(name, players=players)
    rng = random.Random(5)
    noticed = changed = 0
    for st in _decisions(game, 3, 8):
        seat = game.current_player(st)
        for a, b in _pairs(game, st, seat, rng, visible=True)[:1]:
            other = _swap(game, st, a, b)
            if observe(game, other, seat) != observe(game, st, seat):
                noticed += 1
            seed = rng.randrange(10**6)
            if _act(game, st, "mcts:40", seed, 8)[0] != _act(game, other, "mcts:40", seed, 8)[0]:
                changed += 1
    assert noticed > 0 and changed > 0, (noticed, changed)


def test_positive_control_a_card_played_face_up_is_seen_by_the_others():
    """What the agents are given includes a card played face up (Agent DOG, « Place cette carte face
    visible sur la pile de défausse »): swapping it, on the discard, with a card another seat cannot
    see changes that seat's observation; swapping two cards it cannot see does not."""
    from interpreter.information.labels import shown_cards
    game = Game.load("agent-dog", players=4)
    rng = random.Random(4)
    st = game.new_game(seed=4)
    seen = 0
    for _ in range(200):
        action = rng.choice(game.legal_actions(st))
        player = game.current_player(st)
        played = shown_cards(game, action)
        game.apply_in_place(st, action)
        if not played:
            continue
        (cid,) = played
        seat = (player + 1) % 4
        hidden = [st["z"][z][pos] for z, pos in unseen_slots(game, st, seat)]
        other = next((c for c in hidden if game.m.cards[c].name != game.m.cards[cid].name
                      and game.m.cards[c].back == game.m.cards[cid].back), None)
        if other is None or cid in hidden:  # (the round ended: the discard went back into the deck)
            continue
        assert observe(game, _swap(game, st, cid, other), seat) != observe(game, st, seat)
        twin = next((c for c in hidden if c != other and game.m.cards[c].name != game.m.cards[other].name
                     and game.m.cards[c].back == game.m.cards[other].back), None)
        if twin is not None:
            assert observe(game, _swap(game, st, other, twin), seat) == observe(game, st, seat)
        seen += 1
    assert seen > 10


# ---- the opponent model of hidden sides (agents/belief.py): twin histories ------------------

SEAT = 0


@pytest.fixture(scope="module")
def secrets():
    return Game.load("agents-secrets", players=6)


def _twin(game, prev, now, rng):
    """`prev` and `now` with two cards SEAT sees in neither swapped (same back), or None."""
    hidden_prev = {prev["z"][z][pos] for z, pos in unseen_slots(game, prev, SEAT)}
    hidden_now = {now["z"][z][pos] for z, pos in unseen_slots(game, now, SEAT)}
    both = sorted(hidden_prev & hidden_now)
    m = game.m
    pairs = [(a, b) for a in both for b in both if a < b and m.cards[a].back == m.cards[b].back
             and m.cards[a].name != m.cards[b].name]
    rng.shuffle(pairs)
    for a, b in pairs:
        p2, n2 = relabel(game, prev, {a: b, b: a}), relabel(game, now, {a: b, b: a})
        if (observe(game, p2, SEAT) == observe(game, prev, SEAT) and observe(game, n2, SEAT) == observe(game, now, SEAT)
                and not game.check_invariants(p2) and not game.check_invariants(n2)):
            return p2, n2
    return None


def _play_both(game, prev, now, seed: int):
    """An ismcts with the opponent model at SEAT's two decisions: its actions, its last search, its beliefs."""
    agent = make_agent("ismcts:8", seed, belief=True, rollout_depth=6, prior=False)
    played = agent.act(make_decision(game, prev, SEAT))
    action = agent.act(make_decision(game, now, SEAT))
    return played, action, agent.last_values, dict(agent.beliefs(SEAT).loglik)


def test_the_opponent_model_reads_nothing_the_seat_cannot_see(secrets):
    """Twin histories that differ only by two cards the seat sees in neither of its decisions (a
    secret identity among them, often): the same seed gives the same beliefs and the same play."""
    rng = random.Random(4)
    checked = 0
    for seed in range(3):
        prev, _, now = _two_decisions(secrets, seed)
        twin = _twin(secrets, prev, now, rng)
        if twin is None:
            continue
        first = _play_both(secrets, prev, now, seed)
        assert first == _play_both(secrets, twin[0], twin[1], seed)
        assert first[3], "the model judged nobody: the check proves nothing"
        checked += 1
    assert checked >= 2



# ---- the rollout's worker processes (agents/rollout.py, `rollout:2@2`) ----------------------

def _rollout_in_workers(game, st, seed):
    from interpreter.agents import RolloutAgent
    agent = RolloutAgent(seed, iterations=2, horizon=6, workers=2)  # sample 1 followed in a forked process
    try:
        return agent.act(make_decision(game, st, keep=False)), agent.last_values, bool(agent._pool)
    finally:
        agent.close()


def _rollout_swaps(game, *, swaps: int) -> tuple[int, list]:
    rng = random.Random(8)
    checked, differ = 0, []
    for st in _decisions(game, 78, 12):
        if checked >= swaps:
            break
        seat = game.current_player(st)
        for a, b in _pairs(game, st, seat, rng, visible=False)[:1]:
            other = _swap(game, st, a, b)
            if observe(game, other, seat) != observe(game, st, seat) or game.check_invariants(other):
                continue
            first, second = _rollout_in_workers(game, st, 3), _rollout_in_workers(game, other, 3)
            assert first[2], "no worker process started: the check would prove nothing"
            checked += 1
            if first != second:
                differ.append(f"{game.m.cards[a].key} <-> {game.m.cards[b].key}")
    return checked, differ


@pytest.mark.skipif(not hasattr(__import__("os"), "fork"), reason="no fork here")
def test_the_rollouts_worker_processes_play_the_same_whatever_the_cards_they_cannot_see(monkeypatch):
    """A worker process is sent the decision, and samples it as the player's process does: the same
    seed gives the same judgement (its samples' margins in it) on twin states; with a worker that
    samples the state it holds instead, the check sees the difference."""
    game = Game.load("kuhn-poker", players=2)  # the showdown, within a rollout's reach, reads the hidden cards
    checked, differ = _rollout_swaps(game, swaps=3)
    assert checked >= 1 and not differ, differ

    from interpreter.agents import base, parallel

    def reads_the_state(game, portable):  # a worker that samples the state it was sent, not the seat's view
        seat, actions, held, _ = portable
        return base.Decision(seat, tuple(actions), game, lambda: observe(game, held, seat),
                             lambda rng: dict(clone(held), rng=rng.getrandbits(64)), lambda: portable)
    monkeypatch.setattr(parallel, "restore_decision", reads_the_state)
    assert _rollout_swaps(game, swaps=3)[1]
