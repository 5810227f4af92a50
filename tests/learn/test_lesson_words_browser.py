"""The lesson page as a new player meets it (issue #56, faults 1, 2 and the lesson page's part of 7), in
Chromium on the packaged lessons: the board stays live (a board piece, not a button, plays the move
after a wrong try and on the learner's next step), the choices under the board are words, Hangover's
first arrangement is built on the board as its words say and taken, and on a phone the page never
scrolls sideways."""

from __future__ import annotations

import re
from typing import Any

import pytest

pytest.importorskip("fastapi", reason="the server extra is not installed (pip install -e '.[server]')")

from browser_support import watch_errors
from learner import board_acts, follow_lesson
from playwright.sync_api import expect
from server_helpers import ThreadServer

from bodoge.learn.lessons import PACKAGED, Lesson, load_lessons

DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
CONFIGS = [pytest.param("en", DESKTOP, id="en-desktop"), pytest.param("ja", PHONE, id="ja-phone")]
LESSONS = None  # the live server (conftest.py) reads the packaged lessons
GAMES = ("hangover", "tokkuri", "tottarot", "troika")
WELL_PLAYED = {"en": "Well played.", "ja": "その通りです。"}
# What the engine writes and the board never shows: seats P0…, Hangover's cards (R5, G2^), a snack
# "-1/-2" with the hyphen of a command, Tokkuri's tokkuri ids (T2.1).
CODES = re.compile(r"(?<![A-Za-z0-9])(P\d|[RBYG][1-5]\^?|T\d+\.\d+)(?![0-9])|(?<![0-9])-\d/[+-]\d")


def lesson_of(game: str, lesson_id: str | None = None) -> Lesson:
    lessons = load_lessons(game, PACKAGED)
    return next(lesson for lesson in lessons if lesson_id in (None, lesson.id))


def open_lesson(browser: Any, url: str, lang: str, screen: dict[str, int]) -> tuple[Any, Any, list[str]]:
    ctx = browser.new_context(viewport=screen, reduced_motion="reduce")
    ctx.add_init_script(f"localStorage.setItem('bodoge.lang', '{lang}')")
    page = ctx.new_page()
    errors = watch_errors(page)
    page.goto(url)
    page.locator("#board[data-step='0']").wait_for()
    return ctx, page, errors


def at_step(page: Any, i: int) -> None:
    page.locator(f"#board[data-step='{i}']").wait_for()
    page.wait_for_function("() => !busy")


def click_board(page: Any, act: str) -> None:
    """Click the board's piece for `act` (it must be there and live)."""
    piece = page.locator(f"#board .board .legal[data-act='{act}']")
    expect(piece.first).to_be_visible()
    piece.first.click()


@pytest.mark.parametrize(("lang", "screen"), CONFIGS)
def test_the_board_stays_live_after_a_wrong_try_and_on_the_learners_next_step(
    browser: Any, live: ThreadServer, lang: str, screen: dict[str, int]
) -> None:
    """Tokkuri's first round: a wrong try (its button), then the right move on the board's card; later
    the drink with the 6 (a board card, then its use) and, as the next step is the learner's again,
    the tokkuri to drink from: a board piece each time."""
    lesson = lesson_of("tokkuri", "first-round")
    ctx, page, errors = open_lesson(browser, f"{live.url}/learn/tokkuri?lesson={lesson.id}", lang, screen)
    try:
        page.click("#next")  # step 0 explains
        at_step(page, 1)
        assert lesson.steps[1].expect == "place 2" and lesson.steps[1].hint is not None
        page.click("button.learn-act[data-text='place 4']")  # wrong: refused with the hint
        expect(page.locator("#feedback")).to_have_text(lesson.steps[1].hint[lang])
        at_step(page, 1)
        assert "place 2" in board_acts(page), "the board went dead after a wrong try"
        click_board(page, "place 2")
        at_step(page, 2)
        expect(page.locator("#feedback")).to_have_text(WELL_PLAYED[lang])
        page.click("#next")
        at_step(page, 3)
        page.click("#next")
        at_step(page, 4)
        assert lesson.steps[4].expect == "drink 6" and lesson.steps[5].expect == "target T2.1"
        click_board(page, "card 6")  # the 6 may be placed or drink: the board asks which
        click_board(page, "drink 6")
        at_step(page, 5)  # the learner's again: the tokkuri to drink from
        assert {"target T0.1", "target T1.1", "target T2.1"} <= set(board_acts(page)), board_acts(page)
        click_board(page, "target T2.1")
        at_step(page, 6)
        assert errors == []
    finally:
        ctx.close()


@pytest.mark.parametrize(("lang", "screen"), CONFIGS)
def test_hangovers_arrangement_is_built_on_the_board_as_its_words_say(
    browser: Any, live: ThreadServer, lang: str, screen: dict[str, int]
) -> None:
    """The first step says: −1 or −2 first, +1 or +2 second, the other two in either order. The
    choices under the board are its parts (one per snack, not 24 arrangements); the learner clicks
    the snacks on the board in an order the words allow but the lesson's record does not use, and it
    is taken; the lesson goes on from it."""
    ctx, page, errors = open_lesson(browser, f"{live.url}/learn/hangover?lesson=first-game", lang, screen)
    try:
        assert page.locator("button.learn-act").count() == 0
        parts = page.locator("button.learn-part")
        assert parts.count() == 4
        assert sorted(parts.all_text_contents()) == sorted(["+1/+2 …", "−1/−2 …", "−3/+3 …", "−4/+4 …"])
        for chosen in ("-1/-2", "+1/+2", "-4/+4"):
            prefix = page.evaluate("pending") or "arrange"
            click_board(page, f"{prefix} {chosen}")
        click_board(page, "arrange -1/-2 +1/+2 -4/+4 -3/+3")  # the last snack: the move is sent
        at_step(page, 1)
        expect(page.locator("#feedback")).to_have_text(WELL_PLAYED[lang])
        for i in (1, 2):
            page.click("#next")
            at_step(page, i + 1)
        # The lesson goes on from the learner's own arrangement (and so do the views it asks for).
        assert page.evaluate("view.you.columns") == [["-1/-2"], ["+1/+2"], ["-4/+4"], ["-3/+3"]]
        assert errors == []
    finally:
        ctx.close()


@pytest.mark.parametrize(("lang", "screen"), CONFIGS)
@pytest.mark.parametrize(
    ("game", "lesson_id", "step", "shown"),
    [
        ("hangover", "first-game", 6, {"en": "play red 5", "ja": "赤の5を出す"}),
        ("hangover", "first-game", 10, {"en": "flip −1/−2 −1", "ja": "肴カード−1/−2 −1を表にする"}),
        (
            "tokkuri",
            "first-round",
            5,
            {"en": "target Mia's tokkuri (level 10)", "ja": "ミアのトックリ（残量10）で飲む"},
        ),
        ("tottarot", "first-round", 4, {"en": "steal Ken", "ja": "ケンの運命を奪う"}),
    ],
)
def test_the_choices_under_the_board_are_words(
    browser: Any,
    live: ThreadServer,
    lang: str,
    screen: dict[str, int],
    game: str,
    lesson_id: str,
    step: int,
    shown: dict[str, str],
) -> None:
    """The buttons say the move in the page's language, as the table does, with the seats by the
    names the board shows: never the engine's command ("play R5", "target T2.1", "steal P1")."""
    ctx, page, errors = open_lesson(browser, f"{live.url}/learn/{game}?lesson={lesson_id}", lang, screen)
    try:
        page.evaluate(f"show({step})")
        at_step(page, step)
        labels = page.locator("button.learn-act").all_text_contents()
        assert shown[lang] in labels, labels
        assert not [label for label in labels if CODES.search(label)], labels
        assert not CODES.search(page.text_content("#board-prompt") or "")
        assert errors == []
    finally:
        ctx.close()


@pytest.mark.parametrize("game", GAMES)
def test_the_lesson_page_never_scrolls_sideways_on_a_phone(
    browser: Any, live: ThreadServer, game: str
) -> None:
    """Each game's first lesson on a 390 px phone, in Japanese, step by step to its end (the learner
    checks the width at every step): the page is never wider than the screen."""
    lesson = lesson_of(game)
    ctx, page, errors = open_lesson(browser, f"{live.url}/learn/{game}?lesson={lesson.id}", "ja", PHONE)
    try:
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        follow_lesson(page, lesson, "ja")
        assert errors == []
    finally:
        ctx.close()
