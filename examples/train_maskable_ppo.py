"""Train a small agent on a bodoge game with Stable-Baselines3's MaskablePPO, then show it beats random.

    pip install -e ".[ppo]"                     # rl + sb3-contrib (and torch)
    python examples/train_maskable_ppo.py --game tottarot --players 2 --minutes 5

The agent plays one seat of the Gymnasium environment (`bodoge.rl.gym_env`) against random agents,
choosing only legal actions through the action mask. Afterwards it plays `--eval` fresh deals from
that seat and the script prints its win share beside a random agent's in the same seat, each with a
95% confidence interval.
"""

from __future__ import annotations

import argparse
import math
import time
from typing import Any

import numpy as np
from sb3_contrib import MaskablePPO
from stable_baselines3.common.callbacks import BaseCallback

import bodoge.rl


class StopAfter(BaseCallback):  # type: ignore[misc]
    """Stops training after a wall-clock budget."""

    def __init__(self, seconds: float) -> None:
        super().__init__()
        self.deadline = time.monotonic() + seconds

    def _on_step(self) -> bool:
        return time.monotonic() < self.deadline


def win_share(env: Any, policy: Any, games: int, seed: int) -> tuple[float, float]:
    """Mean reward (the seat's win share) over `games` deals, and its 95% half-width."""
    rewards = []
    for i in range(games):
        obs, info = env.reset(seed=seed + i)
        done = False
        total = 0.0
        while not done:
            action = policy(obs, info["action_mask"])
            obs, reward, done, _, info = env.step(action)
            total += reward
        rewards.append(total)
    mean = float(np.mean(rewards))
    return mean, 1.96 * float(np.std(rewards, ddof=1)) / math.sqrt(games)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--game", default="tottarot")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--minutes", type=float, default=5.0, help="training time budget")
    parser.add_argument("--eval", type=int, default=1000, help="evaluation games")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    env = bodoge.rl.gym_env(args.game, players=args.players, opponents="random")
    model = MaskablePPO("MlpPolicy", env, seed=args.seed, verbose=0, n_steps=1024, batch_size=256)
    rng = np.random.default_rng(args.seed)

    def trained(obs: np.ndarray, mask: np.ndarray) -> int:
        action, _ = model.predict(obs, action_masks=mask, deterministic=True)
        return int(action)

    def uniform(obs: np.ndarray, mask: np.ndarray) -> int:
        return int(rng.choice(np.flatnonzero(mask)))

    fair = 1 / args.players
    eval_seed = 10**6  # deals the agent never trained on

    def report(label: str, policy: Any) -> None:
        mean, half = win_share(env, policy, args.eval, eval_seed)
        print(f"{label:<20} win share vs random opponents: {mean:.3f} ± {half:.3f}  (fair share {fair:.3f})")

    # The untrained network is a fixed policy too: the baseline that shows what training added.
    report("untrained network", trained)
    start = time.monotonic()
    model.learn(total_timesteps=10**9, callback=StopAfter(args.minutes * 60))
    print(f"trained {model.num_timesteps:,} steps in {time.monotonic() - start:.0f} s")
    report("trained MaskablePPO", trained)
    report("random", uniform)


if __name__ == "__main__":
    main()
