"""Issue 9, items 1 and 2: rules compiled from typed trees to generated Python source.

The generated text holds only names the generator made, integers it checked and its own
operators; content values reach the code through the module's globals. Errors inside generated
code keep their content positions."""
from __future__ import annotations

import pytest

from interpreter.lang import ast as A
from interpreter.lang.analysis import facts
from interpreter.lang.codegen import source_of
from interpreter.lang.parser import parse
from interpreter.lang.scope import Scope
from interpreter.engine.game import Game
from interpreter.errors import RuleRuntimeError
from interpreter.ruleset.yamlio import SourceText
from tests.hardening import BASE, game_dir

HOSTILE = "__import__('os').system('echo pwned')\" + \"{x}"


def compiled(game, text, names=()):
    """f(ctx) of an expression of `game`'s match, and its generated source."""
    m = game.m
    f = m.compiler.expr(SourceText.plain(text), Scope(list(names)))
    return f, source_of(f)


@pytest.fixture(scope="module")
def game(tmp_path_factory):
    extra = ("constants:\n  weird: '" + HOSTILE.replace("'", "''") + "'\n  three: 3\n"
             "functions:\n  twice: {params: [n], expr: \"n * 2\"}\n"
             "  count_coins: {params: [z], expr: \"length(z.cards where it is token)\"}\n")
    return Game.load(str(game_dir(tmp_path_factory.mktemp("cg"), extra)))


def test_content_text_never_reaches_the_generated_source(game):
    f, src = compiled(game, 'weird + "__class__" + "{x}"')
    assert src is not None and "__import__" not in src and "__class__" not in src and "{x}" not in src
    st = game.new_game(seed=1)
    assert game.evaluate(st, 'weird + "__class__"') == HOSTILE + "__class__"


def test_generated_code_reaches_no_python_builtins(game):
    f, _ = compiled(game, "1 + 2")
    assert f.__globals__["__builtins__"] == {}
    assert not any(k in f.__globals__ for k in ("open", "eval", "exec", "__import__"))


def test_constants_are_folded_and_small_functions_compiled_in_place(game):
    _, src = compiled(game, "three * 2 + 1")
    assert "return 7" in src
    _, src = compiled(game, "twice(x)")
    assert "_k" in src and "* 2" in src      # `n * 2` with x in place of n: no call
    _, src = compiled(game, "count_coins(deck)")
    assert "(ctx, " in src                    # a loop: called, not inlined


def test_values_match_the_rulebook_semantics(game):
    st = game.new_game(seed=1)
    assert game.evaluate(st, "count_coins(deck)") == 3
    assert game.evaluate(st, "[c.value for c in deck.cards where c.value > 0]") == [1, 1, 1]
    assert game.evaluate(st, "-(three) // 2") == -2
    assert game.evaluate(st, "any(c is token for c in deck.cards)") is True


def test_an_error_inside_a_builtin_points_at_its_call(tmp_path):
    extra = 'triggers:\n  - "on round_start: x = 1 + first(5)"\n'
    with pytest.raises(RuleRuntimeError) as info:
        Game.load(str(game_dir(tmp_path, extra))).new_game(seed=1)
    loc = info.value.location
    assert loc is not None and loc.line == len(BASE.splitlines()) + 2
    assert "first" in str(info.value)


def test_the_typed_tree_and_its_facts():
    tree = parse(SourceText.plain("count(deck.cards where it is token) + roll(6)"), "expr")
    assert type(tree) is A.BinOp and type(tree.left) is A.Call and type(tree.left.args[0]) is A.Where
    f = facts(tree)
    assert f.calls == {"count", "roll"} and f.loops and f.reads_state and not f.plain
    body = parse(SourceText.plain("if x then choose c from cards end\ndo p(1)"), "effect").body
    f = facts(body)
    assert f.chooses and f.does == {"p"} and f.names >= {"x", "cards"}


def test_validate_prints_the_generated_source_of_a_rule(capsys):
    from tests.hardening import interpret
    code, out, err = interpret(capsys, "validate", "tic-tac-toe", "--source", "game.yaml:42")
    assert code == 0, err
    assert "def _expr(ctx):" in out and "# " in out and "game.yaml:42" in out
    assert "1 compiled text spanning 'game.yaml:42'" in out


def test_a_function_that_loops_is_compiled_in_place_when_called_with_a_loop_variable(tmp_path):
    """`count_coins(z)` loops; called with the variable of a loop it is written in the caller's
    text (its loop variable in the caller's frame), except while calls are remembered (then called:
    tests/test_loop_calls.py); elsewhere it is called. Same values; an error inside it still points
    into the function's own text."""
    extra = ("functions:\n"
             "  count_coins: {params: [z], expr: \"length(z.cards where it is token)\"}\n"
             "  oops: {params: [n], expr: \"any(first(n) == 1 for i in range(1, 2))\"}\n")
    g = Game.load(str(game_dir(tmp_path, extra)))
    _, called = compiled(g, "count_coins(deck)")
    _, inlined = compiled(g, "[count_coins(z) for z in [deck, discard]]")
    assert "[0](ctx, " in called                               # through its generated _call
    assert "if ctx.memo is not None else" in inlined and inlined.count("for x in") == 2
    st = g.new_game(seed=1)
    assert g.evaluate(st, "[count_coins(z) for z in [deck, discard]]") == [3, 0]
    assert g.evaluate(st, "count_coins(deck)") == 3
    with pytest.raises(RuleRuntimeError) as info:
        g.evaluate(st, "any(oops(k) for k in [5])")
    loc = info.value.location
    assert "first" in str(info.value) and loc is not None and loc.line == len(BASE.splitlines()) + 3


def test_known_kinds_and_constant_ranges_skip_type_tests():
    g = Game.load("tic-tac-toe")
    _, src = compiled(g, "cell(1, 2).card.owner")
    assert "_Zone" not in src and "_Card" not in src        # a cell, its card, its owner: no type tests
    _, src = compiled(g, "all(i >= 0 for i in range(0, 9))")
    assert "for x in _k" in src and "\n_c" not in src       # constant numbers: no call of range()
    _, src = compiled(g, "all(i >= 0 for i in range(0, 2))")
    assert "for x in" not in src and "\n_c" not in src      # a few of them: one test each, no loop
    st = g.new_game(seed=1)
    g.apply_in_place(st, "play r1c2")
    assert g.evaluate(st, "cell(1, 2).card.owner") == g.m.seats[0]
    assert g.evaluate(st, "cell(9, 9).card.owner") is None
    assert g.evaluate(st, "[i * 2 for i in range(0, 2)]") == [0, 2, 4]
    assert g.evaluate(st, "any(i * 1 + 0 == 2 for i in range(0, 2))") is True
    assert g.evaluate(st, "all(i * 0 + 1 - 1 == 0 for i in range(0, 3))") is True
    assert g.evaluate(st, "any(i == 3 for i in range(0, 2))") is False
    assert g.evaluate(st, "count(c.card.owner == me for c in cells)", me=0) == 1


def _spent(game, text, st):
    """(value, steps of the budget spent) of an expression evaluated in `st`."""
    from interpreter.runtime import context as rt
    f, _ = compiled(game, text)
    ctx = rt.Ctx(st, game.m, game.m.seats[0])
    ctx.locals = [None] * 8
    ctx.budget = before = 10_000
    return f(ctx), before - ctx.budget


def test_arithmetic_whose_result_provably_fits_is_not_checked():
    """A sum or product of numbers with bounds known at load time (a grid cell's row and column,
    constants, a constant range's numbers, an item of a constant list of numbers) cannot pass the
    number cap: it is plain Python arithmetic. Where the bound is not proved, the check stays and
    the error is reported at the operator."""
    g = Game.load("tic-tac-toe")
    st = g.new_game(seed=1)
    cap = "9223372036854775807"
    for text, value in (("sum(c.row * 10 + c.column for c in cells)", 18 * 10 + 18),
                        ("sum(d[0] * 3 - d[1] for d in directions)", 9 - 1),
                        ("sum(sum(i * c.row + -c.column for i in range(0, 9)) for c in cells)", 45 * 18 - 10 * 18),
                        ("count(c.row * 2 > c.column + 1 for c in cells)", 5)):
        _, src = compiled(g, text)
        body = "".join(line for line in src.split("\n") if "out.append(" in line)
        assert body and cap not in body and "_type(" not in body, text
        assert g.evaluate(st, text) == value, text
    text = "sum(c.row * 4611686018427387904 for c in cells)"  # 3 * 2**62 does not fit: checked
    _, src = compiled(g, text)
    assert cap in src
    with pytest.raises(RuleRuntimeError, match=r"<expression>:1:11: 2 \* 4611686018427387904: .* limit `number`"):
        g.evaluate(st, text)


def test_what_is_known_of_a_deep_expression_is_found_in_time():
    """What the generator knows of an expression (its kind, its bounds, its value) is asked of its
    parts again and again: answered once per part, a deep expression compiles at once (it took
    a time exponential in its depth: ~30 s for 10 levels)."""
    import time
    g = Game.load("tic-tac-toe")
    depth = 30
    text = "sum(" + "(" * depth + "c.row" + " * 2 + c.column)" * depth + " for c in cells)"
    start = time.process_time()
    compiled(g, text)
    assert time.process_time() - start < 2
    expected = 0
    for r in (1, 2, 3):
        for col in (1, 2, 3):
            v = r
            for _ in range(depth):
                v = v * 2 + col
            expected += v
    assert g.evaluate(g.new_game(seed=1), text) == expected


def test_any_all_over_a_short_constant_list_is_written_out_and_spends_as_the_loop(monkeypatch):
    """`any`/`all` over a constant list of a few items: one test per item, the item known (its
    own items fold to literals), the budget spent as the loop spends it. One written out inside
    another is written in place (no helper called)."""
    from interpreter.lang import loops
    g = Game.load("tic-tac-toe")
    st = g.new_game(seed=1)
    g.apply_in_place(st, "play r2c2")
    texts = {"any(d[0] == 1 and d[1] == -1 for d in directions)": True,
             "all(d[0] + d[1] >= 1 for d in directions)": False,
             "any(cell(2 + d[0], 2 + d[1]).empty for d in directions)": True,
             "any(all(cell(2 + i * d[0], 2 + i * d[1]).card.owner == me for i in range(0, 1)) "
             "for d in directions)": False,
             "any(all(cell(2 + i * d[0], 2 + i * d[1]).card.owner == me for i in range(-1, 0)) "
             "for d in directions)": False,
             "all(any(d[0] == i for i in range(0, 1)) for d in directions)": True,
             "all(all(d[1] != i for i in range(-1, 0)) for d in directions)": False,
             "any(any(d[0] + d[1] == i for i in range(2, 3)) for d in directions)": True,
             "all(any(d[0] + d[1] == i for i in range(2, 3)) for d in directions)": False}
    written = {}
    for text, value in texts.items():
        _, src = compiled(g, text)
        assert "for x in" not in src and "_index_slow" not in src and "L[0][" not in src, text
        assert src.count("def _g") == 1, text  # a written-out any/all tested in another: in place
        written[text] = _spent(g, text, st)
        assert written[text][0] is value, text
    monkeypatch.setattr(loops, "_UNROLL", 0)  # the same, as loops
    for text, value in texts.items():
        assert "for x in" in compiled(g, text)[1]
        assert _spent(g, text, st) == written[text], text


def test_length_of_a_where_compared_with_0_stops_at_the_first_item(monkeypatch):
    """`length(X where C) == 0` (`!= 0`, `> 0`) asks whether an item passes: the loop stops at
    the first one, spending what the whole `where` spends, when C cannot fail; a condition
    that may fail (arithmetic not proved) still goes through every item."""
    from interpreter.lang.shortcuts import Shortcuts
    g = Game.load("tic-tac-toe")
    st = g.new_game(seed=1)
    full = g.new_game(seed=1)
    for r in (1, 2, 3):
        for c in (1, 2, 3):
            if not g.is_terminal(full):
                g.apply_in_place(full, f"play r{r}c{c}")
    texts = ["length(cells where it.empty) == 0", "length(cells where it.empty) != 0",
             "length(cells where it.row > 2 and it.empty) > 0", "length(cells where it.row > 5) == 0"]
    written = {}
    for text in texts:
        src = compiled(g, text)[1]
        assert "return True" in src and "out.append" not in src, text
        written[text] = [_spent(g, text, s) for s in (st, full)]
    assert [v for v, _ in written[texts[0]]] == [False, False] and [v for v, _ in written[texts[3]]] == [True, True]
    assert "out.append" in compiled(g, "length(cells where it.row / (it.row - 1) == 1) == 0")[1]
    monkeypatch.setattr(Shortcuts, "length_of_where", lambda self, node: None)  # the list, then its length
    for text in texts:
        assert "out.append" in compiled(g, text)[1]
        assert [_spent(g, text, s) for s in (st, full)] == written[text], text


def test_a_parameter_bound_from_its_domain_is_read_without_type_tests(tmp_path):
    """A requirement (or a later parameter's domain) reads a parameter once it is bound from its
    domain, which is checked first: what the domain gives (cards here) is read without type
    tests. Not when a loop of the requirement rebinds the parameter's name."""
    extra = ("  take:\n"
             "    params: {c: \"deck.cards\", d: \"deck.cards where it.value == c.value\"}\n"
             "    require:\n"
             "      - \"c.value == 1 and d.value == 1\"\n"
             "      - \"c.value == 1 or any(c == 3 for c in [1, 2])\"\n"
             "    effect: move c to hand(me)\n")
    g = Game.load(str(game_dir(tmp_path, extra)))
    take = g.m.action_by_name["take"]
    plain, rebound = (source_of(r[0]) for r in take.requires)
    assert "_Card" not in plain and ".props.get(" in plain
    assert "_Card" in rebound
    domain = source_of(take.params[1][2]) or ""
    assert domain == "" or "_Card" not in domain.split("for x in")[1]
    st = g.new_game(seed=1)
    listed = [str(a) for a in g.legal_actions(st) if a.name == "take"]
    assert len(listed) == 9 and all(g.can(st, a) for a in listed)
    g.apply_in_place(st, listed[0])
    held = listed[0].split()[1]
    assert g.explain(st, f"take {held} {held}") is not None  # no longer in the deck: refused, not an error


def test_first_and_last_card_of_a_zone_do_not_build_its_list_of_cards():
    """`first(Z.cards)` and `last(Z.cards)`, Z a zone (or none): the first (last) card id of the
    zone, not the list of all its cards."""
    g = Game.load("tic-tac-toe")
    st = g.new_game(seed=1)
    for text in ("first(me.supply.cards)", "last(me.supply.cards)", "first(cell(1, 1).cards)",
                 "last(cell(9, 9).cards)"):
        assert "_list(" not in compiled(g, text)[1], text
    supply = [g.m.cards[i] for i in st["z"][g.m.player_zones["supply"][0].id]]
    assert g.evaluate(st, "first(me.supply.cards)", me=0) is supply[0]
    assert g.evaluate(st, "last(me.supply.cards)", me=0) is supply[-1]
    assert g.evaluate(st, "first(cell(1, 1).cards)") is None and g.evaluate(st, "last(cell(9, 9).cards)") is None


def test_spends_one_after_the_other_are_merged_and_fail_where_they_would(monkeypatch):
    """Constant spends of the budget one after the other (written-out loops, one in another) are
    one subtraction; when the budget runs out they are replayed: the same error, at the same
    position, with the same budget left, as the spends one by one."""
    from interpreter.lang import pieces
    g = Game.load("tic-tac-toe")
    st = g.new_game(seed=1)
    g.apply_in_place(st, "play r2c2")
    text = ("any(any(all(cell(c.row + i * d[0], c.column + i * d[1]).card.owner == me for i in range(0, 1)) "
            "for d in directions) for c in cells where not c.empty)")

    def outcomes():
        f, src = compiled(g, text)
        return src, [_outcome(f, st, g, budget) for budget in range(0, 30)]
    src, merged = outcomes()
    assert "_spend_seq(" in src and src.count("_spend_failed(") == 1  # the loop over cells alone
    assert {kind for kind, _, _ in merged} == {"value", "error"}
    monkeypatch.setattr(pieces, "merge_spends", lambda lines: lines)  # the pass over the typed lines left out
    src, one_by_one = outcomes()
    assert "_spend_seq(" not in src
    assert merged == one_by_one


def _outcome(f, st, g, budget):
    """What expression `f` gives in `st` for the first seat with `budget` steps: ("value", v, left)
    or ("error", message, left)."""
    from interpreter.runtime import context as rt
    ctx = rt.Ctx(st, g.m, g.m.seats[0])
    ctx.locals, ctx.budget = [None] * 8, budget
    try:
        return ("value", f(ctx), ctx.budget)
    except RuleRuntimeError as e:
        return ("error", str(e), ctx.budget)


def test_a_test_known_true_by_the_loops_condition_is_left_out(monkeypatch):
    """In a loop over `c in X where C`, a written-out `all` in place tests C again (its first
    cell is c itself): that test is left out, nothing having been called since C; the same
    values and budgets as with it."""
    from interpreter.lang import loops
    from interpreter.engine.game import clone
    g = Game.load("tic-tac-toe")
    text = ("any(any(all(cell(c.row + i * d[0], c.column + i * d[1]).card.owner == me for i in range(0, 2)) "
            "for d in directions) for c in cells where c.card.owner == me)")
    states = [g.new_game(seed=1)]
    for move in ("play r2c2", "play r1c1", "play r2c3", "play r1c2", "play r2c1"):
        states.append(clone(states[-1]))
        g.apply_in_place(states[-1], move)

    def outcomes():
        f, src = compiled(g, text)
        return src, [_outcome(f, st, g, budget) for st in states for budget in (10_000, 30, 45)]
    src, left_out = outcomes()
    assert src.count("is ctx.me") == 1 + 4 * 2, src  # the where's, then the 2nd and 3rd cell of each line
    monkeypatch.setattr(loops, "_shape", lambda t: object())  # no two texts of one shape
    src, all_tested = outcomes()
    assert src.count("is ctx.me") == 1 + 4 * 3
    assert left_out == all_tested and {v for kind, v, _ in left_out if kind == "value"} == {True, False}


def test_a_cell_at_a_known_offset_from_a_cell_is_read_from_a_table():
    """`cell(c.row + i, c.column + j)` with i and j known at load time and c a cell of the grid:
    one read of a table by the cell's id (no key built, no arithmetic), the same cells as the
    built-in `cell` gives, none off the board; `cell(c.row, c.column)` is c itself."""
    g = Game.load("tic-tac-toe")
    st = g.new_game(seed=1)
    for i, j in ((0, 0), (1, -1), (-2, 1), (2, 2)):
        text = f"[cell(c.row + {i}, {j} + c.column) for c in cells]"
        _, src = compiled(g, text)
        assert ("[x.id]" in src) is ((i, j) != (0, 0)), text  # no offset: the cell itself
        assert ".get((" not in src and "attrs" not in src, text
        assert g.evaluate(st, text) == [g.m.cell_at.get((c.attrs["row"] + i, c.attrs["column"] + j))
                                        for c in g.m.cells], text
    text = "[cell(c.row + 1, c.row) for c in cells]"  # any two of its coordinates: a table too
    assert "[x.id]" in compiled(g, text)[1]
    assert g.evaluate(st, text) == [g.m.cell_at.get((c.attrs["row"] + 1, c.attrs["row"])) for c in g.m.cells]
    _, src = compiled(g, "[cell(c.row + c.column, 1) for c in cells]")  # an offset not known: a lookup
    assert "[x.id]" not in src and ".get((" in src


def test_an_effect_is_one_generated_function_whose_lines_map_to_its_statements():
    """Issue 9 item 2: the statements of an effect are one generated function (no closure per
    statement); each line of its text is mapped to the statement written there, which is where
    guard.py reports an error nobody foresaw."""
    from interpreter.engine.guard import rule_location
    g = Game.load("tic-tac-toe")
    effect = g.m.action_by_name["play"].effect
    src = source_of(effect)
    assert src is not None and "def _run(ctx):" in src and "_move(ctx, " in src and "elif " in src
    lines = effect.__globals__["_LINES"]
    text = (g.m.rs.root / "game.yaml").read_text(encoding="utf-8").splitlines()
    start = next(i for i, t in enumerate(text, 1) if "move first(me.supply.cards)" in t)
    shown = {lines[n].line for n, t in enumerate(src.split("\n"), 1) if n in lines and t.strip()}
    assert shown == {start, start + 1, start + 2, start + 3, start + 4, start + 5}  # move, if, =, finish, elif, finish
    move_line = next(n for n, t in enumerate(src.split("\n"), 1) if "_move(ctx, " in t)
    assert (lines[move_line].line, lines[move_line].column) == (start, text[start - 1].index("move") + 1)

    class Frame:  # a traceback entry in the generated text, at the line of the `move`
        f_code = effect.__code__
        f_globals = effect.__globals__

    class Tb:
        tb_frame, tb_lineno, tb_next = Frame, move_line, None
    assert rule_location(Tb).line == start


def test_a_step_is_listed_by_one_generated_function():
    """Issue 9 item 3: the legal actions of a step come from a function generated for the step
    (its definitions' parameters as nested loops), the same as what verify accepts."""
    g = Game.load("tic-tac-toe")
    st = g.new_game(seed=1)
    lister = g.listings._listers.get(st["flow"]["step"])  # written when the game began
    assert lister is not None and "def _listing(" in source_of(lister)
    assert [str(a) for a in g.legal_actions(st)] == [f"play r{r}c{c}" for r in (1, 2, 3) for c in (1, 2, 3)]
    g.apply_in_place(st, "play r2c2")
    listed = g.legal_actions(st)
    assert len(listed) == 8 and "play r2c2" not in map(str, listed) and all(g.can(st, a) for a in listed)
    assert g.explain(st, "play r2c2") == "r2c2 already holds a mark (§2)"


def test_cells_of_a_grid_and_items_of_constant_number_lists_are_known_numbers():
    """A cell of the grid from `cells` is never none and its row and column are numbers; an item
    of a constant list of number lists (`directions`) is a number: no type tests on either."""
    g = Game.load("tic-tac-toe")
    text = "sum(sum(c.row * 10 + d[1] for d in directions) for c in cells)"
    _, src = compiled(g, text)
    assert "_index_slow" not in src and "_type(_t" not in src and "L[0].attrs[" in src
    assert g.evaluate(g.new_game(seed=1), text) == 40 * 18 + 9  # 4 directions of 9 cells; their column steps sum to 1


def loop_body(src: str) -> str:
    """The lines of the first `for x in items:` loop of a generated text, those it runs for each item."""
    head, rest = src.split("for x in items:\n", 1)
    indent = len(head.split("\n")[-1]) + 4
    body = []
    for line in rest.split("\n"):
        if len(line) - len(line.lstrip()) < indent:
            break
        body.append(line)
    return "\n".join(body)


def test_cards_of_zones_are_known_cards():
    """The items of `contents(...)` (and of a small function giving them), of a zone's `.cards`
    and of `cards` are cards, never none: their attributes and tags are read without tests. A
    loop of an expression reads its item from its own variable and looks up the tables of
    variables it reads once."""
    g = Game.load("dark-agent", players=4)
    for text in ('length(contents(tagged_cells("theatre")) where it.activated or it is spy or it.owner == me)',
                 "length(theatre_cards() where it.activated or it is spy or it.owner == me)"):
        _, src = compiled(g, text)
        loop = src.split("for x in items:")[1].split("return")[0]
        assert "_type(" not in loop and "_getattr" not in loop and "x.tags" in loop and "x.owner" in loop
        # the loop reads its item from its own variable, and the table of `activated` is looked up once
        # no helper reads L[0]: the item is put there once, when the loop ends, not for each item
        assert "L[0]" not in loop_body(src) and "ctx.st[" not in loop and "_vt0[x.id]" in loop
    st = g.new_game(seed=1)
    theatre = [c for z in g.m.tagged_cells("theatre") for c in (g.m.cards[i] for i in st["z"][z.id])]
    spies = sum(1 for c in theatre if "spy" in c.tags or c.owner is g.m.seats[0])
    assert g.evaluate(st, "length(theatre_cards() where it is spy or it.owner == me)", me=0) == spies > 0


def test_a_loop_puts_its_item_in_the_frame_only_for_the_helpers_reading_it():
    """A loop whose body hands the frame to a helper (an inner loop reading the outer item) puts
    each item in its local first; one whose body reads only its own item does not (issue 29)."""
    g = Game.load("tic-tac-toe")
    text = "sum(length(cells where it.row == c.row and it.column <= c.column) for c in cells)"
    _, src = compiled(g, text)
    bodies = [loop_body("def " + part) for part in src.split("def ")[1:] if "for x in items:" in part]
    outer = [body for body in bodies if "(ctx, L)" in body]
    inner = [body for body in bodies if "(ctx, L)" not in body]
    assert len(outer) == len(inner) == 1
    assert "L[0] = x" in outer[0] and "L[0].attrs" in inner[0] and " = x" not in inner[0]
    assert g.evaluate(g.new_game(seed=1), text) == 3 * (1 + 2 + 3)


def test_a_cards_zone_and_cell_are_one_lookup_by_its_place():
    """`c.zone` and `c.cell` of a card are read from a table of the match by the card's place
    (no test of the place, no zone's `is_cell`): a card on a cell gives it, one elsewhere none."""
    g = Game.load("dark-agent", players=4)
    st = g.new_game(seed=1)
    text = "[[c.zone, c.cell] for c in theatre_cards() + me.spies.cards]"
    _, src = compiled(g, text)
    assert "is_cell" not in src and ">= 0" not in src
    got = g.evaluate(st, text, me=0)
    m = g.m
    on_board = [m.cards[i] for z in m.tagged_cells("theatre") for i in st["z"][z.id]]
    assert len(got) > len(on_board) > 0
    for (zone, cell), c in zip(got, on_board + [m.cards[i] for i in st["z"][m.player_zones["spies"][0].id]]):
        assert zone is m.zones[st["loc"][c.id]] and cell is (zone if zone.is_cell else None)
    assert any(cell is None for _, cell in got) and any(cell is not None for _, cell in got)


def test_equality_with_a_card_zone_player_or_none_is_identity():
    """`==` and `!=` where one side is a card, a zone or a player (or none), `none` or `me` are
    written `is` and `is not` (none of them equals anything but itself): the same answers."""
    g = Game.load("dark-agent", players=4)
    st = g.new_game(seed=1)
    cases = {"me == me": True, "me != none": True, "none == none": True, "me == 1": False, "1 != me": True,
             "first(theatre_cards()).owner == me": None, "[c for c in theatre_cards() where c.owner != none] == []": False}
    for text, want in cases.items():
        _, src = compiled(g, text)
        assert (" is " in src or " is not " in src) if "[]" not in text and "1" not in text else " == " in src or " != " in src
        got = g.evaluate(st, text, me=0)
        assert got == want if want is not None else got == (g.evaluate(st, "first(theatre_cards()).owner", me=0) is g.m.seats[0])


def test_a_variable_of_cards_is_set_in_place_and_a_wrong_thing_still_refused(tmp_path):
    """`thing.variable = v` for a variable that needs no encoding is written in the generated
    text (the table's tuple replaced, as state.put does); anything else than the thing that has
    the variable takes the checked path, with the same error and position."""
    extra = ("  mark_all: {effect: \"for t in [first(deck.cards), me] do t.mark = 7 end\"}\n"
             "  mark_one: {effect: \"first(deck.cards).mark += 2\\nfinish turn\"}\n")
    base = BASE.replace("player: {score: 0}}", "player: {score: 0}, card: {mark: 0}}")
    g = Game.load(str(game_dir(tmp_path, extra, base=base)))
    src = source_of(g.m.action_by_name["mark_one"].effect)
    assert "is _Card:" in src and "_tuple(_t" in src, src  # a copy of the table, changed, made a tuple again
    st = g.new_game(1)
    top = st["z"][g.m.zone_by_name["deck"].id][0]
    g.apply_in_place(st, "mark_one")
    assert type(st["cv"]["mark"]) is tuple and st["cv"]["mark"][top] == 2
    assert [v for i, v in enumerate(st["cv"]["mark"]) if i != top] == [0] * (len(g.m.cards) - 1)
    with pytest.raises(RuleRuntimeError) as e:
        g.apply_in_place(st, "mark_all")
    assert "cannot set `mark` on" in str(e.value) and "game.yaml:" in str(e.value), e.value


def test_a_where_over_a_list_written_in_brackets_knows_the_kind_of_its_items():
    """`[cell(r, 1) for r in ...] where not it.empty`: the list's items are zones or none (what
    `cell` gives), known from outside the list, so the `where` reads `.empty` without a type test
    (a none item still gives none); the values and the steps are those of the loops as written."""
    g = Game.load("tic-tac-toe")
    text = "[cell(r, 1) for r in range(0, 3)] where not it.empty"
    _, src = compiled(g, text)
    assert "is _Zone" not in src and "is not None" in src
    st = g.new_game(seed=1)
    g.apply_in_place(st, "play r1c1")
    cell = g.m.cell_at
    assert g.evaluate(st, text) == [None, cell[(1, 1)]]  # no row 0: none, whose `.empty` is none
    assert g.evaluate(st, "[cell(r, 1) for r in range(1, 3)] where it.empty") == [cell[(2, 1)], cell[(3, 1)]]
    assert g.evaluate(st, "[cell(r, 7) for r in range(1, 2)] where it == none") == [None, None]
    value, spent = _spent(g, text, st)
    assert value == [None, cell[(1, 1)]] and spent == 12  # 4 for range, 4 for the list's loop, 4 for the where's
