"""Agent steps per second through the RL interfaces, one process, beside OpenSpiel's C++ Hearts.

    python bench/rl.py                          # every game at 3 and 4 players, ~1 s per figure
    python bench/rl.py troika --players 4 --seconds 3 --batch 32
    python bench/rl.py --no-openspiel           # without the OpenSpiel columns and the Hearts rows
    BODOGE_PURE=1 python bench/rl.py            # the pure-Python modules, not those `make setup` compiles

The first line says which ran: the modules compiled with mypyc (`bodoge.compiled`, what `make setup`
builds where a C compiler is) or the pure-Python ones, and why.

Every figure is agent steps (decisions taken) per second of this process's CPU time (one core; on a
shared machine wall time would count the other processes too), the best of three slices of the
time given, with a uniform random choice among the legal actions (reading the mask where the
interface gives one):

- raw: `state.apply(rng.choice(state.legal_actions()))` to the end, new deals as needed;
- obs: the same, plus the mover's observation tensor and legal mask at every step (into a
  preallocated array where `observation_tensor` takes `out`);
- gym: `bodoge.rl.gym_env(game, opponents="random")`, steps of the learning seat (each one includes
  the random opponents' moves up to its next decision), resets included;
- vec: `bodoge.rl.vector_env(game, n, opponents="random")`: env-steps (n per batch), and batches/s;
- pz: `bodoge.rl.pettingzoo_env(game)`, the AEC loop `last()`/`step()`, every seat's steps;
- os (`--openspiel-env`): OpenSpiel's `rl_environment.Environment("bodoge_<game>")`, our game in
  Python under OpenSpiel, which builds every seat's information-state tensor at every step.

Then OpenSpiel's own C++ Hearts (4 players) in the same run: raw random play; with the mover's
information-state tensor each step, written into a buffer (`open_spiel.python.observation`) and as
the list `state.information_state_tensor(p)` returns; and through `rl_environment`. The last column
is gym's figure over Hearts' with the tensor as a list: a ratio holds across runs on a shared machine
better than either figure.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable
from typing import Any

import numpy as np

import bodoge
from bodoge.core.registry import game_class, games


def timed(step: Callable[[], int], seconds: float, slices: int = 3) -> float:
    """Calls `step` (which returns the agent steps it took) for about `seconds` of this process's CPU
    time, in `slices` equal parts; the steps per CPU second of the best part. On a shared machine
    wall time counts the other processes too, and even CPU time varies with their load: the best
    part is the figure least disturbed (as `timeit` takes the best of its repeats)."""
    step()  # warm up: imports, first deal
    clock = time.process_time
    best = 0.0
    for _ in range(slices):
        steps = 0
        start = clock()
        deadline = start + seconds / slices
        while True:
            steps += step()
            now = clock()
            if now >= deadline:
                break
        best = max(best, steps / (now - start))
    return best


def raw(game: Any, seconds: float) -> float:
    rng = random.Random(1)
    seeds = iter(range(1 << 62))

    def one_game() -> int:
        state = game.new_state(seed=next(seeds))
        while state.current_player is not None:
            state.apply(rng.choice(state.legal_actions()))
        return len(state.history)

    return timed(one_game, seconds)


def with_observation(game: Any, seconds: float) -> float:
    rng = random.Random(1)
    seeds = iter(range(1 << 62))
    out = np.zeros(game.observation_shape, dtype=np.float32)
    try:
        game.new_state(seed=0).observation_tensor(0, out=out)
        takes_out = True
    except TypeError:  # the code before `out`
        takes_out = False

    def one_game() -> int:
        state = game.new_state(seed=next(seeds))
        while state.current_player is not None:
            if takes_out:
                state.observation_tensor(state.current_player, out=out)
            else:
                state.observation_tensor(state.current_player)
            state.legal_mask()
            state.apply(rng.choice(state.legal_actions()))
        return len(state.history)

    return timed(one_game, seconds)


def gym(name: str, players: int, seconds: float) -> float:
    import bodoge.rl

    env = bodoge.rl.gym_env(name, seat=0, opponents="random", players=players)
    rng = random.Random(1)
    seeds = iter(range(1 << 62))

    def episode() -> int:
        _, info = env.reset(seed=next(seeds))
        steps = 0
        done = False
        while not done:
            legal = info["action_mask"].nonzero()[0]
            _, _, done, _, info = env.step(legal[int(rng.random() * len(legal))])
            steps += 1
        return steps

    return timed(episode, seconds)


def vector(name: str, players: int, batch: int, seconds: float) -> float | None:
    import bodoge.rl

    if not hasattr(bodoge.rl, "vector_env"):
        return None
    envs = bodoge.rl.vector_env(name, batch, opponents="random", players=players)
    _, infos = envs.reset(seed=1)
    gen = np.random.default_rng(1)
    last = [infos]

    def steps() -> int:
        infos = last[0]
        for _ in range(20):
            mask = infos["action_mask"]
            # a uniform choice among each row's legal actions: the argmax of random keys where legal
            actions = np.argmax(gen.random(mask.shape) * mask, axis=1)
            _, _, _, _, infos = envs.step(actions)
        last[0] = infos
        return 20 * batch

    return timed(steps, seconds)


def pettingzoo(name: str, players: int, seconds: float) -> float:
    import bodoge.rl

    env = bodoge.rl.pettingzoo_env(name, players=players)
    rng = random.Random(1)
    seeds = iter(range(1 << 62))

    def episode() -> int:
        env.reset(seed=next(seeds))
        steps = 0
        for agent in env.agent_iter():
            observation, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                action = None
            else:
                legal = observation["action_mask"].nonzero()[0]
                action = legal[int(rng.random() * len(legal))]
                steps += 1
            env.step(action)
            del agent
        return steps

    return timed(episode, seconds)


def openspiel_env(game_name: str, seconds: float, params: dict[str, Any] | None = None) -> float:
    from open_spiel.python import rl_environment

    env = rl_environment.Environment(game_name, **(params or {}))
    rng = random.Random(1)

    def episode() -> int:
        step = env.reset()
        steps = 0
        while not step.last():
            player = step.observations["current_player"]
            legal = step.observations["legal_actions"][player]
            step = env.step([legal[int(rng.random() * len(legal))]])
            steps += 1
        return steps

    return timed(episode, seconds)


def hearts(seconds: float) -> tuple[float, float, float, float]:
    import pyspiel
    from open_spiel.python.observation import make_observation

    game = pyspiel.load_game("hearts")
    rng = random.Random(1)
    observation = make_observation(game, pyspiel.IIGObservationType(perfect_recall=True))

    def play(tensor: str) -> Callable[[], int]:
        def one_game() -> int:
            state = game.new_initial_state()
            steps = 0
            while not state.is_terminal():
                if state.is_chance_node():
                    outcomes = state.chance_outcomes()
                    state.apply_action(outcomes[int(rng.random() * len(outcomes))][0])
                    continue
                if tensor == "buffer":
                    observation.set_from(state, state.current_player())
                elif tensor == "list":
                    state.information_state_tensor(state.current_player())
                legal = state.legal_actions()
                state.apply_action(legal[int(rng.random() * len(legal))])
                steps += 1
            return steps

        return one_game

    return (
        timed(play(""), seconds),
        timed(play("buffer"), seconds),
        timed(play("list"), seconds),
        openspiel_env("hearts", seconds),
    )


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("games", nargs="*", help="games to measure (default: all)")
    parser.add_argument("--players", type=int, nargs="*", default=[3, 4], help="player counts (default 3 4)")
    parser.add_argument("--seconds", type=float, default=1.0, help="time per figure")
    parser.add_argument("--batch", type=int, default=16, help="games stepped together by the vector env")
    parser.add_argument("--no-openspiel", action="store_true", help="skip OpenSpiel's Hearts")
    parser.add_argument(
        "--openspiel-env",
        action="store_true",
        help="measure our games through OpenSpiel's rl_environment too (slow: tens of steps/s)",
    )
    args = parser.parse_args()
    use_openspiel = not args.no_openspiel
    if use_openspiel:
        try:
            import pyspiel  # noqa: F401

            from bodoge.rl import register_openspiel

            register_openspiel()
        except ImportError:
            use_openspiel = False
    reference = hearts(args.seconds) if use_openspiel else None
    # The figures of Tokkuri and Troika depend on it (bodoge.compiled): say which modules ran.
    status = getattr(bodoge, "compiled", None)  # (older trees, measured for comparison, have none)
    print(f"modules: {status.status() if status is not None else 'pure Python (before bodoge.compiled)'}")
    print(
        f"{'game':<9} {'n':>2} {'raw':>9} {'obs':>8} {'gym':>8} {'vec':>8} {'vec b/s':>8} {'pz':>8}"
        f" {'os':>7} {'gym/hearts':>10}"
    )
    for name in args.games or games():
        cls = game_class(name)
        for players in args.players:
            if not cls.min_players <= players <= cls.max_players:
                continue
            game = bodoge.make(name, players=players)
            r = raw(game, args.seconds)
            o = with_observation(game, args.seconds)
            g = gym(name, players, args.seconds)
            v = vector(name, players, args.batch, args.seconds)
            p = pettingzoo(name, players, args.seconds)
            s = (
                openspiel_env(f"bodoge_{name}", args.seconds, {"players": players})
                if use_openspiel and args.openspiel_env
                else None
            )
            vec = f"{v:>8,.0f} {v / args.batch:>8,.0f}" if v is not None else f"{'—':>8} {'—':>8}"
            os_text = f"{s:>7,.0f}" if s is not None else f"{'—':>7}"
            ratio = f"{g / reference[2]:>10.2f}" if reference is not None else f"{'—':>10}"
            print(
                f"{name:<9} {players:>2} {r:>9,.0f} {o:>8,.0f} {g:>8,.0f} {vec} {p:>8,.0f} {os_text} {ratio}",
                flush=True,
            )
    if reference is not None:
        hr, hb, hl, he = reference
        print(
            f"\nOpenSpiel's C++ hearts (4 players), steps per CPU second: raw {hr:,.0f}, with the "
            f"information-state tensor into a buffer {hb:,.0f}, as a list (information_state_tensor) "
            f"{hl:,.0f}, through rl_environment {he:,.0f}"
        )


if __name__ == "__main__":
    main()
