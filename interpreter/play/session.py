"""`interpret play`: a game at the terminal, seats played by humans and bots."""
from __future__ import annotations

import secrets
import sys

from ..agents import bot_seed, decide, make_agent
from ..errors import InterpretError
from ..model import Action
from .common import HUMAN, UsageError, _err, _n, _out, game_folder, load_game, parse_options, seat_kinds
from .narration import Narrator
from .render import PUBLIC

CLEAR_SCREEN = "\033[2J\033[H"


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


HELP = """Type the number of a choice, or an action as text (for example `{example}`).
  b  show the board again      l  list the choices again
  ?  this help                 q  leave the game"""


class Quit(Exception):
    def __init__(self, why: str, code: int):
        self.why = why
        self.code = code


class Human:
    """A seat played at the keyboard, seeing only what its view allows."""

    def __init__(self, game, renderer, seat: int, *, stream=None):
        self.game = game
        self.renderer = renderer
        self.seat = seat
        self.stream = stream if stream is not None else sys.stdin
        self.echo = not self.stream.isatty()

    def show(self, st, choices) -> None:
        _out("", self.renderer.screen(st, self.seat), "")
        self.list(choices)

    @staticmethod
    def list(choices) -> None:
        _out("Your choices:")
        w = len(str(len(choices)))
        for i, (_, label) in enumerate(choices, 1):
            _out(f"  {str(i).rjust(w)}. {label}")

    def read(self, prompt: str) -> str:
        if not self.echo and self.stream is sys.stdin:  # a terminal: line editing and history
            try:
                import readline  # noqa: F401  (line editing for input())
            except ImportError:
                pass
            try:
                return input(prompt).strip()
            except EOFError:
                print()
                raise Quit("the input ended before the game did", 1) from None
        print(prompt, end="", flush=True)
        line = self.stream.readline()
        if not line:
            print()
            raise Quit("the input ended before the game did", 1)
        line = line.strip()
        print(line)  # the transcript shows what was typed
        return line

    def choose(self, st) -> tuple[Action, str]:
        g = self.game
        choices = g.legal_actions_with_labels(st)
        self.show(st, choices)
        while True:
            text = self.read(f"{g.m.seats[self.seat].key}, your choice (1-{len(choices)}, ? for help): ")
            if not text:
                continue
            low = text.lower()
            if low in ("q", "quit", "exit"):
                raise Quit("you left the game", 0)
            if low in ("?", "h", "help"):
                _out(HELP.format(example=choices[0][0] if choices else "pass"))
                continue
            if low in ("b", "board"):
                self.show(st, choices)
                continue
            if low in ("l", "list"):
                self.list(choices)
                continue
            if text.isdigit():
                k = int(text)
                if 1 <= k <= len(choices):
                    return choices[k - 1]
                _out(f"There is no choice {k}: type a number from 1 to {len(choices)}.")
                continue
            for action, label in choices:
                if low == label.lower() or text == str(action):
                    return action, label
            try:
                action = Action.parse(text)
            except ValueError:
                continue
            reason = g.explain(st, action)
            if reason is None:  # legal though not listed: take it as typed
                return action, str(action)
            _out(f"Refused: {reason}")


def cmd_play(args) -> int:
    from .render import Renderer
    options = parse_options(args.option)
    args.game = game_folder(args.game)
    game = load_game(args.game, args.players, options, args.variant)
    renderer = Renderer(game)
    interactive = sys.stdin.isatty()
    kinds = seat_kinds(args.seat, game.num_players, auto=args.auto, interactive=interactive, bots=args.bots)
    seed = args.seed if args.seed is not None else secrets.randbelow(1_000_000)
    humans = [i for i, k in enumerate(kinds) if k == HUMAN]
    # one human: the narration is theirs; hot seat: what the whole table may see, until a player
    # takes the keyboard; bots only: everything
    viewer = humans[0] if len(humans) == 1 else (PUBLIC if humans else None)
    players = {i: (Human(game, renderer, i) if k == HUMAN else make_agent(k, bot_seed(seed, i)))
               for i, k in enumerate(kinds)}
    log = None
    if args.log:
        from .replay import LogWriter, check_new_log
        check_new_log(args.log, force=args.force)
        log = LogWriter(args.log, game=args.game, players=game.num_players, options=options, seed=seed, seats=kinds,
                        variants=args.variant)
    narrators = [Narrator(game, renderer, viewer=viewer, quiet=args.quiet)]
    accounts = []
    for seat_text, path in args.log_seat or ():  # a seat's own account: what that seat saw, as text
        seat_no = _seat_number(seat_text, game.num_players)
        account = _open_account(path, seat_no, game.num_players, force=args.force)
        accounts.append(account)
        narrators.append(Narrator(game, renderer, viewer=seat_no - 1, out=account.write_lines))
    narrator = narrators[0]
    st = game.new_game(seed=seed)
    for each in narrators:
        each.start(st, seed, kinds)
    n = 0
    try:
        while not game.is_terminal(st):
            if not humans and n >= args.max_decisions:  # bots only: a game without an end stops here
                _err(f"no end after {_n(n, 'decision')} (--max-decisions): the rules may never finish the game"
                     + (f"\n(the moves so far are in {args.log})" if log else ""))
                if log is not None:
                    log.close()
                return 1
            p = game.current_player(st)
            who = players.get(p) if p is not None else None
            if who is None:
                who = players[0] if kinds[0] != HUMAN else make_agent("random", bot_seed(seed, -1))
            if isinstance(who, Human) and len(humans) > 1 and narrator.viewer != p:
                # hot seat: the screen now belongs to another player, who takes the keyboard; what
                # the last one saw is cleared first
                narrator.viewer = PUBLIC
                seat = game.m.seats[p]
                if sys.stdout.isatty():
                    sys.stdout.write(CLEAR_SCREEN)
                who.read(f"\n── {seat.key} {seat.name}, your turn: press Enter (the others look away) ")
                narrator.viewer = p
            if isinstance(who, Human):
                action, label = who.choose(st)
            else:
                action = decide(who, game, st)
                label = dict(game.legal_actions_with_labels(st)).get(action, str(action))
            labels = [each.hide(st, p, label) for each in narrators]
            step = game.apply_in_place(st, action)
            n += 1
            if log is not None:
                log.action(game.m.seats[p].key if p is not None else None, action)
            for each, shown in zip(narrators, labels):
                each.move(st, n=n, player=p, label=shown, events=step.events)
    except Quit as q:
        _out(f"Game stopped after {_n(n, 'decision')}: {q.why}." + (f" The log is in {args.log}." if log else ""))
        if log is not None:
            log.close()
        return q.code
    except InterpretError as e:  # the rules went wrong while playing: say where in the game
        if log is not None:
            log.close()
        _err(f"error at decision {n + 1} of the game with seed {seed}: {e}"
             + (f"\n(the moves so far are in {args.log})" if log else ""))
        return 1
    for each in narrators[1:]:
        each.result(st, n)
    for account in accounts:
        account.close()
    result = narrator.result(st, n)
    if log is not None:
        log.result(result)
        log.close()
        _out(f"Log written to {args.log} (replay it with: interpret replay {args.log})")
    return 0

