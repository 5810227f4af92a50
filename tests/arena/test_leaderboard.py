"""bench/leaderboard.py (issue #58) at a tiny size: its schedule seats every pair together and every
agent equally, its ratings order agents that always finish in one order, and the script plays a
small tournament into a table with a row for every agent (and leaves out a model file that is absent,
saying why)."""

from __future__ import annotations

import importlib.util
import itertools
import json
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

BENCH = Path(__file__).resolve().parents[2] / "bench" / "leaderboard.py"
_spec = importlib.util.spec_from_file_location("leaderboard", BENCH)
assert _spec is not None and _spec.loader is not None
leaderboard = importlib.util.module_from_spec(_spec)
sys.modules["leaderboard"] = leaderboard
_spec.loader.exec_module(leaderboard)


@pytest.mark.parametrize(("k", "n"), [(k, n) for k in range(3, 9) for n in (3, 4) if n <= k])
def test_every_pair_meets_and_every_agent_sits_equally(k: int, n: int) -> None:
    tables = leaderboard.schedule(k, n)
    assert all(len(set(t)) == n for t in tables)
    assert len(set(tables)) == len(tables)
    sat = Counter(a for t in tables for a in t)
    assert sorted(sat) == list(range(k)) and len(set(sat.values())) == 1
    met = Counter(p for t in tables for p in itertools.combinations(t, 2))
    assert len(met) == k * (k - 1) // 2


def test_the_full_roster_plays_the_declared_number_of_tables() -> None:
    # the docstring and docs/leaderboard.md say 16 tables of 3 and 8 of 4, pairs meeting once or twice
    for n, count in ((3, 16), (4, 8)):
        tables = leaderboard.schedule(len(leaderboard.ROSTER), n)
        assert len(tables) == count
        met = Counter(p for t in tables for p in itertools.combinations(t, 2))
        assert set(met.values()) == {1, 2}


def _game(
    deal: int, table: int, agents: list[str], returns: list[float], scores: list[int]
) -> dict[str, Any]:
    return {
        "result": {"scores": scores},
        "arena": {
            "deal": deal,
            "table": table,
            "rotation": 0,
            "agents": agents,
            "returns": returns,
            "seconds": [0.0] * len(agents),
            "decisions": [1] * len(agents),
        },
    }


def test_ratings_order_agents_that_always_finish_in_one_order() -> None:
    specs = {"a": "spec-a", "b": "spec-b", "c": "spec-c"}
    records = []
    for deal in range(40):
        seats = ["spec-a", "spec-b", "spec-c"]
        turn = deal % 3  # every seat in turn, the finishing order always a, b, c
        seats = seats[turn:] + seats[:turn]
        returns = [1.0 if s == "spec-a" else 0.0 for s in seats]
        scores = [{"spec-a": 30, "spec-b": 20, "spec-c": 10}[s] for s in seats]
        records.append(_game(deal, 0, seats, returns, scores))
    table = leaderboard.rows(records, specs)
    assert [r.name for r in table] == ["a", "b", "c"]
    assert [r.games for r in table] == [40, 40, 40]
    assert table[0].win_share.mean == 1.0 and table[2].win_share.mean == 0.0
    assert table[0].low > table[2].high  # forty games in one order separate first from last
    text = leaderboard.reading(table, 3)
    assert text.startswith("Ordered by the intervals: a above ")
    assert "Win share above fair (0.333) by its interval: a." in text
    assert "Win share below fair (0.333) by its interval: b, c." in text


def test_overlapping_intervals_are_read_as_not_ordered() -> None:
    specs = {"a": "spec-a", "b": "spec-b"}
    # one game each way: the model cannot tell them apart
    records = [
        _game(0, 0, ["spec-a", "spec-b"], [1.0, 0.0], [1, 0]),
        _game(1, 0, ["spec-a", "spec-b"], [0.0, 1.0], [0, 1]),
    ]
    text = leaderboard.reading(leaderboard.rows(records, specs), 2)
    assert text.startswith("Ordered by the intervals: no pair.")
    assert "cannot say" in text and ("a with b" in text or "b with a" in text)


def test_bad_sizes_are_refused(capsys: pytest.CaptureFixture[str]) -> None:
    for args, said in (
        (["--games", "0"], "--games must be from 1"),
        (["--simulations", "100000"], "--simulations must be from 1"),
        (["--jobs", "0"], "--jobs must be from 1"),
        (["--agents", "random,alphazero"], "--agents takes distinct names"),
        (["chess"], "unknown game 'chess'"),
    ):
        with pytest.raises(SystemExit):
            leaderboard.main(args)
        assert said in capsys.readouterr().err


def test_a_tiny_leaderboard_has_a_row_for_every_agent(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    pytest.importorskip("pyspiel", reason="OpenSpiel (the rl extra) seats the `openspiel` agent")
    missing = tmp_path / "models" / "ppo-{game}-{n}p.npz"
    monkeypatch.setitem(leaderboard.ROSTER, "ppo", f"nn:model={missing}")
    out = tmp_path / "runs"
    docs = tmp_path / "leaderboard.md"
    agents = "random,heuristic,ismcts,openspiel,ppo"
    args = ["hangover", "--players", "3", "--agents", agents, "--games", "1", "--simulations", "8"]
    leaderboard.main([*args, "--out", str(out), "--write-docs", "--docs", str(docs)])
    printed = capsys.readouterr().out
    assert f"left out ppo: {tmp_path / 'models' / 'ppo-hangover-3p.npz'} is absent" in printed
    result = json.loads((out / "hangover-3p.json").read_text())
    # four agents at tables of three: four tables, each agent at three, one deal in three rotations
    assert result["tables"] == 4 and result["played"] == result["planned"] == 12
    assert sorted(r["name"] for r in result["rows"]) == ["heuristic", "ismcts", "openspiel", "random"]
    assert all(r["games"] == 9 and r["low"] < r["mu"] < r["high"] for r in result["rows"])
    assert [r["mu"] for r in result["rows"]] == sorted((r["mu"] for r in result["rows"]), reverse=True)
    assert {r["name"]: r["spec"] for r in result["rows"]}["openspiel"] == "openspiel:simulations=8"
    page = docs.read_text()
    assert "## Hangover, 3 players" in page and "Left out: ppo:" in page
    assert "the rating intervals order" in page and "of the 6 pairs of agents that met" in page
    assert all(f"| {name} | " in page for name in ("random", "heuristic", "ismcts", "openspiel"))
    # rated again from the games kept, nothing played: seated as that run was, though ppo could play now
    monkeypatch.setitem(leaderboard.ROSTER, "ppo", "nn:temperature=1")
    leaderboard.main([*args, "--out", str(out), "--kept"])
    assert json.loads((out / "hangover-3p.json").read_text())["rows"] == result["rows"]
