"""PettingZoo AEC environment on a bodoge game, shaped like PettingZoo's classic card games."""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

import bodoge
from bodoge.core.game import State
from bodoge.rl.versions import env_version


class BodogeAECEnv(AECEnv):
    """Agents `player_0` … `player_{n-1}`; observations {"observation", "action_mask"}; at the end each
    agent's reward is its win share (1/len(winners) for a winner, else 0).

    `state()` is every seat's observation stacked (seat by seat): all that the players know between
    them, for centralised critics; the undealt cards' order is in no one's view, so not in it either.
    `render()` returns the mover's view as text in "ansi" mode and prints it (returning None) in
    "human" mode, as PettingZoo's API asks."""

    metadata: dict[str, Any] = {"render_modes": ["ansi", "human"], "is_parallelizable": False}  # noqa: RUF012 (Gymnasium/PettingZoo declare it so)

    def __init__(self, game: str, render_mode: str | None = None, **options: Any) -> None:
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode {render_mode!r} is not one of {self.metadata['render_modes']}")
        self.game = bodoge.make(game, **options)
        self.metadata = {**self.metadata, "name": f"bodoge_{self.game.name}_v{env_version(self.game.name)}"}
        self.render_mode = render_mode
        self.possible_agents = [f"player_{p}" for p in range(self.game.num_players)]
        self._seat_of = {agent: p for p, agent in enumerate(self.possible_agents)}
        shape = self._shape = self.game.observation_shape
        space = spaces.Dict(
            {
                "observation": spaces.Box(low=-1.0, high=1.0, shape=shape, dtype=np.float32),
                "action_mask": spaces.Box(low=0, high=1, shape=(self.game.num_actions,), dtype=np.int8),
            }
        )
        self.observation_spaces = dict.fromkeys(self.possible_agents, space)
        self.action_spaces = {a: spaces.Discrete(self.game.num_actions) for a in self.possible_agents}
        self.state_space = spaces.Box(
            low=-1.0, high=1.0, shape=(self.game.num_players, *shape), dtype=np.float32
        )
        self.game_state: State | None = None

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is None:
            seed = int(np.random.default_rng().integers(2**63))
        self.game_state = self.game.new_state(seed=seed)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection = self.possible_agents[self._state().current_player or 0]

    def _state(self) -> State:
        if self.game_state is None:
            raise RuntimeError("call reset() before using the environment")
        return self.game_state

    def state(self) -> np.ndarray:
        state = self._state()
        stacked = np.empty((self.game.num_players, *self._shape), dtype=np.float32)
        for seat in range(self.game.num_players):
            state.observation_tensor(seat, out=stacked[seat])
        return stacked

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        state = self._state()
        seat = self._seat_of[agent]
        mask = bytearray(self.game.num_actions)
        if state.current_player == seat:
            for a in state.legal_actions():
                mask[a] = 1
        observation = state.observation_tensor(seat, out=np.empty(self._shape, dtype=np.float32))
        return {"observation": observation, "action_mask": np.frombuffer(mask, dtype=np.int8)}

    def step(self, action: int | None) -> None:
        if self.terminations[self.agent_selection] or self.truncations[self.agent_selection]:
            self._was_dead_step(action)
            return
        state = self._state()
        agent = self.agent_selection
        self._cumulative_rewards[agent] = 0.0
        state.apply(int(action) if action is not None else -1, seat=self._seat_of[agent])
        if state.current_player is None:
            for agent_name, share in zip(self.possible_agents, state.returns(), strict=True):
                self.rewards[agent_name] = share
            self.terminations = dict.fromkeys(self.agents, True)
        else:
            self.agent_selection = self.possible_agents[state.current_player]
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        state = self._state()
        text = state.render(state.current_player)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        pass
