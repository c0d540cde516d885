"""The `interpret` command: play, replay, simulate and validate games.

Exit codes: 0 done; 1 the content, a log or a move is wrong (the message says
where and why); 2 the command line is wrong; 3 an internal error (a bug in
interpret: `--debug` shows the traceback).
"""
from __future__ import annotations

import argparse
import json
import sys
import time

from .. import __version__
from ..errors import ContentError, InterpretError, Location
from ..engine.game import Game
from ..i18n import LANGUAGES, _, language, ngettext, set_language
from .common import DEFAULT_GAME, UsageError, _err, _out, game_folder, parse_options, seat_kinds
from .levels import game_levels
from .narration import Narrator
from .session import cmd_play

from .validate import cmd_validate, player_counts, validate_game  # noqa: F401  (benchmarks and tests import them here)


# ---- replay -----------------------------------------------------------------------------

def cmd_replay(args) -> int:
    from .render import Renderer
    from .replay import LogError, content_digest, from_header, play_back, read_log
    rec = read_log(args.file)
    try:
        game = Game.load(rec.game, players=rec.players, options=rec.options, variants=rec.variants)
    except ContentError as e:  # the game's settings come from the log's header: say so, with its lines
        raise from_header(e, rec) from None
    if rec.content_sha256 and content_digest(rec.game) not in (None, rec.content_sha256):
        _err(_("warning: the content of {game} changed since this log was written; the replay may differ")
             .format(game=rec.game))
    renderer = Renderer(game)
    narrator = Narrator(game, renderer, quiet=args.quiet)
    st = game.new_game(seed=rec.seed)
    seats = rec.seats if len(rec.seats) == game.num_players else ["?"] * game.num_players
    narrator.start(st, rec.seed, seats)
    shown = []

    def before(p, action, text):
        labels = dict(game.legal_actions_with_labels(st))
        shown.append(narrator.hide(st, p, labels.get(action, text), action if action in labels else None))

    def after(p, action, step):
        narrator.move(st, n=len(shown), player=p, label=shown[-1], events=step.events, causes=step.causes)

    n = play_back(game, rec, args.file, st, before=before, after=after)  # each line checked (replay.py)
    if not game.is_terminal(st):
        _out("", renderer.screen(st, None), "")
        _out(ngettext("The log ends after {n} decision, before the end of the game.",
                      "The log ends after {n} decisions, before the end of the game.", n).format(n=n))
        return 0
    result = narrator.result(st, n)
    if rec.result is not None:
        recorded = {k: rec.result.get(k) for k in result}
        if json.loads(json.dumps(result, default=str)) != json.loads(json.dumps(recorded, default=str)):
            raise LogError(Location(args.file), f"the replay does not reach the recorded result: "
                                                f"recorded {rec.result}, replayed {result}")
        _out(_("The replay reaches the recorded result."))
    return 0


# ---- simulate ---------------------------------------------------------------------------

def repro_command(args, *, seed, players, options) -> str:
    """`interpret play ... --auto` replaying one game of a batch: its seed, players, options,
    variants and seats, quoted for a shell."""
    import shlex
    words = ["interpret", "play", args.game, "--auto", "--seed", str(seed), "--players", str(players)]
    words += [w for k, v in options.items() for w in ("--option", f"{k}={v}")]
    words += [w for v in args.variant for w in ("--variant", v)]
    words += [w for s in args.seat for w in ("--seat", s)] + (["--bots", args.bots] if args.bots else [])
    if args.max_decisions != 100_000:
        words += ["--max-decisions", str(args.max_decisions)]
    return " ".join(shlex.quote(w) for w in words)


def cmd_simulate(args) -> int:
    from ..analysis.simulate import SimulationError, simulate
    if args.games < 1:
        raise UsageError("--games must be at least 1")
    options = parse_options(args.option)
    game = Game.load(args.game, players=args.players, options=options, variants=args.variant)
    from ..analysis.progress import BatchProgress
    bar = BatchProgress()
    bar.start(total=args.games)
    try:
        agents = seat_kinds(args.seat, game.num_players, auto=True, interactive=False, bots=args.bots,
                            humans_allowed=False, levels=game_levels(game))
        summary = simulate(game, games=args.games, seed=args.seed, max_decisions=args.max_decisions,
                           check=args.check, agents=agents, progress=lambda done: bar.advance())
    except SimulationError as e:  # the same seed replays the same game with `play --auto`
        again = repro_command(args, seed=e.seed, players=game.num_players, options=options)
        bar.stop()
        _err(f"error: {e}\n(watch that game with: {again})")
        return 1
    bar.stop()
    if args.json:
        _out(json.dumps(summary.as_dict(), indent=2, default=str))
    else:
        _out(summary.report())
    return 0


# ---- analyze ----------------------------------------------------------------------------

def cmd_analyze(args) -> int:
    """The balance lab (interpreter/play/analyze.py)."""
    from .analyze import run_analyze
    return run_analyze(args)


# ---- test -------------------------------------------------------------------------------

def cmd_test(args) -> int:
    """Run scenario files: each failure with its file:line, the expectation and what was seen."""
    from ..ruleset.paths import game_dir, is_there
    from ..scenarios.runner import run_paths
    if args.coverage or args.mutate:
        return cmd_test_rules(args)
    if args.variant or args.json:
        raise UsageError("--variant and --json go with --coverage or --mutate (scenarios name their own variants)")
    paths = []
    for p in args.paths or [DEFAULT_GAME]:
        folder = game_dir(p)
        paths.append(folder if is_there(folder) else p)
    start = time.perf_counter()
    from ..scenarios.tutorial import run_tutorial_paths  # a game's guided games are checked with its scenarios
    from pathlib import Path
    tutorials = [p for p in paths if "tutorials" in (Path(p).name, Path(p).parent.name)]
    others = [p for p in paths if p not in tutorials]
    results = run_paths(others) + run_tutorial_paths([p for p in others if Path(p).is_dir()] + tutorials)
    failed = [r for r in results if not r.ok]
    for r in results:
        if not r.ok:
            for f in r.failures:
                _out(f"FAIL {r.title}\n  {f.render()}")
            _out(f"  (run it again with: {r.again})")
        elif args.verbose:
            _out(f"ok   {r.title} ({r.path})")
    seconds = time.perf_counter() - start
    _out(f"{len(results) - len(failed)} passed, {len(failed)} failed ({seconds:.1f} s)")
    return 1 if failed or not results else 0


def cmd_test_rules(args) -> int:
    """`test --coverage GAME` and `test --mutate GAME`: which rules the scenarios exercise and pin down."""
    import json
    from ..scenarios.coverage import run_coverage, run_mutation, stderr_progress
    if args.coverage and args.mutate:
        raise UsageError("give --coverage or --mutate, not both (--mutate reports what it learns from coverage)")
    from ..scenarios.coverage import game_and_scenarios
    game, more = game_and_scenarios(args.paths or [DEFAULT_GAME])  # GAME [SCENARIOS...] (a homebrew's own)
    progress = None if args.quiet else stderr_progress
    if args.coverage:
        report = run_coverage(game, args.variant, progress=progress, scenarios=more)
        failed = report.failures
    else:
        report = run_mutation(game, args.variant, progress=progress, scenarios=more)
        failed = report.coverage.failures
    _out(json.dumps(report.to_json(), indent=2, ensure_ascii=False) if args.json else report.render())
    scenarios = report.scenarios if args.coverage else report.coverage.scenarios
    if not scenarios:
        _err(f"{game}: no scenario files (they go in the game's scenarios/ folder)")
    return 1 if failed or not scenarios else 0


# ---- show, schema, new ------------------------------------------------------------------

def cmd_show(args) -> int:
    """Print a card, rule or setting as the variants left it, each value with its file:line."""
    from ..ruleset.loader import load_ruleset
    from .show import find_entries, render_entry
    rs = load_ruleset(game_folder(args.game), variants=args.variant)
    entries = find_entries(rs, "" if args.name == "all" else args.name)
    if not entries:
        raise UsageError(f"nothing named `{args.name}` in {rs.title}" if args.name else "nothing to show")
    for path, parent, key in entries:
        _out(render_entry(rs, path, parent, key))
    return 0


def cmd_schema(args) -> int:
    """Write the JSON Schemas so editors can complete and check content files."""
    import shutil
    from pathlib import Path
    from ..ruleset.paths import schemas_dir, shown, too_long
    out = Path(args.out)
    if too_long(out):
        raise InterpretError(f"--out {shown(out)}: {too_long(out)}")
    sources = sorted(schemas_dir().glob("*.schema.json"))
    if out.exists() and not out.is_dir():
        raise InterpretError(f"--out {out}: a file, not a folder (the schemas are written into a folder)")
    there = [src.name for src in sources if (out / src.name).exists()]
    if there and not args.force:
        raise InterpretError(f"--out {out} holds {', '.join(there)} already (use --force to overwrite)")
    written = []
    try:
        out.mkdir(parents=True, exist_ok=True)
        for src in sources:
            shutil.copyfile(src, out / src.name)
            written.append(src.name)
    except OSError as e:
        raise InterpretError(f"cannot write the schemas to {out}: {e.strerror or e}") from None
    _out(f"wrote {', '.join(written)} to {out}")
    return 0


def cmd_new(args) -> int:
    from .show import new_variant_text
    from pathlib import Path
    from ..ruleset.loader import load_ruleset
    rs = load_ruleset(game_folder(args.base))
    from ..ruleset.paths import shown, too_long
    out = Path(args.out or f"{args.name}.yaml")
    if too_long(out):
        raise InterpretError(f"cannot write {shown(out)}: {too_long(out)}")
    if out.exists() and not args.force:
        raise UsageError(f"{out} exists already (use --force to overwrite it)")
    text = new_variant_text(args.name, rs, path=out.as_posix(), given=args.base)
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(text, encoding="utf-8")
    except OSError as e:
        raise InterpretError(f"cannot write {out}: {e.strerror or e}") from None
    _out(f"wrote {out}: check it with `interpret validate {args.base} --variant {out}`")
    return 0


# ---- the command line ---------------------------------------------------------------------

def _positive(text: str) -> int:
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if n < 1:
        raise argparse.ArgumentTypeError(f"{n}: at least 1")
    return n


class _Parser(argparse.ArgumentParser):
    def error(self, message):  # usage errors: exit 2, no traceback, a pointer to --help
        self.print_usage(sys.stderr)
        _err(f"{self.prog}: error: {message}\n(see `{self.prog} --help`)")
        raise SystemExit(2)


def build_parser() -> argparse.ArgumentParser:
    p = _Parser(prog="interpret", description="Play, replay, simulate and check tabletop games written as content.")
    p.add_argument("--version", action="version", version=f"interpret {__version__}")
    p.add_argument("--debug", action="store_true", help="show a traceback on internal errors")
    sub = p.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)

    def debug_flag(q):
        q.add_argument("--debug", action="store_true", default=argparse.SUPPRESS, help=argparse.SUPPRESS)

    def lang_flag(q):
        q.add_argument("--lang", choices=LANGUAGES, metavar="LANG",
                       help=f"the table's language: {' or '.join(LANGUAGES)} (default: the locale's, "
                            "LANGUAGE or LANG, else en)")

    def variant_flag(q):
        q.add_argument("--variant", "-V", action="append", metavar="VARIANT", default=[],
                       help="apply a variant: a name from the game's variants/ folder, or a file (repeatable)")

    def game_options(q, *, players=True):
        if players:
            q.add_argument("--players", type=_positive, metavar="N", help="number of players (default: the game's)")
        q.add_argument("--option", "-o", action="extend", nargs="+", metavar="NAME=VALUE", default=[],
                       help="set a game option (repeatable)")
        variant_flag(q)

    def seat_flags(q, *, humans):
        q.add_argument("--seat", action="append", metavar="N=KIND", default=[],
                       help=("who plays seat N: human, or " if humans else "who plays seat N: ")
                       + "an agent random, greedy, rollout, mcts or ismcts, with an optional budget: mcts:5000 "
                       + "(iterations), ismcts:2s (seconds), rollout:4 (samples), and for mcts and ismcts the workers that search at "
                         "once: ismcts:1s@2, ismcts:1s@all (one per core) (repeatable; N,M=KIND for several seats"
                       + ("; the seats given human are the only humans: --seat 1,2=human is a hot seat)"
                          if humans else ")"))
        q.add_argument("--bots", metavar="LEVEL", help="every other computer seat: easy (random), normal (greedy), "
                                                        "hard (ismcts:0.3s@all: a search on every core, 0.3 s a move; "
                                                        "a game may name its own levels: Dark Agent's hard is "
                                                        "rollout:0.3s@all,eval=leader), or an agent such as mcts:2000")

    q = sub.add_parser("play", help="play a game in the terminal, against bots",
                       description="Play a game. Seat 1 is yours, the others are the strong bots (--bots hard: "
                                   "0.3 s a move on every core, the game's hard level); without a terminal (or with --auto) every seat "
                                   "is a random bot (or --bots) and the game log is printed.")
    q.add_argument("game", nargs="?", default=DEFAULT_GAME, metavar="GAME",
                   help=f"a bundled game's name or a game folder (default: {DEFAULT_GAME})")
    game_options(q)
    q.add_argument("--seed", type=int, help="the game's random seed (default: a random one, printed)")
    seat_flags(q, humans=True)
    q.add_argument("--auto", action="store_true", help="every seat is a bot (random, unless --bots)")
    q.add_argument("--choose", action="append", metavar="N=NAME", default=[],
                   help="seat N's choice of the setup, made from the command line (a name as the choice lists it, "
                        "as in `--choose 1=NAME`; repeatable)")
    q.add_argument("--log", metavar="FILE", help="write the game to FILE (JSON lines) for `interpret replay` and "
                                                 "`--resume` (a game with a human is saved anyway, in "
                                                 "~/.local/state/interpret/)")
    q.add_argument("--resume", metavar="FILE", help="continue the saved game FILE (its log) where it stopped")
    q.add_argument("--log-seat", nargs=2, action="append", metavar=("SEAT", "FILE"),
                   help="write seat SEAT's own account of the game to FILE (text: only what that seat saw)")
    q.add_argument("--force", action="store_true", help="with --log or --log-seat: overwrite FILE if it exists")
    q.add_argument("--max-decisions", type=_positive, default=100_000, metavar="N",
                   help="with bots only: give up on a game longer than this (default 100000)")
    q.add_argument("--quiet", "-q", action="store_true", help="print only the result")
    lang_flag(q)
    debug_flag(q)
    q.set_defaults(run=cmd_play)

    from .learn import add_parser as add_learn
    add_learn(sub, debug_flag, lang_flag=lang_flag)
    from ..serve.cli import add_parser as add_serve  # the web table, the layer above (tests/test_architecture.py)
    add_serve(sub, debug_flag, lang_flag=lang_flag)
    from ..lsp.cli import add_parser as add_lsp  # the language server, the layer above (tests/test_architecture.py)
    add_lsp(sub, debug_flag)

    q = sub.add_parser("replay", help="replay a game log and print its result",
                       description="Replay the actions of a log written by `play --log`, checking each one.")
    q.add_argument("file", metavar="FILE")
    q.add_argument("--quiet", "-q", action="store_true", help="print only the result")
    lang_flag(q)
    debug_flag(q)
    q.set_defaults(run=cmd_replay)

    q = sub.add_parser("simulate", help="play many games between bots and summarise them",
                       description="Play N games between bots (random unless --seat/--bots; game i from seed + i) "
                                   "and summarise "
                                   "speed, length, scores and wins by seat.")
    q.add_argument("game", metavar="GAME", help="a bundled game's name or a game folder")
    q.add_argument("--games", "-n", type=int, default=100, metavar="N", help="number of games (default 100)")
    q.add_argument("--seed", type=int, default=0, metavar="N", help="seed of the first game (default 0)")
    game_options(q)
    seat_flags(q, humans=False)
    q.add_argument("--check", action="store_true", help="check the content's invariants after every decision")
    q.add_argument("--max-decisions", type=int, default=100_000, metavar="N",
                   help="give up on a game longer than this (default 100000)")
    q.add_argument("--json", action="store_true", help="print the summary as JSON")
    debug_flag(q)
    q.set_defaults(run=cmd_simulate)

    q = sub.add_parser("analyze", help="the balance lab: many games into a folder, with statistics and a report",
                       description="Play N games between bots (game i from seed + i), keep one JSON line per game in "
                                   "OUT/results.jsonl (a stopped run resumes), and write OUT/summary.json and "
                                   "OUT/games.csv: win rates by seat with 95%% intervals, a chi-square test of even "
                                   "seats, tie-break shares, score and length quantiles. See docs/analysis.md.")
    q.add_argument("game", metavar="GAME", help="a bundled game's name or a game folder")
    q.add_argument("--games", "-n", type=int, required=True, metavar="N", help="number of games")
    q.add_argument("--seed", type=int, default=0, metavar="BASE", help="game i uses seed BASE + i (default 0)")
    q.add_argument("--jobs", "-j", type=int, metavar="N",
                   help="processes playing games in parallel (default 1; 0: one per core); with --backend ray, "
                        "Ray actors (default: one per CPU of the cluster). The results do not depend on it")
    q.add_argument("--backend", choices=["local", "ray"], default="local",
                   help="local: processes on this machine (default); ray: Ray actors (pip install \"interpret[ray]\")")
    q.add_argument("--address", metavar="ADDR",
                   help="with --backend ray: the cluster to join (host:port or ray://host:port); default: "
                        "start a Ray on 127.0.0.1 for this run")
    q.add_argument("--out", required=True, metavar="DIR", help="the folder of the results (created; resumed if it "
                                                               "holds the same configuration)")
    game_options(q)
    q.add_argument("--max-decisions", type=int, default=100_000, metavar="N",
                   help="a game longer than this is an error (default 100000)")
    seat_flags(q, humans=False)
    q.add_argument("--sweep", metavar="NAME=A,B,...",
                   help="one batch per value of an option (level=debutant,moyen) or per variant (variant=none,teams), "
                        "each in its own folder under DIR, compared with the first value")
    q.add_argument("--quiet", "-q", action="store_true", help="no progress bar")
    debug_flag(q)
    q.set_defaults(run=cmd_analyze)

    from .learneval import add_parser as add_learn_eval  # fitting the bots' evaluation (play/learneval.py)
    add_learn_eval(sub, debug_flag, game_options=game_options, seat_flags=seat_flags)
    from .tune import add_parser as add_tune  # the balance tuner (play/tune.py, analysis/tune_*.py)
    add_tune(sub, debug_flag, game_options=game_options, seat_flags=seat_flags)

    q = sub.add_parser("validate", help="check a game's content and report every problem",
                       description="Load a game and compile it for every player count it allows, with default "
                                   "options. Exit 0 when it is valid, 1 with every problem otherwise.")
    q.add_argument("path", metavar="PATH", help="a game folder or a bundled game's name")
    q.add_argument("--source", metavar="WHERE", help="also print the Python generated for the rules written at "
                   "WHERE (`file.yaml:12`, any line of a text; `file.yaml`: all), the step listers calling it, "
                   "and what each of its globals is")
    variant_flag(q)
    debug_flag(q)
    q.set_defaults(run=cmd_validate)

    q = sub.add_parser("show", help="print a card, rule or setting with the file:line each value comes from",
                       description="Show content as the variants left it: `interpret show dark-agent --variant no-dice "
                                   "cards.gem` or just a name (`gem`, `take`, `goal`).")
    q.add_argument("game", metavar="GAME", help="a bundled game's name or a game folder")
    q.add_argument("name", metavar="NAME", help="a name or a dotted path (cards.gem.props); `all` lists the sections")
    variant_flag(q)
    debug_flag(q)
    q.set_defaults(run=cmd_show)

    q = sub.add_parser("schema", help="write the JSON Schemas of content, variant and scenario files",
                       description="Write the JSON Schemas (draft 2020-12) to a folder, for editors and CI.")
    q.add_argument("--out", required=True, metavar="DIR")
    q.add_argument("--force", action="store_true", help="overwrite schemas already in DIR")
    debug_flag(q)
    q.set_defaults(run=cmd_schema)

    q = sub.add_parser("new", help="write a commented starting file (a homebrew variant)",
                       description="`interpret new variant NAME --base GAME` writes NAME.yaml, a commented variant.")
    q.add_argument("kind", choices=["variant"])
    q.add_argument("name", metavar="NAME")
    q.add_argument("--base", required=True, metavar="GAME")
    q.add_argument("--out", metavar="FILE")
    q.add_argument("--force", action="store_true")
    debug_flag(q)
    q.set_defaults(run=cmd_new)

    q = sub.add_parser("test", help="run scenario files (a game's scenarios/ folder, or files)",
                       description="Run scenarios: a position, forced dice, moves and expectations. "
                                   "Each failure names the scenario file and line, the expectation and the values seen.")
    q.add_argument("paths", metavar="PATH", nargs="*", help="game folders, bundled game names, scenario folders or files "
                                                             f"(default: {DEFAULT_GAME})")
    q.add_argument("-v", "--verbose", action="store_true", help="list the scenarios that pass too")
    q.add_argument("--coverage", action="store_true",
                   help="run GAME's scenarios and report which actions, requirements (true and false), triggers, "
                        "procedures and functions they exercised, and which not, with file:line:col")
    q.add_argument("--mutate", action="store_true",
                   help="negate each requirement and remove each trigger of GAME in turn, run the scenarios that "
                        "exercise it, and list the changes no scenario notices (surviving mutants)")
    variant_flag(q)
    q.add_argument("--json", action="store_true", help="with --coverage or --mutate: the report as JSON")
    q.add_argument("-q", "--quiet", action="store_true", help="with --coverage or --mutate: no progress on stderr")
    debug_flag(q)
    q.set_defaults(run=cmd_test)
    return p


_EXIT_REGISTERED = False


def _no_collection_at_exit() -> None:
    """At exit, Python's last garbage collections walk every object of the loaded games (a third of
    `interpret validate` for a large game). Nothing is left to collect by then: `gc.freeze` at the
    start of the exit makes them skip those objects (each is still freed, the disk cache still
    written: atexit functions run before the collections)."""
    global _EXIT_REGISTERED
    if not _EXIT_REGISTERED:
        import atexit
        import gc
        atexit.register(gc.freeze)
        _EXIT_REGISTERED = True


def main(argv=None) -> int:
    _no_collection_at_exit()
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.reconfigure(errors="replace")
        except (AttributeError, ValueError):
            pass
    from .pipes import pipes_may_close
    with pipes_may_close():  # `| head`: the command ends with its own exit code (pipes.py)
        return _run(argv)


def _impossible_argument(values):
    """The first text among `values` (and the lists in them) that no command line can hold: a NUL
    character, or a character the file system cannot encode (a lone surrogate); None when all can be."""
    import os
    for value in values:
        if isinstance(value, (list, tuple)):
            inner = _impossible_argument(value)
            if inner is not None:
                return inner
        elif isinstance(value, str):
            try:
                os.fsencode(value)
            except UnicodeError:
                return value
            if "\0" in value:
                return value
    return None


def _run(argv) -> int:
    parser = build_parser()
    args, extra = parser.parse_known_args(argv)
    if extra and getattr(args, "command", None) == "test" and not any(x.startswith("-") for x in extra):
        args.paths += extra  # `test --coverage GAME --variant V SCENARIOS...`: paths after an option
    elif extra:
        parser.error(f"unrecognized arguments: {' '.join(extra)}")
    if getattr(args, "run", None) is None:
        parser.print_help(sys.stderr)
        return 2
    impossible = _impossible_argument(vars(args).values())
    if impossible is not None:  # only a caller in Python can give one (a process's arguments cannot): plain English
        _err(f"error: {repr(impossible)[:80]}: an argument cannot hold a NUL character, nor one that no file name "
             f"can hold")
        return 1
    before = language()
    if hasattr(args, "lang"):  # play and replay: the interface and the content's texts in that language
        set_language(args.lang)
    try:
        return args.run(args)
    except UsageError as e:
        _err(f"interpret {args.command}: error: {e}")
        return 2
    except ContentError as e:
        _err("\n\n".join(p.render() for p in e.problems))
        return 1
    except InterpretError as e:
        _err(f"error: {e}")
        return 1
    except KeyboardInterrupt:
        _err(_("interrupted"))
        return 130
    except BrokenPipeError:  # written past sys.stdout and cut short (`| head`): stop quietly, not a success
        import os
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1
    except Exception as e:  # a bug in interpret itself
        if args.debug:
            raise
        _err(f"internal error: {type(e).__name__}: {e}\n(this is a bug in interpret; run again with --debug "
             f"for the traceback)")
        return 3
    finally:
        set_language(before)  # a caller in the same process keeps its language


if __name__ == "__main__":
    sys.exit(main())
