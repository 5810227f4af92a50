"""Bot strength and ISMCTS speed, for every game and player count: the README's strength table.

    python bench/agents.py                          # every game and player count
    python bench/agents.py --games 400 --ismcts-games 200 --jobs 2   # more games
    python bench/agents.py troika --players 4       # one game, one player count
    python bench/agents.py --speed-only             # only ISMCTS iterations/s and seconds per move

Two match-ups per game and player count, each in the arena with seat rotation and duplicate deals:
- `heuristic` against n − 1 `random`;
- `ismcts` (its default budget) against n − 1 `heuristic`.
The win share of the first agent is printed with its 95% interval (deal-clustered) and the fair share
1/n; "yes" means the interval lies above the fair share. Runs are kept under results/bench/ and
resumed, so an interrupted benchmark continues where it stopped.

Speed: the default `ismcts` at positions taken every few moves from heuristic games (one process):
its iterations per second, and its mean and largest time per move. Game counts are rounded up to
whole deals (a multiple of the player count).
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

import bodoge
from bodoge import agents, arena
from bodoge.agents.ismcts import ISMCTSAgent
from bodoge.core.registry import game_class


def positions(game: bodoge.core.Game, count: int, seed: int = 1) -> list[bodoge.core.State]:
    """Decision points (with more than one legal action) spread over heuristic games."""
    heuristic = agents.make("heuristic")
    rng = random.Random(seed)
    out: list[bodoge.core.State] = []
    deal = 0
    while len(out) < count:
        state = game.new_state(seed=seed + deal)
        deal += 1
        every = rng.randrange(3, 9)
        while not state.is_terminal and len(out) < count:
            seat = state.current_player
            assert seat is not None
            if len(state.history) % every == 0 and len(state.legal_actions()) > 1:
                out.append(state.clone())
            state.apply(heuristic.act(game, state.view(seat), rng))
    return out


def speed(name: str, players: int, count: int) -> tuple[float, float, float]:
    """The default `ismcts` at `count` positions: (iterations/s, mean and largest seconds per move)."""
    game = bodoge.make(name, players=players)
    bot = agents.make("ismcts")
    assert isinstance(bot, ISMCTSAgent)
    iterations, times = 0, []
    for i, state in enumerate(positions(game, count)):
        view = state.view(state.current_player)
        start = time.perf_counter()
        bot.act(game, view, random.Random(i))
        times.append(time.perf_counter() - start)
        iterations += bot.last_iterations
    return iterations / sum(times), sum(times) / len(times), max(times)


def strength(
    name: str, players: int, lineup: list[str], games: int, jobs: int, out: Path
) -> dict[str, object]:
    config = arena.SimConfig(game=name, players=players, agents=lineup, games=games, seed=1)
    records = arena.run(config, out=out, jobs=jobs, resume=True)
    arena.write_report(arena.summarize(records, config), records, out, plots=False)
    (variant,) = arena.summarize(records, config)["variants"]
    first = variant["agents"][0]
    return {"share": first["win_share"], "fair": first["fair"], "games": len(records)}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("games_", nargs="*", metavar="GAME", help="games (default: every registered game)")
    parser.add_argument("--players", type=int, nargs="*", help="player counts (default: every count)")
    parser.add_argument("--games", type=int, default=200, help="heuristic-vs-random games (default 200)")
    parser.add_argument("--ismcts-games", type=int, default=40, help="ismcts-vs-heuristic games (default 40)")
    parser.add_argument("--jobs", type=int, default=2, help="worker processes (default 2)")
    parser.add_argument("--positions", type=int, default=20, help="positions for the speed test")
    parser.add_argument("--speed-only", action="store_true", help="skip the strength matches")
    parser.add_argument("--out", type=Path, default=Path("results/bench"), help="where runs are kept")
    args = parser.parse_args(argv)
    names = args.games_ or bodoge.games()
    rows = []
    header = (
        "| game | players | heuristic vs random: win share (fair) | above? "
        "| ismcts vs heuristic: win share (fair) | above? | games | ismcts iterations/s | s/move mean (max) |"
    )
    print(header)
    print("|---|---|---|---|---|---|---|---|---|")
    for name in names:
        cls = game_class(name)
        counts = args.players or list(range(cls.min_players, cls.max_players + 1))
        for n in counts:
            if not cls.min_players <= n <= cls.max_players:
                continue
            rate, mean_move, max_move = speed(name, n, args.positions)
            cells = [name, str(n)]
            played = []
            if args.speed_only:
                cells += ["", "", "", ""]
            else:
                for lineup, tag, games in (
                    (["heuristic"] + ["random"] * (n - 1), "heuristic-random", args.games),
                    (["ismcts"] + ["heuristic"] * (n - 1), "ismcts-heuristic", args.ismcts_games),
                ):
                    games = -(-games // n) * n  # whole deals: every agent in every seat
                    result = strength(name, n, lineup, games, args.jobs, args.out / f"{name}-{n}p-{tag}")
                    share = result["share"]
                    assert isinstance(share, arena.Estimate)
                    cells += [
                        f"{share.text()} ({result['fair']:.3f})",
                        "yes" if share.above(result["fair"]) else "no",
                    ]  # type: ignore[arg-type]
                    played.append(str(result["games"]))
            cells += ["/".join(played), f"{rate:,.0f}", f"{mean_move:.2f} ({max_move:.2f})"]
            row = "| " + " | ".join(cells) + " |"
            rows.append(row)
            print(row, flush=True)
    sys.stdout.flush()


if __name__ == "__main__":
    main()
