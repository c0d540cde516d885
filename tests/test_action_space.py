"""Action ids numbered from the content itself (issue 33, item 6; adapters/action_index.py over
definition/domains.py and reach.py): every legal action of random playouts of every bundled game
and variant has an id that maps back to it, ids are the same in every process, and Dark Agent's
action space is in the thousands."""
from __future__ import annotations

import hashlib
import json
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

from interpreter.adapters.action_index import ActionIndex, ActionSpaceError
from interpreter.core.model import Action
from interpreter.engine.game import Game

ROOT = Path(__file__).resolve().parent.parent

# every bundled game and variant (variants at the player count they are played with)
CASES = [("tic-tac-toe", None, ()), ("connect-four", None, ()), ("kuhn-poker", None, ()), ("leduc-poker", None, ()),
         ("agents-secrets", 6, ()), ("agents-secrets", 6, ("le-monde-est-vaste",)),
         ("agent-dog", None, ()), ("agent-dog", 3, ("2-3-joueurs",)), ("agent-dog", None, ("couleurs-au-choix",)),
         ("dark-agent", 4, ()), ("dark-agent", 4, ("hidden-cards",)), ("dark-agent", 4, ("teams",)),
         ("dark-agent", 4, ("no-dice",)), ("dark-agent", 4, ("eclair",)), ("dark-agent", 4, ("long",)),
         ("dark-agent", 4, ("all-objectives",)), ("dark-agent", 4, ("agences-au-choix",)),
         ("dark-agent", 1, ("solo",)), ("dark-agent", 6, ("expansion-5-10",))]


def test_every_bundled_variant_is_a_case():
    variants = {(p.parent.parent.name, p.stem) for p in ROOT.glob("content/*/variants/*.yaml")}
    assert variants == {(name, v) for name, _, vs in CASES for v in vs}
    assert {p.name for p in (ROOT / "content").iterdir() if (p / "game.yaml").exists()} == {c[0] for c in CASES}


@pytest.mark.parametrize("name,players,variants", CASES, ids=lambda v: "+".join(v) if isinstance(v, tuple) else str(v))
def test_every_legal_action_of_a_random_playout_has_an_id(name, players, variants):
    g = Game.load(name, players=players, variants=list(variants))
    ix = ActionIndex(g)
    rng = random.Random(7)
    st = g.new_game(7)
    for _ in range(150):
        if g.is_terminal(st):
            break
        actions = g.legal_actions(st)
        ids = [ix.id_of(a) for a in actions]
        assert len(set(ids)) == len(ids) and all(0 <= i < ix.size for i in ids)
        assert [ix.action_of(i) for i in ids] == actions
        g.apply_in_place(st, actions[rng.randrange(len(actions))])


def test_each_id_is_one_action_and_back():
    ix = ActionIndex(Game.load("dark-agent", players=4))
    rng = random.Random(1)
    for i in [0, ix.size - 1] + [rng.randrange(ix.size) for _ in range(2000)]:
        assert ix.id_of(ix.action_of(i)) == i
    with pytest.raises(ActionSpaceError):
        ix.action_of(ix.size)
    with pytest.raises(ActionSpaceError):
        ix.id_of(Action("attack", ("no_such_card",)))


def test_dark_agent_numbers_thousands_of_actions_not_millions():
    """Learnt from three seeded games, the space held 3,240,855 ids; numbered from the content's
    domains alone, without where the rules can move each card nor which cards' variables change,
    65,149 (pending choices aside)."""
    ix = ActionIndex(Game.load("dark-agent", players=4))
    assert 1_000 <= ix.size < 20_000
    sizes = ix.sizes()
    assert sizes["exchange_satellite"] == 21 * 21  # only the 21 satellites ever lie in space (reach.py)
    assert sizes["choose"] < 1_000


def _digest_script(name: str, players: int) -> str:
    return ("import hashlib, json; from interpreter.engine.game import Game; "
            "from interpreter.adapters.action_index import ActionIndex; "
            f"ix = ActionIndex(Game.load({name!r}, players={players})); "
            "print(hashlib.sha256(json.dumps([ix.names, sorted((f'{n} {i}', v) for (n, i), v in ix.values.items())])"
            ".encode()).hexdigest())")


def test_ids_are_the_same_in_another_process():
    ix = ActionIndex(Game.load("agents-secrets", players=4))
    here = hashlib.sha256(json.dumps([ix.names, sorted((f"{n} {i}", v) for (n, i), v in ix.values.items())])
                          .encode()).hexdigest()
    env = {**os.environ, "PYTHONHASHSEED": "12345", "PYTHONPATH": str(ROOT)}
    out = subprocess.run([sys.executable, "-c", _digest_script("agents-secrets", 4)], env=env, cwd=ROOT,
                         capture_output=True, text=True, timeout=120, check=True)
    assert out.stdout.strip() == here


pyspiel = pytest.importorskip("pyspiel")


def test_openspiel_says_each_legal_id_and_pettingzoo_masks_have_its_size():
    import interpreter.adapters.openspiel  # noqa: F401  (registers "interpret")
    from interpreter.adapters.pettingzoo import env as pz_env
    game = pyspiel.load_game("interpret(game=agents-secrets,players=6)")
    state = game.new_initial_state()
    rng = random.Random(2)
    seen = 0
    while not state.is_terminal() and seen < 200:
        if state.is_chance_node():
            state.apply_action(rng.choice([o for o, _ in state.chance_outcomes()]))
            continue
        p = state.current_player()
        for i in state.legal_actions():
            assert state.action_to_string(p, i) == str(state._index.action_of(i))
            seen += 1
        state.apply_action(rng.choice(state.legal_actions()))
    assert game.num_distinct_actions() == ActionIndex(Game.load("agents-secrets", players=6)).size < 1_000
    e = pz_env("agents-secrets", players=6)
    e.reset(seed=1)
    agent = e.agent_selection
    mask = e.observe(agent)["action_mask"]
    assert mask.shape == (game.num_distinct_actions(),) and mask.sum() == len(e.game.legal_actions(e._st))
