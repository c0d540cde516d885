"""The evaluation learnt from the lab's own games (issue 29, item 3): features from what each seat sees,
a model fitted and judged on held-back games, stored beside the content and checked before use, and
the search's cut-offs judged by it (`ismcts:...,eval=learnt`)."""
from __future__ import annotations

import json
import random
import shutil

import pytest

from interpreter.agents import ISMCTSAgent, make_agent, make_decision, parse_spec
from interpreter.agents.features import Key, Reader
from interpreter.agents.learnt import EvaluationFileError, LearntEvaluator, load_model, model_path, read_file
from interpreter.agents.spec import AgentSpecError
from interpreter.analysis.learn import fit_model, record, store
from interpreter.engine.game import Game
from interpreter.play import cli
from interpreter.ruleset.paths import content_dir

from test_var_visibility import GAME as VARIABLES_GAME
from test_views_side import GAME as SIDES_GAME, PARITY

# The fitted tic-tac-toe model is built once, on one worker (--dist loadgroup, pyproject.toml)
pytestmark = pytest.mark.xdist_group("test_learnt_eval")


def positions(game, *, seed: int, every: int = 1, limit: int = 400):
    """The states of a random game, every `every` decisions."""
    rng = random.Random(seed)
    st = game.new_game(seed=seed)
    n = 0
    while not game.is_terminal(st) and n < limit:
        if n % every == 0:
            yield st
        acts = game.legal_actions(st)
        game.apply_in_place(st, acts[rng.randrange(len(acts))])
        n += 1
    yield st


# ---- features: what each seat sees, and only that ----------------------------------------------------

GAMES = [("dark-agent", 4, ()), ("dark-agent", 3, ("teams",)), ("agents-secrets", 6, ()), ("agent-dog", 4, ()),
         ("tic-tac-toe", 2, ()), ("connect-four", 2, ())]


@pytest.mark.parametrize("name,players,variants", GAMES)
def test_the_fast_reading_is_the_observations(name, players, variants):
    """The search's reading (from the state, through the visibility rules) gives every seat exactly the
    features its observation gives."""
    game = Game.load(name, players=players, variants=variants)
    reader = Reader(game)
    checked = 0
    for st in positions(game, seed=3, every=7):
        fast = reader.fast(st)
        for s in range(game.num_players):
            assert fast[s] == reader.features(game.observe(st, s), s), (name, s, st["flow"])
            checked += 1
    assert checked > 2 * players


def test_the_fast_reading_follows_side_zones_and_hidden_variables(make_game):
    """Zones shown by side (no bundled game has one) and variables shown to their owner or to nobody."""
    for text in (SIDES_GAME.replace("scoring:\n", "scoring:\n" + PARITY), VARIABLES_GAME):
        game = make_game(text)
        reader = Reader(game)
        for st in positions(game, seed=1):
            fast = reader.fast(st)
            for s in range(game.num_players):
                assert fast[s] == reader.features(game.observe(st, s), s)
    game = make_game(VARIABLES_GAME)
    st = game.apply(game.new_game(seed=1), "scheme")
    mine = Reader(game).fast(st)
    assert mine[0][Key("player variable", variable="secret")] == 4242  # the owner's own
    assert Key("game variable", variable="plan") not in mine[0]  # hidden from everyone


@pytest.mark.parametrize("name,players", [("dark-agent", 4), ("agent-dog", 4), ("agents-secrets", 6)])
def test_what_a_seat_cannot_see_does_not_change_its_features(name, players):
    """The hidden cards dealt again (a determinization for seat s: the others' hands or equipment, the
    decks, the identities, the gifts) leave s's features as they were; the other seats', who see their
    own cards, change (a positive control: the swap did something a reader of the state would see)."""
    game = Game.load(name, players=players)
    reader = Reader(game)
    rng = random.Random(0)
    others_changed = 0
    for st in positions(game, seed=11, every=25):
        for s in range(players):
            before = reader.fast(st)
            seen = reader.features(game.observe(st, s), s)
            for _ in range(2):
                swapped = game.determinize(st, s, rng)
                after = reader.fast(swapped)
                assert after[s] == before[s]
                assert reader.features(game.observe(swapped, s), s) == seen
                others_changed += sum(after[t] != before[t] for t in range(players) if t != s)
    assert others_changed > 0


def test_features_are_named_in_the_contents_words():
    game = Game.load("dark-agent", players=4)
    st = next(iter(positions(game, seed=2, every=1, limit=1)))
    names = {Key(*k).text() for k in Reader(game).fast(st)[0]}
    assert "cards in their equipment" in names and "their score" in names and "the round" in names
    assert any(n.startswith("their spy") and n.endswith("on the board") for n in names)
    assert not any("#" in n or ".p1" in n for n in names)  # no card or zone key


# ---- fitting and judging -------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def ttt_fit():
    game = Game.load("tic-tac-toe")
    games = record(game, games=40, seed=0, every=1)
    return game, fit_model(games, game=game)


def test_the_fit_is_judged_on_games_it_did_not_see(ttt_fit):
    game, fit = ttt_fit
    assert (fit.train_games, fit.test_games) == (30, 10)
    t = fit.test
    assert t["rows"] > 0 and 0.0 <= t["leader"] <= 1.0 and t["chance"] == 0.5
    text = fit.report()
    assert "R² of the final score" in text and "held back: 10 games" in text
    assert "the predicted leader is a winner" in text
    # the held-back games are the last ones: a model fitted on 30 games predicts the 10 others
    assert fit.test["leader"] > fit.test["chance"]  # tic-tac-toe's first mover wins more: the model knows


def test_a_stored_model_is_read_back_and_predicts_the_same(ttt_fit, tmp_path):
    game, fit = ttt_fit
    path = tmp_path / "evaluation.json"
    store(path, fit.entry(game, command="interpret learn-eval tic-tac-toe"), game_name="tic-tac-toe")
    model = load_model(game, path)
    assert model.temperature == pytest.approx(fit.temperature, rel=1e-5)
    reader = Reader(game)
    for st in positions(game, seed=5):
        for s, f in enumerate(reader.fast(st)):
            assert model.predict(f) == pytest.approx(fit.predict(f), abs=1e-4)
    doc = read_file(path)
    assert doc["models"][0]["fit"]["command"] == "interpret learn-eval tic-tac-toe"
    assert all("text" in f for f in doc["models"][0]["features"])
    store(path, fit.entry(game, command="again"), game_name="tic-tac-toe")  # the same players: replaced
    assert [m["fit"]["command"] for m in read_file(path)["models"]] == ["again"]


# ---- the file is input: checked, with a clear error -----------------------------------------------------

def _entry(**change):
    entry = {"players": 2, "options": {}, "variants": [], "target": "final score", "intercept": 0.5,
             "temperature": 1.0, "features": [{"kind": "cards", "zone": "supply", "weight": 0.1}],
             "fit": {"command": "x"}}
    entry.update(change)
    return entry


@pytest.mark.parametrize("body,words", [
    ("{not json", ["not JSON"]),
    (json.dumps({"format": 1, "game": "tic-tac-toe", "models": [_entry(temperature="hot")]}),
     ["/models/0/temperature", "schemas/evaluation.schema.json"]),
    (json.dumps({"format": 1, "game": "tic-tac-toe", "models": [_entry(features=[{"kind": "cards", "weight": 1}])]}),
     ["/models/0/features/0", "'zone' is a required property"]),
    (json.dumps({"format": 1, "game": "tic-tac-toe",
                 "models": [_entry(features=[{"kind": "cards", "zone": "hand", "weight": 1}])]}),
     ["feature 1 (cards in their hand)", "no zone 'hand'"]),
    (json.dumps({"format": 1, "game": "tic-tac-toe",
                 "models": [_entry(features=[{"kind": "player variable", "variable": "gold", "weight": 1}])]}),
     ["feature 1 (their gold)", "no player variable 'gold'"]),
    (json.dumps({"format": 1, "game": "tic-tac-toe", "models": [_entry(players=3)]}),
     ["no model for 2 players", "it has: 3 players", "interpret learn-eval tic-tac-toe --players 2"]),
    (json.dumps({"format": 1, "game": "connect-four", "models": [_entry()]}), ["a model of 'connect-four'"]),
])
def test_a_bad_file_is_refused_with_its_name_and_the_fault(tmp_path, body, words):
    game = Game.load("tic-tac-toe")
    path = tmp_path / "evaluation.json"
    path.write_text(body, encoding="utf-8")
    with pytest.raises(EvaluationFileError) as e:
        load_model(game, path)
    assert str(path) in str(e.value)
    for w in words:
        assert w in str(e.value)


def test_the_table_says_what_is_wrong_with_the_file_not_an_internal_error(tmp_path, capsys):
    folder = tmp_path / "tic-tac-toe"
    shutil.copytree(content_dir() / "tic-tac-toe", folder)
    (folder / "evaluation.json").write_text('{"format": 1, "game": "tic-tac-toe", "models": [{"players": 2}]}')
    code = cli.main(["simulate", str(folder), "--games", "1", "--seat", "1=ismcts:5,eval=learnt"])
    err = capsys.readouterr().err
    assert code == 1, err
    assert "evaluation.json" in err and "/models/0" in err and "internal error" not in err


def test_workers_in_processes_say_the_model_is_missing_without_a_traceback(capfd):
    """`@2` forks a worker: a missing model is said once by the table, not as a worker's traceback."""
    code = cli.main(["simulate", "connect-four", "--games", "1", "--seat", "1=ismcts:5@2,eval=learnt"])
    err = capfd.readouterr().err
    assert code == 1, err
    assert "no learnt evaluation" in err and "Traceback" not in err and "internal error" not in err


# ---- the search uses it -------------------------------------------------------------------------------

def test_the_agent_specification_names_the_evaluation():
    spec = parse_spec("ismcts:1s,eval=learnt")
    assert (spec.kind, spec.seconds, spec.evaluation) == ("ismcts", 1.0, "learnt")
    assert str(spec) == "ismcts:1s,eval=learnt" and parse_spec(str(spec)) == spec
    assert parse_spec("ismcts@all,eval=learnt").workers >= 1 and parse_spec("ismcts@all,eval=learnt").evaluation == "learnt"
    assert parse_spec("hard,eval=learnt").evaluation == "learnt"  # a level takes an evaluation after it
    assert parse_spec("ismcts:2s").evaluation == "plain" and str(parse_spec("ismcts:2s,eval=plain")) == "ismcts:2s"
    for bad in ("greedy,eval=learnt", "ismcts,eval=magic", "ismcts,depth=3"):
        with pytest.raises(AgentSpecError):
            parse_spec(bad)


def test_a_cut_off_is_judged_by_the_learnt_model(ttt_fit, tmp_path):
    game0, fit = ttt_fit
    folder = tmp_path / "tic-tac-toe"
    shutil.copytree(content_dir() / "tic-tac-toe", folder)
    game = Game.load(str(folder))
    store(model_path(game), fit.entry(game, command="x"), game_name="tic-tac-toe")
    agent = make_agent("ismcts:20,eval=learnt", seed=1)
    assert isinstance(agent, ISMCTSAgent)
    ev = agent.evaluator(game)
    assert isinstance(ev, LearntEvaluator)
    reader = Reader(game)
    st = game.new_game(seed=0)
    game.apply_in_place(st, game.legal_actions(st)[4])
    assert ev.heuristic(st) == pytest.approx([fit.predict(reader.features(game.observe(st, s), s)) for s in range(2)],
                                             abs=1e-4)
    assert ev.heuristic(st) != game.estimates(st)
    agent.act(make_decision(game, st))  # a search runs on it
    assert agent.stats["iterations"] == 20
    plain = make_agent("ismcts:20", seed=1).evaluator(game)
    assert not isinstance(plain, LearntEvaluator)
    with pytest.raises(EvaluationFileError, match="Connect four has no learnt evaluation.*interpret learn-eval "
                                                   "connect-four --players 2"):
        make_agent("ismcts:20,eval=learnt", seed=1).evaluator(Game.load("connect-four"))


@pytest.mark.parametrize("name", ["dark-agent"])
def test_the_committed_models_load_for_their_games(name):
    path = content_dir() / name / "evaluation.json"
    doc = read_file(path)
    for entry in doc["models"]:
        game = Game.load(name, players=entry["players"], options=entry["options"], variants=entry["variants"])
        model = load_model(game)
        assert model.weights and entry["fit"]["command"].startswith(f"interpret learn-eval {name}")


# ---- the command ----------------------------------------------------------------------------------------

def test_learn_eval_reports_on_held_back_games_and_writes_the_model(tmp_path, capsys):
    out = tmp_path / "ev.json"
    code = cli.main(["learn-eval", "tic-tac-toe", "--games", "12", "--seed", "4", "--every", "5", "--out", str(out),
                     "-q"])
    text = capsys.readouterr().out
    assert code == 0
    assert "held back: 3 games" in text and "R² of the final score" in text
    assert "command: interpret learn-eval tic-tac-toe --players 2 --games 12 --seed 4 --bots random" in text
    assert f"wrote {out}" in text

    def strict(word):
        raise AssertionError(f"{word} in a JSON file")
    json.loads(out.read_text(), parse_constant=strict)  # plain JSON: an empty third of the game is null, not NaN
    entry = read_file(out)["models"][0]
    assert entry["fit"]["seed"] == 4 and entry["fit"]["test_games"] == 3


def test_learn_eval_can_start_from_an_analyze_folder(tmp_path, capsys):
    runs = tmp_path / "runs"
    assert cli.main(["analyze", "tic-tac-toe", "--games", "12", "--seed", "4", "--out", str(runs), "-q"]) == 0
    a, b = tmp_path / "a.json", tmp_path / "b.json"
    assert cli.main(["learn-eval", "tic-tac-toe", "--from", str(runs), "--out", str(a), "-q"]) == 0
    assert cli.main(["learn-eval", "tic-tac-toe", "--games", "12", "--seed", "4", "--out", str(b), "-q"]) == 0
    capsys.readouterr()
    assert read_file(a) == read_file(b)  # the same games, played again from the folder's seeds
    # a folder whose games do not play again as written is refused
    lines = (runs / "results.jsonl").read_text().splitlines()
    first = json.loads(lines[0])
    first["scores"] = [7, 7]
    (runs / "results.jsonl").write_text("\n".join([json.dumps(first)] + lines[1:]) + "\n")
    assert cli.main(["learn-eval", "tic-tac-toe", "--from", str(runs), "--out", str(a), "-q"]) == 2
    assert "did not play again as recorded" in capsys.readouterr().err
