"""Self-play games for training: every seat played by one expert agent, every decision recorded as the
seat saw it (its observation tensor, and its legal actions and the expert's choice as policy outputs:
`bodoge.agents.nn.policy_indices`), and at the end every
seat's share of the win, seats relative to the one deciding (slot 0 is that seat, as in the
observation tensors). With the lookahead teacher (`lookahead`) every legal move of a decision also
gets its value, and the game goes on by the rollout policy. Needs only NumPy; the network's training
is in `learn`."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

import numpy as np

import bodoge
from bodoge import agents
from bodoge.agents.base import legal_ids
from bodoge.agents.nn import observe, policy_indices, policy_size, readable
from bodoge.train.lookahead import Lookahead, is_lookahead


@dataclass
class Samples:
    """Decisions of self-play games, as arrays: observations (float32, N × D), legal masks over the
    policy outputs (bool, N × P), the expert's action as a policy output (int, N), and the win
    shares of the seats relative to the decider
    (float32, N × n). From the lookahead teacher also `q`: each legal output's value, the decider's win
    share after that move (float32, N × P, 0 where not legal); its `action` is then the move the game
    went on by (the rollout policy's, the heuristic's). From the network's own games (`ppo`) also
    `behaviour`: the log-probability of `action` under the policy that drew it (float32, N)."""

    obs: np.ndarray
    mask: np.ndarray
    action: np.ndarray
    value: np.ndarray
    q: np.ndarray | None = None
    behaviour: np.ndarray | None = None
    outcome: np.ndarray | None = None

    def __len__(self) -> int:
        return int(self.action.shape[0])

    @classmethod
    def empty(
        cls,
        obs_size: int,
        actions: int,
        players: int,
        valued: bool = False,
        played: bool = False,
        returned: bool = False,
    ) -> Samples:
        """No decisions, with the arrays of the samples they stand in for (`valued`: `q`, `played`:
        `behaviour`, `returned`: `outcome`), so that they join them."""
        return cls(
            np.zeros((0, obs_size), np.float32),
            np.zeros((0, actions), bool),
            np.zeros(0, np.int64),
            np.zeros((0, players), np.float32),
            np.zeros((0, actions), np.float32) if valued else None,
            np.zeros(0, np.float32) if played else None,
            np.zeros(0, np.float32) if returned else None,
        )

    @classmethod
    def of_game(
        cls,
        obs: list[np.ndarray],
        outputs: list[list[int]],
        chosen: list[int],
        seats: list[int],
        returns: list[float],
        size: int,
        q: list[np.ndarray] | None = None,
        behaviour: list[float] | None = None,
    ) -> Samples:
        """One game's decisions, recorded as they came: each one's observation, the policy outputs of
        its legal actions (of `size` outputs), the output chosen and the seat deciding; the win shares
        from the game's final `returns`; the lookahead's values or the drawn moves' log-probabilities."""
        mask = np.zeros((len(outputs), size), bool)
        for row, legal in enumerate(outputs):
            mask[row, legal] = True
        return cls(
            np.stack(obs),
            mask,
            np.asarray(chosen, np.int64),
            np.asarray([win_shares_from(returns, s) for s in seats], np.float32),
            None if q is None else np.stack(q),
            None if behaviour is None else np.asarray(behaviour, np.float32),
        )

    @property
    def kind(self) -> str:
        """What the samples teach: an expert's `choices`, the lookahead's `values`, or the network's
        own `outcomes` (ppo)."""
        return "values" if self.q is not None else "outcomes" if self.behaviour is not None else "choices"

    @classmethod
    def join(cls, parts: list[Samples]) -> Samples:
        kinds = {p.kind for p in parts}
        if len(kinds) > 1:  # TrainConfig.check refuses such runs: each kind is learned its own way
            raise ValueError(f"samples of {' and of '.join(sorted(kinds))} cannot be joined")

        def joined(key: str) -> np.ndarray | None:
            arrays = [getattr(p, key) for p in parts]
            if all(a is None for a in arrays):
                return None
            if any(a is None for a in arrays):  # ppo's games of two lambdas, one of them 1
                raise ValueError(f"samples with and without {key!r} cannot be joined")
            return np.concatenate(arrays)

        return cls(
            np.concatenate([p.obs for p in parts]),
            np.concatenate([p.mask for p in parts]),
            np.concatenate([p.action for p in parts]),
            np.concatenate([p.value for p in parts]),
            joined("q"),
            joined("behaviour"),
            joined("outcome"),
        )

    def arrays(self) -> dict[str, np.ndarray]:
        out = {"obs": self.obs, "mask": self.mask, "action": self.action, "value": self.value}
        if self.q is not None:
            out["q"] = self.q
        if self.behaviour is not None:
            out["behaviour"] = self.behaviour
        if self.outcome is not None:
            out["outcome"] = self.outcome
        return out

    @classmethod
    def load(cls, path: Any) -> Samples:
        with np.load(path) as data:
            optional = {k: data[k] for k in ("q", "behaviour", "outcome") if k in data.files}
            return cls(data["obs"], data["mask"], data["action"], data["value"], **optional)


def win_shares_from(returns: list[float], seat: int) -> list[float]:
    """Returns as shares of seats relative to `seat`; a game no one won counts as shared by all."""
    n = len(returns)
    total = sum(returns)
    if total <= 0:
        return [1.0 / n] * n
    return [returns[(seat + i) % n] / total for i in range(n)]


def play(name: str, players: int, options: dict, expert: str, seeds: list[int], agent_seed: int) -> Samples:
    """The decisions of one self-play game per seed (decisions with one legal action left out: there
    is nothing to learn from them)."""
    game = bodoge.make(name, players, **options)
    teacher = Lookahead(game, expert) if is_lookahead(expert) else None
    agent = None if teacher is not None else agents.make(expert)
    n, actions = game.num_players, policy_size(game)
    parts = []
    for seed in seeds:
        state = game.new_state(seed=seed)
        rng = random.Random(f"{agent_seed}:{seed}")
        obs, legals, chosen, seats, valued = [], [], [], [], []
        while state.current_player is not None:
            seat = state.current_player
            view = state.lazy_view(seat)
            legal = legal_ids(view)
            if len(legal) > 1:
                seen = readable(view)  # read once for the tensor and the policy outputs
                obs.append(observe(game, seen))
                outputs = policy_indices(game, seen, legal)
                legals.append(outputs)
                if teacher is not None:
                    values = [win_shares_from(r, seat)[0] for r in teacher.returns(state, legal, rng)]
                    q = np.zeros(actions, np.float32)
                    q[outputs] = values
                    valued.append(q)
                    action = int(teacher.move(state, rng))
                else:
                    assert agent is not None
                    action = int(agent.act(game, view, rng))
                chosen.append(outputs[legal.index(action)])
                seats.append(seat)
            else:
                action = legal[0]
            state.apply(action, seat=seat)
        if chosen:
            by_teacher = valued if teacher is not None else None
            parts.append(Samples.of_game(obs, legals, chosen, seats, state.returns(), actions, q=by_teacher))
    if not parts:
        return Samples.empty(int(np.prod(game.observation_shape)), actions, n, valued=teacher is not None)
    return Samples.join(parts)
