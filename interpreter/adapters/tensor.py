"""A seat's observation as a vector of numbers, for learning libraries.

Computed from the observation (observation.py), never from the state, so it holds nothing the seat
may not know. The layout is fixed per game (definition order, keys sorted):

- for each card: whether the seat sees it, the zone it is in (zone number + 1, 0: unseen), then
  its card variables (0 where unseen);
- for each zone: its card count, then its zone variables;
- for each seat: its player variables (0 where not shown);
- the game variables; the round, the seat in turn, the seat deciding and the step (number + 1).

A value becomes a number: a boolean 0/1, a number itself, a list its length, a key (card, zone,
seat) its number + 1 in the game's sorted keys, anything else (and none) 0.
"""
from __future__ import annotations

import numpy as np

BOUND = 1e9  # every feature is clipped to [-BOUND, BOUND]


class TensorLayout:
    def __init__(self, game):
        cat = game.catalog
        self.cards = sorted(c.key for c in cat.cards)
        self.card_row = {k: i for i, k in enumerate(self.cards)}
        self.zones = [z.key for z in cat.zones]
        self.zone_no = {k: i for i, k in enumerate(self.zones)}
        self.seats = [s.key for s in cat.seats]
        self.key_no = {k: i for i, k in enumerate(sorted(cat.value_by_key))}
        self.cv, self.zv, self.pv, self.gv = (sorted(cat.variables(kind)) for kind in ("card", "zone", "player", "game"))
        self.steps = {name: i for i, name in enumerate(cat.step_names)}
        self.card_width = 2 + len(self.cv)
        self.zone_base = len(self.cards) * self.card_width
        self.zone_width = 1 + len(self.zv)
        self.seat_base = self.zone_base + len(self.zones) * self.zone_width
        self.game_base = self.seat_base + len(self.seats) * len(self.pv)
        self.flow_base = self.game_base + len(self.gv)
        self.size = self.flow_base + 4

    def number(self, v) -> float:
        if v is None:
            return 0.0
        if isinstance(v, bool):
            return 1.0 if v else 0.0
        if isinstance(v, (int, float)):
            return float(max(-BOUND, min(BOUND, v)))
        if isinstance(v, (list, tuple, dict)):
            return float(len(v))
        if isinstance(v, str):
            return float(self.key_no.get(v, -1) + 1)
        return 0.0

    def encode(self, obs: dict) -> np.ndarray:
        out = np.zeros(self.size, np.float32)
        num = self.number
        w = self.card_width
        for zkey, shown in obs["zones"].items():
            z = self.zone_no[zkey]
            out[self.zone_base + z * self.zone_width] = shown["count"]
            for ckey in shown.get("cards") or ([shown["top"]] if shown.get("top") else []):
                if ckey is not None:
                    row = self.card_row[ckey] * w
                    out[row] = 1.0
                    out[row + 1] = z + 1
        for ckey, cvars in obs["cards"].items():
            row = self.card_row[ckey] * w
            for j, name in enumerate(self.cv):
                if name in cvars:
                    out[row + 2 + j] = num(cvars[name])
        for zkey, zvars in obs["zone_vars"].items():
            base = self.zone_base + self.zone_no[zkey] * self.zone_width
            for j, name in enumerate(self.zv):
                if name in zvars:
                    out[base + 1 + j] = num(zvars[name])
        for i, skey in enumerate(self.seats):
            pvars = obs["players"][skey]["vars"]
            for j, name in enumerate(self.pv):
                if name in pvars:
                    out[self.seat_base + i * len(self.pv) + j] = num(pvars[name])
        for j, name in enumerate(self.gv):
            if name in obs["vars"]:
                out[self.game_base + j] = num(obs["vars"][name])
        flow = obs["flow"]
        seat_no = {k: i + 1 for i, k in enumerate(self.seats)}
        out[self.flow_base] = flow["round"] or 0
        out[self.flow_base + 1] = seat_no.get(flow["turn"], 0)
        out[self.flow_base + 2] = seat_no.get(flow["deciding"], 0)
        out[self.flow_base + 3] = self.steps.get(flow["step"], -1) + 1
        return out
