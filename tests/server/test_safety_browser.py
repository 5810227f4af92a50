"""Muting and reporting at the table page (static/table-safety.js, issue #57 part 5)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any

import pytest
from browser_support import sync_api  # noqa: F401  (skips without Chromium)
from server_helpers import Player, ThreadServer, identified_table, make_config

SHOTS = os.environ.get("BODOGE_SHOTS")


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ThreadServer]:
    db = f"sqlite:///{tmp_path_factory.mktemp('safety_browser') / 'bodoge.db'}"
    with ThreadServer(make_config(db)) as server:
        yield server


def test_a_muted_player_stays_muted_and_a_line_can_be_reported(browser: Any, site: ThreadServer) -> None:
    with site.http() as http:
        ann = http.post("/api/players", json={"name": "Ann"}).json()
        bob = http.post("/api/players", json={"name": "Bob"}).json()
    seats = [
        {"kind": "human", "name": "Ann", "player": ann["player"]["id"]},
        {"kind": "human", "name": "Bob", "player": bob["player"]["id"]},
        {"kind": "bot", "spec": "random"},
    ]
    table_id, keys = identified_table(site, "troika", seats)
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    context.add_init_script(f"localStorage.setItem('bodoge.key', {ann['key']!r})")
    page = context.new_page()
    page.goto(f"{site.url}/t/{table_id}#token={keys[0]}")
    chat = page.locator("#chat-lines")
    with Player(site.ws_url, table_id, keys[1]) as bob_socket:
        bob_socket.send({"type": "chat", "text": "hello Ann"})
        chat.get_by_text("hello Ann").wait_for()
        chat.get_by_label("More for this line").click()
        if SHOTS:
            page.screenshot(path=f"{SHOTS}/chat-menu-en.png")
        page.once("dialog", lambda dialog: dialog.accept("spam"))
        chat.get_by_role("button", name="Report this line").click()
        chat.get_by_text("Reported.").wait_for()
        chat.get_by_label("More for this line").click()
        chat.get_by_role("button", name="Mute Bob").click()
        chat.get_by_text("1 lines hidden (muted)").wait_for()
        assert chat.get_by_text("hello Ann").count() == 0
        bob_socket.send({"type": "chat", "text": "still there?"})
        bob_socket.recv_until("chat")
    page.reload()  # the mute is kept with Ann's player, not only in this page
    chat.get_by_text("2 lines hidden (muted)").wait_for()
    assert chat.get_by_text("still there?").count() == 0
    reports = site.server.config.app.state.safety.reports()
    assert reports[0]["text"] == "hello Ann" and reports[0]["reason"] == "spam"
    context.close()
