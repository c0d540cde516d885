"""The command that shows one game of a batch again: `interpret play GAME --auto --seed S ...`, with
everything the game depends on (the game as it was given, the variants, the options given, the
number of players, each seat's bot, the decision cap), quoted for a shell.

Game i of a batch starts from seed base + i and seat s's bot draws from bot_seed(seed, s) (see
simulate.play_out); `play --auto` seeds its bots the same way, so the command plays that game
move for move, and a game that failed fails again at the same decision. The games a designer may
want to see again (`watch_list`) go into summary.json, the text and report.html of `analyze`.
"""
from __future__ import annotations

import shlex

from .outcome import is_tiebreak
from .simulate import MAX_DECISIONS


def play_command(game: str, *, seed: int, players: int, options=None, variants=(), agents=(),
                 max_decisions: int = MAX_DECISIONS) -> str:
    """`interpret play ... --auto` playing the game of seed `seed`: `agents` gives each seat's bot
    (random where none or `random`), `options` the options as given (NAME -> text)."""
    words = ["interpret", "play", str(game), "--auto", "--seed", str(seed), "--players", str(players)]
    words += [w for k, v in (options or {}).items() for w in ("--option", f"{k}={v}")]
    words += [w for v in variants for w in ("--variant", str(v))]
    bots = [str(a) for a in agents] + ["random"] * (players - len(agents))
    if len(set(bots)) == 1 and bots[0] != "random":
        words += ["--bots", bots[0]]
    else:
        words += [w for i, a in enumerate(bots) if a != "random" for w in ("--seat", f"{i + 1}={a}")]
    if max_decisions != MAX_DECISIONS:
        words += ["--max-decisions", str(max_decisions)]
    return " ".join(shlex.quote(w) for w in words)


def command_of(spec, config: dict, seed: int) -> str:
    """play_command for the game of seed `seed` of a batch: its Spec (the game and options as given)
    and its configuration (run.json: players, variants, agents, decision cap)."""
    return play_command(spec.game, seed=seed, players=config["players"], options=spec.options,
                        variants=config["variants"], agents=config["agents"], max_decisions=config["max_decisions"])


def watch_list(records: list[dict], spec, config: dict) -> list[dict]:
    """The games of a batch worth watching again, each {what, index, seed, decisions, command}: the
    longest and the shortest, and the first game decided each way that is not the score alone
    (a tie-break, seat order, no winner...) as an example of it."""
    if not records:
        return []
    picked: list[tuple[str, dict]] = []
    longest = max(records, key=lambda r: (r["decisions"], -r["index"]))
    shortest = min(records, key=lambda r: (r["decisions"], r["index"]))
    picked.append((f"the longest game, {longest['decisions']} decisions", longest))
    if shortest is not longest:
        picked.append((f"the shortest game, {shortest['decisions']} decisions", shortest))
    seen = set()
    for r in records:
        how = r.get("decided_by")
        if how and how not in seen and (is_tiebreak(how) or not r["winners"]):
            seen.add(how)
            picked.append((f"an example of a game decided by {how}", r))
    return [{"what": what, "index": r["index"], "seed": r["seed"], "decisions": r["decisions"],
             "command": command_of(spec, config, r["seed"])} for what, r in picked]


def watch_text(watch: list[dict]) -> list[str]:
    """The lines of the text report naming those games."""
    if not watch:
        return []
    return ["", "games to watch again:"] + [f"  {w['what']} (seed {w['seed']}): {w['command']}" for w in watch]


__all__ = ["play_command", "command_of", "watch_list", "watch_text"]
