"""The game boards in a real browser: a full game of each game played by clicking the board itself
(tiles, cards, bottles, tokens), in English and in Japanese; the language toggle; the replay viewer.
Screenshots of every board land in artifacts/screenshots/ (not committed) to be looked at.

Skipped when Chromium or the playwright package is missing (as test_server_browser.py).
"""

from __future__ import annotations

import random
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from browser_support import sync_api, watch_errors  # skips this module without Chromium or playwright
from server_helpers import ProcessServer, create_table

from bodoge.core.registry import make

SHOTS = Path(__file__).resolve().parents[2] / "artifacts" / "screenshots"
GAME_TIMEOUT = 240.0

# game -> (players, options, language of the page): short games, both languages covered.
GAMES: dict[str, tuple[int, dict[str, Any], str]] = {
    "troika": (3, {"rounds": 1}, "en"),
    "tokkuri": (3, {"rounds": 1}, "ja"),
    "tottarot": (3, {"target": 1}, "en"),
    "hangover": (3, {}, "ja"),
}
READY = "#board[data-ready='1'] .legal"


def new_page(browser: Any, lang: str, width: int = 1280, height: int = 900) -> tuple[Any, list[str]]:
    context = browser.new_context(viewport={"width": width, "height": height}, locale="en-US")
    context.add_init_script(f"localStorage.setItem('bodoge.lang', '{lang}')")
    page = context.new_page()
    page.set_default_timeout(30_000)
    return page, watch_errors(page)


def shot(page: Any, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


def new_table(live: ProcessServer, game: str, players: int, options: dict[str, Any]) -> dict[str, Any]:
    seats: list[dict[str, Any]] = [{"kind": "human", "name": "Tester"}]
    seats += [{"kind": "bot", "spec": "random"}] * (players - 1)
    with httpx.Client(base_url=live.url, timeout=30) as http:
        return create_table(http, game, seats, **options)


def play_on_the_board(page: Any, rng: random.Random, game: str, lang: str) -> int:
    """Click random highlighted board elements until the game ends; returns the clicks."""
    deadline = time.monotonic() + GAME_TIMEOUT
    clicks = 0
    shots = {5, 25}
    while True:
        left_ms = max(1000.0, (deadline - time.monotonic()) * 1000)
        page.wait_for_selector(f"{READY}, #result:not([hidden])", timeout=left_ms)
        if page.is_visible("#result"):
            return clicks
        if clicks in shots:
            shots.discard(clicks)
            shot(page, f"{game}-{lang}-move{clicks}")
        targets = page.query_selector_all(READY)
        if not targets:
            continue
        try:
            rng.choice(targets).click(timeout=5000)
        except sync_api.Error:
            continue  # the board was redrawn under the click; look again
        clicks += 1
        assert time.monotonic() < deadline, "the game did not end in time"
        assert clicks < 3000


@pytest.mark.parametrize("game", list(GAMES))
def test_play_a_full_game_by_clicking_the_board(browser: Any, live: ProcessServer, game: str) -> None:
    players, options, lang = GAMES[game]
    created = new_table(live, game, players, options)
    page, errors = new_page(browser, lang)
    page.goto(live.url + created["seats"][0]["join_url"])
    page.wait_for_selector("#status[data-state='live']")
    page.wait_for_selector(f"#board .board-{game}")
    clicks = play_on_the_board(page, random.Random(game), game, lang)
    assert clicks > 0
    page.wait_for_selector("#board .winner, #board .explain")
    assert page.inner_text("#board-prompt").strip() == (
        "ゲーム終了です。" if lang == "ja" else "The game is over."
    )
    shot(page, f"{game}-{lang}-end")
    # The replay viewer: step through the finished game from a seat's view and with all cards shown.
    page.click("#replay-link")
    page.wait_for_selector(f"#replay-board .board-{game}")
    moves = int(page.get_attribute("#replay-move", "max"))
    assert moves > 0
    page.click("#replay-next")
    page.wait_for_selector("#replay-pos[data-move='1']")
    page.select_option("#replay-seat", "all")
    # One omniscient board, not one per seat.
    page.wait_for_selector(f"#replay-board[data-seat='all'] .board-{game}")
    assert page.locator("#replay-board .board").count() == 1
    page.click("#replay-last")
    page.wait_for_selector(f"#replay-pos[data-move='{moves}']")
    shot(page, f"{game}-{lang}-replay-all")
    page.select_option("#replay-seat", "1")
    page.wait_for_selector("#replay-board[data-seat='1']")
    assert page.locator("#replay-board .legal").count() == 0  # a replay is never playable
    assert not errors
    page.context.close()


def test_language_toggle_and_phone_layout(browser: Any, live: ProcessServer) -> None:
    created = new_table(live, "troika", 3, {"rounds": 1})
    page, errors = new_page(browser, "en", width=390, height=844)
    page.goto(live.url + created["seats"][0]["join_url"])
    page.wait_for_selector(READY)
    assert "Container" in page.inner_text("#board")
    page.click("[data-lang='ja']")
    page.wait_for_selector("#board :text('コンテナ')")
    assert "採掘場" in page.inner_text("#board")
    assert "あなたの手番" in page.inner_text("#board-prompt")
    # The log speaks Japanese too: each event's "text_ja" (Troika's round start names 始まりの冒険者).
    # On a phone it is folded behind the Log button (issue #31).
    page.click("#show-log")
    page.wait_for_selector("#log li:has-text('始まりの冒険者')")
    assert "Round 1 begins" not in page.inner_text("#log")
    page.click("#log-panel .sheet-close")
    # In Japanese a "text_ja" / "decision_ja" is preferred, and the English is the fallback without one.
    assert page.evaluate(
        """() => [
            eventText({type: "x", text: "en", text_ja: "日本語"}), eventText({type: "x", text: "en"}),
            decisionText({decision: "en", decision_ja: "日本語"}), decisionText({decision: "en"}),
        ]"""
    ) == ["日本語", "en", "日本語", "en"]
    # Nothing wider than the phone's screen.
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 400, width
    shot(page, "troika-ja-phone")
    page.click("[data-lang='en']")
    page.wait_for_selector("#board :text('Container')")
    page.click("#show-log")
    page.wait_for_selector("#log li:has-text('Round 1 begins')")
    assert "始まりの冒険者" not in page.inner_text("#log")
    page.click("#log-panel .sheet-close")
    assert page.evaluate("() => decisionText({decision: 'en', decision_ja: '日本語'})") == "en"
    # Keyboard: the digit keys pick a legal action.
    before = page.inner_text("#board")
    page.keyboard.press("1")
    page.wait_for_function("(b) => document.querySelector('#board').innerText !== b", arg=before)
    assert not errors
    page.context.close()


# -- the last move: the piece that moved, not every piece of its face value (issue #31) -------------


def troika_take_beside_its_twins() -> tuple[dict[str, Any], int, int]:
    """A spectator's view of Troika right after a seat took tile n into its container while another
    tile n lies face up elsewhere (the mine or another container): (view, n, taker)."""
    for seed in range(200):
        state = make("troika", 4).new_state(seed=seed)
        rng = random.Random(seed)
        while not state.is_terminal:
            state.apply(rng.choice(state.legal_actions()))
            view = state.view(None)
            moved = [e for e in view["log"] if e.get("seat") is not None]
            if not moved or moved[-1]["type"] != "take":
                continue
            n, taker = moved[-1]["tile"], moved[-1]["seat"]
            others = [c for p, c in enumerate(view["containers"]) if p != taker]
            twins = view["mine"].count(n) + sum(c.count(n) for c in others)
            if twins and view["containers"][taker].count(n) == 1:
                return view, n, taker
    raise AssertionError("no Troika game took a tile beside its twin")


def troika_my_turn_after_a_take() -> tuple[dict[str, Any], int, int]:
    """Seat 0's view of Troika on its decision, with a tile n taken by another seat since seat 0's
    own last move (and a tile flipped for seat 0 at its turn's start, after that take): (view, n,
    taker)."""
    for seed in range(200):
        state = make("troika", 4).new_state(seed=seed)
        rng = random.Random(seed)
        after_mine = None  # the log's length right after seat 0's last action
        while not state.is_terminal:
            seat = state.current_player
            state.apply(rng.choice(state.legal_actions()))
            view = state.view(0)
            if seat == 0:
                after_mine = len(view["log"])
            if after_mine is None or state.current_player != 0 or not view["legal_actions"]:
                continue
            since = view["log"][after_mine:]
            takes = [e for e in since if e["type"] == "take" and e["seat"] != 0]
            if takes and since[-1].get("seat") == 0:
                n, taker = takes[-1]["tile"], takes[-1]["seat"]
                if view["containers"][taker].count(n) == 1:
                    return view, n, taker
    raise AssertionError("no Troika game came back to seat 0 after another seat took a tile")


def tokkuri_drink_with_a_twin_in_a_hand() -> tuple[dict[str, Any], list[dict[str, Any]], str]:
    """Tokkuri's spectator view and the seats' views (a replay with every hand shown) right after a
    seat played card c to drink while another seat holds a card c: (spectator, seats' views, c)."""
    for seed in range(200):
        state = make("tokkuri", 3).new_state(seed=seed)
        rng = random.Random(seed)
        while not state.is_terminal:
            state.apply(rng.choice(state.legal_actions()))
            view = state.view(None)
            last = view["log"][-1] if view["log"] else {}
            if last.get("type") != "drink" or not last.get("card"):
                continue
            views = [state.view(p) for p in range(3)]
            if any(last["card"] in v["hand"] for v in views):
                return view, views, last["card"]
    raise AssertionError("no Tokkuri game drank with a card another hand holds")


LIT = """([game, view, views]) => {
    const opts = { seatName: (p) => `P${p}`, send() {}, setPending() {} };
    const shown = views ? omniscientView(game, view, views) : view;
    const drawn = renderBoard(game, shown, views ? { ...opts, seatViews: views } : opts);
    return [...drawn.node.querySelectorAll(".last-move")]
        .filter((node) => !node.classList.contains("ptag") && !node.classList.contains("pbox"))
        .map((node) => ({ place: node.dataset.place || null, key: node.dataset.n || node.dataset.code || node.dataset.id || null }));
}"""


def test_the_last_move_lights_the_piece_that_moved_not_its_twins(browser: Any, live: ProcessServer) -> None:
    """Troika: the tile just taken lights in the taker's container, not every tile of its number on
    the table; Tokkuri (a replay with every hand shown): a card played to drink left the hand, and
    the card of the same number in another hand does not light."""
    with httpx.Client(base_url=live.url, timeout=30) as http:
        created = create_table(http, "tottarot", [{"kind": "human"}] * 3)
    page, errors = new_page(browser, "en")
    page.goto(live.url + created["spectator_url"])  # a page that draws boards
    page.wait_for_selector("#status[data-state='live']")
    page.evaluate("Promise.all(['troika', 'tokkuri'].map(loadBoard))")  # it loads its own game's only

    view, n, taker = troika_take_beside_its_twins()
    lit = page.evaluate(LIT, ["troika", view, None])
    tiles_n = [x for x in lit if x["key"] == str(n)]
    assert tiles_n == [{"place": f"container:{taker}", "key": str(n)}], (n, taker, lit)
    # (Tiles flipped face up into the mine in that same run of moves light there, and nowhere else.)
    assert all(x["place"] in ("mine", f"container:{taker}") for x in lit), lit

    # On my own decision the others' moves since my last one stay lit, though my turn began with a
    # tile flipped for me (an event of my seat, not a move of mine).
    view, n, taker = troika_my_turn_after_a_take()
    lit = page.evaluate(LIT, ["troika", view, None])
    assert {"place": f"container:{taker}", "key": str(n)} in lit, (n, taker, lit)

    spectator, views, code = tokkuri_drink_with_a_twin_in_a_hand()
    lit = page.evaluate(LIT, ["tokkuri", spectator, views])
    assert not [x for x in lit if x["key"] == code], (code, lit)
    assert not errors
    page.context.close()
