"""A table's turn clock, a table setting: {"turn_seconds": t, "reserve_seconds": r}.

A person's decision has turn_seconds, and then their reserve: what a turn takes beyond turn_seconds
comes out of it. The time runs only while a person is to move at their seat and some person is
connected; past it, the seat has run out of time (the table hands it to a stand-in). The clock lives
in memory: after a restart every reserve is whole.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import Any


class Clock:
    """The clock of one table: which turn's time runs, and every seat's reserve left. The table
    says what it should time (`tick`) after every move, arrival, departure and return; the clock
    calls `ran_out(seat)` when a turn's time is up."""

    def __init__(self, setting: dict[str, int] | None, players: int, ran_out: Callable[[int], None]) -> None:
        self.setting = setting  # None: the table has no clock
        self.reserve_left = [float(setting["reserve_seconds"]) if setting else 0.0] * players
        self.turn: tuple[int, int] | None = None  # (move, seat) whose time is running
        self._started = 0.0  # time.monotonic() when it started, moved on by pauses
        self._paused_at: float | None = None  # no person connected since then: the clock waits
        self._timer: asyncio.TimerHandle | None = None
        self._ran_out = ran_out

    def time_left(self) -> float | None:
        """Seconds left to the running turn, reserve included; None if no turn is timed."""
        if self.turn is None or self.setting is None:
            return None
        now = self._paused_at if self._paused_at is not None else time.monotonic()
        total = self.setting["turn_seconds"] + self.reserve_left[self.turn[1]]
        return max(0.0, total - (now - self._started))

    def settle(self) -> None:
        """Stop the running turn's time: what it took beyond turn_seconds comes out of the reserve."""
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        if self.turn is None or self.setting is None:
            self.turn = None
            return
        seat = self.turn[1]
        left = self.time_left() or 0.0
        self.reserve_left[seat] = min(self.reserve_left[seat], left)
        self.turn = None
        self._paused_at = None

    def tick(self, turn: tuple[int, int] | None, present: bool) -> None:
        """Match the table now: `turn` is the (move, seat) whose time should run (a person's
        decision), or None; `present` whether any person is connected. A new turn starts its time;
        it waits while nobody is connected."""
        if self.setting is None:
            return
        if self.turn != turn:
            self.settle()
            if turn is not None:
                self.turn, self._started, self._paused_at = turn, time.monotonic(), None
        if self.turn is None:
            return
        if not present and self._paused_at is None:
            self._paused_at = time.monotonic()
            if self._timer is not None:
                self._timer.cancel()
                self._timer = None
        elif present and self._paused_at is not None:
            self._started += time.monotonic() - self._paused_at
            self._paused_at = None
        if present and self._timer is None:
            self._timer = asyncio.get_running_loop().call_later(
                self.time_left() or 0.0, self._time_out, self.turn
            )

    def _time_out(self, turn: tuple[int, int]) -> None:
        self._timer = None
        if self.turn != turn:
            return
        seat = turn[1]
        self.reserve_left[seat] = 0.0
        self.turn = None
        self._ran_out(seat)

    def parts_left(self) -> tuple[float, float] | None:
        """The running turn's time left in its two parts: what is left of its turn_seconds, and of
        its seat's reserve (spent only once turn_seconds are); None if no turn is timed."""
        left = self.time_left()
        if left is None or self.turn is None:
            return None
        reserve = self.reserve_left[self.turn[1]]
        return max(0.0, left - reserve), min(reserve, left)

    def shown(self) -> dict[str, Any] | None:
        """The clock as the table's summary shows it: the setting, whose time runs and how much is
        left of it (`left`, both parts together; `turn_left`, the turn's own part), and every seat's
        reserve now (the running seat's less what the turn took of it so far); None for a table
        without a clock."""
        if self.setting is None:
            return None
        left = self.time_left()
        parts = self.parts_left()
        reserves = list(self.reserve_left)
        if parts is not None and self.turn is not None:
            reserves[self.turn[1]] = parts[1]
        return dict(
            self.setting,
            seat=None if self.turn is None else self.turn[1],
            left=None if left is None else round(left, 1),
            turn_left=None if parts is None else round(parts[0], 1),
            running=self.turn is not None and self._paused_at is None,
            reserve_left=[round(r, 1) for r in reserves],
        )
