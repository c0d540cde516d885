"""Shared fixtures: games built from YAML text, the bundled test games, random playouts."""
from __future__ import annotations

import gc
import os
import random
import shutil
import tempfile
import textwrap
from pathlib import Path

import pytest

from interpreter.engine.game import Game

FIXTURES = Path(__file__).parent / "fixtures"


def pytest_configure(config):
    """The tests read and write a disk cache of their own (interpreter/ruleset/cache.py), shared by the
    xdist workers (started after this, they inherit it) and removed at the end. The table speaks
    English in the tests, whatever the machine's locale (a test asks for French with --lang fr)."""
    os.environ["LANGUAGE"] = "en"
    # A test process holds far more than a game (every bundled ruleset read at collection, what the
    # tests before kept): with the default thresholds (700, 10, 10) the cyclic collector walks it all
    # every few thousand states, a quarter of the CPU of some files. Young objects are let pile up
    # longer (each worker sets this: it runs this hook too); a test that needs a cycle freed calls
    # gc.collect() itself.
    gc.set_threshold(50_000, 20, 10)
    # Imported while the process is small: on import, hypothesis's plugins (trio's) run a full
    # gc.collect(), ~1 s when a test module imports it after the rulesets are read.
    __import__("hypothesis")
    # At its end pytest collects the heap five times over for unraisable exceptions (a second or more
    # each in a worker holding every ruleset); once finds what a __del__ raised as well.
    try:
        from _pytest.unraisableexception import gc_collect_iterations_key
    except ImportError:  # another pytest: its own default
        pass
    else:
        config.stash[gc_collect_iterations_key] = 1
    if "INTERPRET_CACHE_DIR" not in os.environ:
        os.environ["INTERPRET_CACHE_DIR"] = tempfile.mkdtemp(prefix="interpret-test-cache-")
        config._interpret_cache_dir = os.environ["INTERPRET_CACHE_DIR"]


def pytest_unconfigure(config):
    made = getattr(config, "_interpret_cache_dir", None)
    if made:
        shutil.rmtree(made, ignore_errors=True)


def pytest_addoption(parser):
    parser.addoption("--fuzz-long", action="store_true", default=False,
                     help="run the hypothesis fuzz tests with many more examples")
    parser.addoption("--leak-long", action="store_true", default=False,
                     help="play many more games in the twin-state leak test (tests/test_observation.py)")
    parser.addoption("--golden-all", action="store_true", default=False,
                     help="replay every golden game (tests/golden), not only the first of each configuration")
    parser.addoption("--agents-long", action="store_true", default=False,
                     help="check the agents' no-cheating test at many more decisions, with larger budgets")
    parser.addoption("--strength", action="store_true", default=False,
                     help="run the bounded strength matches of the agents (benchmarks/strength.py)")


@pytest.fixture(scope="session")
def fuzz(request) -> dict:
    """Hypothesis settings of the fuzz tests: by default a fixed set of 200 examples each (the
    suite gives the same answer every run); with --fuzz-long, 5000 fresh random ones."""
    long = request.config.getoption("--fuzz-long")
    return {"max_examples": 5000 if long else 200, "derandomize": not long}


@pytest.fixture
def write_game(tmp_path):
    """write_game(text, files={name: text}) -> the folder of a game written from YAML text."""
    counter = [0]

    def write(text: str, files: dict | None = None) -> Path:
        counter[0] += 1
        root = tmp_path / f"game{counter[0]}"
        root.mkdir()
        (root / "game.yaml").write_text(textwrap.dedent(text), encoding="utf-8")
        for name, body in (files or {}).items():
            (root / name).write_text(textwrap.dedent(body), encoding="utf-8")
        return root
    return write


@pytest.fixture
def make_game(write_game):
    """make_game(text, files=None, players=None, options=None) -> a loaded Game."""
    def make(text: str, files: dict | None = None, players: int | None = None, options: dict | None = None) -> Game:
        return Game.load(str(write_game(text, files)), players=players, options=options)
    return make


@pytest.fixture(scope="session")
def mini() -> Game:
    return Game.load(str(FIXTURES / "mini"))


@pytest.fixture(scope="session")
def secrets() -> Game:
    return Game.load(str(FIXTURES / "secrets"))


def playout(game: Game, seed: int, max_steps: int = 300):
    """Yield (state, action) along a random game: random legal actions from random.Random(seed).

    The last state is yielded with action None. States are fresh objects (apply copies).
    """
    rnd = random.Random(seed)
    state = game.new_game(seed=seed)
    for _ in range(max_steps):
        if game.is_terminal(state):
            break
        action = rnd.choice(game.legal_actions(state))
        yield state, action
        state = game.apply(state, action)
    yield state, None


@pytest.fixture(scope="session")
def random_playout():
    return playout


def play_checked(game: Game, seed: int, *, max_steps: int = 5000, each=None):
    """A whole random game from `seed`, the invariants checked after every move: returns the final
    state and the actions. `each(state, action, step)` adds checks of its own after each move."""
    rnd = random.Random(seed)
    state = game.new_game(seed)
    actions = []
    for step in range(max_steps):
        if game.is_terminal(state):
            return state, actions
        legal = game.legal_actions(state)
        assert legal, f"seed {seed} step {step}: no legal action in a live game ({game.step_name(state)})"
        action = rnd.choice(legal)
        state = game.apply(state, action)
        actions.append(action)
        bad = game.check_invariants(state)
        assert bad == [], f"seed {seed} step {step} after {action}: {bad}"
        if each is not None:
            each(state, action, step)
    pytest.fail(f"seed {seed}: no end after {max_steps} decisions")


@pytest.fixture(scope="session")
def checked_playout():
    """`checked_playout(game, seed, max_steps=..., each=...)`: see play_checked."""
    return play_checked


@pytest.fixture(autouse=True)
def _saved_games_in_tmp(tmp_path_factory, monkeypatch):
    """`interpret play` saves a game with a human under $XDG_STATE_HOME: keep the tests' saves out of $HOME."""
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path_factory.mktemp("state")))
