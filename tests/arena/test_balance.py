"""Seat balance, skill and luck, and the tests under them, on hand-made records with known values."""

from __future__ import annotations

import math
from typing import Any, ClassVar

import pytest

from bodoge.arena import balance
from bodoge.arena.stats import (
    bonferroni_confidence,
    chi2_sf,
    f_sf,
    holm,
    mean_ci,
    t_quantile,
    t_test_p,
    t_two_sided_p,
)
from bodoge.arena.summary import summarize

# -- the distributions, against published table values ----------------------------------------------


def test_chi_square_tail_matches_the_tables() -> None:
    assert chi2_sf(3.841459, 1) == pytest.approx(0.05, abs=1e-7)  # the 5% points of every table
    assert chi2_sf(5.991465, 2) == pytest.approx(0.05, abs=1e-7)
    assert chi2_sf(7.814728, 3) == pytest.approx(0.05, abs=1e-7)
    assert chi2_sf(6.634897, 1) == pytest.approx(0.01, abs=1e-7)
    assert chi2_sf(10.0, 4) == pytest.approx(0.0404276819945128, rel=1e-10)
    assert chi2_sf(100.0, 50) == pytest.approx(3.4549313829848e-05, rel=1e-9)
    for x in (0.3, 2.0, 9.0, 40.0):  # with 2 degrees of freedom the tail is exp(−x/2)
        assert chi2_sf(x, 2) == pytest.approx(math.exp(-x / 2), rel=1e-12)
    assert chi2_sf(0.0, 3) == 1.0
    with pytest.raises(ValueError, match="degree"):
        chi2_sf(1.0, 0)


def test_f_tail_matches_the_tables() -> None:
    assert f_sf(5.143253, 2, 6) == pytest.approx(0.05, abs=1e-6)  # the 5% points of the F tables
    assert f_sf(3.708265, 3, 10) == pytest.approx(0.05, abs=1e-6)
    assert f_sf(161.4476, 1, 1) == pytest.approx(0.05, abs=1e-6)
    assert f_sf(4.0, 1, 5) == pytest.approx(t_two_sided_p(2.0, 5))  # F(1, d) is t(d) squared
    assert f_sf(0.0, 2, 3) == 1.0 and f_sf(math.inf, 2, 3) == 0.0
    with pytest.raises(ValueError, match="degrees"):
        f_sf(1.0, 0, 3)


def test_t_tail_and_quantiles_at_other_levels() -> None:
    assert t_two_sided_p(2.2622, 9) == pytest.approx(0.05, abs=1e-5)
    assert t_two_sided_p(1.0, 1) == pytest.approx(0.5, abs=1e-12)  # Cauchy: atan(1)/π each side
    assert t_two_sided_p(0.0, 5) == 1.0
    assert t_quantile(3, 0.99) == pytest.approx(4.5407, abs=1e-4)
    assert t_quantile(20, 0.9975) == pytest.approx(3.1534, abs=1e-4)
    assert t_quantile(1, 0.9875) == pytest.approx(25.4517, abs=1e-3)
    assert t_test_p([1.0, 2.0, 3.0], null=2.0) == pytest.approx(1.0)
    # no spread: the sign test (all 3 on one side: 2 · 2⁻³), not certainty
    assert t_test_p([0.5, 0.5, 0.5]) == 0.25 and t_test_p([0.0, 0.0]) == 1.0
    assert math.isnan(t_test_p([1.0]))


def test_holm_and_bonferroni() -> None:
    assert holm([0.01, 0.04, 0.03, 0.005]) == pytest.approx([0.03, 0.06, 0.06, 0.02])
    assert holm([0.5, math.nan, 0.01]) == pytest.approx([0.5, math.nan, 0.02], nan_ok=True)
    assert holm([0.04, 0.03]) == pytest.approx([0.06, 0.06])  # never below a smaller one's
    assert holm([0.9, 0.8]) == [1.0, 1.0]  # capped at 1
    assert bonferroni_confidence(4) == pytest.approx(0.9875) and bonferroni_confidence(1) == 0.95
    wide = mean_ci([1.0, 2.0, 4.0, 7.0], confidence=0.9875)
    assert wide.half == pytest.approx(mean_ci([1.0, 2.0, 4.0, 7.0]).half * t_quantile(3, 0.99375) / 3.1824)


# -- seat balance --------------------------------------------------------------------------------------


def record(
    deal: int,
    agents: list[str],
    returns: list[float],
    *,
    index: int = 0,
    variant: int = 0,
    length: int = 10,
    scores: list[int] | None = None,
) -> dict[str, Any]:
    n = len(agents)
    return {
        "result": {"scores": scores or [0] * n, "winners": [s for s, r in enumerate(returns) if r > 0]},
        "arena": {
            "index": index,
            "variant": variant,
            "deal": deal,
            "agents": agents,
            "returns": returns,
            "length": length,
            "decisions": [1] * n,
            "seconds": [0.0] * n,
            "metrics": {},
        },
    }


def won(seat: int, n: int = 3) -> list[float]:
    return [1.0 if s == seat else 0.0 for s in range(n)]


def seat_games(counts: list[int], games_per_deal: int = 1) -> list[dict[str, Any]]:
    """One game per deal (or each repeated), seat s winning counts[s] of them."""
    winners = [s for s, c in enumerate(counts) for _ in range(c)]
    return [
        record(d, ["random"] * len(counts), won(w, len(counts)))
        for d, w in enumerate(winners)
        for _ in range(games_per_deal)
    ]


def test_seat_balance_of_independent_games() -> None:
    # 30 games, seats win 15, 9 and 6: Pearson's chi-square is (25 + 1 + 16) / 10 = 4.2
    found = balance.seat_balance(seat_games([15, 9, 6]), 3)
    assert found["games"] == 30 and found["wins"] == [15, 9, 6] and found["df"] == 2
    assert found["chi2"] == pytest.approx(4.2)
    # design effects of the shares 0.5, 0.3, 0.2 (variance p(1 − p)·30/29, over the fair 2/9)
    effect = sum(p * (1 - p) * 30 / 29 / (2 / 9) for p in (0.5, 0.3, 0.2)) / 3
    assert found["design_effect"] == pytest.approx(effect)
    # χ²/2 under F(2, 2·29): the tail of F(2, d) at f is (1 + 2f/d)^(−d/2)
    assert found["df2"] == 58 and found["deals"] == 30
    assert found["p"] == pytest.approx((1 + 4.2 / effect / 58) ** -29)
    assert found["confidence"] == pytest.approx(1 - 0.05 / 3)
    assert [s["share"].mean for s in found["seats"]] == pytest.approx([0.5, 0.3, 0.2])


def test_a_replayed_deal_does_not_count_as_new_evidence() -> None:
    """Deterministic bots replay each deal at every rotation: the plain chi-square doubles, the
    corrected statistic and its p-value do not move."""
    once = balance.seat_balance(seat_games([15, 9, 6]), 3)
    twice = balance.seat_balance(seat_games([15, 9, 6], games_per_deal=2), 3)
    assert twice["chi2"] == pytest.approx(2 * once["chi2"])
    assert twice["design_effect"] == pytest.approx(2 * once["design_effect"])
    assert twice["p"] == pytest.approx(once["p"])


def test_shared_wins_split_and_games_without_a_winner_left_out() -> None:
    games = seat_games([4, 4, 4])
    games.append(record(20, ["random"] * 3, [0.5, 0.5, 0.0]))  # a tie: half a win each
    games.append(record(21, ["random"] * 3, [0.0, 0.0, 0.0]))  # nobody won: no win to share
    found = balance.seat_balance(games, 3)
    assert found["games"] == 13 and found["wins"] == [4.5, 4.5, 4.0]
    assert found["expected"] == pytest.approx(13 / 3)


def test_a_clear_seat_advantage_is_marked() -> None:
    found = balance.seat_balance(seat_games([50, 5, 5]), 3)
    assert found["p"] < 1e-6
    assert [s["verdict"] for s in found["seats"]] == ["above", "below", "below"]
    fair = balance.seat_balance(seat_games([10, 10, 10]), 3)
    assert fair["chi2"] == 0.0 and fair["p"] == pytest.approx(1.0)
    assert [s["verdict"] for s in fair["seats"]] == ["within"] * 3


def test_no_marks_unless_the_test_finds_the_seats_unequal() -> None:
    """Five deals in which seat 2 happened never to win: its interval has width 0 and lies below 1/3,
    but five games are no evidence, and the test says so; a mark there would be a false alarm."""
    found = balance.seat_balance(seat_games([3, 2, 0]), 3)
    assert found["seats"][2]["share"].high == 0.0
    assert found["p"] > 0.05
    assert [s["verdict"] for s in found["seats"]] == ["within"] * 3


def test_seat_balance_says_when_it_cannot_test() -> None:
    one_deal = [record(0, ["random"] * 3, won(s)) for s in range(3)]
    found = balance.seat_balance(one_deal, 3)
    assert math.isnan(found["p"]) and "2 deals" in found["why"]
    # every deal splits its wins the same unfair way: nothing varies, the split is certain
    same = [record(d, ["random"] * 2, won(0, 2)) for d in range(5) for _ in range(2)]
    assert balance.seat_balance(same, 2)["p"] == 0.0


# -- skill and luck ------------------------------------------------------------------------------------


def rotated(deals: list[tuple[str, str]]) -> list[dict[str, Any]]:
    """Two agents, 'heuristic' and 'random', each deal played twice with the seats swapped;
    deals[d] names the winner agent of each rotation."""
    out = []
    for d, winners in enumerate(deals):
        for rotation, winner in enumerate(winners):
            agents = ["heuristic", "random"] if rotation == 0 else ["random", "heuristic"]
            out.append(record(d, agents, won(agents.index(winner), 2), index=2 * d + rotation))
    return out


H, R = "heuristic", "random"


def test_skill_ladder_and_luck_of_two_agents() -> None:
    # 4 deals, 8 games: heuristic wins 6, random wins 2 (in deals 0 and 1)
    records = rotated([(H, R), (R, H), (H, H), (H, H)])
    ladder = balance.skill(records, 2)
    assert ladder is not None and ladder["equal_seats"]
    assert [r["agent"] for r in ladder["rungs"]] == [H, R]
    assert [r["share"].mean for r in ladder["rungs"]] == pytest.approx([0.75, 0.25])
    (step,) = ladder["steps"]
    # per deal, share of heuristic − share of random: 0, 0, 1, 1
    assert step["difference"].mean == pytest.approx(0.5)
    half = 3.1824 * math.sqrt(1 / 3) / 2
    assert step["difference"].low == pytest.approx(0.5 - half)
    assert step["difference"].high == 1.0  # 0.5 + 0.92, cut: a difference of two shares (issue #54)
    assert step["p"] == pytest.approx(t_two_sided_p(0.5 / math.sqrt(1 / 3 / 4), 3))
    assert step["p_holm"] == step["p"]  # one step: nothing to adjust
    assert ladder["expected"] is True
    found = balance.luck(records, ladder)
    (pair,) = found["pairs"]
    assert (pair["weaker"], pair["stronger"]) == (R, H)
    assert pair["decided"] == 8
    assert pair["upset_rate"].mean == pytest.approx(0.25)  # deal means 0.5, 0.5, 0, 0
    assert found["overall"].mean == pytest.approx(0.25)


def test_a_ladder_of_three_and_the_expected_order() -> None:
    # ismcts beats heuristic beats random in every game (3 seats, rotated, 2 deals)
    lineup = ["random", "heuristic", "ismcts:iterations=50"]
    records = []
    for d in range(2):
        for r in range(3):
            agents = [lineup[(s - r) % 3] for s in range(3)]
            records.append(record(d, agents, won(agents.index("ismcts:iterations=50")), index=3 * d + r))
    ladder = balance.skill(records, 3)
    assert ladder is not None
    assert ladder["rungs"][0]["agent"] == "ismcts:iterations=50"
    assert ladder["confidence"] == pytest.approx(1 - 0.05 / 2)
    assert len(ladder["steps"]) == 2
    found = balance.luck(records, ladder)
    pairs = {(p["weaker"], p["stronger"]): p for p in found["pairs"]}
    ismcts_pairs = [p for (w, s), p in pairs.items() if s == "ismcts:iterations=50"]
    assert all(p["upset_rate"].mean == 0.0 and p["decided"] == 6 for p in ismcts_pairs)
    # heuristic and random never finish apart (both lose every game): no decided meeting
    assert [p["decided"] for (w, s), p in pairs.items() if "ismcts" not in s] == [0]
    assert found["overall"].mean == 0.0
    # random above heuristic is against the expected order
    upside_down = rotated([(R, R), (R, R), (R, H)])
    assert balance.skill(upside_down, 2)["expected"] is False  # type: ignore[index]


def test_no_ladder_for_one_agent_and_unequal_seats_are_flagged() -> None:
    assert balance.skill(seat_games([3, 3, 3]), 3) is None
    fixed = [record(d, [H, R], won(0, 2)) for d in range(4)]  # no rotation: heuristic always at seat 0
    ladder = balance.skill(fixed, 2)
    assert ladder is not None and not ladder["equal_seats"]


# -- several variants ----------------------------------------------------------------------------------


class _Config:
    game, players, agents, seed, rotate, duplicate = "troika", 2, ["random", "random"], 1, True, True
    variants: ClassVar[list[dict[str, object]]] = [{}, {"x": 1}, {"x": 2}, {"x": 3}]

    def variant_label(self, v: int) -> str:
        return "default" if v == 0 else f"x={v}"


def test_several_variants_get_holm_p_values_and_bonferroni_intervals() -> None:
    # games 0-5 on deals 0-5; variant v adds v·(1 + small noise) to every game's length
    noise = [0.0, 0.3, -0.2, 0.1, -0.4, 0.2]
    records = []
    for v in range(4):
        for i in range(6):
            length = 10 + round(v * (3 + noise[i] * v))
            records.append(record(i, ["random", "random"], won(i % 2, 2), index=i, variant=v, length=length))
    summary = summarize(records, _Config())
    comparisons = summary["comparisons"]
    assert [c["confidence"] for c in comparisons] == pytest.approx([1 - 0.05 / 3] * 3)
    raw = [c["p"]["length"] for c in comparisons]
    assert [c["p_holm"]["length"] for c in comparisons] == pytest.approx(holm(raw))
    for c in comparisons:
        plain, wide = c["differences"]["length"], c["simultaneous"]["length"]
        assert wide.mean == plain.mean
        assert wide.half == pytest.approx(plain.half * t_quantile(5, 1 - 0.05 / 6) / t_quantile(5))
    # the seats' wins are the same in every variant: no difference, p = 1
    assert all(c["p"]["win share of seat 0"] == 1.0 for c in comparisons)
