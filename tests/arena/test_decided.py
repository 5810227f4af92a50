"""Where games are decided (`bodoge sim --review N`, issue #33): swings and losses per kind of decision,
on hand-made reviews whose numbers are known, and on a real run's report."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from typer.testing import CliRunner

from bodoge.arena.decided import decided, decision_kind, swings
from bodoge.cli import app


def option(text: str) -> dict[str, Any]:
    return {"text": text}


def decision(move: int, seat: int, chance: float, loss: float, cls: str, texts: list[str]) -> dict[str, Any]:
    return {
        "move": move,
        "seat": seat,
        "win_chance": chance,
        "loss": loss,
        "class": cls,
        "chosen_text": texts[0],
        "options": [option(t) for t in texts],
    }


def review(decisions: list[dict[str, Any]], returns: list[float]) -> dict[str, Any]:
    return {"game": "hangover", "players": 3, "options": {}, "decisions": decisions, "returns": returns}


DECLARE = ["declare", "pass"]
PLAY = ["play R1", "play B2"]


def test_a_swing_runs_to_the_seats_next_decision_or_its_result() -> None:
    r = review(
        [
            decision(0, 0, 0.3, 0.0, "best", DECLARE),
            decision(1, 1, 0.5, 0.1, "mistake", DECLARE),
            decision(2, 0, 0.9, 0.0, "best", PLAY),
        ],
        [1.0, 0.0, 0.0],
    )
    moved = {s["decision"]["move"]: round(s["swing"], 6) for s in swings(r)}
    assert moved == {0: 0.6, 1: -0.5, 2: 0.1}  # seat 0: 0.3 -> 0.9 -> won (1.0); seat 1: 0.5 -> lost


def test_kinds_count_losses_but_not_forced_moves() -> None:
    r = review(
        [
            decision(0, 0, 0.3, 0.0, "best", DECLARE),
            decision(1, 1, 0.5, 0.2, "blunder", DECLARE),
            decision(2, 2, 0.2, 0.0, "forced", ["play R1"]),
        ],
        [1.0, 0.0, 0.0],
    )
    found = decided([r])
    kinds = {k["kind"]: k for k in found["kinds"]}
    assert set(kinds) == {"declare/pass", "play"}
    assert kinds["declare/pass"]["decisions"] == 2
    assert kinds["declare/pass"]["mean_loss"]["mean"] == 0.1
    assert kinds["declare/pass"]["not_so_good"] == 0.5
    assert kinds["play"]["mean_loss"] is None  # only a forced move: no loss to judge
    assert found["swings"][0]["move"] == 0 and found["swings"][0]["swing"] == 0.7  # 0.3 -> won


def test_a_decision_kind_names_its_options_in_the_games_words() -> None:
    from bodoge.agents.counterfactual import vocabulary
    from bodoge.core.registry import make

    words = vocabulary(make("hangover", 3))
    assert decision_kind([option("pass"), option("declare")], words) == "declare/pass"
    assert decision_kind([option("play R1"), option("play B2^")], words) == "play"


def test_sim_review_writes_where_games_are_decided(tmp_path: Path) -> None:
    out = tmp_path / "run"
    args = ["sim", "hangover", "--players", "3", "--agents", "heuristic,random", "--games", "3"]
    args += ["--review", "1", "--experiments", "0", "--jobs", "1", "--no-progress", "--no-plots"]
    result = CliRunner().invoke(app, [*args, "--out", str(out)])
    assert result.exit_code == 0, result.output
    summary = json.loads((out / "summary.json").read_text())
    assert summary["review"]["games"] == 1
    assert summary["review"]["decisions"] > 0
    assert "declare/pass" in {k["kind"] for k in summary["review"]["kinds"]}
    assert "## Where games are decided (review of 1 games" in (out / "report.md").read_text()


def test_sim_review_is_bounded() -> None:
    result = CliRunner().invoke(app, ["sim", "hangover", "--review", "101", "--games", "3"])
    assert result.exit_code != 0
    assert "101" in result.output
