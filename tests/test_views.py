"""Per-seat views: nothing a seat may not know ever appears in its view.

The oracle below reads the declared visibility of each zone directly, so that
it does not share code with interpreter/information/views.py.
"""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from interpreter.information import views
from interpreter.runtime import visibility
from interpreter.engine.game import to_json
from interpreter.information.views import view, visible_cards

SEEDS = range(40)


def expected_visibility(game, state, seat):
    """(keys the seat must see, keys it must never see) from the zones' declarations."""
    must_see, must_not_see = set(), set()
    for zone, ids in zip(game.m.zones, state["z"]):
        keys = [game.m.cards[i].key for i in ids]
        own = zone.visibility == "owner" and seat is not None and zone.owner is not None and zone.owner.id == seat
        if zone.visibility == "public" or own:
            must_see.update(keys)
        elif zone.visibility == "top":
            must_see.update(keys[:1])
            must_not_see.update(keys[1:])
        else:
            must_not_see.update(keys)
    return must_see, must_not_see


def keys_in(text: str, game) -> set:
    """The card keys that occur anywhere in `text`, alone or inside a longer string (a prompt...)."""
    return {c.key for c in game.m.cards
            if re.search(r"(?<![\w#.])" + re.escape(c.key) + r"(?![\w#])", text)}


def view_problems(game, state, seat, view_fn=view) -> list[str]:
    """Everything wrong with one seat's view of one state (empty: all good)."""
    problems = []
    v = view_fn(game, state, seat)
    text = json.dumps(v)  # must be JSON-serialisable
    if json.loads(text) != v:
        problems.append("the view is not plain JSON data")
    must_see, must_not_see = expected_visibility(game, state, seat)
    shown = keys_in(text, game)
    who = "spectator" if seat is None else f"seat {seat}"
    if shown & must_not_see:
        problems.append(f"{who} sees hidden cards {sorted(shown & must_not_see)}")
    if must_see - shown:
        problems.append(f"{who} misses cards it may see {sorted(must_see - shown)}")
    if seat is None and shown != must_see:
        problems.append(f"the spectator sees more than public cards: {sorted(shown - must_see)}")
    pending = state["pending"][-1] if state["pending"] else None
    if pending is not None:
        chooser = pending["player"] == seat and seat is not None
        if chooser != ("options" in (v["pending"] or {})):
            problems.append(f"{who}: pending options shown={not chooser}, chooser={chooser}")
        if v["pending"]["prompt"] != pending["prompt"]:
            problems.append(f"{who}: the prompt of the pending choice is missing")
    return problems


def check_playouts(game, random_playout, seeds, view_fn=view) -> list[str]:
    problems = []
    for seed in seeds:
        for state, _ in random_playout(game, seed):
            for seat in [None, *range(game.num_players)]:
                problems += [f"seed {seed}: {p}" for p in view_problems(game, state, seat, view_fn)]
    return problems


@pytest.mark.parametrize("fixture", ["mini", "secrets"])
def test_no_hidden_card_ever_appears_in_a_view(fixture, request, random_playout):
    game = request.getfixturevalue(fixture)
    assert check_playouts(game, random_playout, SEEDS) == []


def test_the_leak_check_catches_a_leaking_view(mini, random_playout, monkeypatch):
    # a view that shows every zone's contents to everyone must be caught
    monkeypatch.setattr(visibility, "sees_contents", lambda zone, seat: True)
    problems = check_playouts(mini, random_playout, range(3))
    assert any("sees hidden cards" in p for p in problems)


def test_the_leak_check_catches_options_shown_to_the_wrong_seat(secrets, random_playout):
    def leaky(game, state, seat):
        v = view(game, state, seat)
        if v["pending"] is not None and "options" not in v["pending"]:
            v["pending"]["options"] = [{"key": "x", "label": "x"}]
        return v
    assert any("pending options" in p for p in check_playouts(secrets, random_playout, range(10), leaky))


def test_visible_cards_matches_the_declared_visibility(secrets, random_playout):
    for seed in range(10):
        for state, _ in random_playout(secrets, seed):
            for seat in [None, 0, 1]:
                must_see, _ = expected_visibility(secrets, state, seat)
                assert visible_cards(secrets, state, seat) == must_see


def test_the_owner_sees_its_own_zone_and_the_other_seat_only_a_count(mini):
    state = mini.apply(mini.new_game(seed=3), "take r1c1")
    taken = mini.m.cards[state["z"][mini.m.player_zones["purse"][0].id][0]].key
    mine, theirs = view(mini, state, 0), view(mini, state, 1)
    assert mine["zones"]["purse.p1"] == {"count": 1, "cards": [taken]}
    assert theirs["zones"]["purse.p1"] == {"count": 1}
    assert view(mini, state, None)["zones"]["purse.p1"] == {"count": 1}
    assert "cards" not in mine["zones"]["bag"] and mine["zones"]["bag"]["count"] == len(state["z"][mini.m.zone_by_name["bag"].id])


def _secrets_state(secrets, *actions, seed=1):
    state = secrets.new_game(seed=seed)
    for a in actions:
        state = secrets.apply(state, a)
    return state


def _hand(secrets, state, seat):
    zone = secrets.m.player_zones["hand"][seat]
    return [secrets.m.cards[i].key for i in state["z"][zone.id]]


def test_a_top_zone_shows_only_its_top_card(secrets):
    state = secrets.new_game(seed=2)
    first, second = [k for k in _hand(secrets, state, 0) if not k.startswith("badge")][:2]
    state = secrets.apply(state, f"play {first}")
    state = secrets.apply(state, f"play {second}")
    state = secrets.apply(state, "clear")  # both go to the discard, the later one on top
    discard = [secrets.m.cards[i].key for i in state["z"][secrets.m.zone_by_name["discard"].id]]
    assert len(discard) == 2
    for seat in (None, 0, 1):
        v = view(secrets, state, seat)
        assert v["zones"]["discard"] == {"count": 2, "top": discard[0]}
        assert json.dumps(discard[1]) not in json.dumps(v)


def test_card_variables_only_for_visible_cards_and_hidden_references_are_masked(secrets):
    state = secrets.new_game(seed=4)
    played, buried = [k for k in _hand(secrets, state, 0) if not k.startswith("badge")][:2]
    state = secrets.apply(state, f"play {played}")
    v = view(secrets, state, 1)
    assert v["cards"][played] == {"flipped": True}
    assert v["vars"]["last"] == played
    state = secrets.apply(state, f"bury {buried}")  # onto a face-down cell
    for seat in (None, 0, 1):
        v = view(secrets, state, seat)
        assert buried not in v["cards"]
        assert v["vars"]["last"] is None  # a reference to a hidden card is masked
        assert v["players"]["p1"]["vars"]["secret"] is None
        assert json.dumps(buried) not in json.dumps(v)
    assert state["pv"]["secret"][0] is not None  # the state itself still knows


def test_a_zone_with_owner_visibility_and_no_owner_is_seen_by_nobody(secrets):
    state = secrets.new_game(seed=5)
    card = [k for k in _hand(secrets, state, 0) if not k.startswith("badge")][0]
    state = secrets.apply(state, f"lock {card}")
    for seat in (None, 0, 1):
        assert view(secrets, state, seat)["zones"]["vault"] == {"count": 1}


def test_only_the_chooser_sees_the_options_of_a_pending_choice(secrets):
    state = _secrets_state(secrets, "ask")  # p1 asks, p2 chooses
    assert secrets.current_player(state) == 1
    chooser, asker, spectator = view(secrets, state, 1), view(secrets, state, 0), view(secrets, state, None)
    assert chooser["pending"]["options"] == [{"key": str(n), "label": str(n)} for n in (1, 2, 3)]
    for v in (asker, spectator):
        assert v["pending"] == {"player": "p2", "prompt": "guess a number", "optional": False}
    assert chooser["flow"]["deciding"] == "p2" and chooser["flow"]["turn"] == "p1"


def test_a_choice_among_own_hidden_cards_is_shown_only_to_its_owner(secrets):
    state = _secrets_state(secrets, "toss")
    hand = _hand(secrets, state, 0)
    mine = view(secrets, state, 0)
    assert sorted(o["key"] for o in mine["pending"]["options"]) == sorted(hand)
    for seat in (None, 1):
        text = json.dumps(view(secrets, state, seat))
        assert not any(json.dumps(k) in text for k in hand)


def test_flow_round_turn_and_step(mini):
    state = mini.new_game(seed=1)
    assert view(mini, state, 0)["flow"] == {"phase": "play", "round": 1, "order": ["p1", "p2"], "turn": "p1",
                                           "step": "pick", "deciding": "p1"}
    state = mini.apply(state, "done")
    assert view(mini, state, None)["flow"]["turn"] == "p2"


def test_variables_are_public(mini):
    state = mini.apply(mini.new_game(seed=1), "take r1c1")
    v = view(mini, state, 1)
    assert v["players"]["p1"]["vars"]["score"] == state["pv"]["score"][0] > 0
    assert v["players"]["p2"]["name"] == "Player 2"
    assert set(v["zone_vars"]) == {z.key for z in mini.m.zones}


def test_a_view_does_not_change_the_state(secrets, random_playout):
    for state, _ in random_playout(secrets, 7):
        before = to_json(state)
        for seat in (None, 0, 1):
            view(secrets, state, seat)
            visible_cards(secrets, state, seat)
        assert to_json(state) == before


@pytest.mark.parametrize("seat", [-1, 2, "p1", 1.0, True])
def test_an_unknown_seat_is_refused(mini, seat):
    with pytest.raises(ValueError, match="no seat"):
        view(mini, mini.new_game(seed=1), seat)


def test_views_know_no_game_by_name():
    """interpreter/information/views.py works from declarations only: no card or zone name of a test game in it."""
    source = (Path(views.__file__)).read_text(encoding="utf-8")
    words = set(re.findall(r"[a-z_]+", source))
    for fixture in ("mini", "secrets"):
        from interpreter.ruleset.loader import load_ruleset
        rs = load_ruleset(str(Path(__file__).parent / "fixtures" / fixture))
        names = set(rs.cards) | set(rs.zones)
        assert not (names & words), f"views.py mentions {sorted(names & words)} of {fixture}"


def test_a_prompt_naming_a_hidden_card_does_not_reveal_it(make_game):
    game = make_game("""
        game: {name: t, players: {min: 2, max: 2}}
        cards: {coin: {copies: 3}}
        zones: {hand: {per_player: true, visibility: owner}}
        flow:
          setup: "for c in cards do move c to hand(seat(1)) end"
        actions:
          offer:
            effect: |
              let c = first(me.hand.cards)
              choose n from [1, 2] by me.next prompt "how much for {c}?"
          end_turn: {effect: finish turn}
    """)
    state = game.apply(game.new_game(seed=1), "offer")
    assert game.current_player(state) == 1
    text = json.dumps(view(game, state, 1))
    assert not any(json.dumps(c.key)[1:-1] in text for c in game.m.cards)
