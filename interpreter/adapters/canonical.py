"""States and views written without telling identical pieces apart.

Two copies of a card are **identical pieces** when nothing but their copy number tells them apart:
the same name, owner, tags, properties and back (five marks of one player). A game that hands a
seat `first(me.supply.cards)` could as well hand it any copy: two states that differ only by which
copy lies where are the same position. Libraries count positions and information states by their
strings (OpenSpiel's `get_all_states`, CFR's tables), so the strings must not tell copies apart.

`Canon(game).relabelled(st, seat)` renames identical pieces by place: the copies of each piece that
`seat` identifies (every copy for `seat` None) take the piece's first keys in the order of their
places (zone by zone in definition order, then position), the copies it cannot identify the keys
left, in their own order (they show only their back: their names never reach the view). The state of
each place stays with it (observation.relabel). `state_text` and `view_text` write the renamed state
or the seat's observation as JSON.
"""
from __future__ import annotations

import json

from ..information.observation import identified_places, observe, relabel, unseen_slots
from ..information.views import ViewKey


def _face(card) -> tuple:
    owner = card.owner.key if card.owner is not None else None
    return (card.name, owner, tuple(sorted(card.tags)), repr(sorted(card.props.items())), card.back)


class _Texts:
    """One seat's views as JSON by the key of what they read (views.ViewKey): a search through the
    adapter asks the view of the same position again and again, in every state it samples. At most
    LIMIT texts (then it starts again); given up once it is seen to pay too little (fewer than one
    view in HITS found again in the first TRIAL)."""

    LIMIT, TRIAL, HITS = 20_000, 64, 8  # Agents Secrets and Agent DOG find none again in a search: their keys cost ~50 us each
    __slots__ = ("keys", "texts", "asked", "found")

    def __init__(self, keys: ViewKey):
        self.keys, self.texts = keys, {}
        self.asked = self.found = 0

    def get(self, st, write, seat) -> str:
        keys = self.keys
        if keys is None:
            return write(st, seat)
        key = keys.key(st)
        if key is None:
            return write(st, seat)
        texts = self.texts
        try:
            text = texts.get(key)
        except TypeError:  # a value that cannot be hashed where the key expected one
            return write(st, seat)
        self.asked += 1
        if text is not None:
            self.found += 1
            return text
        if self.asked == self.TRIAL and self.found * self.HITS < self.asked:
            self.keys, self.texts = None, {}  # seldom found again: not worth its keys
            return write(st, seat)
        if len(texts) >= self.LIMIT:
            texts.clear()
        text = texts[key] = write(st, seat)
        return text


_ENCODE = json.JSONEncoder(sort_keys=True, separators=(",", ":"), check_circular=False).encode  # made once
_PLAIN = frozenset((bool, int, float, str, type(None)))
_NAMING_CARDS = frozenset(("card", "cards", "list", "any"))  # variable types whose shown values depend on which cards a seat sees
_KEPT = (("players", "pv"), ("vars", "gv"), ("zone_vars", "zv"))  # the parts of a view kept by their variables (_Kept)


class _Kept:
    """One seat's texts of the parts of its view that show only variables (players', the game's,
    the zones': views.py) by the values of those variables, for the parts whose variables name no
    card (their shown values are then a function of the stored ones, for the seat): they change
    seldom in a game and may be most of a view's text (Agents Secrets: its zones' variables, 3.6
    of 7.5 KB). A part is kept for plain stored values only (else written each time); at most
    LIMIT texts a part (then it starts again). Where the parts show fewer than FEW values in all
    (Leduc poker: 8), writing the view part by part costs more than it saves: none is kept."""

    LIMIT, FEW = 20_000, 64
    __slots__ = ("parts", "texts")

    def __init__(self, catalog):
        specs = {kind: catalog.variables(of) for kind, of in (("pv", "player"), ("gv", "game"), ("zv", "zone"))}
        self.parts = [(part, kind, tuple(specs[kind])) for part, kind in _KEPT
                      if not any(spec["type"] in _NAMING_CARDS for spec in specs[kind].values())]
        per = {"pv": len(catalog.seats), "gv": 1, "zv": len(catalog.zones)}  # the values a variable shows
        if sum(len(names) * per[kind] for _, kind, names in self.parts) < self.FEW:
            self.parts = []
        self.texts = {part: {} for part, _, _ in self.parts}

    def found(self, st) -> tuple[dict, dict]:
        """(part -> its text, for those known; part -> its key, for those to write and keep)."""
        found, keys = {}, {}
        for part, kind, names in self.parts:
            stored = st[kind]
            try:
                values = tuple([stored[name] for name in names])
            except KeyError:  # not a state of this definition's variables: written
                continue
            if kind == "gv":
                if not _PLAIN.issuperset(map(type, values)):
                    continue
            elif not all(type(v) is tuple and _PLAIN.issuperset(map(type, v)) for v in values):
                continue
            text = self.texts[part].get(values)
            if text is not None:
                found[part] = text
            else:
                keys[part] = values
        return found, keys

    def keep(self, part: str, key: tuple, text: str) -> None:
        texts = self.texts[part]
        if len(texts) >= self.LIMIT:
            texts.clear()
        texts[key] = text


class Canon:
    """The identical pieces of one game (fixed for the game) and how to rename them."""

    def __init__(self, game):
        self.game = game
        groups: dict[tuple, list[int]] = {}
        for i, card in enumerate(game.catalog.cards):
            groups.setdefault(_face(card), []).append(i)
        # the groups of two copies or more, each the sorted ids of its copies; by card id, its group
        self.groups = [ids for ids in groups.values() if len(ids) > 1]
        self.group_of = {cid: g for g, ids in enumerate(self.groups) for cid in ids}
        self.keys = [c.key for c in game.catalog.cards]
        self.copy_keys = frozenset(self.keys[cid] for cid in self.group_of)  # keys of identical pieces
        self.cid_of = {k: cid for cid, k in enumerate(self.keys)}
        self._texts: dict = {}  # seat -> its _Texts
        self._kept: dict = {}  # seat -> its _Kept

    def mapping(self, st, seat: int | None, *, unseen=None) -> dict:
        """card id -> its canonical id (a permutation of each group's ids; identities left out);
        `unseen`, `unseen_slots(game, st, seat)` when the caller has it."""
        if not self.groups:
            return {}
        hidden = set()
        if seat is not None:
            z = st["z"]
            if unseen is None:
                unseen = unseen_slots(self.game, st, seat)
            hidden = {z[zid][pos] for zid, pos in unseen}
        seen: list[list] = [[] for _ in self.groups]
        unseen: list[list] = [[] for _ in self.groups]
        group_of = self.group_of
        for zid, ids in enumerate(st["z"]):
            for pos, cid in enumerate(ids):
                g = group_of.get(cid)
                if g is not None:
                    (unseen if cid in hidden else seen)[g].append(cid)
        out = {}
        for g, ids in enumerate(self.groups):
            for old, new in zip(seen[g] + sorted(unseen[g]), ids):
                if old != new:
                    out[old] = new
        return out

    def renamed(self, st, seat: int, actions: list, *, back: bool = False) -> list:
        """`actions` of `seat` with the copies they name renamed as its view names them (the
        copies it identifies take the piece's first keys in the order of their places, as in
        `mapping`), so that two states the seat cannot tell apart offer it the same actions;
        `back`: from the view's names to the state's. Only the pieces named are placed."""
        named = self.copy_keys.intersection([x for a in actions for x in a.args])
        if not named:
            return actions
        names = self.names(st, seat, named, back=back)
        if not names:
            return actions
        get, renaming = names.get, names.keys()
        return [a if renaming.isdisjoint(a.args) else type(a)(a.name, tuple(map(get, a.args, a.args)))
                for a in actions]

    def names(self, st, seat: int, named, *, back: bool = False) -> dict:
        """The renaming of `renamed` (old key -> new key, only the keys that change) for the groups
        of the copy keys `named`: within each, the copies `seat` identifies in the order of their
        places (observation.identified_places: this runs at every listing of an adapter's state)."""
        keys, cid_of, group_of, groups = self.keys, self.cid_of, self.group_of, self.groups
        game = self.game
        names = {}
        for g in {group_of[cid_of[x]] for x in named}:
            ids = groups[g]
            places = identified_places(game, st, seat, ids)
            places.sort()
            for (_, _, old), new in zip(places, ids):
                if old != new:
                    names[keys[new] if back else keys[old]] = keys[old] if back else keys[new]
        return names

    def relabelled(self, st, seat: int | None) -> dict:
        m = self.mapping(st, seat)
        return relabel(self.game, st, m) if m else st

    def state_text(self, st) -> str:
        """The whole state (every card identified) as JSON, identical pieces renamed by place; the
        random generator left out (explicit chance never reads it)."""
        s = self.relabelled(st, None)
        keys = self.keys
        zones = self.game.catalog.zones
        out = {"zones": {zones[zid].key: [keys[c] for c in ids] for zid, ids in enumerate(s["z"]) if ids}}
        for part in ("cv", "zv", "pv", "gv", "flow", "used", "pending", "forced"):
            out[part] = s[part]
        return json.dumps(out, sort_keys=True, separators=(",", ":"), default=repr)

    def view_text(self, st, seat: int | None) -> str:
        """What `seat` observes (observation.py) as JSON, identical pieces renamed by place; written
        once per key of what the view reads (views.ViewKey), while that pays (_Texts)."""
        texts = self._texts.get(seat)
        if texts is None:
            texts = self._texts[seat] = _Texts(ViewKey(self.game, seat))
        return texts.get(st, self._view_text, seat)

    def _view_text(self, st, seat: int | None) -> str:
        """The JSON of `view` (sorted keys, no spaces), written part by part: the parts kept by
        their variables (_Kept) are taken as written before where they can be. (An observation is
        a tree, no container met twice: no check for cycles.)"""
        kept = self._kept.get(seat) if seat is not None else None
        if kept is None and seat is not None:
            kept = self._kept[seat] = _Kept(self.game.catalog)
        if kept is None or not kept.parts:
            return _ENCODE(self.view(st, seat))
        found, keys = kept.found(st)
        obs = self.view(st, seat, leave_out=found)
        for part, key in keys.items():
            found[part] = text = _ENCODE(obs.pop(part))
            kept.keep(part, key, text)
        texts = [(part, _ENCODE(v)) for part, v in obs.items()]
        texts += found.items()
        texts.sort()
        return "{" + ",".join([f'"{part}":{text}' for part, text in texts]) + "}"

    def view(self, st, seat: int | None, *, leave_out=()) -> dict:
        """The observation of `seat`, identical pieces renamed by place (`leave_out`, parts not
        computed: observation.observe). The cards the seat cannot identify are found once:
        renaming identical pieces leaves each place as it was (which cards are concealed,
        observation.relabel), so they lie at the same places after."""
        if seat is None or not self.groups:
            return observe(self.game, self.relabelled(st, seat), seat, leave_out=leave_out)
        unseen = unseen_slots(self.game, st, seat)
        m = self.mapping(st, seat, unseen=unseen)
        return observe(self.game, relabel(self.game, st, m) if m else st, seat, unseen=unseen, leave_out=leave_out)


__all__ = ["Canon"]
