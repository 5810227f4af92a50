"""Issue #56, the table page's choices (faults 2 and 7): the moves under the board in words and a part
at a time, as on the lesson page (board-aids.js's choiceOffer and engineWords, one implementation for
both). On a phone, Hangover's arrangement is offered a snack at a time (a few buttons, not 24 orders
in codes in a docked panel over the hand), the last part sends the move; Tokkuri's and Tottarot's
buttons name the tokkuri and the seats, never "target T2.1" or "steal P1"; the board's texts and the
log at the end name the seats.

Skipped when Chromium or the playwright package is missing (as test_server_browser.py).
"""

from __future__ import annotations

import random
import re
import time
from typing import Any

import httpx
import pytest
from browser_support import sync_api, watch_errors  # skips this module without Chromium or playwright
from server_helpers import ProcessServer, create_table, finished_hangover

DESKTOP = (1280, 800)
PHONE = (390, 844)
ACTIONS = "#actions button.action:not([disabled])"
TOKKURI_ID = re.compile(r"\bT\d+\.\d+\b")
SEAT_CODE = re.compile(r"\bP\d\b")
HYPHEN_MINUS = re.compile(r"(?<![0-9A-Za-z])-\d")  # "-1/+2": the board draws a true minus sign

# The buttons shown: each one's words, the engine's text of its action (a part: its prefix), and
# whether it is a part (not a whole move).
SHOWN = """() => {
  const legal = ((typeof shownView === 'function' ? shownView() : view) || {}).legal_actions || [];
  return [...document.querySelectorAll('#actions button.action:not([disabled])')].map((b) => {
    const action = legal.find((a) => String(a.id) === b.dataset.action);
    return [b.querySelector('.action-words') ? b.querySelector('.action-words').innerText : b.innerText,
      action ? action.text : (b.dataset.part || ''), !action];
  });
}"""

# The hand's cards and the board's items to tap, each scrolled into view as a person would (the
# nearest edge): the ones that then lie under the docked decision panel.
UNDER_DOCK = """() => {
  const dock = document.getElementById('decision-panel');
  const out = [];
  for (const item of document.querySelectorAll('#board .hg-hand > *, #board .legal')) {
    if (!item.checkVisibility()) continue;
    item.scrollIntoView({ block: 'nearest' });
    const panel = dock.getBoundingClientRect();
    const r = item.getBoundingClientRect();
    if (r.bottom > panel.top + 0.5 && r.top < panel.bottom) out.push(`${item.className} ${r.top}-${r.bottom} under ${panel.top}`);
  }
  return out;
}"""


def new_table(live: ProcessServer, game: str, players: int, **options: Any) -> str:
    """A table of one person (seat 0, "Aki") and random bots; the person's join URL."""
    seats = [{"kind": "human", "name": "Aki"}] + [{"kind": "bot", "spec": "random"}] * (players - 1)
    with httpx.Client(base_url=live.url, timeout=30) as http:
        created = create_table(http, game, seats, players, **options)
    return live.url + str(created["seats"][0]["join_url"])


def open_page(browser: Any, url: str, size: tuple[int, int], lang: str) -> tuple[Any, list[str]]:
    context = browser.new_context(
        viewport={"width": size[0], "height": size[1]}, locale="en-US", reduced_motion="reduce"
    )
    context.add_init_script(f"localStorage.setItem('bodoge.lang', '{lang}')")
    page = context.new_page()
    page.set_default_timeout(30_000)
    errors = watch_errors(page)
    page.goto(url)
    page.wait_for_selector("#status[data-state='live']")
    return page, errors


def arrangements(page: Any) -> int:
    """How many arrangement orders the table offers seat 0 now (0: not its arrangement)."""
    count: int = page.evaluate(
        "() => ((view && view.legal_actions) || []).filter((a) => a.text.startsWith('arrange ')).length"
    )
    return count


# -- Hangover's arrangement, a part at a time ------------------------------------------------------


@pytest.mark.parametrize(("size", "lang"), [(PHONE, "ja"), (DESKTOP, "en")])
def test_hangovers_arrangement_is_offered_a_snack_at_a_time_and_its_last_part_sends_it(
    browser: Any, live: ProcessServer, size: tuple[int, int], lang: str
) -> None:
    # A hand of snacks with several orders (two alike leave fewer: another table, then).
    for _ in range(8):
        page, errors = open_page(browser, new_table(live, "hangover", 3), size, lang)
        page.wait_for_function("() => view && (view.legal_actions || []).length > 0")
        orders = arrangements(page)
        if orders > 6:
            break
        page.context.close()
    assert orders > 6, "no hand of snacks with more than 6 orders"
    page.wait_for_selector(ACTIONS)
    if size == PHONE:
        # The docked panel of a few buttons covers neither the hand nor the snacks to tap.
        assert page.evaluate(UNDER_DOCK) == []
        dock = page.locator("#decision-panel").bounding_box()
        assert dock is not None and dock["height"] <= 0.45 * size[1], dock
    parts = 0
    while arrangements(page):
        shown = page.evaluate(SHOWN)
        assert 1 <= len(shown) <= 6, shown  # a part at a time, never the 24 orders
        words = [label for label, _, _ in shown]
        assert not [w for w in words if HYPHEN_MINUS.search(w)], words  # "−1/−2", as the board draws it
        if parts == 1:
            # A part chosen stands in the bar above the board, to take back or cancel.
            assert page.is_visible("#board-pending #board-takeback")
        if not any(part for _, _, part in shown):
            break  # each button is a whole move now: the last part
        # Keys 1-9 choose the buttons shown: the first part by its key, pressed where a keyboard user
        # is after a move (the focus settles on the first choice; a key typed into a text field, such
        # as the choices' filter, is the field's). Not always key 1: a hand with two snacks alike
        # offers whole moves beside parts (a snack whose orders are all one), and each table deals anew.
        key = next(i for i, (_, _, part) in enumerate(shown) if part) + 1
        page.locator(ACTIONS).first.focus()
        page.keyboard.press(str(key))
        parts += 1
        page.wait_for_function("(n) => (pending || '').split(' ').length === n + 1", arg=parts)
    assert parts >= 1
    page.locator(ACTIONS).first.click()  # the last part: the whole move is sent
    page.wait_for_function("() => !(view.legal_actions || []).some((a) => a.text.startsWith('arrange '))")
    assert errors == []
    page.context.close()


# -- Tokkuri's and Tottarot's buttons, the board and the log, in words ---------------------------


def play_to_the_end(page: Any, seed: int) -> list[tuple[str, str]]:
    """Play seat 0 by random buttons to the end of the game; every button shown, with its action."""
    rng = random.Random(seed)
    seen: list[tuple[str, str]] = []
    deadline = time.monotonic() + 240
    while not page.is_visible("#result"):
        assert time.monotonic() < deadline, "the game did not end in time"
        shown = page.evaluate(SHOWN)
        if not shown:
            time.sleep(0.05)
            continue
        seen.extend((label, text) for label, text, _ in shown)
        buttons = page.query_selector_all(ACTIONS)
        try:
            rng.choice(buttons).click(timeout=3000)
        except sync_api.Error:
            continue
    return seen


@pytest.mark.parametrize("lang", ["en", "ja"])
@pytest.mark.parametrize(
    ("game", "players", "options"), [("tokkuri", 3, {"rounds": 1}), ("tottarot", 3, {"target": 1})]
)
def test_tokkuri_and_tottarot_say_their_moves_board_and_log_in_words(
    browser: Any, live: ProcessServer, game: str, players: int, options: dict[str, Any], lang: str
) -> None:
    page, errors = open_page(browser, new_table(live, game, players, **options), DESKTOP, lang)
    seen = play_to_the_end(page, 56)
    # The buttons: no tokkuri id, no seat code, though the engine's actions have them.
    coded = [text for _, text in seen if TOKKURI_ID.search(text) or SEAT_CODE.search(text)]
    assert coded, f"{game}: no action named a tokkuri or a seat (nothing checked)"
    labels = [label for label, _ in seen]
    assert not [x for x in labels if TOKKURI_ID.search(x) or SEAT_CODE.search(x)], labels
    # The end: the board's texts (its end explanation, the boxes) and the log name the seats.
    page.wait_for_selector("#board .explain")
    board = page.inner_text("#board")
    assert not SEAT_CODE.search(board), board
    assert not TOKKURI_ID.search(board), board
    log = page.inner_text("#log")
    assert not SEAT_CODE.search(log) and not TOKKURI_ID.search(log), log
    assert errors == []
    page.context.close()


@pytest.fixture(scope="module")
def hangover_over(live: ProcessServer) -> str:
    """A finished three-player Hangover (seed 0 played by random moves) written to the server's
    database, its seats Aki, Ben and Cho."""
    return finished_hangover(live.db, "hangover-choices")


@pytest.mark.parametrize(("size", "lang"), [(PHONE, "ja"), (DESKTOP, "en")])
def test_hangovers_judgement_at_the_end_names_the_seats(
    browser: Any, live: ProcessServer, hangover_over: str, size: tuple[int, int], lang: str
) -> None:
    page, errors = open_page(browser, f"{live.url}/t/{hangover_over}", size, lang)
    page.wait_for_selector("#board .explain")
    board = page.inner_text("#board")
    assert "Aki" in board and "Cho" in board
    assert not SEAT_CODE.search(board), board  # never "P2 wins.", "P0: 8 VP"
    assert not SEAT_CODE.search(page.inner_text("#log"))
    assert errors == []
    page.context.close()
