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

from dataclasses import dataclass
from typing import Any

from bodoge.core.options import as_int, as_text, bounded, deck_of, valid_text

KINDS = ("number", "dummy", "trouble")
EFFECTS = ("none", "discard", "draw", "pass", "bonus")
#: The kinds and effects as the engine's ints (indices into KINDS and EFFECTS).
NUMBER, DUMMY, TROUBLE = range(len(KINDS))
NO_EFFECT, DISCARD, DRAW, PASS, BONUS = range(len(EFFECTS))
KINDS_INDEX = {name: i for i, name in enumerate(KINDS)}
EFFECTS_INDEX = {name: i for i, name in enumerate(EFFECTS)}

# Bounds of option `deck` (issue #15). Generous for any real deck (the default has 32 cards, at most
# 2 copies and 4 numbers a card), small enough that a round's deal, the action space (a `target` id
# per seat and card) and every view stay small.
MAX_COPIES = 50
MAX_CARDS = 200  # in all; so at most 200 card types too
MAX_SLOTS = 6  # numbers printed on one card (each may make a TARGET decision)
MAX_NUMBER = 100  # the highest `tokkuri_level`: a larger number could never be drunk (TK-4.3)
MAX_CODE = 16  # characters of a code
MAX_NAME = 64  # characters of a name
#: Most drink variants (value choices summed over all types) a deck may define: the action space
#: holds one `drink` id per variant, and a drink decision may offer all of them in a view.
MAX_VARIANTS = 1024

ALLOWED = (
    f"a non-empty list of at most {MAX_CARDS} card types {{code (1 to {MAX_CODE} ASCII characters, no "
    f"spaces or '='), kind (number|dummy|trouble), slots (a number card's 1 to {MAX_SLOTS} numbers, each "
    f"an integer from 1 to {MAX_NUMBER} or a range 'lo~hi' within it), effect (none|discard|draw|pass|bonus), "
    f"copies 1 to {MAX_COPIES}, optional name_en and name_ja (texts of at most {MAX_NAME} characters)}}, "
    f"unique codes, at most one troublesome tokkuri, at most {MAX_VARIANTS} drink choices, and from "
    f"players × hand_size to {MAX_CARDS} cards in all"
)


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
    """One printed number: an integer, or a range 'lo~hi' the drinker chooses from (TK-D31)."""
    if isinstance(value, bool):
        raise ValueError(f"{where}: a slot is an integer or a range 'lo~hi', not {value!r}")
    if isinstance(value, int):
        bounded(value, 1, MAX_NUMBER, f"{where}: slot {value}")
        return value, value
    if isinstance(value, str):
        text = valid_text(value, f"{where}: slot {value!r}").strip()
        if "~" in text:
            lo_text, _, hi_text = text.partition("~")
            try:
                lo, hi = as_int(lo_text), as_int(hi_text)
            except ValueError:
                raise ValueError(f"{where}: range {value!r} is not 'lo~hi' with integers") from None
            if not lo < hi:
                raise ValueError(f"{where}: range {value!r} needs lo < hi")
            bounded(lo, 1, MAX_NUMBER, f"{where}: range {value!r}")
            bounded(hi, 1, MAX_NUMBER, f"{where}: range {value!r}")
            return lo, hi
        if text.isascii() and text.isdigit():
            return _slot(as_int(text), where)
    raise ValueError(f"{where}: a slot is an integer or a range 'lo~hi', not {value!r}")


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
    if isinstance(code, str):
        as_text(code, f"card code {code!r}", MAX_CODE)
    if not isinstance(code, str) or not code or not code.isascii() or any(ch.isspace() for ch in code):
        raise ValueError(f"card code {code!r} must be a non-empty ASCII text without spaces")
    if "=" in code:
        raise ValueError(f"card code {code!r} must not contain '=' (it separates a drink's chosen values)")
    where = f"card {code!r}"
    for key in ("kind", "effect"):
        if isinstance(entry.get(key), str):
            valid_text(entry[key], f"{where}: {key}")
    kind = entry.get("kind", "number")
    if kind not in KINDS:
        raise ValueError(f"{where}: kind {kind!r} is not one of {', '.join(KINDS)}")
    effect = entry.get("effect", "none")
    if effect not in EFFECTS:
        raise ValueError(f"{where}: effect {effect!r} is not one of {', '.join(EFFECTS)}")
    raw_slots = entry.get("slots", [])
    if not isinstance(raw_slots, list | tuple):
        raise ValueError(f"{where}: slots must be a list")
    if len(raw_slots) > MAX_SLOTS:
        raise ValueError(f"{where}: {len(raw_slots)} slots; at most {MAX_SLOTS}")
    slots = tuple(_slot(s, where) for s in raw_slots)
    if kind == "number" and not slots:
        raise ValueError(f"{where}: a number card needs at least one slot")
    if kind != "number" and (slots or effect != "none"):
        raise ValueError(f"{where}: a {kind} card has no slots and no effect")
    copies = entry.get("copies", 1)
    if isinstance(copies, bool) or not isinstance(copies, int):
        raise ValueError(f"{where}: copies must be an integer from 1 to {MAX_COPIES}, not {copies!r}")
    bounded(copies, 1, MAX_COPIES, f"{where}: copies")
    en, ja = _default_names(code, kind)
    name_en = as_text(entry.get("name_en", en), f"{where}: name_en", MAX_NAME)
    name_ja = as_text(entry.get("name_ja", ja), f"{where}: name_ja", MAX_NAME)
    return CardType(code, kind, slots, effect, copies, name_en, name_ja)


def variant_count(ct: CardType) -> int:
    count = 1
    for lo, hi in ct.slots:
        count *= hi - lo + 1
    return count


def convert_deck(value: Any) -> tuple[CardType, ...]:
    """Option `deck`: a list of card types (JSON form, CardTypes, or that list as JSON text)."""
    types = deck_of(value, card_type, MAX_CARDS)
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
