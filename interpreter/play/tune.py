"""`interpret tune`: the command line's side of the balance tuner (interpreter/analysis/tune_*.py)."""
from __future__ import annotations

import sys

from .common import UsageError, _out


def add_parser(sub, debug_flag, *, game_options, seat_flags) -> None:
    q = sub.add_parser("tune", help="the balance tuner: search the values a game's `tuning:` section lets change "
                                    "until its objectives hold, and write the proposals as variant files",
                       description="Search the values the game's `tuning:` section names (optuna: NSGA-II for "
                                   "several objectives, TPE for one), each candidate a generated variant whose "
                                   "games the balance lab plays; finalists are re-evaluated on fresh seeds and "
                                   "written to DIR/proposals/ as variant files, with DIR/report.html. A stopped "
                                   "study resumes. See docs/analysis.md, Tuning.")
    q.add_argument("game", metavar="GAME", help="a bundled game's name or a game folder")
    q.add_argument("--budget", type=int, required=True, metavar="N", help="candidates to evaluate at most "
                                                                          "(the rulebook's values are the first)")
    q.add_argument("--games", "-n", type=int, default=200, metavar="N",
                   help="games a candidate plays first (default 200); doubled while an interval straddles a "
                        "band's edge, up to --max-games")
    q.add_argument("--max-games", type=int, metavar="N", help="games a candidate plays at most (default 4 x --games)")
    q.add_argument("--finalists", type=int, default=3, metavar="K",
                   help="best trade-offs re-evaluated on fresh seeds and proposed (default 3)")
    q.add_argument("--seed", type=int, default=0, metavar="S", help="the study's seed: its games' and its "
                                                                    "sampler's (default 0)")
    q.add_argument("--jobs", "-j", type=int, metavar="N",
                   help="processes playing a candidate's games (default 1; 0: one per core); with --backend ray, "
                        "Ray actors. The trials do not depend on it")
    q.add_argument("--backend", choices=["local", "ray"], default="local",
                   help="local: processes on this machine (default); ray: Ray actors, as for analyze")
    q.add_argument("--address", metavar="ADDR", help="with --backend ray: the cluster to join")
    q.add_argument("--out", required=True, metavar="DIR",
                   help="the study's folder (created; the same command resumes a stopped study)")
    game_options(q)
    q.add_argument("--max-decisions", type=int, default=100_000, metavar="N",
                   help="a game longer than this is an error (default 100000)")
    seat_flags(q, humans=False)
    q.add_argument("--quiet", "-q", action="store_true", help="no progress bar, no line per candidate")
    debug_flag(q)
    q.set_defaults(run=run_tune)


def run_tune(args) -> int:
    from ..analysis.progress import BatchProgress
    from ..analysis.tune_output import proposal_text, summary_json, write_proposals
    from ..analysis.tune_report import write_report
    from ..analysis.tune_study import TuneStudy
    if args.budget < 1 or args.games < 1 or args.finalists < 1:
        raise UsageError("--budget, --games and --finalists must be at least 1")
    if args.max_games is not None and args.max_games < args.games:
        raise UsageError("--max-games must be at least --games")
    from .analyze import lab_setup
    jobs, spec = lab_setup(args)
    bars = not args.quiet and sys.stderr.isatty()
    study = TuneStudy.prepare(spec, out=args.out, budget=args.budget, games=args.games,
                              max_games=args.max_games or 4 * args.games, finalists=args.finalists, jobs=jobs,
                              backend=args.backend, address=args.address,
                              progress=(lambda label: BatchProgress(label)) if bars else None)
    if not args.quiet:
        study.notify = lambda line: print(line, file=sys.stderr, flush=True)
    try:
        result = study.run()
        proposals = write_proposals(study, result)
    finally:
        if args.backend == "ray":
            from ..analysis.ray_backend import shutdown
            shutdown()
    files = [summary_json(study, result, proposals), write_report(study, result, proposals)]
    _out(proposal_text(study, result, proposals), "")
    _out("wrote " + ", ".join(str(f) for f in files + [p.path for p in proposals]))
    return 0
