"""A table's turn clock, a table setting: {"turn_seconds": t, "reserve_seconds": r, "long": bool}.

A person's decision has turn_seconds, and then their reserve: what a turn takes beyond turn_seconds
comes out of it. Past both, the seat has run out of time (the table hands the move to a stand-in).

Two kinds of clock, by how a table is played:

- **A sitting** (the default): the time runs only while a person is to move at their seat and some
  person is connected; it waits while nobody is. It lives in memory: a restart gives every seat its
  whole reserve back (the restart paused the game, as an empty table does).
- **Over days** (`"long": true`, hours or days a move, server/longplay.py): the time runs on whether
  anyone is connected or not, like a letter's postmark. It lives in the stored data: a turn starts at
  the time its previous action was logged (or the table was made), and ends at the time its own
  action was logged, so `reserves_after` gives every seat's reserve from the action log alone and a
  restart goes on with exactly the time that was left.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Iterable, Sequence
from typing import Any

# A clock over days (checked where a table is made, app.ClockIn): at least an hour a move, at most a
# week, and a reserve of at most two weeks.
LONG_TURN = (3600, 7 * 86400)
LONG_RESERVE = 14 * 86400


def over_days(setting: dict[str, Any] | None) -> bool:
    """Whether a table's clock setting is a clock over days."""
    return bool(setting and setting.get("long"))


def spent(reserve: float, took: float, turn_seconds: float) -> float:
    """A seat's reserve after a decision that took `took` seconds: what went beyond turn_seconds
    comes out of it; a decision that ran out of time (its stand-in moved) leaves none."""
    return max(0.0, reserve - max(0.0, took - turn_seconds))


def reserves_after(
    setting: dict[str, Any], people: Sequence[bool], made_at: float, logged: Iterable[tuple[int, float]]
) -> list[float]:
    """Every seat's reserve on a clock over days after the logged actions `(seat, at)`, in order:
    each person's decision took from the previous action's time (the table's making, for the first)
    to its own. `people[seat]`: whether a person plays the seat (a bot's decisions are not timed)."""
    reserve = [float(setting["reserve_seconds"])] * len(people)
    since = made_at
    for seat, at in logged:
        if 0 <= seat < len(people) and people[seat]:
            reserve[seat] = spent(reserve[seat], at - since, setting["turn_seconds"])
        since = at
    return reserve


class Clock:
    """The clock of one table: which turn's time runs, and every seat's reserve left. The table
    says what it should time (`tick`) after every move, arrival, departure and return; the clock
    calls `ran_out(seat)` when a turn's time is up."""

    def __init__(self, setting: dict[str, int] | None, players: int, ran_out: Callable[[int], None]) -> None:
        self.setting = setting  # None: the table has no clock
        self.long = over_days(setting)
        self.reserve_left = [float(setting["reserve_seconds"]) if setting else 0.0] * players
        self.turn: tuple[int, int] | None = None  # (move, seat) whose time is running
        # A sitting's clock: time.monotonic() when the turn started, moved on by pauses. A clock over
        # days: time.time() when the turn started, the time its previous action was logged.
        self._started = 0.0
        self._paused_at: float | None = None  # no person connected since then: the clock waits
        self._timer: asyncio.TimerHandle | None = None
        self._ran_out = ran_out

    def _now(self) -> float:
        return time.time() if self.long else time.monotonic()

    def restore(self, reserves: Sequence[float]) -> None:
        """A clock over days rebuilt from the log (`reserves_after`): every seat's reserve left."""
        self.reserve_left = [float(r) for r in reserves]

    def time_left(self) -> float | None:
        """Seconds left to the running turn, reserve included; None if no turn is timed."""
        if self.turn is None or self.setting is None:
            return None
        now = self._paused_at if self._paused_at is not None else self._now()
        total = self.setting["turn_seconds"] + self.reserve_left[self.turn[1]]
        return max(0.0, total - (now - self._started))

    def deadline(self) -> float | None:
        """When the running turn's time is up (time.time()), if the clock runs now; else None."""
        left = self.time_left()
        if left is None or self._paused_at is not None:
            return None
        if self.long and self.setting is not None and self.turn is not None:
            return self._started + self.setting["turn_seconds"] + self.reserve_left[self.turn[1]]
        return time.time() + left

    def settle(self, ended: float | None = None) -> None:
        """Stop the running turn's time: what it took beyond turn_seconds comes out of the reserve.
        `ended`: on a clock over days, when the turn ended (its action's logged time)."""
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        if self.turn is None or self.setting is None:
            self.turn = None
            return
        seat = self.turn[1]
        if self.long:
            took = (ended if ended is not None else time.time()) - self._started
            self.reserve_left[seat] = spent(self.reserve_left[seat], took, self.setting["turn_seconds"])
        else:
            left = self.time_left() or 0.0
            self.reserve_left[seat] = min(self.reserve_left[seat], left)
        self.turn = None
        self._paused_at = None

    def tick(self, turn: tuple[int, int] | None, present: bool, since: float | None = None) -> None:
        """Match the table now: `turn` is the (move, seat) whose time should run (a person's
        decision), or None; `present` whether any person is connected; `since` when the table's
        last action was logged (or it was made). A new turn starts its time; on a sitting's clock it
        waits while nobody is connected, on a clock over days it runs from `since` whoever is here."""
        if self.setting is None:
            return
        if self.long:
            self._tick_long(turn, time.time() if since is None else since)
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

    def _tick_long(self, turn: tuple[int, int] | None, since: float) -> None:
        if self.turn != turn:
            # The turn that ran ended when the action after it was logged: at `since`. (One that
            # ran out of time has stopped already: `_time_out` spent its reserve.)
            self.settle(since)
            if turn is not None:
                self.turn, self._started, self._paused_at = turn, since, None
        if self.turn is not None and self._timer is None:
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
        left of it (`left`, both parts together; `turn_left`, the turn's own part), when it is up
        (`deadline`, time.time(); None while it waits), and every seat's reserve now (the running
        seat's less what the turn took of it so far); None for a table without a clock."""
        if self.setting is None:
            return None
        left = self.time_left()
        parts = self.parts_left()
        reserves = list(self.reserve_left)
        if parts is not None and self.turn is not None:
            reserves[self.turn[1]] = parts[1]
        deadline = self.deadline()
        return dict(
            self.setting,
            long=self.long,
            seat=None if self.turn is None else self.turn[1],
            left=None if left is None else round(left, 1),
            turn_left=None if parts is None else round(parts[0], 1),
            running=self.turn is not None and self._paused_at is None,
            deadline=None if deadline is None else round(deadline, 3),
            reserve_left=[round(r, 1) for r in reserves],
        )
