"""`bodoge review`: files written, the table printed, and bad input refused in one line (issue #33)."""

from __future__ import annotations

import json
import random
from pathlib import Path

from typer.testing import CliRunner

import bodoge
from bodoge import agents
from bodoge.cli import app

runner = CliRunner()


def record_file(tmp_path: Path, finished: bool = True) -> Path:
    game = bodoge.make("tottarot", 2)
    state = game.new_state(seed=4)
    heuristic, rng = agents.make("heuristic"), random.Random(1)
    while not state.is_terminal and (finished or len(state.history) < 6):
        state.apply(heuristic.act(game, state.view(state.current_player, log=False), rng))
    path = tmp_path / "game.json"
    path.write_text(json.dumps(state.to_record()))
    return path


def test_review_writes_json_and_html(tmp_path: Path) -> None:
    path = record_file(tmp_path)
    out = tmp_path / "out"
    result = runner.invoke(
        app,
        [
            "review",
            str(path),
            "--seats",
            "1",
            "--iterations",
            "2",
            "--jobs",
            "1",
            "--out",
            str(out),
            "--no-progress",
        ],
    )
    assert result.exit_code == 0, result.output
    review = json.loads((out / "review.json").read_text())
    assert {d["seat"] for d in review["decisions"]} == {1}
    assert [s["seat"] for s in review["seats"]] == [1]
    page = (out / "review.html").read_text()
    assert page.startswith("<!doctype html>") and "<svg" in page and "src=" not in page
    assert "P1" in result.output and "loss" in result.output and "P0" not in result.output


def test_review_refuses_bad_input_in_one_line(tmp_path: Path) -> None:
    path = record_file(tmp_path)
    unfinished = tmp_path / "unfinished"
    unfinished.mkdir()
    cases = {
        (str(tmp_path / "missing.json"),): "no such file",
        (str(path), "--seats", "0,7"): "--seats",
        (str(path), "--seats", "x"): "--seats",
        (str(path), "--iterations", "0"): "--iterations",
        (str(path), "--backend", "spark"): "--backend",
        (str(path), "--leaf", "oracle", "--out", str(tmp_path / "o")): "--leaf",
        (
            str(path),
            "--leaf",
            "nn",
            "--out",
            str(tmp_path / "o"),
        ): "no model is shipped for tottarot with 2 players",
        (str(record_file(unfinished, finished=False)),): "not finished",
    }
    not_json = tmp_path / "notes.json"
    not_json.write_text("hello\nworld\n")
    cases[(str(not_json),)] = "not a record"
    for args, said in cases.items():
        result = runner.invoke(app, ["review", *args, "--no-progress"])
        assert result.exit_code == 2, (args, result.output)
        assert said in result.output and "Traceback" not in result.output, (args, result.output)
    assert not (tmp_path / "o").exists()  # refused before any folder was made
