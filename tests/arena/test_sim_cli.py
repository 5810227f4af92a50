"""`bodoge sim` end to end: the test game through the command line, then every registered game with
every built-in agent on both backends (a few games each)."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

import bodoge
from bodoge import arena
from bodoge.cli import app

runner = CliRunner()
TINY = "bodoge_tinygame:TinyGame"


def sim(*args: str) -> str:
    result = runner.invoke(app, ["sim", *args, "--no-progress"], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return result.output


def test_sim_writes_records_summary_and_report(tmp_path: Path) -> None:
    out = tmp_path / "run"
    text = sim(TINY, "--players", "3", "--agents", "ismcts:iterations=5,heuristic", "--games", "6")
    text += sim(
        TINY,
        "-p",
        "3",
        "--agents",
        "heuristic,random",
        "--games",
        "9",
        "--seed",
        "4",
        "--jobs",
        "2",
        "--out",
        str(out),
        "--set",
        "rounds=1,2",
    )
    assert "win share" in text and "first-player advantage" in text and "rounds=2 minus rounds=1" in text
    records = arena.load_records(out / "games.jsonl")
    assert len(records) == 18
    assert records[0]["arena"]["agents"] in (
        ["heuristic", "random", "random"],
        ["random", "heuristic", "random"],
        ["random", "random", "heuristic"],
    )
    summary = json.loads((out / "summary.json").read_text())
    assert [v["games"] for v in summary["variants"]] == [9, 9]
    assert (out / "report.md").read_text().startswith("# ")
    again = sim(
        TINY,
        "-p",
        "3",
        "--agents",
        "heuristic,random",
        "--games",
        "9",
        "--seed",
        "4",
        "--out",
        str(out),
        "--set",
        "rounds=1,2",
        "--resume",
    )
    assert "18 games in" not in again  # nothing left to play
    assert len(arena.load_records(out / "games.jsonl")) == 18


def test_sim_refuses_what_it_cannot_do(tmp_path: Path) -> None:
    for args in (
        ["nosuchgame"],
        [TINY, "-p", "3", "--agents", "random,random,random,random"],
        [TINY, "-p", "3", "--agents", "wizard"],
        [TINY, "-p", "3", "--set", "rounds=0"],
        [TINY, "-p", "3", "--resume"],
        [TINY, "-p", "3", "--backend", "spark", "--games", "3"],
    ):
        result = runner.invoke(app, ["sim", *args, "--no-progress"])
        assert result.exit_code == 2, (args, result.output)
        assert "error" in result.output


GAMES = bodoge.games()
ALL_AGENTS = "ismcts:iterations=4,rollout=random,ismcts:iterations=2,heuristic,random"


@pytest.mark.parametrize("name", GAMES)
def test_every_game_runs_with_every_agent_in_the_pool(name: str, tmp_path: Path) -> None:
    cls = bodoge.core.registry.game_class(name)
    players = min(4, cls.max_players)
    text = sim(
        name,
        "-p",
        str(players),
        "--agents",
        ALL_AGENTS,
        "--games",
        str(players),
        "--jobs",
        "2",
        "--out",
        str(tmp_path),
        "--no-plots",
    )
    assert "win share" in text
    records = arena.load_records(tmp_path / "games.jsonl")
    assert len(records) == players
    for r in records:
        assert bodoge.replay(r).is_terminal
        metrics = r["arena"]["metrics"]
        assert {"tie", "no_winner"} <= set(metrics)
        if name == "hangover":
            assert 0 <= metrics["hung_over"] <= 1 and 0 <= metrics["non_drinkers"] <= 1
        else:
            assert metrics["rounds"] >= 1


def test_every_game_runs_on_ray_as_in_the_pool(tmp_path: Path) -> None:
    """One local Ray for all of it (starting Ray is the slow part): the test game through `run` with
    an output folder, then every registered game; Ray's records equal the pool's."""
    ray = pytest.importorskip("ray", reason="Ray is not installed (pip install 'bodoge[ray]')")
    path = os.pathsep.join(p for p in sys.path if p)
    ray.init(
        num_cpus=2,
        include_dashboard=False,
        log_to_driver=False,
        runtime_env={"env_vars": {"PYTHONPATH": path}},
    )
    try:
        tiny = arena.SimConfig(
            game=TINY, players=3, agents=["ismcts:iterations=6", "heuristic", "random"], games=9
        )
        pooled = arena.run(tiny, jobs=2)
        rayed = arena.run(tiny, out=tmp_path, jobs=2, backend="ray")
        assert _without_clock(rayed) == _without_clock(pooled)
        assert len(arena.load_records(tmp_path / "games.jsonl")) == 9
        for name in GAMES:
            cls = bodoge.core.registry.game_class(name)
            players = cls.min_players
            specs = ["ismcts:iterations=2,rollout=random", "heuristic", "random", "random", "random"][
                :players
            ]
            config = arena.SimConfig(game=name, players=players, agents=specs, games=2, seed=5)
            assert _without_clock(arena.run(config, jobs=2, backend="ray")) == _without_clock(
                arena.run(config, jobs=2)
            )
    finally:
        ray.shutdown()


def _without_clock(records: list[dict]) -> list[dict]:
    """Records without the clock readings (thinking and wall seconds), which differ run to run."""
    out = json.loads(json.dumps(records))
    for r in out:
        del r["arena"]["seconds"], r["arena"]["wall"]
    return out
