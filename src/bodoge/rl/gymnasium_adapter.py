"""A Gymnasium environment: one seat of a bodoge game against built-in agents.

Ids `bodoge/Troika-v1`, `bodoge/Tokkuri-v1`, `bodoge/Tottarot-v1`, `bodoge/Hangover-v1` are registered
with Gymnasium when `bodoge.rl` is imported (`register_envs()`); the number is the game's benchmark
version (`bodoge.rl.versions`, changelog in docs/benchmark.md).
"""

from __future__ import annotations

import random
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces

import bodoge
from bodoge import agents
from bodoge.agents.base import Agent
from bodoge.core.game import State
from bodoge.core.registry import games as game_names
from bodoge.errors import BadOption, IllegalAction
from bodoge.rl.versions import env_version


class BodogeGymEnv(gymnasium.Env):
    """Observation: the seat's `observation_tensor`. Reward: the seat's win share at the end.

    `info["action_mask"]` (and `action_masks()`) give the legal actions. Once the episode is over the
    mask allows every action: a masked sampler given the last observation still has something to
    draw (no action is taken: the next call is `reset`). An illegal action ends the
    episode with reward −1 and the reason in `info["illegal_action"]` when `illegal="penalize"` (the
    default, so that random exploration is defined), or raises IllegalAction when `illegal="raise"`.
    """

    metadata: dict[str, Any] = {"render_modes": ["ansi", "human"]}  # noqa: RUF012 (Gymnasium/PettingZoo declare it so)

    def __init__(
        self,
        game: str,
        seat: int = 0,
        opponents: str | list[str] = "heuristic",
        render_mode: str | None = None,
        illegal: str = "penalize",
        **options: Any,
    ) -> None:
        super().__init__()
        self.game = bodoge.make(game, **options)
        self.game.check_seat(seat, spectator_ok=False)
        self.seat: int = seat
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise BadOption("render_mode", render_mode, "ansi, human or None")
        if illegal not in ("penalize", "raise"):
            raise BadOption("illegal", illegal, "penalize or raise")
        self.render_mode = render_mode
        self.illegal = illegal
        specs = [opponents] * (self.game.num_players - 1) if isinstance(opponents, str) else list(opponents)
        if len(specs) != self.game.num_players - 1:
            raise BadOption(
                "opponents", opponents, f"one agent spec, or a list of {self.game.num_players - 1}"
            )
        others = [p for p in range(self.game.num_players) if p != self.seat]
        self.opponents: dict[int, Agent] = {
            p: agents.make(spec) for p, spec in zip(others, specs, strict=True)
        }
        self.observation_space = spaces.Box(
            low=-1.0, high=1.0, shape=self.game.observation_shape, dtype=np.float32
        )
        self.action_space = spaces.Discrete(self.game.num_actions)
        self.state: State | None = None
        self._agent_rng = random.Random(0)

    def _state(self) -> State:
        if self.state is None:
            raise RuntimeError("call reset() before step()")
        return self.state

    def _play_opponents(self) -> None:
        state = self._state()
        while state.current_player is not None and state.current_player != self.seat:
            seat = state.current_player
            state.apply(
                self.opponents[seat].act(self.game, state.lazy_view(seat), self._agent_rng), seat=seat
            )

    def action_masks(self) -> np.ndarray:
        state = self._state()
        if state.current_player is None:
            # An all-zero mask makes masked samplers (MaskablePPO's categorical, …) divide by zero.
            return np.ones(self.game.num_actions, dtype=np.int8)
        return state.legal_mask()

    def _info(self) -> dict[str, Any]:
        return {"action_mask": self.action_masks()}

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict]:
        super().reset(seed=seed)
        deal = int(self.np_random.integers(2**63))
        self.state = self.game.new_state(seed=deal)
        self._agent_rng = random.Random(deal)
        self._play_opponents()
        return self._state().observation_tensor(self.seat), self._info()

    def step(self, action: int) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        state = self._state()
        if state.current_player is None:
            raise RuntimeError("the episode is over: call reset()")
        try:
            state.apply(int(action), seat=self.seat)
        except IllegalAction as exc:
            if self.illegal == "raise":
                raise
            info = self._info()
            info["illegal_action"] = str(exc)
            return state.observation_tensor(self.seat), -1.0, True, False, info
        self._play_opponents()
        done = state.current_player is None
        reward = state.returns()[self.seat] if done else 0.0
        return state.observation_tensor(self.seat), reward, done, False, self._info()

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        text = self._state().render(self.seat)
        if self.render_mode == "human":  # Gymnasium's API: human mode shows, and returns None
            print(text)
            return None
        return text


def env_id(name: str) -> str:
    return f"bodoge/{name.capitalize()}-v{env_version(name)}"


def register_envs() -> None:
    """Register `bodoge/<Game>-v<version>` for every game with Gymnasium (idempotent)."""
    for name in game_names():
        if env_id(name) not in gymnasium.registry:
            gymnasium.register(
                id=env_id(name),
                entry_point="bodoge.rl.gymnasium_adapter:BodogeGymEnv",
                kwargs={"game": name},
                max_episode_steps=None,
            )
