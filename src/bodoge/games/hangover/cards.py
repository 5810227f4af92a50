"""Hangover's components as data (spec §1): 56 drink cards and the 20 snack cards of draft 2.

A drink card is an int 0…55 in canonical order (HO-1.5): suit R, B, Y, G; numbers ascending; the plain
card before its △ copy. So for card `c`: suit = c // 14, number = (c % 14) // 2 + 1, △ = c % 2, and the
rank key (HO-1.2) = c % 14 + 2 = 2 × number + △. A snack card is its code text, e.g. "+1/+2".
"""

from __future__ import annotations

import re

from bodoge.core.options import valid_text

SUITS = "RBYG"
NUMBERS = range(1, 8)
NUM_DRINK = 56

#: code of each drink card, by index: "R1", "R1^", "R2", …, "G7^"
DRINK_CODES: tuple[str, ...] = tuple(f"{s}{n}{t}" for s in SUITS for n in NUMBERS for t in ("", "^"))
DRINK_INDEX: dict[str, int] = {code: i for i, code in enumerate(DRINK_CODES)}
#: per card index: its suit (0…3), its number (1…7) and its rank key (2…15)
SUIT: tuple[int, ...] = tuple(i // 14 for i in range(NUM_DRINK))
NUMBER: tuple[int, ...] = tuple((i % 14) // 2 + 1 for i in range(NUM_DRINK))
KEY: tuple[int, ...] = tuple(i % 14 + 2 for i in range(NUM_DRINK))

#: the ten snack faces of draft 2, in the order of the seed's list (spec §1.2)
SNACK_FACES: tuple[str, ...] = (
    "+1/+2",
    "-1/-2",
    "+2/+3",
    "-2/-3",
    "+1/+3",
    "-1/-3",
    "-1/+1",
    "-2/+2",
    "-3/+3",
    "-4/+4",
)
#: the default snack deck in canonical order: both copies of each face side by side (HO-1.5, HO-D17)
DEFAULT_SNACK_DECK: tuple[str, ...] = tuple(face for face in SNACK_FACES for _ in range(2))

SNACK_RE = re.compile(r"^([+-][0-9])/([+-][0-9])$")


def drink_code(card: int) -> str:
    return DRINK_CODES[card]


def snack_values(code: str) -> tuple[str, str]:
    """The two printed values of a snack code as texts, e.g. "-2/+2" -> ("-2", "+2")."""
    m = SNACK_RE.match(code)
    if m is None:
        raise ValueError(f"{code!r} is not a snack code of the form ±a/±b")
    return m.group(1), m.group(2)


def normalize_snack(code: object) -> str:
    """A snack code in its ASCII form ("−2/＋2" -> "-2/+2"); ValueError if it is not one."""
    if not isinstance(code, str):
        raise ValueError(f"a snack code is a text like '+1/+2', not {code!r}")
    valid_text(code, f"snack code {code!r}")
    text = code.strip().replace("−", "-").replace("＋", "+").replace("ー", "-").replace("／", "/")
    snack_values(text)
    return text


def drink_deck(removed: tuple[int, ...] | list[int]) -> list[int]:
    """The drink deck of HO-3.1 in canonical order: every card whose number is not removed."""
    gone = set(removed)
    return [c for c in range(NUM_DRINK) if NUMBER[c] not in gone]
