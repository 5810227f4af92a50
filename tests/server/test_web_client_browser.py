"""Each page loads the board of the game it shows, and no other (server/webclient.py, boards/common.js's
loadBoard): a table, its replay, a lesson and the illustrated rules; a game without a board is drawn
from its raw view, and asking for the board of a game with none fails, naming it.

Skipped when Chromium or the playwright package is missing (as test_server_browser.py).
"""

from __future__ import annotations

import time
from typing import Any

import httpx
from browser_support import sync_api, watch_errors  # skips this module without Chromium or playwright
from server_helpers import ProcessServer, create_table

BOARD_SCRIPTS = """() => performance.getEntriesByType("resource").map((e) => new URL(e.name).pathname)
  .filter((p) => p.startsWith("/static/boards/")).sort()"""


def open_page(browser: Any, url: str) -> tuple[Any, Any, list[str]]:
    context = browser.new_context(viewport={"width": 1280, "height": 800}, locale="en-US")
    page = context.new_page()
    page.set_default_timeout(30_000)
    errors = watch_errors(page)
    page.goto(url)
    return context, page, errors


def boards_of(page: Any) -> tuple[list[str], list[str]]:
    return page.evaluate("Object.keys(BOARDS).sort()"), page.evaluate(BOARD_SCRIPTS)


def test_a_table_and_its_replay_load_their_game_board_only(browser: Any, live: ProcessServer) -> None:
    with httpx.Client(base_url=live.url, timeout=30) as http:
        seats = [
            {"kind": "human", "name": "Aki"},
            {"kind": "bot", "spec": "random"},
            {"kind": "bot", "spec": "random"},
        ]
        created = create_table(http, "tokkuri", seats, rounds=1)
        bots = create_table(http, "tokkuri", [{"kind": "bot", "spec": "random"}] * 3, rounds=1)
        deadline = time.monotonic() + 120
        while http.get(f"/api/tables/{bots['id']}").json()["status"] == "playing":  # a replay: a game over
            assert time.monotonic() < deadline, "the bots' game did not end"
            time.sleep(0.2)
    context, page, errors = open_page(browser, live.url + created["seats"][0]["join_url"])
    page.wait_for_selector("#board[data-ready='1'] .board-tokkuri")
    assert boards_of(page) == (["tokkuri"], ["/static/boards/common.js", "/static/boards/tokkuri.js"])
    assert page.locator("#state-box").is_hidden()  # the raw view never flashed in for the board
    message = page.evaluate("loadBoard('nosuchgame').then(() => 'loaded', (e) => e.message)")
    assert 'no board for the game "nosuchgame"' in message
    context.close()
    context, page, errors2 = open_page(browser, f"{live.url}/r/{bots['id']}")
    page.wait_for_selector("#replay-board .board-tokkuri")
    assert boards_of(page) == (["tokkuri"], ["/static/boards/common.js", "/static/boards/tokkuri.js"])
    context.close()
    assert errors == [] and errors2 == []


def test_lessons_and_rules_load_their_game_board_only(browser: Any, live: ProcessServer) -> None:
    for game in ("hangover", "troika"):
        context, page, errors = open_page(browser, f"{live.url}/learn/{game}")
        page.wait_for_selector(f"#board .board-{game}")
        assert boards_of(page) == ([game], ["/static/boards/common.js", f"/static/boards/{game}.js"])
        context.close()
        context, page, errors2 = open_page(browser, f"{live.url}/rules/{game}")
        page.wait_for_selector("#figures[data-ready='1']")
        assert page.locator(f"#figures .board-{game}").count() > 0
        assert boards_of(page) == ([game], ["/static/boards/common.js", f"/static/boards/{game}.js"])
        context.close()
        assert errors == [] and errors2 == [], game


def test_an_unknown_game_fails_clearly(browser: Any, live: ProcessServer) -> None:
    context, page, errors = open_page(browser, f"{live.url}/rules/nosuchgame")
    page.wait_for_selector("#notice:not([hidden])")
    assert boards_of(page) == ([], ["/static/boards/common.js"])
    context.close()
    assert errors == []
    assert sync_api is not None
