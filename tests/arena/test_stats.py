"""The summary statistics on known inputs: t quantiles, intervals, clustering, pairing, ratings."""

from __future__ import annotations

import math

import pytest

from bodoge.arena import (
    Estimate,
    SimConfig,
    clustered_mean_ci,
    mean_ci,
    paired_difference_ci,
    ratings,
    summarize,
)
from bodoge.arena.stats import t_quantile


def test_t_quantiles_match_the_tables() -> None:
    assert t_quantile(1) == pytest.approx(12.7062, abs=1e-3)
    assert t_quantile(9) == pytest.approx(2.2622, abs=1e-3)
    assert t_quantile(11) == pytest.approx(2.2010, abs=1e-3)
    assert t_quantile(30) == pytest.approx(2.0423, abs=1e-3)
    assert t_quantile(100) == pytest.approx(1.9840, abs=1e-3)
    assert t_quantile(10**6) == pytest.approx(1.95996, abs=1e-4)
    assert t_quantile(0) == math.inf


def test_mean_ci_on_known_values() -> None:
    est = mean_ci([0.0, 1.0] * 50)  # mean 0.5, sd 0.50252, n 100
    assert est.mean == pytest.approx(0.5)
    assert est.half == pytest.approx(1.98422 * 0.502519 / 10, rel=1e-3)
    assert est.n == 100
    small = mean_ci([1.0, 2.0, 3.0])  # sd 1, t(2) = 4.3027
    assert (small.low, small.high) == pytest.approx((2 - 4.3027 / math.sqrt(3), 2 + 4.3027 / math.sqrt(3)))
    one = mean_ci([4.0])
    assert one.mean == 4.0 and math.isnan(one.low) and one.to_json()["low"] is None
    assert math.isnan(mean_ci([]).mean)
    assert Estimate(0.3, 0.26, 0.34, 10).above(0.25) and not Estimate(0.3, 0.2, 0.4, 10).above(0.25)


def test_clustered_interval_averages_each_deal_first() -> None:
    # deal 0 has three observations, deal 1 one: the estimate is the mean of the deal means
    est = clustered_mean_ci([(0, 1.0), (0, 1.0), (0, 0.0), (1, 0.0)])
    assert est.mean == pytest.approx((2 / 3 + 0.0) / 2)
    assert est.n == 2
    plain = mean_ci([2 / 3, 0.0])
    assert (est.low, est.high) == pytest.approx((plain.low, plain.high))


def test_paired_difference_uses_the_same_games() -> None:
    a = {i: (i // 2, float(i % 3)) for i in range(10)}
    b = {i: (i // 2, float(i % 3) + 0.5) for i in range(10)}
    diff = paired_difference_ci(a, b)
    assert diff.mean == pytest.approx(0.5) and diff.half == pytest.approx(0.0)
    b[3] = (1, 100.0)
    del b[9]
    assert paired_difference_ci(a, b).n == 5


def _record(index: int, deal: int, agents: list[str], returns: list[float], scores: list[int]) -> dict:
    return {
        "result": {"scores": scores, "winners": [s for s, r in enumerate(returns) if r > 0]},
        "arena": {
            "index": index,
            "variant": 0,
            "deal": deal,
            "rotation": index % 2,
            "agents": agents,
            "returns": returns,
            "length": 10 + index % 2,
            "decisions": [5, 5],
            "seconds": [0.1, 0.3],
            "metrics": {"tie": 0.0},
        },
    }


def test_summary_of_known_records() -> None:
    # "strong" wins 3 of 4 games; seat 0 wins 3 of 4 (an advantage of 0.25 over the fair 0.5)
    records = [
        _record(0, 0, ["strong", "weak"], [1.0, 0.0], [3, 1]),
        _record(1, 0, ["weak", "strong"], [0.0, 1.0], [0, 2]),
        _record(2, 1, ["strong", "weak"], [1.0, 0.0], [5, 1]),
        _record(3, 1, ["weak", "strong"], [1.0, 0.0], [4, 2]),
    ]
    config = SimConfig(game="tiny", players=2, agents=["strong", "weak"], games=4)
    summary = summarize(records, config)
    (variant,) = summary["variants"]
    strong, weak = variant["agents"]
    assert strong["agent"] == "strong" and strong["seats_played"] == 4
    assert strong["win_share"].mean == pytest.approx(0.75)  # deal means 1.0 and 0.5
    assert strong["win_share"].n == 2
    assert strong["score"].mean == pytest.approx((2.5 + 3.5) / 2)
    assert weak["win_share"].mean == pytest.approx(0.25)
    assert strong["by_seat"][0].mean == pytest.approx(1.0) and strong["by_seat"][1].mean == pytest.approx(0.5)
    assert strong["seconds_per_decision"] == pytest.approx((0.1 + 0.3 + 0.1 + 0.3) / 20)
    assert variant["seats"][0]["win_share"].mean == pytest.approx(0.75)
    assert variant["first_player_advantage"].mean == pytest.approx(0.25)
    assert variant["length"].mean == pytest.approx(10.5)
    assert variant["metrics"]["tie"].mean == 0.0
    assert strong["rating"]["mu"] > weak["rating"]["mu"]


def test_ratings_order_agents_by_strength() -> None:
    records = [_record(i, i, ["a", "b"], [1.0, 0.0] if i % 4 else [0.0, 1.0], [1, 0]) for i in range(40)]
    rated = ratings(records)
    assert rated["a"]["mu"] > 25 > rated["b"]["mu"]
    assert rated["a"]["ordinal"] == pytest.approx(rated["a"]["mu"] - 3 * rated["a"]["sigma"])


def test_an_interval_is_cut_to_what_its_measure_can_be() -> None:
    """Issue #54: a win share of a few deals near 0 had an interval running below 0."""
    from bodoge.arena.stats import DIFFERENCE, SHARE, clustered_mean_ci

    pairs = [(d, 1.0 if d == 0 else 0.0) for d in range(5)]  # one win in five deals
    plain = clustered_mean_ci(pairs)
    assert plain.low < 0  # the t interval overshoots
    cut = clustered_mean_ci(pairs, within=SHARE)
    assert (cut.mean, cut.low, cut.high) == (plain.mean, 0.0, plain.high)
    losses = [(d, -1.0 if d == 0 else -0.9) for d in range(3)]
    assert clustered_mean_ci(losses, within=DIFFERENCE).low == -1.0
    one = clustered_mean_ci([(0, 0.5)], within=SHARE)  # no interval: left as it is
    assert math.isnan(one.low) and one.mean == 0.5
