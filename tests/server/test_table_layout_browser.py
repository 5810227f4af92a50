"""The table page as a new player meets it (issue #56, faults 6, 7 and 9): at Tokkuri's first decision
on a 1280x800 screen the playable hand is in view, the others' boxes hold only what they hold and the
middle of the table gets the room; the prompts say only what is legal (no "or drink" when only placing
is, the 9's victim as TK-5.2 says it) and "this round −6" is explained on the board; on a 390x844
phone no table page is wider than the screen, every action button is on it, nothing says "click",
Tottarot's card names are at least 11 px; Hangover shows no "Trick 0" before the first trick.

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

DESKTOP = (1280, 800)
PHONE = (390, 844)
READY = "#board[data-ready='1'] .legal"
GAMES = {
    "tokkuri": (4, {"rounds": 1}),
    "tottarot": (4, {"target": 1}),
    "hangover": (3, {}),
    "troika": (3, {"rounds": 1}),
}


def new_table(live: ProcessServer, game: str) -> str:
    """A table of one person (seat 0) and random bots; the person's join URL."""
    players, options = GAMES[game]
    seats = [{"kind": "human", "name": "Aki"}] + [{"kind": "bot", "spec": "random"}] * (players - 1)
    with httpx.Client(base_url=live.url, timeout=30) as http:
        created = create_table(http, game, seats, players, **options)
    return live.url + created["seats"][0]["join_url"]


def open_page(
    browser: Any, url: str, size: tuple[int, int], lang: str, touch: bool = False
) -> tuple[Any, list[str]]:
    context = browser.new_context(
        viewport={"width": size[0], "height": size[1]},
        locale="en-US",
        has_touch=touch,
        is_mobile=touch,
        reduced_motion="reduce",
    )
    context.add_init_script(f"localStorage.setItem('bodoge.lang', '{lang}')")
    page = context.new_page()
    page.set_default_timeout(30_000)
    errors = watch_errors(page)
    page.goto(url)
    return page, errors


def roundtrip(value: Any) -> Any:
    return json.loads(json.dumps(value))


# -- fault 6: Tokkuri at 1280x800 -------------------------------------------------------------------

LAYOUT = """() => {
  const rect = (node) => node.getBoundingClientRect();
  const area = (node) => rect(node).width * rect(node).height;
  const others = [...document.querySelectorAll('#board .seats-others .pbox')];
  const own = document.querySelector('#board .seat-bottom .pbox');
  return {
    hand: [...document.querySelectorAll('#board .tk-hand .pc.legal')].map((n) => {
      const r = rect(n); return [r.left, r.top, r.right, r.bottom];
    }),
    scrollY: window.scrollY,
    others: others.map(area),
    own: area(own),
    center: rect(document.querySelector('#board .table-center')).width,
    table: rect(document.querySelector('#board .tabletop')).width,
    prompt: document.getElementById('board-prompt').innerText,
  };
}"""


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_tokkuri_first_decision_shows_the_hand_and_gives_the_table_the_room(
    browser: Any, live: ProcessServer, lang: str
) -> None:
    page, errors = open_page(browser, new_table(live, "tokkuri"), DESKTOP, lang)
    page.wait_for_selector("#board[data-ready='1'] .tk-hand .pc.legal")
    got = page.evaluate(LAYOUT)
    width, height = DESKTOP
    assert got["scrollY"] == 0
    # Every playable card in view at once, without scrolling.
    assert len(got["hand"]) >= 6, got
    for left, top, right, bottom in got["hand"]:
        assert left >= 0 and top >= 0 and right <= width and bottom <= height, got["hand"]
    # The others' boxes hold 7 face-down cards each: all three together smaller than your own box,
    # and the middle of the table at least half the table's width.
    assert len(got["others"]) == 3
    assert sum(got["others"]) < got["own"], got
    assert got["center"] >= 0.5 * got["table"], got
    # The opening placement: only placing is legal, and the prompt says nothing of drinking.
    legal = page.evaluate(
        "() => [...document.querySelectorAll('#actions button.action')].map((b) => b.innerText)"
    )
    assert legal and not any("drink" in x or "飲" in x for x in legal), legal
    assert "drink" not in got["prompt"].lower() and "飲" not in got["prompt"], got["prompt"]
    assert not errors
    page.context.close()


PROMPT = """([view, legal]) => {
  const ctx = boardContext('tokkuri', { ...view, legal_actions: legal.map((text, id) => ({ id, text })) }, {});
  return BOARDS.tokkuri.prompt(ctx);
}"""


def tokkuri_view(phase: str) -> dict[str, Any]:
    """Seat 0's Tokkuri view at a decision of `phase` (a random game)."""
    for seed in range(200):
        state = make("tokkuri", 3).new_state(seed=seed)
        rng = random.Random(seed)
        while not state.is_terminal:
            view = state.view(0)
            if view["phase"] == phase and state.current_player == 0:
                return roundtrip(view)
            state.apply(rng.choice(state.legal_actions()))
    raise AssertionError(f"no Tokkuri decision {phase}")


ROUND = """([view]) => {
  const drawn = renderBoard('tokkuri', view, { seatName: (p) => `P${p}`, send() {}, setPending() {} });
  document.getElementById('board').replaceChildren(drawn.node);
  const rule = drawn.node.querySelector('.tk-rule');
  return {
    rule: rule ? rule.innerText : null,
    marks: [...drawn.node.querySelectorAll('.tk-fine')].length,
  };
}"""


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_tokkuri_prompts_say_what_is_legal_and_what_the_nine_does(
    browser: Any, live: ProcessServer, lang: str
) -> None:
    page, errors = open_page(browser, new_table(live, "tokkuri"), DESKTOP, lang)
    page.wait_for_selector(READY)
    drink = "drink" if lang == "en" else "飲"
    action = tokkuri_view("action")
    # A turn with no card that can drink: "place", never "or drink".
    only_place = page.evaluate(PROMPT, [action, ["place 4", "place 6+4"]])
    assert drink not in only_place.lower(), only_place
    both = page.evaluate(PROMPT, [action, ["place 4", "drink 4"]])
    assert drink in both.lower(), both
    # The opening placement: only placing.
    opening = page.evaluate(PROMPT, [tokkuri_view("open"), ["place 4", "place 6+4"]])
    assert drink not in opening.lower(), opening
    # The 9 (TK-5.2): the chosen player's random card is discarded, and they draw.
    victim = page.evaluate(PROMPT, [tokkuri_view("action"), ["victim P1", "victim P2"]])
    if lang == "en":
        assert "discarded" in victim and "they draw" in victim and "you draw" not in victim, victim
    else:
        assert "捨て札" in victim and "その人が1枚引きます" in victim and "引かれる" not in victim, victim
    # "this round −6" explained on the board (TK-6.1): captured tokkuri and bonus cards up, own
    # tokkuri still at the penalty level or more down; each such tokkuri is marked.
    level, points = action["options"]["penalty_level"], action["options"]["penalty_points"]
    got = page.evaluate(ROUND, [action])
    assert got["rule"] and f"{level}" in got["rule"] and f"−{points}" in got["rule"], got
    assert ("captured" in got["rule"]) if lang == "en" else ("獲得" in got["rule"]), got
    fined = sum(1 for t in action["tokkuri"] if t["level"] >= level)
    assert fined and got["marks"] == fined, (got, action["tokkuri"])
    assert not errors
    page.context.close()


def test_the_nines_decision_text_says_tk_5_2() -> None:
    """The decision text of VICTIM (everyone's view) in both languages: a random card of the chosen
    player's hand is discarded, then that player draws."""
    state = make("tokkuri", 3).new_state(seed=1)
    text = state.game.part("text")
    assert text is not None
    say = text.TEXTS.say
    en, ja = say("en", "decision.victim", seat=0), say("ja", "decision.victim", seat=0)
    assert "discarded" in en and "then they draw" in en, en
    assert "捨て札" in ja and "その人が1枚引きます" in ja and "引かれる" not in ja, ja
    # The turn's text, in everyone's view, claims no drink it cannot know of.
    assert "if a card" in say("en", "decision.action", seat=0)
    assert "飲めるカードがあれば" in say("ja", "decision.action", seat=0)


# -- fault 7: a phone ---------------------------------------------------------------------------------

WIDTHS = """() => {
  const width = document.documentElement.clientWidth;
  const actions = document.getElementById('actions');
  return {
    width,
    page: document.documentElement.scrollWidth,
    board: [document.getElementById('board').scrollWidth, document.getElementById('board').clientWidth],
    row: [actions.scrollWidth, actions.clientWidth],
    buttons: [...actions.querySelectorAll('button.action')].map((b) => {
      const r = b.getBoundingClientRect(); return [r.left, r.right];
    }),
  };
}"""


@pytest.mark.parametrize("game", list(GAMES))
def test_no_table_page_is_wider_than_a_phone(browser: Any, live: ProcessServer, game: str) -> None:
    page, errors = open_page(browser, new_table(live, game), PHONE, "ja", touch=True)
    page.wait_for_selector(READY)
    page.wait_for_selector("#actions button.action")
    got = page.evaluate(WIDTHS)
    width = got["width"]
    assert got["page"] <= width, got
    assert got["board"][0] <= got["board"][1], got
    # The action row wraps: no row wider than the screen, every button on it.
    assert got["row"][0] <= got["row"][1], got["row"]
    assert got["buttons"]
    for left, right in got["buttons"]:
        assert left >= 0 and right <= width, (game, left, right, width)
    assert not errors
    page.context.close()


CLICK = re.compile(r"click|クリック", re.IGNORECASE)
# Every text the page holds in either language (the page's, the boards', the game's board terms).
STRINGS_SHOWN = """(game) => {
  const out = [];
  const walk = (x) => {
    if (typeof x === 'string') out.push(x);
    else if (x && typeof x === 'object') Object.values(x).forEach(walk);
  };
  walk([typeof STRINGS === 'undefined' ? null : STRINGS, BOARD_STRINGS, BOARDS[game] ? BOARDS[game].terms : null]);
  return out;
}"""


@pytest.mark.parametrize(
    ("game", "lang"), [("tokkuri", "ja"), ("tottarot", "en"), ("hangover", "ja"), ("troika", "en")]
)
def test_nothing_says_click_on_a_touch_screen(
    browser: Any, live: ProcessServer, game: str, lang: str
) -> None:
    page, errors = open_page(browser, new_table(live, game), PHONE, lang, touch=True)
    page.wait_for_selector(READY)
    page.wait_for_selector("#actions button.action")
    shown = page.inner_text("body")
    assert not CLICK.search(shown), CLICK.search(shown)
    # Nor any text the page would show at another moment, in either language (the prompts of other
    # phases, the hints): "choose", "選ぶ" fit a mouse and a finger alike.
    said = [x for x in page.evaluate(STRINGS_SHOWN, game) if CLICK.search(x)]
    assert not said, said
    assert not errors
    page.context.close()


# The size a text inside a card is drawn at on the screen: an SVG text's font size scaled by its
# drawing, a page text's own. Numbers (points, the arcana's Roman numeral) are not names.
NAME_SIZES = """() => {
  const out = [];
  for (const card of document.querySelectorAll('#board .pc-tt-card[data-code]')) {
    const nodes = [...card.querySelectorAll('text, span, div')].filter((n) =>
      [...n.childNodes].some((c) => c.nodeType === Node.TEXT_NODE && c.textContent.trim()));
    for (const node of nodes) {
      const text = node.textContent.trim();
      if (/\\d/.test(text) || /^[IVXLC]+$/.test(text)) continue;
      const size = parseFloat(getComputedStyle(node).fontSize);
      const scale = node instanceof SVGElement ? node.getScreenCTM().a : 1;
      out.push([card.dataset.code, text, size * scale]);
    }
  }
  return out;
}"""


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_tottarot_card_names_are_readable_on_a_phone(browser: Any, live: ProcessServer, lang: str) -> None:
    page, errors = open_page(browser, new_table(live, "tottarot"), PHONE, lang, touch=True)
    page.wait_for_selector(READY)
    page.wait_for_selector("#board .pc-tt-card[data-code]")
    names = page.evaluate(NAME_SIZES)
    assert names, "no face-up fate with a name"
    small = [n for n in names if n[2] < 11]
    assert not small, small
    assert not errors
    page.context.close()


# -- fault 9: "Trick 0" -------------------------------------------------------------------------------

TRICK_0 = re.compile(r"\bTrick 0\b|トリック 0(?!\d)")


@pytest.mark.parametrize(("size", "lang"), [(DESKTOP, "en"), (PHONE, "ja")])
def test_no_trick_0_before_the_first_trick(
    browser: Any, live: ProcessServer, size: tuple[int, int], lang: str
) -> None:
    page, errors = open_page(browser, new_table(live, "hangover"), size, lang)
    page.wait_for_selector(READY)
    board = page.inner_text("#board")
    assert page.evaluate("() => document.querySelector('#board .binfo') !== null")
    assert not TRICK_0.search(board), TRICK_0.search(board)
    assert not errors
    page.context.close()
