"""How much of the listing an incremental listing could skip in random play (issue 29, "action keys
and domains are not rebuilt when what they read has not changed"): an upper bound, measured.

    python benchmarks/listing_reuse.py                       # Dark Agent, 4 players, 40 games
    python benchmarks/listing_reuse.py --game agent-dog --games 20

Plays random games (the moves drawn from random.Random(seed), as bench.py's and bytecodes.py's
do). At each listing the flow makes to stop at a turn's player (a simultaneous step's, Agents
Secrets' votes, are not measured), every definition of the step is listed again on its own (its
own lister, engine/listing.py), and its actions compared with those it listed at the previous
listing of the same seat in the same turn and step: a definition whose actions are the same is one
a cache could have skipped, at best (the same actions do not mean that nothing it reads changed,
and a cache's keys cost time too). The definitions listed one by one give the flow's listing, in
its order (checked at every listing). Then the step's lister is timed, and a lister of the
definitions whose actions changed (each twice, in turn, the best kept): the difference is what
skipping the others would save.

It prints, per step, the listings made, its share of the listing time and the share of it that
skipping would save; and the definitions most often unchanged. Time is CPU time, and moves with
the machine's load; the counts do not.
"""
from __future__ import annotations

import argparse
import random
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if (ROOT / "interpreter").is_dir():  # measure this checkout, whatever version is installed
    sys.path.insert(0, str(ROOT))

from interpreter import Game  # noqa: E402
from interpreter.engine.listing import _write  # noqa: E402
from interpreter.runtime import context as rt  # noqa: E402


def measure(game, *, games: int, seed: int) -> dict:
    """Random games of `game` from seeds seed..seed+games-1, every listing measured as above:
    {"decisions", "steps": {step: {"listings", "seconds", "skippable_seconds"}},
    "definitions": {(step, name): {"listings", "unchanged"}}}. `seconds`: the step's lister, timed;
    `skippable_seconds`: its time less that of a lister of the definitions whose actions changed."""
    m = game.m
    flow = game.flow
    alone = {}  # step -> ((name, its lister alone), ...)
    some = {}  # (step, names) -> the lister of these definitions of the step
    previous = {}  # (round, position, step, seat) -> the actions of each definition at the last listing
    steps, definitions = {}, {}
    clock = time.process_time
    flow_list = flow._list_step

    def timed(lister, st, player) -> float:
        ctx = rt.Ctx(st, m, player)
        ctx.memo = {}
        ctx.viewer = None
        start = clock()
        lister.bare(ctx, [])
        return clock() - start

    def listing(st, player, **kw):
        listed = flow_list(st, player, **kw)
        fl = st["flow"]
        i = fl.get("step", 0)
        step = m.step_names[i] if 0 <= i < len(m.step_names) else None
        defs = m.actions_by_step.get(step, ())
        if step not in alone:
            alone[step] = tuple((a.name, _write(m, (a,))) for a in defs)
        key = (fl["round"], fl["pos"], i, player.id if player is not None else None)
        before = previous.get(key)
        outs, changed = [], []
        for n, (name, lister) in enumerate(alone[step]):
            ctx = rt.Ctx(st, m, player)
            ctx.memo = {}
            ctx.viewer = None
            out = lister.bare(ctx, [])
            outs.append(out)
            d = definitions.setdefault((step, name), Counter())
            d["listings"] += 1
            if before is not None and before[n] == out:
                d["unchanged"] += 1
            else:
                changed.append(n)
        if kw.get("bare"):
            together = [x for out in outs for x in out]
            assert together == list(listed), f"the definitions of step {step} alone list {together}, the step {listed}"
        whole = some.get((step, None))
        if whole is None:
            whole = some[(step, None)] = _write(m, tuple(defs))
        part = some.get((step, tuple(changed)))
        if part is None:
            part = some[(step, tuple(changed))] = _write(m, tuple(defs[n] for n in changed))
        # each timed twice, in turn, the best kept: the first lister timed finds the state's data
        # colder than the second would
        full, left = timed(whole, st, player), timed(part, st, player)
        full, left = min(full, timed(whole, st, player)), min(left, timed(part, st, player))
        s = steps.setdefault(step, Counter())
        s["listings"] += 1
        s["seconds"] += full
        s["skippable_seconds"] += full - left
        previous.clear()  # only the last listing is compared with: the state moves on
        previous[key] = outs
        return listed

    flow._list_step = listing
    try:
        decisions = 0
        for s in range(seed, seed + games):
            rng = random.Random(s)
            st = game.new_game(s)
            while not game.is_terminal(st):
                actions = game.legal_actions(st)
                game.apply_in_place(st, actions[rng.randrange(len(actions))], checked=False)
                decisions += 1
    finally:
        flow._list_step = flow_list
    return {"decisions": decisions, "steps": {k: dict(v) for k, v in steps.items()},
            "definitions": {k: dict(v) for k, v in definitions.items()}}


def table(r: dict, top: int) -> str:
    total = sum(s["seconds"] for s in r["steps"].values()) or 1.0
    lines = [f"{r['decisions']:,} decisions"]
    for step, s in r["steps"].items():
        lines.append(f"step {step}: {s['listings']:,} listings, {100 * s['seconds'] / total:.1f} % of the listing time; "
                     f"skipping the definitions whose actions were unchanged saves "
                     f"{100 * s['skippable_seconds'] / (s['seconds'] or 1.0):.1f} % of it")
    often = sorted(r["definitions"].items(), key=lambda kv: -kv[1].get("unchanged", 0) / kv[1]["listings"])[:top]
    lines.append("  unchanged   definition")
    lines += [f"  {100 * d.get('unchanged', 0) / d['listings']:7.0f} %   {step}: {name}" for (step, name), d in often]
    return "\n".join(lines)


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--game", default="dark-agent")
    p.add_argument("--players", type=int)
    p.add_argument("--games", type=int, default=40)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--top", type=int, default=15, help="definitions shown (default 15)")
    a = p.parse_args(argv)
    game = Game.load(a.game, players=a.players)
    print(table(measure(game, games=a.games, seed=a.seed), a.top))
    return 0


if __name__ == "__main__":
    sys.exit(main())
