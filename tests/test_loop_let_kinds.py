"""Issue 29, a cheaper step: a `for`'s variable over a collection whose items' kind is known at
load time (a zone's cards, the players, the cells...) and a `let`'s name whose value's kind is
known (a zone, a card or none...) are read without type tests in the statements after them
(lang/statements.py `_item_kind`, `_let_kind`): Agents Secrets' revealed cards (`let place =
shown(col)`, `for x in shown(col).cards`). Not when a statement there binds or assigns the
same name again: then it may hold anything."""
from __future__ import annotations

import pytest

from interpreter.engine.game import Game
from interpreter.runtime import context as rt
from tests.hardening import BASE, game_dir

PROCEDURES = {
    "typed_for": "for c in deck.cards do x += c.value end",
    "assigned_for": "for c in deck.cards do x += c.value\nc = 5 end",
    "typed_set": "for c in deck.cards do c.mark = 4 end",
    "typed_let": "let z = deck\nx += length(z.cards)\nx += z.count",
    "rebound_let": "let z = deck\nx += length(z.cards)\nlet z = 2",
    "nested_let": "let z = deck\nif x == 100 then let z = 3 end\nx += length(z.cards)",
}


@pytest.fixture(scope="module")
def game(tmp_path_factory):
    extra = "procedures:\n" + "".join(f"  {name}:\n    params: []\n    effect: |\n" + "".join(
        f"      {line}\n" for line in body.split("\n")) for name, body in PROCEDURES.items())
    base = BASE.replace("player: {score: 0}}", "player: {score: 0}, card: {mark: 0}}")
    return Game.load(str(game_dir(tmp_path_factory.mktemp("kinds"), extra, base=base)))


def _source(game, name):
    """The generated text of procedure `name`'s body."""
    first = len(BASE.splitlines()) + 2 + 4 * list(PROCEDURES).index(name)
    first += sum(body.count("\n") for body in list(PROCEDURES.values())[:list(PROCEDURES).index(name)])
    texts = [g.source for g in game.m.compiler.output.generated
             if g.where is not None and g.where.line == first + 3]
    assert texts, f"no text at line {first + 3}"
    return "\n".join(texts)


def _run(game, name):
    st = game.new_game(seed=1)
    ctx = rt.Ctx(st, game.m, game.m.seats[0])
    ctx.locals = []
    game.m._proc_direct[name](ctx, [])
    return st["gv"]["x"]


def test_a_for_over_a_zones_cards_reads_them_as_cards(game):
    assert "is _Card" not in _source(game, "typed_for") and _run(game, "typed_for") == 3
    assert "is _Card" in _source(game, "assigned_for") and _run(game, "assigned_for") == 3


def test_a_variable_of_a_card_of_such_a_loop_is_set_without_a_type_test(game):
    assert "is _Card" not in _source(game, "typed_set")
    st = game.new_game(seed=1)
    ctx = rt.Ctx(st, game.m, game.m.seats[0])
    game.m._proc_direct["typed_set"](ctx, [])
    deck = st["z"][game.m.zone_by_name["deck"].id]
    assert type(st["cv"]["mark"]) is tuple and [st["cv"]["mark"][i] for i in deck] == [4] * len(deck) == [4] * 3


def test_a_let_of_a_zone_reads_it_as_a_zone(game):
    assert "is _Zone" not in _source(game, "typed_let") and _run(game, "typed_let") == 6
    assert "is _Zone" in _source(game, "rebound_let") and _run(game, "rebound_let") == 3
    assert "is _Zone" in _source(game, "nested_let") and _run(game, "nested_let") == 3


def test_agents_secrets_revealed_cards_are_read_without_type_tests():
    g = Game.load("agents-secrets", players=6)
    src = "\n".join(x.source for x in g.m.compiler.output.generated
                    if x.where is not None and "resolution.yaml" in str(x.where) and x.where.line == 79)
    narration = src[src.index("def _g"):src.index("def _g", src.index("def _g") + 1)]
    assert "x = _CARDS[x]" in narration and "is _Card" not in narration
