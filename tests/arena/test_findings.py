"""Findings (issue #35): each kind on hand-made summaries, just past and just short of its threshold;
the choices they rest on; the cost of a dominant choice, paired; and on real runs of Hangover, the
findings the issue names, with experiments that run as written."""

from __future__ import annotations

import json
import math
import shlex
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from bodoge import arena
from bodoge.arena import choices, findings
from bodoge.arena.findings import Context
from bodoge.arena.stats import Estimate
from bodoge.cli import app

CTX = Context("hangover", 4, ["heuristic", "heuristic", "heuristic", "heuristic"], 200, 1)


def est(mean: float, low: float, high: float, n: int = 50) -> Estimate:
    return Estimate(mean, low, high, n)


def variant(**parts: Any) -> dict[str, Any]:
    """A variant summary with nothing to report, changed by `parts`."""
    fair = 0.25
    base: dict[str, Any] = {
        "games": 200,
        "metrics": {
            "tie": est(0.02, 0.0, 0.05),
            "no_winner": est(0.0, 0.0, 0.0),
            "decided_at": est(0.8, 0.75, 0.85),
            "lead_changes": est(2.5, 2.2, 2.8),
            "forced": est(0.1, 0.08, 0.12),
            "normal_end": est(0.9, 0.85, 0.95),
        },
        "choices": {
            "declare/pass": {
                "decisions": 800,
                "games": 200,
                "options": {
                    "declare": {"share": est(0.5, 0.45, 0.55), "chosen": 400, "dominant": False},
                    "pass": {"share": est(0.5, 0.45, 0.55), "chosen": 400, "dominant": False},
                },
            }
        },
        "dead_decisions": est(0.2, 0.18, 0.22),
        "ends": {"hands_empty": est(0.9, 0.85, 0.95), "no_active_player": est(0.1, 0.05, 0.15)},
        "seat_balance": {
            "p": 0.5,
            "seats": [{"seat": s, "share": est(fair, 0.2, 0.3), "verdict": "within"} for s in range(4)],
        },
        "skill": None,
    }
    for key, value in parts.items():
        if key in base["metrics"]:
            base["metrics"][key] = value
        else:
            base[key] = value
    return base


def kinds(found: list[dict[str, Any]]) -> list[str]:
    return [f["kind"] for f in found]


def test_a_summary_with_nothing_past_a_threshold_has_no_finding() -> None:
    assert findings.detect(variant(), CTX) == []


def dominant(low: float) -> dict[str, Any]:
    return {
        "declare/pass": {
            "decisions": 800,
            "games": 200,
            "options": {
                "declare": {"share": est(0.97, low, 0.99), "chosen": 776, "dominant": low > 0.9},
                "pass": {"share": est(0.03, 0.01, 1 - low), "chosen": 24, "dominant": False},
            },
        }
    }


def test_dominant_choice_needs_its_whole_interval_above_the_threshold() -> None:
    found = findings.detect(variant(choices=dominant(0.93)), CTX)
    assert kinds(found) == ["dominant_choice"]
    f = found[0]
    assert f["option"] == "declare" and f["decision"] == "declare/pass"
    assert "declare 97% [93%, 99%]" in f["text"]["en"] and "declare" in f["text"]["ja"]
    # the experiment: the first agent avoids the option, the others as they were
    assert f["experiment"] == (
        "bodoge sim hangover --players 4 --agents heuristic:avoid=declare,heuristic --games 200 --seed 1"
    )
    assert findings.detect(variant(choices=dominant(findings.DOMINANT)), CTX) == []  # touches 0.9


def test_dominant_choice_is_avoided_only_there_when_the_option_is_offered_elsewhere_too() -> None:
    both = dominant(0.95)
    both["declare/flip/pass"] = {
        "decisions": 10,
        "games": 10,
        "options": {
            o: {"share": est(1 / 3, 0.1, 0.6), "chosen": 3, "dominant": False}
            for o in ("declare", "flip", "pass")
        },
    }
    (f,) = findings.detect(variant(choices=both), CTX)
    assert "--agents heuristic:avoid=declare,at=declare/pass,heuristic " in f["experiment"]


def test_degenerate_end_when_most_games_end_by_an_exceptional_path() -> None:
    ends = {"hands_empty": est(0.2, 0.1, 0.3), "no_active_player": est(0.8, 0.7, 0.9)}
    found = findings.detect(variant(normal_end=est(0.2, 0.1, 0.3), ends=ends), CTX)
    assert kinds(found) == ["degenerate_end"]
    assert "80% [70%, 90%]" in found[0]["text"]["en"]
    assert "no_active_player" in found[0]["text"]["en"]
    assert "no active player left" in found[0]["text"]["en"]  # the game's own words for the end
    assert found[0]["experiment"].startswith("bodoge sim hangover --players 4 --agents random ")
    # the interval reaches down to one half: not clearly "most games"
    assert findings.detect(variant(normal_end=est(0.3, 0.2, 0.5)), CTX) == []


def test_degenerate_end_with_a_dominant_choice_tests_every_seat_avoiding_it() -> None:
    found = findings.detect(variant(normal_end=est(0.0, 0.0, 0.0), choices=dominant(0.99)), CTX)
    assert kinds(found) == ["degenerate_end", "dominant_choice"]  # ranked: every game vs a choice
    assert "--agents heuristic:avoid=declare --games" in found[0]["experiment"]


def test_a_game_that_does_not_say_how_it_ended_has_no_degenerate_end() -> None:
    v = variant()
    del v["metrics"]["normal_end"]
    v["ends"] = {}
    assert findings.detect(v, CTX) == []


@pytest.mark.parametrize(
    ("parts", "kind"),
    [
        ({"dead_decisions": est(0.6, 0.55, 0.65)}, "dead_decisions"),
        ({"decided_at": est(0.3, 0.25, 0.35), "lead_changes": est(0.8, 0.6, 1.0)}, "runaway_leader"),
        ({"no_winner": est(0.1, 0.07, 0.13)}, "no_winner"),
        ({"tie": est(0.3, 0.2, 0.4)}, "ties"),
    ],
)
def test_each_number_finding_fires_past_its_threshold(parts: dict[str, Any], kind: str) -> None:
    found = findings.detect(variant(**parts), CTX)
    assert kinds(found) == [kind]
    assert found[0]["experiment"].startswith(("bodoge tune hangover --players 4 --space", "bodoge sim"))
    assert found[0]["text"]["en"] and found[0]["text"]["ja"]
    for value in found[0]["evidence"].values():
        assert isinstance(value, Estimate | int | float)


@pytest.mark.parametrize(
    "parts",
    [
        {"dead_decisions": est(0.55, 0.5, 0.6)},  # touches 0.5
        {"decided_at": est(0.3, 0.25, 0.5), "lead_changes": est(0.8, 0.6, 1.0)},  # may be settled late
        {"decided_at": est(0.3, 0.25, 0.35), "lead_changes": est(1.4, 1.2, 1.6)},  # leads may change
        {"no_winner": est(0.1, 0.05, 0.15)},
        {"tie": est(0.3, 0.15, 0.45)},
        {"no_winner": est(0.2, math.nan, math.nan, 1)},  # one deal: no interval, no finding
    ],
)
def test_no_finding_where_the_interval_reaches_the_harmless_side(parts: dict[str, Any]) -> None:
    assert findings.detect(variant(**parts), CTX) == []


def test_seat_imbalance_needs_the_test_and_a_seat_off_its_share() -> None:
    seats = [{"seat": s, "share": est(0.25, 0.2, 0.3), "verdict": "within"} for s in range(4)]
    seats[2] = {"seat": 2, "share": est(0.4, 0.33, 0.47), "verdict": "above"}
    (f,) = findings.detect(variant(seat_balance={"p": 0.001, "seats": seats}), CTX)
    assert f["kind"] == "seat_imbalance" and "P2 wins more" in f["text"]["en"]
    assert "--goal balance" in f["experiment"]
    assert findings.detect(variant(seat_balance={"p": 0.2, "seats": seats}), CTX) == []


def ladder(share: Estimate) -> dict[str, Any]:
    return {
        "rungs": [{"agent": "heuristic", "share": share}, {"agent": "random", "share": est(0.2, 0.18, 0.22)}]
    }


def test_no_skill_when_the_stronger_agent_wins_hardly_more_than_its_share() -> None:
    ctx = Context("hangover", 4, ["heuristic", "random", "random", "random"], 200, 1)
    (f,) = findings.detect(variant(skill=ladder(est(0.27, 0.25, 0.29))), ctx)
    assert f["kind"] == "no_skill" and "--goal skill" in f["experiment"]
    assert findings.detect(variant(skill=ladder(est(0.32, 0.29, 0.35))), ctx) == []
    # two agents of one kind (a counterfactual beside its inner agent) say nothing about skill
    same = {
        "rungs": [
            {"agent": "heuristic", "share": est(0.26, 0.25, 0.27)},
            {"agent": "heuristic:avoid=declare", "share": est(0.2, 0.1, 0.3)},
        ]
    }
    assert findings.detect(variant(skill=same), ctx) == []


def test_findings_are_ranked_by_importance() -> None:
    found = findings.detect(
        variant(
            normal_end=est(0.1, 0.05, 0.15),
            tie=est(0.3, 0.2, 0.4),
            dead_decisions=est(0.6, 0.55, 0.65),
            choices=dominant(0.95),
        ),
        CTX,
    )
    assert kinds(found) == ["degenerate_end", "dominant_choice", "dead_decisions", "ties"]
    assert [f["importance"] for f in found] == sorted((f["importance"] for f in found), reverse=True)


# -- the choices they rest on ---------------------------------------------------------------------------


def record(
    deal: int, index: int, kinds_: dict[str, dict[str, list[int]]], forced: float = 0.0
) -> dict[str, Any]:
    return {
        "arena": {
            "deal": deal,
            "index": index,
            "rotation": 0,
            "decisions": [5, 5],
            "metrics": {"forced": forced},
            "choices": kinds_,
        }
    }


def test_choices_add_up_by_kind_and_a_share_of_one_is_not_certain_from_few_decisions() -> None:
    few = choices.summarize([record(d, d, {"declare/pass": {"declare": [1, 1]}}) for d in range(3)])
    share = few["kinds"]["declare/pass"]["options"]["declare"]["share"]
    assert share.mean == 1.0 and share.low < 0.5  # Wilson on 3 decisions: 3/(3 + 1.96²) = 0.44
    assert math.isclose(share.low, 3 / (3 + choices.Z**2))
    assert few["kinds"]["declare/pass"]["options"]["pass"]["share"].mean == 0.0
    many = choices.summarize([record(d, d, {"declare/pass": {"declare": [4, 4]}}) for d in range(50)])
    kind = many["kinds"]["declare/pass"]
    assert kind["decisions"] == 200 and kind["games"] == 50
    assert kind["options"]["declare"]["dominant"] and not kind["options"]["pass"]["dominant"]
    # dead: each game's 10 decisions, 2 forced (0.2) and 4 settled by the dominant declare
    dead = choices.summarize(
        [record(d, d, {"declare/pass": {"declare": [4, 4]}}, forced=0.2) for d in range(50)]
    )["dead"]
    assert math.isclose(dead.mean, 0.6)


def test_a_share_that_varies_between_deals_gets_a_wider_interval() -> None:
    even = [record(d, d, {"a/b": {"a": [5, 5], "b": [5, 5]}}) for d in range(40)]
    lumpy = [record(d, d, {"a/b": {"a": [10, 10]} if d % 2 else {"b": [10, 10]}}) for d in range(40)]
    narrow = choices.summarize(even)["kinds"]["a/b"]["options"]["a"]["share"]
    wide = choices.summarize(lumpy)["kinds"]["a/b"]["options"]["a"]["share"]
    assert narrow.mean == wide.mean == 0.5
    assert wide.half > 2 * narrow.half  # the deal is the unit: 40 deals, not 400 decisions


def test_the_cost_is_paired_on_the_seat_of_the_first_agent() -> None:
    def rec(index: int, rotation: int, returns: list[float]) -> dict[str, Any]:
        return {
            "arena": {
                "index": index,
                "deal": index // 2,
                "rotation": rotation,
                "agents": ["a", "b"],
                "returns": returns,
            }
        }

    base = [rec(0, 0, [1.0, 0.0]), rec(1, 1, [0.0, 1.0]), rec(2, 0, [0.5, 0.5]), rec(3, 1, [1.0, 0.0])]
    # rotation 1: the first agent sits at seat 1
    exp = [rec(0, 0, [0.0, 1.0]), rec(1, 1, [1.0, 0.0]), rec(2, 0, [0.0, 1.0]), rec(3, 1, [1.0, 0.0])]
    cost = findings.cost_of(base, exp)
    assert math.isclose(cost.mean, ((-1 - 1) / 2 + (-0.5 + 0) / 2) / 2)


# -- real runs ------------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def hangover_run() -> tuple[dict[str, Any], list[dict[str, Any]], arena.SimConfig]:
    config = arena.SimConfig("hangover", 4, ["heuristic"] * 4, games=40, seed=1)
    records = arena.run(config)
    return arena.summarize(records, config), records, config


def test_hangover_defaults_collapse_into_declaring_and_no_active_player(hangover_run: Any) -> None:
    """Issue #35: on draft 2's defaults every heuristic player declares non-drinker, and the game ends
    with nobody active instead of when the cards run out."""
    summary, records, config = hangover_run
    assert kinds(summary["findings"])[:2] == ["degenerate_end", "dominant_choice"]
    assert all(r["arena"]["end"] == "no_active_player" for r in records)
    dominant_ = summary["findings"][1]
    assert (dominant_["option"], dominant_["decision"]) == ("declare", "declare/pass")
    played = findings.measure_costs(summary["findings"], records, config, lambda c: arena.run(c), most=1)
    assert played == 1
    cost = dominant_["evidence"]["cost_in_win_share"]
    assert cost.high < 0  # a lone drinker among non-drinkers loses: the bots are right to declare
    assert "costs" in dominant_["text"]["en"]
    json.dumps(arena.summary.to_json(summary))  # summary.json holds them


def test_every_experiment_of_a_real_run_runs_as_written(hangover_run: Any, tmp_path: Path) -> None:
    summary, _records, _config = hangover_run
    for f in summary["findings"]:
        argv = shlex.split(f["experiment"])
        assert argv[0] == "bodoge"
        argv = argv[1:]
        argv[argv.index("--games") + 1] = "8"  # as written, but small
        if argv[0] == "tune":
            argv[argv.index("--trials") + 1] = "1"
            argv[argv.index("--out") + 1] = str(tmp_path / "tune")
        result = CliRunner().invoke(app, [*argv, "--no-progress", "--no-plots", "--jobs", "1"])
        assert result.exit_code == 0, result.output


def test_sim_prints_and_writes_the_findings(tmp_path: Path) -> None:
    out = tmp_path / "run"
    result = CliRunner().invoke(
        app,
        [
            *("sim", "hangover", "-p", "3", "--agents", "heuristic", "--games", "12", "--jobs", "1"),
            *("--no-progress", "--no-plots", "--out", str(out)),
        ],
    )
    assert result.exit_code == 0, result.output
    assert "degenerate_end" in result.output and "experiment: bodoge sim hangover" in result.output
    assert "Avoiding declare costs" in " ".join(result.output.split())  # the experiment was played
    saved = json.loads((out / "summary.json").read_text())
    assert [f["kind"] for f in saved["findings"]][:2] == ["degenerate_end", "dominant_choice"]
    assert set(saved["findings"][0]["text"]) == {"en", "ja"}
    md = (out / "report.md").read_text()
    assert md.index("## Findings") < md.index("## default")  # the findings first


def test_an_experiment_s_agent_replaces_a_counterfactual_parameter_rather_than_adding_one() -> None:
    assert findings.with_param("heuristic", "avoid", "declare") == "heuristic:avoid=declare"
    assert findings.with_param("ismcts:iterations=50", "avoid", "x") == "ismcts:iterations=50,avoid=x"
    assert findings.with_param("heuristic:avoid=declare", "avoid", "pass") == "heuristic:avoid=pass"
    assert (
        findings.with_param("heuristic:avoid=take,at=return hand/take", "avoid", "x") == "heuristic:avoid=x"
    )


def test_the_option_of_an_action_id_is_cached_only_while_the_game_keeps_it() -> None:
    import random as random_

    import bodoge
    from bodoge.arena.choices import _CHECKS, _OPTION_OF, _TEXTS_ONLY, ChoiceTally, _game_key

    game = bodoge.make("troika", 3)

    def tallies() -> list[Any]:
        out = []
        for seed in range(3):
            state, rng, tally = game.new_state(seed=seed), random_.Random(seed), ChoiceTally(game)
            while state.current_player is not None:
                legal = state.legal_actions()
                action = rng.choice(legal)
                tally.decide(state, legal, action)
                state.apply(action)
            out.append(tally.to_json())
        return out

    key = _game_key(game)
    cached = tallies()
    _TEXTS_ONLY.add(key)  # every text read: the same counts
    try:
        assert tallies() == cached
    finally:
        _TEXTS_ONLY.discard(key)

    class Shifty:  # a game whose action 0 is `take` in one state and `draw` in another
        def __init__(self, text: str) -> None:
            self.text = text

        def action_text(self, a: int) -> str:
            return self.text if a == 0 else "return hand 3"

    tally = ChoiceTally(game)
    _OPTION_OF.pop(tally._key, None)
    _CHECKS.pop(tally._key, None)  # as in a fresh process: the ids are checked (earlier tests count too)
    tally._by_id.clear()
    tally.decide(Shifty("take 5"), [0, 1], 0)  # type: ignore[arg-type]
    tally.decide(Shifty("draw"), [0, 1], 0)  # type: ignore[arg-type]
    assert key in _TEXTS_ONLY
    assert tally.to_json() == {"return hand/take": {"take": [1, 1]}, "draw/return hand": {"draw": [1, 1]}}
    _TEXTS_ONLY.discard(key)
    _OPTION_OF.pop(key, None)


def test_a_cost_is_worded_as_what_the_run_can_tell() -> None:
    """Issue #54: a clear cost holds against these bots, not every player; no clear cost is "cannot
    tell" with the effect the run could have missed, never a habit or a trap."""
    from bodoge.arena.findings import DETECTABLE, add_cost
    from bodoge.arena.stats import Estimate

    def finding() -> dict[str, Any]:
        return {
            "option": "declare",
            "agent": "heuristic:avoid=declare",
            "importance": 0.5,
            "evidence": {},
            "text": {"en": "", "ja": ""},
        }

    clear = finding()
    add_cost(clear, Estimate(-0.25, -0.26, -0.24, 100), Estimate(0.0, 0.0, 0.0, 100))
    assert "against these bots, declare is the better option" in clear["text"]["en"]
    assert "heuristic:avoid=declare" in clear["text"]["en"] and "同じ相手" in clear["text"]["ja"]
    unclear = finding()
    add_cost(unclear, Estimate(-0.02, -0.08, 0.04, 100), Estimate(0.3, 0.25, 0.35, 100))
    text = unclear["text"]["en"]
    assert "cannot tell" in text and f"about {DETECTABLE * 0.06:.3f}" in text
    for word in ("habit", "trap", "fair", "癖", "罠"):
        assert word not in text + unclear["text"]["ja"] + clear["text"]["en"] + clear["text"]["ja"]
    assert unclear["importance"] == 0.5 and clear["importance"] == 0.7
