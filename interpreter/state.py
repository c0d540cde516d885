"""A game state is plain data (lists, dicts, ints, texts): cloning it and its JSON form."""
from __future__ import annotations

import json

_copy = list.copy


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
