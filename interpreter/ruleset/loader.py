"""Loading a game's content folder: YAML, JSON Schema, cross references, rules text.

Every problem is collected with file:line:col and reported together.
"""
from __future__ import annotations

from pathlib import Path

from .. import limits as lim
from ..core.gcpause import collector_paused
from ..errors import ContentError, ErrorList, Location, Problem
from .variants import apply_variants, load_variants
from .paths import display_path, game_dir, is_there, shown, too_long
from .yamlio import load_yaml, resolve_parent, value_location

from .ruleset import Ruleset
from .texts import is_texts_file, overlay_texts
from .crosscheck import check_content

SKIP_DIRS = {"scenarios", "tutorials", "variants"}  # not rules: tests, guided games, variants


def content_files(root: Path) -> list[Path]:
    files = []
    for p in sorted(root.rglob("*.yaml")):
        rel = p.relative_to(root)
        if rel.parts and rel.parts[0] in SKIP_DIRS or (len(rel.parts) == 1 and is_texts_file(p)):
            continue  # scenarios, variants and a language's texts (texts.fr.yaml) are not content
        files.append(p)
    return files


@collector_paused
def game_folder(game: str) -> str:
    """A game given by one of its files (`.../game.yaml`) means its folder."""
    p = Path(game)
    return str(p.parent) if p.suffix in (".yaml", ".yml") and is_there(p, "is_file") else game


def load_ruleset(game: str | Path, variants=(), keep_going: bool = False, *, language: str | None = None) -> Ruleset:
    """Read and check a game folder. Problems raise one ContentError listing all of them;
    with `keep_going`, problems found after the YAML was read are kept in `rs.problems`
    instead, so that a validation can also compile what was read and report everything.
    Its texts are in `language` (default: the table's, i18n.language()) when the game has a
    `texts.<language>.yaml` (ruleset/texts.py); variants apply after, in the words they give."""
    why = too_long(game)
    if why is not None:
        raise ContentError(Problem(Location(shown(game)), f"no such game: {why}",
                                   hint="give a folder holding game.yaml, or a game name under content/"))
    root = game_dir(game_folder(str(game)))
    errors = ErrorList()
    if not root.is_dir():
        raise ContentError(Problem(Location(str(game)), "no such game folder",
                                   hint="give a folder holding game.yaml, or a game name under content/"))
    if not (root / "game.yaml").exists():
        raise ContentError(Problem(Location(str(root / "game.yaml")), "missing game.yaml",
                                   hint="a game folder starts with game.yaml holding a `game:` section"))
    rs = Ruleset(root)
    for path in content_files(root):
        display = display_path(path)
        try:
            doc = load_yaml(path, display)
        except ContentError as e:
            errors.problems.extend(e.problems)
            continue
        rs.add_file(doc, display, errors)
    if not rs.meta and not errors.problems:
        errors.add(Location(display_path(root / "game.yaml")), "game.yaml has no `game:` section")
    from ..i18n import DEFAULT, language as table_language
    lang = language or table_language()
    if rs.meta and lang != DEFAULT:
        overlay_texts(rs, lang, errors)
    if variants and rs.meta:
        base_ok = not errors.problems
        applied = load_variants(rs, variants, errors)
        apply_variants(rs, applied, errors, base_ok=base_ok)
        for v in applied if lang != DEFAULT else ():  # the texts a variant adds or changes, in that language
            overlay_texts(rs, lang, errors, variant=v.name)
    if rs.meta:  # the limits as the variants left them (one may raise or lower them), each where it was written
        rs.limits = lim.adjusted(rs.meta.get("limits"), Location(display_path(root / "game.yaml")), errors,
                                 lambda node, key: value_location(*resolve_parent(node, key)))
        check_caps(rs, errors)
        check_content(rs, errors)  # what the schema cannot see and no rule reads (crosscheck.py)
    if rs.meta and rs.tuning:  # what `interpret tune` may change: checked against the content as the variants left it
        from .tuning import read_tuning
        read_tuning(rs, errors)
    if keep_going and rs.meta:
        rs.problems = list(errors.problems)
        return rs
    errors.raise_if_any()
    rs.problems = []
    return rs


def check_caps(rs: Ruleset, errors: ErrorList) -> None:
    """The load-time caps of limits.py, on the numbers written in the content (numbers given as
    expressions are checked by the definition's builder when it evaluates them): nothing huge is ever built."""
    caps = rs.limits

    def check(node, key, name, value=None, what=""):
        value = node.get(key) if value is None else value
        if type(value) is int and value > getattr(caps, name):
            parent, k = resolve_parent(node, key)
            errors.add(value_location(parent, k), lim.over(name, value, caps, what))
            return False
        return True
    players = rs.meta.get("players")
    if isinstance(players, dict):
        for key in ("min", "max", "default"):
            check(players, key, "players", what=f"players.{key}")
        lo, hi, default = (players.get(k) for k in ("min", "max", "default"))
        if type(lo) is int and type(hi) is int and lo > hi:
            errors.add(value_location(*resolve_parent(players, "max")), f"players.max {hi} is below players.min {lo}")
        elif type(default) is int and ((type(lo) is int and default < lo) or (type(hi) is int and default > hi)):
            errors.add(value_location(*resolve_parent(players, "default")),
                       f"players.default {default} is outside players.min-max")
    total = 0
    for name, spec in rs.cards.items():
        if isinstance(spec, dict) and check(spec, "copies", "copies", what=f"copies of `{name}`"):
            copies = spec.get("copies", 1)
            if type(copies) is int:
                total += copies * (rs.player_range[1] if spec.get("per_player") else 1)
    if total > caps.cards:
        errors.add(Location(rs.files[0] if rs.files else rs.name), lim.over("cards", total, caps),
                   hint="count the copies of every card, times the players for cards of each player")
    grid = rs.board.get("grid") if isinstance(rs.board, dict) else None
    if isinstance(grid, dict):
        check(grid, "columns", "grid_side", what="grid columns")
        for spec in grid.get("rows") if isinstance(grid.get("rows"), list) else []:
            if not isinstance(spec, dict):
                continue
            if "rows" in spec:
                lo, hi = _row_bounds(spec.get("rows"))
                if hi is not None and hi - lo + 1 > caps.grid_side:
                    check(spec, "rows", "grid_side", value=hi - lo + 1, what=f"rows {spec.get('rows')}:")
                elif hi is not None and hi > caps.grid_side * 10:
                    check(spec, "rows", "grid_side", value=hi, what="row number")
            elif type(spec.get("row")) is int and spec["row"] > caps.grid_side * 10:
                check(spec, "row", "grid_side", what="row number")
    ring = rs.board.get("ring") if isinstance(rs.board, dict) else None
    if isinstance(ring, dict):
        check(ring, "length", "grid_side", what="ring length")


def _row_bounds(v):
    try:
        lo, hi = str(v).split("-")
        return int(lo), int(hi)
    except ValueError:
        return 0, None


