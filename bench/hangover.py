"""Hangover between bots: who declares non-drinker, how long games last, how they end, who wins.

    python bench/hangover.py                     # the heuristic, 3–5 players, 300 games each
    python bench/hangover.py --agent ismcts:iterations=200 --games 40 --players 4
    python bench/hangover.py --against 60bf7d5 --deals 1000   # today's heuristic against an older one
    python bench/hangover.py --set hand_size=7                # a variant (options as in bodoge sim)

Every seat plays the same agent, default options. Printed per player count: the share of seats that
declared non-drinker (HO-4.2), tricks per game, how the game ended (HO-4.8: nobody active, or the
hands ran out), how each kind of seat finished (HO-5.3.2 `out_non_drinker`, HO-5.4 `hung_over`, or
still active) and its win share, and the arithmetic bound below.

The bound: non-drinkers win at most one trick each (HO-5.3.2), so with d drinkers the drinkers win at
least `hand_size − (n − d)` of the tricks while the hands last, and each drinker wins at most
`hangover_trick − 1` without hanging over (HO-5.4). Unless the game stops first because nobody is
active, some drinker must hang over when d × (hangover_trick − 1) < hand_size − (n − d). The column
"drinkers needed" is the smallest d for which no drinker has to.

`--against REV` measures instead the heuristic of this checkout against the heuristic of the git
revision REV (its `games/hangover/heuristic.py`, loaded as it was then): one seat plays today's
against n − 1 of that one, each deal once with today's in every seat (seats rotated, duplicate
deals), and the win share of today's seat is printed with its 95% interval over deals and the fair
share 1/n. 60bf7d5 is the last revision with the heuristic that declared unless its hand was
top-heavy (issue #17).
"""

from __future__ import annotations

import argparse
import importlib.util
import random
import subprocess
import sys
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import typer

import bodoge
from bodoge import agents
from bodoge.arena.stats import clustered_mean_ci
from bodoge.cli.common import parse_settings
from bodoge.errors import BodogeError
from bodoge.games.hangover import heuristic

Act = Callable[[Any, Any, random.Random], int]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--agent", default="heuristic", help="the agent at every seat (default heuristic)")
    parser.add_argument("--players", type=int, nargs="*", default=[3, 4, 5])
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--against", metavar="REV", help="today's heuristic against that of git revision REV")
    parser.add_argument("--deals", type=int, default=500, help="deals per player count with --against")
    parser.add_argument(
        "--set",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="an option (value in JSON where it parses), as in bodoge sim",
    )
    args = parser.parse_args(argv)
    try:
        options = parse_settings(args.set)  # as `bodoge sim --set` reads them
    except typer.Exit as stop:  # it has printed what was wrong
        sys.exit(stop.exit_code)
    try:
        for n in args.players:
            bodoge.make("hangover", players=n, **options)
    except BodogeError as exc:
        parser.error(str(exc))
    if args.deals < 1 or args.games < 1:
        parser.error("--games and --deals take a whole number of at least 1")
    if args.against:
        old = heuristic_at(args.against)
        print(
            f"| players | today's heuristic against {args.against}'s: win share | fair | above fair? | games |\n"
            "|---|---|---|---|---|"
        )
        for n in args.players:
            share = duel(bodoge.make("hangover", players=n, **options), heuristic.act, old, args.deals)
            above = "yes" if share.low > 1 / n else "no"
            print(f"| {n} | {share.text()} | {1 / n:.3f} | {above} | {share.n * n} |", flush=True)
        return
    print(
        f"| players | {args.agent}: non-drinkers | tricks/game | ended: nobody active / hands out "
        "| drinkers: hung over, win share | non-drinkers: out, win share | drinkers needed |\n"
        "|---|---|---|---|---|---|---|"
    )
    for n in args.players:
        game = bodoge.make("hangover", players=n, **options)
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


def heuristic_at(rev: str) -> Act:
    """The `act` of Hangover's heuristic as it was at git revision `rev`."""
    path = "src/bodoge/games/hangover/heuristic.py"
    root = Path(__file__).resolve().parent.parent
    try:
        text = subprocess.run(
            ["git", "show", f"{rev}:{path}"], cwd=root, capture_output=True, text=True, check=True
        ).stdout
    except subprocess.CalledProcessError as exc:
        sys.exit(f"cannot read {path} at {rev!r}: {exc.stderr.strip()}")
    spec = importlib.util.spec_from_loader(f"hangover_heuristic_{rev}", loader=None)
    assert spec is not None
    module = importlib.util.module_from_spec(spec)
    exec(compile(text, f"{rev}:{path}", "exec"), module.__dict__)
    act: Act = module.act
    return act


def duel(game: Any, ours: Act, theirs: Act, deals: int) -> Any:
    """`ours` in one seat against n − 1 `theirs`, every deal once with `ours` in each seat: the win
    share of `ours` with its interval over deals."""
    n = game.num_players
    results = []
    for deal in range(deals):
        for seat in range(n):
            state = game.new_state(seed=deal)
            rng = random.Random(deal * n + seat)
            while not state.is_terminal:
                p = state.current_player
                view = state.view(p, log=False)
                state.apply((ours if p == seat else theirs)(game, view, rng))
            results.append((deal, state.returns()[seat]))
    return clustered_mean_ci(results)


def _fate(
    seats: Counter[str], wins: Counter[str], fates: Counter[tuple[str, str]], kind: str, status: str
) -> str:
    """How often seats of `kind` ended with `status`, and their win share."""
    if not seats[kind]:
        return "—"
    return f"{fates[kind, status] / seats[kind]:.0%}, {wins[kind] / seats[kind]:.3f}"


if __name__ == "__main__":
    main()
