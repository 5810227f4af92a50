"""Game options: each a name, a default, what is allowed, and a converter that checks a value.

A game declares its options as a tuple of `Option`s (TAG's parameters object: every tunable number in
one place). Values arrive from Python, from JSON records (where maps have string keys and tuples are
lists) or from the command line as text; `Option.convert` turns any of them into the one Python
form the rules use, or raises `ValueError` with the reason.

Every option is bounded above as well as below (issue #15: a server on the internet takes options
from anyone). The bounds keep every score, count and view within what JSON and a browser carry
exactly (`MAX_SAFE_INT`), and keep making a game and setting it up cheap, with small views: an
integer option names both bounds (`Option.lo`, `Option.hi`), a structured one (a deck, a map) bounds
its sizes and every number and text inside it, and says so in `allowed`. Every text must be valid
Unicode (`valid_text`).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol, TypeVar

from bodoge.errors import BadOption

#: The largest integer JSON carries exactly to a browser (JavaScript's Number.MAX_SAFE_INTEGER). Every
#: option's bounds are chosen so that no score, count or view of a game can pass it.
MAX_SAFE_INT = 2**53 - 1

#: The longest text `as_int` reads: a 100,000-digit string is refused before `int()` works on it.
MAX_INT_TEXT = 30


def _identity(value: Any) -> Any:
    return value


@dataclass(frozen=True)
class Option:
    name: str
    default: Any
    allowed: str  # the human text; names both bounds of every number in the option
    help: str
    convert: Callable[[Any], Any] = field(default=_identity, repr=False)
    to_json: Callable[[Any], Any] = field(default=_identity, repr=False)
    lo: int | None = None  # an integer option's bounds (None for other options)
    hi: int | None = None


def valid_text(text: str, what: str = "the value") -> str:
    """`text` itself if it is valid Unicode; ValueError for a lone surrogate such as "\\ud800",
    which UTF-8 and JSON cannot carry (it would break every later encoding of the option)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        raise ValueError(f"{what} must be valid Unicode text (no lone surrogates)") from None
    return text


def as_text(value: Any, what: str, max_len: int) -> str:
    """A text option part (a code, a name): a str of valid Unicode, at most `max_len` characters."""
    if not isinstance(value, str):
        raise ValueError(f"{what} must be a text, not {value!r}")
    valid_text(value, what)
    if len(value) > max_len:
        raise ValueError(f"{what} is {len(value)} characters long; at most {max_len}")
    return value


def load_json(text: str, what: str = "the value") -> Any:
    """A JSON value given as text; ValueError if it is not JSON (or is nested absurdly deep)."""
    valid_text(text, what)
    try:
        return json.loads(text)
    except RecursionError:
        raise ValueError(f"{what} is JSON nested too deeply") from None


class _CardType(Protocol):
    @property
    def copies(self) -> int: ...


_Card = TypeVar("_Card", bound=_CardType)


def deck_of(value: Any, card_type: Callable[[Any], _Card], most_cards: int) -> tuple[_Card, ...]:
    """A `deck` option: a non-empty list of card types, from Python or as a JSON text typed on a
    command line, each made by `card_type`; at most `most_cards` cards in all (each type has a copy
    at least, so as many types at most)."""
    if isinstance(value, str):
        try:
            value = load_json(value, "the deck")
        except ValueError as exc:
            raise ValueError(f"a deck typed as text must be a JSON list of card types ({exc})") from None
    if not isinstance(value, list | tuple) or not value:
        raise ValueError("the deck must be a non-empty list of card types")
    if len(value) > most_cards:
        raise ValueError(f"{len(value)} card types; at most {most_cards} cards in all")
    types = tuple(card_type(entry) for entry in value)
    total = sum(t.copies for t in types)
    if total > most_cards:
        raise ValueError(f"{total} cards in all; at most {most_cards}")
    return types


def as_int(value: Any) -> int:
    """An int, or a text or float that is exactly one; never a bool."""
    if isinstance(value, bool):
        raise ValueError("expected an integer, not a boolean")
    if isinstance(value, int):
        return value
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, str):
        valid_text(value)
        if len(value) > MAX_INT_TEXT:
            raise ValueError(f"expected an integer, written in at most {MAX_INT_TEXT} characters")
        try:
            return int(value.strip())
        except ValueError:
            pass
    raise ValueError("expected an integer")


def bounded(n: int, lo: int, hi: int, what: str = "") -> int:
    """`n` if lo ≤ n ≤ hi; else ValueError naming the bound it passes ("out of range: at most 100")."""
    prefix = f"{what}: " if what else ""
    if n < lo:
        raise ValueError(f"{prefix}out of range: at least {lo}")
    if n > hi:
        raise ValueError(f"{prefix}out of range: at most {hi}")
    return n


def as_bool(value: Any) -> bool:
    if isinstance(value, bool):
        return value
    if isinstance(value, str) and valid_text(value).strip().lower() in (
        "true",
        "false",
        "yes",
        "no",
        "on",
        "off",
        "1",
        "0",
    ):
        return value.strip().lower() in ("true", "yes", "on", "1")
    raise ValueError("expected true or false")


def integer(
    name: str,
    default: int | None,
    help: str,
    lo: int,
    hi: int,
    none_ok: bool = False,
) -> Option:
    """An int option in lo..hi (both bounds required, within ±MAX_SAFE_INT); `none_ok` also allows None."""
    if not -MAX_SAFE_INT <= lo <= hi <= MAX_SAFE_INT:
        raise ValueError(f"option {name!r}: bounds {lo}..{hi} must be in order and within ±(2**53 − 1)")
    allowed = f"an integer from {lo} to {hi}"
    if none_ok:
        allowed += ", or null"

    def convert(value: Any) -> int | None:
        if none_ok and (
            value is None
            or (isinstance(value, str) and valid_text(value).strip().lower() in ("none", "null"))
        ):
            return None
        return bounded(as_int(value), lo, hi)

    return Option(name, default, allowed, help, convert, lo=lo, hi=hi)


def boolean(name: str, default: bool, help: str) -> Option:
    return Option(name, default, "true or false", help, as_bool)


def allowed_text(spec: Any) -> str:
    """What an option allows, its bounds named: the spec's own `allowed` text, with `lo`/`hi` (an
    integer option's bounds) added where the text does not name them already (`bodoge rules`)."""
    text = str(spec.allowed)
    lo, hi = getattr(spec, "lo", None), getattr(spec, "hi", None)
    missing = [n for n in (lo, hi) if n is not None and str(n) not in text and f"{n:,}" not in text]
    if missing and lo is not None and hi is not None:
        text += f" (from {lo} to {hi})"
    elif missing:
        text += f" ({'at least' if lo is not None else 'at most'} {missing[0]})"
    return text


def parse_text(text: str) -> Any:
    """A value typed on the command line: JSON if it parses (12, true, [2,1,-1], {"3": 7}), else the text."""
    try:
        return load_json(text)
    except ValueError:
        return text


def resolve(specs: tuple[Option, ...], given: Mapping[str, Any]) -> dict[str, Any]:
    """Every option with defaults filled in, each converted; BadOption for unknown names or bad values."""
    by_name = {spec.name: spec for spec in specs}
    for name in given:
        if name not in by_name:
            known = ", ".join(sorted(by_name)) or "none"
            raise BadOption(name, given[name], f"one of the options {known}", "no such option")
    values: dict[str, Any] = {}
    for spec in specs:
        raw = given.get(spec.name, spec.default)
        try:
            values[spec.name] = spec.convert(raw)
        except (ValueError, TypeError) as exc:
            raise BadOption(spec.name, raw, spec.allowed, str(exc)) from None
    return values
