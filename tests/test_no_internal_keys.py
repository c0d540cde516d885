"""No internal key reaches a player's screen (issue 27, item 4).

Over every bundled game and variant, a seeded game is played by bots to its end, and at every
decision what each seat is shown is read: the board as `interpret play` draws it for that seat,
the narration it is told (moves, the rules' messages, events, the end screen), and the choices
the deciding seat is offered (as the human's list groups them). None of it may hold an internal
key: a card's key (`satellite#2.p1`), a rules identifier (`cia_deck`, `depart_1_11`), the name of
a card, zone or window whose content gives it a title (`n4` for the card titled `4`), a YAML file
or a position in one (`file:line:col`), or an error drawn in place of a text (`<RuleRuntimeError`).
The real render, narration and choice code is driven (play.render, play.narration, play.human).
"""
from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from interpreter.engine.game import Game
from interpreter.play.human import choices_for, grouped
from interpreter.play.narration import Narrator
from interpreter.play.render import Renderer
from bundled import cached_ruleset

CONTENT = Path(__file__).resolve().parent.parent / "content"

# a card's key (a copy's number), a rules identifier, a YAML file, a position, an error in a text
INTERNAL = re.compile(r"\w+#\d+|\b[A-Za-z][A-Za-z0-9]*(?:_[A-Za-z0-9]+)+\b|\w+\.ya?ml\b|:\d+:\d+\b|<\w*Error\b")
OPTIONS = {"agent-dog": {"rounds": "4"}}  # ruling D9's bound: a game of a few rounds ends (and shows its end)


def configurations():
    for folder in sorted(p for p in CONTENT.iterdir() if (p / "game.yaml").exists()):
        variants = sorted(v.stem for v in (folder / "variants").glob("*.yaml")) if (folder / "variants").is_dir() else []
        for variant in [None, *variants]:
            rs = cached_ruleset(folder.name, variants=[variant] if variant else [])
            lo, hi = rs.player_range
            yield folder.name, variant, min(hi, 6) if folder.name != "agents-secrets" else lo + 1  # odd: the +7 shows


CONFIGS = list(configurations())


def titled_names(game) -> set[str]:
    """The rules' names of the cards, zones and windows whose content gives a title, when they are
    not words (`n4`, `grey_2`): a player reads the title, never the name."""
    rs = game.catalog.ruleset
    windows = ((rs.flow or {}).get("turn") or {}).get("windows") or ()
    entries = [*rs.cards.items(), *rs.zones.items(), *((w.get("name"), w) for w in windows if isinstance(w, dict))]
    return {str(name) for name, spec in entries  # (a name that is a word, `satellite`, may be read as one)
            if isinstance(spec, dict) and spec.get("title") and str(spec["title"]) != str(name)
            and re.search(r"\d|_", str(name))}


def internal_keys(text: str, names: set[str]) -> list[str]:
    found = [m.group(0) for m in INTERNAL.finditer(text)]
    words = set(re.findall(r"[\w#.]+", text))
    return found + sorted(w for w in names if w in words)


class Screens:
    """Everything each seat is shown along one game, checked as it is drawn."""

    def __init__(self, game):
        self.game = game
        self.renderer = Renderer(game)
        self.names = titled_names(game)
        self.lines: list[str] = []
        self.narrators = [Narrator(game, self.renderer, viewer=seat, out=self._told) for seat in range(game.num_players)]
        self.problems: list[str] = []
        self.checked = 0

    def _told(self, *parts) -> None:
        self.lines.extend(str(p) for p in parts)

    def check(self, text: str, where: str) -> None:
        self.checked += 1
        keys = internal_keys(text, self.names)
        if keys and len(self.problems) < 20:
            line = next((line for line in text.splitlines() if any(k in line for k in keys)), text)
            self.problems.append(f"{where}: {sorted(set(keys))} in {line.strip()!r}")

    def told(self, where: str) -> None:
        for line in self.lines:
            self.check(line, where)
        self.lines.clear()


def play_and_read(name, variant, players, seed=1) -> Screens:
    game = Game.load(name, players=players, variants=[variant] if variant else [], options=OPTIONS.get(name))
    screens = Screens(game)
    r = screens.renderer
    st = game.new_game(seed=seed)
    rng = random.Random(seed)
    for narrator in screens.narrators:
        narrator.start(st, seed, ["random"] * players)
    screens.told("the start")
    n = 0
    while not game.is_terminal(st):
        p = game.current_player(st)
        where = f"decision {n + 1}"
        for seat in range(players):
            screens.check(r.screen(st, seat), f"{where}, seat {seat + 1}'s board")
        if p is not None and p >= 0:
            for item in grouped(choices_for(game, r, st, p)):
                screens.check(item.label, f"{where}, seat {p + 1}'s choices")
        action = rng.choice(game.legal_actions(st))
        labels = [narrator.hide(st, p, "", action) for narrator in screens.narrators]
        step = game.apply_in_place(st, action)
        n += 1
        for narrator, label in zip(screens.narrators, labels):
            narrator.move(st, n=n, player=p, label=label, events=step.events)
        screens.told(f"{where}, narration")
    for narrator in screens.narrators:
        narrator.result(st, n)
    screens.told("the end screen")
    return screens


@pytest.mark.parametrize("name,variant,players", CONFIGS, ids=[f"{g}-{v or 'base'}-{p}" for g, v, p in CONFIGS])
def test_no_internal_key_on_any_screen(name, variant, players):
    screens = play_and_read(name, variant, players)
    for seed in range(2, 12):  # a short game (a hand of poker) is read over several seeded games
        if screens.checked > 50:
            break
        more = play_and_read(name, variant, players, seed=seed)
        screens.checked += more.checked
        screens.problems += more.problems
    assert screens.checked > 50, "too little was read: the test proves nothing"
    assert screens.problems == [], "\n".join(screens.problems)


def test_the_check_finds_what_it_looks_for():
    names = {"n4", "cia_deck"}
    assert internal_keys("give n4 to Chloé", names) == ["n4"]
    assert internal_keys("cia_deck  9 cards", names) == ["cia_deck", "cia_deck"]
    assert internal_keys("target satellite#2.p1 in r2c1", set()) == ["satellite#2"]
    assert internal_keys("<RuleRuntimeError: dark-agent/attack.yaml:38:5: x>", set())
    assert internal_keys("give 4 to Chloé · r1c13 · S1/p3 · Départ 1/11 · _ finish", names) == []


def test_the_check_catches_a_screen_without_display_names(monkeypatch):
    """Without the content's titles (labels.DisplayNames), the Agents Secrets board shows its zones'
    keys and Agent DOG's give step the cards' names: the test sees both."""
    from interpreter.information import labels
    monkeypatch.setattr(labels, "_titles", lambda section: {})
    for name, players, expected in (("agents-secrets", 5, "cia_deck"), ("agent-dog", 4, "depart_")):
        game = Game.load(name, players=players, options=OPTIONS.get(name))
        screens = Screens(game)
        screens.names = titled_names(game)
        st = game.new_game(seed=1)
        rng = random.Random(1)
        for _ in range(40):
            p = game.current_player(st)
            screens.check(screens.renderer.screen(st, p), "board")
            for item in choices_for(game, screens.renderer, st, p):
                screens.check(item.label, "choices")
            game.apply_in_place(st, rng.choice(game.legal_actions(st)))
        assert any(expected in problem for problem in screens.problems), screens.problems
