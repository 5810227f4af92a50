"""The table and replay pages as friends use them: a whole game of every game, played by clicking the
board, in English and in Japanese, at a desktop and a phone size. On every turn of ours: no script
error, every visible string in the page's language, and on the phone the decision in reach and every
tap target at least 44 px. The replay: autoplay, positions served from its cache, and an unfinished
table's replay link that explains itself.

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
from server_helpers import ProcessServer, create_table

GAME_TIMEOUT = 120.0
# game -> (players, options): short games (as test_boards_browser.py).
GAMES: dict[str, tuple[int, dict[str, Any]]] = {
    "troika": (3, {"rounds": 1}),
    "tokkuri": (3, {"rounds": 1}),
    "tottarot": (3, {"target": 1}),
    "hangover": (3, {}),
}
SIZES = {"desktop": (1280, 800), "phone": (390, 844)}
READY = "#board[data-ready='1'] .legal"
NAME = "Tester"
# Words of 3+ ASCII letters a Japanese page may show: the player's name, the brand, the language
# button, bots' agent names, the record's file format.
ALLOWED = {NAME, "bodoge", "random", "JSON"}

# The visible text nodes of the page, with the id of the nearest region that has one. The raw view
# (#view, the fallback under the board) shows the view's own keys: data, not page text.
VISIBLE_TEXTS = """() => {
  const out = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const parent = node.parentElement;
    if (!node.textContent.trim() || !parent || !parent.checkVisibility()) continue;
    if (parent.closest("#view, script, style")) continue;
    const region = parent.closest("[id]");
    out.push([region ? region.id : "", node.textContent.trim()]);
  }
  return out;
}"""

# Every tap target on the page that is visible now, with its size.
TAP_TARGETS = """() => [...document.querySelectorAll("#board .legal, #actions button, #board-pending button")]
  .filter((node) => node.checkVisibility())
  .map((node) => {
    const r = node.getBoundingClientRect();
    return [node.dataset.act || node.textContent.trim(), r.width, r.height];
  })"""

DECISION_BOX = """() => {
  const r = document.getElementById("decision-panel").getBoundingClientRect();
  return [r.top, r.bottom, window.innerHeight];
}"""

# Whether the actions on offer have their Japanese texts yet (the server adds "text_ja").
ACTIONS_HAVE_JA = "() => (view.legal_actions || []).every((a) => a.text_ja)"


def new_page(browser: Any, lang: str, size: str) -> tuple[Any, list[str]]:
    width, height = SIZES[size]
    context = browser.new_context(
        viewport={"width": width, "height": height}, locale="en-US", has_touch=size == "phone"
    )
    context.add_init_script(f"localStorage.setItem('bodoge.lang', '{lang}')")
    page = context.new_page()
    page.set_default_timeout(30_000)
    return page, watch_errors(page)


def new_table(live: ProcessServer, game: str, human_seats: int = 1) -> dict[str, Any]:
    players, options = GAMES[game]
    seats: list[dict[str, Any]] = [{"kind": "human", "name": NAME}] * human_seats
    seats += [{"kind": "bot", "spec": "random"}] * (players - human_seats)
    with httpx.Client(base_url=live.url, timeout=30) as http:
        return create_table(http, game, seats, **options)


def english_words(page: Any) -> list[tuple[str, str]]:
    """Visible (region, text) pairs with an English word in them, on a Japanese page."""
    skip_actions = not page.evaluate(ACTIONS_HAVE_JA)
    found = []
    for region, text in page.evaluate(VISIBLE_TEXTS):
        if skip_actions and region in ("actions", "board-pending"):
            text = re.sub(r"\b[a-z]+\b", "", text)  # action texts stay English until "text_ja" lands
        words = set(re.findall(r"[A-Za-z]{3,}", text)) - ALLOWED
        if words:
            found.append((region, text))
    return found


def check_my_turn(page: Any, lang: str, size: str) -> None:
    if lang == "ja":
        assert not english_words(page), english_words(page)
    if size == "phone":
        top, bottom, height = page.evaluate(DECISION_BOX)
        assert top >= 0 and bottom <= height + 1, (top, bottom, height)
        small = [t for t in page.evaluate(TAP_TARGETS) if t[1] < 44 or t[2] < 44]
        assert not small, small


def play_a_game(page: Any, rng: random.Random, lang: str, size: str) -> int:
    """Click random highlighted board items until the game ends, checking each turn; the turns."""
    deadline = time.monotonic() + GAME_TIMEOUT
    turns = 0
    while True:
        left_ms = max(1000.0, (deadline - time.monotonic()) * 1000)
        page.wait_for_selector(f"{READY}, #result:not([hidden])", timeout=left_ms)
        if page.is_visible("#result"):
            return turns
        targets = page.query_selector_all(READY)
        if not targets:
            continue
        if turns % 4 == 0:  # every check on every 4th decision keeps the module quick
            check_my_turn(page, lang, size)
        try:
            rng.choice(targets).click(timeout=5000)
        except sync_api.Error:
            continue  # the board was redrawn under the click; look again
        turns += 1
        assert time.monotonic() < deadline, "the game did not end in time"


@pytest.mark.parametrize("size", list(SIZES))
@pytest.mark.parametrize("lang", ["en", "ja"])
@pytest.mark.parametrize("game", list(GAMES))
def test_a_whole_game_on_the_board(
    browser: Any, live: ProcessServer, game: str, lang: str, size: str
) -> None:
    created = new_table(live, game)
    page, errors = new_page(browser, lang, size)
    page.goto(live.url + created["seats"][0]["join_url"])
    assert play_a_game(page, random.Random(f"{game}{lang}{size}"), lang, size) > 0
    page.wait_for_selector("#result:not([hidden])")
    if lang == "ja":
        assert "プレイヤー" in page.inner_text(".col-side")
        assert not english_words(page), english_words(page)
    # The last moves are marked on the board.
    assert page.locator("#board .last-move").count() > 0
    # Your own row in the Players table is a table row still (the board's .mine rule is scoped).
    assert page.evaluate("getComputedStyle(document.querySelector('#seats tr.mine')).display") == "table-row"
    assert not errors, errors
    page.context.close()


def test_log_numbers_past_99_are_not_clipped(browser: Any, live: ProcessServer) -> None:
    created = new_table(live, "troika")
    page, errors = new_page(browser, "en", "phone")
    page.goto(live.url + created["seats"][0]["join_url"])
    page.wait_for_selector(READY)
    assert page.evaluate("getComputedStyle(document.getElementById('log')).listStylePosition") == "inside"
    assert not errors
    page.context.close()


def test_board_items_have_accessible_names(browser: Any, live: ProcessServer) -> None:
    created = new_table(live, "troika")
    page, errors = new_page(browser, "en", "desktop")
    page.goto(live.url + created["seats"][0]["join_url"])
    page.wait_for_selector(READY)
    names = page.evaluate(
        "() => [...document.querySelectorAll('#board .tile:not([aria-hidden])')].map((n) => n.getAttribute('aria-label'))"
    )
    assert names and all(names), names
    assert any(re.fullmatch(r"take \d+", n) for n in names), names
    assert any(re.fullmatch(r"return hand \d+", n) for n in names), names
    assert not errors
    page.context.close()


def finished_table(live: ProcessServer, game: str) -> dict[str, Any]:
    """A table that bots played to the end."""
    players, options = GAMES[game]
    with httpx.Client(base_url=live.url, timeout=30) as http:
        created = create_table(http, game, [{"kind": "bot", "spec": "random"}] * players, **options)
        deadline = time.monotonic() + GAME_TIMEOUT
        while (status := http.get(f"/api/tables/{created['id']}/replay").status_code) != 200:
            assert status == 409, status
            assert time.monotonic() < deadline, "the bots did not finish"
            time.sleep(0.2)
    return created


def test_replay_autoplay_serves_steps_from_its_cache(browser: Any, live: ProcessServer) -> None:
    created = finished_table(live, "troika")
    page, errors = new_page(browser, "ja", "desktop")
    asked: list[str] = []
    page.on("request", lambda r: asked.append(r.url) if "/replay?" in r.url else None)
    page.goto(f"{live.url}/r/{created['id']}")
    page.wait_for_selector("#replay-board[data-seat='all'] .board-troika")
    assert page.locator("#replay-board .board").count() == 1  # one omniscient board
    # Every seat's hand is on it, each tile named in Japanese for screen readers.
    hands = page.evaluate(
        "() => [...document.querySelectorAll('#replay-board .hand .tile')].map((n) => n.getAttribute('aria-label'))"
    )
    assert hands and all(re.fullmatch(r"P\d.*の手札のタイル \d+", n) for n in hands), hands
    assert page.inner_text("#replay-play") == "再生"
    moves = int(page.get_attribute("#replay-move", "max"))
    page.select_option("#replay-speed", "16")
    page.click("#replay-play")
    page.wait_for_selector(f"#replay-pos[data-move='{moves}']", timeout=60_000)
    page.wait_for_function(
        "() => document.getElementById('replay-play').getAttribute('aria-pressed') === 'false'"
    )
    first_pass = len(asked)
    assert first_pass >= moves  # every step was fetched once (and a few prefetched)
    # The second pass, by autoplay and by hand, asks the server nothing.
    page.click("#replay-play")
    page.wait_for_selector("#replay-pos[data-move='1']")
    page.wait_for_selector(f"#replay-pos[data-move='{moves}']", timeout=60_000)
    page.click("#replay-first")
    page.wait_for_selector("#replay-pos[data-move='0']")
    page.click("#replay-next")
    page.wait_for_selector("#replay-pos[data-move='1']")
    assert len(asked) == first_pass, asked[first_pass:]
    assert not errors, errors
    page.context.close()


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_an_unfinished_tables_replay_says_why(browser: Any, live: ProcessServer, lang: str) -> None:
    created = new_table(live, "troika")  # a person's seat: the game waits for them
    page, errors = new_page(browser, lang, "phone")
    page.goto(f"{live.url}/r/{created['id']}")
    page.wait_for_selector("#notice:not([hidden])")
    expected = "まだ続いています" if lang == "ja" else "still being played"
    assert expected in page.inner_text("#notice")
    assert not errors, errors
    page.context.close()


# Every string table's keys, English against Japanese: (table, keys only in English, keys only in Japanese).
STRING_TABLES = """() => {
  const tables = [["STRINGS", STRINGS], ["BOARD_STRINGS", BOARD_STRINGS]];
  for (const [game, board] of Object.entries(BOARDS)) tables.push([game, board.terms]);
  return tables.map(([name, table]) => [
    name,
    Object.keys(table.en).filter((k) => !(k in table.ja)),
    Object.keys(table.ja).filter((k) => !(k in table.en)),
  ]);
}"""


def test_every_string_has_both_languages(browser: Any, live: ProcessServer) -> None:
    created = new_table(live, "troika")
    page, errors = new_page(browser, "ja", "desktop")
    page.goto(live.url + created["seats"][0]["join_url"])
    page.wait_for_selector(READY)
    tables = page.evaluate(STRING_TABLES)
    assert len(tables) == 2 + len(GAMES)
    assert all(not en_only and not ja_only for _, en_only, ja_only in tables), tables
    assert page.evaluate("STRINGS.ja.players") == "プレイヤー"  # the Players panel, not 人数 (a count)
    assert not errors
    page.context.close()
