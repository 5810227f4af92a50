"""A Gymnasium vector environment: n games of one seat against built-in agents, stepped as a batch.

    envs = bodoge.rl.vector_env("troika", 64, opponents="random", players=4)
    obs, infos = envs.reset(seed=0)                 # obs (64, *shape) float32; infos["action_mask"] (64, A)
    obs, rewards, terminations, truncations, infos = envs.step(actions)   # actions: 64 ints

It is `gymnasium.vector.SyncVectorEnv` over `bodoge.rl.gym_env(game, ...)` made to run at the engine's
speed: the same games, observations, rewards and infos from the same seeds (tests check it against
SyncVectorEnv), with every sub-game's observation written straight into one preallocated batch and
its mask into one buffer, and random opponents moving without views. Autoreset: Gymnasium's modes
(`autoreset_mode`, by default next-step: the step after a game ends resets it, ignoring its action,
with reward 0); `metadata["autoreset_mode"]` says which.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.utils import seeding
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

import bodoge
from bodoge import agents
from bodoge.agents.base import Agent
from bodoge.core.game import State
from bodoge.errors import BadOption, IllegalAction
from bodoge.rl.gymnasium_adapter import SeatPlay


class BodogeVectorEnv(VectorEnv):
    """`num_envs` games of `game`, each one seat (`seat`) against `opponents`, as `gym_env` plays one.

    Observations: a float32 batch `(num_envs, *observation_shape)`; rewards float64, terminations and
    truncations bool, each `(num_envs,)`; `infos["action_mask"]` an int8 batch `(num_envs,
    num_actions)` (with Gymnasium's `infos["_action_mask"]`), all ones for a game that has just ended.
    An illegal action ends its game with reward −1 and `infos["illegal_action"]` (or raises
    IllegalAction with `illegal="raise"`). `copy=False` returns the batch itself, which the next
    step overwrites (as SyncVectorEnv's `copy`)."""

    metadata: dict[str, Any] = {"render_modes": ["ansi"], "autoreset_mode": AutoresetMode.NEXT_STEP}  # noqa: RUF012 (Gymnasium declares it so)

    def __init__(
        self,
        game: str,
        num_envs: int,
        seat: int = 0,
        opponents: str | list[str] = "heuristic",
        render_mode: str | None = None,
        illegal: str = "penalize",
        autoreset_mode: str | AutoresetMode = AutoresetMode.NEXT_STEP,
        copy: bool = True,
        **options: Any,
    ) -> None:
        super().__init__()
        if isinstance(num_envs, bool) or not isinstance(num_envs, int) or num_envs < 1:
            raise BadOption("num_envs", num_envs, "a positive integer")
        self.game = bodoge.make(game, **options)
        self.game.check_seat(seat, spectator_ok=False)
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise BadOption("render_mode", render_mode, "ansi or None")
        if illegal not in ("penalize", "raise"):
            raise BadOption("illegal", illegal, "penalize or raise")
        try:
            mode = (
                autoreset_mode if isinstance(autoreset_mode, AutoresetMode) else AutoresetMode(autoreset_mode)
            )
        except ValueError:
            raise BadOption(
                "autoreset_mode", autoreset_mode, ", ".join(m.value for m in AutoresetMode)
            ) from None
        n_players = self.game.num_players
        specs = [opponents] * (n_players - 1) if isinstance(opponents, str) else list(opponents)
        if len(specs) != n_players - 1:
            raise BadOption("opponents", opponents, f"one agent spec, or a list of {n_players - 1}")
        others = [p for p in range(n_players) if p != seat]
        # shared by the games: an agent acts on the view it is given alone
        opponent_agents: dict[int, Agent] = {p: agents.make(s) for p, s in zip(others, specs, strict=True)}

        self.num_envs = num_envs
        self.seat = seat
        self.render_mode = render_mode
        self.illegal = illegal
        self.autoreset_mode = mode
        self.copy = copy
        self.metadata = {**self.metadata, "autoreset_mode": mode}
        shape = self.game.observation_shape
        self.single_observation_space = spaces.Box(low=-1.0, high=1.0, shape=shape, dtype=np.float32)
        self.single_action_space = spaces.Discrete(self.game.num_actions)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)

        self._play = SeatPlay(self.game, seat, opponent_agents)
        self._num_actions = self.game.num_actions
        self._all_legal = b"\x01" * self._num_actions
        self._obs = np.zeros((num_envs, *shape), dtype=np.float32)
        self._rows = list(self._obs)  # each game's row of the batch (views)
        self._masks = np.ones((num_envs, self._num_actions), dtype=np.int8)
        self.states: list[State | None] = [None] * num_envs
        self._agent_rngs = [random.Random(0) for _ in range(num_envs)]
        self._np_randoms: list[np.random.Generator | None] = [None] * num_envs
        self._done = [False] * num_envs  # ended at the last step: reset at the next (next-step mode)

    # -- one game ---------------------------------------------------------------------------------

    def _reset_one(self, i: int, seed: int | None) -> None:
        """What `BodogeGymEnv.reset(seed=seed)` does for game i (the same deal from the same seed)."""
        if seed is not None or self._np_randoms[i] is None:
            self._np_randoms[i], _ = seeding.np_random(seed)
        generator = self._np_randoms[i]
        assert generator is not None
        deal = int(generator.integers(2**63))
        state = self.states[i] = self.game.new_state(seed=deal)
        rng = self._agent_rngs[i] = random.Random(deal)
        self._play.opponents_move(state, rng)
        self._done[i] = False

    def _step_one(self, i: int, action: int) -> tuple[float, bool, str | None]:
        """What `BodogeGymEnv.step(action)` does for game i: (reward, terminated, illegal reason)."""
        state = self.states[i]
        if state is None:
            raise RuntimeError("call reset() before step()")
        if state.current_player is None:
            raise RuntimeError(f"game {i} is over: reset it (options={{'reset_mask': ...}})")
        try:
            state.apply(action, seat=self.seat)
        except IllegalAction as exc:
            if self.illegal == "raise":
                raise
            return -1.0, True, str(exc)
        self._play.opponents_move(state, self._agent_rngs[i])
        if state.current_player is None:
            return state.returns()[self.seat], True, None
        return 0.0, False, None

    def _write(self, i: int, mask: bytearray) -> None:
        """Game i's observation into its row of the batch, its mask into `mask` (as `gym_env`'s:
        every action once the game is over; still the legal ones after an illegal action)."""
        state = self.states[i]
        assert state is not None
        self._play.observation(state, self._rows[i])
        at = i * self._num_actions
        if state.current_player is None:
            mask[at : at + self._num_actions] = self._all_legal
        else:
            for a in state.legal_actions():
                mask[at + a] = 1

    def _out(self) -> np.ndarray:
        return self._obs.copy() if self.copy else self._obs

    # -- Gymnasium's API --------------------------------------------------------------------------

    def reset(
        self, *, seed: int | list[int | None] | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        n = self.num_envs
        if seed is None:
            seeds: list[int | None] = [None] * n
        elif isinstance(seed, int):
            seeds = [seed + i for i in range(n)]
        else:
            seeds = list(seed)
            if len(seeds) != n:
                raise ValueError(f"seed: a list of {n} seeds (one a game), not {len(seeds)}")
        chosen: list[int] = list(range(n))
        if options is not None and "reset_mask" in options:
            reset_mask = options["reset_mask"]
            if (
                not isinstance(reset_mask, np.ndarray)
                or reset_mask.shape != (n,)
                or reset_mask.dtype != np.bool_
            ):
                raise ValueError(f"options['reset_mask'] is a bool array of shape ({n},)")
            if not reset_mask.any():
                raise ValueError("options['reset_mask'] resets at least one game")
            chosen = np.flatnonzero(reset_mask).tolist()
        mask = bytearray(n * self._num_actions)
        for i in chosen:
            self._reset_one(i, seeds[i])
            self._write(i, mask)
        masks = np.frombuffer(mask, dtype=np.int8).reshape(n, self._num_actions)
        if len(chosen) == n:
            self._masks = masks
            reset = np.ones(n, dtype=np.bool_)
        else:  # as SyncVectorEnv: the games not reset have no info (zero rows, "_action_mask" False)
            self._masks = self._masks.copy()
            self._masks[chosen] = masks[chosen]
            reset = np.zeros(n, dtype=np.bool_)
            reset[chosen] = True
        return self._out(), {"action_mask": masks, "_action_mask": reset}

    def step(self, actions: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        n = self.num_envs
        chosen = actions.tolist() if isinstance(actions, np.ndarray) else list(actions)
        if len(chosen) != n:
            raise ValueError(f"step: {n} actions (one a game), not {len(chosen)}")
        mode = self.autoreset_mode
        rewards = [0.0] * n
        terminations = [False] * n
        mask = bytearray(n * self._num_actions)
        infos: dict[str, Any] = {}
        for i in range(n):
            if self._done[i]:
                if mode is AutoresetMode.NEXT_STEP:
                    self._reset_one(i, None)
                    self._write(i, mask)
                    continue
                raise RuntimeError(f"game {i} is over: reset it (options={{'reset_mask': ...}})")
            reward, ended, illegal = self._step_one(i, int(chosen[i]))
            rewards[i] = reward
            terminations[i] = ended
            if illegal is not None and mode is not AutoresetMode.SAME_STEP:
                infos = self._add_info(infos, {"illegal_action": illegal}, i)
            self._write(i, mask)
            if ended:
                if mode is AutoresetMode.SAME_STEP:  # the ended game's last step goes in final_obs/final_info
                    at = i * self._num_actions
                    final_info: dict[str, Any] = {
                        "action_mask": np.frombuffer(mask[at : at + self._num_actions], dtype=np.int8)
                    }
                    if illegal is not None:
                        final_info["illegal_action"] = illegal
                    infos = self._add_info(
                        infos, {"final_obs": self._rows[i].copy(), "final_info": final_info}, i
                    )
                    self._reset_one(i, None)
                    mask[at : at + self._num_actions] = bytes(self._num_actions)
                    self._write(i, mask)
                else:
                    self._done[i] = True
        masks = self._masks = np.frombuffer(mask, dtype=np.int8).reshape(n, self._num_actions)
        infos["action_mask"] = masks
        infos["_action_mask"] = np.ones(n, dtype=np.bool_)
        return (
            self._out(),
            np.array(rewards, dtype=np.float64),
            np.array(terminations, dtype=np.bool_),
            np.zeros(n, dtype=np.bool_),
            infos,
        )

    def action_masks(self) -> np.ndarray:
        """The masks of the last reset or step, `(num_envs, num_actions)` (as `infos["action_mask"]`)."""
        return self._masks.copy()

    def render(self) -> tuple[str, ...] | None:
        if self.render_mode is None:
            return None
        return tuple("" if s is None else s.render(self.seat) for s in self.states)
