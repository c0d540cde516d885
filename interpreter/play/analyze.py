"""`interpret analyze`: the command line's side of the balance lab (play/cli.py holds its parser entry)."""
from __future__ import annotations

from ..analysis import Spec, analyze
from ..analysis.progress import BatchProgress
from ..analysis.runner import default_jobs
from .common import UsageError, _out, parse_options, seat_kinds
from .levels import game_levels


def _stop_ray(args) -> None:
    if args.backend == "ray":
        from ..analysis.ray_backend import shutdown
        shutdown()


def lab_setup(args) -> tuple[int, Spec]:
    """The workers (`--jobs`, `--backend`) and the batch's Spec (game, options, variants, seats) of
    `analyze` and `tune` (play/tune.py), their options checked."""
    if args.address and args.backend != "ray":
        raise UsageError("--address goes with --backend ray")
    if args.jobs is not None and args.jobs < 0:
        raise UsageError("--jobs must be at least 1 (0: one per core, or every CPU of the Ray cluster)")
    if args.backend == "ray":
        jobs = 0 if args.jobs is None else args.jobs  # 0: as many actors as the cluster has CPUs
    else:
        jobs = 1 if args.jobs is None else (default_jobs() if args.jobs == 0 else args.jobs)
    spec = Spec(args.game, args.players, parse_options(args.option), tuple(args.variant), seed=args.seed,
                max_decisions=args.max_decisions)
    if args.seat or args.bots:  # each seat's agent (the agents package): random unless --seat / --bots
        game = spec.load()
        players = game.num_players
        agents = seat_kinds(args.seat, players, auto=True, interactive=False, bots=args.bots, humans_allowed=False,
                            levels=game_levels(game))
        spec = Spec(spec.game, players, spec.options, spec.variants, tuple(agents), spec.seed, spec.max_decisions)
    return jobs, spec


def run_analyze(args) -> int:
    if args.games < 1:
        raise UsageError("--games must be at least 1")
    jobs, spec = lab_setup(args)
    run = {"backend": args.backend, "address": args.address}
    if args.sweep:
        from ..analysis.sweep import parse_sweep, run_sweep
        key, values = parse_sweep(args.sweep)
        try:
            sweep = run_sweep(spec, key, values, games=args.games, out=args.out, jobs=jobs, **run,
                              progress=lambda label: BatchProgress(label, enabled=False if args.quiet else None))
        finally:
            _stop_ray(args)
        _out(sweep.text, "", "wrote " + ", ".join(str(sweep.out / f) for f in ("sweep.json", "report.html"))
             + f" and a folder per value ({', '.join(b.out.name for b in sweep.batches)})")
        return 0
    try:
        result = analyze(spec, games=args.games, out=args.out, jobs=jobs, **run,
                         progress=BatchProgress(enabled=None if not args.quiet else False))
    finally:
        _stop_ray(args)
    _out(result.text, "")
    resumed = f", {args.games - result.played} resumed from {result.out}" if result.played < args.games else ""
    workers = f"{jobs} job{'s' if jobs > 1 else ''}" if args.backend == "local" else \
        f"Ray, {jobs or 'every CPU'} actor{'s' if jobs != 1 else ''}"
    speed = f" ({result.played / result.seconds:.1f} games/s, {workers})" \
        if result.played and result.seconds > 0 else ""
    _out(f"{result.played} games played in {result.seconds:.1f} s{speed}{resumed}")
    _out("wrote " + ", ".join(str(f) for f in result.files))
    return 0
