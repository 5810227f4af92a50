"""The rules page /rules/GAME in Chromium (issue #56, fault 9): a published edition's rules for
players, not the terminal's summary with codes on a 15,000 px page. For every game, in English on a
desktop and in Japanese on a phone: sections with headings and a table of contents, the board's
words (no codes outside the rule-id chips and the boards), a few pictures, at most 5,000 px tall at
1280x800 and no sideways scroll at 390x844; switching the language redraws the text."""

from __future__ import annotations

from typing import Any

import pytest
from browser_support import watch_errors
from server_helpers import ProcessServer, real_games
from test_rules_text import SECTIONS, codes_in

DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
MAX_HEIGHT = 5000

# The words a reader reads: the page's main part without the rule-id chips (rule ids on purpose,
# small) and the boards' own drawing (the game's board, tested with the boards).
READ_TEXT = """() => {
  const main = document.querySelector('main').cloneNode(true);
  main.querySelectorAll('.rule-chip, .board, [hidden]').forEach((n) => n.remove());
  return main.innerText;
}"""


def open_rules(
    browser: Any, live: ProcessServer, game: str, lang: str, viewport: dict[str, int]
) -> tuple[Any, Any, list[str]]:
    ctx = browser.new_context(viewport=viewport)
    ctx.add_init_script(f"localStorage.setItem('bodoge.lang', '{lang}')")
    page = ctx.new_page()
    errors = watch_errors(page)
    page.goto(f"{live.url}/rules/{game}")
    page.wait_for_selector("#figures[data-ready='1']", timeout=60_000)  # the text and its pictures drawn
    return ctx, page, errors


@pytest.mark.parametrize("game", real_games())
@pytest.mark.parametrize(("lang", "viewport"), [("en", DESKTOP), ("ja", PHONE)])
def test_the_rules_page_is_a_players_rulebook(
    browser: Any, live: ProcessServer, game: str, lang: str, viewport: dict[str, int]
) -> None:
    ctx, page, errors = open_rules(browser, live, game, lang, viewport)
    try:
        sections = page.locator(".rules-section[data-section]")
        ids = [sections.nth(i).get_attribute("data-section") for i in range(sections.count())]
        assert [i for i in ids if i in SECTIONS] == list(SECTIONS), ids
        headings = page.locator(".rules-section h2").all_text_contents()
        assert all(h.strip() for h in headings) and len(headings) == len(ids)
        # a short table of contents, one link a section, to the section
        toc = page.locator("#toc-list a")
        assert toc.all_text_contents() == headings
        assert [toc.nth(i).get_attribute("href") for i in range(toc.count())] == [f"#rules-{i}" for i in ids]
        # sections are paragraphs and lists, not one block of the terminal's text
        assert page.locator(".rules-section li").count() >= 8
        assert page.locator(".rules-words pre, .rules-words code, #rules-text .rules-rows").count() == 0
        # the board's words: no codes, in any of the page's words
        text = page.evaluate(READ_TEXT)
        assert codes_in(game, text) == [], text[:400]
        if lang == "ja":
            assert "Contents" not in text and "目次" in text
        # the rule ids, discreetly: chips that lead nowhere
        chips = page.locator(".rule-chip")
        assert chips.count() >= len(ids) - 1
        assert page.locator(".rule-chip a, a.rule-chip").count() == 0
        # a few pictures drawn by the game's board: at most one a section
        figures = page.locator(".rules-section .rules-figure")
        assert 1 <= figures.count() <= min(5, len(ids))
        assert page.locator(f".rules-figure .board-{game}").count() == figures.count()
        for i in range(sections.count()):
            assert sections.nth(i).locator(".rules-figure").count() <= 1
        height = page.evaluate("document.documentElement.scrollHeight")
        width = page.evaluate("document.documentElement.scrollWidth")
        if viewport is DESKTOP:
            assert height <= MAX_HEIGHT, f"{game}: the page is {height} px tall"
        assert width <= viewport["width"], f"{game}: the page scrolls sideways ({width} px)"
        assert errors == []
    finally:
        ctx.close()


def test_switching_the_language_redraws_the_rules(browser: Any, live: ProcessServer) -> None:
    ctx, page, errors = open_rules(browser, live, "hangover", "en", DESKTOP)
    try:
        before = page.locator(".rules-section h2").all_text_contents()
        assert "A trick" in before
        page.click("button[data-lang='ja']")
        page.wait_for_selector("#rules-text[data-lang='ja']")
        after = page.locator(".rules-section h2").all_text_contents()
        assert len(after) == len(before) and "トリックの流れ" in after
        assert page.text_content("#rules-heading") == "ハングオーバー"
        assert page.locator("#toc-list a").all_text_contents() == after
        assert page.locator(".rules-figure .board-hangover").count() >= 1  # the pictures stay
        assert "泥酔値" in page.evaluate(READ_TEXT)
        page.click("button[data-lang='en']")
        page.wait_for_selector("#rules-text[data-lang='en']")
        assert page.locator(".rules-section h2").all_text_contents() == before
        assert errors == []
    finally:
        ctx.close()
