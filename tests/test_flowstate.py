"""The flow's values in a state (core/flowstate.py): enums whose values are the texts saved
states and logs hold, read and written through typed accessors."""
from __future__ import annotations

import textwrap

from interpreter.core.flowstate import Finish, Phase, Resume, finish, phase, take_resume, wait
from interpreter.engine.game import Game, from_json, to_json


def test_the_members_are_the_texts_a_state_holds():
    assert [r.value for r in Resume] == ["order", "first_step", "turn_ended:next", "turn_ended:round",
                                         "round_ended", "sim_reveal"]
    assert Resume.turn_ended("round") is Resume.TURN_ENDED_ROUND and Resume.TURN_ENDED_NEXT.then == "next"
    flow = {"phase": "play", "finish": "turn", "resume": None}
    assert phase(flow) is Phase.PLAY and finish(flow) is Finish.TURN and take_resume(flow) is None
    wait(flow, Resume.ROUND_ENDED)
    assert type(flow["resume"]) is str and flow["resume"] == "round_ended"
    assert take_resume(flow) is Resume.ROUND_ENDED and flow["resume"] is None


def test_a_turn_effect_that_waits_for_a_choice_resumes_after_a_save(tmp_path):
    """A choice asked at the end of a turn: the flow waits (`turn_ended:next`, a text in the
    saved state) and goes on with the next turn once the choice is made, saved or not."""
    (tmp_path / "game.yaml").write_text(textwrap.dedent("""\
        game: {name: ask, players: {min: 2, max: 2, default: 2}}
        vars: {game: {n: 0}}
        actions:
          pass: {limit: 1, effect: "n += 1"}
        flow:
          turn:
            end: |
              choose x from [1, 2] prompt "how many"
              n += x
        scoring: {score: "0"}
        """))
    g = Game.load(str(tmp_path))
    st = g.apply(g.new_game(seed=1), "pass")
    assert st["flow"]["resume"] == "turn_ended:next" and st["pending"]
    saved = from_json(to_json(st))
    for s in (st, saved):
        g.apply_in_place(s, g.legal_actions(s)[1])
        assert s["flow"]["resume"] is None and g.current_player(s) == 1 and g.evaluate(s, "n") == 3
