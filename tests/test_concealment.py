"""Card concealment: a card variable declared `conceals: true` hides its card's identity from
every view while it is true (interpreter/information/views.py), and so from the screens and the texts a
seat is shown (interpreter/play/render.py). Then Agent DOG's infiltrated pawns, over random games:
no seat may ever tell which pawn an infiltrated pawn is.
"""
from __future__ import annotations

import contextlib
import io
import json
import random

import pytest

from interpreter.runtime import visibility
from interpreter.play.narration import Narrator
from interpreter.engine.game import Game, clone
from interpreter.scenarios.position import Position
from interpreter.play.render import Renderer
from interpreter.runtime import context as rt
from interpreter.information.views import concealed_ids, view, visible_cards

_TRUE_CONCEALED = visibility.concealed_ids  # the truth, kept when a test breaks the views' copy

MASKS = """
game: {name: masks, players: {min: 2, max: 2}}
cards:
  piece: {per_player: true, copies: 2, start: table, props: {power: 7}}
zones:
  table: {visibility: public}
  pile: {visibility: top}
vars:
  card:
    turned: {default: false, conceals: true}
    moves: 0
  game:
    last: {type: card}
flow:
  turn: {steps: [{name: play}]}
actions:
  pick:
    effect: |
      choose c from table.cards prompt "a piece"
      log "picked {c}"
  stop: {effect: finish game}
"""


@pytest.fixture
def masks(make_game):
    return make_game(MASKS)


def _turned(game, key="piece#1.p2"):
    pos = Position(game, game.new_game(seed=1))
    pos.set(key, "turned", True)
    pos.set(None, "last", key)
    return pos.state


def test_a_concealed_card_has_no_identity_in_any_view(masks):
    st = _turned(masks)
    assert concealed_ids(masks, st) == {masks.m.card_by_key["piece#1.p2"].id}
    for seat in (None, 0, 1):
        v = view(masks, st, seat)
        text = json.dumps(v)
        assert '"piece#1.p2"' not in text
        assert v["zones"]["table"] == {"count": 4, "cards": ["piece#1.p1", "piece#2.p1", None, "piece#2.p2"]}
        assert "piece#1.p2" not in v["cards"] and "piece#1.p1" in v["cards"]  # no variables shown for it
        assert v["vars"]["last"] is None  # a reference to it is masked
        assert "piece#1.p2" not in visible_cards(masks, st, seat)
    assert st["cv"]["turned"][masks.m.card_by_key["piece#1.p2"].id]  # the state itself still knows


def test_a_concealed_card_on_top_of_a_pile_is_not_named(masks):
    pos = Position(masks, _turned(masks))
    pos.move("piece#1.p2", "pile")
    assert view(masks, pos.state, 0)["zones"]["pile"] == {"count": 1, "top": None}


def test_a_card_is_shown_again_once_its_variable_is_false(masks):
    pos = Position(masks, _turned(masks))
    pos.set("piece#1.p2", "turned", False)
    assert '"piece#1.p2"' in json.dumps(view(masks, pos.state, 1))


def test_the_chooser_of_a_pending_choice_does_not_see_a_concealed_option(masks):
    st = masks.apply(_turned(masks), "pick")
    options = view(masks, st, 0)["pending"]["options"]
    assert {"key": None, "label": "?"} in options and len(options) == 4
    assert "piece#1.p2" not in json.dumps(options)


def test_screens_and_texts_draw_a_concealed_card_as_unknown(masks):
    st = _turned(masks)
    r = Renderer(masks)
    for seat in (0, 1):
        screen = r.screen(st, seat)
        assert "table  (4) piece/p1, piece/p1, ?, piece/p2" in screen
        # a text is written for its reader from values (dsl/templates.py): the concealed card, its
        # key and its owner read as unknown, the card next to it by its title
        said = _said(masks, st, "moved {last} ({last.key}, of {last.owner.name}) and {first(table.cards)}")
        assert r.say(st, seat, said) == "moved a card (a card, of ?) and piece/p1"


def _said(game, st, text):
    """A message of the rules (`log TEXT`) said in `st`, as the rules would say it."""
    from interpreter.lang.scope import Scope
    said = game.m.compiler.template_text(text, Scope()).said
    ctx = rt.Ctx(st, game.m)
    ctx.locals = []
    return said(ctx)


def test_conceals_is_refused_on_other_variables(make_game):
    from interpreter.errors import ContentError
    with pytest.raises(ContentError, match="conceals"):
        make_game(MASKS.replace("moves: 0", "moves: 0\n  player:\n    secret: {default: false, conceals: true}"))


# ---- Agent DOG: infiltrated pawns ---------------------------------------------------------

DOG_SEEDS = range(2)
DOG_STEPS = 300


@pytest.fixture(scope="module")
def dog_games():
    return {n: Game.load("agent-dog", players=n) for n in (2, 3, 4)}


def _concealed_keys(game, st) -> set:
    return {game.m.cards[i].key for i in _TRUE_CONCEALED(game.m, st)}


def _swapped(game, st):
    """The same state with two concealed pawns of different colours exchanged (None if there are none).

    A pawn already moved by the Partenaire being played is left out: its mover saw where it went,
    and the rules rightly remember it (`shared`), so exchanging it would rewrite that history."""
    moved = {i for ids in st["pv"]["shared"] for i in ids}
    ids = sorted(_TRUE_CONCEALED(game.m, st) - moved)
    for i in ids:
        for j in ids:
            if i < j and game.m.cards[i].owner != game.m.cards[j].owner:
                other = clone(st)
                rt.swap(rt.Ctx(other, game.m), game.m.cards[i], game.m.cards[j])
                return other
    return None


def dog_leaks(game, seeds, steps) -> tuple[list[str], int]:
    """Every way a seat could tell an infiltrated pawn in random games; and how many states had one."""
    problems, checked = [], 0
    r = Renderer(game)
    seats = list(range(game.num_players))
    for seed in seeds:
        rng = random.Random(seed)
        st = game.new_game(seed)
        narrators = {s: Narrator(game, r, viewer=s) for s in seats}
        for n in range(steps):
            if game.is_terminal(st):
                break
            hidden = _concealed_keys(game, st)
            deciding = game.current_player(st)
            labelled = game.legal_actions_with_labels(st)
            if hidden:
                checked += 1
                where = f"seed {seed} step {n}"
                for seat in [None, *seats]:
                    text = json.dumps(view(game, st, seat))
                    for key in hidden:
                        if json.dumps(key) in text:
                            problems.append(f"{where}: {key} in the view of seat {seat}")
                    screen = r.screen(st, seat) if seat is not None else ""
                    if "Error:" in screen:  # a render template that fails is drawn as <...Error: ...>
                        problems.append(f"{where}: the screen of seat {seat} has an error: {screen}")
                    if any(key in screen for key in hidden):
                        problems.append(f"{where}: an infiltrated pawn's key on the screen of seat {seat}")
                for action, label in labelled:  # what the deciding seat is offered
                    if any(key in str(action) or key in label for key in hidden):
                        problems.append(f"{where}: {action} / {label} names an infiltrated pawn")
                # indistinguishable: exchanging two infiltrated pawns of different colours changes nothing
                # any seat is shown — not the view, not the screen, not the choices
                other = _swapped(game, st)
                if other is not None:
                    for seat in [None, *seats]:
                        if view(game, st, seat) != view(game, other, seat):
                            problems.append(f"{where}: seat {seat}'s view tells two infiltrated pawns apart")
                        if seat is not None and r.screen(st, seat) != r.screen(other, seat):
                            problems.append(f"{where}: seat {seat}'s screen tells two infiltrated pawns apart")
                    if game.legal_actions_with_labels(other) != labelled:
                        problems.append(f"{where}: the choices tell two infiltrated pawns apart")
            action, label = rng.choice(labelled)
            told = {s: narrator.hide(st, deciding, label, action) for s, narrator in narrators.items()}
            step = game.apply_in_place(st, action)
            hidden_after = _concealed_keys(game, st)
            for s, narrator in narrators.items():  # what `play` prints for each seat: labels and logs
                out = io.StringIO()
                with contextlib.redirect_stdout(out):
                    narrator.move(st, n=n + 1, player=deciding, label=told[s], events=step.events)
                if any(key in out.getvalue() for key in hidden_after):
                    problems.append(f"seed {seed} step {n}: seat {s} is told {out.getvalue().strip()!r}")
    return problems, checked


@pytest.mark.parametrize("players", [2, 3, 4])
def test_no_seat_can_tell_an_infiltrated_pawn(dog_games, players):
    problems, checked = dog_leaks(dog_games[players], DOG_SEEDS, DOG_STEPS)
    assert checked > 50, "too few states with infiltrated pawns: the test proves nothing"
    assert problems == []


def test_the_check_catches_pawns_that_are_not_concealed(dog_games, monkeypatch):
    monkeypatch.setattr(visibility, "concealed_ids", lambda m, state: set())
    game = dog_games[4]
    problems, _ = dog_leaks(game, range(1), 150)
    assert any("in the view" in p for p in problems)
    assert any("tells two infiltrated pawns apart" in p for p in problems)


def test_the_check_catches_an_action_naming_a_pawn(dog_games, monkeypatch):
    game = dog_games[4]
    real = game.legal_actions_with_labels

    def leaky(st):
        pawns = [game.m.cards[i].key for i in concealed_ids(game, st)]
        return [(a, label + (f" ({pawns[0]})" if pawns else "")) for a, label in real(st)]
    monkeypatch.setattr(game, "legal_actions_with_labels", leaky)
    problems, _ = dog_leaks(game, range(1), 150)
    assert any("names an infiltrated pawn" in p for p in problems)


def test_a_given_card_is_named_only_to_its_giver(dog_games):
    """1. Distribution et échange de cartes: the card goes « face cachée »: the other seats are told
    that a card was given, never which."""
    game = dog_games[4]
    r = Renderer(game)
    st = game.new_game(seed=3)
    action, label = game.legal_actions_with_labels(st)[0]
    given = game.m.card_by_key[action.args[0]]
    narrators = [Narrator(game, r, viewer=seat) for seat in range(4)]
    labels = [n.hide(st, 0, label, action) for n in narrators]  # written before the move, per seat
    game.apply_in_place(st, action)
    told = {}
    for seat in range(4):
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            narrators[seat].move(st, n=1, player=0, label=labels[seat], events=[])
        told[seat] = out.getvalue()
    assert f"give {r.titles.get(given.name, given.name)} to Chloé" in told[0]  # as the board names it
    for seat in (1, 2, 3):
        assert given.key not in told[seat] and given.props["face"] not in told[seat].split(":", 1)[1]
        assert "give a card to Chloé" in told[seat]


def test_a_played_card_is_named_to_every_seat(dog_games):
    """2. « Place cette carte face visible sur la pile de défausse » (ruling D21): the positive
    control of the test above. A card played (`shown: [card]`) is named to every seat, as the board
    names it, in what `play` prints; a move's pawn squares are told alike."""
    import random
    game = dog_games[4]
    r = Renderer(game)
    st = game.new_game(seed=3)
    rng = random.Random(3)
    narrators = [Narrator(game, r, viewer=seat) for seat in range(4)]
    named = 0
    for n in range(80):
        action, label = rng.choice(game.legal_actions_with_labels(st))
        player = game.current_player(st)
        labels = [each.hide(st, player, label, action) for each in narrators]
        played = game.m.card_by_key.get(action.args[0]) if action.name in ("advance", "enter", "exchange", "partner") else None
        game.apply_in_place(st, action)
        if played is None:
            continue
        for seat in range(4):
            out = io.StringIO()
            with contextlib.redirect_stdout(out):
                narrators[seat].move(st, n=n + 1, player=player, label=labels[seat], events=[])
            assert f": {r.titles[played.name]}: " in out.getvalue() or \
                f": {r.titles[played.name]} " in out.getvalue(), (seat, out.getvalue())
        named += 1
    assert named > 10


def test_shown_names_a_parameter_of_its_action(make_game):
    from interpreter.errors import ContentError
    with pytest.raises(ContentError, match="`shown` names no parameter `crad`"):
        make_game(MASKS.replace("  stop: {effect: finish game}", "  stop: {effect: finish game, shown: [crad]}"))
