"""What a designer reads (issue #18): report.md and the console on hand-made records with known
values, every name they show defined, the plots' data, and one `bodoge sim` end to end."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any, ClassVar

import pytest
from report_names import assert_every_name_defined, generic
from rich.console import Console
from typer.testing import CliRunner

from bodoge.arena import report
from bodoge.arena.report import (
    difference_points,
    integer_valued,
    markdown,
    print_summary,
    score_histogram,
    write_report,
)
from bodoge.arena.summary import summarize
from bodoge.cli import app

H, R = "heuristic", "random"


def record(
    variant: int, index: int, deal: int, agents: list[str], winner: int, length: int
) -> dict[str, Any]:
    n = len(agents)
    returns = [1.0 if s == winner else 0.0 for s in range(n)]
    return {
        "result": {"scores": [3 * r for r in returns], "winners": [winner]},
        "actions": [variant, index],
        "arena": {
            "index": index,
            "variant": variant,
            "deal": deal,
            "rotation": index % 2,
            "agents": agents,
            "returns": returns,
            "length": length,
            "decisions": [2] * n,
            "seconds": [0.0] * n,
            "metrics": {"tie": 0.0},
        },
    }


class Config:
    """What `summarize` reads of a run's configuration: two players, heuristic against random."""

    game, players, agents, seed, rotate, duplicate = "troika", 2, [H, R], 1, True, True
    variants: ClassVar[list[dict[str, object]]] = [{}]

    def variant_label(self, v: int) -> str:
        return "default" if v == 0 else f"rounds={v}"


def run_of(variants: int = 1) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """4 deals × 2 rotations per variant; heuristic wins 6 of 8 (random wins once in deals 0 and 1),
    each seat wins 4; variant v plays v more actions per game."""
    winners = [(H, R), (R, H), (H, H), (H, H)]
    records = []
    for v in range(variants):
        for d, pair in enumerate(winners):
            for rotation, who in enumerate(pair):
                agents = [H, R] if rotation == 0 else [R, H]
                records.append(record(v, 2 * d + rotation, d, agents, agents.index(who), 10 + v + d % 2))
    config = Config()
    config.variants = [{}] + [{"rounds": v} for v in range(1, variants)]
    return summarize(records, config), records


# -- report.md -------------------------------------------------------------------------------------


def test_the_report_of_known_records() -> None:
    summary, _ = run_of()
    text = markdown(summary, [])
    # seats: each won 4 of the 8 games; seat 0's deal shares 1, 0, 1/2, 1/2 have variance 1/6, so
    # its share's variance is 1/24 against 1/32 for independent games: a design effect of 4/3
    (variant,) = summary["variants"]
    sb = variant["seat_balance"]
    assert sb["wins"] == [4.0, 4.0] and sb["design_effect"] == pytest.approx(4 / 3)
    assert "χ² = 0.00 on 1 df (Pearson's 0.00 over the design effect 1.33), p = 1.000" in text
    assert "(F test on 1 and 3 df, for the design effect is estimated from 4 deals)" in text
    # non-significance said as what the run could have missed (#54): (z(98.75%) + z(80%)) standard
    # errors of a seat's share, √(4/3 · 1/4 / 8) = 0.204: (2.241 + 0.842) · 0.204 = 0.629
    assert (
        "over 8 games with a winner: these games cannot tell the seats apart; a seat 62.9% above or "
        "below the fair share could have been missed (80% power)"
    ) in text
    # t(3) at 98.75%: 0.5 ± 4.1765 · √(1/6) / 2 = ± 0.853, cut to [0, 1], what a share can be (#54)
    assert "| P0 | 0.500 ± 0.500 |" in text
    assert "at 97.5% each" in text
    # skill: heuristic 0.75 above random 0.25 by 0.5, the expected order
    assert "### Skill and luck" in text
    assert "| 1 | heuristic | 0.750 [0.291, 1.000] |" in text and "| +0.500 [-0.419, +1.000] |" in text
    assert "expected order (random < heuristic < ismcts)" in text
    # luck: random finished ahead in 2 of the 8 decided meetings, deals 0 and 1
    assert "| random | heuristic | 0.250 [0.000, 0.709] |" in text and "| 8 |" in text  # cut at 0
    assert_every_name_defined(text, [H, R])
    assert "## Variants against the baseline" not in text


def test_one_variant_keeps_95_percent_and_several_are_corrected() -> None:
    two, _ = run_of(2)
    text = markdown(two, [])
    assert "Intervals are 95%; * = p < 0.05" in text and "Holm-adjusted over" not in text
    # one more action in every game of the 4 deals: no spread, so the sign test: 2 · 2⁻⁴
    assert "| length | +1.000 [+1.000, +1.000] | 0.125 |" in text
    assert_every_name_defined(text, [H, R])
    four, _ = run_of(4)
    text = markdown(four, [])
    assert "3 variants are compared with the baseline" in text
    assert "Bonferroni's, 98.33% each" in text and "Holm-adjusted over the 3" in text
    # the same seats win in every variant: no difference, p = 1, unmarked
    assert "| win share of seat 0 | +0.000 [+0.000, +0.000] | 1.000 |" in text
    assert_every_name_defined(text, [H, R])


def test_variants_png_draws_paired_differences_not_values() -> None:
    summary, _ = run_of(3)
    ys, errs = difference_points(summary["comparisons"], "length")
    assert ys == pytest.approx([1.0, 2.0]) and errs == pytest.approx([0.0, 0.0])  # not 11 or 12
    ys, errs = difference_points(summary["comparisons"], "first_player_advantage")
    assert ys == pytest.approx([0.0, 0.0])
    ys, _ = difference_points(summary["comparisons"], "no such quantity")
    assert all(math.isnan(y) for y in ys)


def test_whole_number_scores_are_drawn_as_bars_per_value() -> None:
    assert integer_valued([0, 3.0, 12]) and not integer_valued([0.5, 1]) and not integer_valued([])
    assert score_histogram([3.0, 0.0, 3.0, 1.0]) == {0: 0.25, 1: 0.25, 3: 0.5}


def test_plots_are_written(tmp_path: Path) -> None:
    summary, records = run_of(2)
    path = write_report(summary, records, tmp_path)
    for png in ("scores_v0.png", "win_share_by_seat_v1.png", "variants.png"):
        assert (tmp_path / png).stat().st_size > 1000
    for r in records:  # fractional scores: violins
        r["result"]["scores"] = [s + 0.5 for s in r["result"]["scores"]]
    write_report(summary, records, tmp_path / "violins")
    assert (tmp_path / "violins" / "scores_v0.png").stat().st_size > 1000
    assert "![variants.png](variants.png)" in path.read_text()


# -- the console -----------------------------------------------------------------------------------


def test_the_console_defines_every_name_it_shows() -> None:
    summary, _ = run_of(3)
    console = Console(record=True, width=400)
    print_summary(summary, console)
    text = console.export_text()
    glossary = text.split("what the numbers mean", 1)[1]
    defined = {line.split("│")[1].strip() for line in glossary.splitlines() if line.count("│") >= 3}
    shown = [*report.AGENT_HEADER, *report.SEAT_HEADER, *report.SKILL_HEADER, *report.LUCK_HEADER]
    shown += [*report.COMPARISON_HEADER, report.GAME_HEADER[1]]
    shown += [row[0] for v in summary["variants"] for row in report.game_rows(v)]
    shown += [generic(row[0], [H, R]) for c in summary["comparisons"] for row in report.comparison_rows(c)]
    for name in shown:
        assert name in text.split("what the numbers mean", 1)[0] or name in {
            "win share of seat N",
            "score of seat N",
            "win share of AGENT",
        }
        assert name in defined, name
    assert "Seat-balance test" in text and "seat-balance test" in defined


# -- end to end ------------------------------------------------------------------------------------


def test_sim_writes_the_new_sections(tmp_path: Path) -> None:
    out = tmp_path / "run"
    args = ["sim", "bodoge_tinygame:TinyGame", "-p", "3", "--agents", "heuristic,random", "--games", "9"]
    args += ["--jobs", "1", "--out", str(out), "--set", "rounds=1,2,3", "--no-progress"]
    result = CliRunner().invoke(app, args, catch_exceptions=False)
    assert result.exit_code == 0, result.output
    assert "Seat-balance test" in result.output and "skill ladder" in result.output
    assert "what the numbers mean" in result.output
    text = (out / "report.md").read_text()
    for section in ("### Seats", "Seat-balance test", "### Skill and luck", "upset rate", "Holm-adjusted"):
        assert section in text, section
    assert_every_name_defined(text, [H, R])
    assert (out / "variants.png").stat().st_size > 1000
