"""Identity in the browser (static/identity.js, issue #57 part 1): a stranger picks a name in the
lobby, keeps the recovery link, becomes the same player in another browser by opening it, and can
delete themselves."""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any

import pytest
from browser_support import sync_api  # noqa: F401  (skips without Chromium)
from server_helpers import ThreadServer, make_config

SHOTS = os.environ.get("BODOGE_SHOTS")  # a folder: the test leaves its pictures there


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ThreadServer]:
    db = f"sqlite:///{tmp_path_factory.mktemp('identity') / 'bodoge.db'}"
    with ThreadServer(make_config(db)) as server:
        yield server


def shot(page: Any, name: str) -> None:
    if SHOTS:
        page.screenshot(path=f"{SHOTS}/{name}.png", full_page=False)


def test_a_stranger_becomes_a_player_keeps_the_link_and_leaves(browser: Any, site: ThreadServer) -> None:
    first = browser.new_context(viewport={"width": 1280, "height": 800})
    page = first.new_page()
    page.goto(site.url + "/")
    panel = page.locator("#identity")
    panel.get_by_role("button", name="Choose a name").click()
    panel.get_by_label("Your name").fill("Kaz")
    panel.get_by_role("button", name="Save").click()
    link = page.get_by_role("group", name="Your recovery link").get_by_role("textbox")
    link.wait_for()
    url = link.input_value()
    assert url.startswith(site.url + "/me#key=")
    shot(page, "identity-link-en")
    assert page.evaluate("localStorage.getItem('bodoge.key')") == url.split("#key=")[1]
    page.get_by_role("button", name="I have kept it").click()
    assert page.get_by_text("You are Kaz").is_visible()

    # Another browser opens the recovery link: it is Kaz there too, and the key leaves the address.
    second = browser.new_context(viewport={"width": 390, "height": 844}, locale="ja-JP")
    other = second.new_page()
    other.add_init_script("localStorage.setItem('bodoge.lang', 'ja')")
    other.goto(url.replace("/me#", "/#"))
    other.get_by_text("Kazとして参加中").wait_for()
    assert "key=" not in other.url
    assert other.get_by_text("おかえりなさい、Kazさん").is_visible()
    shot(other, "identity-recovered-ja-phone")

    # A second name of the same look is refused with the server's reason, and nothing is kept.
    third = browser.new_context()
    stranger = third.new_page()
    stranger.goto(site.url + "/")
    theirs = stranger.locator("#identity")
    theirs.get_by_role("button", name="Choose a name").click()
    theirs.get_by_label("Your name").fill("ＫＡＺ")
    theirs.get_by_role("button", name="Save").click()
    theirs.get_by_role("alert").get_by_text("taken", exact=False).wait_for()
    assert stranger.evaluate("localStorage.getItem('bodoge.key')") is None

    # Kaz deletes themselves: the other browser's key opens no player any more.
    page.once("dialog", lambda dialog: dialog.accept())
    page.get_by_text("You are Kaz").click()
    page.get_by_role("button", name="Delete me").click()
    panel.get_by_role("button", name="Choose a name").wait_for()
    assert page.evaluate("localStorage.getItem('bodoge.key')") is None
    other.reload()
    other.get_by_text("このブラウザーの鍵はもう使えません").wait_for()
    for context in (first, second, third):
        context.close()
