"""Refusals from the one legality path: every requirement that fails is named, each with its
content reason (and §), written for the seat it is told to; a parameter's conditions (`reasons`)
say why a value is not in its domain, and agree with it; and every bundled game's requirements
have reasons a player can read."""
from __future__ import annotations

import json
import subprocess
import sys

import pytest

from interpreter.engine.game import Game
from interpreter.errors import RefusalKind
from interpreter.play import cli
from interpreter.play.render import Renderer
from interpreter.ruleset.loader import load_ruleset
from interpreter.ruleset.paths import content_dir
from interpreter.ruleset.reasons import uncited_reasons, unreadable_reasons
from interpreter.ruleset.spec import ContentSpec

SEED_GAMES = ("dark-agent", "agents-secrets", "agent-dog")

BAG = """
    game: {name: bag, title: Bag, players: {min: 2, max: 2}}
    cards:
      chip: {copies: 3, start: bag, props: {worth: 1}}
      gem: {copies: 1, start: bag, props: {worth: 5}}
    zones: {bag: {visibility: public}, done: {visibility: public}}
    vars: {player: {tired: {default: false}, score: 0}}
    actions:
      take:
        params:
          c:
            from: bag.cards where it.worth < 5 and it.worth > 0
            reasons:
              - check: c.worth < 5
                reason: "{c} is worth {c.worth}: too much to take (§2)"
              - check: c.worth > 0
                reason: "{c} is worth nothing (§2)"
        require:
          - check: not me.tired
            reason: "you are tired (§3)"
          - me.score >= 0
        effect: move c to done
    flow: {turn: {steps: [{name: take}]}, round: {end: "if done.count == 3 then finish game end"}}
"""


def bundled() -> list:
    """(game, variant or None) for every bundled game and each of its variants."""
    out = []
    for folder in sorted(p for p in content_dir().iterdir() if (p / "game.yaml").exists()):
        variants = sorted(v.stem for v in (folder / "variants").glob("*.yaml")) if (folder / "variants").exists() else []
        out += [(folder.name, None)] + [(folder.name, v) for v in variants]
    return out


@pytest.mark.parametrize("game,variant", bundled(), ids=lambda x: str(x))
def test_every_requirement_of_the_bundled_games_has_a_reason_a_player_can_read(game, variant):
    spec = ContentSpec.of(load_ruleset(content_dir() / game, variants=[variant] if variant else []))
    assert [p.render() for p in unreadable_reasons(spec)] == []
    if game in SEED_GAMES:  # the rulebook's section of each
        assert [p.render() for p in uncited_reasons(spec)] == []


def test_the_check_finds_a_missing_reason_rules_text_and_no_section(write_game):
    folder = write_game(BAG.replace('''        require:
          - check: not me.tired
            reason: "you are tired (§3)"''', '''        require:
          - check: not me.tired
            reason: "me.tired is true"
          - check: me.score < 9
            reason: "too many points"'''))
    spec = ContentSpec.of(load_ruleset(folder))
    unreadable = "\n".join(p.render() for p in unreadable_reasons(spec))
    assert "`me.score >= 0` has no reason" in unreadable and "reads as rules text (`me.`)" in unreadable
    assert "'too many points' cites no section" in "\n".join(p.render() for p in uncited_reasons(spec))


def test_validate_warns_of_a_requirement_without_a_reason(write_game, capsys):
    assert cli.main(["validate", str(write_game(BAG))]) == 0
    out = capsys.readouterr().out
    assert out.startswith("OK Bag") and "warning: " in out and "`me.score >= 0` has no reason" in out


def test_every_failing_requirement_is_named_with_its_reason(make_game):
    g = make_game(BAG)
    st = g.new_game(seed=1)
    g.write_variable(st, kind="player", name="tired", index=0, value=True)
    gem = next(c.key for c in g.catalog.cards if c.name == "gem")
    e = g.refusal(st, f"take {gem}")
    assert e.kind is RefusalKind.OUT_OF_DOMAIN
    assert e.reasons == (f"{gem} is worth 5: too much to take (§2)", "you are tired (§3)")
    # the designer's text keeps what was refused, then every reason
    assert g.explain(st, f"take {gem}") == f"{gem} is not a possible c now: " + "; ".join(e.reasons)
    chip = next(c.key for c in g.catalog.cards if c.name == "chip")
    assert g.refusal(st, f"take {chip}").reasons == ("you are tired (§3)",)
    assert [str(a) for a in g.legal_actions(st)] == []
    g.write_variable(st, kind="player", name="tired", index=0, value=False)
    assert {str(a) for a in g.legal_actions(st)} == {f"take {c.key}" for c in g.catalog.cards if c.name == "chip"}


def test_a_reason_is_written_for_its_reader_and_a_missing_one_never_shows_rules_text(make_game):
    g = make_game(BAG.replace("me.score >= 0", "not me.tired"))
    st = g.new_game(seed=1)
    g.write_variable(st, kind="player", name="tired", index=0, value=True)
    r = Renderer(g)
    chip = next(c for c in g.catalog.cards if c.name == "chip")
    assert g.explain(st, f"take {chip.key}") == "you are tired (§3); requires not me.tired"  # the designer's words
    told = g.refusal(st, f"take {chip.key}", reader=r.reader(st, 0)).reasons
    assert told == ("you are tired (§3)", "a rule of this move does not allow it now")
    gem = next(c for c in g.catalog.cards if c.name == "gem")
    told = g.refusal(st, f"take {gem.key}", reader=r.reader(st, 0)).reasons[0]
    assert told == f"{r.reader(st, 0).card(gem)} is worth 5: too much to take (§2)"  # as the table names it


def _anne_at_act(tmp_path) -> tuple:
    """Dark Agent, seed 1, after the 12 decisions of random bots (as tests/test_terminal_refusals.py)."""
    log = tmp_path / "auto.jsonl"
    subprocess.run([sys.executable, "-m", "interpreter", "play", "dark-agent", "--seed", "1", "--auto",
                    "--max-decisions", "12", "--log", str(log), "-q"], capture_output=True, timeout=300)
    g = Game.load("dark-agent")
    st = g.new_game(seed=1)
    for line in log.read_text().splitlines()[1:]:
        g.apply_in_place(st, json.loads(line)["action"])
    return g, st


def test_a_blocked_objective_is_refused_naming_the_blocker_and_its_cell(tmp_path):
    g, st = _anne_at_act(tmp_path)
    g.apply_in_place(st, "target r1c1")
    e = g.refusal(st, "attack centre_controle", reader=Renderer(g).reader(st, 0))
    assert e.reasons[0].startswith("CONTROL is blocked by T2 on r1c2: ") and e.reasons[0].endswith("(§6.1)")
    assert "at least one engaged spy" in e.reasons[1] and len(e.reasons) == 2
    # the designer's explanation names the same, by keys, after what was refused
    told = g.explain(st, "attack centre_controle")
    assert told.startswith("centre_controle is not a possible card now: centre_controle is blocked by sentinel_2#")


@pytest.mark.parametrize("game", ["dark-agent", "agent-dog", "agents-secrets"])
def test_the_conditions_of_a_parameter_agree_with_its_domain(game):
    """Every value a move is listed with meets each condition its parameter declares (`reasons`):
    a condition never says a legal move is refused. Seeded random games, every decision."""
    import random
    g = Game.load(game)
    explained = {a.name: a for a in g.m.action_by_name.values() if any(a.why_not or ())}
    met = 0
    for seed in range(1, 4):
        st = g.new_game(seed=seed)
        rng = random.Random(seed)
        for _ in range(400):
            if g.is_terminal(st):
                break
            legal = g.legal_actions(st)
            for action in legal:
                a = explained.get(action.name)
                if a is None or st["pending"]:
                    continue
                ctx, _ = g.binder.bind(st, action, verify=False)
                for conditions in a.why_not:
                    for check, reason in conditions or ():
                        assert check(ctx), f"{action}: {reason(ctx)}"
                        met += 1
            g.apply_in_place(st, rng.choice(legal))
    assert met or not explained
