"""The lesson page, the illustrated rules and the Hint button, in Chromium (Playwright), on a live
server reading the lessons of tests/learn/fixtures."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

pytest.importorskip("fastapi", reason="the server extra is not installed (pip install -e '.[server]')")

from browser_support import watch_errors
from server_helpers import ThreadServer

DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}


def open_page(browser: Any, url: str, lang: str, viewport: dict[str, int]) -> tuple[Any, Any, list[str]]:
    ctx = browser.new_context(viewport=viewport)
    ctx.add_init_script(f"localStorage.setItem('bodoge.lang', '{lang}')")
    page = ctx.new_page()
    errors = watch_errors(page)
    page.goto(url)
    return ctx, page, errors


@pytest.mark.parametrize(("lang", "viewport"), [("en", DESKTOP), ("ja", PHONE)])
def test_a_lesson_completes_by_following_its_prompts(
    browser: Any, live: ThreadServer, lang: str, viewport: dict[str, int]
) -> None:
    (lesson,) = httpx.get(f"{live.url}/api/games/troika/lessons").json()
    ctx, page, errors = open_page(browser, f"{live.url}/learn/troika", lang, viewport)
    try:
        for i, step in enumerate(lesson["steps"]):
            page.wait_for_selector(f"#board[data-step='{i}']")
            assert page.text_content("#say") == step["say"][lang]
            if step["expect"] is not None and step["mover"] == lesson["seat"]:
                assert page.is_disabled("#next")  # the learner plays this one
                # A wrong move is refused with the hint, and the step stays.
                page.click("button.learn-act[data-text='draw']")
                page.wait_for_selector("#feedback:not([hidden])")
                assert page.text_content("#feedback") == step["hint"][lang]
                assert page.get_attribute("#board", "data-step") == str(i)
                page.click(f"button.learn-act[data-text='{step['expect']}']")
            else:
                if step["expect"] is None and page.evaluate("view && view.current_player") == lesson["seat"]:
                    # An explaining step at the learner's own decision: the coach talks, nobody waits.
                    prompt = page.text_content("#board-prompt")
                    assert prompt == {"en": "Read what the coach says, then press Next.",
                                      "ja": "コーチの説明を読んで「次へ」を押してください。"}[lang]  # fmt: skip
                page.click("#next")
        page.wait_for_selector("#done:not([hidden])")
        assert page.is_visible("#practice")
        assert errors == []
    finally:
        ctx.close()


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_the_illustrated_rules_draw_the_lessons_positions(
    browser: Any, live: ThreadServer, lang: str
) -> None:
    ctx, page, errors = open_page(browser, f"{live.url}/rules/tokkuri", lang, PHONE)
    try:
        page.wait_for_selector("#figures[data-ready='1']")
        figure = page.locator(".rules-figure").first
        assert figure.locator(".board").count() == 1
        assert "TK-4.1" in figure.text_content()
        assert page.text_content("#rules-text").strip()
        assert errors == []
    finally:
        ctx.close()


@pytest.mark.parametrize(("lang", "viewport"), [("en", DESKTOP), ("ja", PHONE)])
def test_the_practice_game_has_a_hint_button(
    browser: Any, live: ThreadServer, lang: str, viewport: dict[str, int]
) -> None:
    ctx, page, errors = open_page(browser, f"{live.url}/learn/tottarot", lang, viewport)
    try:
        page.wait_for_selector("#board[data-step='0']")
        page.click("#next")
        page.wait_for_selector("#board[data-step='1']")
        page.click("button.learn-act[data-text='bid 2']")
        for _ in range(3):
            page.click("#next")
        page.click("#next")
        page.wait_for_selector("#done:not([hidden])")
        page.click("#practice")
        page.wait_for_url("**/t/**")
        page.wait_for_selector("#hint-button")
        assert page.is_visible("a#learn-link") or page.locator("a#learn-link").count() == 1
        page.wait_for_selector("#board .legal")
        with page.expect_response("**/hint", timeout=60_000) as answer:
            page.click("#hint-button")
        hints = answer.value.json()["hints"]
        page.wait_for_selector("#hint-box li")
        assert hints[0]["text_ja" if lang == "ja" else "text"] in page.text_content("#hint-box")
        # The hint is next to the board, not under the action buttons.
        assert page.locator("#decision-panel #hint-box").count() == 0
        # Moves the deals could not tell from the first are said to be about equal.
        equal = [i for i, h in enumerate(hints) if i > 0 and h["about_equal"]]
        assert page.locator("#hint-box .hint-equal").count() == len(equal)
        if equal:
            assert ("ほぼ同じ" if lang == "ja" else "about equal") in page.text_content("#hint-box")
        # The first move is marked on the board: each piece bound to it, ringed, with a "Hint" badge.
        first = hints[0]["text"]
        marked = page.locator("#board .hinted")
        assert marked.count() >= 1
        for act in marked.evaluate_all("(nodes) => nodes.map((n) => n.dataset.act)"):
            assert act == first or first.startswith(act + " ")
        badge = page.locator("#board .hinted .hint-badge").first
        assert badge.inner_text() == ("ヒント" if lang == "ja" else "Hint")
        assert badge.is_visible()
        # Played: the table moves on, the hint and its marks go.
        marked.first.click()
        page.wait_for_selector("#board .hinted", state="detached", timeout=30_000)
        assert page.is_hidden("#hint-box")
        assert errors == []
    finally:
        ctx.close()


def test_the_lobby_links_every_game_to_its_lesson(browser: Any, live: ThreadServer) -> None:
    ctx, page, _errors = open_page(browser, live.url, "en", DESKTOP)
    try:
        page.wait_for_selector("a.learn-link", state="attached")  # inside each game's folded rules
        hrefs = {a.get_attribute("href") for a in page.query_selector_all("a.learn-link")}
        assert {"/learn/hangover", "/learn/tokkuri", "/learn/tottarot", "/learn/troika"} <= hrefs
    finally:
        ctx.close()


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_the_rules_text_reads_as_sections_on_a_phone(browser: Any, live: ThreadServer, lang: str) -> None:
    # The rules for players (texts/rules_LANG.md): sections of paragraphs and lists that a phone's
    # column wraps; these lessons are not the ones the text pictures, so each lesson gets one picture.
    guide = httpx.get(f"{live.url}/api/games/troika/rules", params={"lang": lang}).json()
    ctx, page, errors = open_page(browser, f"{live.url}/rules/troika", lang, PHONE)
    try:
        page.wait_for_selector("#figures[data-ready='1']")
        headings = page.locator("#rules-text .rules-section h2").all_text_contents()
        assert headings[: len(guide["sections"])] == [s["heading"] for s in guide["sections"]]
        assert page.locator("#rules-text li").count() >= 8
        assert page.locator("#rules-pictures .rules-figure").count() == 1  # one lesson, one picture
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        assert errors == []
    finally:
        ctx.close()
