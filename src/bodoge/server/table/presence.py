"""Who is at a table, and the stand-ins for who is not.

A seat's person is present while a connection of theirs is open, at this process or (heard by the
table's owner) at another. One who is not there has the grace period (`TableManager.away_grace`) to
come: from the table's start (a new table, or the one Play again made: a link never opened is a
person absent from the start), from when they left, or, if the table had nobody at it when their
grace period ended, from when someone comes to play. Past it, or out of time on the clock, they are
away: a stand-in bot plays for them while anyone is there to play with, until they say they are back
or act themselves. The away seats live in memory: after a restart every person is at their seat
again (nobody is connected then, so the table is paused), and the first to come back starts the
others' grace periods.

What happens to the people is also the table's story (`story`): "Ben left", "a bot plays for Ben",
"Ben is back", "Ben plays again", "Ben joined the new table". These are table events, not game events:
the game's log and record never hold them. Each is kept with where it happened in each seat's log
(the length of that seat's log then, and the spectators'), so that a page can show it among the game's
lines; the newest STORY_KEPT are kept, in memory (a restart forgets them, as it forgets the away
seats).
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import TYPE_CHECKING, Any

from bodoge.server.cluster import HERE_EXPIRES

if TYPE_CHECKING:
    from bodoge.server.table.ports import Attended

log = logging.getLogger("bodoge.server")

STORY_KEPT = 100  # the newest table events a table keeps and sends in its summary
# What can happen to a seat's person: they left (their last connection closed), a stand-in plays for
# them (`away`, why: "gone" past the grace period or out of "time"), they are back at the table,
# they took their seat back from the stand-in (`resumed`), they took their seat at the rematch.
STORY_KINDS = ("left", "away", "back", "resumed", "joined_next")


class Presence:
    """The people present at one table, the grace periods running, and the away seats. It tells its
    table when someone came or went (`people_changed`); the owner's table makes its clock and bots
    follow."""

    def __init__(self, table: Attended) -> None:
        self.table = table
        self.away: set[int] = set()
        self._grace: dict[int, asyncio.TimerHandle] = {}  # seats gone, until the grace period ends
        # Several processes (cluster.py): the owner hears who is connected elsewhere: process ->
        # (seats, spectators, when it was heard, time.monotonic()).
        self.remote: dict[str, tuple[frozenset[int], int, float]] = {}
        self.story: list[dict[str, Any]] = []  # the table events, oldest first (see the module)
        self._story_n = 0  # the next table event's number (its id for the page)
        self._gone: set[int] = set()  # seats whose person left during play and is not back yet
        self._seen: set[int] = set()  # seats whose person has come at all (a rematch tells its table)

    # -- the table's story ------------------------------------------------------------------------

    def note(self, what: str, seat: int, **extra: Any) -> None:
        """Add a table event: `what` happened to `seat`'s person, now (at each seat's log length)."""
        state = self.table.state
        players = self.table.row.players
        at = [len(state.log(p)) for p in range(players)] + [len(state.log(None))]
        self._story_n += 1
        entry = {"n": self._story_n, "what": what, "seat": seat, "seq": len(state.history), "log": at}
        entry.update(extra)
        self.story.append(entry)
        del self.story[:-STORY_KEPT]
        self.table.broadcast_table()

    # -- who is here ------------------------------------------------------------------------------

    def here(self) -> tuple[set[int], int]:
        """The seats with a person connected to this process, and the spectators connected to it."""
        connections = self.table.connections
        seats = {c.seat for c in connections if c.seat is not None}
        return seats, sum(1 for c in connections if c.seat is None)

    def present_seats(self) -> set[int]:
        """The seats with a person connected, here or (heard by the owner) at another process."""
        seats = self.here()[0]
        for remote_seats, _spectators, _heard in self.remote.values():
            seats |= remote_seats
        return seats

    def people_present(self) -> bool:
        return bool(self.present_seats())

    def spectators(self) -> int:
        return self.here()[1] + sum(spectators for _seats, spectators, _heard in self.remote.values())

    @property
    def paused(self) -> bool:
        """A table in play with people at it, none of them connected: it waits for them (no clock
        runs, no stand-in plays)."""
        row = self.table.row
        has_people = any(info.get("kind") == "human" for info in row.seats)
        return row.status == "playing" and has_people and not self.people_present()

    # -- beside other processes -------------------------------------------------------------------

    def tell_here(self) -> None:
        """Tell the owner who is connected to this process's replica."""
        seats, spectators = self.here()
        self.table.manager.tell(
            {"kind": "here", "table": self.table.id, "seats": sorted(seats), "spectators": spectators}
        )

    def heard_here(self, process: str, seats: list[int], spectators: int) -> None:
        """The owner hears who is connected at another process (none: an empty list)."""
        before = self.present_seats()
        heard = frozenset(s for s in seats if isinstance(s, int) and 0 <= s < self.table.row.players)
        if heard or spectators:
            self.remote[process] = (heard, max(0, int(spectators)), time.monotonic())
        else:
            self.remote.pop(process, None)
        self._moved(before)

    def forget_silent(self) -> None:
        """Processes not heard of for HERE_EXPIRES have nobody here any more (they died)."""
        before = self.present_seats()
        limit = time.monotonic() - HERE_EXPIRES
        silent = [p for p, (_s, _n, heard) in self.remote.items() if heard < limit]
        for process in silent:
            del self.remote[process]
        if silent:
            self._moved(before)

    def _moved(self, before: set[int]) -> None:
        after = self.present_seats()
        for seat in before - after:
            self.departed(seat)
        for seat in after - before:
            self.arrived(seat)
        self.table.people_changed()
        self.table.maybe_unload()  # a finished table that nobody anywhere watches now

    # -- the grace period and the stand-ins -------------------------------------------------------

    def arrived(self, seat: int) -> None:
        """A person is connected again: their grace period, if one runs, ends; one who had left
        during play is back (the story says so); the first coming of a rematch's seat is told to
        the table it follows."""
        grace = self._grace.pop(seat, None)
        if grace is not None:
            grace.cancel()
        if seat in self._gone:
            self._gone.discard(seat)
            if self.table.row.status == "playing":
                self.note("back", seat)
        if seat not in self._seen:
            self._seen.add(seat)
            self.table.manager.joined_rematch(self.table.row, seat)

    def departed(self, seat: int) -> None:
        """A person's last connection closed (here, or heard from another process)."""
        table = self.table
        if table.row.seats[seat].get("kind") == "human" and table.row.status == "playing" and table.owned:
            self._gone.add(seat)
            self.note("left", seat)
        self.left(seat)

    def left(self, seat: int) -> None:
        """A person's last connection closed: after the grace period, a stand-in plays for them."""
        table = self.table
        if table.row.seats[seat].get("kind") != "human" or table.row.status != "playing" or not table.owned:
            return
        old = self._grace.pop(seat, None)
        if old is not None:
            old.cancel()
        self._grace[seat] = asyncio.get_running_loop().call_later(
            table.manager.away_grace, self._grace_over, seat
        )

    def expect_absent(self) -> None:
        """Every person not at the table, not away and without a grace period running gets one, as
        if they had just left: at the table's start (nobody has opened their link yet), and when
        someone comes to a table whose absent people's grace period ended while nobody was there.
        So a table never waits forever for a link that is never opened."""
        table = self.table
        if table.row.status != "playing" or not table.owned:
            return
        present = self.present_seats()
        for seat, info in enumerate(table.row.seats):
            if info.get("kind") == "human" and seat not in present | self.away and seat not in self._grace:
                self.left(seat)

    def _grace_over(self, seat: int) -> None:
        self._grace.pop(seat, None)
        if seat in self.present_seats():
            return
        if not self.people_present():
            # Nobody is at the table to wait for them (it is paused): they are not away yet, and
            # their grace period starts again when someone comes (`expect_absent`). Else the first
            # to come back, late, would find a stand-in playing their own seat.
            return
        log.info("table %s: seat %d is away; a stand-in plays for it", self.table.id, seat)
        self._go_away(seat, "gone")

    def ran_out(self, seat: int) -> None:
        """The seat's time ran out on the clock: a stand-in plays for it."""
        log.info("table %s: seat %d ran out of time; a stand-in plays for it", self.table.id, seat)
        self._go_away(seat, "time")

    def _go_away(self, seat: int, why: str) -> None:
        table = self.table
        if seat in self.away or table.row.status != "playing":
            return
        self.away.add(seat)
        self.note("away", seat, why=why)
        table.tick_clock()
        table.broadcast_table()
        table.bots.schedule()

    def come_back(self, seat: int) -> None:
        """The person takes their seat back from the stand-in."""
        if seat not in self.away:
            return
        self.away.discard(seat)
        self.note("resumed", seat)
        self.table.tick_clock()
        self.table.broadcast_table()

    def stop(self) -> None:
        """The table is no longer in play here: no grace period runs on."""
        for handle in self._grace.values():
            handle.cancel()
        self._grace.clear()
