"""Two strangers meet by quick match (issue #57): each opens the lobby in a browser of their own,
picks a name, presses Quick match for one game, and both land at the same table and play the game to
its end through the page."""

from __future__ import annotations

import random
import time
from typing import Any
from urllib.parse import urlsplit

import httpx
from browser_support import sync_api, watch_errors  # skips this module without Chromium or playwright
from server_helpers import ProcessServer

GAME, PLAYERS = "tottarot", 2  # the shortest game through the page: about 25 decisions in all
GAME_TIMEOUT = 60.0


def stranger(browser: Any, server: ProcessServer, name: str) -> tuple[Any, list[str]]:
    """A browser of their own (no key, no tables kept), at the lobby, Quick match pressed, a name
    picked when asked."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.set_default_timeout(30_000)
    errors = watch_errors(page)
    page.goto(server.url + "/")
    card = f".game-entry[data-game='{GAME}']"
    page.wait_for_selector(f"{card} .quick-match")
    page.select_option(f"{card} .quick-players", str(PLAYERS))
    page.click(f"{card} .quick-match")
    page.wait_for_selector("#name-first-input")  # nobody yet in this browser: a name first
    page.fill("#name-first-input", name)
    page.click("#name-first-form button[type='submit']")
    return page, errors


def play_both(pages: list[Any], rng: random.Random) -> int:
    """Click random legal actions on whichever page may act, until both show the result."""
    deadline = time.monotonic() + GAME_TIMEOUT
    enabled = "#actions button.action:not([disabled])"
    clicks = 0
    while not all(p.is_visible("#result") for p in pages):
        assert time.monotonic() < deadline, "the game did not end in time"
        acted = False
        for page in pages:
            buttons = page.query_selector_all(enabled)
            if buttons and not page.is_visible("#result"):
                try:
                    rng.choice(buttons).click(timeout=3000)
                    clicks += 1
                    acted = True
                except sync_api.Error:
                    pass  # the view changed under the click; look again
        if not acted:
            pages[0].wait_for_timeout(100)
    return clicks


def test_two_strangers_meet_by_quick_match_and_finish_a_game(browser: Any, live: ProcessServer) -> None:
    aki, aki_errors = stranger(browser, live, "Aki")
    aki.wait_for_selector(".waiting-item[data-status='waiting']")
    assert "Aki" in aki.inner_text("#waiting")
    ben, ben_errors = stranger(browser, live, "Ben")
    # Ben fills the table: both are taken to their seats (Ben at once, Aki at the next poll).
    for page in (aki, ben):
        page.wait_for_url("**/t/**", timeout=20_000)
        page.wait_for_selector("#status[data-state='live']")
    table_ids = {urlsplit(p.url).path for p in (aki, ben)}
    assert len(table_ids) == 1, table_ids
    tokens = {urlsplit(p.url).fragment for p in (aki, ben)}
    assert len(tokens) == 2 and all(t.startswith("token=") for t in tokens)

    assert play_both([aki, ben], random.Random(57)) > 0
    table_id = table_ids.pop().rsplit("/", 1)[1]
    summary = httpx.get(f"{live.url}/api/tables/{table_id}", timeout=10).json()
    assert summary["status"] == "over" and summary["game"] == GAME
    assert sorted(s["name"] for s in summary["seats"]) == ["Aki", "Ben"]
    assert all(s["kind"] == "human" for s in summary["seats"])
    for page in (aki, ben):
        assert page.inner_text("#winners").strip()
    assert not aki_errors and not ben_errors
    aki.context.close()
    ben.context.close()
