"""Issue 9 item 3: a domain that is the same in every state is not computed at each listing.

`cells`, `players`, `rows`, `columns`, a constant list, a list of literals: when a parameter's
domain is one of these and holds no card, its values and their keys (the same for every seat:
only cards are named by their place, handles.py) are made when the step's lister is written,
and with one parameter its actions too. The legal actions, their labels and the budget spent
are those of the lister that computes every domain."""
from __future__ import annotations


import pytest

from interpreter.engine import listing
from interpreter.runtime import context as rt
from tests.walks import random_states
from interpreter.engine.game import Game
from interpreter.errors import RuleRuntimeError
from interpreter.core.model import Action, key_of


def _listings(g, step, seeds=range(6)):
    """(ctx maker, state) at each decision of a few seeded random games."""
    for seed in seeds:
        for st in random_states(g, seed):
            if g.step_name(st) == step and not st["pending"]:
                yield st, rt.turn_player(g.m, st)


@pytest.mark.parametrize("game, param", [("tic-tac-toe", "cells"), ("connect-four", "columns")])
def test_a_fixed_domain_is_made_once_with_its_keys_and_actions(game, param):
    g = Game.load(game)
    m = g.m
    a = m.actions_by_step["play"][0]
    values, where, what, by_key = a.fixed[0]
    assert all(by_key[key_of(v)] is v for v in values)  # the value of each key, for a listed move
    assert values == tuple(m.builtin_value(param)(None)) and "parameter" in what and where.line > 0
    fixed, plain = listing._write(m, (a,)), listing._write(m, (a,), fixed=False)
    assert "_arg_keys" not in fixed._interpret_source and "_arg_keys" in plain._interpret_source
    n = 0
    for st, player in _listings(g, "play"):
        x, y = rt.Ctx(st, m, player), rt.Ctx(st, m, player)
        x.memo, y.memo = {}, {}
        got = fixed(x, [], True, False)
        assert got == plain(y, [], True, False)  # the same actions, labels and order
        assert x.budget == y.budget  # the same budget spent
        again = fixed(rt.Ctx(st, m, player), [], False, False)
        assert all(p[0] is q[0] for p, q in zip(got, again))  # each action made once
        n += 1
    assert n > 20


def test_a_fixed_domain_spends_the_budget_and_reports_where_it_is_written():
    g = Game.load("tic-tac-toe")
    m = g.m
    st = g.new_game(seed=1)
    ctx = rt.Ctx(st, m, rt.turn_player(m, st))
    ctx.memo, ctx.budget = {}, 5  # fewer steps than the nine cells
    with pytest.raises(RuleRuntimeError) as e:
        g.listings.forget() or g.listings.named("play")(ctx, [], False, False)
    assert "the values of parameter `cell`" in str(e.value) and "game.yaml:" in str(e.value)


def test_a_domain_of_cards_or_of_the_state_is_computed_at_each_listing():
    g = Game.load("dark-agent", players=4)
    by = {a.name: a for a in g.m.actions}
    assert by["target"].fixed == (None,)  # targetable_cells(): read from the state
    assert all(f is None for f in by["jetpack"].fixed)  # cards, and domains of the state


def test_a_listed_move_of_a_fixed_domain_binds_the_value_listed(tmp_path):
    """A move taken from the listing (apply_in_place(..., checked=False)) binds the value its key
    was made from, as the checked path does: a text of digits stays a text, a list stays a list
    (with a domain computed in the state, a text or a list is found in it: only a text of digits
    would still be read as a number there)."""
    import textwrap
    (tmp_path / "game.yaml").write_text(textwrap.dedent("""\
        game: {name: picks, players: {min: 1, max: 1, default: 1}}
        constants:
          words: ["5", "two words", "x"]
          steps: [[0, 1], [1, 0]]
        vars: {game: {word: {default: none}, step: {default: none}}}
        actions:
          pick:
            params: {w: words, d: steps}
            effect: |
              word = w
              step = d
              finish game
          choose:                          # the same from domains computed in the state
            params: {w: words where it != "x", d: steps where true}
            effect: |
              word = w
              step = d
              finish game
        scoring: {score: "0"}
        """))
    game = Game.load(str(tmp_path))
    values = {}
    for checked in (True, False):
        for action in game.legal_actions(game.new_game(seed=1)):
            st = game.new_game(seed=1)
            game.legal_actions(st)
            game.apply_in_place(st, action, checked=checked)
            values.setdefault(action, []).append((game.evaluate(st, "word"), game.evaluate(st, "step")))
    assert len(values) == 10
    assert values[("pick", ("5", "[0,_1]"))][0] == ("5", [0, 1])
    assert values[("choose", ("two_words", "[1,_0]"))][0] == ("two words", [1, 0])
    same = {a: v for a, v in values.items() if a.name == "pick" or a.args[0] != "5"}
    assert len(same) == 8 and all(len(set(map(repr, v))) == 1 for v in same.values()), values  # the same both ways


@pytest.mark.parametrize("game, players, step", [("tic-tac-toe", 2, "play"), ("dark-agent", 4, "act"),
                                                 ("agent-dog", 4, "play")])
def test_the_bare_listing_gives_the_actions_of_the_labelled_one(game, players, step):
    """The flow lists a decision's actions alone (`lister.bare`); labels, `first` and the checked
    path use the (action, label) walk. Both are written from one walk: the same actions, in order,
    at every decision of a few games, with the same budget spent."""
    g = Game.load(game, players=players)
    seen = 0
    for st, player in _listings(g, step, seeds=range(2)):
        pairs, bare = g.listings.actions(st, player, labels=True), g.listings.actions(st, player, labels=False, bare=True)
        assert [a for a, _ in pairs] == bare and all(label for _, label in pairs)
        lister = g.listings.step(st["flow"]["step"])
        spent = []
        for walk in (lambda c: lister(c, [], False, False), lambda c: lister.bare(c, [])):
            c = rt.Ctx(st, g.m, player)
            c.memo = {}
            walk(c)
            spent.append(c.budget)
        assert spent[0] == spent[1]
        seen += 1
    assert seen > 5


@pytest.mark.parametrize("kept", [listing._KEPT, 3])
def test_a_listed_action_is_made_once_per_arguments_and_found_by_them(monkeypatch, kept):
    """A definition keeps the actions it listed, by their arguments (at most `_KEPT`, then it
    starts afresh): a later listing gives the same objects, and exactly the actions a lister that
    never listed before makes (one, two and no parameters: Dark Agent's satellites and act steps)."""
    monkeypatch.setattr(listing, "_KEPT", kept)
    monkeypatch.setattr(listing, "_KEPT2", min(kept, listing._KEPT2))
    g = Game.load("dark-agent", players=4)
    m = g.m
    listers = {step: listing._write(m, tuple(m.actions_by_step[step])) for step in ("satellites", "act")}
    made, found, n = {}, 0, 0
    for step in listers:
        for i, (st, player) in enumerate(_listings(g, step, seeds=range(2))):
            got = listers[step].bare(rt.Ctx(st, m, player), [])
            if i % 6 == 0:  # a fresh lister makes every action it lists
                assert got == listing._write(m, tuple(m.actions_by_step[step])).bare(rt.Ctx(st, m, player), [])
                n += 1
            assert all(type(a) is Action for a in got)
            for a in got:
                found += made.get(a) is a
                made.setdefault(a, a)
    assert n > 10 and {len(a.args) for a in made} >= {0, 1, 2}
    assert found > (1000 if kept > 3 else 10)


def test_a_computed_domain_is_checked_in_the_listing_text_as_its_function_checks_it(monkeypatch):
    """The listing writes `_domain`'s check (rules.py) around the domain's compiled function: the
    same actions, the same budget spent and, when it runs out, the same error at the same place
    as the lister that calls `dom` itself (Dark Agent's act and satellites steps)."""
    g = Game.load("dark-agent", players=4)
    m = g.m
    steps = ("act", "satellites")
    inline = {s: listing._write(m, tuple(m.actions_by_step[s])) for s in steps}
    assert all("_domain_other(" in f._interpret_source for f in inline.values())
    for a in m.actions:  # the same domains, called as `dom` (no `compiled` to write in place)
        monkeypatch.setattr(a, "params", [(p, s, (lambda d: lambda ctx: d(ctx))(d)) for p, s, d in a.params])
    called = {s: listing._write(m, tuple(m.actions_by_step[s])) for s in steps}
    assert not any("_domain_other(" in f._interpret_source for f in called.values())
    n = failed = 0
    for step in steps:
        for i, (st, player) in enumerate(_listings(g, step, seeds=range(2))):
            outcomes = []
            for f in (inline[step], called[step]):
                c = rt.Ctx(st, m, player)
                c.memo = {}
                outcomes.append((f.bare(c, []), c.budget))
            assert outcomes[0] == outcomes[1]
            n += 1
            if i % 10 == 0:  # the budget runs out at each step of the listing in turn
                spent = rt.Ctx(st, m, player).budget - outcomes[0][1]
                for budget in range(0, spent, 3):
                    errors = []
                    for f in (inline[step], called[step]):
                        c = rt.Ctx(st, m, player)
                        c.memo, c.budget = {}, budget
                        with pytest.raises(RuleRuntimeError) as e:
                            f.bare(c, [])
                        errors.append(str(e.value))
                    assert errors[0] == errors[1]
                    failed += "the values of parameter" in errors[0]
    assert n > 50 and failed > 5
