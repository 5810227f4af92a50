"""Issue #56, in the browser: bots at a table go by distinct names (faults 3), the end ranking
follows the game's winner rule (4), Learn to play comes first in the lobby (5), and the lobby and
the end of a game speak in words (9): seat kinds, stand-ins and options without raw names or JSON,
the clock help with the server's own grace, the result said once.

Skipped when Chromium or the playwright package is missing (as test_server_browser.py).
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from browser_support import watch_errors  # skips this module without Chromium or playwright
from server_helpers import ProcessServer, create_table, finished_hangover, free_port

DESKTOP = (1280, 800)
PHONE = (390, 844)
GRACE = 90  # the server's away grace here: not the default minute
GAMES = ("hangover", "tokkuri", "tottarot", "troika")
AGENTS = ("heuristic", "ismcts", "nn", "random")


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ProcessServer]:
    tmp = tmp_path_factory.mktemp("names_ranking")
    server = ProcessServer(
        f"sqlite:///{tmp / 'web.db'}", free_port(), tmp / "serve.log", extra=("--away-grace", str(GRACE))
    )
    server.start()
    yield server
    server.stop()


@pytest.fixture(scope="module")
def bots_table(live: ProcessServer) -> str:
    """A finished Tokkuri of three heuristic bots (one round)."""
    with httpx.Client(base_url=live.url, timeout=30) as http:
        created = create_table(http, "tokkuri", [{"kind": "bot", "spec": "heuristic"}] * 3, rounds=1)
        deadline = time.monotonic() + 120
        while http.get(f"/api/tables/{created['id']}").json()["status"] == "playing":
            assert time.monotonic() < deadline, "the bots' game did not end"
            time.sleep(0.2)
    return str(created["id"])


@pytest.fixture(scope="module")
def hangover_over(live: ProcessServer) -> str:
    """A finished three-player Hangover written to the server's database: seed 0 played by random
    moves, where P2 wins with 2 VP and P0 (8 VP) and P1 (5 VP) are hung over."""
    return finished_hangover(live.db, "hangover-over")


def open_page(browser: Any, url: str, size: tuple[int, int], lang: str) -> tuple[Any, list[str]]:
    context = browser.new_context(viewport={"width": size[0], "height": size[1]}, locale="en-US")
    context.add_init_script(f"localStorage.setItem('bodoge.lang', '{lang}')")
    page = context.new_page()
    page.set_default_timeout(30_000)
    errors = watch_errors(page)
    page.goto(url)
    return page, errors


# -- fault 3: every bot its own name ---------------------------------------------------------------

BOT = {"en": "Heuristic bot", "ja": "定石ボット"}
LETTERED = {"en": r"Heuristic bot [ABC]\b", "ja": r"定石ボット[ABC]"}


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_bots_at_a_table_go_by_distinct_names(
    browser: Any, live: ProcessServer, bots_table: str, lang: str
) -> None:
    page, errors = open_page(browser, f"{live.url}/t/{bots_table}", DESKTOP, lang)
    page.wait_for_selector("#ranking li")
    page.wait_for_selector("#board .pname")
    boxes = page.locator("#board .pname").all_inner_texts()
    players = page.locator("#seats tr[data-seat] td:first-child").all_inner_texts()
    ranked = page.locator("#ranking .who").all_inner_texts()
    for names in (boxes, players, ranked):
        assert len(names) == 3 and len(set(names)) == 3, names
        assert all(re.search(LETTERED[lang], name) for name in names), names
    # The log and the banner: a bot's name is never its kind alone ("Heuristic bot pays 1 to
    # Heuristic bot"), and the title names the winner by its own name.
    alone = re.compile(re.escape(BOT[lang]) + (r"(?! [ABC]\b)" if lang == "en" else r"(?![ABC])"))
    log = page.inner_text("#log")
    assert re.search(LETTERED[lang], log) and not alone.search(log), log[-400:]
    title = page.inner_text("#result-title")
    assert re.search(LETTERED[lang], title) and not alone.search(title), title
    # The replay and the lobby's list call them the same.
    page.goto(f"{live.url}/r/{bots_table}")
    page.wait_for_selector("#replay-seat option[value='2']", state="attached")
    seats = page.locator("#replay-seat option").all_inner_texts()[1:]
    assert seats == [f"P{p} {name.split(' ', 1)[1]}" for p, name in enumerate(players)], (seats, players)
    page.click("#replay-last")
    page.wait_for_selector("#log li:nth-child(6)")
    replay_log = page.inner_text("#log")
    assert re.search(LETTERED[lang], replay_log) and not alone.search(replay_log)
    page.goto(live.url + "/")
    item = page.locator(f".table-item[data-table='{bots_table}']")
    item.wait_for()
    listed = item.inner_text()
    assert all(name.split(" ", 1)[1] in listed for name in players) and not alone.search(listed), listed
    assert errors == []
    page.context.close()


# -- fault 4: the ranking follows the winner rule --------------------------------------------------


@pytest.mark.parametrize(("size", "lang"), [(DESKTOP, "en"), (PHONE, "ja")])
def test_the_winner_is_ranked_above_a_hung_over_player_with_more_vp(
    browser: Any, live: ProcessServer, hangover_over: str, size: tuple[int, int], lang: str
) -> None:
    page, errors = open_page(browser, f"{live.url}/t/{hangover_over}", size, lang)
    page.wait_for_selector("#ranking li")
    rows = page.locator("#ranking li")
    assert [rows.nth(i).get_attribute("data-seat") for i in range(3)] == ["2", "0", "1"]
    assert rows.nth(0).get_attribute("class") == "won" and rows.nth(0).inner_text().startswith("★")
    assert [rows.nth(i).locator(".place").inner_text() for i in (1, 2)] == ["2", "3"]
    # Beside it, how the game decides its winner (why 8 VP are not first).
    assert ("hung over" if lang == "en" else "ハングオーバー") in page.inner_text("#winners")
    assert errors == []
    page.context.close()


# -- fault 9: the result said once -----------------------------------------------------------------

GAME_OVER = {"en": "The game is over.", "ja": "ゲーム終了です。"}


@pytest.mark.parametrize(("size", "lang"), [(DESKTOP, "en"), (PHONE, "ja")])
def test_the_end_of_a_game_says_its_result_once(
    browser: Any, live: ProcessServer, hangover_over: str, size: tuple[int, int], lang: str
) -> None:
    page, errors = open_page(browser, f"{live.url}/t/{hangover_over}", size, lang)
    page.wait_for_selector("#ranking li")
    page.wait_for_selector("#board .explain")
    assert "Cho" in page.inner_text("#result-title")
    # The line beside the title does not name the winners again.
    assert not [name for name in ("Aki", "Ben", "Cho") if name in page.inner_text("#winners")]
    # "The game is over" is said in one place (the board's prompt), not again in the banner and
    # in an empty decision panel.
    places = ("#winners", "#board-prompt", "#decision-title", "#decision", "#end-reason")
    said = [p for p in places if page.is_visible(p) and GAME_OVER[lang] in page.inner_text(p)]
    assert len(said) == 1, said
    # The game's own account of the end ("Game over (all cards played) ... Cho wins.") once, on
    # the board, not again in the banner.
    shown = page.evaluate(
        """() => [...document.querySelectorAll('#result, #board-panel, #decision-panel')]
            .map((node) => node.innerText).join('\\n')"""
    )
    assert shown.count("Game over (" if lang == "en" else "ゲーム終了(") == 1, shown
    assert errors == []
    page.context.close()


# -- fault 5: Learn to play first ------------------------------------------------------------------


@pytest.mark.parametrize(("size", "lang"), [(DESKTOP, "en"), (PHONE, "ja")])
def test_learn_to_play_is_the_first_thing_the_lobby_shows(
    browser: Any, live: ProcessServer, size: tuple[int, int], lang: str
) -> None:
    page, errors = open_page(browser, live.url + "/", size, lang)
    page.wait_for_selector("#game option", state="attached")
    entries = page.locator(".game-entry")
    assert sorted(entries.nth(i).get_attribute("data-game") for i in range(entries.count())) == list(GAMES)
    form = page.locator("#create-form").bounding_box()
    for i in range(entries.count()):
        entry = entries.nth(i)
        game = entry.get_attribute("data-game")
        learn = entry.locator("a.learn-link")
        assert learn.is_visible() and learn.get_attribute("href") == f"/learn/{game}"
        assert entry.locator(f"a[href='/rules/{game}']").is_visible()
        assert entry.locator("button.play-bots").is_visible()
        box = entry.bounding_box()
        assert box["y"] + box["height"] <= form["y"], "the entries come before the form"
    # The first screen, unscrolled: the first game's three ways in, whole.
    first = entries.nth(0).bounding_box()
    assert first["y"] >= 0 and first["y"] + first["height"] <= size[1]
    assert page.evaluate("document.documentElement.scrollWidth") <= size[0]
    if size == DESKTOP:  # every game on the first screen
        last = entries.nth(entries.count() - 1).bounding_box()
        assert last["y"] + last["height"] <= size[1]
        # Play against bots: a practice table at once, this browser at its seat.
        entries.nth(0).locator("button.play-bots").click()
        page.wait_for_url(re.compile(r"/t/[^/#]+#token="))
        page.wait_for_selector("#status[data-state='live']")
    assert errors == []
    page.context.close()


# -- fault 9: the lobby in words -------------------------------------------------------------------

RAW = re.compile(r"[{}\[\]_]|\bnull\b|\btrue\b|\bfalse\b")


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_the_lobby_shows_seats_stand_ins_and_options_in_words(
    browser: Any, live: ProcessServer, lang: str
) -> None:
    games = httpx.get(f"{live.url}/api/games", timeout=30).json()
    identifiers = {o["name"] for g in games for o in g["options"]}
    with httpx.Client(base_url=live.url, timeout=30) as http:  # a listed table with an option set
        listed = create_table(
            http, "troika", [{"kind": "human"}, {"kind": "bot", "spec": "random"}], rounds=1
        )
    page, errors = open_page(browser, live.url + "/", DESKTOP, lang)
    page.wait_for_selector("#game option", state="attached")
    raw_kinds = set(AGENTS) | {f"Bot {a}" for a in AGENTS} | {"人", "human", "bot"}
    for game in GAMES:
        page.select_option("#game", game)
        if not page.is_visible("#options .option"):
            page.click("#options-box > summary")
        kinds = page.locator(".seat-kind option").all_inner_texts()
        standins = page.locator("#standin option").all_inner_texts()
        assert standins and not raw_kinds & set(standins), standins
        assert not raw_kinds & set(kinds), kinds
        assert all(not re.fullmatch(r"[a-z:=,0-9]+", text) for text in kinds + standins)
        labels = page.locator("#options .option label").all_inner_texts()
        assert labels and not identifiers & set(labels), labels
        form = page.inner_text("#new-table")
        assert not RAW.search(form), RAW.search(form)  # no identifier (max_rounds), JSON or null
        chosen = page.evaluate(
            "[...document.querySelectorAll('#options select')].map((s) => s.selectedOptions[0].text)"
        )
        assert all(text and not RAW.search(text) for text in chosen), chosen
        if lang == "ja":  # Japanese words, no English (VP and the like are written in capitals)
            english = [w for w in re.findall(r"[A-Za-z]{3,}", form) if not w.isupper() and w != "JSON"]
            assert english == [], (game, english)
    # The listed table says its option in words: "Rounds: 1", never {"rounds": 1}.
    item = page.locator(f".table-item[data-table='{listed['id']}']")
    item.wait_for()
    text = item.inner_text()
    assert ("Rounds: 1" if lang == "en" else "ラウンド数: 1") in text and not RAW.search(text), text
    assert errors == []
    page.context.close()


@pytest.mark.parametrize(("lang", "words"), [("en", "away longer than 90 seconds"), ("ja", "90秒以上の離席")])
def test_the_clock_help_says_the_servers_grace(
    browser: Any, live: ProcessServer, lang: str, words: str
) -> None:
    page, errors = open_page(browser, live.url + "/", PHONE, lang)
    page.wait_for_selector("#game option", state="attached")
    help_box = page.locator("#clock-help")
    deadline = time.monotonic() + 20
    while not (help_text := help_box.inner_text()):  # (wait_for_function evaluates text: the CSP refuses it)
        assert time.monotonic() < deadline, "the clock help never came"
        time.sleep(0.05)
    assert words in help_text and ("a minute" not in help_text and "1分" not in help_text), help_text
    assert errors == []
    page.context.close()
