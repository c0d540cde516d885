"""The web page's own words (the lobby and the table page, interpreter/serve/static/), through the
catalogue like every other player-facing string: `page_strings()` gives them in the current
language, keyed by the names the page's scripts use (`S.undo` in static/*.js). A field in braces is
filled in by the page (`{name}`), so each entry stays a whole sentence."""
from __future__ import annotations

from ..i18n import _


def page_strings() -> dict[str, str]:
    """Every string the page shows that does not come from the game, in the current language."""
    return {
        # the table
        "board": _("the board"),
        "pick_place": _("moves on {place}"),
        "choose_move": _("Choose a move"),
        "cancel": _("Cancel"),
        "cards_count": _("({n})"),
        "empty": _("empty"),
        "reconnecting": _("Connection lost: connecting again…"),
        "you_are": _("You play {name}"),
        "spectator": _("You are watching"),
        "seat_you": _("{name} (you)"),
        "language": _("Language"),
        "last_move": _("Last move: {move}"),
        "last_move_by": _("Last move, {name}: {move}"),
        "player": _("Player"),
        "score": _("Score"),
        "moves": _("Your moves"),
        "not_your_turn": _("Not your turn: the moves will be here when it is."),
        "type_move": _("Type a move or a key"),
        "play": _("Play"),
        "why": _("Why not?"),
        "undo": _("Undo my last move"),
        "close": _("Close"),
        "history": _("What happened"),
        "dice": _("dice: {dice}"),
        "legend": _("Legend and rules"),
        "rules": _("The rules in short"),
        "game_over": _("Game over"),
        "time_left": _("{name} has {seconds} s left"),
        "tutorial_done": _("Guided game finished"),
        "look_here": _("Look at the places highlighted on the board."),
        # the lobby
        "lobby": _("interpret: the lobby"),
        "lobby_refused": _("This lobby needs the host's link."),
        "new_table": _("A new table"),
        "game": _("Game"),
        "players": _("Players"),
        "variants": _("Variants"),
        "options": _("Options"),
        "seats": _("Seats"),
        "seat_n": _("Seat {n}"),
        "human": _("a person"),
        "bot_easy": _("a bot (easy)"),
        "bot_normal": _("a bot (normal)"),
        "bot_hard": _("a bot (hard)"),
        "timer_seconds": _("Seconds per move (empty: no timer)"),
        "no_timer": _("no timer"),
        "create": _("Create the table"),
        "join_links": _("Send each player their own link: it is their seat's key."),
        "copy": _("Copy"),
        "open": _("Open"),
        "spectator_link": _("Spectators' link"),
        "tables": _("Tables"),
        "moves_played": _("Moves played"),
        "hand_to_bot": _("Hand the seat to a bot"),
        "hand_to_human": _("Give the seat back to a person"),
        "learn": _("Learn to play"),
        "learn_game": _("{game}: {title}"),
        "start_lesson": _("Start the guided game"),
    }
