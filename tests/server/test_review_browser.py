"""The replay page's game review (issue #33, static/review.js), in English and Japanese, on a desktop
and a phone: asked for with one click, then each seat's win chance drawn under the board (a click on
the graph goes to that move), marks at the mistakes, and the options of the decision shown with their
values; no script error or CSP violation, every word in the page's language, 44 px tap targets.

Skipped when Chromium or the playwright package is missing (as test_pages_browser.py).
"""

from __future__ import annotations

import time
from typing import Any

import httpx
import pytest
from browser_support import watch_errors  # skips this module without Chromium or playwright
from server_helpers import ProcessServer, create_table
from test_pages_browser import SIZES, SMALL_TARGETS, VISIBLE_TEXT, english_words

SEATS = [{"kind": "bot", "spec": spec} for spec in ("heuristic", "random", "heuristic", "random")]


@pytest.fixture(scope="module")
def finished(live: ProcessServer) -> str:
    """A four-player Tottarot game of bots, over (its review is asked for by the first test)."""
    with httpx.Client(base_url=live.url, timeout=30) as http:
        table_id: str = create_table(http, "tottarot", SEATS)["id"]
        deadline = time.monotonic() + 120
        while http.get(f"/api/tables/{table_id}").json()["status"] != "over":
            assert time.monotonic() < deadline
            time.sleep(0.1)
    return table_id


@pytest.mark.parametrize(("lang", "size"), [(lang, size) for lang in ("en", "ja") for size in SIZES])
def test_the_review_under_the_replay(
    browser: Any, live: ProcessServer, finished: str, lang: str, size: str
) -> None:
    width, height = SIZES[size]
    context = browser.new_context(viewport={"width": width, "height": height})
    context.add_init_script(f"localStorage.setItem('bodoge.lang', '{lang}')")
    page = context.new_page()
    errors = watch_errors(page)
    page.goto(f"{live.url}/r/{finished}")
    page.wait_for_selector("#replay-pos[data-move='0']")
    page.wait_for_selector("#review-panel:not([hidden])")
    if page.is_visible("#review-ask"):  # the first look: nobody has asked yet
        page.click("#review-ask")
    page.wait_for_selector("#review-graph svg", timeout=120_000)
    review = httpx.get(f"{live.url}/api/tables/{finished}/review", timeout=30).json()["review"]
    assert page.locator("#review-graph polyline").count() == 4  # a line per seat
    mistakes = [d for d in review["decisions"] if d["class"] in ("inaccuracy", "mistake", "blunder")]
    assert page.locator("#review-graph .rv-mark").count() == len(mistakes)
    assert page.locator("#review-seats tr").count() == 4
    # A click on the graph goes to the move under it; the panel shows that decision's options.
    target = next(d for d in review["decisions"] if len(d["options"]) > 1 and d["move"] > 0)
    page.locator("#review-graph svg").scroll_into_view_if_needed()
    box = page.locator("#review-graph svg").bounding_box()
    assert box is not None
    left, right = 38, 34  # review.js's margins, in the SVG's own units (its viewBox)
    view_box = page.locator("#review-graph svg").get_attribute("viewBox")
    assert view_box is not None
    units = float(view_box.split()[2])
    scale = box["width"] / units  # CSS px per unit: 1 unless the page scaled the graph
    # the middle of the move's column, in the page's units, as review.js reads a click back
    x = box["x"] + scale * (left + target["move"] / review["actions"] * (units - left - right))
    page.mouse.click(x, box["y"] + box["height"] / 2)
    page.wait_for_selector(f"#replay-pos[data-move='{target['move']}']")
    options = page.locator("#review-move .rv-options li")
    assert options.count() == len(target["options"])
    assert page.locator("#review-move .rv-played").count() == 1
    shown = page.inner_text("#review-move")
    best = max(target["options"], key=lambda o: (o["value"], -o["action"]))
    assert best["text_ja" if lang == "ja" else "text"] in shown
    if mistakes:  # "next mistake" goes to the first one after the move shown
        page.click("#replay-first")
        page.wait_for_selector("#replay-pos[data-move='0']")
        later = [d for d in mistakes if d["move"] > 0]  # "next" skips the one shown (a first bid can be one)
        if later:
            page.click("#review-next-mistake")
            page.wait_for_selector(f"#replay-pos[data-move='{later[0]['move']}']")
    # The panel opens with each seat's biggest mistake; its button goes to that move.
    assert page.locator("#review-biggest li").count() == 4
    worst = [s for s in review["seats"] if s["biggest_mistake"]]
    if worst:
        seat = worst[0]
        move = seat["biggest_mistake"]["move"]
        item = page.locator(f"#review-biggest li[data-seat='{seat['seat']}']")
        assert (
            seat["biggest_mistake"]["chosen_text_ja" if lang == "ja" else "chosen_text"] in item.inner_text()
        )
        page.click("#replay-first")
        page.wait_for_selector("#replay-pos[data-move='0']")
        page.click(f"#review-biggest-{seat['seat']}")
        page.wait_for_selector(f"#replay-pos[data-move='{move}']")
    # The win chance's 95% band: one per seat when all are shown.
    assert page.locator("#review-graph polygon.rv-band").count() == 4
    texts = page.evaluate(VISIBLE_TEXT)
    if lang == "ja":
        assert english_words(texts) == []
    if size == "phone":
        assert page.evaluate(SMALL_TARGETS) == []
    assert errors == []
    context.close()


def test_the_table_end_offers_the_review(browser: Any, live: ProcessServer) -> None:
    """A finished table's result panel has "Review this game": one click asks the server for the
    review and follows to the replay page, where it comes (nobody had asked for this table's yet)."""
    with httpx.Client(base_url=live.url, timeout=30) as http:
        table = create_table(http, "hangover", SEATS[:3])
        table_id = table["id"]
        deadline = time.monotonic() + 120
        while http.get(f"/api/tables/{table_id}").json()["status"] != "over":
            assert time.monotonic() < deadline
            time.sleep(0.1)
        assert http.get(f"/api/tables/{table_id}/review").json()["status"] == "none"
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    errors = watch_errors(page)
    page.goto(f"{live.url}/t/{table_id}")
    page.wait_for_selector("#review-link:visible")
    assert page.inner_text("#review-link") == "Review this game"
    page.click("#review-link")
    page.wait_for_url(f"**/r/{table_id}")
    page.wait_for_selector("#review-graph svg", timeout=120_000)  # asked by the click: no button needed
    assert httpx.get(f"{live.url}/api/tables/{table_id}/review", timeout=30).json()["status"] == "done"
    assert errors == []


# A review as the page gets it, changed on the way (Playwright's route): a decision said unclear,
# another even, a seat without a mistake: whatever the deals of this game happened to say.
CHANGE_REVIEW = """(answer) => {
  const r = answer.review;
  const open = r.decisions.filter((d) => d.options.length > 1 && d.move > 0);
  open[0].class = "unclear";
  open[0].loss_low = -0.01;
  open[1].class = "even";
  r.seats[0].biggest_mistake = null;
  r.seats[0].judged = 7;
  return answer;
}"""


def reviewed(live: ProcessServer, table_id: str) -> dict[str, Any]:
    """The table's review, asked for and waited on."""
    with httpx.Client(base_url=live.url, timeout=30) as http:
        http.post(f"/api/tables/{table_id}/review", json={})
        deadline = time.monotonic() + 120
        while (answer := http.get(f"/api/tables/{table_id}/review").json())["status"] != "done":
            assert answer["status"] in ("queued", "running") and time.monotonic() < deadline, answer
            time.sleep(0.5)
    review: dict[str, Any] = answer["review"]
    return review


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_unclear_and_even_are_never_called_good(
    browser: Any, live: ProcessServer, finished: str, lang: str
) -> None:
    """An unclear decision shows its class and its loss interval in words, an even one says there
    was nothing to choose: neither is labelled good (or best); a seat with no mistake says so, with
    the number of its judged decisions; with one seat chosen, its band alone is drawn."""
    reviewed(live, finished)
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    context.add_init_script(f"localStorage.setItem('bodoge.lang', '{lang}')")
    page = context.new_page()
    errors = watch_errors(page)
    changed: dict[str, Any] = {}

    def change(route: Any) -> None:
        response = route.fetch()
        answer = page.evaluate(CHANGE_REVIEW, response.json())
        changed.update(answer["review"])
        route.fulfill(response=response, json=answer)

    page.route(f"**/api/tables/{finished}/review", change)
    page.goto(f"{live.url}/r/{finished}")
    page.wait_for_selector("#review-graph svg", timeout=60_000)
    good = {"en": ("Good", "Best"), "ja": ("良い手", "最善")}[lang]
    words = {"en": ("Unclear", "Nothing to choose"), "ja": ("不明", "どれでも同じ")}[lang]
    for cls, word in zip(("unclear", "even"), words, strict=True):
        d = next(d for d in changed["decisions"] if d["class"] == cls)
        page.locator("#replay-move").evaluate(
            "(node, move) => { node.value = move; node.dispatchEvent(new Event('input')); }", d["move"]
        )
        page.wait_for_selector(f"#replay-pos[data-move='{d['move']}']")
        label = page.locator("#review-move .rv-head .rv-class")
        assert label.get_attribute("class") == f"rv-class rv-{cls}"
        text = label.inner_text()
        assert word in text and not any(g in text for g in good)
        said = page.inner_text("#review-said")
        if cls == "unclear":  # the interval in words, its low end never below 0
            high = f"{max(0.0, d['loss_high']) * 100:.1f}"
            assert "0.0" in said and high in said, said
        assert page.locator("#review-move .rv-tag-best").count() == (1 if cls == "unclear" else 0)
    clean = page.inner_text("#review-biggest li[data-seat='0']")
    assert ("7 judged" if lang == "en" else "7手") in clean
    assert page.locator("#review-biggest-0").count() == 0  # nothing to jump to
    page.select_option("#replay-seat", "1")
    # (drawn again once the seat's view came: the one band left is the seat's)
    page.wait_for_function("() => document.querySelectorAll('#review-graph polygon.rv-band').length === 1")
    assert page.get_attribute("#review-graph polygon.rv-band", "data-seat") == "1"
    assert page.locator("#review-biggest li").count() == 1
    assert errors == []
    context.close()
