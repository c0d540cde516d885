"""`interpret learn-eval GAME`: fit the evaluation the searching bots use at a rollout's cut-off.

A command of its own rather than an `analyze` option: its product is a file of the content
(evaluation.json, beside the game's YAML), not a results folder, and it needs the positions of every
game, which `analyze` does not keep. It can still start from an `analyze` folder (`--from DIR`): the
games of DIR/run.json are played again from their seeds (the same games, when every agent's budget is
in iterations) and each is checked against its line of results.jsonl.
"""
from __future__ import annotations

import shlex
import time
from pathlib import Path

from ..agents.learnt import FILE, EvaluationFileError, model_path
from ..analysis.learn import fit_model, record, store
from ..ruleset.paths import display_path
from .common import UsageError, _err, _out, parse_options, seat_kinds
from .levels import game_levels

DEFAULT_GAMES = 200
DEFAULT_EVERY = 5


def add_parser(sub, debug_flag, *, game_options, seat_flags) -> None:
    q = sub.add_parser("learn-eval", help="fit the bots' evaluation on games they play (evaluation.json)",
                       description="Play N games between bots (game i from seed + i), read each seat's features "
                                   "from its own observation every few decisions, fit a linear model of the "
                                   "seat's final score on the first games, report how well it predicts the games "
                                   "held back, and store it beside the content (ismcts:1s,eval=learnt uses it). "
                                   "See docs/agents.md.")
    q.add_argument("game", metavar="GAME", help="a bundled game's name or a game folder")
    q.add_argument("--games", "-n", type=int, default=DEFAULT_GAMES, metavar="N",
                   help=f"number of games (default {DEFAULT_GAMES}); a quarter are held back to judge the fit")
    q.add_argument("--seed", type=int, default=0, metavar="BASE", help="game i uses seed BASE + i (default 0)")
    q.add_argument("--every", type=int, default=DEFAULT_EVERY, metavar="K",
                   help=f"read the position every K decisions (default {DEFAULT_EVERY})")
    q.add_argument("--from", dest="source", metavar="DIR",
                   help="play again the games of an `interpret analyze` folder (its game, seats and seeds) "
                        "instead of new ones")
    q.add_argument("--out", metavar="FILE",
                   help=f"the evaluation file to write (default: {FILE} in the game's folder); a model of "
                        "other players, options or variants in it is kept")
    q.add_argument("--dry-run", action="store_true", help="report the fit, write nothing")
    q.add_argument("--show", action="store_true",
                   help="print the game's stored evaluation (each model's fit and weights, in words) and stop")
    game_options(q)
    seat_flags(q, humans=False)
    q.add_argument("--quiet", "-q", action="store_true", help="no progress")
    debug_flag(q)
    q.set_defaults(run=run_learn_eval)


def _batch(args):
    """(game, options given, agents, base seed, games, results lines or None) from the command line or an
    analyze folder."""
    from ..analysis import Spec
    if args.source:
        folder = Path(args.source)
        from ..analysis.games import AnalysisError
        from ..analysis.labfiles import read_folder
        try:
            config, lines = read_folder(folder)  # each file checked (docs/trust.md)
        except AnalysisError as e:
            raise UsageError(f"--from {args.source}: not a folder of `interpret analyze` ({e})") from None
        try:
            spec = Spec(args.game, config["players"], config["options"], tuple(config["variants"]))
            game, agents, seed = spec.load(), list(config["agents"]), int(config["seed"])
        except (KeyError, TypeError, ValueError) as e:
            raise UsageError(f"--from {args.source}: run.json is not a run of `interpret analyze` ({e})") from None
        if game.catalog.name != config["game"]:
            raise UsageError(f"--from {args.source}: a run of {config['game']!r}, not of {game.catalog.name!r}")
        return game, dict(config["options"]), agents, seed, len(lines), lines
    if args.games < 2:
        raise UsageError("--games must be at least 2 (games to fit on, and games held back to judge the fit)")
    spec = Spec(args.game, args.players, parse_options(args.option), tuple(args.variant))
    game = spec.load()
    agents = seat_kinds(args.seat, game.num_players, auto=True, interactive=False, bots=args.bots,
                        humans_allowed=False, levels=game_levels(game))
    return game, parse_options(args.option), agents, args.seed, args.games, None


def _command(args, game, options: dict, agents, seed: int, games: int) -> str:
    """The command that plays the same games again."""
    words = ["interpret", "learn-eval", args.game, "--players", str(game.num_players), "--games", str(games),
             "--seed", str(seed)]
    if args.every != DEFAULT_EVERY:
        words += ["--every", str(args.every)]
    for name, value in options.items():
        words += ["--option", f"{name}={value}"]
    for v in game.catalog.ruleset.variants:
        words += ["--variant", v]
    if len(set(agents)) == 1:
        words += ["--bots", agents[0]]
    else:
        words += [f"--seat={i + 1}={a}" for i, a in enumerate(agents)]
    return " ".join(shlex.quote(w) for w in words)


def show_models(args) -> int:
    """The stored models of a game, as a designer reads them."""
    from ..analysis import Spec
    from ..agents.learnt import read_file
    game = Spec(args.game).load()
    path = Path(args.out) if args.out else model_path(game)
    if not path.exists():
        _out(f"{game.title} has no learnt evaluation ({path}): `interpret learn-eval {game.catalog.name}` fits one")
        return 0
    try:
        doc = read_file(path)
    except EvaluationFileError as e:
        raise UsageError(str(e)) from None
    for entry in doc["models"]:
        fit = entry["fit"]
        options = ", ".join(f"{k}={v}" for k, v in entry["options"].items())
        _out(f"{display_path(path)}: {entry['players']} players" + (f", {options}" if options else "")
             + (f", variants {', '.join(entry['variants'])}" if entry["variants"] else ""),
             f"  predicts: {entry['target']}; fitted by: {fit['command']}")
        if fit.get("r2") is not None and fit.get("leader") is not None:
            _out(f"  on {fit.get('test_games', '?')} held-back games: R² {fit['r2']:.3f} (the score so far: "
                 f"{fit['r2_plain']:.3f}), the predicted leader a winner {100 * fit['leader']:.1f} % of positions "
                 f"(the score so far: {100 * fit['leader_plain']:.1f} %)")
        _out(f"  {entry['intercept']:+9.3f}  (to start with)")
        for f in entry["features"]:
            from ..agents.features import Key
            _out(f"  {f['weight']:+9.3f}  {Key.from_json(f).text()}")
        _out("")
    return 0


def run_learn_eval(args) -> int:
    if args.show:
        return show_models(args)
    if args.every < 1:
        raise UsageError("--every must be at least 1")
    game, options, agents, seed, games, lines = _batch(args)
    if games < 2:
        raise UsageError(f"--from {args.source}: at least 2 games are needed")
    progress = None
    if not args.quiet:
        progress = lambda done: _err(f"  {done}/{games} games") if done % 10 == 0 or done == games else None  # noqa: E731
    _out(f"playing {games} games of {game.title}, {game.num_players} players, seats {', '.join(agents)}, "
         f"seeds {seed}..{seed + games - 1}")
    start = time.perf_counter()
    recorded = record(game, games=games, seed=seed, agents=agents, every=args.every, progress=progress)
    played = time.perf_counter() - start
    if lines is not None:
        for line, g in zip(lines, recorded):
            if [float(x) if isinstance(x, (int, float)) else 0.0 for x in line["scores"]] != g.scores:
                raise UsageError(f"--from {args.source}: game {line['index']} (seed {line['seed']}) did not play "
                                 "again as recorded (an agent with a budget in seconds?): give the seats with "
                                 "budgets in iterations, or play new games without --from")
    try:
        fit = fit_model(recorded, game=game)
    except ValueError as e:
        raise UsageError(str(e)) from None
    command = _command(args, game, options, agents, seed, games)
    _out(f"{games} games played in {played:.1f} s", fit.report(), "", f"command: {command}")
    if args.dry_run:
        return 0
    out = Path(args.out) if args.out else model_path(game)
    try:
        store(out, fit.entry(game, command=command, extra={"seed": seed, "games": games, "agents": agents,
                                                           "every": args.every}), game_name=game.catalog.name)
    except EvaluationFileError as e:
        raise UsageError(f"--out: {e}") from None
    except OSError as e:
        raise UsageError(f"--out {out}: {e.strerror or e}") from None
    _out(f"wrote {display_path(out)}")
    return 0
