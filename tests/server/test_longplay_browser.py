"""A game over days in the browser (issue #57 part 4): an identified player and a bot on a clock over
days; the server is killed mid-game and started again; the page comes back to the same position and
story, and when the bot has moved the player hears of it: the title, and a notification while the
page is not in front. The page /me lists the table, their move first, with the count in its title."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from browser_support import watch_errors
from server_helpers import ProcessServer, free_port

from bodoge.core.registry import make
from bodoge.server.players import Players
from bodoge.server.storage import Storage, TableRow
from bodoge.server.table.connection import hash_token

SHOTS = Path("/tmp/shots57/longplay")
DAYS = {"turn_seconds": 86400, "reserve_seconds": 2 * 86400, "long": True}
ENABLED = "#actions button.action:not([disabled])"

# Before any page script: notifications are recorded instead of shown, the page can be made "hidden"
# (as when its tab is in the background), and asking for the permission is counted.
RECORDER = """
window.__notes = [];
window.__asked = 0;
window.__hidden = false;
Object.defineProperty(Document.prototype, "hidden", { configurable: true, get() { return window.__hidden; } });
Object.defineProperty(Document.prototype, "visibilityState", {
  configurable: true, get() { return window.__hidden ? "hidden" : "visible"; } });
const Real = window.Notification;
class Recorded {
  constructor(title, options) { window.__notes.push({ title, body: (options || {}).body }); }
  close() {}
  static get permission() { return Real ? Real.permission : "default"; }
  static requestPermission() { window.__asked += 1; return Real.requestPermission(); }
}
window.Notification = Recorded;
"""


def forge_table(db: str, name: str, table_id: str, seat: int = 0) -> tuple[str, str]:
    """A player `name` (their key) at a two-player Troika over days against a bot, at `seat` (seat 0
    moves first), made as an open table makes it (server/seating.py): their seat opened by their seat
    key. Returns (key, link)."""
    storage = Storage(db)
    try:
        players = Players(storage.engine)
        player, key = players.create(name, "en")
        game = make("troika", 2)
        state = game.new_state(seed=3)
        now = time.time()
        person = {"kind": "human", "name": name, "player": player.id}
        bot = {"kind": "bot", "name": "random", "spec": "random"}
        row = TableRow(
            id=table_id, game="troika", rules_version=game.rules_version, players=2,
            options=game.options_json(), seed=3,
            seats=[person, bot] if seat == 0 else [bot, person],
            token_hashes=[hash_token(players.seat_key(player.id, table_id)) if i == seat else None for i in range(2)],
            created_at=now, updated_at=now, settings={"clock": DAYS}, to_move=[state.current_player or 0],
        )  # fmt: skip
        storage.create_tables([row])
        return key, f"/t/{table_id}#token={players.seat_key(player.id, table_id)}"
    finally:
        storage.close()


@pytest.fixture
def site(tmp_path: Path) -> Iterator[ProcessServer]:
    server = ProcessServer(
        f"sqlite:///{tmp_path / 'days.db'}", free_port(), tmp_path / "serve.log", bot_delay=4.0
    )
    yield server
    server.stop()


def table(server: ProcessServer, table_id: str) -> dict[str, Any]:
    answer = httpx.get(f"{server.url}/api/tables/{table_id}", timeout=10)
    assert answer.status_code == 200, answer.text
    found: dict[str, Any] = answer.json()
    return found


def wait_until(check: Any, timeout: float = 30, what: str = "it") -> Any:
    deadline = time.monotonic() + timeout
    while not (got := check()):
        assert time.monotonic() < deadline, f"{what} did not happen within {timeout} s"
        time.sleep(0.1)
    return got


def test_a_game_over_days_survives_a_restart_and_calls_its_player(browser: Any, site: ProcessServer) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    key, link = forge_table(site.db, "Ann", "days")
    site.start()
    context = browser.new_context(viewport={"width": 1280, "height": 860}, permissions=["notifications"])
    context.add_init_script(RECORDER)
    page = context.new_page()
    errors = watch_errors(page)
    try:
        # The recovery link makes this browser Ann; /me lists her table, her move, counted in the title.
        page.goto(f"{site.url}/me#key={key}")
        page.wait_for_selector(".me-table.yours")
        assert page.title() == "(1) Your move — bodoge"
        assert page.get_attribute(".me-table.yours .me-open", "href") == link
        assert page.locator(".me-deadline").first.inner_text().startswith("time left 2 d 23 h")
        page.screenshot(path=str(SHOTS / "me-desktop-en.png"), full_page=True)

        page.click(".me-table.yours .me-open")
        page.wait_for_selector(ENABLED)
        page.click(f"{ENABLED} >> nth=0")
        # Ann leaves and comes back: the story says so.
        page.goto(f"{site.url}/me")
        page.wait_for_selector(".me-table")
        page.goto(f"{site.url}{link}")
        wait_until(
            lambda: [e["what"] for e in table(site, "days")["story"]] == ["left", "back"], what="the story"
        )
        # Ann plays until it is the bot's move (it thinks for 4 s), and then the server is killed.
        while table(site, "days")["current_player"] == 0:
            moves = table(site, "days")["moves"]
            page.wait_for_selector(ENABLED)
            page.click(f"{ENABLED} >> nth=0")
            wait_until(lambda m=moves: table(site, "days")["moves"] > m, what="Ann's move")  # type: ignore[misc]
        before = table(site, "days")
        site.kill()
        page.evaluate(
            "() => { window.__hidden = true; document.dispatchEvent(new Event('visibilitychange')); }"
        )
        site.start()

        after = table(site, "days")
        assert after["moves"] == before["moves"] and after["story"] == before["story"]
        assert after["clock"]["deadline"] == before["clock"]["deadline"] is None  # the bot's move: untimed
        # The page reconnects by itself; the bot moves; it is Ann's move: the title and a notification.
        page.wait_for_function("() => document.title.startsWith('▶')", timeout=30000)
        notes = page.evaluate("() => window.__notes")
        assert notes == [{"title": "Your move", "body": "Troika: it is your move"}], notes
        now = table(site, "days")
        assert now["moves"] == before["moves"] + 1 and now["current_player"] == 0
        assert now["clock"]["seat"] == 0 and now["clock"]["running"]
        # The same position (the page's move is the server's) and the same story on the page.
        page.wait_for_selector(ENABLED)
        log = page.inner_text("#log")
        assert "Ann left the table." in log and "Ann is back." in log
        assert page.evaluate("() => window.__asked") == 0  # granted already: never asked
        page.screenshot(path=str(SHOTS / "table-after-restart-desktop-en.png"))
        assert not errors, errors
    finally:
        context.close()


def test_your_tables_on_a_phone_in_japanese_and_asking_for_notifications(
    browser: Any, site: ProcessServer
) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    key, _link = forge_table(site.db, "Aki", "hibi")
    site.start()
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    context.add_init_script(RECORDER + "localStorage.setItem('bodoge.lang', 'ja');")
    page = context.new_page()
    errors = watch_errors(page)
    try:
        page.goto(f"{site.url}/me#key={key}")
        page.wait_for_selector(".me-table.yours")
        assert page.title() == "(1) あなたの番 — bodoge"
        assert "残り2日23時間" in page.inner_text(".me-table.yours")
        # The permission is asked for only by the button, never by the page itself.
        assert page.evaluate("() => window.__asked") == 0
        page.screenshot(path=str(SHOTS / "me-phone-ja.png"), full_page=True)
        page.click(".attention-ask")
        wait_until(lambda: page.evaluate("() => window.__asked") == 1, what="the ask")
        assert not errors, errors
    finally:
        context.close()


def test_your_tables_page_calls_you_when_a_table_becomes_your_move(browser: Any, site: ProcessServer) -> None:
    key, link = forge_table(site.db, "Cho", "later", seat=1)  # the bot moves first (after 4 s)
    site.start()
    context = browser.new_context(permissions=["notifications"])
    context.add_init_script(RECORDER)
    page = context.new_page()
    errors = watch_errors(page)
    try:
        page.goto(f"{site.url}/me#key={key}")
        page.wait_for_selector(".me-table:not(.yours)")
        assert page.title() == "Your tables — bodoge"
        assert "waiting for Random bot" in page.inner_text(".me-table")
        page.evaluate("() => { window.__hidden = true; }")  # the page goes to the background
        wait_until(lambda: table(site, "later")["current_player"] == 1, what="the bot's move")
        page.evaluate("() => window.bodogeMe.refresh()")  # the next poll
        page.wait_for_selector(".me-table.yours")
        assert page.title() == "(1) Your move — bodoge"
        assert page.evaluate("() => window.__notes") == [
            {"title": "Your move", "body": "Troika: it is your move"}
        ]
        page.evaluate("() => window.bodogeMe.refresh()")  # still Cho's move: told once only
        assert len(page.evaluate("() => window.__notes")) == 1
        assert page.get_attribute(".me-table.yours .me-open", "href") == link
        assert not errors, errors
    finally:
        context.close()
