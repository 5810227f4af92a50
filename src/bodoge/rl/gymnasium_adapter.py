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
from bodoge.agents.random_agent import RandomAgent
from bodoge.core.game import Game, State
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
        self._seat_play = SeatPlay(self.game, self.seat, self.opponents)

    def _state(self) -> State:
        if self.state is None:
            raise RuntimeError("call reset() before step()")
        return self.state

    def _play_opponents(self) -> None:
        self._seat_play.opponents_move(self._state(), self._agent_rng)

    def action_masks(self) -> np.ndarray:
        return self._seat_play.mask(self._state())

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
        return self._seat_play.observation(self._state()), self._info()

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
            return self._seat_play.observation(state), -1.0, True, False, info
        play = self._seat_play
        play.opponents_move(state, self._agent_rng)
        if state.current_player is None:
            return play.observation(state), state.returns()[self.seat], True, False, self._info()
        return play.observation(state), 0.0, False, False, {"action_mask": play.mask(state)}

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        text = self._state().render(self.seat)
        if self.render_mode == "human":  # Gymnasium's API: human mode shows, and returns None
            print(text)
            return None
        return text


class SeatPlay:
    """One seat's side of a game against agents, for the environments: the opponents' moves up to
    the seat's next decision, and the seat's observation and mask, each a new array (callers keep
    them). Random opponents move without a view: the draw `RandomAgent` makes from its view's legal
    ids, from the state's."""

    def __init__(self, game: Game, seat: int, opponents: dict[int, Agent]) -> None:
        self.game = game
        self.seat = seat
        self.opponents = opponents
        self.random_seats = frozenset(p for p, agent in opponents.items() if type(agent) is RandomAgent)
        self.shape = game.observation_shape
        self.num_actions = game.num_actions
        self.encode_state = getattr(game.observation_module(), "encode_state", None)

    def opponents_move(self, state: State, rng: random.Random) -> None:
        seat = self.seat
        random_seats = self.random_seats
        while True:
            p = state.current_player
            if p is None or p == seat:
                return
            if p not in random_seats:
                state.apply(self.opponents[p].act(self.game, state.lazy_view(p), rng), seat=p)
            elif state.explicit_chance:
                state.apply(rng.choice(state.legal_actions()), seat=p)
            else:
                # `apply` of a draw from the legal list itself, as `State.apply_random` takes it: the
                # same draw as `rng.choice(state.legal_actions())`, without the copy and the checks
                # an action from outside needs (the id is legal and the mover's by construction).
                legal = state._legal
                if legal is None:
                    legal = state._legal_actions()
                a = rng.choice(legal)
                state._legal = None
                state.history.append(a)
                state._apply(a)

    def observation(self, state: State, out: np.ndarray | None = None) -> np.ndarray:
        if out is None:
            out = np.empty(self.shape, dtype=np.float32)
        if self.encode_state is not None:
            self.encode_state(self.game, state, self.seat, out)
            return out
        return state.observation_tensor(self.seat, out=out)

    def mask(self, state: State) -> np.ndarray:
        """The legal actions as 1s (int8). Once the game is over, every action: an all-zero mask makes
        masked samplers (MaskablePPO's categorical, …) divide by zero."""
        if state.current_player is None:
            return np.ones(self.num_actions, dtype=np.int8)
        buf = bytearray(self.num_actions)
        for a in state.legal_actions():
            buf[a] = 1
        return np.frombuffer(buf, dtype=np.int8)


def env_id(name: str) -> str:
    return f"bodoge/{name.capitalize()}-v{env_version(name)}"


def register_envs() -> None:
    """Register `bodoge/<Game>-v<version>` for every game with Gymnasium (idempotent)."""
    for name in game_names():
        if env_id(name) not in gymnasium.registry:
            gymnasium.register(
                id=env_id(name),
                entry_point="bodoge.rl.gymnasium_adapter:BodogeGymEnv",
                vector_entry_point="bodoge.rl.vector_adapter:BodogeVectorEnv",
                kwargs={"game": name},
                max_episode_steps=None,
            )
