"""The lobby's games: every bundled game, the content folders and variant files given to `interpret
serve`, what the lobby offers of each (players, variants, options, bot levels), and the games
loaded for tables (one `Game` per settings and language, shared: a Game holds no state).

A table asks for a game by the name the lobby lists; a request is checked against what is listed
(a folder that was not given on the command line is never loaded)."""
from __future__ import annotations

import threading
from pathlib import Path

from ..agents import LEVELS
from ..play.levels import game_levels
from ..engine.game import Game
from ..errors import InterpretError
from ..play.replay import game_reference
from ..ruleset.loader import game_folder, load_ruleset
from ..ruleset.paths import content_dir, game_dir
from ..ruleset.yamlio import load_yaml, to_plain
from .lesson import tutorials_of
from ..i18n import speaking


class LobbyError(ValueError):
    """A request of the lobby that cannot be met; the message says why (plain English)."""


def _variant_info(path: Path) -> dict | None:
    try:
        doc = to_plain(load_yaml(path))
    except Exception:  # a variant file that does not read is not offered (validate tells why)
        return None
    head = doc.get("variant") if isinstance(doc, dict) else None
    if not isinstance(head, dict):
        return None
    return {"name": str(head.get("name") or path.stem), "title": str(head.get("title") or path.stem),
            "base": str(head.get("base") or "")}


def _options(rs) -> list[dict]:
    out = []
    for name, spec in (rs.option_specs or {}).items():
        if not isinstance(spec, dict):
            continue
        item = {"name": name, "title": str(spec.get("description") or name), "default": spec.get("default")}
        if "choices" in spec:
            item["choices"] = list(spec["choices"])
        if "min" in spec:
            item["min"], item["max"] = spec.get("min"), spec.get("max")
        if isinstance(spec.get("default"), bool):
            item["choices"] = [False, True]
        out.append(item)
    return out


class Games:
    """The games a server offers, by name, and the games loaded for its tables."""

    def __init__(self, extra: list[str] = ()):
        self.refs: dict[str, str] = {}  # name -> how a log names it (bundled: its name; else its folder)
        self.extra_variants: dict[str, list[dict]] = {}  # name -> variant files given on the command line
        for p in sorted(content_dir().iterdir()):
            if (p / "game.yaml").is_file():
                self.refs[p.name] = p.name
        for item in extra:
            path = Path(item)
            if path.is_file() and path.suffix == ".yaml":
                info = _variant_info(path)
                base = info and info["base"]
                if not info or base not in self.refs:
                    raise InterpretError(f"{item}: not a variant of one of the games served (its `variant.base`)")
                info = {"name": str(path.resolve()), "title": info["title"]}
                self.extra_variants.setdefault(base, []).append(info)
                continue
            folder = game_folder(item)
            ref = game_reference(folder)
            self.refs[Path(ref).name] = ref
        self._listing: list[dict] | None = None
        self._games: dict = {}
        self._lock = threading.Lock()

    def listing(self) -> list[dict]:
        """What GET /api/games answers (read once)."""
        if self._listing is None:
            out = []
            for name, ref in self.refs.items():
                rs = load_ruleset(ref)
                lo, hi = rs.player_range
                variants = []
                folder = game_dir(ref) / "variants"
                for path in sorted(folder.glob("*.yaml")) if folder.is_dir() else ():
                    info = _variant_info(path)
                    if info is not None:
                        variants.append({"name": path.stem, "title": info["title"]})
                variants += self.extra_variants.get(name, [])
                out.append({"name": name, "title": rs.title, "players": [lo, hi], "variants": variants,
                            "options": _options(rs), "bots": list(LEVELS), "tutorials": tutorials_of(ref)})
            self._listing = out
        return self._listing

    def check(self, name, variants) -> str:
        """The reference of the game `name` with `variants`, as listed; else LobbyError."""
        if not isinstance(name, str) or name not in self.refs:
            raise LobbyError(f"no game {name!r} here; the games are {', '.join(self.refs)}")
        known = {v["name"] for g in self.listing() if g["name"] == name for v in g["variants"]}
        if not isinstance(variants, list) or not all(isinstance(v, str) and v in known for v in variants):
            raise LobbyError(f"variants of {name} are among: {', '.join(sorted(known)) or 'none'}")
        return self.refs[name]

    def load(self, ref: str, *, players: int, options: dict, variants: list, lang: str) -> Game:
        """The game for a table (loaded once per settings and language)."""
        key = (ref, players, tuple(sorted((str(k), str(v)) for k, v in options.items())), tuple(variants), lang)
        with self._lock:
            game = self._games.get(key)
            if game is None:
                with speaking(lang):
                    game = Game.load(ref, players=players, options=options, variants=variants)
                    game_levels(game)  # a level that names no agent: refused with the content's problems
                self._games[key] = game
            return game


__all__ = ["Games", "LobbyError"]
