"""`bodoge sim`'s report in Japanese (`lang="ja"`): every sentence, heading, table header, glossary
entry and figure label in Japanese, the numbers as in English, the English report unchanged, the
page's language and fonts, and a language the report is not written in refused."""

from __future__ import annotations

import json
import logging
import re
import warnings
from pathlib import Path
from typing import Any

import pytest
from report_names import tables
from test_report import H, R, run_of
from untranslated import assert_translated, english_runs

import bodoge
from bodoge import arena
from bodoge.arena import html, metrics, quality, report, report_texts, summary
from bodoge.arena.report import findings_markdown, markdown, write_report
from bodoge.arena.report_texts import GLOSSARY, GLOSSARY_JA, METRICS_JA, NAMES_JA
from bodoge.core.registry import game_class


def test_the_helper_finds_english_sentences_and_keeps_code() -> None:
    assert english_runs("勝率は the fair share より上") == ["the fair share"]
    assert english_runs("ボット `heuristic:avoid=declare,at=declare/pass` を1席に") == []
    assert english_runs("```sh\nbodoge sim hangover --players 4\n```\n![a b c](a.png)") == []
    assert english_runs("仕様の裁定 HO-D15 “Tied VP at game end: a shared win”") == []
    assert english_runs("random < heuristic < ismcts、declare 0.719 [0.628, 0.794], pass 0.281") == []


def _defined_ja(text: str) -> None:
    """Every name a Japanese report's tables show is defined at its end (as report_names does for English)."""
    head, _, glossary = text.partition("## 用語と数値の意味")
    assert glossary, "no glossary"
    defined = set(re.findall(r"^- \*\*(.+?)\*\*：\S", glossary, flags=re.M))
    defined |= {re.sub(r"（`[a-z_]+`）$", "", name) for name in defined}  # a game's number: its key
    for header, rows in tables(head):
        for cell in header:
            assert not cell or cell in defined, f"column {cell!r} is not defined"
        if header[0] in ("", "項目"):
            for row in rows:
                name = re.sub(r"^P\d+ の(勝率|得点)$", r"P○の\1", row[0])
                name = re.sub(r"^終了理由：.+$", "終了理由：（理由）", name)
                name = re.sub(rf"^({H}|{R}) の勝率$", "（ボット）の勝率", name)
                assert name in defined, f"row {row[0]!r} is not defined"
    assert "説明がありません" not in text and "no definition" not in text


def test_the_report_of_known_records_in_japanese() -> None:
    one, _ = run_of()
    text = markdown(one, [], lang="ja")
    assert_translated(text)
    _defined_ja(text)
    assert text.startswith("# トロイカ、2人：8ゲーム\n")
    for heading in (
        "## 所見",
        "## 標準設定（8ゲーム、配札4通り）",
        "### 席",
        "### ゲーム全体",
        "### 腕前と運",
    ):
        assert f"\n{heading}\n" in text, heading
    # the numbers and their formats as in English
    english = markdown(one, [])
    for number in (
        "| P0 | 0.500 ± 0.500 |",
        "| 1 | heuristic | 0.750 [0.291, 1.000] |",
        "χ² = 0.00",
        "62.9%",
    ):
        assert number in english and number in text, number
    assert (
        "配札 4 通りから推定するため、自由度 1 と 3 のF検定）" in text
        and "勝者のいた 8 ゲームで見ると" in text
    )
    assert "| random | heuristic | 0.250 [0.000, 0.709] | 8 |" in text
    assert "想定どおりの順（random < heuristic < ismcts）" in text
    # several variants: the comparisons, corrected, in Japanese
    four, _ = run_of(4)
    text = markdown(four, [], lang="ja")
    assert_translated(text)
    _defined_ja(text)
    assert "## バリアントと基準の比較" in text and "### rounds=1 − 標準設定" in text
    assert "各 98.33%" in text and "| P0 の勝率 | +0.000 [+0.000, +0.000] | 1.000 |" in text


def test_the_english_report_is_unchanged_by_the_parameter() -> None:
    two, _ = run_of(2)
    assert markdown(two, [], lang="en") == markdown(two, [])
    assert findings_markdown(two, "en")[0] == "## Findings"


def test_a_language_the_report_is_not_written_in_is_refused(tmp_path: Path) -> None:
    summary_, records = run_of()
    for call in (
        lambda: markdown(summary_, [], lang="fr"),
        lambda: findings_markdown(summary_, "EN"),
        lambda: report.plot(summary_, records, tmp_path, lang="jp"),
        lambda: write_report(summary_, records, tmp_path / "out", lang="de"),
        lambda: html.page("t", "x", lang="japanese"),
    ):
        with pytest.raises(ValueError, match="one of en, ja"):
            call()
    assert not (tmp_path / "out").exists()  # refused before anything is written


def _hangover(games: int = 8) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    config = arena.SimConfig(game="hangover", players=4, agents=[H, R, H, R], games=games, seed=1)
    records = arena.run(config, jobs=1)
    return arena.summarize(records, config), records


def test_a_hangover_report_html_in_japanese(tmp_path: Path) -> None:
    found, records = _hangover()
    write_report(found, records, tmp_path / "en")
    path = write_report(found, records, tmp_path / "ja", lang="ja")
    text = path.read_text()
    assert_translated(text)
    _defined_ja(text)
    assert text.startswith("# ハングオーバー、4人：8ゲーム")
    assert "ハングオーバーした人の割合（`hung_over`）" in text and "下戸宣言した人の割合" in text
    assert "hands_empty は「全員の手札がなくなった」" in text  # the game's own words for its ends
    page = (tmp_path / "ja" / "report.html").read_text()
    assert "<html lang='ja'>" in page and "Noto Sans CJK JP" in page and "コピー" in page
    assert "<title>bodoge sim：ハングオーバー、4人</title>" in page
    assert page.count("data:image/png;base64,") == 2
    # the same run: summary.json and the figures' files do not depend on the language
    assert (tmp_path / "ja" / "summary.json").read_text() == (tmp_path / "en" / "summary.json").read_text()
    assert {p.name for p in (tmp_path / "ja").iterdir()} == {p.name for p in (tmp_path / "en").iterdir()}
    assert "<html lang='en'>" in (tmp_path / "en" / "report.html").read_text()


def test_figures_without_a_japanese_font_are_still_drawn(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    one, records = run_of()
    monkeypatch.setattr(report, "CJK_FONTS", ("No Such Font",))
    with warnings.catch_warnings(record=True) as seen, caplog.at_level(logging.WARNING):
        warnings.simplefilter("always")
        made = report.plot(one, records, tmp_path, lang="ja")
    assert [p.name for p in made] == ["win_share_by_seat.png", "scores.png"]
    assert all(p.stat().st_size > 1000 for p in made)
    assert not [w for w in seen if "missing from" in str(w.message)]  # no warning per missing glyph
    assert "no font with Japanese glyphs" in caplog.text


def test_the_warnings_of_a_summary_are_translated() -> None:
    variant = {"label": "rounds=2", "games": 8, "distinct_games": 4}
    comparison = {"label": "rounds=2", "baseline": "default", "paired_games": 8, "identical_games": 8}

    class Config:
        rotate, agents = False, [H, R]

    said = summary.warnings([variant], [comparison]) + summary._seat_warnings(Config())
    assert len(said) == 3
    for warning in said:
        ja = report_texts.warning_text(warning, "ja")
        assert ja != warning and not english_runs(ja), warning
    assert report_texts.warning_text(said[0], "ja").startswith("rounds=2：8 ゲームのうち 4 ゲームが")
    assert report_texts.warning_text("something new happened here", "ja") == "something new happened here"


def test_the_review_section_in_japanese() -> None:
    found, _ = run_of()
    found["review"] = {
        "games": 2,
        "decisions": 30,
        "kinds": [
            {
                "kind": "declare/pass",
                "decisions": 8,
                "mean_swing": 0.1,
                "mean_loss": None,
                "not_so_good": None,
            }
        ],
        "swings": [
            {"game": 0, "move": 3, "seat": 1, "kind": "declare/pass", "chosen": "pass", "class": "blunder"}
            | {"before": 0.5, "after": 0.1, "swing": -0.4}
        ],
    }
    text = markdown(found, [], lang="ja")
    assert_translated(text)
    assert "## 勝負の分かれ目（2 ゲーム、30 回の判断を見直し）" in text
    assert "| 1 | 3 | P1 | declare/pass | pass | 大悪手 | 0.50 → 0.10 (-0.40) |" in text
    english = markdown(found, [])
    assert "## Where games are decided (review of 2 games, 30 decisions)" in english
    assert "| 1 | 3 | P1 | declare/pass | pass | blunder | 0.50 → 0.10 (-0.40) |" in english


def test_every_name_and_number_has_its_japanese() -> None:
    """A name added to the English report, or a number added to a game, needs its Japanese here too."""
    headers = [report.AGENT_HEADER, report.SEAT_HEADER, report.GAME_HEADER, report.COMPARISON_HEADER]
    headers += [report.SKILL_HEADER, report.LUCK_HEADER, report.CHOICE_HEADER]
    for name in {*GLOSSARY, *(h for header in headers for h in header)}:
        assert name in NAMES_JA, name
        assert not name or name in GLOSSARY_JA or name == "ended by REASON", name
    numbers = {*metrics.DEFINITIONS, *quality.DEFINITIONS}
    for game in bodoge.games():
        part = game_class(game).part("metrics")
        numbers |= set(getattr(part, "DEFINITIONS", {}))
    assert numbers <= set(METRICS_JA), numbers - set(METRICS_JA)
    for name, (said, meaning) in METRICS_JA.items():
        assert not english_runs(said + "。" + meaning), name
    for phrase in report_texts.PHRASES.values():
        assert set(phrase) == set(report_texts.LANGS)


def test_summary_json_is_the_same_in_each_language(tmp_path: Path) -> None:
    one, records = run_of()
    write_report(one, records, tmp_path / "en", plots=False)
    write_report(one, records, tmp_path / "ja", plots=False, lang="ja")
    en, ja = (json.loads((tmp_path / lang / "summary.json").read_text()) for lang in ("en", "ja"))
    assert en == ja
