"""The boards as games (issue #31) in a real browser: every drawn component names itself in words in
the page's language, a face-down one shows its game's back, your own box sits at the bottom edge of
the table, the boards fit a phone's width, and the motion: none with reduced motion, animations after
a bot's move otherwise, and the board they leave is exactly a redraw of the view.

Views are made here by playing random games with the engine, and drawn in the page with the boards'
own renderBoard (a spectator page of a table of humans, where nothing moves by itself).

Skipped when Chromium or the playwright package is missing (as test_server_browser.py).
"""

from __future__ import annotations

import json
import random
import re
from typing import Any

import httpx
import pytest
from browser_support import watch_errors  # skips this module without Chromium or playwright
from server_helpers import ProcessServer, create_table

from bodoge.core.registry import make

GAMES = {"tokkuri": 3, "tottarot": 4, "hangover": 4, "troika": 4}
# Each game's kinds of drawn component (art.css: .pc-KIND).
KINDS = {
    "tokkuri": {"tk-card", "tk-bottle"},
    "tottarot": {"tt-card", "tt-chip"},
    "hangover": {"hg-card", "hg-snack"},
    "troika": {"tr-tile"},
}
# Codes that must never be read out: Hangover's drink cards (R4, B5^), Tottarot's fates (SUN).
RAW_CODE = re.compile(r"\^|\b[RBYG]\d+\b|\b(WORLD|SUN|LOVERS|WHEEL|MOON|TOWER|DEVIL)\b")


def roundtrip(value: Any) -> Any:
    return json.loads(json.dumps(value))


def positions(game: str, seed: int = 3) -> dict[str, Any]:
    """Views of one random game: seat 0's and seat 1's mid-game, the spectator's with every seat's
    view (a replay with all cards shown), and seat 0's at the end."""
    players = GAMES[game]
    state = make(game, players).new_state(seed=seed)
    rng = random.Random(seed)
    out: dict[str, Any] = {}
    moves = 0
    while not state.is_terminal:
        state.apply(rng.choice(state.legal_actions()))
        moves += 1
        if "mid0" not in out and moves >= 12 and state.current_player == 0:
            out["mid0"] = roundtrip(state.view(0))
            out["mid1"] = roundtrip(state.view(1))
            out["all"] = [roundtrip(state.view(None)), [roundtrip(state.view(p)) for p in range(players)]]
    out["end"] = roundtrip(state.view(0))
    assert "mid0" in out, f"{game}: seat 0 never moved after move 12"
    return out


DRAW = """([game, view, views]) => {
  const opts = { seatName: (p) => `P${p}`, send() {}, setPending() {} };
  const shown = views ? omniscientView(game, view, views) : view;
  const drawn = renderBoard(game, shown, views ? { ...opts, seatViews: views } : opts);
  document.getElementById('board').replaceChildren(drawn.node);
  return [...drawn.node.querySelectorAll('.pc:not(.pile-empty)')].map((node) => ({
    kind: [...node.classList].find((c) => c.startsWith('pc-')).slice(3),
    back: node.classList.contains('back'),
    label: node.getAttribute('aria-label'),
    hidden: node.getAttribute('aria-hidden') === 'true' || !!node.parentElement.closest('[aria-label]'),
    texts: [...node.querySelectorAll('text')].map((t) => t.textContent),
    svg: node.tagName === 'svg' || !!node.querySelector('svg'),
  }));
}"""


@pytest.fixture(scope="module")
def views() -> dict[str, dict[str, Any]]:
    return {game: positions(game) for game in GAMES}


def open_board_page(
    browser: Any, live: ProcessServer, lang: str, width: int = 1280, motion: str = "reduce"
) -> tuple[Any, list[str]]:
    """A spectator's page of a Troika table of humans (every game's board loaded, nothing moves)."""
    with httpx.Client(base_url=live.url, timeout=30) as http:
        created = create_table(http, "troika", [{"kind": "human"}] * 3)
    context = browser.new_context(
        viewport={"width": width, "height": 844}, locale="en-US", reduced_motion=motion
    )
    context.add_init_script(f"localStorage.setItem('bodoge.lang', '{lang}')")
    page = context.new_page()
    page.set_default_timeout(30_000)
    errors = watch_errors(page)
    page.goto(live.url + created["spectator_url"])
    page.wait_for_selector("#board .board-troika")
    # A table loads its own game's board only: these tests draw every game's on the one page.
    page.evaluate("Promise.all(Object.keys(boardScripts()).map(loadBoard))")
    return page, errors


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_every_component_is_drawn_and_named_in_words(
    browser: Any, live: ProcessServer, views: Any, lang: str
) -> None:
    page, errors = open_board_page(browser, live, lang)
    for game, at in views.items():
        seen: list[dict[str, Any]] = []
        for key in ("mid0", "mid1", "end"):
            seen += page.evaluate(DRAW, [game, at[key], None])
        seen += page.evaluate(DRAW, [game, at["all"][0], at["all"][1]])
        kinds = {p["kind"] for p in seen}
        assert KINDS[game] <= kinds, (game, kinds)
        for p in seen:
            assert p["svg"], (game, p)  # drawn, not spelled
            if p["hidden"] and not p["label"]:
                continue  # one of a fan or a stack named as a whole ("3 cards in the hand of P1")
            label = p["label"] or ""
            assert label.strip(), (game, p)
            assert not RAW_CODE.search(label), (game, label)
            if lang == "ja":
                assert not re.search(r"[A-Za-z]{3,}", label), (game, label)
            else:
                assert re.search(r"[a-z]{3,}", label), (game, label)
    # A few names, word for word: the game's own names (texts/*.toml, the deck's name_en / name_ja).
    page.evaluate(DRAW, ["hangover", views["hangover"]["mid0"], None])
    named = page.evaluate(
        """() => {
          const ctx = boardContext('hangover', { legal_actions: [], log: [] }, {});
          return [BOARDS.hangover.cardName(ctx, 'R4^'), BOARDS.hangover.cardName(ctx, 'G1'),
                  BOARDS.tokkuri.cardName({ ...ctx, view: { options: { deck: [{ code: '8', slots: [8], effect: 'none', name_en: 'number card 8', name_ja: '数字カード「8」' }] } } }, '8')];
        }"""
    )
    assert named == (
        ["red 4 △", "green 1", "number card 8"] if lang == "en" else ["赤の4△", "緑の1", "数字カード「8」"]
    )
    assert not errors
    page.context.close()


def test_a_face_down_component_shows_its_games_back(browser: Any, live: ProcessServer, views: Any) -> None:
    page, errors = open_board_page(browser, live, "en")
    for game, at in views.items():
        pieces = page.evaluate(DRAW, [game, at["mid0"], None])
        backs = [p for p in pieces if p["back"]]
        faces = [p for p in pieces if not p["back"] and p["kind"] in KINDS[game]]
        assert backs and faces, game  # others' hands (and Tottarot's declared fates, bids) lie face down
        for p in backs:
            assert p["svg"] and not [t for t in p["texts"] if re.search(r"\d", t)], (
                game,
                p,
            )  # no number shows
            assert not p["label"] or re.search(r"face[- ]down", p["label"]), (game, p)
        assert any(re.search(r"\d", "".join(p["texts"])) for p in faces), game
    assert not errors
    page.context.close()


SEATS_Y = """() => Object.fromEntries([...document.querySelectorAll('#board .pbox')].map(
  (box) => [box.dataset.seat, box.getBoundingClientRect().top]))"""


@pytest.mark.parametrize("width", [1280, 390])
def test_your_box_is_at_the_bottom_and_the_board_fits(
    browser: Any, live: ProcessServer, views: Any, width: int
) -> None:
    page, errors = open_board_page(browser, live, "ja", width=width)
    for game, at in views.items():
        for key, bottom in (("mid0", "0"), ("mid1", "1"), ("end", "0")):
            page.evaluate(DRAW, [game, at[key], None])
            tops = page.evaluate(SEATS_Y)
            assert len(tops) == GAMES[game], (game, tops)
            others = [y for seat, y in tops.items() if seat != bottom]
            assert tops[bottom] > max(others), (game, key, tops)
            # The others in the order they sit: the next seat (on your left) first.
            order = page.evaluate(
                "() => [...document.querySelectorAll('#board .seats-others .pbox')].map((b) => b.dataset.seat)"
            )
            n = GAMES[game]
            assert order == [str((int(bottom) + k) % n) for k in range(1, n)], (game, order)
            fits = page.evaluate(
                "() => [document.documentElement.scrollWidth, document.documentElement.clientWidth,"
                " document.querySelector('#board').scrollWidth, document.querySelector('#board').clientWidth]"
            )
            assert fits[0] <= fits[1] and fits[2] <= fits[3], (game, key, width, fits)
        # A spectator sees seat 0 at the bottom.
        page.evaluate(DRAW, [game, at["all"][0], None])
        tops = page.evaluate(SEATS_Y)
        assert tops["0"] > max(y for seat, y in tops.items() if seat != "0"), (game, tops)
    assert not errors
    page.context.close()


BOARD_ANIMATIONS = "() => document.getAnimations().filter((a) => a.effect && a.effect.target && a.effect.target.closest('#board')).length"


def play_until_a_bot_moved(page: Any) -> None:
    """Click a legal piece on the board and wait until the bots moved and it is our turn again."""
    page.wait_for_selector("#board[data-ready='1'] .legal")
    log = page.evaluate("() => document.querySelectorAll('#log li').length")
    page.locator("#board[data-ready='1'] .pc.legal, #board[data-ready='1'] .legal").first.click()
    page.wait_for_function(
        "(n) => document.querySelectorAll('#log li').length > n + 1 && document.querySelector('#board[data-ready=\"1\"]')",
        arg=log,
        polling="raf",
    )


@pytest.mark.parametrize("motion", ["reduce", "no-preference"])
def test_moves_animate_unless_reduced_and_end_as_the_view_says(
    browser: Any, live: ProcessServer, motion: str
) -> None:
    with httpx.Client(base_url=live.url, timeout=30) as http:
        created = create_table(
            http,
            "troika",
            [{"kind": "human"}, {"kind": "bot", "spec": "random"}, {"kind": "bot", "spec": "random"}],
            rounds=1,
        )
    context = browser.new_context(viewport={"width": 1280, "height": 900}, reduced_motion=motion)
    page = context.new_page()
    page.set_default_timeout(30_000)
    errors = watch_errors(page)
    page.goto(live.url + created["seats"][0]["join_url"])
    seen = 0
    for _ in range(3):
        play_until_a_bot_moved(page)
        seen = max(seen, page.evaluate(BOARD_ANIMATIONS))
        if motion == "reduce":
            assert page.evaluate("() => document.getAnimations().length") == 0
    if motion == "reduce":
        assert seen == 0
    else:
        assert seen > 0  # the bots' tiles moved (and ours)
        page.wait_for_function(f"() => ({BOARD_ANIMATIONS})() === 0", timeout=10_000)
        # The pointer left on the clicked piece may hover a piece's rule (a tooltip marks its anchor):
        # that is the pointer's, not the view's, and it goes with the pointer.
        page.mouse.move(1, 1)
        page.wait_for_function("() => !document.querySelector('#board .tip-anchor')", timeout=10_000)
        # The board the motion left is exactly what a redraw of the same view draws.
        after = page.evaluate("() => document.querySelector('#board').innerHTML")
        again = page.evaluate(
            "() => { renderBoardPanel(); return document.querySelector('#board').innerHTML; }"
        )
        assert after == again
        assert page.evaluate(BOARD_ANIMATIONS) == 0  # nothing moves that did not change
    assert not errors
    context.close()


SEAT_EXTRA = """([game, view]) => {
  const asked = [];
  const opts = { seatName: (p) => `P${p}`, send() {}, setPending() {},
    seatExtra: (p) => { asked.push(p); const s = document.createElement('span'); s.className = 'seat-clock'; s.dataset.seat = p; return s; } };
  const drawn = renderBoard(game, view, opts);
  const boxes = [...drawn.node.querySelectorAll('.pbox')].map((box) => {
    const extra = box.querySelector('.ptag .seat-clock');
    const name = box.querySelector('.ptag .pname');
    return [box.dataset.seat, extra ? extra.dataset.seat : null,
      !!(extra && name && (name.compareDocumentPosition(extra) & Node.DOCUMENT_POSITION_FOLLOWING))];
  });
  const plain = renderBoard(game, view, { seatName: (p) => `P${p}`, send() {}, setPending() {} });
  return { asked, boxes, plain: plain.node.querySelectorAll('.seat-clock').length };
}"""


def test_each_seats_box_shows_the_tables_own_part_after_the_name(
    browser: Any, live: ProcessServer, views: Any
) -> None:
    """opts.seatExtra(p) (the table page's presence and clock) lands in seat p's name tag, after the
    name; without it, nothing is added (the replay viewer)."""
    page, errors = open_board_page(browser, live, "en")
    for game, at in views.items():
        got = page.evaluate(SEAT_EXTRA, [game, at["mid1"]])
        n = GAMES[game]
        assert sorted(got["asked"]) == list(range(n)), (game, got)
        assert sorted(got["boxes"]) == [[str(p), str(p), True] for p in range(n)], (game, got)
        assert got["plain"] == 0
    assert not errors
    page.context.close()


def tokkuri_drink() -> tuple[dict[str, Any], dict[str, Any]]:
    """Seat 0's views of Tokkuri just before and just after a tokkuri's level dropped."""
    for seed in range(100):
        state = make("tokkuri", 3).new_state(seed=seed)
        rng = random.Random(seed)
        while not state.is_terminal:
            before = roundtrip(state.view(0))
            state.apply(rng.choice(state.legal_actions()))
            after = roundtrip(state.view(0))
            levels = {t["id"]: t["level"] for t in before["tokkuri"]}
            if after["round"] == before["round"] and any(
                t["level"] < levels.get(t["id"], 0) for t in after["tokkuri"]
            ):
                return before, after
    raise AssertionError("no Tokkuri game drank")


STEP = """([game, before, after]) => {
  const opts = { seatName: (p) => `P${p}`, send() {}, setPending() {} };
  const box = document.getElementById('board');
  box.replaceChildren(renderBoard(game, before, opts).node);
  const snap = boardSnapshot(box);
  box.replaceChildren(renderBoard(game, after, opts).node);
  return animateBoard(snap, box).map((a) => ({
    liquid: a.effect.target.hasAttribute('data-liquid'),
    piece: a.effect.target.dataset.piece || null,
    from: String(a.effect.getKeyframes()[0].transform),
  }));
}"""


def test_a_bottles_level_drops_and_only_what_changed_moves(browser: Any, live: ProcessServer) -> None:
    page, errors = open_board_page(browser, live, "en", motion="no-preference")
    before, after = tokkuri_drink()
    moved = page.evaluate(STEP, ["tokkuri", before, after])
    liquids = [m for m in moved if m["liquid"]]
    assert liquids and all(m["from"].startswith("translateY(-") for m in liquids), moved  # from higher up
    # The same view again: nothing moves.
    assert page.evaluate(STEP, ["tokkuri", after, after]) == []
    assert not errors
    page.context.close()
