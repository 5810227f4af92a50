"""The scripted learner of the lesson page: it plays a lesson as a person reading the page would.

It reads only what the page shows: the coach's words, and on its own move the board's items and the
buttons of the moves. It presses Next on an explaining step or another seat's move, tries a wrong move
first where it has one (the page must refuse it with the step's hint and stay), then clicks the board's
item (or else the button) of the move the step expects; each place the step points at must be ringed on
the board. At the end the page offers a practice game. A Coach beside it knows what the page should
say. Used by tests/learn/test_every_lesson_browser.py and bench/lessons.py (which times it).
"""

from __future__ import annotations

from typing import Any

from playwright.sync_api import expect

from bodoge.learn.coach import Coach
from bodoge.learn.lessons import Lesson

PRACTICE = {"en": "Play a practice game", "ja": "練習対局をする"}


def follow_lesson(page: Any, lesson: Lesson, lang: str) -> None:
    """Play the lesson on the open lesson page as a learner reading it would, checking as it goes. A
    Coach beside it knows what the page should say to each try."""
    coach = Coach(lesson)
    for i, step in enumerate(lesson.steps):
        board = page.locator(f"#board[data-step='{i}']")
        board.wait_for()
        expect(page.locator("#say")).to_have_text(step.say[lang])
        for place in step.point:
            ringed = page.evaluate(
                "(place) => pointedAt(document.getElementById('board'), place)"
                ".filter((n) => n.classList.contains('learn-point')).length",
                place,
            )
            assert ringed > 0, f"{lesson.id} step {i}: nothing ringed at {place}"
        if not coach.learners_turn:
            assert page.is_enabled("#next")
            page.click("#next")
            assert coach.next().ok
            continue
        assert step.expect is not None
        assert page.is_disabled("#next")  # the learner plays this one
        wanted = coach.state.parse_action(step.expect)
        shown = page.locator("button.learn-act")
        texts = [shown.nth(k).get_attribute("data-text") or "" for k in range(shown.count())]
        wrong = [text for text in texts if coach.state.parse_action(text) != wanted]
        if wrong:
            refusal = coach.try_move(wrong[0])
            assert not refusal.ok
            page.click(f"button.learn-act[data-text='{wrong[0]}']")
            expect(page.locator("#feedback")).to_have_text(refusal.message[lang])
            assert page.get_attribute("#board", "data-step") == str(i)
        right = coach.state.action_text(wanted)
        # The board's own item for the move if it draws one, else the move's button.
        item = page.locator(f"#board .board [data-act='{right}'].legal")
        if item.count():
            item.first.click()
            # Taken at once, or the item began a choice of several parts (the board shows it chosen).
            page.wait_for_function(
                "(i) => document.getElementById('board').dataset.step !== String(i)"
                " || !document.getElementById('board-pending').hidden",
                arg=i,
            )
        if page.get_attribute("#board", "data-step") == str(i):
            page.click(f"button.learn-act[data-text='{right}']")
        assert coach.try_move(right).ok
    page.locator("#done:not([hidden])").wait_for()
    expect(page.locator("#practice")).to_have_text(PRACTICE[lang])
    assert page.is_visible("#practice")
