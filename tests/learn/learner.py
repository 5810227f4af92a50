"""The scripted learner of the lesson page: it plays a lesson as a person reading the page would.

It reads only what the page shows: the coach's words, and on its own move the board's items and the
buttons of the moves. It presses Next on an explaining step or another seat's move, tries a wrong move
first where it has one (the page must refuse it with the step's hint and stay), then plays the move the
step expects on the board: its item, or the items of its parts in turn (Hangover's snacks, one column
at a time; a Tokkuri card, then its use: a 1~3 card's value too). Every move a lesson expects of the
learner is on the board; the buttons under it are for the wrong tries. Each
place the step points at must be ringed on the board. On every step of the learner's the board is live
(issue #56): its clickable items are the ones the board draws for that position, on arriving there
(after the learner's move before it, too) and again after a wrong try. On a phone's screen the page
never scrolls sideways. At the end the page offers a practice game. A Coach beside it knows what the
page should say. Used by tests/learn/test_every_lesson_browser.py and bench/lessons.py (which times it).
"""

from __future__ import annotations

import json
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
        width = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
        assert width[0] <= width[1], f"{lesson.id} step {i}: the page is {width[0]} px wide on {width[1]}"
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
            before = board_acts(page)
            page.click(f"button.learn-act[data-text='{wrong[0]}']")
            expect(page.locator("#feedback")).to_have_text(refusal.message[lang])
            assert page.get_attribute("#board", "data-step") == str(i)
            page.wait_for_function(f"() => !busy && ({BOARD_ACTS})().length === {len(before)}")
        right = coach.state.action_text(wanted)
        # The board is live on the learner's move, and stays so after the wrong try.
        offered = board_offers(page)
        assert offered, f"{lesson.id} step {i}: the board offers nothing to click"
        assert board_acts(page) == offered, f"{lesson.id} step {i}: the board is not live"
        # The board's own item for the move, or its parts' in turn: every move a lesson expects of the
        # learner can be played on the board (Tokkuri's 1~3 too: its value chosen there).
        assert play_on_board(page, right, i), f"{lesson.id} step {i}: the board does not offer {right}"
        assert coach.try_move(right).ok
    page.locator("#done:not([hidden])").wait_for()
    expect(page.locator("#practice")).to_have_text(PRACTICE[lang])
    assert page.is_visible("#practice")


#: The board's items that take a move now (what a click on the board does).
BOARD_ACTS = (
    "() => [...document.querySelectorAll('#board .board .legal[data-act]')].map((n) => n.dataset.act)"
)


def board_acts(page: Any) -> list[str]:
    acts: list[str] = page.evaluate(BOARD_ACTS)
    return acts


def board_offers(page: Any) -> list[str]:
    """The items the game's board draws clickable for the position shown, the learner to move: the
    board drawn afresh, off the page, with nothing chosen yet."""
    acts: list[str] = page.evaluate(
        "() => [...renderBoard(GAME, view, { seatName, send() {}, pending: '', setPending() {}, readOnly: false })"
        ".node.querySelectorAll('.legal[data-act]')].map((n) => n.dataset.act)"
    )
    return acts


def play_on_board(page: Any, right: str, i: int) -> bool:
    """Play the move `right` at step i by clicking the board: the item of the move, or the items of its
    parts in turn (an item whose action begins the move's text; a card whose use comes next). False
    where the board offers none of it (nothing clicked then), or stops offering it partway."""
    clicked: set[str] = set()
    code = right.split(" ")[1].split("=")[0] if " " in right else ""
    while page.get_attribute("#board", "data-step") == str(i):
        acts = board_acts(page)
        fitting = [a for a in acts if right == a or right.startswith(a + " ")]
        fitting = fitting or [a for a in acts if a == f"card {code}" and a not in clicked]
        if not fitting:
            return False
        act = max(fitting, key=len)
        clicked.add(act)
        page.locator(f"#board .board .legal[data-act='{act}']").first.click()
        # Taken (the next step is shown), or the board took a part and offers what comes next.
        page.wait_for_function(
            f"([i, before]) => document.getElementById('board').dataset.step !== String(i)"
            f" || JSON.stringify(({BOARD_ACTS})()) !== before",
            arg=[i, json.dumps(acts, separators=(",", ":"))],
        )
    return True
