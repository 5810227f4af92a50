"""Every lesson that ships completes in the browser by following its prompts (issue 32's test): the
scripted learner of learner.py plays each one on the lesson page, reading only what the page shows,
trying a wrong move where it can (refused with the step's hint), seeing each pointed place ringed,
and ends offered a practice game.

Each lesson runs once, the configurations alternating within each game (its 1st, 3rd lesson in
English on a desktop screen, its 2nd, 4th in Japanese on a phone's), so every game is seen in both.
Motion is reduced (as a learner may ask): no waiting for pieces to slide. bench/lessons.py times the
same learner.
"""

from __future__ import annotations

import time
from typing import Any

import pytest

pytest.importorskip("fastapi", reason="the server extra is not installed (pip install -e '.[server]')")

from browser_support import watch_errors
from learner import follow_lesson
from server_helpers import ThreadServer

from bodoge.learn.lessons import PACKAGED, Lesson, load_lessons

DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
CONFIGS = [("en", DESKTOP), ("ja", PHONE)]
LESSONS = None  # the live server (conftest.py) reads the packaged lessons
# The four games (not bodoge.games(): a server test's toy game registers itself there and has no
# lessons); test_lesson_data.py checks that the packaged lesson files are exactly these.
GAMES = ("hangover", "tokkuri", "tottarot", "troika")


def every_lesson() -> list[tuple[str, str, str, dict[str, int]]]:
    """(game, lesson id, language, screen) for every packaged lesson, alternating the configuration."""
    out = []
    for game in GAMES:
        for i, lesson in enumerate(load_lessons(game, PACKAGED)):
            lang, screen = CONFIGS[i % 2]
            out.append((game, lesson.id, lang, screen))
    return out


def lesson_of(game: str, lesson_id: str) -> Lesson:
    return next(lesson for lesson in load_lessons(game, PACKAGED) if lesson.id == lesson_id)


def open_lesson(browser: Any, url: str, lang: str, screen: dict[str, int]) -> tuple[Any, Any, list[str]]:
    ctx = browser.new_context(viewport=screen, reduced_motion="reduce")
    ctx.add_init_script(f"localStorage.setItem('bodoge.lang', '{lang}')")
    page = ctx.new_page()
    errors = watch_errors(page)
    page.goto(url)
    return ctx, page, errors


def test_the_configurations_cover_each_game_in_both_languages() -> None:
    seen = {(game, lang) for game, _, lang, _ in every_lesson()}
    assert seen == {(game, lang) for game in GAMES for lang in ("en", "ja")}
    assert len(every_lesson()) == sum(len(load_lessons(g, PACKAGED)) for g in GAMES)


@pytest.mark.parametrize(
    ("game", "lesson_id", "lang", "screen"),
    every_lesson(),
    ids=[
        f"{game}-{lesson_id}-{lang}-{screen['width']}px" for game, lesson_id, lang, screen in every_lesson()
    ],
)
def test_every_lesson_completes_by_following_its_prompts(
    browser: Any, live: ThreadServer, game: str, lesson_id: str, lang: str, screen: dict[str, int]
) -> None:
    lesson = lesson_of(game, lesson_id)
    ctx, page, errors = open_lesson(browser, f"{live.url}/learn/{game}?lesson={lesson_id}", lang, screen)
    try:
        started = time.perf_counter()
        follow_lesson(page, lesson, lang)
        print(f"{game}/{lesson_id} ({lang}, {screen['width']}px): {time.perf_counter() - started:.1f} s")
        assert errors == []
    finally:
        ctx.close()


MOVING = """() => document.getElementById('board').getAnimations({ subtree: true })
  .filter((a) => a.effect && a.effect.target && a.effect.target.closest('[data-piece]')).length"""


@pytest.mark.parametrize("motion", ["no-preference", "reduce"])
def test_another_seats_move_is_seen_moving(browser: Any, live: ThreadServer, motion: str) -> None:
    # The lesson page redraws like the table: the pieces a move carried slide from where they were,
    # unless the browser asks for reduced motion.
    lesson = lesson_of("troika", "first-round")
    i = next(k for k, s in enumerate(lesson.steps) if s.expect is not None and s.mover != lesson.seat)
    ctx = browser.new_context(viewport=DESKTOP, reduced_motion=motion)
    page = ctx.new_page()
    try:
        page.goto(f"{live.url}/learn/troika?lesson={lesson.id}")
        page.locator("#board[data-step='0']").wait_for()
        page.evaluate(f"show({i})")
        page.locator(f"#board[data-step='{i}']").wait_for()
        page.click("#next")
        page.locator(f"#board[data-step='{i + 1}']").wait_for()
        moving = page.evaluate(MOVING)
        assert (moving > 0) is (motion == "no-preference"), moving
    finally:
        ctx.close()
