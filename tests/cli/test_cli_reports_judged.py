"""`bodoge sim` and `bodoge tune` as a designer uses them (issue #54): reports in Japanese
(`--lang ja`), a warning for deals shared with a run beside, and the tune's recommendation re-checked
by free agents (`--recheck-games`)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from typer.testing import CliRunner

from bodoge.cli import app

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "arena"))
from untranslated import assert_translated

QUIET = ["--no-progress", "--no-plots", "--jobs", "1"]


def sim(*args: str) -> object:
    return CliRunner().invoke(app, ["sim", "hangover", "--players", "3", "--games", "6", *args, *QUIET])


def test_sim_writes_its_report_in_japanese_and_refuses_another_language_first(tmp_path: Path) -> None:
    result = sim("--seed", "1", "--out", str(tmp_path / "ja"), "--lang", "ja", "--experiments", "0")
    assert result.exit_code == 0, result.output
    text = (tmp_path / "ja" / "report.md").read_text(encoding="utf-8")
    assert "ハングオーバー" in text
    assert_translated(text)
    assert "lang='ja'" in (tmp_path / "ja" / "report.html").read_text(encoding="utf-8")
    refused = sim("--out", str(tmp_path / "fr"), "--lang", "fr")
    assert refused.exit_code == 2 and "--lang takes en or ja, not 'fr'" in refused.output
    assert not (tmp_path / "fr").exists()  # refused before anything was made


def test_a_run_sharing_deals_with_one_beside_it_is_warned_about(tmp_path: Path) -> None:
    first = sim("--seed", "1", "--out", str(tmp_path / "first"), "--experiments", "0")
    assert first.exit_code == 0, first.output
    paired = sim("--seed", "1", "--out", str(tmp_path / "paired"), "--experiments", "0")
    assert "Warning" not in paired.output  # the same seed: a paired comparison, on purpose
    shifted = sim("--seed", "2", "--out", str(tmp_path / "shifted"), "--experiments", "0")
    assert shifted.exit_code == 0
    said = " ".join(shifted.output.split())
    assert "Warning: this run's deals 2–3 share deals 2–2 with the run in first (--seed 1" in said
    assert "--seed 4 or above makes them independent" in said
    report = (tmp_path / "shifted" / "report.md").read_text(encoding="utf-8")
    assert "share deals 2–2 with the run in first" in report


def test_tune_rechecks_its_recommendation_with_free_agents_and_writes_japanese(tmp_path: Path) -> None:
    out = tmp_path / "tune"
    result = CliRunner().invoke(
        app,
        [
            "tune", "hangover", "--players", "4", "--space", "vp_just=2..4", "--goal", "balance",
            "--agents", "heuristic:avoid=declare", "--trials", "2", "--games", "8", "--seed", "1",
            "--out", str(out), "--recheck-games", "6", "--lang", "ja", *QUIET,
        ],
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    data = json.loads((out / "tune.json").read_text(encoding="utf-8"))
    recheck = data["recheck"]
    assert recheck["agents"] == ["heuristic"]  # free: no avoid=
    assert [c["players"] for c in recheck["counts"]] == [3, 4, 5]
    # free bots declare again: the findings that constrained bots hid come back at some count
    assert any("degenerate_end" in c["new_findings"] for c in recheck["counts"]), recheck
    assert "with free agents at" in result.output
    assert_translated((out / "report.md").read_text(encoding="utf-8"))
    too_many = CliRunner().invoke(
        app, ["tune", "hangover", "--out", str(tmp_path / "t2"), "--recheck-games", "100001", *QUIET]
    )
    assert too_many.exit_code == 2
