"""bench/review_ladder.py (issue #55) at a small size: it plays the four agents in every seat, reviews
every game as the server does, and judges random play below the heuristic's; its figures are the
review's own (accuracy over judged decisions, weighted by the stakes)."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path
from typing import Any

import pytest

BENCH = Path(__file__).resolve().parents[2] / "bench" / "review_ladder.py"
_spec = importlib.util.spec_from_file_location("review_ladder", BENCH)
assert _spec is not None and _spec.loader is not None
ladder = importlib.util.module_from_spec(_spec)
sys.modules["review_ladder"] = ladder  # its workers find its functions by this name
_spec.loader.exec_module(ladder)


def test_every_agent_sits_in_every_seat_of_a_deal() -> None:
    tables = [ladder.table_agents(t, 4, "search") for t in range(4)]
    for seat in range(4):
        assert sorted(table[seat] for table in tables) == sorted(["random", "heuristic", "search", "nn"])
    assert ladder.table_agents(1, 3, "search") == ["heuristic", "search", "nn"]


def test_the_figures_weigh_each_decision_by_its_stakes() -> None:
    def decision(seat: int, cls: str, loss: float, values: list[float]) -> dict[str, Any]:
        return {"seat": seat, "class": cls, "loss": loss, "options": [{"value": v} for v in values]}

    records = [{"seed": 1, "arena": {"agents": ["random", "heuristic"]}}]
    reviews = [
        {
            "returns": [0.0, 1.0],
            "decisions": [
                decision(0, "blunder", 0.3, [0.1, 0.4]),
                decision(0, "good", 0.0, [0.0, 0.01]),
                decision(0, "unclear", 0.2, [0.0, 0.3]),  # not judged: left out
                decision(1, "best", 0.0, [0.6, 0.2]),
                decision(1, "forced", 0.0, [0.5]),  # not a choice: not counted at all
            ],
        }
    ]
    rows = ladder.figures(records, reviews)
    assert rows["random"]["accuracy"] == pytest.approx(100 * (1 - 0.3 / 0.31))
    assert (rows["random"]["judged"], rows["random"]["not_judged"]) == (2, 1)
    assert rows["heuristic"]["accuracy"] == 100
    assert (rows["heuristic"]["judged"], rows["heuristic"]["not_judged"]) == (1, 0)
    assert (rows["random"]["win_share"], rows["heuristic"]["win_share"]) == (0, 1)


@pytest.mark.slow
def test_the_ladder_judges_random_play_below_the_heuristic(tmp_path: Path) -> None:
    out = tmp_path / "ladder.json"
    # one game at two counts: each game's own ordering is test_review.py's (the bench's table is the
    # measurement); here, that the bench reviews every agent of every row and orders them
    args = ["hangover", "--players", "3,4", "--games", "4", "--search", "ismcts:iterations=100"]
    assert ladder.main([*args, "--jobs", "1", "--json", str(out)]) == 0
    rows = json.loads(out.read_text())
    assert [(r["game"], r["players"]) for r in rows] == [("hangover", 3), ("hangover", 4)]
    for row in rows:
        agents = row["agents"]
        assert set(agents) == {"random", "heuristic", "ismcts:iterations=100", "nn"}
        assert agents["random"]["accuracy"] < agents["heuristic"]["accuracy"], row
        assert row["holds"] in (True, False)
        assert all(a["judged"] > 0 for a in agents.values())


def test_the_ladder_holds_where_random_is_below_and_the_heuristic_not_above_the_search() -> None:
    def row(accuracy: float, low: float, high: float) -> dict[str, float]:
        return {"accuracy": accuracy, "accuracy_low": low, "accuracy_high": high}

    level = {"random": row(50, 40, 60), "heuristic": row(84.4, 82, 87), "search": row(84.3, 82, 86)}
    assert ladder.verdict(level, "search") == {"holds": True, "separated": True}  # level: not above
    above = dict(level, search=row(70, 65, 75))
    assert ladder.verdict(above, "search")["holds"] is False
    inverted = dict(level, random=row(90, 80, 95))
    assert ladder.verdict(inverted, "search") == {"holds": False, "separated": False}
