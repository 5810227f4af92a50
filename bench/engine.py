"""Engine speed, one process: random playouts, clone() and sample_state() for every game and player count.

    python bench/engine.py                 # every game, every player count, ~2 s of playouts each
    python bench/engine.py troika --seconds 5

Prints a table. Random playout = new_state, then apply(rng.choice(legal_actions())) to the end.
`view µs` is one seat's first whole view with its log, built from nothing, of the same mid-game
states: what a replay pays at every step, and a server for a table it rebuilds.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable, Sequence
from functools import partial
from typing import Any

import bodoge
from bodoge.core.registry import game_class, games


def playouts(game: bodoge.core.Game, seconds: float) -> tuple[float, float, list[bodoge.core.State]]:
    """Actions/s and games/s of random playouts; also a few mid-game states for the other timings."""
    rng = random.Random(1)
    actions = games = 0
    samples: list[bodoge.core.State] = []
    start = time.perf_counter()
    deadline = start + seconds
    while time.perf_counter() < deadline:
        state = game.new_state(seed=games)
        keep_at = rng.randrange(1, 40)
        while state.current_player is not None:
            state.apply(rng.choice(state.legal_actions()))
            if len(state.history) == keep_at and len(samples) < 200:
                samples.append(state.clone())
        actions += len(state.history)
        games += 1
    elapsed = time.perf_counter() - start
    return actions / elapsed, games / elapsed, samples


def sample(game: bodoge.core.Game, rng: random.Random, view: dict[str, Any]) -> object:
    return game.sample_state(view, rng)


def per_call_us(fn: Callable[[Any], object], items: Sequence[Any], repeat: int = 5) -> float:
    start = time.perf_counter()
    for _ in range(repeat):
        for item in items:
            fn(item)
    return (time.perf_counter() - start) / (repeat * len(items)) * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("games", nargs="*", help="games to measure (default: all)")
    parser.add_argument("--seconds", type=float, default=2.0, help="playout time per game and player count")
    args = parser.parse_args()
    names = args.games or games()
    print(
        f"{'game':<10} {'players':>7} {'actions/s':>12} {'games/s':>9} {'clone µs':>9} {'sample µs':>10}"
        f" {'view µs':>8}"
    )
    for name in names:
        cls = game_class(name)
        for players in range(cls.min_players, cls.max_players + 1):
            game = bodoge.make(name, players=players)
            aps, gps, states = playouts(game, args.seconds)
            live = [s for s in states if s.current_player is not None]
            # first: each state's first view, whose log is built from nothing (a state keeps it after)
            view_us = per_call_us(lambda s: s.view(s.current_player), live, repeat=1)
            clone_us = per_call_us(lambda s: s.clone(), states)
            views = [s.view(s.current_player) for s in live]
            sample_us = per_call_us(partial(sample, game, random.Random(2)), views, repeat=2)
            print(
                f"{name:<10} {players:>7} {aps:>12,.0f} {gps:>9,.1f} {clone_us:>9.1f} {sample_us:>10.1f}"
                f" {view_us:>8.1f}"
            )


if __name__ == "__main__":
    main()
