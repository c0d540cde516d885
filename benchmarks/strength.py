"""How well the agents play: seat-rotated matches, win rates with 95 % Wilson intervals (issue 13).

    python benchmarks/strength.py ttt            # tic-tac-toe: mcts vs random, mcts vs mcts
    python benchmarks/strength.py c4 --games 100 # connect four: mcts vs random
    python benchmarks/strength.py c4-openspiel --mcts 200   # mcts vs OpenSpiel's MCTSBot, 200 simulations each
    python benchmarks/strength.py dark --budget 150 --games 40   # ismcts:150, 0.4-1 s a decision on an idle core
    python benchmarks/strength.py dark --budget 1s --games 40    # 1 s a decision, whatever the machine does
    python benchmarks/strength.py all --quick    # every match, few games, tiny budgets (what CI runs)
    python benchmarks/strength.py levels --games 60             # the levels in Dark Agent 4p (easy, normal, hard)
    python benchmarks/strength.py levels --hard rollout:4@2,eval=leader    # ... `hard` as a budget in samples (reproducible)
    python benchmarks/strength.py ladder --budget 100 --games 40  # every bundled game: a budget 2x against 1x

Every row printed ends with the command that plays it again (the same games: seeds SEED..SEED+N-1).

Levels (`levels`: dark-normal, dark-hard, dark-hard-normal, secrets-normal): the level names as a
player gives them to `--bots`, each the agent the game names for it (`game.levels`; else easy =
random, normal = greedy, hard = ismcts:0.3s@all: Dark Agent's hard is rollout:0.3s@all,eval=leader),
one seat of the tested level against the others; `--hard` replaces `hard` by an agent with a budget
in iterations or samples (`rollout:4@2,eval=leader`), so that the figure does not depend on the
machine's load. `dark-hard-ismcts` (not in `levels`) sets hard against three `ismcts:BUDGET`, the
former hard (`ismcts:1s` on one core: about `--budget 330` on an idle core). The skill ladder (`ladder`:
ladder-ttt, ladder-c4, ladder-dark, ladder-secrets, ladder-dog) plays each bundled game's searching
agent at twice the budget against itself at the budget (`--budget` for ismcts, `--mcts` for mcts):
how much thinking more is worth in each game, i.e. whether skill matters there.

Each match names the side under test ("ismcts" in Dark Agent: one seat; a team in Agent DOG;
a company in Agents Secrets) and its opponents. The seats of the side under test rotate from
game to game, so that no seat's advantage counts for it. A game is a win for the side when one
of its seats is among the winners and none of the others is; a draw when nobody wins, or both do.
In Agents Secrets a company wins with the other company's double agent: the side with more of
the winners wins. `secrets` tests a company as seated (its double agent, an ismcts too, works for
the other side: two loyal ismcts and the other company's random double agent against two loyal
random and an ismcts double agent); `secrets-side` tests a side (`scoring.side`, ruling AS19): a
company's loyal members and the other company's double agent, all ismcts, who win together.

Budgets are in iterations by default (`--budget 150`: about 1 s a decision in Dark Agent on an idle
core before the speed work of 2026-12-03, about 0.45 s after it), so that a run is reproducible and its figures do not depend on the load: the machine these
runs share has 2 cores for several agents. A budget in seconds (`--budget 1s`, `--mcts 50ms`)
works too, and then measures the machine as well.
"""
from __future__ import annotations

import argparse
import json
import math
import random
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from interpreter.agents import bot_seed, make_agent, make_decision, parse_spec  # noqa: E402
from interpreter.engine.game import Game  # noqa: E402
from interpreter.information.views import seat_sides  # noqa: E402
from interpreter.play.levels import game_levels  # noqa: E402


def wilson(k: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95 % Wilson score interval of a proportion k/n."""
    if n == 0:
        return 0.0, 1.0
    p = k / n
    d = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / d
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return max(0.0, centre - half), min(1.0, centre + half)


@dataclass
class Match:
    name: str
    game: str
    players: int
    tested: str  # the agent of the side under test (a level: the game's, as `--bots` reads it)
    others: str  # the agent of every other seat
    variants: tuple = ()
    sides: str = "seat"  # "seat": one tested seat; "team": seats s and s+2 (Agent DOG); "company": a company
    target: str = ""  # what the issue asks, as text
    wins: int = 0
    draws: int = 0
    losses: int = 0
    decisions: list = field(default_factory=list)
    margins: list = field(default_factory=list)  # each game's final score of the tested seats over the others' (means)
    seconds: float = 0.0
    command: str = ""  # the command line that plays this match again (set by main)
    flags: tuple = ()  # the options of main the match depends on ("budget", "mcts", "hard")
    score_draws: bool = False  # the rate is a score: a draw counts half (two-player games)
    shown: str = ""  # the tested agent as the row names it (a level: with its agent in this game)
    equal_cpu: bool = False  # against OpenSpiel: our search gets the time theirs took a move (one core each), not its simulations

    @property
    def n(self) -> int:
        return self.wins + self.draws + self.losses

    def row(self) -> str:
        halves = self.sides == "openspiel" or self.score_draws
        scored = self.wins + (self.draws / 2 if halves else 0)  # a score: draws count half
        lo, hi = wilson(scored, self.n)
        rate = scored / self.n if self.n else 0.0
        length = sum(self.decisions) / len(self.decisions) if self.decisions else 0
        return (f"| {self.name} | {self.shown or self.tested} vs {self.others} | {self.n} | {self.wins}/{self.draws}/{self.losses} "
                f"| {100 * rate:.0f} % [{100 * lo:.0f}, {100 * hi:.0f}] | {length:.0f} | {self.target} "
                f"| `{self.command}` |")


HEADER = ("| match | agents | n | won/drawn/lost | win rate [95 % CI] | decisions a game | asked | command |\n"
          "| --- | --- | --- | --- | --- | --- | --- | --- |")


def tested_seats(match: Match, game: Game, st, g: int) -> set:
    n = game.num_players
    if match.sides == "seat":
        return {g % n}
    if match.sides == "team":  # partners sit opposite (Agent DOG: seats 1 and 3, 2 and 4)
        first = g % 2
        return {s for s in range(n) if s % 2 == first}
    if match.sides == "side":  # the seats of one side (`scoring.side` on the full state: who wins together)
        sides = seat_sides(game, st)
        mine = sorted(set(sides), key=repr)[g % len(set(sides))]
        return {s for s in range(n) if sides[s] == mine}
    if match.sides == "company":  # the company of the seats (public `company` of Agents Secrets)
        companies = sorted(set(st["pv"]["company"]))
        mine = companies[g % len(companies)]
        return {s for s in range(n) if st["pv"]["company"][s] == mine}
    raise ValueError(match.sides)


def tally(match: Match, winners: set, mine: set, decisions: int) -> None:
    """Count a finished game: won when only the tested seats win, lost when only the others do."""
    ours, theirs = len(winners & mine), len(winners - mine)
    if match.sides == "company":  # the winning company's loyal members, and the other's double agent, win
        ours, theirs = ours > theirs, theirs > ours
    if ours and not theirs:
        match.wins += 1
    elif theirs and not ours:
        match.losses += 1
    else:
        match.draws += 1
    match.decisions.append(decisions)


def play(match: Match, g: int, seed: int, max_decisions: int = 20_000):
    game = Game.load(match.game, players=match.players, variants=match.variants)
    st = game.new_game(seed=seed)
    mine = tested_seats(match, game, st, g)
    levels = game_levels(game)  # `hard`: the game's hard, as `--bots hard` plays it
    agents = [make_agent(parse_spec(match.tested if s in mine else match.others, levels=levels), bot_seed(seed, s))
              for s in range(game.num_players)]
    if match.tested in levels:  # the row says which agent the level is in this game
        match.shown = f"{match.tested} ({levels[match.tested]})"
    n = 0
    while not game.is_terminal(st) and n < max_decisions:
        p = game.current_player(st)
        a = agents[p].act(make_decision(game, st, p, keep=agents[p].keeps_decisions))
        game.apply_in_place(st, a, checked=False)
        n += 1
    tally(match, set(game.winners(st)) if game.is_terminal(st) else set(), mine, n)
    match.margins.append(score_margin(game, st, mine))
    for agent in agents:
        getattr(agent, "close", lambda: None)()  # a parallel search's worker processes


def score_margin(game: Game, st, mine: set) -> float:
    """The tested seats' mean score over the other seats' at the end of a game: a finer figure than
    the win rate (it moves with every point), to compare two agents on a few games."""
    h = game.estimates(st)
    ours = [h[s] for s in mine]
    theirs = [h[s] for s in range(len(h)) if s not in mine]
    return sum(ours) / len(ours) - (sum(theirs) / len(theirs) if theirs else 0.0)


def mean_margin(match: Match) -> str:
    m = match.margins
    if not m:
        return "no margin"
    mean = sum(m) / len(m)
    sd = math.sqrt(sum((x - mean) ** 2 for x in m) / (len(m) - 1)) if len(m) > 1 else 0.0
    return f"score margin {mean:+.1f} ± {1.96 * sd / math.sqrt(len(m)):.1f}"


class Mirror:
    """The time an OpenSpiel bot takes a move, in one process (wall clock: both sides meet the same
    load): our search is given its mean so far (equal time a move)."""

    def __init__(self, bot, state, *, timed: bool = True):
        self.clock = time.perf_counter
        self.spent, self.moves = 0.0, 0
        if timed:  # its think time at the first position (its move not played; its generator moves on)
            t0 = self.clock()
            bot.step(state.clone())
            self.spent, self.moves = self.clock() - t0, 1

    def step(self, bot, state) -> int:
        """The bot's move at `state`, timed."""
        t0 = self.clock()
        action = bot.step(state)
        self.spent, self.moves = self.spent + self.clock() - t0, self.moves + 1
        return action

    def ours(self, agent, game, state, seat: int, *, equal: bool = True) -> int:
        """Our agent's move at `state`, as the id the adapter's state gives it."""
        if equal:
            agent.iterations, agent.seconds = None, self.spent / self.moves
        a = agent.act(make_decision(game.interpret, state._st, seat, keep=agent.keeps_decisions))
        return state.id_of_action(a)  # identical pieces named as the seat's view names them


def play_openspiel(match: Match, g: int, seed: int) -> None:
    """Our `mcts` against OpenSpiel's own MCTSBot (random rollouts, MCTS-Solver, uct_c 2, as in
    OpenSpiel's examples) at the same number of simulations, both on the game loaded through our
    OpenSpiel adapter. Seats alternate from game to game; a draw counts half in the score.
    With `equal_cpu`, our search (one worker) thinks each move for the time MCTSBot has taken a move
    so far in the game (its first move: the time of MCTSBot's first move, timed before): wall-clock
    time in one process, so both meet the same load."""
    import numpy as np
    import pyspiel
    from open_spiel.python.algorithms import mcts as os_mcts

    import interpreter.adapters.openspiel  # noqa: F401  (registers the `interpret` game)
    sims = int(match.others.split(":")[1])
    game = pyspiel.load_game(f"interpret(game={match.game})")
    state = game.new_initial_state()
    ours = g % 2
    rng = np.random.RandomState(seed)
    theirs = os_mcts.MCTSBot(game, 2.0, sims, os_mcts.RandomRolloutEvaluator(1, rng), random_state=rng, solve=True)
    agent = make_agent(match.tested, bot_seed(seed, ours))
    mirror = Mirror(theirs, state, timed=match.equal_cpu)
    n = 0
    while not state.is_terminal():
        if state.current_player() == ours:
            state.apply_action(mirror.ours(agent, game, state, ours, equal=match.equal_cpu))
        else:
            state.apply_action(mirror.step(theirs, state))
        n += 1
    mine, other = state.returns()[ours], state.returns()[1 - ours]
    if mine > other:
        match.wins += 1
    elif other > mine:
        match.losses += 1
    else:
        match.draws += 1
    match.decisions.append(n)


def play_ismctsbot(match: Match, g: int, seed: int, max_decisions: int = 20_000) -> None:
    """A side of our search (`match.tested`, one worker each) against OpenSpiel's own ISMCTSBot (as
    shipped: random rollouts, uct_c 2, `match.others` = `openspiel-ismcts:SIMS`) in every other seat,
    all through our OpenSpiel adapter (explicit chance, drawn at random). Each of our decisions gets
    the mean time ISMCTSBot has taken a decision so far in the game (wall-clock, one process: both
    meet the same load; its first: ISMCTSBot timed at the first decision, its move not played)."""
    import numpy as np
    import pyspiel
    from open_spiel.python.algorithms import ismcts as os_ismcts
    from open_spiel.python.algorithms import mcts as os_mcts

    import interpreter.adapters.openspiel  # noqa: F401  (registers the `interpret` game)
    sims = int(match.others.split(":")[1])
    variants = "+".join(match.variants)
    game = pyspiel.load_game(f"interpret(game={match.game},players={match.players}"
                             + (f",variants={variants})" if variants else ")"))
    state = game.new_initial_state()
    rng = random.Random(seed)
    while state.is_chance_node():  # the deal: the sides are known once it is done
        outcomes, probs = zip(*state.chance_outcomes())
        state.apply_action(rng.choices(outcomes, probs)[0])
    eng = game.interpret
    mine = tested_seats(match, eng, state._st, g)
    nrng = np.random.RandomState(seed)
    bot = os_ismcts.ISMCTSBot(game, os_mcts.RandomRolloutEvaluator(1, nrng), 2.0, sims, random_state=nrng)
    agents = {s: make_agent(match.tested, bot_seed(seed, s)) for s in mine}
    mirror = Mirror(bot, state)
    n = 0
    while not state.is_terminal() and n < max_decisions:
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes())
            state.apply_action(rng.choices(outcomes, probs)[0])
            continue
        p = state.current_player()
        state.apply_action(mirror.ours(agents[p], game, state, p) if p in agents else mirror.step(bot, state))
        n += 1
    tally(match, set(eng.winners(state._st)) if state.is_terminal() else set(), mine, n)


def double(budget: str) -> str:
    """Twice a budget as the command line writes it: `150` -> `300`, `0.5s` -> `1s`, `200ms` -> `400ms`."""
    from interpreter.agents.spec import _BUDGET
    m = _BUDGET.match(budget.strip())
    if not m:
        raise SystemExit(f"strength.py: {budget!r} is not a budget (150, 1s, 500ms)")
    if m.group(1) is not None:
        return str(2 * int(m.group(1)))
    return f"{2 * float(m.group(2)):g}{m.group(3)}"


def matches(budget: str, quick: bool, mcts: str | None = None, hard: str | None = None) -> dict:
    b = budget
    t = mcts or ("200" if quick else "2000")
    c = mcts or ("100" if quick else "1000")
    h = hard or ("ismcts:10@2" if quick else "hard")
    ladder = mcts or ("50" if quick else "200")
    return {**_levels(h, b), **_ladder("10" if quick else budget, ladder), **{
        "ttt": [Match("tic-tac-toe", "tic-tac-toe", 2, f"mcts:{t}", "random", target="never loses in 200 games")],
        "ttt-self": [Match("tic-tac-toe, self-play", "tic-tac-toe", 2, f"mcts:{t}", f"mcts:{t}", target="draws")],
        "c4": [Match("connect four", "connect-four", 2, f"mcts:{c}", "random", target="≥ 95 %")],
        "c4-openspiel": [Match("connect four, through the OpenSpiel adapter", "connect-four", 2, f"mcts:{c}",
                               f"openspiel-mcts:{c}", sides="openspiel", target="scores ≥ 45 %")],
        "c4-openspiel-cpu": [Match("connect four, through the OpenSpiel adapter, equal time a move, one core each", "connect-four",
                                   2, "ismcts", f"openspiel-mcts:{c}", sides="openspiel", equal_cpu=True,
                                   target="hard's search (one worker) scores ≥ 55 %")],
        "secrets-ismctsbot": [Match("Agents Secrets, 6 players, by loyalty, through the OpenSpiel adapter, equal time "
                                    "a move", "agents-secrets", 6, "ismcts", f"openspiel-ismcts:{b}", sides="side",
                                    target="hard's search ≥ 65 %", flags=("budget",))],
        "dark-ismctsbot": [Match("Dark Agent, 4 players, two seats (1 and 3, or 2 and 4) against two, through the "
                                 "OpenSpiel adapter, equal time a move", "dark-agent", 4, "ismcts",
                                 f"openspiel-ismcts:{b}", sides="team", target="hard's search ≥ 80 %",
                                 flags=("budget",))],
        "dark": [Match("Dark Agent, 4 players", "dark-agent", 4, f"ismcts:{b}", "random", target="≥ 80 %")],
        "dark-greedy": [Match("Dark Agent, 4 players", "dark-agent", 4, f"ismcts:{b}", "greedy", target="≥ 40 %")],
        "secrets": [Match("Agents Secrets, 6 players", "agents-secrets", 6, f"ismcts:{b}", "random", sides="company",
                          target="> 50 %")],
        "secrets-side": [Match("Agents Secrets, 6 players, by loyalty", "agents-secrets", 6, f"ismcts:{b}", "random",
                               sides="side", target="> 50 %")],
        "dog": [Match("Agent DOG, 4 players (teams)", "agent-dog", 4, f"ismcts:{b}", "random", sides="team",
                      target="≥ 80 %, shorter games")],
    }}


def _levels(hard: str, budget: str) -> dict:
    """The levels a player picks with --bots: one seat of a level against the others."""
    return {
        "dark-normal": [Match("Dark Agent, 4 players, levels", "dark-agent", 4, "greedy", "random",
                              target="normal ≥ 40 % against three easy", flags=())],
        "dark-hard": [Match("Dark Agent, 4 players, levels", "dark-agent", 4, hard, "random",
                            target="hard ≥ 90 % against three easy", flags=("hard",))],
        "dark-hard-normal": [Match("Dark Agent, 4 players, levels", "dark-agent", 4, hard, "greedy",
                                   target="hard ≥ 60 % against three normal", flags=("hard",))],
        "dark-hard-ismcts": [Match("Dark Agent, 4 players, levels, two seats (1 and 3, or 2 and 4) against two",
                                   "dark-agent", 4, hard, f"ismcts:{budget}", sides="team",
                                   target="hard ≥ 50 % against the former hard, ismcts:1s (about ismcts:600 on an "
                                          "idle core)", flags=("hard", "budget"))],
        "secrets-normal": [Match("Agents Secrets, 6 players, levels, by loyalty", "agents-secrets", 6, "greedy",
                                 "random", sides="side", target="a side of normal > 50 % against easy", flags=())],
    }


def _ladder(budget: str, mcts: str) -> dict:
    """Each bundled game's searching agent at twice the budget against itself at the budget."""
    b2, m2 = double(budget), double(mcts)
    asked = "above 50 %: thinking more wins more"
    return {
        "ladder-ttt": [Match("tic-tac-toe, ladder", "tic-tac-toe", 2, f"mcts:{m2}", f"mcts:{mcts}", score_draws=True,
                             target=asked, flags=("mcts",))],
        "ladder-c4": [Match("connect four, ladder", "connect-four", 2, f"mcts:{m2}", f"mcts:{mcts}", score_draws=True,
                            target=asked, flags=("mcts",))],
        "ladder-dark": [Match("Dark Agent, 4 players, ladder", "dark-agent", 4, f"ismcts:{b2}", f"ismcts:{budget}",
                              target="above 25 % (one seat of four)", flags=("budget",))],
        "ladder-secrets": [Match("Agents Secrets, 6 players, ladder, by loyalty", "agents-secrets", 6,
                                 f"ismcts:{b2}", f"ismcts:{budget}", sides="side", target=asked, flags=("budget",))],
        "ladder-dog": [Match("Agent DOG, 4 players, ladder (teams)", "agent-dog", 4, f"ismcts:{b2}",
                             f"ismcts:{budget}", sides="team", target=asked, flags=("budget",))],
        # a hand of poker: won by the seat that takes chips from the other, a split pot a draw
        "ladder-kuhn": [Match("Kuhn poker, ladder (hands, seats alternated)", "kuhn-poker", 2, f"ismcts:{b2}",
                              f"ismcts:{budget}", score_draws=True, target=asked, flags=("budget",))],
        "ladder-leduc": [Match("Leduc poker, ladder (hands, seats alternated)", "leduc-poker", 2, f"ismcts:{b2}",
                               f"ismcts:{budget}", score_draws=True, target=asked, flags=("budget",))],
    }


GROUPS = {"levels": ("dark-normal", "dark-hard", "dark-hard-normal", "secrets-normal"),
          "ladder": ("ladder-ttt", "ladder-c4", "ladder-dark", "ladder-secrets", "ladder-dog", "ladder-kuhn",
                     "ladder-leduc")}
DEFAULT_FLAGS = {"budget": "150", "mcts": None, "hard": None}


def command(key: str, match: Match, args) -> str:
    """The command line that plays `match` again, with the options it depends on."""
    out = f"python benchmarks/strength.py {key} --games {args.games} --seed {args.seed}"
    flags = match.flags if match.flags else (("budget", "mcts") if key not in GROUPS["levels"] else ())
    for flag in flags:
        value = getattr(args, flag)
        if value is not None and value != DEFAULT_FLAGS.get(flag):
            out += f" --{flag} {value}"
    if args.quick:
        out += " --quick"
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("which", nargs="*", default=["ttt"],
                    help="ttt ttt-self c4 c4-openspiel c4-openspiel-cpu secrets-ismctsbot dark-ismctsbot dark dark-greedy secrets secrets-side dog, "
                         "dark-normal dark-hard dark-hard-normal secrets-normal (or levels), dark-hard-ismcts, "
                         "ladder-ttt ladder-c4 ladder-dark ladder-secrets ladder-dog ladder-kuhn ladder-leduc (or ladder), or all")
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--budget", default="150", help="the ismcts budget: 150 (iterations, the default: about 1 s "
                    "a decision in Dark Agent on an idle core), or a time: 1s, 0.2s, 500ms")
    ap.add_argument("--mcts", default=None, help="the mcts budget of tic-tac-toe and connect four (default 2000, 1000)")
    ap.add_argument("--hard", default=None, help="the agent that plays `hard` in the level matches (default: "
                    "the level itself, the game's: in Dark Agent rollout:0.3s@all,eval=leader); a budget in samples or iterations such as "
                    "rollout:4@2,eval=leader or ismcts:300@2 reproduces")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--quick", action="store_true", help="tiny budgets (CI)")
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--progress", action="store_true", help="a line on stderr after each game")
    args = ap.parse_args(argv)
    table = matches(args.budget, args.quick, args.mcts, args.hard)
    which = []
    for key in (list(table) if "all" in args.which else args.which):
        which.extend(GROUPS.get(key, (key,)))
    unknown = [k for k in which if k not in table]
    if unknown:
        ap.error(f"no match {', '.join(unknown)}: matches are {', '.join([*table, *GROUPS])}")
    done = []
    for key in which:
        for m in table[key]:
            m.command = command(key, m, args)
            start = time.perf_counter()
            for g in range(args.games):
                runner = (play_openspiel if m.sides == "openspiel" else
                          play_ismctsbot if m.others.startswith("openspiel-ismcts:") else play)
                runner(m, g, args.seed + g)
                if args.progress:
                    print(f"  {m.name}: game {g + 1}: {m.wins}/{m.draws}/{m.losses}, {mean_margin(m)} "
                          f"({time.perf_counter() - start:.0f} s)", file=sys.stderr, flush=True)
            m.seconds = time.perf_counter() - start
            done.append(m)
            print(m.row() if not args.json else "", file=sys.stderr, flush=True)
    if args.json:
        print(json.dumps([{"match": m.name, "tested": m.tested, "others": m.others, "n": m.n, "wins": m.wins,
                           "draws": m.draws, "losses": m.losses, "ci": wilson(m.wins, m.n), "seconds": m.seconds, "command": m.command,
                           "decisions_avg": sum(m.decisions) / max(1, len(m.decisions)),
                           "margins": m.margins} for m in done], indent=2))
    else:
        print(HEADER)
        for m in done:
            print(m.row())
    return 0


if __name__ == "__main__":
    sys.exit(main())
