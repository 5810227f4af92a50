"""Is the game fair to every seat, and how much do skill and luck decide it (issue #18)?

**Seat balance.** Over the games that have a winner, each seat's *wins* are the sum of its
`returns()`: a win shared by k seats counts 1/k for each, so every such game hands out exactly one
win and a fair game gives each of n seats 1/n of them. Games without a winner hand out none and are
left out. Pearson's chi-square compares the seats' wins with that fair share (n − 1 degrees of
freedom). Games of one deal are not independent (the same cards, the agents rotated; deterministic
bots even replay the same game), which makes the plain statistic too large, so it is divided by the
mean design effect of the seats' shares (the first-order Rao–Scott correction, Rao & Scott 1981): the
variance of a seat's share with the deal as the unit, over its variance were the games independent.
With one game per deal the effect is about 1 and the test is Pearson's. The design effect is itself
estimated from D deals, so the corrected statistic over n − 1 is referred to F with n − 1 and
(n − 1)(D − 1) degrees of freedom, as R's survey package does (svychisq): with few deals a chance
small design effect would otherwise make the test far too eager; with many it is the chi-square. Each seat's share of the
wins has an interval with the deal as the unit, at a Bonferroni level over the n seats (1 − 0.05/n).
A seat is marked ▲/▼ only when the test finds the seats unequal (p < 0.05) and its interval lies
above/below 1/n: in a fair game the marks then appear at most as often as the test errs (5%), even
with few deals, where a seat that happened never to win has an interval of width 0.

**Skill.** An agent's win share counts every seat it held; with seat rotation every agent holds every
seat equally often, so the shares compare agents at equal seats. The ladder orders the agents by it,
and each step down is the paired difference of the two agents' shares in the same games (deal as
the unit; Bonferroni intervals and Holm p-values over the steps). The usual agents should line up
random < heuristic < ismcts (DESIGN.md §4: the heuristic must beat random clearly).

**Luck.** In one game, a seat of the weaker agent (lower win share) *meets* each seat of a stronger
one; the meeting is decided when their returns differ, and an *upset* when the weaker seat got more.
The upset rate, over decided meetings (deal as the unit), is how often luck beats skill: 0 when the
stronger agent always finishes ahead, 0.5 when the game is a coin toss between them.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Hashable, Sequence
from statistics import NormalDist
from typing import Any

from bodoge.arena.stats import (
    DIFFERENCE,
    SHARE,
    Estimate,
    bonferroni_confidence,
    cluster_means,
    clustered_mean_ci,
    f_sf,
    holm,
    t_test_p,
)

Record = dict[str, Any]

#: The significance level of every test and mark in a report.
ALPHA = 0.05

#: The built-in agents from weakest to strongest, as they are expected to rank (by the spec's name).
EXPECTED_ORDER = ("random", "heuristic", "ismcts")


def largest_gap(seats: list[dict[str, Any]]) -> Estimate:
    """Balance in one number: the largest gap between a seat's win share and the fair share 1/n, with
    that seat's interval around it (0: every seat wins as often). `seats`: a summary's seat rows."""
    fair = 1.0 / len(seats)
    worst: Estimate = max(seats, key=lambda s: abs(s["win_share"].mean - fair))["win_share"]
    gap = abs(worst.mean - fair)
    if math.isnan(worst.low):
        return Estimate(gap, math.nan, math.nan, worst.n)
    # The seat's interval less the fair share, folded at 0: a share's interval may be cut at 0 or 1
    # (uneven about its mean), so its ends are used, not its half-width.
    low, high = worst.low - fair, worst.high - fair
    near = 0.0 if low <= 0 <= high else min(abs(low), abs(high))
    return Estimate(gap, near, max(abs(low), abs(high)), worst.n)


def verdict(est: Estimate, fair: float) -> str:
    """'above' or 'below' when the interval lies wholly on that side of `fair`, else 'within'."""
    if est.above(fair):
        return "above"
    if est.below(fair):
        return "below"
    return "within"


def _variance(values: Sequence[float]) -> float:
    n = len(values)
    mean = math.fsum(values) / n
    return math.fsum((x - mean) ** 2 for x in values) / (n - 1)


def seat_balance(records: list[Record], players: int) -> dict[str, Any]:
    """The seat-balance test and each seat's share of the wins (see the module docstring).

    Returns games (with a winner), deals (with such games), wins (per seat), expected (per seat),
    chi2 (Pearson's), design_effect, statistic (chi2 / design_effect), df, df2 (of F: (df)(deals − 1)),
    p (NaN when untestable, with `why`), detectable (the smallest gap between a seat's share and the
    fair share that the run finds 4 times in 5: what "no evidence" could have missed),
    confidence (of the seat intervals) and seats: [{seat, share: Estimate, verdict}]."""
    n = players
    decided = [r for r in records if sum(r["arena"]["returns"]) > 0]
    fair = 1.0 / n
    confidence = bonferroni_confidence(n)
    seats: list[dict[str, Any]] = []
    for s in range(n):
        share = clustered_mean_ci(
            ((r["arena"]["deal"], r["arena"]["returns"][s]) for r in decided), confidence, SHARE
        )
        seats.append({"seat": s, "share": share, "verdict": "within"})
    wins = [math.fsum(r["arena"]["returns"][s] for r in decided) for s in range(n)]
    total = len(decided)
    out: dict[str, Any] = {
        "games": total,
        "wins": wins,
        "expected": total * fair,
        "df": n - 1,
        "df2": math.nan,
        "deals": 0,
        "confidence": confidence,
        "seats": seats,
        "chi2": math.nan,
        "design_effect": math.nan,
        "statistic": math.nan,
        "p": math.nan,
        "detectable": math.nan,
        "why": "",
    }
    deals = len({r["arena"]["deal"] for r in decided})
    out["deals"] = deals
    if n < 2:
        out["why"] = "one seat: nothing to compare"
    elif deals < 2:
        out["why"] = "it needs games with a winner on at least 2 deals"
    if out["why"]:
        return out
    chi2 = math.fsum((w - total * fair) ** 2 / (total * fair) for w in wins)
    effect = _design_effect(decided, n, total)
    out["chi2"] = chi2
    out["design_effect"] = effect
    out["df2"] = (n - 1) * (deals - 1)
    if effect > 0:
        out["statistic"] = chi2 / effect
        out["p"] = f_sf(chi2 / effect / (n - 1), n - 1, out["df2"])
    else:  # every deal split its wins the same way: no spread, the split is certain
        out["statistic"] = math.inf if chi2 > 1e-9 else 0.0
        out["p"] = 0.0 if chi2 > 1e-9 else 1.0
    out["detectable"] = detectable_gap(fair, total, effect, confidence)
    if out["p"] < ALPHA:  # the marks only where the test says the seats differ (see the docstring)
        for seat in seats:
            seat["verdict"] = verdict(seat["share"], fair)
    return out


#: z of 80% power: a run finds an effect of (z_test + POWER_Z) standard errors 4 times in 5.
POWER_Z = NormalDist().inv_cdf(0.8)


def detectable_gap(fair: float, games: int, design_effect: float, confidence: float) -> float:
    """The smallest gap between one seat's share and `fair` that a two-sided test at `confidence`
    finds with 80% power over `games` games with a winner, the deal-to-deal spread counted (the
    design effect): (z + 0.84) standard errors of a seat's share. Non-significance means only that
    no gap this large was there to be seen."""
    if games < 1 or not design_effect > 0:
        return math.nan
    z = NormalDist().inv_cdf(0.5 + confidence / 2)
    return (z + POWER_Z) * math.sqrt(design_effect * fair * (1 - fair) / games)


def _design_effect(decided: list[Record], n: int, total: int) -> float:
    """Mean over seats of (variance of the seat's share with the deal as the unit) / (its variance
    under the fair multinomial, p0(1 − p0)/games): Rao–Scott's first-order correction."""
    fair = 1.0 / n
    independent = fair * (1 - fair) / total
    effects = []
    for s in range(n):
        means = cluster_means((r["arena"]["deal"], r["arena"]["returns"][s]) for r in decided)
        effects.append(_variance(means) / len(means) / independent)
    return math.fsum(effects) / n


# -- skill and luck ---------------------------------------------------------------------------------


def agent_labels(records: list[Record]) -> list[str]:
    """The agents' specs, in the order they first appear (the summary's and the ladder's order)."""
    labels: list[str] = []
    for r in records:
        for a in r["arena"]["agents"]:
            if a not in labels:
                labels.append(a)
    return labels


def _share_in_game(record: Record, label: str) -> float | None:
    """The agent's mean return over the seats it held in this game (None if it did not play)."""
    a = record["arena"]
    values = [a["returns"][s] for s, spec in enumerate(a["agents"]) if spec == label]
    return math.fsum(values) / len(values) if values else None


def _equal_seats(records: list[Record], labels: list[str], players: int) -> bool:
    """Whether every agent held every seat equally often (seat rotation over whole deals)."""
    for label in labels:
        counts = [0] * players
        for r in records:
            for s, spec in enumerate(r["arena"]["agents"]):
                if spec == label:
                    counts[s] += 1
        if len(set(counts)) > 1:
            return False
    return True


def kind(spec: str) -> str:
    """The agent's name without its settings: 'ismcts:iterations=200' -> 'ismcts'."""
    return spec.split(":", 1)[0]


def skill(records: list[Record], players: int) -> dict[str, Any] | None:
    """The skill ladder (see the module docstring); None with fewer than two agents.

    Returns equal_seats, rungs: [{agent, share: Estimate}] strongest first, steps:
    [{stronger, weaker, difference: Estimate (Bonferroni), p, p_holm}] between neighbours,
    confidence (of the step intervals) and expected: whether the built-in agents present rank as
    EXPECTED_ORDER (None when fewer than two of them are present)."""
    labels = agent_labels(records)
    if len(labels) < 2:
        return None
    rungs: list[dict[str, Any]] = []
    for label in labels:
        pairs = [(r["arena"]["deal"], _share_in_game(r, label)) for r in records]
        rungs.append(
            {
                "agent": label,
                "share": clustered_mean_ci(((d, v) for d, v in pairs if v is not None), within=SHARE),
            }
        )
    rungs.sort(key=lambda rung: -rung["share"].mean)
    confidence = bonferroni_confidence(len(rungs) - 1)
    steps: list[dict[str, Any]] = []
    for upper, lower in itertools.pairwise(rungs):
        diffs = _paired_shares(records, upper["agent"], lower["agent"])
        steps.append(
            {
                "stronger": upper["agent"],
                "weaker": lower["agent"],
                "difference": clustered_mean_ci(diffs, confidence, DIFFERENCE),
                "p": t_test_p(cluster_means(diffs)),
            }
        )
    for step, adjusted in zip(steps, holm([s["p"] for s in steps]), strict=True):
        step["p_holm"] = adjusted
    known = [kind(r["agent"]) for r in rungs if kind(r["agent"]) in EXPECTED_ORDER]
    ranks = [EXPECTED_ORDER.index(k) for k in known]
    expected = None if len(set(known)) < 2 else ranks == sorted(ranks, reverse=True)
    return {
        "equal_seats": _equal_seats(records, labels, players),
        "rungs": rungs,
        "steps": steps,
        "confidence": confidence,
        "expected": expected,
    }


def _paired_shares(records: list[Record], a: str, b: str) -> list[tuple[Hashable, float]]:
    """(deal, share of a − share of b) for every game both agents played."""
    out = []
    for r in records:
        x, y = _share_in_game(r, a), _share_in_game(r, b)
        if x is not None and y is not None:
            out.append((r["arena"]["deal"], x - y))
    return out


def luck(records: list[Record], ladder: dict[str, Any]) -> dict[str, Any]:
    """Upset rates (see the module docstring) for every pair of agents on the ladder, weaker first,
    and over all pairs together ("overall")."""
    order = [rung["agent"] for rung in ladder["rungs"]]  # strongest first
    pairs = []
    everything: list[tuple[Hashable, float]] = []
    for i, stronger in enumerate(order):
        for weaker in order[i + 1 :]:
            upsets = _upsets(records, weaker, stronger)
            everything += upsets
            pairs.append(
                {
                    "weaker": weaker,
                    "stronger": stronger,
                    "upset_rate": clustered_mean_ci(upsets, within=SHARE),
                    "decided": len(upsets),
                }
            )
    return {
        "pairs": pairs,
        "overall": clustered_mean_ci(everything, within=SHARE),
        "decided": len(everything),
    }


def _upsets(records: list[Record], weaker: str, stronger: str) -> list[tuple[Hashable, float]]:
    """(deal, 1 if the weaker seat got more than the stronger, else 0) for every decided meeting."""
    out: list[tuple[Hashable, float]] = []
    for r in records:
        a = r["arena"]
        returns = a["returns"]
        mine = [s for s, spec in enumerate(a["agents"]) if spec == weaker]
        theirs = [s for s, spec in enumerate(a["agents"]) if spec == stronger]
        for i in mine:
            for j in theirs:
                if returns[i] != returns[j]:
                    out.append((a["deal"], 1.0 if returns[i] > returns[j] else 0.0))
    return out
