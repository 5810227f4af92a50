"""The places a lesson's step may point at (lessons.BOARD_PLACES) are the names the boards really
give what they draw: every one is in its game's board script (static/boards/GAME.js) as the place
of its pieces (`hand:${p}`, "mine") or a pile's name (data-pile "deck"), and the lesson page rings a
seat's box for "seat:P". (tests/learn/test_learn_browser.py sees each point of the packaged lessons
ring something on the drawn board.)"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bodoge.learn.lessons import BOARD_PLACES, is_board_place

STATIC = Path(__file__).parents[2] / "src" / "bodoge" / "server" / "static"
# The game packages (not bodoge.games(): a server test's toy game registers itself there, board-less).
GAMES = {path.parent.name for path in (STATIC.parents[1] / "games").glob("*/rules.py")}


def source_form(pattern: str) -> re.Pattern[str]:
    """'hand:P' as the board script writes it: a template `hand:${...}`; 'mine' a quoted "mine"."""
    parts = [r"\$\{[^}]+\}" if part in ("P", "C") else re.escape(part) for part in pattern.split(":")]
    return re.compile(r"[\"`]" + ":".join(parts) + r"[\"`]")


def test_every_game_with_a_board_has_its_places() -> None:
    boards = {path.stem for path in (STATIC / "boards").glob("*.js")} - {"common"}
    assert set(BOARD_PLACES) == boards == GAMES == {"hangover", "tokkuri", "tottarot", "troika"}


@pytest.mark.parametrize(("game", "pattern"), [(g, p) for g, ps in BOARD_PLACES.items() for p in ps])
def test_each_place_is_drawn_by_the_games_board(game: str, pattern: str) -> None:
    if pattern == "seat:P":
        # The lesson page's own name for a seat's box: the box every board draws (playerBox).
        assert re.search(r'class: "pbox|\["pbox"', (STATIC / "boards" / "common.js").read_text())
        assert "dataset: { seat: p }" in (STATIC / "boards" / "common.js").read_text()
        assert '.pbox[data-seat="${seat[1]}"]' in (STATIC / "learn.js").read_text()
        return
    assert source_form(pattern).search((STATIC / "boards" / f"{game}.js").read_text()), (
        f"{game}.js draws nothing at {pattern}"
    )


def test_a_made_up_place_is_not_in_the_boards_source() -> None:
    # The check above can fail: a name no board uses is not found.
    assert not source_form("player:P").search((STATIC / "boards" / "tokkuri.js").read_text())


@pytest.mark.parametrize(
    ("place", "players", "fits"),
    [
        ("hand:0", 3, True),
        ("hand:2", 3, True),
        ("hand:3", 3, False),
        ("hand:01", 3, False),
        ("hand", 3, False),
        ("col:1:2", 3, True),
        ("col:1:0", 3, False),
        ("mine", 3, True),
        ("mine:0", 3, False),
        ("seat:1", 3, True),
        ("player:0", 3, False),
    ],
)
def test_places_are_matched_with_their_seat_numbers(place: str, players: int, fits: bool) -> None:
    places = BOARD_PLACES["hangover"] + BOARD_PLACES["troika"]
    assert is_board_place(place, places, players) is fits
