"""Troika's components as data (spec §1): 49 ore tiles numbered 1–15, and the chips.

A tile's code is its number in decimal. Tiles of one number are interchangeable, so the rules keep
tiles as counts per number: a list of 15 ints, index `n - 1` for tile `n`.
"""

from __future__ import annotations

from typing import Final

NUMBERS: tuple[int, ...] = tuple(range(1, 16))  # tile codes 1 … 15
N_NUMBERS: Final = 15

# §1.1: three of each number, except seven 7s. Total 49.
DEFAULT_TILE_COUNTS: tuple[int, ...] = tuple(7 if n == 7 else 3 for n in NUMBERS)

TILE_NAMES: dict[int, dict[str, str]] = {n: {"ja": f"鉱石タイル {n}", "en": f"tile {n}"} for n in NUMBERS}


def jewel_value(highest: int) -> int:
    """TR-5.2: a jewel scores the ones digit of its highest tile (8-9-10 → 0, 13-14-15 → 5)."""
    return highest % 10


# Jewel value by the jewel's LOWEST tile index i (tiles i+1, i+2, i+3; a jewel starts at 1 … 13).
JEWEL_VALUE_BY_START: tuple[int, ...] = tuple(jewel_value(i + 3) for i in range(13))

# §1.2 chips: code, names, default value (the `chips` option sets the values).
CHIPS: tuple[tuple[str, dict[str, str], int], ...] = (
    ("+2", {"ja": "+2チップ", "en": "+2 chip (round winner)"}, 2),
    ("+1", {"ja": "+1チップ", "en": "+1 chip (second place)"}, 1),
    ("-1", {"ja": "−1チップ(オキザリ)", "en": "−1 chip (left behind)"}, -1),
)
DEFAULT_CHIPS: tuple[int, int, int] = (2, 1, -1)


def counts_of(tiles: list[int] | tuple[int, ...]) -> list[int]:
    """Counts per number (index n − 1) of a list of tile numbers (assumed valid)."""
    c = [0] * N_NUMBERS
    for t in tiles:
        c[t - 1] += 1
    return c


def tiles_of(counts: list[int] | tuple[int, ...]) -> list[int]:
    """The sorted tile numbers of a counts list."""
    out: list[int] = []
    for i, k in enumerate(counts):
        if k:
            out.extend([i + 1] * k)
    return out
