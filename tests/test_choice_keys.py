"""Stable choice keys (play/choices.py): a letter per kind of move, a number within it, never
renumbered within a decision's context; and a seat at the keyboard matching a typed line by label
first, then by key."""
from __future__ import annotations

import io

from interpreter.core.model import Action
from interpreter.engine.game import Game
from interpreter.play.choices import Choice, ChoiceKeys, letters
from interpreter.play.human import Human
from interpreter.play.render import Renderer


def moves(*texts) -> list[Choice]:
    return [Choice(Action.parse(t), t, t) for t in texts]


def keyed(keys: ChoiceKeys, context, *texts) -> dict:
    return {c.label: c.key for c in keys.assign(context, moves(*texts))}


def test_a_letter_per_kind_and_numbers_in_the_natural_order_of_the_arguments():
    keys = ChoiceKeys()
    shown = keys.assign(1, moves("take r2c10", "take r2c9", "done", "take r1c3"))
    assert [(c.key, c.label) for c in shown] == [("a1", "take r1c3"), ("a2", "take r2c9"), ("a3", "take r2c10"),
                                                 ("b1", "done")]


def test_keys_stay_with_their_moves_and_are_never_given_again_within_a_context():
    keys = ChoiceKeys()
    first = keyed(keys, "turn 1", "take r1c1", "take r1c2", "take r1c3", "done")
    later = keyed(keys, "turn 1", "take r1c3", "roll", "take r1c1", "take r2c1", "done")
    assert later == {"take r1c1": "a1", "take r1c3": "a3", "done": "b1", "roll": "c1", "take r2c1": "a4"}
    assert all(later[m] == first[m] for m in later if m in first)
    assert keys.by_key["a2"].label == "take r1c2"  # gone, and its key with it: a2 is nobody else's
    assert keyed(keys, "turn 2", "take r1c2", "done") == {"take r1c2": "a1", "done": "b1"}  # a new context


def test_many_kinds_of_moves_take_two_letters():
    assert [letters(i) for i in (0, 25, 26, 27, 52)] == ["a", "z", "aa", "ab", "ba"]


class Keyboard(io.StringIO):
    def isatty(self):
        return False


def test_a_typed_key_plays_its_move_and_a_new_turn_gives_keys_afresh(capsys):
    g = Game.load("tic-tac-toe")
    st = g.new_game(seed=1)
    x = Human(g, Renderer(g), 0, stream=Keyboard("a5\n"))
    assert x.choose(st)[0] == Action.parse("play r2c2")  # the list: a1 r1c1 ... a9 r3c3
    g.apply_in_place(st, "play r2c2")
    g.apply_in_place(st, "play r1c1")
    x.stream = Keyboard("a5\n")  # X's next turn: a new context, keys given afresh (a5 is now r3c1)
    assert x.choose(st)[0] == Action.parse("play r3c1")


def test_a_stale_key_is_refused_with_its_reason_and_never_plays_another_move(capsys):
    g = Game.load("tic-tac-toe")
    st = g.new_game(seed=1)
    x = Human(g, Renderer(g), 0, stream=Keyboard("a5\n"))
    x.choose(st)
    g.apply_in_place(st, "play r2c2")
    # the same decision context again (as after a move that does not end the turn): a5 was r2c2
    x.keys.context = x.context(st)
    x.stream = Keyboard("a5\nplay r3c3\n")
    assert x.choose(st)[0] == Action.parse("play r3c3")
    out = capsys.readouterr().out
    assert "`X marks r2c2` is refused: r2c2 already holds a mark (§2)" in out


def test_a_move_typed_as_its_label_is_played(capsys):
    g = Game.load("tic-tac-toe")
    st = g.new_game(seed=1)
    x = Human(g, Renderer(g), 0, stream=Keyboard("X marks r3c1\n"))
    assert x.choose(st)[0] == Action.parse("play r3c1")
