"""§2.1 and §15.4: « du nombre de tours maximum : 12 par défaut (de 6 à 20 ; les vétérans peuvent aller
au-delà) ». Fewer than 6 rounds is refused with a clear error; more than 20 is allowed."""
from __future__ import annotations

import pytest

from interpreter.engine.game import Game
from interpreter.errors import ContentError


@pytest.mark.parametrize("variants", [(), ("solo",), ("long",)])
@pytest.mark.parametrize("rounds", [1, 5])
def test_fewer_than_six_rounds_is_refused(variants, rounds):
    players = 1 if "solo" in variants else 4
    with pytest.raises(ContentError) as info:
        Game.load("dark-agent", players=players, options={"rounds": rounds}, variants=variants)
    (problem,) = info.value.problems
    assert problem.message == f"option rounds={rounds} is out of range"
    assert problem.hint.startswith("from 6 to ")
    assert str(problem.location) == "--option"


@pytest.mark.parametrize("rounds", [6, 12, 20, 21, 30])
def test_six_rounds_and_up_are_allowed_beyond_twenty_too(rounds):
    g = Game.load("dark-agent", players=4, options={"rounds": rounds})
    assert g.m.options["rounds"] == rounds
