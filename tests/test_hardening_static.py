"""Issue 12, item 3 of the findings (content that validated, then crashed while playing) and item 4
(attribute typos): each is now a validate error when it can be known before playing, else a rule
error at the rule's position naming the values, exit 1."""
from __future__ import annotations

import pytest

from interpreter.engine.game import Game
from interpreter.errors import RuleRuntimeError
from interpreter.engine.guard import UnexpectedRuleError
from tests.hardening import BASE, POSITION, game_dir, interpret

PLAYER_VAR = BASE.replace("vars: {game: {x: 0, lst: []}", "vars: {game: {x: 0, lst: [], fp: {type: player}}")


def with_action(spec: str) -> str:
    return BASE.replace("actions:\n", f"actions:\n  pick: {spec}\n")


VALIDATE_ERRORS = {
    "domain a number": (with_action('{params: {card: "1"}, effect: pass}'), "", "must be a collection"),
    "domain yes/no": (with_action('{params: {card: "x > 1"}, effect: pass}'), "", "must be a collection"),
    "choose in on round_start": (BASE, 'triggers:\n  - "on round_start: choose c from cards"\n',
                                 "cannot ask for a choice"),
    "choose in a procedure done on turn_end": (
        BASE, 'procedures:\n  p: {params: [], effect: "choose c from cards"}\ntriggers:\n  - "on turn_end: do p()"\n',
        "cannot ask for a choice"),
    "a number into a player": (PLAYER_VAR, 'triggers:\n  - "on round_start: fp = 7"\n', "`fp` holds a player"),
    "+= a number on a list": (BASE, 'triggers:\n  - "on round_start: lst += 1"\n', "`lst` holds a list"),
    "a list into a number": (BASE, 'triggers:\n  - "on round_start: x = [1, 2]"\n', "`x` holds a number"),
    "a typo on a card": (BASE, 'constants:\n  info: {a: 1}\ntriggers:\n  - "on round_start: x = first(cards).levle"\n',
                         "nothing has an attribute `levle`"),
    "a dunder": (BASE, 'constants:\n  info: {a: 1}\ntriggers:\n  - "on round_start: x = me.__class__"\n',
                 "nothing has an attribute `__class__`"),
}


@pytest.mark.parametrize("name", list(VALIDATE_ERRORS))
def test_known_before_playing_is_a_validate_error(tmp_path, capsys, name):
    base, extra, says = VALIDATE_ERRORS[name]
    code, out, err = interpret(capsys, "validate", game_dir(tmp_path, extra, base=base))
    assert code == 1, err
    assert says in err and POSITION.search(err), err


def test_a_mapping_constant_still_reads_its_own_keys(tmp_path):
    extra = 'constants:\n  info: {a: {deep: 2}}\ntriggers:\n  - "on round_start: x = info.a.deep"\n'
    game = Game.load(str(game_dir(tmp_path, extra)))
    assert game.new_game(seed=1)["gv"]["x"] == 2


RUNTIME_ERRORS = {
    "a domain that is a zone": (with_action('{params: {card: "deck"}, effect: pass}'), "",
                                "write `deck.cards`"),
    "a domain that is a number": (with_action('{params: {card: "x"}, effect: pass}'), "", "not a collection"),
    "a computed number into a player": (PLAYER_VAR, 'triggers:\n  - "on round_start: fp = round"\n',
                                        "`fp` holds a player, not 1"),
    "+= a computed number on a list": (BASE, 'triggers:\n  - "on round_start: lst += round"\n', "cannot compute [] + 1"),
}


@pytest.mark.parametrize("name", list(RUNTIME_ERRORS))
def test_known_only_while_playing_is_a_positioned_rule_error(tmp_path, capsys, name):
    base, extra, says = RUNTIME_ERRORS[name]
    root = game_dir(tmp_path, extra, base=base)
    code, out, err = interpret(capsys, "play", root, "--auto", "--seed", "1", "-q")
    assert code == 1, err
    assert says in err and POSITION.search(err), err


def test_a_variant_that_changes_a_variables_type_is_a_validate_error(tmp_path, capsys):
    variant = tmp_path / "v.yaml"
    variant.write_text("variant: {name: v, base: dark-agent}\nchanges:\n  - op: set\n"
                       "    path: vars.player.sat_exchanged.default\n    value: [1, 2]\n")
    code, out, err = interpret(capsys, "validate", "dark-agent", "--variant", variant, seconds=30)
    assert code == 1
    assert "`sat_exchanged` holds a list" in err and "satellites.yaml:" in err, err


def test_an_unexpected_python_error_in_a_rule_is_a_rule_error_at_the_rule(tmp_path, monkeypatch):
    """The last guard (guard.py): a Python exception that no check foresaw leaves the forward model
    as a rule error with the position of the innermost rule running."""
    from interpreter.runtime import library as builtins

    def broken(ctx, coll):
        return 1 // 0  # an exception the call of a builtin does not expect
    monkeypatch.setitem(builtins._BUILTINS, "length", (broken, (1,)))
    game = Game.load(str(game_dir(tmp_path, 'triggers:\n  - "on round_start: x = length(cards)"\n')))
    with pytest.raises(UnexpectedRuleError, match="ZeroDivisionError") as info:
        game.new_game(seed=1)
    assert info.value.location is not None and info.value.location.line == len(BASE.splitlines()) + 2
    assert isinstance(info.value, RuleRuntimeError)


def test_a_score_that_is_not_a_number_is_a_rule_error_at_the_score(tmp_path, capsys):
    """Found by the fuzz suite: `score: me` compared seats while ranking (a Python TypeError)."""
    root = game_dir(tmp_path, "scoring:\n  score: me\n")
    code, out, err = interpret(capsys, "play", root, "--auto", "-q", "--seed", "1")
    assert code == 1 and "scoring.score must give a number, not p1" in err and POSITION.search(err), err
    assert "do not go together" not in err
