"""Out-of-turn windows (flow.turn.windows): other seats act at declared moments of a turn.

A tiny game: each player holds one token; in the `play` step the player whose turn it is spends
tokens for points. At the start of `play`, the other players may give their token to that player
(the window `help`). The forward model keeps one deciding seat at a time.
"""
from __future__ import annotations

import pytest

from interpreter.engine.game import Game, clone, from_json, to_json
from interpreter.errors import ContentError
from interpreter.core.model import Action
from interpreter.scenarios.position import Position

HELP = """\
game: {name: helpers, players: {min: 2, max: 4, default: 3}}
vars:
  player: {points: 0}
cards: {token: {copies: 1, per_player: true, start: purse}}
zones: {purse: {per_player: true}, spent: {}}
flow:
  round:
    end: "if round >= 2 then finish game end"
  turn:
    steps: [{name: draw}, {name: play}]
    windows:
      - name: help
        steps: [play]
        EACH
        seats: "seats_from(current) where it != current"
        actions: [give]
actions:
  give:
    params: {t: "me.purse.cards"}
    label: "give {t} to {current}"
    effect: move t to current.purse
  warm_up:
    step: draw
    effect: |
      me.points += 1
      finish step
  spend:
    step: play
    params: {t: "me.purse.cards"}
    effect: |
      move t to spent
      me.points += 10
  done:
    step: play
    effect: finish turn
scoring:
  score: me.points
"""


def helpers(make_game, each="", **kw) -> Game:
    return make_game(HELP.replace("EACH", f"each: {each}" if each else ""), **kw)


def names(actions):
    return [str(a) for a in actions]


def test_the_window_opens_when_its_step_begins_and_asks_the_other_seats_in_order(make_game):
    g = helpers(make_game)
    st = g.new_game(seed=1)
    assert g.current_player(st) == 0 and g.step_name(st) == "draw"   # no window in `draw`
    assert names(g.legal_actions(st)) == ["warm_up"]
    st = g.apply(st, "warm_up")
    # `play` begins: p2 is asked first, declining comes first
    assert g.current_player(st) == 1 and g.step_name(st) == "play"
    assert names(g.legal_actions(st)) == ["pass", "give token.p2"]
    assert g.label(st, Action("give", ("token.p2",))) == "give token.p2 to p1"
    assert g.evaluate(st, "current") == g.seats[0]                    # still p1's turn
    st = g.apply(st, "give token.p2")
    # p2 has nothing left to give: not asked again; p3 is next
    assert g.current_player(st) == 2
    st = from_json(to_json(st))                                        # a window survives a save
    assert names(g.legal_actions(st)) == ["pass", "give token.p3"]
    st = g.apply(st, "pass")
    # the window is closed: p1 plays, and may spend the token received at once
    assert g.current_player(st) == 0
    assert names(g.legal_actions(st)) == ["spend token.p1", "spend token.p2", "done"]
    st = g.apply(st, "spend token.p2")
    assert g.current_player(st) == 0                                   # `each: step`: not again in this step
    assert g.evaluate(st, "me.points", me=0) == 11


def test_a_window_where_nobody_can_act_asks_nobody(make_game):
    g = helpers(make_game)
    st = g.new_game(seed=1)
    pos = Position(g, st)
    pos.move("token.p2", "spent").move("token.p3", "spent")
    st = g.apply(pos.state, "warm_up")
    assert g.current_player(st) == 0 and g.step_name(st) == "play"    # no decision for p2 or p3
    assert "pass" not in names(g.legal_actions(st))


def test_the_turns_player_is_asked_only_if_the_seats_name_it(make_game):
    g = helpers(make_game)
    st = g.apply(g.new_game(seed=1), "warm_up")
    st = g.apply(g.apply(st, "pass"), "pass")
    st = g.apply(st, "done")
    # p2's turn: p3 then p1 are asked at the start of `play`, never p2
    st = g.apply(st, "warm_up")
    asked = []
    while g.step_name(st) == "play" and g.current_player(st) != 1:
        asked.append(g.current_player(st))
        st = g.apply(st, "pass")
    assert asked == [2, 0]


def test_each_action_opens_the_window_again_after_every_action_of_the_turns_player(make_game):
    g = helpers(make_game, each="action")
    st = g.apply(g.new_game(seed=1), "warm_up")
    st = g.apply(g.apply(st, "pass"), "pass")                          # both decline at the start
    assert g.current_player(st) == 0
    st = g.apply(st, "spend token.p1")
    assert g.current_player(st) == 1 and names(g.legal_actions(st))[0] == "pass"   # asked again
    st = g.apply(st, "give token.p2")
    st = g.apply(st, "pass")                                           # p3
    st = g.apply(st, "spend token.p2")
    assert g.current_player(st) == 2                                   # p2 has nothing: only p3 is asked
    # with `each: step` (the default) nobody is asked after an action
    g2 = helpers(make_game)
    st = g2.apply(g2.apply(g2.apply(g2.new_game(seed=1), "warm_up"), "pass"), "pass")
    st = g2.apply(st, "spend token.p1")
    assert g2.current_player(st) == 0


def test_window_moves_are_refused_outside_their_window_and_other_moves_inside_it(make_game):
    g = helpers(make_game)
    st = g.new_game(seed=1)
    assert "window `help`" in g.explain(st, Action("give", ("token.p2",)))
    assert "none is open" in g.explain(st, Action("pass"))
    st = g.apply(st, "warm_up")
    assert g.current_player(st) == 1
    assert "window `help` is open" in g.explain(st, Action("spend", ("token.p1",)))
    assert "window `help` is open" in g.explain(st, Action("done"))
    assert g.explain(st, Action("give", ("token.p1",))) is not None   # not p2's token
    assert g.explain(st, Action("pass")) is None


def test_apply_does_not_change_the_state_it_is_given_in_a_window(make_game):
    g = helpers(make_game)
    st = g.apply(g.new_game(seed=1), "warm_up")
    assert g.current_player(st) == 1                                   # in the window
    before = to_json(st)
    for a in g.legal_actions(st):
        g.apply(st, a)
        g.apply_in_place(clone(st), a, checked=False)
    assert to_json(st) == before


def test_random_games_with_a_window_end(make_game):
    import random
    g = helpers(make_game, each="action")
    out_of_turn = 0
    for seed in range(5):
        rnd = random.Random(seed)
        st = g.new_game(seed=seed)
        for _ in range(500):
            if g.is_terminal(st):
                break
            out_of_turn += g.current_player(st) != g.evaluate(st, "current").id
            st = g.apply(st, rnd.choice(g.legal_actions(st)))
        assert g.is_terminal(st)
        assert sum(g.scores(st)) >= 3 * 2                              # every turn warmed up
    assert out_of_turn > 0


@pytest.mark.parametrize("change, message", [
    ("actions: [give]", None),
    ("actions: [gift]", "no action `gift`"),
    ("steps: [play]", None),
    ("steps: [plya]", "unknown step `plya`"),
    ("seats: \"seats_from(current) where it != current\"", None),
    ("seats: \"seats_from(curent)\"", "curent"),
])
def test_a_window_s_mistakes_are_reported_with_their_position(make_game, change, message):
    key = change.split(":")[0]
    text = "\n".join(f"        {change}" if line.strip().startswith(key + ":") and line.startswith("        ")
                     else line for line in HELP.replace("EACH", "").splitlines())
    if message is None:
        make_game(text)
        return
    with pytest.raises(ContentError) as e:
        make_game(text)
    assert message in str(e.value)
    assert "game.yaml:" in str(e.value)


def test_an_action_of_a_window_has_no_step(make_game):
    text = HELP.replace("EACH", "").replace("  give:\n", "  give:\n    step: play\n")
    with pytest.raises(ContentError) as e:
        make_game(text)
    assert "action `give` is played in window `help`" in str(e.value)


def test_views_name_the_open_window_and_the_seat_deciding(make_game):
    from interpreter.information.views import view
    g = helpers(make_game)
    st = g.apply(g.new_game(seed=1), "warm_up")
    flow = view(g, st, 2)["flow"]
    assert (flow["turn"], flow["deciding"], flow["window"]) == ("p1", "p2", "help")
    st = g.apply(g.apply(st, "pass"), "pass")
    assert "window" not in view(g, st, 0)["flow"]
