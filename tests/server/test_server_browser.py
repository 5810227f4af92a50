"""The web client in a real browser: Debian's Chromium driven by Playwright plays a full game of every
game against bots through the page, downloads the record, and rides out a server crash.

Skipped when Chromium (/usr/bin/chromium: `apt-get install chromium`) or the playwright package is
missing; `.ci/run` installs both.
"""

from __future__ import annotations

import json
import random
import shutil
import sqlite3
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from browser_support import sync_api, watch_errors  # skips this module without Chromium or playwright
from server_helpers import ProcessServer, create_table, free_port, real_games

import bodoge
from bodoge.core.registry import game_class

GAME_TIMEOUT = 300.0  # seconds for one whole game through the page


def short_options(game: str) -> tuple[int, dict[str, str]]:
    """The fewest players, and one round where the game has rounds: short games for CI."""
    cls = game_class(game)
    names = {o.name for o in cls.option_specs}
    return cls.min_players, ({"rounds": "1"} if "rounds" in names else {})


def new_page(browser: Any) -> tuple[Any, list[str]]:
    context = browser.new_context(accept_downloads=True, viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.set_default_timeout(30_000)
    return page, watch_errors(page)


def join_against_bots(browser: Any, server: ProcessServer, http: httpx.Client) -> tuple[Any, Any, list[str]]:
    """A short game of the first game, seat 0 a person and random bots at the others, and a page
    joined to seat 0: (the created table, the page, its errors)."""
    game = real_games()[0]
    players, options = short_options(game)
    seats: list[dict[str, Any]] = [{"kind": "human"}] + [{"kind": "bot", "spec": "random"}] * (players - 1)
    created = create_table(http, game, seats, **options)
    page, errors = new_page(browser)
    page.goto(server.url + created["seats"][0]["join_url"])
    return created, page, errors


def play_to_the_end(page: Any, rng: random.Random, timeout: float = GAME_TIMEOUT) -> int:
    """Click random legal actions until the result shows; returns how many were clicked."""
    deadline = time.monotonic() + timeout
    clicks = 0
    enabled = "#actions button.action:not([disabled])"
    while True:
        left_ms = max(1000.0, (deadline - time.monotonic()) * 1000)
        page.wait_for_selector(f"{enabled}, #result:not([hidden])", timeout=left_ms)
        if page.is_visible("#result"):
            return clicks
        buttons = page.query_selector_all(enabled)
        if not buttons:
            continue
        try:
            rng.choice(buttons).click(timeout=5000)
        except sync_api.Error:
            continue  # the view changed under the click; look again
        clicks += 1
        assert time.monotonic() < deadline, "the game did not end in time"
        assert clicks < 2000


@pytest.mark.parametrize("game", real_games())
def test_play_a_full_game_in_the_browser(browser: Any, live: ProcessServer, game: str) -> None:
    page, errors = new_page(browser)
    players, options = short_options(game)
    page.goto(live.url + "/")
    page.wait_for_selector(f"#game option[value='{game}']", state="attached")
    page.select_option("#game", game)
    page.select_option("#players", str(players))
    if options:
        page.click("#options-box > summary")
        for name, value in options.items():
            page.fill(f"#opt-{name}", value)
    assert page.locator(".seat-row").count() == players
    assert page.input_value(".seat-kind[data-seat='0']") == "human"
    assert page.input_value(".seat-kind[data-seat='1']").startswith("bot:")
    page.fill(".seat-row[data-seat='0'] .seat-name", "Tester")
    page.click("#create")
    page.wait_for_selector(".join-link[data-seat='0']")
    spectator_url = page.get_attribute(".spectator-link", "href")
    page.click(".join-link[data-seat='0']")
    page.wait_for_selector("#status[data-state='live']")
    watcher, watcher_errors = new_page(browser)
    watcher.goto(spectator_url)
    watcher.wait_for_selector("#status[data-state='live']")

    clicks = play_to_the_end(page, random.Random(game))
    assert clicks > 0
    assert "Tester" in page.inner_text("#seats")
    assert page.locator("#log li").count() > 0
    assert page.inner_text("#winners").strip()
    with page.expect_download() as download:
        page.click("#download-record")
    record = json.loads(Path(download.value.path()).read_text())
    assert record["game"] == game and record["result"] is not None
    state = bodoge.replay(record)
    assert state.is_terminal and record["options"].get("rounds", 1) == 1

    # The spectator saw the same end, and was never offered an action.
    watcher.wait_for_selector("#result:not([hidden])")
    assert watcher.locator("#actions button").count() == 0
    assert "watching" in watcher.inner_text("#who")
    assert not errors and not watcher_errors
    page.context.close()
    watcher.context.close()


def test_lobby_lists_tables_and_speaks_japanese(browser: Any, live: ProcessServer) -> None:
    game = real_games()[0]
    players, options = short_options(game)
    with httpx.Client(base_url=live.url, timeout=30) as http:  # a table of its own to list
        create_table(http, game, [{"kind": "human"}] * players, **options)
    page, errors = new_page(browser)
    page.goto(live.url + "/")
    page.wait_for_selector("#game option", state="attached")
    page.click("[data-lang='ja']")
    assert page.inner_text("#create") == "卓を作る"
    page.wait_for_selector(".table-item")
    page.click("[data-lang='en']")
    assert page.inner_text("#create") == "Create table"
    assert page.locator(".game-rules").count() == len(real_games())
    assert not errors
    page.context.close()


@pytest.mark.skipif(not real_games(), reason="no game is registered yet")
def test_the_page_reconnects_after_a_server_crash(browser: Any, tmp_path: Path) -> None:
    server = ProcessServer(f"sqlite:///{tmp_path / 'crash.db'}", free_port(), tmp_path / "serve.log")
    server.start()
    try:
        with httpx.Client(base_url=server.url, timeout=30) as http:
            _created, page, errors = join_against_bots(browser, server, http)
        page.wait_for_selector("#actions button.action:not([disabled])")
        page.click("#actions button.action >> nth=0")
        server.kill()
        page.wait_for_selector("#status[data-state='reconnecting']")
        server.start()
        page.wait_for_selector("#status[data-state='live']", timeout=30_000)
        play_to_the_end(page, random.Random(1))
        with page.expect_download() as download:
            page.click("#download-record")
        assert bodoge.replay(json.loads(Path(download.value.path()).read_text())).is_terminal
        assert not errors
        page.context.close()
    finally:
        server.stop()


@pytest.mark.skipif(not real_games(), reason="no game is registered yet")
def test_the_page_follows_a_restore_to_an_earlier_move(browser: Any, tmp_path: Path) -> None:
    """docs/deploy.md, "What a restore means": after the database is put back to an earlier move, an
    open page shows that move and plays on from it. It used to ignore every view of a lower move
    than the one it had seen, and each action it sent then was refused as stale."""
    db = tmp_path / "restore.db"
    server = ProcessServer(f"sqlite:///{db}", free_port(), tmp_path / "serve.log")
    server.start()
    enabled = "#actions button.action:not([disabled])"
    try:
        with httpx.Client(base_url=server.url, timeout=30) as http:
            created, page, errors = join_against_bots(browser, server, http)

            def moves() -> int:
                return int(http.get(f"/api/tables/{created['id']}").json()["moves"])

            def act_and_wait() -> int:
                """Click an action (the first button, again while it is a part of a move, such as
                Hangover's arrangement offered a snack at a time); once it is our turn again, the
                table's move number."""
                before = moves()
                page.click(f"{enabled} >> nth=0")
                deadline = time.monotonic() + 30
                while moves() <= before or not page.query_selector(enabled):
                    assert time.monotonic() < deadline, "the table did not come back to us"
                    if (
                        moves() <= before
                        and page.evaluate("() => !!pending")
                        and page.query_selector(enabled)
                    ):
                        page.click(f"{enabled} >> nth=0")
                    time.sleep(0.05)
                return moves()

            page.wait_for_selector(enabled)
            saved = act_and_wait()
            backup = tmp_path / "backup.db"
            with sqlite3.connect(db) as live, sqlite3.connect(backup) as copy:
                live.backup(copy)
            assert act_and_wait() > saved
        server.stop()
        for suffix in ("-wal", "-shm"):
            Path(f"{db}{suffix}").unlink(missing_ok=True)
        shutil.copy(backup, db)
        server.start()
        page.wait_for_selector("#status[data-state='live']", timeout=30_000)
        with httpx.Client(base_url=server.url, timeout=30) as http:
            assert http.get(f"/api/tables/{created['id']}").json()["moves"] == saved
        play_to_the_end(page, random.Random(2), timeout=90)
        with page.expect_download() as download:
            page.click("#download-record")
        record = json.loads(Path(download.value.path()).read_text())
        assert bodoge.replay(record).is_terminal and len(record["actions"]) > saved
        assert not errors
        page.context.close()
    finally:
        server.stop()
