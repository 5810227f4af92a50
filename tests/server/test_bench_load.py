"""bench/load.py without a server: its command line and its parts (the load_*.py modules beside it)
import and answer as the script does; the load itself is measured by running it (docs/measured.md)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[2] / "bench"
if str(BENCH) not in sys.path:
    sys.path.append(str(BENCH))  # after everything else: only the load_*.py names are found there

import load  # noqa: E402
import load_ceiling  # noqa: E402
from load_common import percentile  # noqa: E402
from load_heavy import describe  # noqa: E402


def test_the_script_runs_from_its_path() -> None:
    result = subprocess.run(
        [sys.executable, str(BENCH / "load.py"), "--help"], capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 0, result.stderr
    assert "--ceiling" in result.stdout and "--servers" in result.stdout


def test_the_defaults_of_each_mode() -> None:
    args = load.parse_args([])
    assert (args.tables, args.clients, args.duration, args.think, args.bot_delay) == (
        100,
        200,
        30.0,
        0.0,
        0.0,
    )
    args = load.parse_args(["--ceiling"])
    assert (args.max_tables, args.repeat, args.duration, args.warmup) == (800, 2, 20.0, 5.0)
    assert (args.think, args.bot_delay) == (1.0, 0.5)


@pytest.mark.parametrize(
    "argv",
    [
        ["--servers", "2"],
        ["--servers", "2", "--db", "sqlite:///x.db"],
        ["--ceiling", "--tables", "5"],
        ["--max-tables", "3"],
        ["--url", "http://example.com"],
    ],
)
def test_what_the_command_line_refuses(argv: list[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        load.parse_args(argv)
    assert exc.value.code == 2


def test_the_ceiling_steps_and_figures() -> None:
    assert load_ceiling.ceiling_steps(800) == [50, 100, 150, 200, 300, 400, 600, 800]
    assert load_ceiling.ceiling_steps(120) == [50, 100, 120]
    assert load_ceiling.ceiling_steps(3) == [3]
    assert load_ceiling.ceiling_line([], False) == "ceiling: no step done"
    assert percentile([3.0, 1.0, 2.0], 0.5) == 2.0
    assert (
        describe({"deck": [{"copies": 2}, {"copies": 3}], "hand_size": 5})
        == "deck 2 types/5 cards, hand_size 5"
    )


def test_the_quick_match_load_at_its_smallest(capsys: pytest.CaptureFixture[str]) -> None:
    """bench/load_match.py with 4 players: two tables made by quick match, both games played to the
    end, the figures printed."""
    import load_match

    assert load_match.main(["--players", "4", "--ramp", "0.5", "--client-processes", "1"]) == 0
    out = capsys.readouterr().out
    assert "tables: 2 made, 0 without exactly their players" in out
    assert "games finished (by a player): 4 of 4" in out
    assert "join → seated, the player who filled the table: p50" in out and "result: ok" in out
    for argv in (["--players", "3"], ["--players", "1"], ["--games", "0"], ["--wait", "30"]):
        with pytest.raises(SystemExit):
            load_match.parse_args(argv)
