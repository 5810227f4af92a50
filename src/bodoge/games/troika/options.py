"""Troika's players and options (spec §2), each with its bounds (issue #15) beside its rule."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bodoge.core import options as opts
from bodoge.games.troika.cards import DEFAULT_CHIPS, DEFAULT_TILE_COUNTS, N_NUMBERS, NUMBERS


def _convert_chips(value: Any) -> tuple[int, int, int]:
    if isinstance(value, str):
        parsed = opts.parse_text(opts.valid_text(value))
        value = parsed if not isinstance(parsed, str) else [x for x in parsed.replace(",", " ").split()]
    if not isinstance(value, list | tuple) or len(value) != 3:
        raise ValueError("expected three integers (first place, second place, left behind)")
    a, b, c = (opts.bounded(opts.as_int(x), -MAX_POINTS, MAX_POINTS, "a chip") for x in value)
    return (a, b, c)


def _convert_tile_counts(value: Any) -> tuple[int, ...]:
    """A map number → copies (int or str keys; numbers not named have 0 copies), or 15 counts."""
    if isinstance(value, str):
        value = opts.parse_text(opts.valid_text(value))
    if isinstance(value, list | tuple):
        if len(value) != N_NUMBERS:
            raise ValueError("a list of counts must have 15 entries, for tiles 1 to 15")
        value = {n: k for n, k in zip(NUMBERS, value, strict=True)}
    if not isinstance(value, Mapping):
        raise ValueError("expected a map from tile numbers 1–15 to copies")
    counts: list[int | None] = [None] * N_NUMBERS
    for key, copies in value.items():
        if isinstance(key, str):
            opts.valid_text(key, "a tile number")
        try:
            n = opts.as_int(key)
        except ValueError:
            raise ValueError(f"{key!r} is not a tile number 1–15") from None
        if not 1 <= n <= N_NUMBERS:
            raise ValueError(f"{key!r} is not a tile number 1–15")
        if counts[n - 1] is not None:
            raise ValueError(f"tile {n} is given twice")
        counts[n - 1] = opts.bounded(opts.as_int(copies), 0, MAX_COPIES, f"copies of tile {n}")
    return tuple(k or 0 for k in counts)


def _tile_counts_json(value: Any) -> dict[str, int]:
    counts = _convert_tile_counts(value)
    return {str(n): counts[n - 1] for n in NUMBERS}


def _chips_json(value: Any) -> list[int]:
    return list(_convert_chips(value))


# Bounds (issue #15), beside each rule's own. A tile set holds at most 15 × MAX_COPIES = MAX_TILES
# tiles, so a round has fewer than MAX_TILES turns and the longest game 100 × 300 actions; a hand
# limit or a container minimum above MAX_TILES would mean nothing more. The bonus and each chip are at
# most MAX_POINTS in size, so 100 rounds of chips stay within 10**8, far below 2**53.
MAX_ROUNDS = 100
MAX_COPIES = 20  # of one number (the default: 3, and 7 of the 7)
MAX_TILES = N_NUMBERS * MAX_COPIES
MAX_POINTS = 10**6

OPTION_SPECS: tuple[opts.Option, ...] = (
    opts.integer("rounds", 3, "number of rounds (TR-6.5)", 1, MAX_ROUNDS),
    opts.integer("hand_limit", 3, "the most tiles a hand may hold; limits `draw` (TR-4.3)", 1, MAX_TILES),
    opts.boolean("troika", True, "whether Troika declarations exist; always off with 2 players"),
    opts.integer(
        "troika_bonus", 5, "bonus to the first declarer's round score (TR-6.2)", -MAX_POINTS, MAX_POINTS
    ),
    opts.integer("troika_min_container", 5, "the fewest container tiles a declaration needs", 0, MAX_TILES),
    opts.Option(
        "chips",
        DEFAULT_CHIPS,
        f"three integers [first, second, left behind], each from {-MAX_POINTS} to {MAX_POINTS}",
        "chips for first place, second place and being left behind (TR-6.3)",
        _convert_chips,
        _chips_json,
    ),
    # TR-2.3: 2 players need 4 tiles left after the removal
    opts.integer(
        "two_player_removed", 10, "tiles set aside unseen per round with 2 players", 0, MAX_TILES - 4
    ),
    opts.Option(
        "tile_counts",
        {n: DEFAULT_TILE_COUNTS[n - 1] for n in NUMBERS},
        f'a map of tile numbers 1–15 to copies from 0 to {MAX_COPIES} (e.g. {{"1": 3, …, "7": 7, …}}); '
        "numbers not named have 0 copies",
        "the tile set (§1.1)",
        _convert_tile_counts,
        _tile_counts_json,
    ),
)

#: The options in people's words, for the lobby's form (English and Japanese): each one's label. The
#: chips and the tile set are data: the form keeps their defaults.
WORDS = {
    "rounds": {"en": "Rounds", "ja": "ラウンド数"},
    "hand_limit": {"en": "Most tiles in a hand", "ja": "手札に持てるタイルの数"},
    "troika": {"en": "Play with Troika declarations", "ja": "トロイカ宣言を使う"},
    "troika_bonus": {
        "en": "Bonus of the first to declare Troika",
        "ja": "最初にトロイカ宣言した人のボーナス",
    },
    "troika_min_container": {
        "en": "Container tiles needed to declare",
        "ja": "宣言に必要なコンテナのタイル数",
    },
    "two_player_removed": {
        "en": "Tiles set aside each round (2 players)",
        "ja": "2人のとき毎ラウンド除くタイル数",
    },
}
