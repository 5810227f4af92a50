"""Exact solving of the tiny variants: CFR+ on `bodoge_<game>_tiny`, and how far from a Nash
equilibrium its average policy is.

    python bench/exact.py                         # every game's tiny variant
    python bench/exact.py tottarot --iterations 500

For each tiny variant (`bodoge.rl.openspiel_adapter.TINY`): the size of its whole tree (histories
with chance, decision nodes, information states), then OpenSpiel's Python `CFRPlusSolver` run for
the given iterations on the game as registered (explicit chance nodes, information-state strings),
and `nash_conv` of its average policy (the sum over the players of what a best response gains) at
a few checkpoints, beside that of the uniform random policy. `exploitability` (for two players,
constant-sum: nash_conv / 2) is given for the two-player variants (OpenSpiel defines it only there).
Printed as a markdown table (docs/measured.md). Times are of one process on whatever machine runs
it; only the NashConv figures are exact.
"""

from __future__ import annotations

import argparse
import time
from typing import Any

import pyspiel
from open_spiel.python import policy as spiel_policy
from open_spiel.python.algorithms import cfr, exploitability

from bodoge.rl.openspiel_adapter import TINY, register_openspiel

#: Iterations by default: each variant's CFR+ within a minute or two on a shared 2-core machine.
ITERATIONS = {"tottarot": 200, "troika": 300, "tokkuri": 300, "hangover": 40}


def tree_size(game: Any) -> dict[str, int]:
    """The whole tree: histories (every node, chance and terminal included), decision nodes,
    chance nodes, terminals, and information states (of all players)."""
    counts = {"histories": 0, "decisions": 0, "chance": 0, "terminals": 0}
    infostates: set[tuple[int, str]] = set()

    def walk(state: Any) -> None:
        counts["histories"] += 1
        if state.is_terminal():
            counts["terminals"] += 1
            return
        if state.is_chance_node():
            counts["chance"] += 1
            for outcome, _ in state.chance_outcomes():
                walk(state.child(outcome))
            return
        counts["decisions"] += 1
        infostates.add((state.current_player(), state.information_state_string()))
        for action in state.legal_actions():
            walk(state.child(action))

    walk(game.new_initial_state())
    counts["infostates"] = len(infostates)
    return counts


def solve(name: str, iterations: int) -> dict[str, Any]:
    game = pyspiel.load_game(f"bodoge_{name}_tiny")
    start = time.perf_counter()
    size = tree_size(game)
    size_seconds = time.perf_counter() - start
    uniform = exploitability.nash_conv(game, spiel_policy.UniformRandomPolicy(game))
    solver = cfr.CFRPlusSolver(game)
    checkpoints = sorted({1, 10, iterations // 4, iterations // 2, iterations} - {0})
    curve = []
    cfr_seconds = 0.0
    for i in range(1, iterations + 1):
        start = time.perf_counter()
        solver.evaluate_and_update_policy()
        cfr_seconds += time.perf_counter() - start
        if i in checkpoints:
            curve.append((i, exploitability.nash_conv(game, solver.average_policy())))
    exploit = None
    if game.num_players() == 2:  # constant-sum: OpenSpiel's exploitability is defined
        exploit = exploitability.exploitability(game, solver.average_policy())
    return {
        "exploitability": exploit,
        "name": name,
        "players": game.num_players(),
        **size,
        "size_seconds": size_seconds,
        "uniform": uniform,
        "iterations": iterations,
        "cfr_seconds": cfr_seconds,
        "curve": curve,
    }


def table(rows: list[dict[str, Any]]) -> str:
    lines = [
        "| variant | players | histories | decision nodes | information states | NashConv, uniform policy "
        "| CFR+ iterations | CFR+ time | NashConv after (at iterations) | exploitability after |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        curve = ", ".join(f"{v:.2g} ({i})" for i, v in r["curve"])
        exploit = "—" if r["exploitability"] is None else f"{r['exploitability']:.2g}"
        lines.append(
            f"| `bodoge_{r['name']}_tiny` | {r['players']} | {r['histories']:,} | {r['decisions']:,} "
            f"| {r['infostates']:,} | {r['uniform']:.3f} | {r['iterations']} | {r['cfr_seconds']:.0f} s "
            f"| {curve} | {exploit} |"
        )
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("games", nargs="*", default=list(TINY), help=f"tiny variants ({', '.join(TINY)})")
    parser.add_argument("--iterations", type=int, help="CFR+ iterations (default: per game, see ITERATIONS)")
    args = parser.parse_args()
    register_openspiel()
    rows = []
    for name in args.games:
        if name not in TINY:
            parser.error(f"no tiny variant of {name!r}; there are: {', '.join(TINY)}")
        row = solve(name, args.iterations or ITERATIONS[name])
        print(
            f"{name}: {row['histories']:,} histories in {row['size_seconds']:.1f} s; "
            f"CFR+ {row['iterations']} iterations in {row['cfr_seconds']:.0f} s: "
            + ", ".join(f"{i}: {v:.3g}" for i, v in row["curve"]),
            flush=True,
        )
        rows.append(row)
    print()
    print(table(rows))


if __name__ == "__main__":
    main()
