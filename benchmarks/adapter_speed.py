"""What the OpenSpiel adapter costs (issue 33): a move through the adapter against the engine's own
`apply`, and OpenSpiel's ISMCTSBot through the adapter against our own `ismcts`.

    python benchmarks/adapter_speed.py                         # every bundled game
    python benchmarks/adapter_speed.py --game dark-agent --players 4 --ismcts

Moves: random games are played through the adapter and their moves recorded (at least `--games`
games and `--moves` moves); then the same moves are replayed by `game.apply_in_place` on an
explicit-chance state (the engine; an action of the listing the forward model noted done as a
trusted one, as `Game.apply` does) and by `state.apply_action` (the adapter, which also notes each
state for the information states it may be asked), from states made before the clock starts (the
engine's `new_game`, the adapter's `new_initial_state`: a move is timed, not a start). One pass
replays every recorded game on one side; the passes alternate (engine, adapter, engine, ...), a
warm-up pass of each first, the garbage collector run before each (so that no pass pays for the
garbage of the one before; it stays on during the pass: what a move allocates is its cost). The
figure of a side is its fastest pass of `--repeat`, in CPU time (a decision that waits at a draw
does so in a greenlet of this thread, engine/suspend.py): on a shared machine the noise only adds
time, so the fastest pass is the one least disturbed, on both sides alike; the median pass ratio
is printed too. The ratio is adapter time / engine time.

ISMCTS (--ismcts): OpenSpiel's ISMCTSBot (random rollouts, as shipped) and our `ismcts` agent each
decide at the same positions with a fixed number of iterations; iterations per second of CPU time.
The garbage collector runs before each timed decision (of either bot), as timeit-style harnesses
do: the first full collection after a game is loaded walks every object of its definition (~30 ms
in Leduc poker) and fell in whichever bot's timing kept objects alive first (ISMCTSBot's tree),
a one-time cost of the process that was ~11 % of ISMCTSBot's time in Leduc poker's 20 positions.
For Kuhn and Leduc poker, also ISMCTSBot on OpenSpiel's native (C++) game: the most any adapter of
a Python game could give it.
"""
from __future__ import annotations

import argparse
import gc
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import pyspiel  # noqa: E402

import interpreter.adapters.openspiel  # noqa: E402,F401
from interpreter.core.model import Action  # noqa: E402
from interpreter.engine.game import EXPLICIT, SAMPLED, clone, touch  # noqa: E402

GAMES = [("tic-tac-toe", 0), ("connect-four", 0), ("agents-secrets", 6), ("dark-agent", 4), ("agent-dog", 0),
         ("kuhn-poker", 0), ("leduc-poker", 0)]


def _load(name: str, players: int):
    return pyspiel.load_game(f"interpret(game={name},players={players})")


def record(game, games: int, seed: int, moves: int = 0) -> list[list[tuple[int, Action]]]:
    """The moves of random games through the adapter, at least `games` of them and `moves` moves in
    all: each move an id (or a chance outcome) and the forward model's action it stands for (ids
    name identical pieces as the seat sees them)."""
    rng = random.Random(seed)
    out, total = [], 0
    while len(out) < games or total < moves:
        state, played = game.new_initial_state(), []
        while not state.is_terminal() and len(played) < 3000:
            a = rng.choice(state.legal_actions())
            played.append((a, Action("chance", (str(a),)) if state.is_chance_node() else state._box.listed[a]))
            state.apply_action(a)
        out.append(played)
        total += len(played)
    return out


def time_moves(game, games: list, repeat: int) -> tuple[float, float, int, float]:
    """(engine seconds, adapter seconds, moves, median ratio) replaying `games`: each side's fastest
    of `repeat` passes, the passes alternating (the module's documentation)."""
    g = game.new_initial_state()._g
    mode = EXPLICIT if g.catalog.uses_chance else SAMPLED
    played = [[a for a, _ in recorded] for recorded in games]
    actions = [[action for _, action in recorded] for recorded in games]
    n = sum(map(len, played))

    def engine() -> float:
        starts = [g.new_game(0, chance=mode) for _ in actions]
        gc.collect()
        t0 = time.process_time()
        for st, moves in zip(starts, actions):
            for a in moves:  # as Game.apply does: an action of the listing noted is trusted
                g.apply_in_place(st, a, checked=a not in g.legal_actions(st))
        return time.process_time() - t0

    def adapter() -> float:
        starts = [game.new_initial_state() for _ in played]
        gc.collect()
        t0 = time.process_time()
        for state, moves in zip(starts, played):
            for a in moves:
                state.apply_action(a)
        return time.process_time() - t0

    engine(), adapter()  # warm-up: the code the rules compile to, the ids' caches
    passes = [(engine(), adapter()) for _ in range(repeat)]
    ratios = sorted(a / e for e, a in passes)
    return min(e for e, _ in passes), min(a for _, a in passes), n, ratios[len(ratios) // 2]


def _spots(game, *, positions: int, seed: int) -> list:
    """`positions` decisions with a choice, picked at random along random games of an OpenSpiel game
    (several games if need be: a poker hand has few decisions)."""
    rng = random.Random(seed)
    spots = []
    for _ in range(100):
        state = game.new_initial_state()
        while len(spots) < positions and not state.is_terminal():
            if not state.is_chance_node() and len(state.legal_actions()) > 1 and rng.random() < 0.2:
                spots.append(state.clone())
            state.apply_action(rng.choice(state.legal_actions()))
        if len(spots) >= positions:
            break
    return spots


def _their_bot(game, *, iterations: int, seed: int):
    """OpenSpiel's ISMCTSBot as shipped, rolling out at random."""
    import numpy as np
    from open_spiel.python.algorithms import ismcts, mcts
    return ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, np.random.RandomState(seed)), uct_c=2.0,
                            max_simulations=iterations, random_state=np.random.RandomState(seed))


def ismcts_rates(name: str, players: int, *, positions: int, iterations: int, seed: int,
                 depth: int) -> tuple[float, float]:
    """(OpenSpiel's ISMCTSBot, our ismcts) iterations per CPU second at the same positions. Both play
    their rollouts at random to the end of the game (`depth`: our agent's rollout depth), as
    OpenSpiel's RandomRolloutEvaluator does."""
    from interpreter.agents import make_agent, make_decision
    game = _load(name, players)
    spots = _spots(game, positions=positions, seed=seed)
    theirs = ours = 0.0
    for st in spots:
        bot = _their_bot(game, iterations=iterations, seed=seed)
        gc.collect()
        t0 = time.process_time()
        bot.step(st)
        theirs += time.process_time() - t0
        g = st._g
        agent = make_agent(f"ismcts:{iterations}", seed, rollout_depth=depth)
        plain = clone(st._st)  # the same position, in the engine's own (sampled) mode
        plain["flow"] = {k: v for k, v in plain["flow"].items() if k != "chance"}
        touch(plain)
        gc.collect()
        t0 = time.process_time()
        agent.act(make_decision(g, plain))
        ours += time.process_time() - t0
    n = len(spots) * iterations
    return n / theirs, n / ours


NATIVE = {"kuhn-poker": "kuhn_poker", "leduc-poker": "leduc_poker"}  # OpenSpiel's own (C++) implementations


def native_rate(name: str, *, positions: int, iterations: int, seed: int) -> float:
    """OpenSpiel's ISMCTSBot on OpenSpiel's native implementation of the game, iterations per CPU
    second, positions picked as ismcts_rates picks them: what the bot costs without our adapter."""
    game = pyspiel.load_game(name)
    spots = _spots(game, positions=positions, seed=seed)
    spent = 0.0
    for st in spots:
        bot = _their_bot(game, iterations=iterations, seed=seed)
        gc.collect()
        t0 = time.process_time()
        bot.step(st)
        spent += time.process_time() - t0
    return len(spots) * iterations / spent


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--game", default=None, help="one game (default: every bundled game)")
    ap.add_argument("--players", type=int, default=0)
    ap.add_argument("--games", type=int, default=3, help="games recorded, at least (default: 3)")
    ap.add_argument("--moves", type=int, default=2000, help="moves recorded, at least (default: 2000)")
    ap.add_argument("--repeat", type=int, default=7, help="timed passes of each side (default: 7)")
    ap.add_argument("--ismcts", action="store_true", help="also compare ISMCTS iterations per second")
    ap.add_argument("--iterations", type=int, default=50)
    ap.add_argument("--positions", type=int, default=0,
                    help="positions for --ismcts (default: 3, and 20 for the poker hands, whose decisions take "
                         "milliseconds: at 3 their ratio swung 0.16-0.20 from run to run)")
    ap.add_argument("--depth", type=int, default=100_000, help="our ismcts' rollout depth (default: to the end)")
    args = ap.parse_args(argv)
    games = [(args.game, args.players)] if args.game else GAMES
    for name, players in games:
        game = _load(name, players)
        e, a, n, median = time_moves(game, record(game, args.games, 1, args.moves), args.repeat)
        line = (f"{name:16} {n:6} moves  engine {e / n * 1e6:8.1f} us/move  adapter {a / n * 1e6:8.1f} us/move"
                f"  ratio {a / e:5.2f} (median pass {median:5.2f})")
        positions = args.positions or (20 if name in NATIVE else 3)
        if args.ismcts and not game.perfect:  # ISMCTSBot refuses perfect-information games
            theirs, ours = ismcts_rates(name, players, positions=positions, iterations=args.iterations, seed=1,
                                        depth=args.depth)
            line += f"  ISMCTSBot {theirs:7.1f} it/s  ours {ours:7.1f} it/s  ratio {theirs / ours:5.2f}"
            if name in NATIVE:  # the bot on OpenSpiel's own implementation: its ceiling
                native = native_rate(NATIVE[name], positions=positions, iterations=args.iterations, seed=1)
                line += f"  (on native {NATIVE[name]}: {native:7.1f} it/s, ratio {native / ours:5.2f})"
        print(line, flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
