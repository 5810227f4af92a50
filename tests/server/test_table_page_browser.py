"""The table page around the board (issue #31): a results banner in view at the end, the raw view only
with ?debug, the people's story in the log and on their boxes (en and ja), cards in words in the
buttons and the log, a phone's docked decision panel that covers nothing to tap, the chat's unread
mark.

Skipped when Chromium or the playwright package is missing (as test_server_browser.py).
"""

from __future__ import annotations

import random
import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from browser_support import sync_api, watch_errors  # skips this module without Chromium or playwright
from server_helpers import Player, ProcessServer, create_table, free_port

DESKTOP = (1280, 800)
PHONE = (390, 844)
ACTIONS = "#actions button.action:not([disabled])"
RAW_CODE = re.compile(r"\^|\b[RBYG][1-9]\b")  # Hangover's card codes: R4^, G6


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ProcessServer]:
    """A server whose people are replaced by a stand-in 1.5 s after they leave."""
    tmp = tmp_path_factory.mktemp("table_page")
    server = ProcessServer(
        f"sqlite:///{tmp / 'web.db'}", free_port(), tmp / "serve.log", extra=("--away-grace", "1.5")
    )
    server.start()
    yield server
    server.stop()


def open_page(
    browser: Any, url: str, size: tuple[int, int], lang: str = "en", table: bool = True
) -> tuple[Any, list[str]]:
    context = browser.new_context(viewport={"width": size[0], "height": size[1]}, locale="en-US")
    context.add_init_script(f"localStorage.setItem('bodoge.lang', '{lang}')")
    page = context.new_page()
    page.set_default_timeout(30_000)
    errors = watch_errors(page)
    page.goto(url)
    if table:
        page.wait_for_selector("#status[data-state='live']")
    return page, errors


def in_viewport(page: Any, selector: str) -> bool:
    box = page.locator(selector).bounding_box()  # relative to the viewport
    width, height = page.viewport_size["width"], page.viewport_size["height"]
    return (
        box is not None
        and box["y"] >= 0
        and box["y"] + box["height"] <= height
        and box["x"] + box["width"] <= width
    )


def wait_for(what: str, check: Any, timeout: float = 30.0) -> Any:
    deadline = time.monotonic() + timeout
    while not (got := check()):
        assert time.monotonic() < deadline, f"{what} did not happen within {timeout} s"
        time.sleep(0.05)
    return got


# -- the end ---------------------------------------------------------------------------------------

# Every visible item a docked panel could cover on a phone: scrolled into view as a person would
# (the nearest edge), it lies wholly above the panel.
COVERED = """() => {
  const dock = document.getElementById("decision-panel");
  const out = [];
  for (const item of document.querySelectorAll("#board .legal")) {
    if (!item.checkVisibility()) continue;
    item.scrollIntoView({ block: "nearest" });
    const panel = dock.getBoundingClientRect();
    const r = item.getBoundingClientRect();
    if (r.bottom > panel.top + 0.5 && r.top < panel.bottom) out.push(`${item.className} ${r.top}-${r.bottom} under ${panel.top}`);
  }
  return out;
}"""


@pytest.mark.parametrize(("size", "lang"), [(DESKTOP, "en"), (PHONE, "ja")])
def test_the_end_is_a_banner_in_view_and_the_raw_view_needs_debug(
    browser: Any, live: ProcessServer, size: tuple[int, int], lang: str
) -> None:
    with httpx.Client(base_url=live.url, timeout=30) as http:
        created = create_table(
            http, "hangover", [{"kind": "human", "name": "Aki"}] + [{"kind": "bot", "spec": "random"}] * 2
        )
    url = live.url + created["seats"][0]["join_url"]
    page, errors = open_page(browser, url, size, lang)
    assert page.locator("#state-box").is_hidden()  # no raw view without ?debug
    rng = random.Random(31)
    deadline = time.monotonic() + 240
    checked = 0
    while not page.is_visible("#result"):
        assert time.monotonic() < deadline, "the game did not end in time"
        buttons = page.query_selector_all(ACTIONS)
        if not buttons:
            time.sleep(0.05)
            continue
        texts = [b.inner_text() for b in buttons] + [page.inner_text("#log")]
        assert not [x for x in texts if RAW_CODE.search(x)], texts  # cards in words, never codes
        if size == PHONE and checked < 4 and page.is_visible("#board[data-ready='1'] .legal"):
            # The docked decision panel never covers an item to tap; the page is not endless.
            assert page.evaluate(COVERED) == []
            assert page.evaluate("document.documentElement.scrollHeight") < 3000
            checked += 1
        page.evaluate("window.scrollTo(0, document.body.scrollHeight)")  # the end comes while scrolled down
        try:
            rng.choice(buttons).click(timeout=3000)
        except sync_api.Error:
            continue
    assert checked > 0 or size == DESKTOP
    # The banner: in view at once, the winner named, every seat ranked, why it ended, what next.
    page.wait_for_selector("#ranking li")
    assert in_viewport(page, "#result-title") and in_viewport(page, "#play-again")
    assert page.locator("#ranking li").count() == 3
    assert page.locator("#ranking li.won").count() >= 1
    reason = page.inner_text("#end-reason")
    assert ("Game over" in reason) if lang == "en" else ("ゲーム終了" in reason)
    assert not RAW_CODE.search(page.inner_text("#log"))
    for link in ("#download-record", "#replay-link", "#review-link"):
        assert page.is_visible(link)
    assert page.locator("#state-box").is_hidden()
    # Play again: the banner says who has joined the new table.
    page.click("#play-again")
    page.wait_for_selector("#rematch-offer:not([hidden])")
    assert page.is_visible("#rematch-joined")
    page.goto(url.replace("#", "?debug#"))
    page.wait_for_selector("#result:not([hidden])")
    assert page.locator("#state-box").is_visible()  # ?debug shows the raw view
    assert errors == []
    page.context.close()


# -- presence in the story -------------------------------------------------------------------------

STORY = {
    "en": ["Ben left the table.", "A bot plays for Ben (not at the table).", "Ben is back."],
    "ja": ["Benが席を離れました。", "Benの代わりにボットが打ちます（離席中）。", "Benが戻りました。"],
}


def story_lines(page: Any) -> list[str]:
    return [line.strip() for line in page.locator("#log li.story").all_inner_texts()]


def test_who_left_and_who_is_back_is_told_in_the_log_and_on_their_box(
    browser: Any, live: ProcessServer
) -> None:
    with httpx.Client(base_url=live.url, timeout=30) as http:
        created = create_table(
            http,
            "troika",
            [
                {"kind": "human", "name": "Aki"},
                {"kind": "human", "name": "Ben"},
                {"kind": "bot", "spec": "random"},
            ],
            rounds=1,
        )
    table_id = created["id"]
    ben_token = created["seats"][1]["join_url"].split("token=")[1]
    ben = Player(live.ws_url, table_id, ben_token)
    ben.view_at_least(0)
    page, errors = open_page(browser, live.url + created["seats"][0]["join_url"], DESKTOP)
    ben_mark = "[data-presence-seat='1']"
    page.wait_for_selector(f"{ben_mark}[data-presence='online']")
    assert story_lines(page) == []
    ben.close()
    # Ben left: the log says so, his mark says offline; past the grace period a bot plays for him.
    page.wait_for_selector(f"{ben_mark}[data-presence='offline']")
    page.wait_for_selector(f"{ben_mark}[data-presence='away']", timeout=20_000)
    assert story_lines(page) == STORY["en"][:2]
    ben = Player(live.ws_url, table_id, ben_token)
    page.wait_for_selector(f"#log li.story:has-text('{STORY['en'][2]}')")
    assert story_lines(page) == STORY["en"]
    # In Japanese, the same story, in order among the game's lines.
    page.click("[data-lang='ja']")
    assert story_lines(page) == STORY["ja"]
    page.wait_for_selector(f"{ben_mark}[data-presence='away'] >> text=離席中")
    ben.send({"type": "back"})
    page.wait_for_selector(f"{ben_mark}[data-presence='online']")
    page.wait_for_selector("#log li.story:has-text('Benが自分で打ちます')")
    keys = page.eval_on_selector_all("#log li", "items => items.map((li) => li.dataset.key)")
    assert len(keys) == len(set(keys)) and keys.index(f"s{1}") < keys.index(f"s{3}")
    ben.close()
    assert errors == []
    page.context.close()


# -- the chat on a phone ---------------------------------------------------------------------------


def test_a_phone_folds_the_chat_behind_a_button_with_an_unread_mark(
    browser: Any, live: ProcessServer
) -> None:
    with httpx.Client(base_url=live.url, timeout=30) as http:
        created = create_table(
            http,
            "tokkuri",
            [
                {"kind": "human", "name": "Aki"},
                {"kind": "human", "name": "Ben"},
                {"kind": "bot", "spec": "random"},
            ],
            rounds=1,
        )
    ben_token = created["seats"][1]["join_url"].split("token=")[1]
    page, errors = open_page(browser, live.url + created["seats"][0]["join_url"], PHONE)
    assert page.is_hidden("#chat-panel") and page.is_hidden("#log-panel")  # folded away
    assert page.is_visible("#show-chat") and page.is_hidden("#chat-unread")
    with Player(live.ws_url, created["id"], ben_token) as ben:
        ben.view_at_least(0)
        for text in ("hi", "good luck"):
            ben.send({"type": "chat", "text": text})
        page.wait_for_selector("#chat-unread:has-text('2')")
        page.click("#show-chat")
        assert page.is_visible("#chat-panel") and "good luck" in page.inner_text("#chat-lines")
        assert page.is_hidden("#chat-unread")
        page.click("#chat-panel .sheet-close")
        assert page.is_hidden("#chat-panel")
        page.click("#show-log")
        assert page.is_visible("#log-panel") and page.locator("#log li").count() > 0
        page.click("#log-panel .sheet-close")
    # On a desktop the chat is at the side: nothing to mark unread.
    page.set_viewport_size({"width": DESKTOP[0], "height": DESKTOP[1]})
    assert page.is_visible("#chat-panel") and page.is_visible("#log-panel") and page.is_hidden("#show-chat")
    assert errors == []
    page.context.close()


def test_the_screenshots_script_is_documented() -> None:
    """bench/screenshots.py is run by hand: the docs say how."""
    docs = (Path(__file__).parents[2] / "docs" / "playing.md").read_text()
    assert "bench/screenshots.py" in docs


# -- Japanese everywhere ---------------------------------------------------------------------------

VISIBLE_TEXT = """() => {
  const out = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  while (walker.nextNode()) {
    const node = walker.currentNode;
    const text = node.textContent.trim();
    const box = node.parentElement;
    if (!text || !box || !box.checkVisibility({ checkOpacity: true, checkVisibilityCSS: true })) continue;
    if (box.closest("[hidden], details:not([open]) > :not(summary), option:not(:checked)")) continue;
    out.push(text);
  }
  for (const node of document.querySelectorAll("[title], [placeholder], [aria-label]")) {
    if (!node.checkVisibility()) continue;
    for (const name of ["title", "placeholder", "aria-label"]) if (node.getAttribute(name)) out.push(node.getAttribute(name));
  }
  return out;
}"""


def test_the_lobby_speaks_japanese_game_names_bots_and_options(browser: Any, live: ProcessServer) -> None:
    games = httpx.get(f"{live.url}/api/games", timeout=30).json()
    # Words that are names, not English: the brand, the file format, options' names (what one types)
    # and card codes in capitals.
    # People's names (the tables in play listed, from this module's other tests) are names too.
    allowed = {"bodoge", "JSON", "Aki", "Ben"} | {o["name"] for g in games for o in g["options"]}
    page, errors = open_page(browser, live.url + "/", DESKTOP, "ja", table=False)
    page.wait_for_selector("#game option", state="attached")
    for game in games:
        if game["name"] == "highcard":
            continue
        page.select_option("#game", game["name"])
        for option in page.locator("#game option").all_inner_texts():
            assert not re.search(r"[a-z]{3,}", option), option
        for i in range(page.locator(".seat-kind").count()):
            chosen = page.locator(".seat-kind").nth(i)
            assert not re.search(r"[A-Za-z]{3,}", chosen.evaluate("s => s.selectedOptions[0].text"))
        words = [
            f"{w!r} in {text[:60]!r}"
            for text in page.evaluate(VISIBLE_TEXT)
            for w in re.findall(r"[A-Za-z]{3,}", text)
            if w not in allowed and not w.isupper()
        ]
        assert words == [], (game["name"], words)
    assert errors == []
    page.context.close()
