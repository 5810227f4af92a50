"""`bodoge tune` judged as a designer would (issue "findings that hold"): a goal or option that did not
vary is said and not plotted, Pareto members the games cannot tell from the recommended one are
marked, the recommendation is played again by free agents at every player count, ties and the use of
the game's parts stand beside the goals, and the report reads in Japanese too."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from bodoge.arena import tune as tuning
from bodoge.arena import tune_recheck, tune_report
from bodoge.arena.findings import free_agent
from bodoge.errors import BadOption

optuna = pytest.importorskip("optuna", reason="bodoge tune needs the tune extra (pip install -e '.[tune]')")

JAPANESE = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")


def tiny_tune(out: Path, config: tuning.TuneConfig, trials: int) -> dict[str, Any]:
    """A tune as `bodoge tune` runs it, through the library: the study, its objective, the result."""
    optuna.logging.set_verbosity(optuna.logging.WARNING)
    dims = tuning.parse_space(config.game, config.players, config.space)
    study = tuning.open_study(config, f"sqlite:///{out / 'study.db'}", resume=False)
    study.optimize(tuning.objective(study, config, dims, out), n_trials=trials, catch=())
    outcome = tuning.result(study, config)
    outcome["findings"] = tuning.recommended_findings(outcome, out)
    return outcome


@pytest.fixture(scope="module")
def hangover(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """Hangover, 4 players, a counterfactual first agent; `tie=0..1` holds in every trial (a share of
    ties always lies in 0..1), so that goal cannot vary; drunk_limit.3 and .5 are never varied."""
    out = tmp_path_factory.mktemp("tune")
    config = tuning.TuneConfig(
        "hangover",
        4,
        ["drunk_limit.4=10..14", "vp_just=2..5"],
        ["skill", "tie=0..1"],
        [],
        ["heuristic:avoid=declare", "random", "random", "random"],
        games=20,
        seed=1,
    )
    return {"out": out, "result": tiny_tune(out, config, trials=4)}


# -- 1. a goal that does not vary, options never varied --------------------------------------------------


def test_a_goal_that_does_not_vary_is_said_and_not_plotted(hangover: dict[str, Any]) -> None:
    result = hangover["result"]
    warned = [w for w in result["warnings"] if w["kind"] == "goal_constant"]
    assert [w["goal"] for w in warned] == ["tie=0..1"]
    assert "0.000 in every one of the" in warned[0]["text"]["en"] and "skill" in warned[0]["text"]["en"]
    assert JAPANESE.search(warned[0]["text"]["ja"])
    report = tune_report.report_md(result)
    assert report.index("> **Warning:** The goal tie=0..1") < report.index("## Recommended")
    titles = [title for title, _png in tune_report.figures(result)]
    assert titles[0] == "Pareto front"
    assert not [t for t in titles if t.startswith("tie=0..1")]  # the flat goal: no plot
    assert "skill against vp_just" in titles
    # the entries of drunk_limit the space never varies (3 and 5 players): no axis
    assert not [t for t in titles if "drunk_limit.3" in t or "drunk_limit.5" in t]


def test_an_option_that_never_varied_is_said() -> None:
    config = tuning.TuneConfig(
        "hangover", 4, ["vp_just=2..5", "vp_over=-2..1"], ["balance"], [], ["heuristic"] * 4
    )
    rows = [
        {
            "trial": i,
            "state": "complete",
            "options": {"vp_just": 3, "vp_over": v},
            "values": {"balance": {"mean": b}},
        }
        for i, (v, b) in enumerate([(-2, 0.1), (0, 0.2)])
    ]
    said = tuning.judge_warnings(config, rows)
    assert [(w["kind"], w.get("option")) for w in said] == [("option_constant", "vp_just")]
    assert tuning.judge_warnings(config, rows[:1]) == []  # one trial: nothing can vary yet


def test_skill_with_one_kind_of_agent_is_explained() -> None:
    config = tuning.TuneConfig("tokkuri", 2, ["hand_size=3..6"], ["skill", "balance"], [], ["heuristic"] * 2)
    rows = [
        {
            "trial": i,
            "state": "complete",
            "options": {"hand_size": h},
            "values": {"skill": {"mean": 0.0}, "balance": {"mean": b}},
        }
        for i, (h, b) in enumerate([(3, 0.1), (5, 0.2)])
    ]
    (said,) = tuning.judge_warnings(config, rows)
    assert said["goal"] == "skill" and "the same agent" in said["text"]["en"]
    assert "rest on the other goals (balance)" in said["text"]["en"]


# -- 2. Pareto members that cannot be told apart -------------------------------------------------------


def row(trial: int, balance: tuple[float, float, float], skill: tuple[float, float, float]) -> dict[str, Any]:
    def e(v: tuple[float, float, float]) -> dict[str, float]:
        return {"mean": v[0], "low": v[1], "high": v[2]}

    return {
        "trial": trial,
        "state": "complete",
        "options": {"vp_just": trial},
        "values": {"balance": e(balance), "skill": e(skill)},
        "metrics": {"tie": {"mean": 0.04, "low": 0.0, "high": 0.08}},
        "feasible": True,
        "command": f"bodoge sim hangover --set vp_just={trial}",
    }


def judged() -> dict[str, Any]:
    """Three Pareto members: 2 is recommended; 1 overlaps it on both goals; 3 is clearly less skilled."""
    rows = [
        row(1, (0.02, 0.00, 0.06), (0.30, 0.25, 0.35)),
        row(2, (0.03, 0.00, 0.07), (0.28, 0.23, 0.33)),
        row(3, (0.01, 0.00, 0.05), (0.10, 0.05, 0.15)),
    ]
    best = 2
    return {
        "format": "bodoge-tune/1",
        "config": {"game": "hangover", "players": 4, "space": ["vp_just=1..3"], "goals": ["balance", "skill"],
                   "require": [], "agents": ["heuristic", "random", "random", "random"], "games": 40, "seed": 1},
        "goals": [{"name": "balance", "direction": "minimize", "definition": "seat gap"},
                  {"name": "skill", "direction": "maximize", "definition": "edge"}],
        "warnings": [],
        "metrics": [tuning.describe("hangover", "tie")],
        "trials": rows,
        "pareto": [1, 2, 3],
        "recommended": {"trial": best, "reason": "of the Pareto set, its worst goal is the best: at least 60% "
                        "of the way", "options": {"vp_just": 2}, "command": "bodoge sim hangover"},
        "indistinguishable_from_recommended": tuning.indistinguishable(rows, best, [1, 2, 3], ["balance", "skill"]),
        "findings": [],
    }  # fmt: skip


def test_pareto_members_the_games_cannot_tell_apart_are_marked() -> None:
    result = judged()
    assert result["indistinguishable_from_recommended"] == [1]  # 3's skill interval lies below 2's
    assert tuning.told_apart(
        result["trials"][2]["values"], result["trials"][1]["values"], ["balance", "skill"]
    ) == ["skill"]
    report = tune_report.report_md(result)
    assert "one of 2 trials these games cannot tell apart: trial 1 and this one" in report
    pareto = report[report.index("## The Pareto set") : report.index("## Every trial")]
    assert "| vs trial 2 |" in pareto
    assert "| 1 | vp_just=1 |" in pareto and "cannot tell apart |" in pareto
    assert "| differs on skill |" in pareto and "| recommended |" in pareto
    alone = {**result, "indistinguishable_from_recommended": []}
    assert "cannot tell apart:" not in tune_report.report_md(alone)


def test_a_real_tune_lists_only_pareto_members_as_indistinguishable(hangover: dict[str, Any]) -> None:
    result = hangover["result"]
    alike = result["indistinguishable_from_recommended"]
    assert set(alike) <= set(result["pareto"]) and result["recommended"]["trial"] not in alike


# -- 3. the recommendation with free agents at every player count ---------------------------------------


def test_recheck_plays_free_agents_at_every_player_count(hangover: dict[str, Any]) -> None:
    result = json.loads(json.dumps(hangover["result"]))
    result["findings"] = []  # as if the tuned bots had shown nothing: every finding here is new
    checked = tune_recheck.recheck(result, games=12, out=hangover["out"] / "recheck")
    assert checked is not None
    assert [c["players"] for c in checked["counts"]] == [3, 4, 5]  # Hangover is for 3 to 5
    assert checked["agents"] == ["heuristic", "random"]  # avoid=declare taken off
    for c in checked["counts"]:
        assert c["agents"][0] == "heuristic" and len(c["agents"]) == c["players"]
        assert set(c["values"]) == {"skill", "tie=0..1"} and c["tie"]["n"] > 0 and "mean" in c["no_winner"]
        assert c["new_findings"] == sorted({f["kind"] for f in c["findings"]})
        assert "--agents heuristic,random" in c["command"] and "avoid" not in c["command"]
        assert (hangover["out"] / "recheck" / f"{c['players']}p" / "games.jsonl").exists()
    result["recheck"] = checked
    report = tune_report.report_md(result)
    section = report[report.index("## Checked with free agents at every player count") :]
    assert "| 3 | `heuristic`, `random`, `random` |" in section and "| 5 |" in section
    assert (
        "bodoge sim hangover --players 5 --agents heuristic,random,random,random,random --games 12" in section
    )


def test_a_finding_only_free_agents_show_is_said_near_the_top(hangover: dict[str, Any]) -> None:
    result = json.loads(json.dumps(hangover["result"]))
    finding = {"kind": "degenerate_end", "text": {"en": "Most games end early.", "ja": "早く終わります。"}}
    result["recheck"] = {
        "games": 12, "seed": 1, "agents": ["heuristic", "random"], "tuned_players": 4, "options": {},
        "counts": [{"players": 3, "agents": ["heuristic", "random", "random"], "command": "bodoge sim x",
                    "values": {}, "tie": None, "no_winner": None, "findings": [finding],
                    "new_findings": ["degenerate_end"]}],
    }  # fmt: skip
    report = tune_report.report_md(result)
    warning = report.index("shows findings the tune's own games did not (3 players: degenerate_end)")
    assert warning < report.index("## Recommended")
    assert "1. **degenerate_end** **new**: Most games end early." in report


def test_recheck_is_bounded_and_optional() -> None:
    result = judged()
    with pytest.raises(BadOption, match="games per player count"):
        tune_recheck.recheck(result, games=0)
    with pytest.raises(BadOption, match="games per player count"):
        tune_recheck.recheck(result, games=10**9)
    with pytest.raises(BadOption, match="3 to 5"):
        tune_recheck.recheck(result, players_counts=[2], games=4)
    assert tune_recheck.recheck({**result, "recommended": None}, games=4) is None
    assert "## Checked with free agents" not in tune_report.report_md(result)  # none asked for


def test_free_specs_and_lineups() -> None:
    assert free_agent("heuristic:avoid=declare,at=declare/pass") == "heuristic"
    assert free_agent("ismcts:iterations=50,prefer=flip") == "ismcts:iterations=50"
    assert tune_recheck.lineup(["heuristic", "random"], 4) == ["heuristic", "random", "random", "random"]
    assert tune_recheck.lineup(["heuristic", "heuristic", "random"], 2) == ["heuristic", "random"]


# -- 4. ties and the use of the game's parts beside the goals --------------------------------------------


def test_every_trial_shows_ties_and_the_games_own_numbers(hangover: dict[str, Any]) -> None:
    result = hangover["result"]
    done = [t for t in result["trials"] if t["state"] == "complete"]
    for t in done:
        assert set(t["metrics"]) >= {"tie", "hung_over", "non_drinkers", "tricks", "choice flip/stop: flip"}
        assert not any(k.startswith(tuning.BESIDE) for k in t["values"])  # the goals' values stay apart
        assert set(t["values"]) == {"skill", "tie=0..1"}
    words = {m["name"]: m["words"]["en"] for m in result["metrics"]}
    assert words["tie"] == "ties" and words["choice flip/stop: flip"] == "flip (at flip/stop)"
    report = tune_report.report_md(result)
    table = report[report.index("## Every trial") :]
    assert "| ties | hung over | non-drinkers | tricks |" in table
    assert "- **ties**: the share of games won by several players together (a shared win)." in report
    assert re.search(r"\| \d+(\.\d)?% \| \d+(\.\d)?% \|", table)  # shares in percent


# -- 5. the report in Japanese ----------------------------------------------------------------------------


def prose(markdown: str) -> list[str]:
    """The report's sentences and headings: not commands, tables' numbers or blank lines."""
    lines, fenced = [], False
    for line in markdown.splitlines():
        if line.strip().startswith("```"):
            fenced = not fenced
            continue
        if fenced or not line.strip() or line.startswith(("|", "![")):
            continue
        lines.append(line)
    return lines


def test_the_report_in_japanese(hangover: dict[str, Any], tmp_path: Path) -> None:
    result = json.loads(json.dumps(hangover["result"]))
    result["recheck"] = tune_recheck.recheck(result, players_counts=[3], games=6)
    tune_report.write(result, tmp_path, plots=False, lang="ja")
    ja = (tmp_path / "report.md").read_text()
    for line in prose(ja):
        assert JAPANESE.search(line), line  # every sentence and heading is Japanese
    for heading in ("## おすすめ", "## パレート集合", "## すべての試行", "## 用語", "## 自由に選ぶボットで"):
        assert heading in ja
    table = next(line for line in ja.splitlines() if line.startswith("| 試行 | オプション |"))
    assert "同点勝利" in table and "ハングオーバー" in table
    assert "<html lang='ja'>" in (tmp_path / "report.html").read_text()
    assert json.loads((tmp_path / "tune.json").read_text())["recheck"]["counts"][0]["players"] == 3
    en = tune_report.report_md(result)
    assert not JAPANESE.search(
        "\n".join(line for line in prose(en) if not line.startswith(("1.", "2.", "3.")))
    )
    with pytest.raises(BadOption, match="en or ja"):
        tune_report.write(result, tmp_path, lang="fr")


def test_japanese_plots_are_named_in_japanese(hangover: dict[str, Any]) -> None:
    titles = [title for title, _png in tune_report.figures(hangover["result"], "ja")]
    assert titles[0] == "パレート前線" and "vp_just ごとの skill" in titles
