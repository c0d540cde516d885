"""The end of a game as the end screen tells it, honestly.

- The outcome in one sentence: who won (several seats of one side win together), or a draw
  when nobody wins and nothing separates the seats. Without a `scoring.winner` rule, the seats
  sharing the best score and tie-breaks are first together: seat order never decides.
- The content's full count (`render.breakdown`): lines written from the final state, where every
  card is revealed (the game is over), so the screen shows every source of points.
- The ranking, seats that nothing separates sharing their place, and for each pair of neighbours
  that a tie-break did separate, which one (in the rulebook's words, `render.tiebreaks`).
"""
from __future__ import annotations

from ..i18n import _


def tiebreak_names(game) -> list[str]:
    """Each tie-break in order, in the content's words (`render.tiebreaks`), else by its number:
    an expression of the rules is not for the player's eyes."""
    rs = game.catalog.ruleset
    named = [str(x) for x in ((rs.render or {}).get("tiebreaks") or [])]
    exprs = (rs.scoring or {}).get("tiebreak") or []
    return [named[i] if i < len(named) else _("tie-break {number}").format(number=i + 1) for i in range(len(exprs))]


def _keys(game, st) -> list[tuple] | None:
    try:
        return game.ranking_keys(st)
    except Exception:  # a tie-break that cannot be read here is not worth stopping the end screen
        return None


def places(game, st, ranking: list[int]) -> list[int]:
    """The place of each seat of `ranking` (1 = first): seats equal on the score and on every
    tie-break share a place (1, 1, 3...)."""
    keys = _keys(game, st)
    out = []
    for i, seat in enumerate(ranking):
        if i and keys is not None and keys[seat] == keys[ranking[i - 1]]:
            out.append(out[-1])
        else:
            out.append(i + 1)
    return out


def winners(game, st, ranking: list[int]) -> list[int]:
    """The seats that won (the engine's: the content's `scoring.winner`, else every seat that nothing
    separates from the first), in the order of `ranking`."""
    won = set(game.winners(st))
    return [seat for seat in ranking if seat in won]


def _names(game, seats) -> str:
    return ", ".join(game.seats[i].name for i in seats)


def outcome_line(game, st, ranking: list[int]) -> str:
    """Who won, in one sentence; a draw when nobody won and nothing separates the seats."""
    won = winners(game, st, ranking)
    if len(won) == 1:
        return _("{name} wins.").format(name=game.seats[won[0]].name)
    if won and len(won) == game.num_players:
        return _("Everyone wins: {names}.").format(names=_names(game, won))
    if won:
        return _("{names} win together.").format(names=_names(game, won))
    keys = _keys(game, st)
    if game.num_players > 1 and keys is not None and len(set(keys)) == 1:
        return _("A draw: nobody wins.")
    return _("Nobody wins.")


def ranking_lines(game, st, ranking: list[int], *, points=None) -> list[str]:
    """A line per seat, first to last: its place (shared when nothing separates it from the one
    before), its score, `winner`, and where its points come from (`points(seat)`, or None)."""
    scores = game.scores(st)
    won = set(winners(game, st, ranking))
    w = max(len(s.name) for s in game.seats)
    lines = []
    for place, i in zip(places(game, st, ranking), ranking):
        s = game.seats[i]
        line = _("{place:>3}. {key} {name}  score {score}").format(place=place, key=s.key, name=s.name.ljust(w),
                                                                   score=scores[i])
        if i in won:
            line += "  " + _("winner")
        source = points(i) if points is not None else None
        if source:
            line += f"  ({source})"
        lines.append(line)
    return lines


def ending_lines(game, st, ranking: list[int]) -> list[str]:
    """A line per pair of neighbours in the ranking with equal scores that a tie-break separated:
    which one, and each seat's value. Seats equal on every tie-break share their place: no line."""
    keys = _keys(game, st)
    if keys is None:
        return []
    names = tiebreak_names(game)
    lines = []
    for a, b in zip(ranking, ranking[1:]):
        ka, kb = keys[a], keys[b]
        if ka[0] != kb[0]:
            continue
        sa, sb = game.seats[a], game.seats[b]
        for i in range(1, len(ka)):
            if ka[i] != kb[i]:
                what = names[i - 1] if i - 1 < len(names) else _("tie-break {number}").format(number=i)
                lines.append(_("Tie at {score} between {first} and {second}, broken by {tiebreak} "
                               "({first} {first_value}, {second} {second_value}).").format(
                    score=ka[0], first=sa.name, second=sb.name, tiebreak=what,
                    first_value=ka[i], second_value=kb[i]))
                break
    return lines


def end_screen(game, renderer, st) -> list[str]:
    """The end screen under `Game over after ...`: why it ended, who won, the full count, the
    ranking and the tie-breaks that separated seats."""
    ranking = game.ranking(st)
    lines = list(renderer.end_reason(st))
    lines.append(outcome_line(game, st, ranking))
    lines += renderer.breakdown(st)  # read by a viewer who sees everything: the game is over
    lines += ranking_lines(game, st, ranking, points=lambda seat: renderer.points(st, seat))
    lines += ending_lines(game, st, ranking)
    return lines


__all__ = ["end_screen", "ending_lines", "outcome_line", "places", "ranking_lines", "tiebreak_names", "winners"]
