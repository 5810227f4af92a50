"""Tokkuri's cards as data (spec TK-1): the card-type list that option `deck` carries.

A card type is a `CardType`; the deck is the multiset of all copies of the types in the list. The
default list is the spec's PROPOSED 28 number cards (TK-1.1) plus the 3 dummies and the troublesome
tokkuri (TK-1.2): 32 cards. The real list can replace it through the option without code changes.

JSON form of one type (what option `deck` accepts, and what `to_json` gives back):

    {"code": "9+4", "kind": "number", "slots": [9, 4], "effect": "none", "copies": 1}
    {"code": "1~3", "kind": "number", "slots": ["1~3"], "effect": "draw", "copies": 2}
    {"code": "dummy", "kind": "dummy", "slots": [], "effect": "none", "copies": 3}

with optional "name_en" / "name_ja".
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

KINDS = ("number", "dummy", "trouble")
EFFECTS = ("none", "discard", "draw", "pass", "bonus")

#: Most drink variants (value choices summed over all types) a deck may define: the action space
#: holds one `drink` id per variant.
MAX_VARIANTS = 4096


@dataclass(frozen=True)
class CardType:
    code: str
    kind: str  # "number" | "dummy" | "trouble"
    slots: tuple[tuple[int, int], ...]  # (lo, hi) per slot, printed order; lo == hi: a fixed number
    effect: str  # "none" | "discard" | "draw" | "pass" | "bonus"
    copies: int
    name_en: str
    name_ja: str

    def to_json(self) -> dict[str, Any]:
        return {
            "code": self.code,
            "kind": self.kind,
            "slots": [lo if lo == hi else f"{lo}~{hi}" for lo, hi in self.slots],
            "effect": self.effect,
            "copies": self.copies,
            "name_en": self.name_en,
            "name_ja": self.name_ja,
        }


def _default_names(code: str, kind: str) -> tuple[str, str]:
    if kind == "dummy":
        return "dummy tokkuri", "ダミートックリ"
    if kind == "trouble":
        return "troublesome tokkuri", "やっかいなトックリ"
    return f"number card {code}", f"数字カード「{code}」"


def _n(code: str, copies: int, *slots: int | str, effect: str = "none", en: str = "") -> dict[str, Any]:
    entry: dict[str, Any] = {
        "code": code,
        "kind": "number",
        "slots": list(slots),
        "effect": effect,
        "copies": copies,
    }
    if en:
        entry["name_en"] = en
    return entry


#: TK-1.1 (PROPOSED) and TK-1.2, in the spec's table order.
DEFAULT_DECK: list[dict[str, Any]] = [
    _n("1", 1, 1),
    _n("2", 2, 2),
    _n("3", 2, 3),
    _n("4", 2, 4),
    _n("5", 2, 5),
    _n("6", 2, 6),
    _n("7", 1, 7),
    _n("8", 1, 8),
    _n("9", 2, 9, effect="discard", en="nine"),
    _n("1~3", 2, "1~3", effect="draw", en="wild one-to-three"),
    _n("9+4", 1, 9, 4),
    _n("8+5", 1, 8, 5),
    _n("7+6", 1, 7, 6),
    _n("6+4", 1, 6, 4),
    _n("1+1+1", 1, 1, 1, 1, effect="pass", en="triple one"),
    _n("3+3+3", 1, 3, 3, 3, effect="pass", en="triple three"),
    _n("4+4+4", 1, 4, 4, 4, en="triple four"),
    _n("7+7+7", 1, 7, 7, 7, effect="bonus", en="triple seven"),
    _n("8+8+8", 1, 8, 8, 8, effect="bonus", en="triple eight"),
    _n("1+1+1+1", 1, 1, 1, 1, 1, en="quadruple one"),
    _n("2+2+2+2", 1, 2, 2, 2, 2, en="quadruple two"),
    {"code": "dummy", "kind": "dummy", "slots": [], "effect": "none", "copies": 3},
    {"code": "trouble", "kind": "trouble", "slots": [], "effect": "none", "copies": 1},
]


def _slot(value: Any, where: str) -> tuple[int, int]:
    if isinstance(value, bool):
        raise ValueError(f"{where}: a slot is an integer ≥ 1 or a range 'lo~hi', not {value!r}")
    if isinstance(value, int):
        if value < 1:
            raise ValueError(f"{where}: slot {value} is below 1")
        return value, value
    if isinstance(value, str):
        text = value.strip()
        if "~" in text:
            lo_text, _, hi_text = text.partition("~")
            try:
                lo, hi = int(lo_text), int(hi_text)
            except ValueError:
                raise ValueError(f"{where}: range {value!r} is not 'lo~hi' with integers") from None
            if not 1 <= lo < hi:
                raise ValueError(f"{where}: range {value!r} needs 1 ≤ lo < hi")
            return lo, hi
        if text.isdigit():
            return _slot(int(text), where)
    raise ValueError(f"{where}: a slot is an integer ≥ 1 or a range 'lo~hi', not {value!r}")


def card_type(entry: Any) -> CardType:
    """One card type from its JSON form (or a CardType); ValueError saying what is wrong."""
    if isinstance(entry, CardType):
        entry = entry.to_json()
    if not isinstance(entry, dict):
        raise ValueError(f"each card type is an object with code, kind, slots, effect, copies; got {entry!r}")
    known = {"code", "kind", "slots", "effect", "copies", "name_en", "name_ja"}
    extra = sorted(set(entry) - known)
    if extra:
        raise ValueError(
            f"card type {entry.get('code')!r} has unknown keys {extra}; allowed: {sorted(known)}"
        )
    code = entry.get("code")
    if not isinstance(code, str) or not code or not code.isascii() or any(ch.isspace() for ch in code):
        raise ValueError(f"card code {code!r} must be a non-empty ASCII text without spaces")
    if "=" in code:
        raise ValueError(f"card code {code!r} must not contain '=' (it separates a drink's chosen values)")
    where = f"card {code!r}"
    kind = entry.get("kind", "number")
    if kind not in KINDS:
        raise ValueError(f"{where}: kind {kind!r} is not one of {', '.join(KINDS)}")
    effect = entry.get("effect", "none")
    if effect not in EFFECTS:
        raise ValueError(f"{where}: effect {effect!r} is not one of {', '.join(EFFECTS)}")
    raw_slots = entry.get("slots", [])
    if not isinstance(raw_slots, list | tuple):
        raise ValueError(f"{where}: slots must be a list")
    slots = tuple(_slot(s, where) for s in raw_slots)
    if kind == "number" and not slots:
        raise ValueError(f"{where}: a number card needs at least one slot")
    if kind != "number" and (slots or effect != "none"):
        raise ValueError(f"{where}: a {kind} card has no slots and no effect")
    copies = entry.get("copies", 1)
    if isinstance(copies, bool) or not isinstance(copies, int) or copies < 1:
        raise ValueError(f"{where}: copies must be an integer ≥ 1, not {copies!r}")
    en, ja = _default_names(code, kind)
    name_en = entry.get("name_en", en)
    name_ja = entry.get("name_ja", ja)
    if not isinstance(name_en, str) or not isinstance(name_ja, str):
        raise ValueError(f"{where}: names must be texts")
    return CardType(code, kind, slots, effect, copies, name_en, name_ja)


def variant_count(ct: CardType) -> int:
    count = 1
    for lo, hi in ct.slots:
        count *= hi - lo + 1
    return count


def convert_deck(value: Any) -> tuple[CardType, ...]:
    """Option `deck`: a list of card types (JSON form, CardTypes, or that list as JSON text)."""
    if isinstance(value, str):
        try:
            value = json.loads(value)
        except ValueError:
            raise ValueError("a deck typed as text must be a JSON list of card types") from None
    if not isinstance(value, list | tuple) or not value:
        raise ValueError("the deck is a non-empty list of card types")
    types = tuple(card_type(entry) for entry in value)
    seen: set[str] = set()
    for ct in types:
        key = ct.code.lower()
        if key in seen:
            raise ValueError(f"card code {ct.code!r} appears twice (codes are compared ignoring case)")
        seen.add(key)
    troubles = sum(ct.copies for ct in types if ct.kind == "trouble")
    if troubles > 1:
        # TK-5.7: a hand of two troublesome tokkuri could never move (a dead end).
        raise ValueError(f"the deck holds {troubles} troublesome tokkuri; at most 1 is allowed")
    variants = sum(variant_count(ct) for ct in types if ct.kind == "number")
    if variants > MAX_VARIANTS:
        raise ValueError(f"the ranges give {variants} drink choices; at most {MAX_VARIANTS} are allowed")
    return types


def deck_to_json(types: tuple[CardType, ...]) -> list[dict[str, Any]]:
    return [ct.to_json() for ct in types]
