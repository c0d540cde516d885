"""Many games between bots, and what they tell: speed, length, scores, wins by seat.

    game = Game.load("dark-agent", players=4)
    summary = simulate(game, games=100, seed=1)
    print(summary.report())

Games are played in place (``Game.apply_in_place``); agents get decisions, never the state.
Game i starts from seed + i; the agent of each seat draws from its own generator
(`bot_seed(seed + i, seat)`). `agents` gives each seat's specification (default: random):

    simulate(game, games=20, seed=1, agents=["ismcts:0.5s", "random", "random", "random"])
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field

from ..agents import RandomAgent, bot_seed, make_agent, make_decision, stuck
from ..information.memory import Memory
from ..errors import InterpretError

MAX_DECISIONS = 100_000


class SimulationError(InterpretError):
    """A simulated game went wrong: the rules raised, looped, or broke an invariant."""

    def __init__(self, message: str, *, seed: int, decisions: int, actions=()):
        self.seed = seed
        self.decisions = decisions
        self.actions = list(actions)
        super().__init__(f"game with seed {seed}, after {decisions} decisions: {message}")


@dataclass
class GameResult:
    seed: int
    decisions: int
    rounds: int
    scores: list
    ranking: list[int]
    winners: list[int]
    state: dict | None = field(default=None, repr=False, compare=False)  # the final state, with keep_state
    decided_by: str = ""  # score, a tie-break, seat order... (interpreter/analysis/outcome.py)


def make_agents(game, seed: int, specs=None) -> list:
    """The agents of one game: seat i plays `specs[i]` (default: random), seeded bot_seed(seed, i)."""
    specs = list(specs) if specs else []
    specs += ["random"] * (game.num_players - len(specs))
    return [make_agent(spec, bot_seed(seed, i)) for i, spec in enumerate(specs[:game.num_players])]


def play_out(game, seed: int, *, agents=None, max_decisions: int = MAX_DECISIONS, check: bool = False,
             record: bool = False, keep_state: bool = False, observe=None) -> GameResult:
    """One full game between agents: a list of Agent, or of specifications (default: random).
    `observe(st)`, if given, is called with the state after every decision (it must not change it)."""
    st = game.new_game(seed=seed)
    if agents is None or not all(hasattr(a, "act") for a in agents):
        agents = make_agents(game, seed, agents)
    decisions = 0
    played = [] if record else None
    is_terminal, current_player, apply_in_place = game.is_terminal, game.current_player, game.apply_in_place
    # what the seats remember, for the agents that sample states (random play never does)
    memory = Memory(game) if any(not isinstance(a, RandomAgent) for a in agents) else None
    try:
        while not is_terminal(st):
            if decisions >= max_decisions:
                raise SimulationError(f"the game did not end within {max_decisions} decisions",
                                      seed=seed, decisions=decisions)
            p = current_player(st)
            if p is None or not 0 <= p < len(agents):
                raise SimulationError(str(stuck()), seed=seed, decisions=decisions)
            agent = agents[p]
            action = agent.act(make_decision(game, st, p, keep=agent.keeps_decisions, memory=memory))
            if played is not None:
                played.append(str(action))
            if memory is not None:
                memory.apply(st, action, checked=False)
            else:
                apply_in_place(st, action, checked=False)
            decisions += 1
            if observe is not None:
                observe(st)
            if check:
                bad = game.check_invariants(st)
                if bad:
                    raise SimulationError("invariant broken: " + "; ".join(bad), seed=seed, decisions=decisions)
    except SimulationError:
        raise
    except InterpretError as e:
        raise SimulationError(str(e), seed=seed, decisions=decisions, actions=played or ()) from e
    return GameResult(seed, decisions, st["flow"]["round"], game.scores(st), game.ranking(st), game.winners(st),
                      st if keep_state else None)


@dataclass
class Summary:
    title: str
    players: int
    seconds: float
    results: list[GameResult] = field(default_factory=list)

    @property
    def games(self) -> int:
        return len(self.results)

    @property
    def decisions(self) -> int:
        return sum(r.decisions for r in self.results)

    def games_per_second(self) -> float:
        return self.games / self.seconds if self.seconds else float("inf")

    def decisions_per_second(self) -> float:
        return self.decisions / self.seconds if self.seconds else float("inf")

    def seat_scores(self, seat: int) -> list:
        return [r.scores[seat] for r in self.results]

    def wins(self, seat: int) -> int:
        return sum(1 for r in self.results if seat in r.winners)

    def shared_wins(self) -> int:
        return sum(1 for r in self.results if len(r.winners) > 1)

    def as_dict(self) -> dict:
        from .outcome import is_tiebreak
        from .stats import wilson
        n = self.games or 1
        seats = []
        for s in range(self.players):
            sc = [v for v in self.seat_scores(s) if isinstance(v, (int, float))]
            lo, hi = wilson(self.wins(s), self.games)
            seats.append({
                "seat": f"p{s + 1}",
                "score_avg": sum(sc) / len(sc) if sc else None,
                "score_min": min(sc) if sc else None,
                "score_max": max(sc) if sc else None,
                "wins": self.wins(s),
                "win_rate_low": lo,
                "win_rate_high": hi,
            })
        decided = {}
        for r in self.results:
            decided[r.decided_by] = decided.get(r.decided_by, 0) + 1
        return {
            "game": self.title,
            "players": self.players,
            "games": self.games,
            "seconds": self.seconds,
            "games_per_second": self.games_per_second(),
            "decisions_per_second": self.decisions_per_second(),
            "decisions_avg": self.decisions / n,
            "rounds_avg": sum(r.rounds for r in self.results) / n,
            "shared_wins": self.shared_wins(),
            "seats": seats,
            "decided_by": dict(sorted(decided.items(), key=lambda kv: -kv[1])),
            "tiebreak_games": sum(k for d, k in decided.items() if is_tiebreak(d)),
        }

    def report(self) -> str:
        """The text `interpret simulate` prints: speed, scores and wins per seat.

        Not merged with summary.text_report (`interpret analyze`): that one reads a batch's
        summary dict (rates with tests against an even game, facets, lengths, lead changes), this
        one a Summary of results in memory with the run's speed and score ranges; they share no
        line, and both outputs are what their commands print (kept as they are)."""
        from .outcome import is_tiebreak
        d = self.as_dict()
        lines = [
            f"{d['games']} games of {d['game']}, {d['players']} players, in {d['seconds']:.2f} s: "
            f"{d['games_per_second']:.1f} games/s, {d['decisions_per_second']:,.0f} decisions/s",
            f"average length: {d['decisions_avg']:.1f} decisions, {d['rounds_avg']:.2f} rounds",
            "",
            f"{'seat':<6}{'avg score':>10}{'min':>7}{'max':>7}{'wins':>7}{'win %':>8}{'95% interval':>16}",
        ]
        for s in d["seats"]:
            avg = "-" if s["score_avg"] is None else f"{s['score_avg']:.2f}"
            lo = "-" if s["score_min"] is None else f"{s['score_min']:g}"
            hi = "-" if s["score_max"] is None else f"{s['score_max']:g}"
            pct = 100 * s["wins"] / d["games"] if d["games"] else 0
            ci = f"{100 * s['win_rate_low']:.1f}-{100 * s['win_rate_high']:.1f}%"
            lines.append(f"{s['seat']:<6}{avg:>10}{lo:>7}{hi:>7}{s['wins']:>7}{pct:>7.1f}%{ci:>16}")
        if d["shared_wins"]:
            lines.append(f"({d['shared_wins']} games had several winners; each of them counts a win)")
        n = d["games"] or 1
        lines.append(f"decided by a tie-break: {d['tiebreak_games']} games ({100 * d['tiebreak_games'] / n:.1f}%)"
                     + "".join(f"; {k} {what}" for what, k in d["decided_by"].items() if is_tiebreak(what)))
        lines.append("(intervals: 95% Wilson; `interpret analyze` tests whether the seats differ)")
        return "\n".join(lines)


def simulate(game, *, games: int, seed: int = 0, max_decisions: int = MAX_DECISIONS, check: bool = False,
             progress=None, agents=None) -> Summary:
    """`games` games, game i from seed + i, seat s played by `agents[s]` (a specification; default random)."""
    from .outcome import decided_by
    results = []
    start = time.perf_counter()
    for i in range(games):
        r = play_out(game, seed + i, agents=agents, max_decisions=max_decisions, check=check, keep_state=True)
        r.decided_by = decided_by(game, r.state, r.winners)
        r.state = None
        results.append(r)
        if progress is not None:
            progress(i + 1)
    seconds = time.perf_counter() - start
    return Summary(game.title, game.num_players, seconds, results)


__all__ = ["simulate", "play_out", "make_agents", "Summary", "GameResult", "SimulationError", "MAX_DECISIONS"]
