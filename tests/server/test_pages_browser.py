"""Every game, in English and in Japanese, on a desktop and on a phone (issue #16): played by clicking
the board (to the end in one language and size per game, every language and size among them; the
opening moves in the others), checking that the page has no script error, shows every visible word in its
language, keeps the decision panel on the phone's screen when it is your turn, and gives every tap
target at least 44×44 CSS px on the phone.

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

SIZES = {"desktop": (1280, 800), "phone": (390, 844)}
# game -> (players, options): short games.
GAMES: dict[str, tuple[int, dict[str, Any]]] = {
    "troika": (3, {"rounds": 1}),
    "tokkuri": (3, {"rounds": 1}),
    "tottarot": (3, {"target": 1}),
    "hangover": (3, {}),
}
# Every game, in both languages, at both sizes.
CASES = [(g, lang, size) for g in GAMES for lang in ("en", "ja") for size in SIZES]
# Played to the end in one language and size each (every language and size among them); the other
# cases check their pages over the opening moves (OPENING clicks): a whole game at every size and in
# every language would check the same code four times over (issue #59).
WHOLE = {
    ("troika", "en", "desktop"),
    ("tokkuri", "ja", "phone"),
    ("tottarot", "en", "phone"),
    ("hangover", "ja", "desktop"),
}
OPENING = 6
READY = "#board[data-ready='1'] .legal"
GAME_TIMEOUT = 240.0
# Words a Japanese page may show in Latin letters: the brand, the language button, the record's file
# format, and a game's own codes (a card's code is its name on the table). Bots go by Japanese names.
ALLOWED_LATIN = {"bodoge", "JSON"}
CODE = re.compile(r"^[A-Z]+$")  # card codes such as WORLD or TOWER (Tottarot's deck codes)

VISIBLE_TEXT = """() => {
  const out = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  while (walker.nextNode()) {
    const node = walker.currentNode;
    const text = node.textContent.trim();
    if (!text) continue;
    const box = node.parentElement;
    if (!box || !box.checkVisibility({ checkOpacity: true, checkVisibilityCSS: true })) continue;
    if (box.closest("#announce, [hidden], details:not([open]) > :not(summary)")) continue;
    out.push(text);
  }
  return out;
}"""

SMALL_TARGETS = """() => {
  const out = [];
  const targets = "button, a.button, .board .legal, [role=button], select, input:not([type=checkbox])";
  for (const node of document.querySelectorAll(targets)) {
    if (!node.checkVisibility({ checkVisibilityCSS: true })) continue;
    const r = node.getBoundingClientRect();
    if (r.width === 0 || r.height === 0) continue;
    if (r.width < 44 - 0.5 || r.height < 44 - 0.5) out.push(`${node.tagName}.${node.className} "${node.textContent.trim().slice(0, 20)}" ${r.width.toFixed(0)}x${r.height.toFixed(0)}`);
  }
  return out;
}"""


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


def english_words(texts: list[str]) -> list[str]:
    found = []
    for text in texts:
        for word in re.findall(r"[A-Za-z]{3,}", text):
            if word not in ALLOWED_LATIN and not CODE.match(word):
                found.append(f"{word!r} in {text[:60]!r}")
    return found


def check_the_page(page: Any, lang: str, size: str) -> None:
    """What must hold at any moment of the game."""
    texts = page.evaluate(VISIBLE_TEXT)
    assert len(texts) > 20, texts  # the walker sees the page
    if lang == "ja":
        assert english_words(texts) == []
    else:
        assert english_words(texts)  # and would see English words
    if size == "phone":
        # Measured where the pieces lie, not while one still slides there (boards/common.js: the motion).
        page.wait_for_function(
            "() => document.querySelector('#board').getAnimations({ subtree: true }).length === 0"
        )
        assert page.evaluate(SMALL_TARGETS) == []
        assert page.evaluate("document.documentElement.scrollHeight") < 3000  # not an endless page
        if page.is_visible(READY):
            box = page.locator("#decision-panel").bounding_box()
            height = SIZES["phone"][1]
            assert box is not None and box["y"] >= 0 and box["y"] < height - 40, box
            # The docked panel covers nothing to tap: each item, scrolled into view, lies above it.
            assert page.evaluate(COVERED) == []
            page.evaluate("window.scrollTo(0, 0)")


@pytest.mark.parametrize(("game", "lang", "size"), CASES)
def test_every_game_in_every_language_and_size(
    browser: Any, live: ProcessServer, game: str, lang: str, size: str
) -> None:
    players, options = GAMES[game]
    seats: list[dict[str, Any]] = [{"kind": "human", "name": "テスター" if lang == "ja" else "Tester"}]
    seats += [{"kind": "bot", "spec": "random"}] * (players - 1)
    with httpx.Client(base_url=live.url, timeout=30) as http:
        created = create_table(http, game, seats, **options)
    width, height = SIZES[size]
    context = browser.new_context(viewport={"width": width, "height": height}, locale="en-US")
    context.add_init_script(f"localStorage.setItem('bodoge.lang', '{lang}')")
    page = context.new_page()
    page.set_default_timeout(30_000)
    errors = watch_errors(page)
    page.goto(live.url + created["seats"][0]["join_url"])
    page.wait_for_selector("#status[data-state='live']")
    rng = random.Random(f"{game}{lang}{size}")
    deadline = time.monotonic() + GAME_TIMEOUT
    clicks = 0
    while True:
        page.wait_for_selector(
            f"{READY}, #result:not([hidden])", timeout=max(1000.0, (deadline - time.monotonic()) * 1000)
        )
        if page.is_visible("#result") or ((game, lang, size) not in WHOLE and clicks >= OPENING):
            break
        if clicks % 3 == 0:  # every few moves: the checks take a moment
            check_the_page(page, lang, size)
        targets = page.query_selector_all(READY)
        if not targets:
            continue
        try:
            rng.choice(targets).click(timeout=5000)
        except sync_api.Error:
            continue  # the board was redrawn under the click; look again
        clicks += 1
        assert time.monotonic() < deadline, "the game did not end in time"
    assert clicks > 0
    check_the_page(page, lang, size)
    assert errors == []
    context.close()


def test_the_replay_plays_itself_and_fetches_each_step_once(browser: Any, live: ProcessServer) -> None:
    with httpx.Client(base_url=live.url, timeout=30) as http:
        created = create_table(http, "tottarot", [{"kind": "bot", "spec": "random"}] * 3, target=1)
        table_id = created["id"]
        running = create_table(
            http, "troika", [{"kind": "human"}, {"kind": "bot", "spec": "random"}], rounds=1
        )
        deadline = time.monotonic() + 60
        while http.get(f"/api/tables/{table_id}").json()["status"] != "over":
            assert time.monotonic() < deadline
            time.sleep(0.1)
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    context.add_init_script("localStorage.setItem('bodoge.lang', 'ja')")
    page = context.new_page()
    errors = watch_errors(page)
    asked: list[str] = []
    page.on("request", lambda r: asked.append(r.url) if "/replay?" in r.url else None)
    page.goto(f"{live.url}/r/{table_id}")
    page.wait_for_selector("#replay-pos[data-move='0']")
    moves = int(page.get_attribute("#replay-move", "max"))
    page.select_option("#replay-speed", "16")
    page.click("#replay-play")
    page.wait_for_selector(f"#replay-pos[data-move='{moves}']", timeout=60_000)
    assert page.get_attribute("#replay-play", "aria-pressed") == "false"  # it stops at the end
    fetched = len(asked)
    assert fetched == len(set(asked)) and fetched >= moves  # each step once
    for _ in range(moves):  # back over every step: all from the cache
        page.click("#replay-prev")
    page.wait_for_selector("#replay-pos[data-move='0']")
    assert len(asked) == fetched
    # A game still in play explains itself, in the page's language, and offers to watch it.
    page.goto(f"{live.url}/r/{running['id']}")
    page.wait_for_selector("#notice:not([hidden]) #watch-live")
    assert "まだ続いています" in page.inner_text("#notice")
    assert errors == []
    context.close()
