"""Game options: each a name, a default, what is allowed, and a converter that checks a value.

A game declares its options as a tuple of `Option`s (TAG's parameters object: every tunable number in
one place). Values arrive from Python, from JSON records (where maps have string keys and tuples are
lists) or from the command line as text; `Option.convert` turns any of them into the one Python
form the rules use, or raises `ValueError` with the reason.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from bodoge.errors import BadOption


def _identity(value: Any) -> Any:
    return value


@dataclass(frozen=True)
class Option:
    name: str
    default: Any
    allowed: str
    help: str
    convert: Callable[[Any], Any] = field(default=_identity, repr=False)
    to_json: Callable[[Any], Any] = field(default=_identity, repr=False)


def as_int(value: Any) -> int:
    """An int, or a text or float that is exactly one; never a bool."""
    if isinstance(value, bool):
        raise ValueError("expected an integer, not a boolean")
    if isinstance(value, int):
        return value
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, str):
        try:
            return int(value.strip())
        except ValueError:
            pass
    raise ValueError("expected an integer")


def as_bool(value: Any) -> bool:
    if isinstance(value, bool):
        return value
    if isinstance(value, str) and value.strip().lower() in (
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
    lo: int | None = None,
    hi: int | None = None,
    none_ok: bool = False,
) -> Option:
    """An int option in lo..hi (either bound may be open); `none_ok` also allows None."""
    if lo is not None and hi is not None:
        allowed = f"an integer from {lo} to {hi}"
    elif lo is not None:
        allowed = f"an integer ≥ {lo}"
    elif hi is not None:
        allowed = f"an integer ≤ {hi}"
    else:
        allowed = "any integer"
    if none_ok:
        allowed += ", or null"

    def convert(value: Any) -> int | None:
        if none_ok and (
            value is None or (isinstance(value, str) and value.strip().lower() in ("none", "null"))
        ):
            return None
        n = as_int(value)
        if (lo is not None and n < lo) or (hi is not None and n > hi):
            raise ValueError("out of range")
        return n

    return Option(name, default, allowed, help, convert)


def boolean(name: str, default: bool, help: str) -> Option:
    return Option(name, default, "true or false", help, as_bool)


def parse_text(text: str) -> Any:
    """A value typed on the command line: JSON if it parses (12, true, [2,1,-1], {"3": 7}), else the text."""
    try:
        return json.loads(text)
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
