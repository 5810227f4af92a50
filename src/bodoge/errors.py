"""The errors bodoge raises for bad input. Each one says what was wrong and what is allowed."""

from __future__ import annotations

import math
import sys
from typing import Any, TypeGuard


def is_int_in(value: Any, low: int, high: int) -> TypeGuard[int]:
    """Whether `value` is an integer from `low` to `high`. A bool is not, though Python counts it
    one: `true` in a JSON message or `True` in a call is a mistake, not the number 1."""
    return isinstance(value, int) and not isinstance(value, bool) and low <= value <= high


def is_number_in(value: Any, low: float, high: float) -> TypeGuard[int | float]:
    """Whether `value` is a finite number (an int or a float, not a bool, NaN or an infinity) from
    `low` to `high`; `high` may be `math.inf`, for no bound above. Finite as a float: the callers
    keep it as one, so an int past the largest float (`9` × 400) is refused here, not an
    OverflowError later (nor in `math.isfinite`, which raises on it)."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return False
    return abs(value) <= sys.float_info.max and not math.isnan(value) and low <= value <= high


class BodogeError(Exception):
    """Base of every error bodoge raises on purpose."""


class IllegalAction(BodogeError, ValueError):
    """An action that is not legal now. The state it was offered to is unchanged."""

    def __init__(self, action: Any, decision: str, reason: str) -> None:
        self.action = action
        self.decision = decision
        self.reason = reason
        super().__init__(f"illegal action {action!r} at {decision}: {reason}")


class BadOption(BodogeError, ValueError):
    """A game option (or player count, seed, seat) with a value that is not allowed."""

    def __init__(self, option: str, value: Any, allowed: str, reason: str = "") -> None:
        self.option = option
        self.value = value
        self.allowed = allowed
        self.reason = reason
        why = f": {reason}" if reason else ""
        super().__init__(f"bad value for {option!r}: {value!r}{why}; allowed: {allowed}")


class BadRecord(BodogeError, ValueError):
    """A game record that cannot be replayed (wrong format, rules version, or an illegal action)."""


class GameNotOver(BodogeError, RuntimeError):
    """A question only the end of a game can answer (`returns()`), asked while it is still going."""

    def __init__(self, question: str, decision: str) -> None:
        self.question = question
        self.decision = decision
        super().__init__(f"{question} is known only at the end of the game; it is still going ({decision})")
