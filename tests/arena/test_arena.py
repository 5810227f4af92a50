"""The arena: rotation and duplicate deals, backends that agree, JSON lines that replay, resume, variants."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from bodoge_tinygame import registered
from report_names import assert_every_name_defined

import bodoge
from bodoge import arena
from bodoge.arena import SimConfig
from bodoge.arena.runner import MAX_GAMES
from bodoge.errors import BadOption

TINY = "bodoge_tinygame:TinyGame"


def tiny_config(games: int = 12, **kw: Any) -> SimConfig:
    kw.setdefault("agents", ["ismcts:iterations=6", "heuristic", "random"])
    return SimConfig(game=TINY, players=3, games=games, seed=11, **kw)


def comparable(records: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Records without the clock readings (thinking and wall seconds), which differ run to run."""
    out = []
    for r in records:
        r = json.loads(json.dumps(r))
        del r["arena"]["seconds"], r["arena"]["wall"]
        out.append(r)
    return out


def test_rotation_and_duplicate_deals_give_every_agent_every_seat_on_the_same_cards() -> None:
    config = tiny_config(games=9)
    assert [config.deal_of(i) for i in range(4)] == [(0, 0), (0, 1), (0, 2), (1, 0)]
    assert config.lineup(0) == config.agents
    assert config.lineup(1) == [config.agents[2], config.agents[0], config.agents[1]]
    records = arena.run(config)
    for deal in range(3):
        games = [r for r in records if r["arena"]["deal"] == deal]
        assert {r["seed"] for r in games} == {11 + deal}
        for spec in config.agents:
            assert sorted(r["arena"]["agents"].index(spec) for r in games) == [0, 1, 2]
    plain = SimConfig(game=TINY, players=3, agents=config.agents, games=4, rotate=False)
    assert [plain.deal_of(i) for i in range(3)] == [(0, 0), (1, 0), (2, 0)]
    no_dup = SimConfig(game=TINY, players=3, agents=config.agents, games=4, duplicate=False)
    assert [no_dup.deal_of(i) for i in range(4)] == [(0, 0), (1, 1), (2, 2), (3, 0)]


def test_serial_and_pool_give_identical_records() -> None:
    config = tiny_config(games=12)
    serial = arena.run(config, jobs=1)
    pooled = arena.run(config, jobs=2)
    assert [(r["arena"]["variant"], r["arena"]["index"]) for r in pooled] == [(0, i) for i in range(12)]
    assert comparable(serial) == comparable(pooled)


def test_jsonl_records_replay(tmp_path: Path) -> None:
    config = tiny_config(games=6)
    arena.run(config, out=tmp_path, jobs=2)
    lines = (tmp_path / "games.jsonl").read_text().splitlines()
    assert len(lines) == 6
    assert json.loads((tmp_path / "run.json").read_text())["agents"] == config.agents
    with registered():
        for line in lines:
            record = json.loads(line)
            state = bodoge.replay(record)  # the line itself is a bodoge record
            assert state.is_terminal
            assert state.scores() == record["result"]["scores"]
            assert state.returns() == record["arena"]["returns"]
            assert len(state.history) == record["arena"]["length"]


def test_resume_after_an_interrupted_run_continues_without_duplicates(tmp_path: Path) -> None:
    config = tiny_config(games=10)
    calls = 0

    def interrupt(done: int, total: int) -> None:
        nonlocal calls
        calls += 1
        if calls == 5:  # after the 4th finished game
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        arena.run(config, out=tmp_path, on_progress=interrupt)
    path = tmp_path / "games.jsonl"
    assert len(arena.load_records(path)) == 4
    with path.open("a") as f:  # a run killed while writing leaves half a line
        f.write('{"format": "bodoge-rec')
    with pytest.raises(BadOption, match="resume"):
        arena.run(config, out=tmp_path)  # an existing run is never overwritten by accident
    seen: list[int] = []
    resumed = arena.run(config, out=tmp_path, resume=True, on_progress=lambda d, t: seen.append(d))
    assert seen[0] == 4 and seen[-1] == 10
    on_disk = arena.load_records(path)
    keys = [(r["arena"]["variant"], r["arena"]["index"]) for r in on_disk]
    assert len(keys) == len(set(keys)) == 10
    assert len(path.read_text().splitlines()) == 10  # the half line is gone
    assert comparable(resumed) == comparable(arena.run(config))
    more = tiny_config(games=13)
    assert len(arena.run(more, out=tmp_path, resume=True)) == 13  # a run may be extended
    other = tiny_config(games=13, agents=["random", "random", "random"])
    with pytest.raises(BadOption, match="agents"):
        arena.run(other, out=tmp_path, resume=True)
    assert len(arena.run(other, out=tmp_path, overwrite=True)) == 13


def test_variants_play_the_same_deals_and_are_compared(tmp_path: Path) -> None:
    variants = arena.variants_from_settings({"rounds": [1, 3]})
    assert variants == [{"rounds": 1}, {"rounds": 3}]
    config = tiny_config(games=30, variants=variants, agents=["heuristic", "random", "random"])
    records = arena.run(config, jobs=2)
    assert len(records) == 60
    first = {r["arena"]["index"]: r["seed"] for r in records if r["arena"]["variant"] == 0}
    second = {r["arena"]["index"]: r["seed"] for r in records if r["arena"]["variant"] == 1}
    assert first == second
    summary = arena.summarize(records, config)
    assert [v["label"] for v in summary["variants"]] == ["rounds=1", "rounds=3"]
    (comparison,) = summary["comparisons"]
    assert comparison["label"] == "rounds=3" and comparison["baseline"] == "rounds=1"
    length = comparison["differences"]["length"]
    assert length.mean == pytest.approx(18.0) and length.half == pytest.approx(0.0)
    assert comparison["differences"]["rounds"].mean == pytest.approx(2.0)
    assert "win share of heuristic" in comparison["differences"]
    assert "first_player_advantage" in comparison["differences"]
    report = arena.write_report(summary, records, tmp_path)
    text = report.read_text()
    assert "rounds=3 minus rounds=1" in text and "variants.png" in text
    # every number the report shows is defined in it: the game's numbers, every column, every quantity
    meanings = text.split("## What the numbers mean", 1)[1]
    for name in summary["variants"][0]["metrics"]:
        assert f"- **{name}**: " in meanings, name
    assert_every_name_defined(text, config.agents)
    assert {"lead_changes", "comeback", "decided_at", "forced", "minutes"} <= set(
        summary["variants"][0]["metrics"]
    )
    for png in ("win_share_by_seat_v0.png", "scores_v1.png", "variants.png"):
        assert (tmp_path / png).stat().st_size > 1000
    assert json.loads((tmp_path / "summary.json").read_text())["comparisons"][0]["label"] == "rounds=3"


def test_splitting_settings_and_agent_lists() -> None:
    assert arena.split_top_level("11,12,13") == ["11", "12", "13"]
    assert arena.split_top_level('{"3":7,"4":12},[1,2],"a,b"') == ['{"3":7,"4":12}', "[1,2]", '"a,b"']
    assert arena.split_agents("ismcts:iterations=2000,rollout=heuristic,heuristic,random") == [
        "ismcts:iterations=2000,rollout=heuristic",
        "heuristic",
        "random",
    ]
    assert arena.split_agents("ismcts,iterations=5") == ["ismcts:iterations=5"]
    assert arena.variants_from_settings({}) == [{}]
    assert len(arena.variants_from_settings({"a": [1, 2], "b": [3, 4, 5]})) == 6


def test_bad_configurations_are_refused_before_any_game() -> None:
    with pytest.raises(BadOption, match="agents"):
        SimConfig(game=TINY, players=3, agents=["random"], games=3)
    with pytest.raises(BadOption):
        arena.run(tiny_config(variants=[{"rounds": 0}]))
    with pytest.raises(BadOption):
        arena.run(tiny_config(agents=["random", "random", "clever"]))
    with pytest.raises(BadOption):
        arena.run(tiny_config(), backend="spark")


@pytest.mark.parametrize(
    ("field", "value"),
    [("games", 0), ("games", True), ("games", 2.0), ("games", MAX_GAMES + 1), ("seed", -1), ("seed", False)],
)
def test_a_count_out_of_range_or_not_an_integer_is_refused(field: str, value: object) -> None:
    settings: dict[str, Any] = {"games": 3, "seed": 1, field: value}
    with pytest.raises(BadOption, match=field):
        SimConfig(game=TINY, players=3, agents=["random"] * 3, **settings)


@pytest.mark.parametrize("jobs", [0, True, 1.5, "2", 10**9])
def test_jobs_out_of_range_or_not_an_integer_is_refused(jobs: object) -> None:
    with pytest.raises(BadOption, match="jobs"):
        arena.run(tiny_config(), jobs=jobs)  # type: ignore[arg-type]


def test_interrupting_the_pool_keeps_finished_games(tmp_path: Path) -> None:
    config = tiny_config(games=30, agents=["heuristic", "random", "random"])
    calls = 0

    def interrupt(done: int, total: int) -> None:
        nonlocal calls
        calls += 1
        if calls == 3:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        arena.run(config, out=tmp_path, jobs=2, on_progress=interrupt)
    kept = arena.load_records(tmp_path / "games.jsonl")
    assert 0 < len(kept) < 30
    full = arena.run(config, out=tmp_path, jobs=2, resume=True)
    assert comparable(full) == comparable(arena.run(config))
