"""`bodoge tune` (issue #18): the space parser and its errors, each goal and constraint on summaries
with known numbers, the Pareto set and the recommendation, and a tiny end-to-end tune that resumes."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from bodoge.arena.stats import Estimate
from bodoge.arena.tune import (
    Dimension,
    options_for,
    pareto,
    parse_constraint,
    parse_goal,
    parse_space,
    recommend,
)
from bodoge.cli import app
from bodoge.errors import BadOption

pytest.importorskip("optuna", reason="bodoge tune needs the tune extra (pip install -e '.[tune]')")
runner = CliRunner()


def est(mean: float, half: float = 0.0, n: int = 10) -> Estimate:
    return Estimate(mean, mean - half, mean + half, n)


# -- the space --------------------------------------------------------------------------------------


def test_space_entries_of_every_kind() -> None:
    dims = parse_space("hangover", 4, ["drunk_limit.4=10..14", "vp_just=2..5", "non_drinker=true,false"])
    assert dims == [
        Dimension("drunk_limit", "4", low=10, high=14),
        Dimension("vp_just", None, low=2, high=5),
        Dimension("non_drinker", None, choices=(True, False)),
    ]
    options = options_for("hangover", 4, dims, {"drunk_limit.4": 11, "vp_just": 3, "non_drinker": False})
    # A map entry changes that entry only; the others keep the option's values.
    assert options == {"drunk_limit": {"3": 7, "4": 11, "5": 16}, "vp_just": 3, "non_drinker": False}


@pytest.mark.parametrize(
    ("entry", "says"),
    [
        ("nope=1..3", "an option of hangover: "),  # then the list of its options
        ("vp_just=5..2", "lo below hi"),
        ("hand_size=0..3", "within the option's bounds 1..18"),
        ("drunk_limit.9=1..3", "an entry of drunk_limit: 3, 4, 5"),
        ("vp_just.4=1..2", "not a map option"),
        ("non_drinker=true", "at least two values"),
        ("vp_just", "name=lo..hi or name=a,b,c"),
        ("snacks_per_player=1,1", "different values"),
        ("drunk_limit.4=0..3", "drunk_limit"),  # the game refuses 0: its own bound is named
    ],
)
def test_a_bad_space_entry_says_what_is_allowed(entry: str, says: str) -> None:
    with pytest.raises(BadOption) as refused:
        parse_space("hangover", 4, [entry])
    assert says in str(refused.value)


def test_each_option_once_and_some_space_at_all() -> None:
    with pytest.raises(BadOption, match="each option"):
        parse_space("hangover", 4, ["vp_just=1..3", "vp_just=2..4"])
    with pytest.raises(BadOption, match="at least one --space"):
        parse_space("hangover", 4, [])


@settings(max_examples=150, deadline=None)
@given(st.lists(st.text(max_size=30), min_size=1, max_size=3))
def test_junk_is_refused_in_one_sentence(entries: list[str]) -> None:
    try:
        parse_space("troika", 3, entries)
    except BadOption as exc:
        assert "\n" not in str(exc).strip() or "allowed" in str(exc)


# -- goals and constraints --------------------------------------------------------------------------


def summary(
    seats: list[Estimate], first: Estimate, metrics: dict[str, Estimate], length: Estimate
) -> dict[str, Any]:
    fair = 1 / len(seats)
    return {
        "seats": [{"seat": s, "win_share": e} for s, e in enumerate(seats)],
        "agents": [{"agent": "heuristic", "win_share": first, "fair": fair}],
        "metrics": metrics,
        "length": length,
    }


KNOWN = summary(
    [est(0.30, 0.05), est(0.20, 0.05), est(0.25, 0.05), est(0.25, 0.05)],
    est(0.40, 0.10),
    {"lead_changes": est(2.5, 0.5), "tie": est(0.05, 0.02)},
    est(70.0, 5.0),
)


def test_balance_is_the_largest_seat_gap() -> None:
    got = parse_goal("balance").measure(KNOWN)
    assert math.isclose(got.mean, 0.05) and parse_goal("balance").direction == "minimize"
    assert math.isclose(got.high, 0.10)


def test_skill_is_the_first_agents_share_above_fair() -> None:
    got = parse_goal("skill").measure(KNOWN)
    assert math.isclose(got.mean, 0.15) and math.isclose(got.low, 0.05)
    assert parse_goal("skill").direction == "maximize"


def test_drama_and_ranges() -> None:
    assert parse_goal("drama").measure(KNOWN).mean == 2.5
    assert parse_goal("length=40..60").measure(KNOWN).mean == 10.0  # 70 is 10 above the range
    assert parse_goal("length=60..80").measure(KNOWN).mean == 0.0
    with pytest.raises(BadOption, match="a number the games report"):
        parse_goal("fun=1..2").measure(KNOWN)
    for bad in ("fun", "length=9..1", "length=a..b"):
        with pytest.raises(BadOption):
            parse_goal(bad)


def test_constraints() -> None:
    tie = parse_constraint("tie<0.1")
    assert tie.violation(0.05) < 0 < tie.violation(0.2)
    assert not tie.hopeless(est(0.05, 0.02)) and tie.hopeless(est(0.5, 0.1))
    assert not tie.hopeless(est(0.12, 0.05))  # broken by its mean, not past its interval: play on
    low = parse_constraint("lead_changes >= 3")
    assert low.violation(2.5) > 0 and low.hopeless(est(1.0, 0.5))
    for bad in ("tie", "tie<<1", "<0.1", "tie<x"):
        with pytest.raises(BadOption):
            parse_constraint(bad)


def test_pareto_and_the_recommendation() -> None:
    # balance (minimize), skill (maximize)
    points = [(0, [0.10, 0.20]), (1, [0.05, 0.10]), (2, [0.08, 0.15]), (3, [0.12, 0.10])]
    front = pareto(points, ["minimize", "maximize"])
    assert front == [0, 1, 2]  # 3 is beaten by 0 on both
    best, reason = recommend(
        [p for p in points if p[0] in front], [v for _t, v in points], ["minimize", "maximize"]
    )
    assert best == 2 and "worst goal" in reason  # the middle one: neither goal at its worst


# -- end to end ---------------------------------------------------------------------------------------


def test_a_tiny_tune_writes_its_files_and_resumes(tmp_path: Path) -> None:
    out = tmp_path / "tune"
    args = [
        "tune", "tokkuri", "--players", "2", "--space", "penalty_points=0..3", "--goal", "balance",
        "--goal", "length=10..60", "--require", "tie<0.9", "--trials", "3", "--games", "8", "--jobs", "1",
        "--out", str(out), "--no-progress", "--no-plots",
    ]  # fmt: skip
    first = runner.invoke(app, args)
    assert first.exit_code == 0, first.output
    result = json.loads((out / "tune.json").read_text())
    assert result["format"] == "bodoge-tune/1" and len(result["trials"]) >= 1
    assert result["recommended"]["command"].startswith("bodoge sim tokkuri --players 2")
    assert "penalty_points=" in result["recommended"]["command"]
    report = (out / "report.md").read_text()
    assert "## Definitions" in report and "**balance**" in report and "**require tie<0.9**" in report
    page = (out / "report.html").read_text()
    assert page.startswith("<!doctype html>")
    # rendered (issue #35): real headings and tables, the findings of the recommended trial first
    assert "<h2>Findings on the recommended variant" in page and "<table>" in page
    assert page.index("<h2>Findings") < page.index("<h2>Recommended")
    assert isinstance(result["findings"], list)
    assert all(set(f) >= {"kind", "text", "evidence", "experiment"} for f in result["findings"])
    # Again without --resume: refused, nothing mixed in.
    again = runner.invoke(app, args)
    assert again.exit_code != 0 and "--resume" in again.output
    # --resume goes on to 5 trials (a variant proposed again is listed once).
    more = runner.invoke(
        app, [*args[: args.index("--trials") + 1], "5", *args[args.index("--trials") + 2 :], "--resume"]
    )
    assert more.exit_code == 0, more.output
    import optuna

    study = optuna.load_study(study_name="bodoge-tune", storage=f"sqlite:///{out / 'study.db'}")
    assert len(study.trials) == 5
    # Other settings on the same study: refused.
    other = [*args, "--resume"]
    other[other.index("balance")] = "drama"
    changed = runner.invoke(app, other)
    assert changed.exit_code != 0 and "the same game" in changed.output


def test_ctrl_c_keeps_the_study_and_writes_the_report(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from bodoge.arena import tune as tuning

    real = tuning.measure_trial
    calls: list[int] = []

    def interrupted(*args: Any, **kwargs: Any) -> Any:
        calls.append(1)
        if len(calls) == 2:
            raise KeyboardInterrupt  # Ctrl-C during the second trial
        return real(*args, **kwargs)

    monkeypatch.setattr(tuning, "measure_trial", interrupted)
    out = tmp_path / "tune"
    args = [
        "tune", "tokkuri", "--players", "2", "--space", "penalty_points=0..9", "--space", "hand_size=3..6",
        "--goal", "balance", "--trials", "4", "--games", "6", "--jobs", "1", "--out", str(out), "--no-progress",
        "--no-plots",
    ]  # fmt: skip
    stopped = runner.invoke(app, args)
    assert stopped.exit_code == 130 and "--resume" in stopped.output
    assert json.loads((out / "tune.json").read_text())["trials"]  # the first trial is in the report
    monkeypatch.setattr(tuning, "measure_trial", real)
    resumed = runner.invoke(app, [*args, "--resume"])
    assert resumed.exit_code == 0, resumed.output
    assert (
        len([t for t in json.loads((out / "tune.json").read_text())["trials"] if t["state"] == "complete"])
        >= 2
    )


def test_a_range_goal_s_interval_holds_its_mean_when_the_interval_is_wider_than_the_range() -> None:
    """length=40..60 on a length of 50 [30, 70]: distance 0, interval [0, 10] (its ends lie outside the
    range, but the interval meets it); the tune report's plot needs low <= mean <= high."""
    from bodoge.arena import tune as tuning
    from bodoge.arena.stats import Estimate as E

    goal = tuning.parse_goal("length=40..60")
    got = goal.measure({"length": E(50.0, 30.0, 70.0, 20), "metrics": {}})
    assert (got.mean, got.low, got.high) == (0.0, 0.0, 10.0)
    outside = goal.measure({"length": E(75.0, 70.0, 80.0, 20), "metrics": {}})
    assert (outside.mean, outside.low, outside.high) == (15.0, 10.0, 20.0)
    skill = tuning.parse_goal("skill=-0.03..0.03")  # a goal held in a range (issue #35)
    first = {"agents": [{"win_share": E(0.30, 0.28, 0.32, 20), "fair": 0.25}], "metrics": {}}
    assert skill.direction == "minimize" and abs(skill.measure(first).mean - 0.02) < 1e-9


def test_a_combination_the_game_refuses_is_a_pruned_trial_not_the_end_of_the_tune(tmp_path: Path) -> None:
    """Tottarot's max_will must cover turns_per_round: each end alone is accepted, but max_will 2 with
    4 turns is not. The tune goes on and lists the refused trial with the game's reason (issue #35's
    findings suggest such spaces)."""
    out = tmp_path / "tune"
    args = [
        "tune", "tottarot", "--players", "3", "--space", "max_will=2..3", "--space", "turns_per_round=3..4",
        "--goal", "balance", "--trials", "8", "--games", "6", "--jobs", "1", "--seed", "3",
        "--out", str(out), "--no-progress", "--no-plots",
    ]  # fmt: skip
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    trials = json.loads((out / "tune.json").read_text())["trials"]
    refused = [t for t in trials if "refused" in t]
    assert refused and all(t["state"] == "pruned" and t["command"] == "" for t in refused)
    assert "max_will" in refused[0]["refused"]
