"""Profiles and leaderboards in the browser (server/ratings.py, static/profile.js, leaderboard.js;
issue #57 part 3): games finished by two identified players at a table (played over their
websockets, as their pages would) show on both players' profiles, with the rating's plot, and on the
game's leaderboard, in English on a desktop and in Japanese on a phone."""

from __future__ import annotations

import asyncio
import os
import random
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest
from browser_support import sync_api, watch_errors  # noqa: F401  (skips without Chromium)
from server_helpers import ThreadServer, make_config, play_together, players

from bodoge.core.registry import game_class
from bodoge.core.registry import games as game_names
from bodoge.server.table.connection import hash_token
from bodoge.server.tables import new_table_id

SHOTS = os.environ.get("BODOGE_SHOTS")  # a folder: the test leaves its pictures there
GAMES = 3


class LoopServer(ThreadServer):
    """A ThreadServer whose event loop the test can reach: to make a table as the server's open
    tables make one (seats of identified players, their seat keys)."""

    def __init__(self, config: Any) -> None:
        super().__init__(config)
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        asyncio.set_event_loop(self.loop)
        self.loop.run_until_complete(self.server.serve(sockets=self.sockets))

    def call(self, coro: Any) -> Any:
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result(30)


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LoopServer]:
    db = f"sqlite:///{tmp_path_factory.mktemp('profiles') / 'bodoge.db'}"
    server = LoopServer(make_config(db))
    with server:
        yield server


def shot(page: Any, name: str) -> None:
    if SHOTS:
        page.screenshot(path=f"{SHOTS}/{name}.png", full_page=True)


def play_a_game(site: LoopServer, pids: list[str], seed: int) -> str:
    """Hangover for these players and a random bot, played to its end over their seats' websockets."""
    app: Any = site.server.config.app
    manager, registry = app.state.manager, app.state.players
    tid = new_table_id()
    keys = [registry.seat_key(p, tid) for p in pids]
    seats: list[dict[str, Any]] = [
        {"kind": "human", "name": n, "player": p} for n, p in zip(("Aki", "Ben"), pids, strict=True)
    ]
    seats.append({"kind": "bot", "spec": "random"})
    site.call(
        manager.create(
            "hangover", 3, {}, seats, token_hashes=[hash_token(k) for k in keys] + [None], table_id=tid
        )
    )
    with players(site.ws_url, tid, list(keys)) as conns:
        play_together(conns, random.Random(seed), timeout=60)
    return tid


def wait_rated(site: LoopServer, pid: str, games: int) -> dict[str, Any]:
    deadline = time.monotonic() + 20
    with site.http() as http:
        while True:
            profile: dict[str, Any] = http.get(f"/api/players/{pid}").json()
            if profile["ratings"] and profile["ratings"][0]["games"] == games:
                return profile
            assert time.monotonic() < deadline, profile
            time.sleep(0.1)


def test_finished_games_show_on_both_profiles_and_the_leaderboard(browser: Any, site: LoopServer) -> None:
    with site.http() as http:
        made = [http.post("/api/players", json={"name": n}).json() for n in ("Aki", "Ben")]
    aki, ben = (m["player"]["id"] for m in made)
    tables = [play_a_game(site, [aki, ben], seed) for seed in range(GAMES)]
    mine, theirs = wait_rated(site, aki, GAMES), wait_rated(site, ben, GAMES)

    desktop = browser.new_context(viewport={"width": 1280, "height": 900}, locale="en-GB")
    page = desktop.new_page()
    errors = watch_errors(page)
    page.add_init_script("localStorage.setItem('bodoge.lang', 'en')")
    page.goto(f"{site.url}/p/{aki}")
    page.get_by_role("heading", name="Aki").wait_for()
    card = page.locator(".rating-card")
    assert card.count() == 1
    number = card.locator(".rating-number").inner_text().split()[-1].replace("−", "-")
    assert float(number) == pytest.approx(mine["ratings"][0]["ordinal"], abs=0.06)
    # The plot: the start and a point per game, each a link to that game's replay.
    assert page.locator(".rating-plot a circle.point").count() == GAMES
    assert page.locator(".rating-plot circle.start").count() == 1
    hrefs = [page.locator(".rating-plot a").nth(i).get_attribute("href") for i in range(GAMES)]
    assert hrefs == [f"/r/{t}" for t in tables]
    assert "Hangover" in (page.get_by_role("img").first.get_attribute("aria-label") or "")
    # The games, newest first, each with its place, the other players and its replay.
    games = page.locator("#games > li")
    assert games.count() == GAMES
    assert [games.nth(i).get_attribute("data-table") for i in range(GAMES)] == tables[::-1]
    first = games.first
    assert first.get_by_role("link", name="Ben").get_attribute("href") == f"/p/{ben}"
    assert "Random bot" in first.inner_text()
    assert first.get_by_role("link", name="Replay").get_attribute("href") == f"/r/{tables[-1]}"
    shot(page, "profile-desktop-en")
    # Ben's profile, reached from Aki's, has the same games.
    first.get_by_role("link", name="Ben").click()
    page.get_by_role("heading", name="Ben").wait_for()
    page.locator("#games > li").nth(GAMES - 1).wait_for()
    assert [page.locator("#games > li").nth(i).get_attribute("data-table") for i in range(GAMES)] == tables[
        ::-1
    ]

    # The leaderboard lists both, best first, the bots' fixed ratings among them.
    page.locator(".rating-card").get_by_role("link", name="Leaderboards").click()
    page.wait_for_url("**/leaderboard#hangover")
    page.locator("#board-rows tr[data-player]").nth(1).wait_for()
    listed = [
        page.locator("#board-rows tr[data-player]").nth(i).get_attribute("data-player") for i in range(2)
    ]
    best = sorted([(mine, aki), (theirs, ben)], key=lambda x: -x[0]["ratings"][0]["ordinal"])
    assert listed == [pid for _, pid in best]
    assert page.locator("#board-rows tr.anchor-row").count() == 4
    assert page.get_by_role("tab", name="Troika").count() == 1
    shot(page, "leaderboard-desktop-en")
    page.get_by_role("tab", name="Troika").click()
    page.get_by_text("Nobody has a rated game of this game yet.").wait_for()
    assert errors == []
    desktop.close()

    phone = browser.new_context(viewport={"width": 390, "height": 844}, locale="ja-JP", is_mobile=True)
    page = phone.new_page()
    errors = watch_errors(page)
    page.add_init_script("localStorage.setItem('bodoge.lang', 'ja')")
    page.goto(f"{site.url}/p/{ben}")
    page.get_by_role("heading", name="レーティング").wait_for()
    page.locator("#games > li").nth(GAMES - 1).wait_for()
    assert page.get_by_role("link", name="リプレイ").count() == GAMES
    # Nothing is wider than the phone's screen.
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    shot(page, "profile-phone-ja")
    page.goto(f"{site.url}/leaderboard")
    page.locator("#board-rows tr[data-player]").nth(1).wait_for()
    selected = page.locator("[role=tab][aria-selected=true]")
    assert selected.inner_text() == game_class(game_names()[0]).title["ja"]  # the first game's, by default
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    shot(page, "leaderboard-phone-ja")
    assert errors == []
    phone.close()
