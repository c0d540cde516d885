"""`interpret validate`: load a game, compile it for every player count, report every problem at
its file:line:col; `--source FILE:LINE` prints the Python generated from that line of content."""
from __future__ import annotations

import time
from dataclasses import dataclass, field

from ..errors import ContentError, InterpretError, Location, Problem
from ..ruleset.paths import shown
from ..engine.game import Game
from .common import _err, _n, _out, game_folder

@dataclass
class Validation:
    title: str
    files: int
    card_kinds: int
    cards: int
    actions: int
    triggers: int
    player_counts: list
    seconds: float
    generated: list = field(default_factory=list)  # lang/sources.Generated: the modules, default player count
    game: object = None  # the game built for the default player count
    warnings: list = field(default_factory=list)  # Problems that do not stop the game (ruleset/reasons.py)

    def summary(self) -> str:
        counts = self.player_counts
        players = f"{counts[0]}" if len(counts) == 1 else f"{counts[0]}-{counts[-1]}"
        return (f"OK {self.title}: {_n(self.files, 'file')}, {_n(self.cards, 'card')} "
                f"({_n(self.card_kinds, 'kind')}), {_n(self.actions, 'action')}, {_n(self.triggers, 'trigger')}, "
                f"{players} players, {self.seconds * 1000:.0f} ms")


def player_counts(rs) -> list[int]:
    lo, hi = rs.player_range
    if hi - lo > 12:  # no declared maximum: the ends and the default are enough
        return sorted({lo, rs.default_players, hi})
    return list(range(lo, hi + 1))


def first_screens(game, renderer) -> None:
    """The first screen of a game drawn for every seat and a spectator: a text of `render:` whose
    rules fail there (a recursion, a budget spent) is a ContentError at its position. A setup that
    fails is `play`'s and `test`'s to report (validate compiles; it does not play)."""
    try:
        st = game.new_game(seed=0)
    except InterpretError:
        return
    for viewer in [None, *range(game.num_players)]:
        renderer.screen(st, viewer)
    if renderer.text_failures.seen:
        raise ContentError(renderer.text_failures.problems())


def validate_game(path: str, variants=(), *, only=None) -> Validation:
    """Load a game and compile it for every player count (`only`: those of them); raise
    ContentError with every problem."""
    from ..ruleset.loader import load_ruleset
    start = time.perf_counter()
    rs = load_ruleset(game_folder(path), variants=variants, keep_going=True)
    return validate_ruleset(rs, only=only, where=str(path), start=start)


def validate_ruleset(rs, *, only=None, where: str = "", start: float | None = None, spec=None) -> Validation:
    """`validate_game` of a ruleset already loaded with `keep_going` (the language server loads it
    once for several calls; `spec`: its ContentSpec, when the caller has it)."""
    from ..ruleset.spec import ContentSpec
    from .render import Renderer
    start = time.perf_counter() if start is None else start
    problems: list[Problem] = list(rs.problems)  # schema and cross-reference problems...
    seen = {p.render() for p in problems}
    game = None
    counts = [n for n in player_counts(rs) if only is None or n in only] or player_counts(rs)
    # spec: the typed content, the same for every player count
    for n in counts:  # ...and those of the rules, compiled for every player count
        try:
            if spec is None:
                spec = ContentSpec.of(rs)
            g = Game.from_ruleset(rs, players=n, spec=spec)
            renderer = Renderer(g)
            if n == rs.default_players:
                first_screens(g, renderer)
        except ContentError as e:
            for p in e.problems:
                text = p.render()
                if text not in seen:
                    seen.add(text)
                    problems.append(p)
            continue
        except Exception:
            if rs.problems:  # content already known to be broken: a consequence, not news
                continue
            raise
        if game is None or n == rs.default_players:
            game = g
    if game is not None:  # the agents its levels name (play/levels.py): the same for every player count
        from .levels import level_problems
        problems += [p for p in level_problems(game) if p.render() not in seen]
    if game is None and not problems:  # no player count to build the game for
        problems.append(Problem(Location(rs.files[0] if rs.files else where or str(rs.root)),
                                "no number of players to build the game for", hint="check game.players: min, max and default"))
    if problems:
        raise ContentError(problems)
    seconds = time.perf_counter() - start
    m = game.catalog
    from ..ruleset.reasons import uncited_reasons, unreadable_reasons
    return Validation(rs.title, len(rs.files), len(rs.cards), len(m.cards), len(m.actions), len(rs.triggers),
                      counts, seconds, m.generated, game, unreadable_reasons(spec) + uncited_reasons(spec))


def cmd_validate(args) -> int:
    try:
        v = validate_game(args.path, args.variant)
    except ContentError as e:
        n = len(e.problems)
        _err(f"{shown(args.path)}: {n} problem{'s' if n != 1 else ''}\n")
        _err("\n\n".join(p.render() for p in e.problems))
        return 1
    _out(v.summary())
    for w in v.warnings:
        _out(f"warning: {w.render()}")
    if args.source:
        print_source(v.game, v.generated, args.source)
    return 0


def print_source(game, generated, where: str) -> None:
    """The Python generated for every compiled text of the content spanning WHERE (`FILE:LINE`, or
    `FILE`), the step listers that call it (engine/listing.py), and what each global is."""
    from ..lang import sources
    found = sources.at(generated, where)
    for g in found:
        lines = f"line {g.where.line}" if g.last_line == g.where.line else f"lines {g.where.line}-{g.last_line}"
        _out(f"\n# {g.where} (content {lines}): {g.role}\n{g.source.rstrip()}")
        _legend(sources.legend(g.source, g.env, g.notes))
    texts = {g.source: g.where for g in found}
    listers = game.listers()
    shown = 0
    for what, f in listers:
        env = f.__globals__
        if texts and any(sources.reaches(v, texts) for k, v in env.items() if k.startswith("_k")):
            shown += 1
            _out(f"\n# the legal actions of {what} (engine/listing.py), which call the code above\n"
                 f"{f._interpret_source.rstrip()}")
            _legend(sources.legend(f._interpret_source, env, places=texts))
    n = len(found)
    _out(f"\n{n} compiled text{'s' if n != 1 else ''} spanning {where!r}, {shown} step lister{'s' if shown != 1 else ''}"
         " calling them" + ("" if n or ":" not in where else " (no rules are compiled from that line)"))


def _legend(entries) -> None:
    if entries:
        _out("# where each global comes from:\n" + "\n".join(f"#   {e}" for e in entries))


__all__ = ["Validation", "cmd_validate", "player_counts", "print_source", "validate_game", "validate_ruleset"]
