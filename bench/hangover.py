"""Hangover between bots: who declares non-drinker, how long games last, how they end, who wins.

    python bench/hangover.py                     # the heuristic, 3–5 players, 300 games each
    python bench/hangover.py --agent ismcts:iterations=200 --games 40 --players 4

Every seat plays the same agent, default options. Printed per player count: the share of seats that
declared non-drinker (HO-4.2), tricks per game, how the game ended (HO-4.8: nobody active, or the
hands ran out), how each kind of seat finished (HO-5.3.2 `out_non_drinker`, HO-5.4 `hung_over`, or
still active) and its win share, and the arithmetic bound below.

The bound: non-drinkers win at most one trick each (HO-5.3.2), so with d drinkers the drinkers win at
least `hand_size − (n − d)` of the tricks while the hands last, and each drinker wins at most
`hangover_trick − 1` without hanging over (HO-5.4). Unless the game stops first because nobody is
active, some drinker must hang over when d × (hangover_trick − 1) < hand_size − (n − d). The column
"drinkers needed" is the smallest d for which no drinker has to.
"""

from __future__ import annotations

import argparse
import random
from collections import Counter

import bodoge
from bodoge import agents


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--agent", default="heuristic", help="the agent at every seat (default heuristic)")
    parser.add_argument("--players", type=int, nargs="*", default=[3, 4, 5])
    parser.add_argument("--games", type=int, default=300)
    args = parser.parse_args(argv)
    print(
        f"| players | {args.agent}: non-drinkers | tricks/game | ended: nobody active / hands out "
        "| drinkers: hung over, win share | non-drinkers: out, win share | drinkers needed |\n"
        "|---|---|---|---|---|---|---|"
    )
    for n in args.players:
        game = bodoge.make("hangover", players=n)
        bot = agents.make(args.agent)
        seats: Counter[str] = Counter()
        wins: Counter[str] = Counter()
        fates: Counter[tuple[str, str]] = Counter()
        ends: Counter[str] = Counter()
        tricks = 0
        for seed in range(args.games):
            state = game.new_state(seed=seed)
            rng = random.Random(seed)
            while not state.is_terminal:
                seat = state.current_player
                state.apply(bot.act(game, state.lazy_view(seat), rng))
            view = state.view(None, log=False)
            returns = state.returns()
            tricks += view["trick_number"]
            ends["hands out" if view["trick_number"] == game.hand_size else "nobody active"] += 1
            for q, info in enumerate(view["seats"]):
                kind = "non_drinker" if info["declared"] else "drinker"
                seats[kind] += 1
                wins[kind] += returns[q]
                fates[kind, info["status"]] += 1
        d = next(
            d for d in range(n + 1) if d * (game.hangover_trick - 1) >= game.hand_size - (n - d) or d == n
        )
        drinkers = _fate(seats, wins, fates, "drinker", "hung_over")
        non_drinkers = _fate(seats, wins, fates, "non_drinker", "out_non_drinker")
        print(
            f"| {n} | {seats['non_drinker'] / (n * args.games):.0%} | {tricks / args.games:.1f} "
            f"| {ends['nobody active']} / {ends['hands out']} | {drinkers} | {non_drinkers} | {d} of {n} |",
            flush=True,
        )


def _fate(
    seats: Counter[str], wins: Counter[str], fates: Counter[tuple[str, str]], kind: str, status: str
) -> str:
    """How often seats of `kind` ended with `status`, and their win share."""
    if not seats[kind]:
        return "—"
    return f"{fates[kind, status] / seats[kind]:.0%}, {wins[kind] / seats[kind]:.3f}"


if __name__ == "__main__":
    main()
