"""A French table has no English left (issue 27): every bundled game and variant is played twice by
the same seeded bots, once in English and once in French, through the code the terminal draws with
(play.render, play.narration, play.human's choices), and every line a seat is shown is read: the
board of every seat at every decision, the choices of the seat to play, the narration each seat is
told (moves, the rules' messages, events, the end screen), the legend and the rules in short.

A French line is English left over when it is the English line unchanged and holds a word that
is not a name, or when it keeps a word of its English line that no French text uses (the game's
texts.fr.yaml and the interface's catalogue: `deck`, `act`, `goes`). Names are the cards' titles,
the seats' names and the game's title; numbers and cells (`r1c1`) are no words."""
from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from interpreter.engine.game import Game
from interpreter.i18n import LOCALE_DIR, set_language
from interpreter.play.human import choices_for, grouped
from interpreter.play.narration import Narrator
from interpreter.play.render import Renderer
from tests.test_no_internal_keys import CONFIGS, OPTIONS

CONTENT = Path(__file__).resolve().parent.parent / "content"
WORD = re.compile(r"[^\W\d_]{2,}")
# words both languages write alike, allowed in a line the French table shows unchanged
SAME_IN_BOTH = {"score", "ATK", "points"}
SPECS = {"random"}  # a bot's specification on the first line: the command line's words, not translated


def _said(text: str, *, expression: bool = False) -> str:
    """The words a text shows: outside its {expressions}, and the quoted strings inside them (an
    expression's names are not words); an expression's quoted strings only."""
    pieces = [text] if expression else re.findall(r"\{([^{}]*)\}", text)
    quoted = [m.group(1) or m.group(2) or "" for piece in pieces for m in re.finditer(r'"([^"]*)"|\'([^\']*)\'', piece)]
    return " ".join(quoted + ([] if expression else [re.sub(r"\{[^{}]*\}", " ", text)]))


def french_words() -> set[str]:
    """Every word a French text shows: the values of the games' texts.fr.yaml and the interface's
    catalogue (not their keys, comments or expressions)."""
    import yaml
    out = []
    for path in CONTENT.glob("*/texts.fr.yaml"):
        doc = yaml.safe_load(path.read_text(encoding="utf-8"))
        entries = [*doc["texts"].items(), *(e for v in (doc.get("variants") or {}).values() for e in v.items())]
        for key, value in entries:
            values = value if isinstance(value, list) else [value]
            for v in values:
                v = v.get("per_player", "") if isinstance(v, dict) and "per_player" in v else v
                for text in (v.values() if isinstance(v, dict) else [v]):
                    for t in (text.values() if isinstance(text, dict) else [text]):
                        out.append(_said(str(t), expression=key.startswith("functions.")))
    from babel.messages.pofile import read_po
    with open(LOCALE_DIR / "fr" / "LC_MESSAGES" / "interpret.po", "rb") as f:
        for m in (m for m in read_po(f) if m.id):  # (not the header)
            out += [re.sub(r"\{[^{}]*\}", " ", s) for s in (m.string if isinstance(m.string, tuple) else [m.string])]
    return {w.lower() for w in WORD.findall(" ".join(out))}


FRENCH = french_words()


def play(name, variant, players, lang: str, seed: int = 1):
    """(chunks of lines shown, the names of the game) along one seeded game at a table in `lang`."""
    set_language(lang)
    try:
        game = Game.load(name, players=players, variants=[variant] if variant else [], options=OPTIONS.get(name))
        r = Renderer(game)
        told: list[str] = []
        narrators = [Narrator(game, r, viewer=s, out=lambda *parts: told.extend(map(str, parts)))
                     for s in range(players)]
        chunks = []

        def shown(where, lines):
            chunks.append((where, [line for item in lines for line in str(item).splitlines()]))

        st = game.new_game(seed=seed)
        rng = random.Random(seed)
        for narrator in narrators:
            narrator.start(st, seed, ["random"] * players)
        n = 0
        while not game.is_terminal(st):
            p = game.current_player(st)
            for seat in range(players):
                shown(f"decision {n + 1}, seat {seat + 1}'s board", [r.screen(st, seat)])
            if p is not None and p >= 0:
                shown(f"decision {n + 1}, seat {p + 1}'s choices", [c.label for c in grouped(choices_for(game, r, st, p))])
            action = rng.choice(game.legal_actions(st))
            labels = [narrator.hide(st, p, "", action) for narrator in narrators]
            step = game.apply_in_place(st, action)
            n += 1
            for narrator, label in zip(narrators, labels):
                narrator.move(st, n=n, player=p, label=label, events=step.events)
            shown(f"decision {n}, narration", told)
            told.clear()
        for narrator in narrators:
            narrator.result(st, n)
        shown("the end screen", told)
        shown("the legend", r.legend(st, 0))
        shown("the rules", r.rules_lines)
        names = {game.catalog.title, *(s.name for s in game.seats), *r.titles.values()}
        return chunks, SPECS | {w for text in names for w in WORD.findall(str(text))}
    finally:
        set_language("en")


def english_left(english: str, french: str, names: set[str]) -> list[str]:
    """The English words a French line keeps from its English line (none: translated)."""
    words = set(WORD.findall(french)) - names
    if french == english:
        return sorted(words - SAME_IN_BOTH)
    return sorted(w for w in words & set(WORD.findall(english)) if w.lower() not in FRENCH)


def english_lines(name, variant, players) -> list[str]:
    en, _ = play(name, variant, players, "en")
    fr, names = play(name, variant, players, "fr")
    assert [w for w, _ in en] == [w for w, _ in fr], "the two games were not the same game"
    problems, seen = [], set()
    for (where, en_lines), (_, fr_lines) in zip(en, fr):
        if len(en_lines) != len(fr_lines):  # (a translated list has a line for every English one)
            problems.append(f"{where}: {len(fr_lines)} lines in French, {len(en_lines)} in English")
            continue
        for english, french in zip(en_lines, fr_lines):
            left = english_left(english, french, names)
            if left and tuple(left) not in seen:
                seen.add(tuple(left))
                problems.append(f"{where}: {left} in {french.strip()!r}")
    return problems


@pytest.mark.parametrize("name,variant,players", CONFIGS, ids=[f"{g}-{v or 'base'}-{p}" for g, v, p in CONFIGS])
def test_a_french_table_shows_no_english(name, variant, players):
    problems = english_lines(name, variant, players)
    assert problems == [], "\n".join(problems[:30])


def test_the_check_finds_english_left():
    names = {"Anne", "KARA"}
    assert english_left("place a satellite: r0c1", "place a satellite: r0c1", names) == ["place", "satellite"]
    assert english_left("deck     (33) canot", "deck     (33) canot", names) == ["canot", "deck"]
    assert english_left("Dark Agent · step act", "Dark Agent · étape act", names) == ["act"]
    assert english_left("Anne goes to Rio", "Anne va à Rio", names) == []
    assert english_left("  p2 Anne   score   1  ATK 0", "  p2 Anne   score   1  ATK 0", names) == []
    assert english_left("KARA: dice 3, 4", "KARA : dés 3, 4", names) == []
