"""Tottarot components as data (spec TT-1): the fate-card types, their icons, and the `deck` option.

The seed does not list the fate cards (TT-D1): the default list below is the spec's PROPOSED one
(TT-1.1), kept in data so that another list can be played through option `deck` (TT-1.4).
Copies of one type cannot be told apart, so the rules work on *type indices* (0 … K−1, in the order
of the deck list), never on individual cards.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any

from bodoge.core.options import as_int, as_text, bounded, deck_of, valid_text

# Icon codes (TT-1.2). The rules keep them as small ints; index 0 is "no icon".
NO_ICON = 0
SHARE = 1
PEEK = 2
EXPOSE = 3
INVERT = 4
ICONS = ("SHARE", "PEEK", "EXPOSE", "INVERT")  # ICONS[i - 1] is the code of icon i


@dataclass(frozen=True)
class CardType:
    """One fate-card type (TT-1.4)."""

    code: str
    name_ja: str
    name_en: str
    points: int
    icon: str | None
    copies: int

    def to_json(self) -> dict[str, Any]:
        return {
            "code": self.code,
            "name_ja": self.name_ja,
            "name_en": self.name_en,
            "points": self.points,
            "icon": self.icon,
            "copies": self.copies,
        }

    @property
    def icon_id(self) -> int:
        return NO_ICON if self.icon is None else ICONS.index(self.icon) + 1


# TT-1.1, PROPOSED default list (SUN +3 and DEVIL −5 are the seed's values).
DEFAULT_DECK: tuple[CardType, ...] = (
    CardType("WORLD", "世界", "The World", 5, None, 3),
    CardType("SUN", "太陽", "The Sun", 3, "EXPOSE", 3),
    CardType("LOVERS", "恋人", "The Lovers", 1, "SHARE", 3),
    CardType("WHEEL", "運命の輪", "Wheel of Fortune", 0, "INVERT", 3),
    CardType("MOON", "月", "The Moon", -1, "PEEK", 3),
    CardType("TOWER", "塔", "The Tower", -3, None, 3),
    CardType("DEVIL", "悪魔", "The Devil", -5, None, 3),
)

# Bounds of option `deck` (issue #15): far beyond the 21 cards of TT-1.1, small enough that a round's
# shuffle and every view stay small; a row holds at most turns_per_round ≤ 10 cards, so its points
# stay far below 2**53.
MAX_COPIES = 50
MAX_CARDS = 200  # in all; so at most 200 card types too
MAX_POINTS = 10**6
MAX_CODE = 16  # characters of a code
MAX_NAME = 64  # characters of a name

DECK_ALLOWED = (
    f"a non-empty list of at most {MAX_CARDS} card types, each a map with 'code' (1 to {MAX_CODE} ASCII "
    f"letters, digits, '_' or '-', unique), 'points' (an integer from {-MAX_POINTS} to {MAX_POINTS}), "
    f"'copies' (an integer from 1 to {MAX_COPIES}), optional 'icon' (SHARE, PEEK, EXPOSE, INVERT or null) "
    f"and optional 'name_ja'/'name_en' (texts of 1 to {MAX_NAME} characters; default: the code), with "
    f"players × turns_per_round to {MAX_CARDS} cards in all"
)
_KEYS = {"code", "name_ja", "name_en", "points", "icon", "copies"}
NO_ICON_TEXTS = ("", "-", "none", "null")
_CODE_CHARS = set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-")


def _int(value: Any, what: str) -> int:
    try:
        return as_int(value)
    except ValueError as exc:
        raise ValueError(f"{what}: {exc}") from None


def card_type(entry: Any) -> CardType:
    """One entry of the `deck` option (a CardType or its JSON map), checked."""
    if isinstance(entry, CardType):
        entry = entry.to_json()
    if not isinstance(entry, dict):
        raise ValueError(f"each card type is a map, not {type(entry).__name__}")
    unknown = set(entry) - _KEYS
    if unknown:
        raise ValueError(f"unknown key(s) {sorted(unknown)} in a card type")
    for key in ("code", "points", "copies"):
        if key not in entry:
            raise ValueError(f"a card type has no {key!r}")
    code = entry["code"]
    if isinstance(code, str):
        as_text(code, f"card code {code!r}", MAX_CODE)
    if not isinstance(code, str) or not code or not set(code) <= _CODE_CHARS:
        raise ValueError(f"card code {code!r} must be a non-empty text of ASCII letters, digits, '_' or '-'")
    names = []
    for key in ("name_ja", "name_en"):
        name = entry.get(key, code)
        if name is None:
            name = code
        if not as_text(name, f"{key} of {code}", MAX_NAME):
            raise ValueError(f"{key} of {code} must be a non-empty text")
        names.append(name)
    points = bounded(_int(entry["points"], f"points of {code}"), -MAX_POINTS, MAX_POINTS, f"points of {code}")
    copies = bounded(_int(entry["copies"], f"copies of {code}"), 1, MAX_COPIES, f"copies of {code}")
    icon = entry.get("icon")
    if isinstance(icon, str) and valid_text(icon, f"icon of {code}").strip().lower() in NO_ICON_TEXTS:
        icon = None
    if icon is not None:
        if not isinstance(icon, str) or icon.strip().upper() not in ICONS:
            raise ValueError(f"icon of {code} must be one of {', '.join(ICONS)} or null, not {icon!r}")
        icon = icon.strip().upper()
    return CardType(code, names[0], names[1], points, icon, copies)


def convert_deck(value: Any) -> tuple[CardType, ...]:
    """The `deck` option from Python, JSON, or a JSON text typed on a command line."""
    types = deck_of(value, card_type, MAX_CARDS)
    codes = [t.code for t in types]
    dupes = sorted({c for c, k in Counter(codes).items() if k > 1})
    if dupes:
        raise ValueError(f"card codes must be unique; repeated: {', '.join(dupes)}")
    return types


def deck_to_json(types: tuple[CardType, ...]) -> list[dict[str, Any]]:
    return [t.to_json() for t in types]


DEFAULT_DECK_JSON = deck_to_json(DEFAULT_DECK)
