"""The review's ladder (issue #55): does the game review judge good play above bad, in every game?

    python bench/review_ladder.py                                # every game, 3 and 4 players
    python bench/review_ladder.py troika --players 4 --games 16 --jobs 2
    python bench/review_ladder.py hangover --leaf rollout --leaf nn   # the review's two valuations

Each row plays `--games` games (four rotations of each deal, so every agent sits in every seat) of
four agents: `random`, `heuristic`, a search (`--search`, ISMCTS at a fixed number of iterations, so
the row does not move with the machine's load) and `nn` (the shipped network); with 3 players each
table seats three of them in turn. Then every seat of every game is reviewed as the server reviews
it (`analysis.review`, its default budget, seed 1), and each agent's figures over its judged decisions
are printed: accuracy (the share of the win share at stake that it kept) with a 95% interval from a
bootstrap over the games, mean loss with its interval (games as the unit), how many of its
decisions were judged, and beside them its win share in the games themselves (deals as the unit):
what the review's judgment can be held against. The ladder **holds** where random's accuracy is
below the heuristic's and the heuristic's is not above the search's (its interval not wholly above
the search's: a level pair is not "above"); the row says so, and whether random's interval lies
wholly below the heuristic's.

The agents the review is judged by are the review's own playouts (the game's quick policy, the
heuristic's play) or the shipped network (`--leaf`): the `nn` agent is judged partly by its own value
network where the review uses it, so its row is no independent witness; the others are.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

import bodoge
from bodoge import agents
from bodoge.analysis.review import JUDGED, default_budget, review_records, stakes
from bodoge.analysis.values import Leaf
from bodoge.arena.stats import clustered_mean_ci

GAMES = ("hangover", "tokkuri", "tottarot", "troika")
SEARCH = "ismcts:iterations=400"
BOOTSTRAP = 2000


def table_agents(table: int, players: int, search: str) -> list[str]:
    """The agents of table `table`: the four in turn, each seat the next (rotations of one deal)."""
    four = ("random", "heuristic", search, "nn")
    return [four[(table + seat) % 4] for seat in range(players)]


def play(unit: tuple[str, int, int, int, str]) -> dict[str, Any]:
    """One game of the ladder: its record, with the agent of each seat in `arena.agents`."""
    name, players, seed, table, search = unit
    game = bodoge.make(name, players)
    seated = table_agents(table, players, search)
    made = [agents.make(spec) for spec in seated]
    state = game.new_state(seed=seed)
    rng = random.Random(f"ladder:{seed}:{table}")
    while not state.is_terminal:
        seat = state.current_player
        state.apply(made[seat].act(game, state.lazy_view(seat), rng))
    record = state.to_record()
    record["arena"] = {"agents": seated}
    return record


def bootstrap_accuracy(per_game: list[tuple[float, float]], rng: random.Random) -> tuple[float, float]:
    """The 95% interval of 1 − Σ loss / Σ stakes over games resampled with replacement."""
    ratios = []
    n = len(per_game)
    for _ in range(BOOTSTRAP):
        draw = [per_game[rng.randrange(n)] for _ in range(n)]
        at_stake = sum(s for _, s in draw)
        if at_stake > 0:
            ratios.append(100 * (1 - sum(x for x, _ in draw) / at_stake))
    ratios.sort()
    return ratios[int(0.025 * len(ratios))], ratios[int(0.975 * len(ratios)) - 1]


def figures(records: list[dict[str, Any]], reviews: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """Each agent's accuracy, mean loss and counts over the ladder's reviews (module docstring)."""
    by_agent: dict[str, dict[str, Any]] = {}
    for g, (record, review) in enumerate(zip(records, reviews, strict=True)):
        seated = record["arena"]["agents"]
        for seat, agent in enumerate(seated):
            row = by_agent.setdefault(
                agent, {"games": [], "losses": [], "judged": 0, "not_judged": 0, "returns": []}
            )
            row["returns"].append((record["seed"], review["returns"][seat]))
            mine = [d for d in review["decisions"] if d["seat"] == seat and d["class"] != "forced"]
            judged = [d for d in mine if d["class"] in JUDGED]
            row["judged"] += len(judged)
            row["not_judged"] += len(mine) - len(judged)
            row["games"].append((sum(d["loss"] for d in judged), sum(stakes(d) for d in judged)))
            row["losses"] += [(g, d["loss"]) for d in judged]
    rng = random.Random(1)
    out = {}
    for agent, row in by_agent.items():
        at_stake = sum(s for _, s in row["games"])
        accuracy = 100 * (1 - sum(x for x, _ in row["games"]) / at_stake) if at_stake > 0 else None
        low, high = bootstrap_accuracy(row["games"], rng) if at_stake > 0 else (None, None)
        loss = clustered_mean_ci(row["losses"]) if len(row["losses"]) > 1 else None
        won = clustered_mean_ci(row["returns"])  # the deal as the unit
        out[agent] = {
            "win_share": won.mean,
            "win_share_low": max(0.0, won.low),
            "win_share_high": min(1.0, won.high),
            "accuracy": accuracy,
            "accuracy_low": low,
            "accuracy_high": high,
            "mean_loss": None if loss is None else loss.mean,
            "mean_loss_low": None if loss is None else max(0.0, loss.low),
            "mean_loss_high": None if loss is None else loss.high,
            "judged": row["judged"],
            "not_judged": row["not_judged"],
        }
    return out


def verdict(rows: dict[str, dict[str, Any]], search: str) -> dict[str, Any]:
    """Whether the ladder holds: random's accuracy below the heuristic's, and the heuristic's not above
    the search's (its interval not wholly above the search's: level counts as not above).
    `separated`: random's interval wholly below the heuristic's."""
    r, h, s = (rows.get(a, {}) for a in ("random", "heuristic", search))
    if r.get("accuracy") is None or h.get("accuracy") is None or s.get("accuracy") is None:
        return {"holds": None, "separated": None}
    above = h["accuracy_low"] > s["accuracy_high"]
    return {
        "holds": r["accuracy"] < h["accuracy"] and not above,
        "separated": r["accuracy_high"] < h["accuracy_low"],
    }


def run_row(
    name: str, players: int, games: int, seed: int, search: str, leaf: str, jobs: int
) -> dict[str, Any]:
    units = [(name, players, seed + table // 4, table, search) for table in range(games)]
    started = time.perf_counter()
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        records = list(pool.map(play, units))
    played = time.perf_counter() - started
    started = time.perf_counter()
    reviews = review_records(records, jobs=jobs, leaf=leaf)
    reviewed = time.perf_counter() - started
    rows = figures(records, reviews)
    game = bodoge.make(name, players)
    budget = default_budget(game)
    return {
        "game": name,
        "players": players,
        "games": games,
        "seed": seed,
        "leaf": reviews[0]["review"]["leaf"],
        "deals": budget.deals,
        "agents": rows,
        **verdict(rows, search),
        "seconds_play": round(played, 1),
        "seconds_review": round(reviewed, 1),
        "seconds_review_per_game": round(reviewed * jobs / games, 1),
    }


def show(row: dict[str, Any], search: str) -> None:
    print(
        f"\n{row['game']} {row['players']}p, {row['games']} games, review leaf {row['leaf']}, "
        f"≤{row['deals']} deals: ladder {'holds' if row['holds'] else 'does NOT hold'}"
        f"{' (random separated from the heuristic)' if row['separated'] else ''}; review "
        f"{row['seconds_review']} s ({row['seconds_review_per_game']} CPU-s a game)"
    )
    for agent in ("random", "heuristic", search, "nn"):
        f = row["agents"].get(agent)
        if f is None or f["accuracy"] is None:
            continue
        print(
            f"  {agent:24s} accuracy {f['accuracy']:5.1f} [{f['accuracy_low']:5.1f}, {f['accuracy_high']:5.1f}]"
            f"  mean loss {f['mean_loss']:.3f} [{f['mean_loss_low']:.3f}, {f['mean_loss_high']:.3f}]"
            f"  judged {f['judged']}, not {f['not_judged']}"
            f"  won {f['win_share']:.3f} [{f['win_share_low']:.3f}, {f['win_share_high']:.3f}]"
        )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("games_", nargs="*", metavar="GAME", help=f"games (default: {', '.join(GAMES)})")
    parser.add_argument("--players", default="3,4", help="player counts, comma-separated")
    parser.add_argument("--games", type=int, default=16, help="games a row (a multiple of 4: rotations)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the first deal")
    parser.add_argument("--search", default=SEARCH, help="the search agent's spec")
    parser.add_argument(
        "--leaf", action="append", choices=[str(v) for v in Leaf], help="review leaf (repeat)"
    )
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--json", type=Path, help="write the rows here too")
    args = parser.parse_args(argv)
    if args.games < 4 or args.games % 4:
        parser.error("--games must be a multiple of 4, at least 4 (every deal played in 4 rotations)")
    names = args.games_ or list(GAMES)
    for name in names:
        if name not in GAMES:
            parser.error(f"unknown game {name!r}; one of {', '.join(GAMES)}")
    counts = [int(p) for p in args.players.split(",")]
    rows = []
    for name in names:
        for players in counts:
            for leaf in args.leaf or [Leaf.AUTO]:
                row = run_row(name, players, args.games, args.seed, args.search, leaf, args.jobs)
                show(row, args.search)
                sys.stdout.flush()
                rows.append(row)
    if args.json:
        args.json.write_text(json.dumps(rows, indent=1))
    held = [r for r in rows if r["holds"]]
    print(f"\nthe ladder holds in {len(held)} of {len(rows)} rows")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
