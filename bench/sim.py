"""Simulations beside the engine: `bodoge sim` throughput against bare random playouts, one process.

    python bench/sim.py                         # every game, 4 players (Tokkuri 3)
    python bench/sim.py troika --players 3 --games 2000

For each game, in one run: the engine's own random playouts (`bench/engine.py`: new_state, then
apply(rng.choice(legal_actions())) to the end), then the arena (`arena.run`, one worker, records,
metrics and all, as `bodoge sim --jobs 1` runs it) with random, heuristic and ismcts players. Printed:
actions/s and games/s of each, and the random arena's share of the engine's actions/s.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

import bodoge
from bodoge import arena
from bodoge.core.registry import game_class
from engine import playouts  # bench/engine.py


def arena_rate(name: str, players: int, spec: str, games: int) -> tuple[float, float]:
    """(actions/s, games/s) of `games` arena games between `spec` players, one worker."""
    config = arena.SimConfig(game=name, players=players, agents=[spec] * players, games=games, seed=1)
    with tempfile.TemporaryDirectory() as out:
        start = time.perf_counter()
        records = arena.run(config, out=Path(out), jobs=1)
        elapsed = time.perf_counter() - start
    actions = sum(r["arena"]["length"] for r in records)
    return actions / elapsed, len(records) / elapsed


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("games_", nargs="*", metavar="GAME", help="games (default: every registered game)")
    parser.add_argument("--players", type=int, help="player count (default 4, or the game's largest below)")
    parser.add_argument("--games", type=int, default=1000, help="random games (default 1000)")
    parser.add_argument("--heuristic-games", type=int, default=200, help="heuristic games (default 200)")
    parser.add_argument("--ismcts-games", type=int, default=4, help="ismcts games (default 4)")
    parser.add_argument("--ismcts", default="ismcts:iterations=100", help="the ismcts spec")
    args = parser.parse_args(argv)
    print(
        "| game | players | engine actions/s | random sim actions/s (share) | random games/s "
        f"| heuristic games/s | {args.ismcts} games/s |\n|---|---|---|---|---|---|---|",
        flush=True,
    )
    for name in args.games_ or bodoge.games():
        cls = game_class(name)
        n = min(max(args.players or 4, cls.min_players), cls.max_players)
        game = bodoge.make(name, players=n)
        engine, _, _ = playouts(game, 2.0)
        rand, rand_games = arena_rate(name, n, "random", args.games)
        _, heur_games = arena_rate(name, n, "heuristic", args.heuristic_games)
        _, search_games = arena_rate(name, n, args.ismcts, args.ismcts_games)
        print(
            f"| {name} | {n} | {engine:,.0f} | {rand:,.0f} ({rand / engine:.0%}) | {rand_games:,.0f} "
            f"| {heur_games:,.1f} | {search_games:.2f} |",
            flush=True,
        )


if __name__ == "__main__":
    main()
