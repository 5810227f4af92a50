"""What a run's records say: win shares, scores, seats, length, ratings, and variant differences.

Every interval is a 95% interval with the deal as the unit (`bodoge.arena.stats`). An agent is
named by its spec as given (`heuristic`, `ismcts:iterations=2000`); the same spec at several seats
is one agent. Its **win share** is the mean of its `returns()` over every seat it held (a shared win
counts 1/k), against the **fair share** 1/n. The **first-player advantage** is seat 0's win share
minus 1/n (seat 0 starts the game). **Ratings** are openskill's Plackett–Luce model over the games
in order, each game ranked by returns, then score; an agent at several seats of one game gets the
mean of its seats' updates. **Variant differences** are paired: the same game (deal and rotation)
under the variant minus under the first variant, clustered by deal. With several variants, each
quantity is compared with the baseline once per variant: those comparisons are one family, with
Bonferroni intervals (1 − 0.05/m for m variants besides the baseline) and Holm-adjusted p-values.
**Seat balance**, **skill** and **luck** are `bodoge.arena.balance`'s; **choices** (by kind of
decision) and **dead decisions** are `bodoge.arena.choices`'s; **ends** is the share of games that
ended for each reason (`metrics.end_reason`), and **findings** (`bodoge.arena.findings`) say what
all this means for the design.
"""

from __future__ import annotations

import math
from collections.abc import Hashable
from typing import Any

from bodoge.arena import balance, choices, findings, metrics
from bodoge.arena.stats import (
    SHARE,
    Estimate,
    bonferroni_confidence,
    clustered_mean_ci,
    holm,
    paired_difference_ci,
    paired_difference_p,
)

Record = dict[str, Any]


def ratings(records: list[Record]) -> dict[str, dict[str, float]]:
    """openskill Plackett–Luce ratings of the agents over the records, in their order."""
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    labels = balance.agent_labels(records)
    current = {a: model.rating(name=a) for a in labels}
    for r in records:
        seats = r["arena"]["agents"]
        returns = r["arena"]["returns"]
        scores = r["result"]["scores"]
        order = sorted({(-returns[s], -scores[s]) for s in range(len(seats))})
        ranks = [float(order.index((-returns[s], -scores[s])) + 1) for s in range(len(seats))]
        teams = [[current[a]] for a in seats]
        new = model.rate(teams, ranks=ranks)
        updates: dict[str, list[tuple[float, float]]] = {}
        for a, team in zip(seats, new, strict=True):
            updates.setdefault(a, []).append((team[0].mu, team[0].sigma))
        for a, ups in updates.items():
            mu = sum(u[0] for u in ups) / len(ups)
            sigma = sum(u[1] for u in ups) / len(ups)
            current[a] = model.rating(mu=mu, sigma=sigma, name=a)
    return {a: {"mu": r.mu, "sigma": r.sigma, "ordinal": r.mu - 3 * r.sigma} for a, r in current.items()}


def _verdict(est: Estimate, fair: float) -> str:
    return balance.verdict(est, fair)


def summarize_variant(records: list[Record], players: int) -> dict[str, Any]:
    """The summary of one variant's records (see the module docstring)."""
    n = players
    fair = 1.0 / n
    labels = balance.agent_labels(records)
    agents: list[dict[str, Any]] = []
    for label in labels:
        wins: list[tuple[Hashable, float]] = []
        scores: list[tuple[Hashable, float]] = []
        by_seat: list[list[tuple[Hashable, float]]] = [[] for _ in range(n)]
        seconds = 0.0
        decisions = 0
        for r in records:
            a = r["arena"]
            for s, spec in enumerate(a["agents"]):
                if spec != label:
                    continue
                wins.append((a["deal"], a["returns"][s]))
                scores.append((a["deal"], r["result"]["scores"][s]))
                by_seat[s].append((a["deal"], a["returns"][s]))
                seconds += a["seconds"][s]
                decisions += a["decisions"][s]
        share = clustered_mean_ci(wins, within=SHARE)
        agents.append(
            {
                "agent": label,
                "seats_played": len(wins),
                "win_share": share,
                "fair": fair,
                "verdict": _verdict(share, fair),
                "score": clustered_mean_ci(scores),
                "by_seat": [clustered_mean_ci(x, within=SHARE) for x in by_seat],
                "seconds_per_decision": seconds / decisions if decisions else 0.0,
            }
        )
    rated = ratings(records) if records else {}
    for entry in agents:
        entry["rating"] = rated.get(entry["agent"])
    seats = []
    for s in range(n):
        seats.append(
            {
                "seat": s,
                "win_share": clustered_mean_ci(
                    ((r["arena"]["deal"], r["arena"]["returns"][s]) for r in records), within=SHARE
                ),
                "score": clustered_mean_ci((r["arena"]["deal"], r["result"]["scores"][s]) for r in records),
            }
        )
    metric_names = sorted({k for r in records for k in r["arena"].get("metrics", {})})
    bounds = metrics.ranges(str(records[0].get("game", ""))) if records else {}
    ladder = balance.skill(records, n)
    picked = choices.summarize(records)
    reasons = sorted({r["arena"]["end"] for r in records if r["arena"].get("end") is not None})
    return {
        "seat_balance": balance.seat_balance(records, n),
        "skill": ladder,
        "luck": balance.luck(records, ladder) if ladder else None,
        "games": len(records),
        # games that are the same actions as another: deterministic bots replay a deal at every rotation
        "distinct_games": _distinct_games(records),
        "deals": len({r["arena"]["deal"] for r in records}),
        "agents": agents,
        "seats": seats,
        "length": clustered_mean_ci((r["arena"]["deal"], r["arena"]["length"]) for r in records),
        "balance": balance.largest_gap(seats),
        "first_player_advantage": clustered_mean_ci(
            (r["arena"]["deal"], r["arena"]["returns"][0] - fair) for r in records
        ),
        "metrics": {
            m: clustered_mean_ci(
                (
                    (r["arena"]["deal"], r["arena"]["metrics"][m])
                    for r in records
                    if m in r["arena"].get("metrics", {})
                ),
                within=bounds.get(m),
            )
            for m in metric_names
        },
        "choices": picked["kinds"],
        "dead_decisions": picked["dead"],
        "ends": {
            reason: clustered_mean_ci(
                ((r["arena"]["deal"], 1.0 if r["arena"].get("end") == reason else 0.0) for r in records),
                within=SHARE,
            )
            for reason in reasons
        },
    }


def _distinct_games(records: list[Record]) -> int:
    """How many of the records are different games (records without their actions count as such)."""
    if any("actions" not in r for r in records):
        return len(records)
    return len({tuple(r["actions"]) for r in records})


def _game_values(records: list[Record], players: int) -> dict[str, dict[Hashable, tuple[Hashable, float]]]:
    """Per quantity, game index -> (deal, value): what variant comparisons pair up."""
    out: dict[str, dict[Hashable, tuple[Hashable, float]]] = {}
    fair = 1.0 / players

    def put(name: str, index: int, deal: int, value: float) -> None:
        out.setdefault(name, {})[index] = (deal, value)

    for r in records:
        a = r["arena"]
        i, d = a["index"], a["deal"]
        put("length", i, d, a["length"])
        put("first_player_advantage", i, d, a["returns"][0] - fair)
        for s in range(players):
            put(f"win share of seat {s}", i, d, a["returns"][s])
            put(f"score of seat {s}", i, d, r["result"]["scores"][s])
        per_agent: dict[str, list[float]] = {}
        for s, spec in enumerate(a["agents"]):
            per_agent.setdefault(spec, []).append(a["returns"][s])
        for spec, values in per_agent.items():
            put(f"win share of {spec}", i, d, sum(values) / len(values))
        for m, value in a.get("metrics", {}).items():
            put(m, i, d, value)
    return out


def summarize(records: list[Record], config: Any) -> dict[str, Any]:
    """Summaries of every variant of a run, and each variant's paired differences from the first."""
    n = config.players
    by_variant: list[list[Record]] = [[] for _ in config.variants]
    for r in records:
        by_variant[r["arena"]["variant"]].append(r)
    variants = []
    for v, recs in enumerate(by_variant):
        variants.append(
            {
                "variant": v,
                "label": config.variant_label(v),
                "options": config.variants[v],
                **summarize_variant(recs, n),
            }
        )
    comparisons: list[dict[str, Any]] = []
    if len(by_variant) > 1:
        base = _game_values(by_variant[0], n)
        base_actions = {r["arena"]["index"]: r.get("actions") for r in by_variant[0]}
        for v in range(1, len(by_variant)):
            other = _game_values(by_variant[v], n)
            paired = [(base_actions.get(r["arena"]["index"]), r.get("actions")) for r in by_variant[v]]
            paired = [(a, b) for a, b in paired if a is not None and b is not None]
            comparisons.append(
                {
                    "variant": v,
                    "label": config.variant_label(v),
                    "baseline": config.variant_label(0),
                    "paired_games": len(paired),
                    "identical_games": sum(1 for a, b in paired if a == b),
                    "differences": {
                        name: paired_difference_ci(base[name], other[name]) for name in base if name in other
                    },
                    "confidence": bonferroni_confidence(len(by_variant) - 1),
                    "simultaneous": {
                        name: paired_difference_ci(
                            base[name], other[name], bonferroni_confidence(len(by_variant) - 1)
                        )
                        for name in base
                        if name in other
                    },
                    "p": {
                        name: paired_difference_p(base[name], other[name]) for name in base if name in other
                    },
                }
            )
        _adjust(comparisons)
    summary = {
        "warnings": warnings(variants, comparisons) + _seat_warnings(config),
        "game": config.game,
        "players": n,
        "agents": config.agents,
        "seed": config.seed,
        "rotate": config.rotate,
        "duplicate": config.duplicate,
        "games": len(records),
        "variants": variants,
        "comparisons": comparisons,
    }
    summary["findings"] = findings.for_summary(summary, config)
    return summary


def _adjust(comparisons: list[dict[str, Any]]) -> None:
    """Holm-adjusted p-values (`p_holm`) for each quantity over the variants compared with the
    baseline: one family per quantity, since a designer asks per quantity which variants change it."""
    for c in comparisons:
        c["p_holm"] = {}
    names = list(dict.fromkeys(name for c in comparisons for name in c["p"]))  # in order: stable JSON
    for name in names:
        having = [c for c in comparisons if name in c["p"]]
        for c, adjusted in zip(having, holm([c["p"][name] for c in having]), strict=True):
            c["p_holm"][name] = adjusted


def warnings(variants: list[dict[str, Any]], comparisons: list[dict[str, Any]]) -> list[str]:
    """What a reader must know before trusting the intervals: repeated games and variants that
    changed nothing."""
    out = []
    for v in variants:
        repeats = v["games"] - v["distinct_games"]
        if repeats:
            out.append(
                f"{v['label']}: {repeats} of its {v['games']} games repeat another game action for action "
                f"(only {v['distinct_games']} distinct): deterministic bots replay a deal at every seat "
                "rotation, and the intervals count the repeats as if they were independent games"
            )
    for c in comparisons:
        if c["paired_games"] and c["identical_games"] == c["paired_games"]:
            out.append(
                f"{c['label']} played exactly the same games as {c['baseline']} on every deal: with these "
                "bots the options changed nothing, so its differences are 0 by construction"
            )
    return out


def _seat_warnings(config: Any) -> list[str]:
    """Without rotation, different agents keep their seats: a seat's share is also its agent's."""
    if config.rotate or len(set(config.agents)) < 2:
        return []
    return [
        "seat rotation is off and the agents differ: each seat's share (and the seat-balance test) "
        "mixes the seat's advantage with its agent's strength, and the skill ladder compares agents "
        "at different seats"
    ]


def to_json(value: Any) -> Any:
    """The summary as JSON-ready data (estimates as {mean, low, high, n}; NaN and infinity as null)."""
    if isinstance(value, Estimate):
        return value.to_json()
    if isinstance(value, dict):
        return {str(k): to_json(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [to_json(v) for v in value]
    if isinstance(value, float) and not math.isfinite(value):  # JSON has no NaN or infinity
        return None
    return value
