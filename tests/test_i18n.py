"""The table in French and in English: the interface's catalogue (interpreter/locale, made by
`python -m interpreter.play.catalog`) and the content's texts per language (texts.fr.yaml,
interpreter/ruleset/texts.py), each complete for the three seed games."""
from __future__ import annotations

import gettext
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("babel")

from interpreter import i18n  # noqa: E402
from interpreter.errors import ContentError  # noqa: E402
from interpreter.play import catalog  # noqa: E402
from interpreter.ruleset.loader import load_ruleset  # noqa: E402
from interpreter.ruleset.paths import game_dir  # noqa: E402
from interpreter.ruleset.texts import read_texts, text_paths  # noqa: E402
from interpreter.errors import ErrorList  # noqa: E402

SEED_GAMES = catalog.SEED_GAMES
ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture
def french():
    i18n.set_language("fr")
    try:
        yield
    finally:
        i18n.set_language("en")


# ---- the interface's catalogue -------------------------------------------------------------

def _entries(cat) -> dict:
    return {catalog.key_of(m.id): m for m in cat if m.id}


def test_every_string_of_the_code_has_a_french_entry():
    found = catalog.extract()
    assert found.problems == []
    assert found.messages, "no _() string found: the extraction reads nothing"
    entries = _entries(catalog.read_catalog("fr"))
    missing = [m for m in found.messages if catalog.key_of(m) not in entries]
    assert missing == [], "run python -m interpreter.play.catalog, then translate the new entries"
    assert catalog.gaps(catalog.read_catalog("fr")) == []


def test_no_french_entry_is_stale_and_the_po_is_what_the_tool_writes():
    found = catalog.extract()
    keys = {catalog.key_of(m) for m in found.messages}
    assert sorted(set(_entries(catalog.read_catalog("fr"))) - keys) == []
    again = catalog.po_bytes(catalog.merged(catalog.read_catalog("fr"), found))
    assert again == catalog.po_path("fr").read_bytes(), "run python -m interpreter.play.catalog"


def test_the_mo_is_the_po_compiled():
    """The compiled catalogue ships in the package (no build step on a fresh `pip install -e .`)."""
    with catalog.mo_path("fr").open("rb") as f:
        compiled = {k: v for k, v in gettext.GNUTranslations(f)._catalog.items() if k != ""}
    expected = {}
    for m in catalog.read_catalog("fr"):
        if not m.id:
            continue
        if isinstance(m.id, tuple):
            expected.update({(m.id[0], i): s for i, s in enumerate(m.string)})
        else:
            expected[m.id] = m.string
    assert compiled == expected


def test_the_gaps_are_found():
    """A msgstr left empty, marked fuzzy, or with other fields is reported."""
    from babel.messages.catalog import Catalog
    cat = Catalog(locale="fr")
    cat.add("{a} plays", "")
    cat.add("{a} wins", "{a} gagne", flags=["fuzzy"])
    cat.add("{a} loses", "{b} perd")
    found = catalog.gaps(cat)
    assert [g.split(":")[0] for g in found] == ["untranslated", "fuzzy (check, then remove the flag)", "other fields than ['a']"]


def test_the_update_keeps_translations_and_retires_gone_strings():
    """A string gone from the code becomes obsolete (#~), and comes back translated if it returns."""
    from babel.messages.catalog import Catalog
    cat = Catalog(locale="fr")
    cat.add("Now:", "En ce moment :")
    cat.add("Gone", "Parti")
    found = catalog.Extracted(messages={"Now:": ["interpreter/x.py"], "New {n}": ["interpreter/x.py"]})
    cat = catalog.merged(cat, found)
    assert {m.id: m.string for m in cat if m.id} == {"Now:": "En ce moment :", "New {n}": ""}
    assert list(cat.obsolete) == ["Gone"]
    found.messages["Gone"] = ["interpreter/y.py"]
    cat = catalog.merged(cat, found)
    assert cat.get("Gone").string == "Parti" and not cat.obsolete


def test_a_string_the_extraction_cannot_read_is_reported(tmp_path):
    pkg = tmp_path / "interpreter"
    pkg.mkdir()
    (pkg / "m.py").write_text('def f(x):\n    return _(f"{x} plays") + _("ok {x}")\n')
    found = catalog.extract(pkg)
    assert list(found.messages) == ["ok {x}"]
    assert found.problems and "m.py:2" in found.problems[0]


def test_set_language_translates_and_english_is_the_code(french):
    assert i18n.language() == "fr"
    assert i18n._("Now:") == "En ce moment :"
    one = "The log ends after {n} decision, before the end of the game."
    many = "The log ends after {n} decisions, before the end of the game."
    assert i18n.ngettext(one, many, 2).format(n=2) == "Le journal s'arrête après 2 décisions, avant la fin de la partie."
    i18n.set_language("en")
    assert i18n._("Now:") == "Now:"


def test_the_default_language_comes_from_the_locale(monkeypatch):
    for var in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(var, raising=False)
    assert i18n.default_language() == "en"
    monkeypatch.setenv("LANG", "fr_FR.UTF-8")
    assert i18n.default_language() == "fr"
    monkeypatch.setenv("LC_ALL", "C.UTF-8")  # LC_ALL comes first
    assert i18n.default_language() == "en"
    monkeypatch.setenv("LANGUAGE", "de:fr")  # a list in order of preference, before the locale
    assert i18n.default_language() == "fr"


# ---- the content's texts -------------------------------------------------------------------

@pytest.mark.parametrize("game", SEED_GAMES)
def test_every_text_of_a_seed_game_has_both_languages(game):
    rs = load_ruleset(game, language="en")
    errors = ErrorList()
    french_texts = read_texts(rs.root, "fr", errors) or {}
    assert errors.problems == []
    paths = text_paths(rs)
    assert any(p.startswith("render.") for p in paths) and any(p.endswith(".text") for p in paths)
    assert [p for p in paths if p not in french_texts] == []
    assert catalog.content_gaps("fr", games=[game]) == []


@pytest.mark.parametrize("game", SEED_GAMES)
def test_a_seed_game_plays_in_french(game, french):
    """Loaded in French, the game's texts are the French file's, its templates compile, and every
    player count builds (the French file gives nothing but texts: the rules are the same)."""
    from interpreter import Game
    from interpreter.play.cli import player_counts
    from interpreter.play.render import Renderer
    rs_fr = load_ruleset(game)
    rs_en = load_ruleset(game, language="en")
    assert rs_fr.render["rules"] != rs_en.render["rules"]
    some_card = next(k for k, v in rs_en.cards.items() if "text" in v)
    assert rs_fr.cards[some_card]["text"] != rs_en.cards[some_card]["text"]
    assert rs_fr.cards[some_card]["props" if "props" in rs_en.cards[some_card] else "tags"] == \
        rs_en.cards[some_card]["props" if "props" in rs_en.cards[some_card] else "tags"]
    for n in player_counts(rs_fr):
        g = Game.load(game, players=n)
        r = Renderer(g)
        st = g.new_game(seed=1)
        assert r.screen(st, 0)
        for action, label in g.legal_actions_with_labels(st):
            assert "{" not in label


VARIANTS = [(g, v.stem) for g in SEED_GAMES for v in sorted((game_dir(g) / "variants").glob("*.yaml"))]


@pytest.mark.parametrize("game,variant", VARIANTS, ids=[f"{g}-{v}" for g, v in VARIANTS])
def test_every_variant_plays_in_french(game, variant, french):
    """Variants apply after the French texts: each builds, its templates compile."""
    from interpreter import Game
    from interpreter.play.render import Renderer
    g = Game.load(game, variants=[variant])
    Renderer(g).screen(g.new_game(seed=1), 0)


def test_french_status_lines_reach_the_screen(french):
    from interpreter import Game
    from interpreter.play.render import Renderer
    g = Game.load("dark-agent", players=4)
    screen = Renderer(g).screen(g.new_game(seed=3), 0)
    assert "premier joueur : " in screen and "votre ATK : 0" in screen
    assert "first player" not in screen


def test_a_secret_choice_is_named_by_its_move_in_french(french):
    """Agents Secrets in French: another seat reads a secret vote by the words of the vote's French
    label (`voter contre`), never by the action's internal name."""
    import random
    from interpreter import Game
    from interpreter.play.narration import Narrator
    from interpreter.play.render import Renderer
    g = Game.load("agents-secrets")
    st, rng = g.new_game(seed=2), random.Random(1)
    while g.step_name(st) != "vote":
        g.apply_in_place(st, rng.choice(g.legal_actions(st)))
    p = g.current_player(st)
    action, label = g.legal_actions_with_labels(st)[1]
    told = Narrator(g, Renderer(g), viewer=(p + 1) % g.num_players).hide(st, p, label, action)
    assert told == "voter contre : un choix secret"


def _game_copy(tmp_path) -> Path:
    dst = tmp_path / "ttt"
    shutil.copytree(game_dir("tic-tac-toe"), dst, ignore=shutil.ignore_patterns("scenarios"))
    return dst


def test_a_texts_entry_that_names_no_text_is_a_problem_at_its_line(tmp_path):
    folder = _game_copy(tmp_path)
    (folder / "texts.fr.yaml").write_text('texts:\n  actions.play.label: "jouer en {cell}"\n'
                                          '  cards.nothing.text: "rien"\n', encoding="utf-8")
    rs = load_ruleset(folder, language="en")
    if "play" not in rs.actions:
        pytest.skip("tic-tac-toe has no move play")
    with pytest.raises(ContentError) as e:
        load_ruleset(folder, language="fr")
    text = str(e.value)
    assert "texts.fr.yaml:3" in text and "cards.nothing.text" in text


def test_a_french_template_keeps_its_own_positions(tmp_path):
    """A mistake in a translated template is reported at its line of texts.fr.yaml."""
    from interpreter import Game
    folder = _game_copy(tmp_path)
    rs = load_ruleset(folder, language="en")
    if "label" not in rs.actions["play"]:
        pytest.skip("tic-tac-toe's move has no label")
    (folder / "texts.fr.yaml").write_text('# a translation\ntexts:\n  actions.play.label: "jouer en {no_such_name}"\n',
                                          encoding="utf-8")
    Game.load(str(folder), players=2)  # English: fine
    i18n.set_language("fr")
    try:
        with pytest.raises(ContentError) as e:
            Game.load(str(folder), players=2)
    finally:
        i18n.set_language("en")
    assert "texts.fr.yaml:3:" in str(e.value)


def test_the_texts_files_are_not_content(tmp_path):
    from interpreter.ruleset.loader import content_files
    names = [p.name for p in content_files(game_dir("dark-agent"))]
    assert "texts.fr.yaml" not in names and "cards.yaml" in names


def test_the_catalogue_command_checks_everything():
    out = subprocess.run([sys.executable, "-m", "interpreter.play.catalog", "--check"], cwd=ROOT,
                         capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stdout + out.stderr
    assert "every string and text has every language" in out.stdout


def test_lang_refuses_a_language_the_table_does_not_speak(tmp_path):
    out = subprocess.run([sys.executable, "-m", "interpreter", "play", "tic-tac-toe", "--auto", "--lang", "de"],
                         cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert out.returncode == 2 and "--lang" in out.stderr


def test_replay_speaks_french(tmp_path):
    log = tmp_path / "g.jsonl"
    run = [sys.executable, "-m", "interpreter"]
    done = subprocess.run(run + ["play", "tic-tac-toe", "--auto", "--seed", "3", "--log", str(log), "--quiet"],
                          cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    out = subprocess.run(run + ["replay", str(log), "--quiet", "--lang", "fr"], cwd=ROOT, capture_output=True,
                         text=True, timeout=120)
    assert "La relecture atteint le résultat enregistré." in out.stdout, out.stdout + out.stderr


@pytest.mark.parametrize("game", ["dark-agent", "agents-secrets", "agent-dog"])
def test_a_translated_list_has_a_line_for_every_english_line(game):
    """A language replaces a whole list (render.rules, legend, status, tiebreaks...): a line added to
    the English list later must not vanish at that language's table (nor a tie-break lose its words)."""
    from interpreter.ruleset.loader import load_ruleset
    from interpreter.ruleset.paths import game_dir
    from interpreter.ruleset.texts import RENDER_TEXTS
    en, fr = (load_ruleset(game_dir(game), language=lang) for lang in ("en", "fr"))
    lists = [key for key in RENDER_TEXTS if isinstance(en.render.get(key), list)]
    assert lists
    assert {k: len(fr.render[k]) for k in lists} == {k: len(en.render[k]) for k in lists}
