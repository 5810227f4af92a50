"""Standard environments on every bodoge game (extra `rl`): PettingZoo, Gymnasium and OpenSpiel.

    env = bodoge.rl.pettingzoo_env("troika", players=4)   # PettingZoo AEC, agents player_0 …
    env = bodoge.rl.gym_env("troika", seat=0, opponents="heuristic")
    envs = bodoge.rl.vector_env("troika", 64, opponents="random")   # Gymnasium's vector API, one process
    gymnasium.make("bodoge/Troika-v1")                     # ids registered by `import bodoge.rl`
    bodoge.rl.register_openspiel(); pyspiel.load_game("bodoge_troika")

Observations are `state.observation_tensor(seat)`, a fixed-size float32 encoding of `view(seat)`
alone (each game documents its slices in `bodoge/games/<game>/observation.py`), with
`state.legal_mask()` over `game.num_actions`.
"""

from __future__ import annotations

from typing import Any


def pettingzoo_env(game: str, render_mode: str | None = None, **options: Any) -> Any:
    from bodoge.rl.pettingzoo_adapter import BodogeAECEnv

    return BodogeAECEnv(game, render_mode=render_mode, **options)


def gym_env(game: str, seat: int = 0, opponents: str | list[str] = "heuristic", **options: Any) -> Any:
    from bodoge.rl.gymnasium_adapter import BodogeGymEnv

    return BodogeGymEnv(game, seat=seat, opponents=opponents, **options)


def vector_env(
    game: str, num_envs: int, seat: int = 0, opponents: str | list[str] = "heuristic", **options: Any
) -> Any:
    """`num_envs` games of `gym_env(game, seat, opponents, **options)` as one `gymnasium.vector.VectorEnv`
    stepped in this process: batched observations, rewards and masks (`infos["action_mask"]`),
    Gymnasium's autoreset (`autoreset_mode=`, next-step by default), `copy=`, `illegal=`."""
    from bodoge.rl.vector_adapter import BodogeVectorEnv

    return BodogeVectorEnv(game, num_envs, seat=seat, opponents=opponents, **options)


def register_openspiel() -> list[str]:
    from bodoge.rl.openspiel_adapter import register_openspiel as register

    return register()


def _register_gymnasium_ids() -> None:
    try:
        from bodoge.rl.gymnasium_adapter import register_envs
    except ImportError:  # the rl extra is not installed: the ids wait until it is
        return
    register_envs()


_register_gymnasium_ids()

__all__ = ["gym_env", "pettingzoo_env", "register_openspiel", "vector_env"]
