"""The text paths a language may translate beyond the render section, cards and actions
(interpreter/ruleset/texts.py): the sentences a rule writes (`log "..."`, `prompt "..."`), in
order, at the path of their rule text; a content function that only the table's texts call; a
zone's, a step's and a window's title; and the texts a variant adds, applied after it."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from interpreter.errors import ContentError
from interpreter.ruleset.loader import load_ruleset
from interpreter.ruleset.paths import game_dir
from interpreter.ruleset.texts import said_literals, said_texts, table_functions, text_paths
from tests.test_i18n import french  # noqa: F401  (the table in French for one test)


def _dog(tmp_path, texts: str) -> Path:
    dst = tmp_path / "dog"
    shutil.copytree(game_dir("agent-dog"), dst, ignore=shutil.ignore_patterns("scenarios", "tutorials", "variants"))
    (dst / "texts.fr.yaml").write_text("texts:\n" + texts, encoding="utf-8")
    return dst


def test_the_sentences_of_a_rule_text_are_found_as_the_grammar_reads_them():
    text = ('# log "a comment"\nlet x = "log \\"not one\\""\nlog "{me.name} takes {n}"  # log "no"\n'
            'choose c from cells prompt \'a cell\'\n')
    assert [kind for kind, _, _ in said_literals(text)] == ["log", "prompt"]
    assert said_texts(text) == {"log": ["{me.name} takes {n}"], "prompt": ["a cell"]}


def test_a_rule_speaks_french_and_stays_the_same_rule():
    en, fr = (load_ruleset("agent-dog", language=lang) for lang in ("en", "fr"))
    english, french = str(en.procedures["capture"]["effect"]), str(fr.procedures["capture"]["effect"])
    assert said_texts(french)["log"] == ["{me.name} a pris un pion de son équipe : la manche est finie pour lui "
                                         "à la fin de ce tour"]
    blanked = []
    for text in (english, french):  # but for its sentences, the rule is the same text
        for _, start, end in reversed(said_literals(text)):
            text = text[:start] + '""' + text[end:]
        blanked.append(text)
    assert english != french and blanked[0] == blanked[1]


def test_a_rule_text_gets_as_many_sentences_as_it_writes(tmp_path):
    folder = _dog(tmp_path, '  procedures.capture.effect.log: ["une", "deux"]\n')
    with pytest.raises(ContentError) as e:
        load_ruleset(folder, language="fr")
    assert "texts.fr.yaml:2" in str(e.value) and "gives 2 sentences for the 1 `log`" in str(e.value)


def test_a_mistake_in_a_rule_sentence_is_reported_at_the_rule(tmp_path, french):
    from interpreter import Game
    folder = _dog(tmp_path, '  procedures.capture.effect.log: ["{no_such_name} prend"]\n')
    with pytest.raises(ContentError) as e:
        Game.load(str(folder), players=4)
    assert "moves.yaml:" in str(e.value) and "no_such_name" in str(e.value)


def test_only_a_function_no_rule_calls_may_be_translated(tmp_path):
    rs = load_ruleset("agent-dog", language="en")
    assert "team_names" in table_functions(rs) and "can_enter" not in table_functions(rs)
    assert "functions.team_names.expr" in text_paths(rs) and "functions.can_enter.expr" not in text_paths(rs, required_only=False)
    folder = _dog(tmp_path, '  functions.can_enter.expr: "true"\n')
    with pytest.raises(ContentError) as e:
        load_ruleset(folder, language="fr")
    assert "`functions.can_enter.expr` is not a text of Agent DOG" in str(e.value)


def test_an_event_no_rule_listens_to_carries_words_for_the_table():
    """Agents Secrets' revealed cards are written by a function for the narration only (an event
    no rule handles): its words may be translated."""
    rs = load_ruleset("agents-secrets", language="en")
    assert "revealed_text" in table_functions(rs) and "company_points" not in table_functions(rs)


def test_titles_a_zone_and_a_step_lack_in_english_may_be_given(french):
    from interpreter import Game
    from interpreter.play.render import Renderer
    rs = load_ruleset("dark-agent", language="en")
    assert "title" not in rs.zones["deck"] and {"zones.deck.title", "flow.turn.steps.act.title"} <= set(text_paths(rs))
    g = Game.load("dark-agent", players=4)
    r = Renderer(g)
    screen = r.screen(g.new_game(seed=3), 0)
    assert "pioche " in screen and "réserve d'espions : " in screen and "\ndeck " not in screen
    assert r.step_titles == {"satellites": "satellites", "act": "cibler et agir"}


def test_a_variant_speaks_french_after_it_applies(tmp_path):
    fr = load_ruleset("dark-agent", variants=["teams"], language="fr")
    titles = {w["name"]: w["title"] for w in fr.flow["turn"]["windows"]}
    assert titles == {"gifts": "dons d'équipement", "gifts_now": "dons au joueur dont c'est le tour"}
    assert str(fr.render["players"]).startswith("équipe ")
    assert str(load_ruleset("dark-agent", language="fr").render["players"]) == "ATK {p.atk}"  # not without it
    folder = tmp_path / "da"
    shutil.copytree(game_dir("dark-agent"), folder, ignore=shutil.ignore_patterns("scenarios", "tutorials"))
    with open(folder / "texts.fr.yaml", "a", encoding="utf-8") as f:
        f.write('  eclair:\n    flow.turn.windows.gifts.title: "dons"\n')
    load_ruleset(folder, language="fr")  # the variant is not applied: its texts are not read
    with pytest.raises(ContentError) as e:
        load_ruleset(folder, variants=["eclair"], language="fr")
    assert "`flow.turn.windows.gifts.title` is not a text of Dark Agent with the variant eclair" in str(e.value)


def test_a_refusal_gives_its_reason_in_french(french):
    """A requirement's `reason` is a text the table shows (`why MOVE`, a refused move): translated at
    its path (`actions.play.require.1.reason`), the check itself unchanged."""
    from interpreter import Game
    from interpreter.play.render import Renderer
    rs = load_ruleset("tic-tac-toe", language="en")
    assert "actions.play.require.1.reason" in text_paths(rs)
    g = Game.load("tic-tac-toe")
    st = g.new_game(seed=1)
    g.apply_in_place(st, next(a for a in g.legal_actions(st) if a.args == ("r1c1",)))
    refused = g.refusal(st, "play r1c1", reader=Renderer(g).reader(st, 1))
    assert refused is not None and "r1c1 porte déjà une marque (§2)" in str(refused.reasons), refused.reasons
