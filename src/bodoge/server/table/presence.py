"""Who is at a table, and the stand-ins for who is not.

A seat's person is present while a connection of theirs is open, at this process or (heard by the
table's owner) at another. One who is not there has the grace period (`TableManager.away_grace`) to
come: from the table's start (a new table, or the one Play again made: a link never opened is a
person absent from the start), from when they left, or, if the table had nobody at it when their
grace period ended, from when someone comes to play. Past it, or out of time on the clock, they are
away: a stand-in bot plays for them while anyone is there to play with, until they say they are back
or act themselves. The away seats live in memory: after a restart every person is at their seat
again (nobody is connected then, so the table is paused), and the first to come back starts the
others' grace periods (the server's being down was nobody's absence).

A table played over days (a clock over days, clock.py and server/longplay.py) never waits for
anyone to be connected: closing the page is no absence there, so it has no grace period and no pause.
Only the clock hands a move to the stand-in: when a decision's time is up, the stand-in makes that one
move, and the seat is its person's again at their next decision. Nothing of that is kept in memory
alone: the clock comes from the action log, so a restart past a deadline hands that move on at once.

What happens to the people is also the table's story (`story`): "Ben left", "a bot plays for Ben",
"Ben is back", "Ben plays again", "Ben joined the new table". These are table events, not game events:
the game's log and record never hold them. Each is kept with where it happened in each seat's log
(the length of that seat's log then, and the spectators'), so that a page can show it among the game's
lines; the newest STORY_KEPT are kept, in memory and in the database (server/longplay.py: written in
order through the writer, read back when the table is rebuilt, so a restart shows the same story).
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import TYPE_CHECKING, Any

from bodoge.server.cluster import HERE_EXPIRES
from bodoge.server.longplay import save_story
from bodoge.server.table.clock import over_days

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
        self._stood_in: dict[int, int] = {}  # over days: seat -> the move its stand-in makes for it
        self._saving: set[asyncio.Task[None]] = set()  # story entries on their way to the database

    @property
    def over_days(self) -> bool:
        """A table played over days (a clock over days): nobody needs to be connected."""
        return over_days(self.table.row.settings.get("clock"))

    # -- the table's story ------------------------------------------------------------------------

    def note(self, what: str, seat: int, **extra: Any) -> None:
        """Add a table event: `what` happened to `seat`'s person, now (at each seat's log length)."""
        if what == "joined_next" and self.told(what, seat, **extra):
            return  # told before a restart: after it, everyone's first coming is new to the new table
        state = self.table.state
        players = self.table.row.players
        at = [len(state.log(p)) for p in range(players)] + [len(state.log(None))]
        self._story_n += 1
        entry = {"n": self._story_n, "what": what, "seat": seat, "seq": len(state.history), "log": at}
        entry.update(extra)
        self.story.append(entry)
        del self.story[:-STORY_KEPT]
        if self.table.owned:  # (a replica's people see the owner's story)
            self._save(entry)
        self.table.broadcast_table()

    def _save(self, entry: dict[str, Any]) -> None:
        """Store the entry, in order with the table's other writes, off the event loop."""
        manager = self.table.manager
        task = asyncio.get_running_loop().create_task(
            manager.writer.call(save_story, manager.storage, self.table.id, entry, STORY_KEPT)
        )
        self._saving.add(task)
        task.add_done_callback(self._saved)

    def _saved(self, task: asyncio.Task[None]) -> None:
        self._saving.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("table %s: a story entry could not be stored: %s", self.table.id, task.exception())

    def restore(self, story: list[dict[str, Any]]) -> None:
        """The story as stored (a table rebuilt after a restart), oldest first; who had left during
        play and had not come back is still gone (their return is told)."""
        self.story = story[-STORY_KEPT:]
        self._story_n = max((entry["n"] for entry in self.story), default=0)
        for entry in self.story:
            if entry["what"] == "left":
                self._gone.add(entry["seat"])
            elif entry["what"] == "back":
                self._gone.discard(entry["seat"])

    def told(self, what: str, seat: int, **extra: Any) -> bool:
        """Whether the story tells this already (the same event, noted again after a restart)."""
        return any(
            e["what"] == what and e["seat"] == seat and all(e.get(k) == v for k, v in extra.items())
            for e in self.story
        )

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

    def attended(self) -> bool:
        """Whether the table plays on now, stand-ins included: someone is connected to play with, or
        it is played over days (which never waits for anyone to be connected)."""
        return self.over_days or self.people_present()

    def spectators(self) -> int:
        return self.here()[1] + sum(spectators for _seats, spectators, _heard in self.remote.values())

    @property
    def paused(self) -> bool:
        """A table in play with people at it, none of them connected: it waits for them (no clock
        runs, no stand-in plays)."""
        row = self.table.row
        has_people = any(info.get("kind") == "human" for info in row.seats)
        return row.status == "playing" and has_people and not self.attended()

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
        """A person's last connection closed: after the grace period, a stand-in plays for them
        (not over days: there only the clock hands a move on)."""
        table = self.table
        if table.row.seats[seat].get("kind") != "human" or table.row.status != "playing" or not table.owned:
            return
        if self.over_days:
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
        if self.over_days:
            table.tick_clock()  # nobody is waited for over days: the first decision's time runs now
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
        """The seat's time ran out on the clock: a stand-in plays for it (over days: this move)."""
        log.info("table %s: seat %d ran out of time; a stand-in plays for it", self.table.id, seat)
        if self.over_days:
            self._stood_in[seat] = self.table.seq
        self._go_away(seat, "time")

    def moved_on(self) -> None:
        """The table moved on (after every move): over days, a seat whose stand-in made the move
        that ran out of time is its person's again."""
        seq = self.table.seq
        for seat, at in list(self._stood_in.items()):
            if at < seq:
                del self._stood_in[seat]
                self.away.discard(seat)

    def came(self, seat: int) -> bool:
        """Whether the seat's person is here, or has come since the table was loaded here."""
        return seat in self.present_seats() or seat in self._seen

    def hand_over(self, seat: int) -> None:
        """The table's maker gives the seat of a person who never came to the stand-in, which plays
        it until they come, if ever (server/seating.py)."""
        self._go_away(seat, "gone")

    def _go_away(self, seat: int, why: str) -> None:
        table = self.table
        if seat in self.away or table.row.status != "playing":
            return
        self.away.add(seat)
        if not (self.over_days and self.told("away", seat, seq=table.seq)):  # once, restart or not
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
