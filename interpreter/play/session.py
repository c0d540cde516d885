"""`interpret play`: a game at the terminal, seats played by humans and bots."""
from __future__ import annotations

import os
import secrets
import sys

from ..agents import RandomAgent, bot_seed, decide, make_agent
from ..engine.game import Game, clone
from ..errors import InterpretError
from ..i18n import _
from ..information.memory import Memory
from .common import HUMAN, UsageError, _err, _n, _out, decisions, game_folder, parse_options, seat_kinds
from .levels import game_levels
from .hotseat import HotSeat
from .picks import Picks
from .narration import Narrator
from .recap import Recap
from .render import PUBLIC


class _Account:
    """A seat's own account of a game, written as text as the game goes."""

    def __init__(self, path: str, f):
        self.path, self.f = path, f

    def write_lines(self, *lines) -> None:
        try:
            self.f.write("\n".join(lines) + "\n")
            self.f.flush()
        except OSError as e:
            raise InterpretError(f"{self.path}: cannot write the account: {e.strerror or e}") from None

    def close(self) -> None:
        try:
            self.f.close()
        except OSError:
            pass


def _seat_number(text: str, players: int) -> int:
    try:
        seat = int(text)
    except ValueError:
        seat = 0
    if not (1 <= seat <= players):
        raise UsageError(f"--log-seat {text}: seats are 1 to {players}")
    return seat


def _open_account(path: str, seat: int, players: int, *, force: bool) -> _Account:
    from .replay import check_new_log  # the same rules as --log: no overwriting without --force
    check_new_log(path, force=force)
    try:
        return _Account(path, open(path, "w", encoding="utf-8"))
    except OSError as e:
        raise InterpretError(f"{path}: cannot write the account: {e.strerror or e}") from None


def _check_outputs(args, log_path, players: int) -> None:
    """--log-seat's seats are seats of the game, and no two of the files written (the log or the
    saved game, each seat's account) are the same file: one would be written over the other."""
    files = [("--resume" if args.resume else "--log", log_path)] if log_path else []
    for seat_text, account_path in args.log_seat or ():
        _seat_number(seat_text, players)
        files.append((f"--log-seat {seat_text}", account_path))
    seen = {}
    for flag, name in files:
        same = _file_identity(name)
        if same in seen:
            raise UsageError(f"{seen[same]} and {flag} name the same file {name}: give each its own file")
        seen[same] = flag


def _file_identity(name: str):
    """What tells two names of one file apart from two files: the device and inode of a file that
    exists, else its absolute path with links resolved."""
    try:
        st = os.stat(name)
        return st.st_dev, st.st_ino
    except (OSError, ValueError):
        return os.path.realpath(os.path.abspath(name))


def save_path(game_name: str, seed: int) -> str:
    """Where a game with a human is saved when no --log is given: the user's state folder."""
    import time
    from pathlib import Path
    base = Path(os.environ.get("XDG_STATE_HOME") or Path.home() / ".local" / "state") / "interpret"
    try:
        base.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise InterpretError(f"{base}: cannot keep the saved game there: {e.strerror or e} (give --log FILE)") from None
    name = Path(game_name).name or "game"
    return str(base / f"{name}-{seed}-{time.strftime('%Y%m%d-%H%M%S')}.jsonl")


class History:
    """What `u` may take back: the states before each of the humans' decisions, and the last
    decision after which undoing would change what is known (dice rolled, a hidden card seen)."""

    def __init__(self, game, renderer, log):
        self.game = game
        self.renderer = renderer
        self.log = log
        self.marks: list[tuple[int, int, dict]] = []  # (seat, decisions before, state before)
        self.barrier = 0  # decisions that cannot be undone (chance or a reveal happened in the last one)
        self.barrier_why = ""
        self.alone = game.num_players == 1

    def known(self, st) -> list:
        """What each seat may see (card ids), to notice a reveal."""
        out = []
        for s in self.game.seats:
            sight = self.renderer.sight(st, s.id)
            out.append(frozenset(sight._visible) if sight._visible is not None else None)
        return out

    def before(self, seat: int, n: int, st) -> None:
        self.marks.append((seat, n, clone(st)))

    def after(self, n: int, rng_before, known_before, st) -> None:
        if self.alone:
            return
        if st["rng"] != rng_before:
            self.barrier, self.barrier_why = n, _("chance decided something since (dice, a shuffle, a draw)")
            return
        after = self.known(st)
        if any(b is not None and a is not None and not a <= b for a, b in zip(after, known_before)):
            self.barrier, self.barrier_why = n, _("a hidden card was revealed since")

    def why_not(self, seat: int):
        mark = self.last(seat)
        if mark is None:
            return _("you have no decision to take back")
        if mark[1] < self.barrier:
            return self.barrier_why
        return None

    def last(self, seat: int):
        for mark in reversed(self.marks):
            if mark[0] == seat:
                return mark
        return None

    def undo(self, seat: int) -> tuple[int, dict]:
        _seat, n, st = self.last(seat)
        while self.marks and self.marks[-1][1] >= n:
            self.marks.pop()
        if self.log is not None:
            self.log.truncate(n)
        return n, st


def cmd_play(args) -> int:
    from .human import Human, Quit, Undo
    from .render import Renderer
    from .replay import LogWriter, check_new_log
    resumed = None
    if args.resume:
        resumed = _resume_settings(args)
        options, seed, kinds = resumed.options, resumed.seed, resumed.seats
        game = resumed.game_obj
        args.game = resumed.game
    else:
        options = parse_options(args.option)
        args.game = game_folder(args.game)
        game = Game.load(args.game, players=args.players, options=options, variants=args.variant)
    renderer = Renderer(game)
    picks = Picks(args.choose, game.num_players)
    interactive = sys.stdin.isatty()
    if resumed is None:
        kinds = seat_kinds(args.seat, game.num_players, auto=args.auto, interactive=interactive, bots=args.bots,
                           levels=game_levels(game))
        seed = args.seed if args.seed is not None else secrets.randbelow(1_000_000)
    humans = [i for i, k in enumerate(kinds) if k == HUMAN]
    if not interactive and not humans and not args.auto and not args.quiet and not args.seat and not args.bots \
            and resumed is None:
        _err("(the input is not a terminal: every seat is played by a bot; give --seat 1=human to play from "
             "typed lines, or --auto to say you want bots only)")
    # one human: the narration is theirs; hot seat: what the whole table may see, until a player
    # takes the keyboard; bots only: everything
    viewer = humans[0] if len(humans) == 1 else (PUBLIC if humans else None)
    log = None
    path = args.resume or args.log
    _check_outputs(args, path, game.num_players)  # before anything is written
    if resumed is not None:
        log = LogWriter(path, game=args.game, players=game.num_players, options=options, seed=seed, seats=kinds,
                        sync=True, resume=resumed.offsets, keep=resumed.keep)
    else:
        if path is None and humans:
            path = save_path(args.game, seed)
        if path is not None:
            check_new_log(path, force=args.force)
            log = LogWriter(path, game=args.game, players=game.num_players, options=options, seed=seed,
                            seats=kinds, variants=args.variant, sync=bool(humans))
    history = History(game, renderer, log) if humans else None
    players = {i: (Human(game, renderer, i, can_undo=lambda i=i: history.why_not(i)) if k == HUMAN
                   else make_agent(k, bot_seed(seed, i)))
               for i, k in enumerate(kinds)}
    # what the seats remember of the cards they saw, for the bots that sample states (memory.py);
    # a resumed or undone game starts it again (forgetting is always safe)
    searching = any(not isinstance(p, (Human, RandomAgent)) for p in players.values())
    memory = Memory(game) if searching else None
    narrators = [Narrator(game, renderer, viewer=viewer, quiet=args.quiet)]
    accounts = []
    for seat_text, account_path in args.log_seat or ():  # a seat's own account: what that seat saw, as text
        seat_no = _seat_number(seat_text, game.num_players)
        account = _open_account(account_path, seat_no, game.num_players, force=args.force)
        accounts.append(account)
        narrators.append(Narrator(game, renderer, viewer=seat_no - 1, out=account.write_lines))
    narrator = narrators[0]
    recap = Recap(game, renderer, humans) if humans and not args.quiet else None  # recap.py
    hotseat = HotSeat(game, narrator, humans, players[humans[0]].read) if len(humans) > 1 else None
    st = game.new_game(seed=seed) if resumed is None else resumed.st
    n = 0 if resumed is None else len(resumed.actions)
    if resumed is not None:
        renderer.memory = {seat: memory for seat, memory in resumed.memory.items() if seat in humans}
    for seat in humans:
        renderer.remember(st, seat)
    for each in narrators:
        each.start(st, seed, kinds, resumed=n)
    if humans and not args.quiet:
        from .terminal import paint
        heading = _("Legend: {legend}")
        indent = "\n" + " " * len(heading.split("{legend}")[0])
        paint(heading.format(legend=indent.join(renderer.legend(st, viewer if viewer != PUBLIC else None))), game)
        _out(_("(type ? for help: rules, legend, ? NAME, why ACTION, u to undo, q to leave)"))
        if log is not None:
            _out(_("(the game is saved as it goes in {path}: `interpret play --resume {path}` continues it)").format(
                path=path))
        if hotseat is not None and log is not None:
            hotseat.warn_save(path, resumed=resumed is not None)
    try:
        while not game.is_terminal(st):
            if not humans and n >= args.max_decisions:  # bots only: a game without an end stops here
                _err(f"no end after {_n(n, 'decision')} (--max-decisions): the rules may never finish the game"
                     + (f"\n(the moves so far are in {path})" if log else ""))
                if log is not None:
                    log.close()
                return 1
            p = game.current_player(st)
            who = players.get(p) if p is not None else None
            if who is None:
                who = players[0] if kinds[0] != HUMAN else make_agent("random", bot_seed(seed, -1))
            if hotseat is not None:  # another player's turn: the last one's screen is wiped (hotseat.py)
                hotseat.before(p, human=isinstance(who, Human))
            how = ""
            picked = picks.answer(game, renderer, st, p) if picks else None  # --choose (picks.py)
            if picked is not None:
                action, label = picked
                how = _(" (chosen on the command line)")
            elif isinstance(who, Human):
                confirm = recap is not None and recap.before_choices(st, p, renderer, pause=interactive)
                try:
                    action, label, forced = who.choose(st, confirm=confirm)
                except Undo:
                    n, st = history.undo(p)
                    memory = Memory(game) if searching else None
                    _out(_("   Undone: back to decision {n}, your move again.").format(n=n + 1))
                    for each in narrators:
                        each.round = each.turn = None
                        each.new_round(st)
                    continue
                if not forced:
                    history.before(p, n, st)
                else:
                    how = _(" (the only possible move)")
            else:
                action = decide(who, game, st, memory)
                label = dict(game.legal_actions_with_labels(st)).get(action, str(action))
            labels = [each.hide(st, p, label, action) for each in narrators]
            if recap is not None:
                recap.before(st, p, label, action)
            rng_before = st["rng"]
            known_before = history.known(st) if history is not None else None
            step = game.apply_in_place(st, action) if memory is None else memory.apply(st, action)
            n += 1
            if history is not None:
                history.after(n, rng_before, known_before, st)
            for seat in humans:
                renderer.remember(st, seat)
            for line in picks.check_used(game, st) if picks else ():
                _err(line)
            if log is not None:
                log.action(game.seats[p].key if p is not None else None, action)
            for each, shown in zip(narrators, labels):
                each.move(st, n=n, player=p, label=shown, events=step.events, causes=step.causes, how=how,
                          action=action)
            if recap is not None:
                recap.after(st, player=p, events=step.events, causes=step.causes)
    except Quit as q:
        if log:
            _out(_("Game stopped after {decisions}: {why}. It is saved in {path}; continue it with:\n"
                   "  interpret play --resume {path}").format(decisions=decisions(n), why=q.why, path=path))
        else:
            _out(_("Game stopped after {decisions}: {why}.").format(decisions=decisions(n), why=q.why))
        if log is not None:
            log.close()
        return q.code
    except InterpretError as e:  # the rules went wrong while playing: say where in the game
        if log is not None:
            log.close()
        _err(f"error at decision {n + 1} of the game with seed {seed}: {e}"
             + (f"\n(the moves so far are in {path})" if log else ""))
        return 1
    if hotseat is not None:
        hotseat.at_end()
    for each in narrators[1:]:
        each.result(st, n)
    for account in accounts:
        account.close()
    result = narrator.result(st, n)
    for line in renderer.text_failures.report():  # for the designer: the player read "(cannot be shown)"
        _err(line)
    if log is not None:
        log.result(result)
        log.close()
        _out(_("Log written to {path} (replay it with: interpret replay {path})").format(path=path))
    return 0


class _Resumed:
    pass


def _resume_settings(args) -> "_Resumed":
    """A saved game (its log) read back and checked as `replay` checks it (replay.play_back): its
    settings, its seats (budgets cut to the command line's limits), and its state after the recorded
    actions. The file is not changed here: a line cut off by a crash goes only once all is accepted."""
    from .replay import LogError, content_digest, from_header, play_back, read_saved
    from ..errors import ContentError, Location
    if args.log or args.seed is not None or args.seat or args.bots or args.auto or args.option or args.variant \
            or args.players or args.choose:
        raise UsageError("--resume FILE takes the game, its seats, seed and options from FILE: give nothing else "
                         "but --quiet or --log-seat")
    saved = read_saved(args.resume)
    rec = saved.record
    if rec.result is not None:
        raise LogError(Location(args.resume), "this game is over (`interpret replay` shows it)")
    try:
        game = Game.load(rec.game, players=rec.players, options=rec.options, variants=rec.variants)
    except ContentError as e:
        raise from_header(e, rec) from None
    if rec.content_sha256 and content_digest(rec.game) not in (None, rec.content_sha256):
        _err(f"warning: the content of {rec.game} changed since this game was saved; it may not resume")
    r = _Resumed()
    r.game, r.game_obj, r.options, r.seed = rec.game, game, rec.options, rec.seed
    r.seats = _saved_seats(rec, game, args.resume)
    r.actions = [text for _line, _who, text in rec.actions]
    r.offsets, r.keep = saved.offsets, saved.keep
    st = game.new_game(seed=rec.seed)
    from .render import Memory
    r.memory = {i: Memory(game) for i, kind in enumerate(r.seats) if kind == HUMAN}

    def seen(_p, _action, _step):  # what the humans saw played face up, as they saw it
        for memory in r.memory.values():
            memory.see(st)

    play_back(game, rec, args.resume, st, after=seen)
    r.st = st
    return r


def _saved_seats(rec, game, name: str) -> list[str]:
    """Who plays each seat of a saved game: its `seats` as the command line reads them (a level is
    the game's), each search cut to the command line's limits (said on stderr); a seat that names
    no agent is refused."""
    from ..agents import AgentSpecError, parse_spec
    from .common import bounded
    from .replay import LogError
    from ..errors import Location
    players, levels = game.num_players, game_levels(game)
    if len(rec.seats) != players:
        return ["random"] * players
    out = []
    for i, kind in enumerate(rec.seats, 1):
        if kind == HUMAN:
            out.append(kind)
            continue
        try:
            spec = parse_spec(kind, levels=levels)
        except AgentSpecError as e:
            raise LogError(rec.where.get("seats", Location(name)), f"the log's `seats`: seat {i}: {e}") from None
        if bounded(spec) != spec:
            _err(_("warning: seat {seat} of the saved game searches with {given}: it resumes with {bounded}, "
                   "the most a game allows").format(seat=i, given=spec, bounded=bounded(spec)))
        out.append(str(bounded(spec)))
    return out
