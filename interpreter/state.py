"""A game state is plain data (lists, dicts, ints, texts): the first one, cloning it and its JSON form."""
from __future__ import annotations

import json

_copy = list.copy


def initial(m, seed: int) -> dict:
    """The state before setup: every card in its starting zone, every variable at its default."""
    from .definition.parts import _copy as fresh
    from .rng import seed_state
    zl = [[] for _ in m.zones]
    loc = list(m.start_zone)
    for c in m.cards:
        zl[loc[c.id]].append(c.id)
    nc, nz, ns = len(m.cards), len(m.zones), len(m.seats)
    return {
        "z": zl,
        "loc": loc,
        "cv": {k: [fresh(v["default"]) for _ in range(nc)] for k, v in m.cvars.items()},
        "zv": {k: [fresh(v["default"]) for _ in range(nz)] for k, v in m.zvars.items()},
        "pv": {k: [fresh(v["default"]) for _ in range(ns)] for k, v in m.pvars.items()},
        "gv": {k: fresh(v["default"]) for k, v in m.gvars.items()},
        "rng": seed_state(seed),
        "forced": [],
        "flow": {"phase": "setup", "round": 0, "order": [], "pos": 0, "step": 0, "finish": None, "resume": None},
        "used": {},
        "pending": [],
    }


def clone(st: dict) -> dict:
    """A deep copy of a state, specialised for its known shape (much faster than deepcopy)."""
    cv, zv, pv = st["cv"], st["zv"], st["pv"]
    return {  # map(list.copy, ...) copies a list of lists about a third faster than a comprehension
        "z": list(map(_copy, st["z"])),
        "loc": st["loc"][:],
        "cv": dict(zip(cv, map(_copy, cv.values()))),
        "zv": dict(zip(zv, map(_copy, zv.values()))),
        "pv": dict(zip(pv, map(_copy, pv.values()))),
        "gv": {k: (v[:] if type(v) is list else v) for k, v in st["gv"].items()},
        "rng": st["rng"],
        "forced": st["forced"][:],
        "flow": dict(st["flow"]),
        "used": dict(st["used"]),
        "pending": st["pending"][:],  # entries are never changed in place
    }


def to_json(st: dict) -> str:
    return json.dumps(st, separators=(",", ":"), sort_keys=True)


def from_json(text: str) -> dict:
    st = json.loads(text)
    # JSON keeps lists and dicts; restore the int keys nothing uses (none today) and return
    return st
