"""The reports a designer opens in a browser (issue #35): Markdown rendered into real headings and
tables, the findings first, plots embedded, commands in blocks with a copy button; one file."""

from __future__ import annotations

import re
from pathlib import Path

from typer.testing import CliRunner

from bodoge.arena import html
from bodoge.cli import app


def test_markdown_is_rendered_not_shown_as_source() -> None:
    text = "# Title\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n```sh\nbodoge sim hangover\n```\n\n![plot](p.png)\n"
    page = html.page("t", text, {"p.png": b"\x89PNG fake"})
    assert "<h1>Title</h1>" in page
    assert "<table>" in page and "<td>1</td>" in page
    assert '<pre><code class="language-sh">bodoge sim hangover' in page
    assert "data:image/png;base64," in page and "p.png" not in page.replace("alt=", "")
    assert "button" in page and "navigator.clipboard" in page  # the copy button, written here
    assert "<script src" not in page and "<link" not in page  # nothing fetched


def test_a_page_in_japanese_says_so_and_has_japanese_fonts() -> None:
    english = html.page("t", "# Title\n\n```sh\nbodoge sim hangover\n```\n", {})  # as before: three arguments
    assert "<html lang='en'>" in english and html.STYLE_JA not in english
    assert "'copy'" in english and "'copied'" in english
    page = html.page("bodoge sim：ハングオーバー", "# ハングオーバー\n\n勝率", lang="ja")
    assert "<html lang='ja'>" in page and "<title>bodoge sim：ハングオーバー</title>" in page
    assert html.STYLE_JA in page and '"Noto Sans CJK JP"' in page and "Meiryo" in page
    assert "'コピー'" in page and "'コピーしました'" in page and "textContent = 'copy'" not in page
    assert "<h1>ハングオーバー</h1>" in page


def test_text_is_escaped() -> None:
    assert "<b>" not in html.page("t", "a <b>bold</b> claim")


def test_sim_writes_a_self_contained_report_html_with_the_findings_first(tmp_path: Path) -> None:
    out = tmp_path / "run"
    result = CliRunner().invoke(
        app,
        [
            *("sim", "hangover", "-p", "4", "--agents", "heuristic", "--games", "8", "--jobs", "1"),
            *("--no-progress", "--experiments", "0", "--out", str(out)),
        ],
    )
    assert result.exit_code == 0, result.output
    page = (out / "report.html").read_text()
    headings = re.findall(r"<h2>(.*?)</h2>", page)
    assert headings[0] == "Findings"
    assert page.index("degenerate_end") < page.index("<table>")
    assert page.count("data:image/png;base64,") == 2  # win share by seat, scores
    assert '<pre><code class="language-sh">bodoge sim hangover' in page
