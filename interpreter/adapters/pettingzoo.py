"""Every game written as content is a PettingZoo AEC environment (optional extra:
`pip install ".[pettingzoo]"`).

    from interpreter.adapters.pettingzoo import env
    e = env("agent-dog", players=4, variants=("couleurs-au-choix",))
    e.reset(seed=1)
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, info = e.last()
        action = None if terminated or truncated else e.action_space(agent).sample(obs["action_mask"])
        e.step(action)

Agents are the seats' keys (`p1`, `p2`, ...). An observation is a dict: `observation`, the seat's
observation (observation.py) as a vector of numbers (tensor.py), and `action_mask`, one byte per
action of the game's fixed action space (action_index.py), 1 where the action is legal for that
seat now. `observation_text(agent)` gives the same observation as JSON text.
Rewards come at the end: +1 for each winner, -1 for the others, 0 for all in a draw.
`reset(seed=N)` seeds the game's own random generator (dice, shuffles).
"""
from __future__ import annotations

import json

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from ..engine.game import Game
from ..information.observation import observe
from . import declared_returns, returns_of
from .action_index import ActionIndex
from .tensor import BOUND, TensorLayout


def _variant_list(variants) -> list:
    """`variants` as the loader takes it: None or nothing for none, one name, or several."""
    if variants is None:
        return []
    return [variants] if isinstance(variants, str) else list(variants)


def env(game: str, players: int | None = None, variants=(), options: dict | None = None, render_mode=None):
    return InterpretEnv(game, players=players, variants=variants, options=options, render_mode=render_mode)


class InterpretEnv(AECEnv):
    metadata = {"render_modes": ["ansi", "human"], "name": "interpret_v0", "is_parallelizable": False}

    def __init__(self, game: str, players: int | None = None, variants=(), options: dict | None = None,
                 render_mode=None):
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode {render_mode!r}: one of {self.metadata['render_modes']}")
        self.render_mode = render_mode
        self.game = Game.load(game, players=players, options=options, variants=_variant_list(variants))
        self.index = ActionIndex(self.game)
        self.possible_agents = [s.key for s in self.game.seats]
        self._seat = {a: i for i, a in enumerate(self.possible_agents)}
        n = self.index.size
        self.layout = TensorLayout(self.game)
        vector = spaces.Box(-BOUND, BOUND, (self.layout.size,), np.float32)
        self.observation_spaces = {a: spaces.Dict({"observation": vector,
                                                   "action_mask": spaces.Box(0, 1, (n,), np.int8)})
                                   for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(n) for a in self.possible_agents}
        self._st = None

    def observation_space(self, agent):
        return self.observation_spaces[agent]

    def action_space(self, agent):
        return self.action_spaces[agent]

    def reset(self, seed=None, options=None):
        self._st = self.game.new_game(int(seed) if seed is not None else 0)
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self._select()

    def _select(self):
        if self.game.is_terminal(self._st):
            self.agent_selection = self.agents[0]
        else:
            self.agent_selection = self.possible_agents[self.game.current_player(self._st)]

    def observe(self, agent):
        seat = self._seat[agent]
        mask = np.zeros(self.index.size, np.int8)
        if not self.game.is_terminal(self._st) and self.game.current_player(self._st) == seat:
            for a in self.game.legal_actions(self._st):
                mask[self.index.id_of(a)] = 1
        return {"observation": self.layout.encode(observe(self.game, self._st, seat)), "action_mask": mask}

    def observation_text(self, agent) -> str:
        """The observation of `agent` as JSON text."""
        return json.dumps(observe(self.game, self._st, self._seat[agent]), sort_keys=True, ensure_ascii=False)

    def step(self, action):
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0.0
        self.game.apply_in_place(self._st, self.index.action_of(int(action)))
        if self.game.is_terminal(self._st):
            returns = returns_of(self.game, self._st, declared_returns(self.game)[0])  # as the content's payoff
            self.rewards = {a: returns[self._seat[a]] for a in self.agents}
            self.terminations = {a: True for a in self.agents}
        self._select()
        self._accumulate_rewards()
        if self.render_mode == "human":
            print(self.render())

    def render(self):
        if self.render_mode is None:
            return None
        return json.dumps(observe(self.game, self._st, None), sort_keys=True, indent=1, ensure_ascii=False)

    def close(self):
        pass
