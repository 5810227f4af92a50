"""Tables in play: each holds its state in memory, logs every action, and sends every seat its view.

The flow of one action (from a seat's websocket or a bot): under the table's lock, check that it is
that seat's decision and the action is legal, apply it to a clone, commit it to the log, and only
then make the clone the table's state and send the new views: seat p gets exactly `view(p)`,
spectators `view(None)`, each with only the log entries its connection lacks. Anything wrong (not
your turn, stale, illegal) is answered with an error and changes nothing.

People behave like people, so a table also keeps: a turn clock (a table setting), the seats whose
person is away (out of time, or gone longer than the grace period: a stand-in bot plays for them
while anyone is there to play with), the seats' names, a chat, and the rematch it led to.
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import logging
import random
import secrets
import time
from collections.abc import Callable
from typing import Any, TypeVar, cast

from bodoge import agents
from bodoge.agents import reads_log
from bodoge.core.game import Game, State
from bodoge.core.registry import game_class, make
from bodoge.errors import BodogeError
from bodoge.server.bots import BotPool
from bodoge.server.cluster import HERE_EXPIRES, HERE_INTERVAL, Cluster, NoOwner
from bodoge.server.replays import Replays
from bodoge.server.storage import Append, ChatLine, Storage, TableRow, Writer
from bodoge.server.table.connection import ActionError, Connection, dumps, hash_token, new_token
from bodoge.server.table.plain import MAX_NAME, chat_line, clean_name, name_key

T = TypeVar("T")

log = logging.getLogger("bodoge.server")

MAX_CHAT_LINES = 1000  # chat lines one table keeps; past them the chat is full
CHAT_SHOWN = 100  # chat lines a new connection is sent
DEFAULT_STANDIN = "heuristic"  # the bot that plays for an away person, unless the table chose one


class TableRuntime:
    def __init__(
        self, manager: TableManager, row: TableRow, game: Game, state: State, creator: str = ""
    ) -> None:
        self.manager = manager
        self.creator = creator  # the client address that made it ("" if made before a restart)
        self.row = row
        self.game = game
        self.state = state
        self.lock = asyncio.Lock()
        self.connections: set[Connection] = set()
        self.bot_task: asyncio.Task[None] | None = None
        # `view` messages of `_views_of` by (seat, log entries the client has): (text, log length),
        # or the worker thread's future while a long one is built.
        self._views: dict[tuple[int | None, int], Any] = {}
        self._views_of: State | None = None
        self._table_due = False  # a `table` message is scheduled for this loop turn
        self.chat: list[ChatLine] = []
        self._chat_lock = asyncio.Lock()
        self._rematch_lock = asyncio.Lock()
        # The clock and the away seats live in memory: after a restart every reserve is whole and
        # every person is at their seat again (nobody is connected then, so the table is paused).
        self.away: set[int] = set()
        clock = row.settings.get("clock")
        self.clock: dict[str, int] | None = clock
        self.reserve_left = [float(clock["reserve_seconds"]) if clock else 0.0] * row.players
        self._turn: tuple[int, int] | None = None  # (move, seat) whose time is running
        self._turn_started = 0.0  # time.monotonic() when it started, moved on by pauses
        self._paused_at: float | None = None  # no person connected since then: the clock waits
        self._clock_timer: asyncio.TimerHandle | None = None
        self._grace: dict[int, asyncio.TimerHandle] = {}  # seats gone, until the grace period ends
        # Several processes (cluster.py): only the owner applies actions, runs bots and the clock;
        # another process keeps a replica, forwards its people's requests and hears the owner's
        # summaries. The owner hears who is connected elsewhere: process -> (seats, spectators,
        # when it was heard, time.monotonic()).
        self.owned = True
        self.remote: dict[str, tuple[frozenset[int], int, float]] = {}
        self.owner_summary: dict[str, Any] | None = None
        self.idle_since = time.monotonic()  # when its last connection here closed (a replica's)

    @property
    def id(self) -> str:
        return self.row.id

    @property
    def seq(self) -> int:
        return len(self.state.history)

    def seat_of(self, token: str | None) -> int | None:
        """The seat a token opens, or None (a spectator) for no or a wrong token."""
        if not token or not isinstance(token, str) or len(token) > 200:
            return None
        digest = hash_token(token)
        found = None
        for seat, stored in enumerate(self.row.token_hashes):
            if stored is not None and hmac.compare_digest(stored, digest):
                found = seat
        return found

    # -- what is sent ---------------------------------------------------------------------------

    async def view_text(self, conn: Connection) -> str:
        """The `view` message for `conn` at the newest move, with the log entries it lacks; it then
        has the whole log. Connections of one seat share the text. A whole log in a long game at
        large options runs to megabytes: past VIEW_ON_LOOP_EVENTS events (about 1.5 ms a view) it is
        built in a worker thread, so that the event loop never stalls on it. Smaller ones are built
        here: a thread's hand-off would cost more than they do."""
        state = self.state
        if self._views_of is not state:
            self._views, self._views_of = {}, state
        key = (conn.seat, conn.log_len)
        built = self._views.get(key)
        if built is None:
            if len(state.events) <= VIEW_ON_LOOP_EVENTS:
                built = _view_text(self.id, state, conn.seat, conn.log_len)
            else:
                built = asyncio.ensure_future(
                    asyncio.to_thread(_view_text, self.id, state, conn.seat, conn.log_len)
                )
            self._views[key] = built
        if isinstance(built, asyncio.Future):
            try:
                built = await asyncio.shield(built)
            except Exception:
                if self._views.get(key) is built:
                    del self._views[key]
                raise
        text, conn.log_len = cast(tuple[str, int], built)
        return text

    def summary(self) -> dict[str, Any]:
        """What anyone may know of the table (the lobby, spectators): never the seed or tokens. A
        replica gives the owner's latest (which knows the clock and the away seats)."""
        if not self.owned and self.owner_summary is not None:
            return dict(self.owner_summary, options=self.row.options)
        summary = table_summary(
            self.row, self.seq, self.state, self.present_seats(), spectators=self._spectators()
        )
        for info in summary["seats"]:
            info["away"] = info["seat"] in self.away
        summary["paused"] = self.paused
        if self.clock is not None:
            left = self.time_left()
            summary["clock"] = dict(
                self.clock,
                seat=None if self._turn is None else self._turn[1],
                left=None if left is None else round(left, 1),
                running=self._turn is not None and self._paused_at is None,
                reserve_left=[round(r, 1) for r in self.reserve_left],
            )
        return summary

    @property
    def paused(self) -> bool:
        """A table in play with people at it, none of them connected: it waits for them (no clock
        runs, no stand-in plays)."""
        has_people = any(info.get("kind") == "human" for info in self.row.seats)
        return self.row.status == "playing" and has_people and not self.people_present()

    def people_present(self) -> bool:
        return bool(self.present_seats())

    def here(self) -> tuple[set[int], int]:
        """The seats with a person connected to this process, and the spectators connected to it."""
        seats = {c.seat for c in self.connections if c.seat is not None}
        return seats, sum(1 for c in self.connections if c.seat is None)

    def present_seats(self) -> set[int]:
        """The seats with a person connected, here or (heard by the owner) at another process."""
        seats = self.here()[0]
        for remote_seats, _spectators, _heard in self.remote.values():
            seats |= remote_seats
        return seats

    def _spectators(self) -> int:
        return self.here()[1] + sum(spectators for _seats, spectators, _heard in self.remote.values())

    def broadcast(self) -> None:
        """Send every connection its view of the current move."""
        for conn in list(self.connections):
            conn.push("view")

    def broadcast_chat(self, line: ChatLine) -> None:
        text = dumps({"type": "chat", "line": line.as_json()})
        for conn in list(self.connections):
            conn.push("chat", text)

    def broadcast_table(self) -> None:
        """Send everyone the table's summary, once per loop turn however many changes came in it
        (a crowd of spectators coming and going costs one summary, not one each)."""
        if not self._table_due:
            self._table_due = True
            asyncio.get_running_loop().call_soon(self._send_table)

    def _send_table(self) -> None:
        self._table_due = False
        summary = self.summary()
        text = dumps({"type": "table", "table": summary})
        for conn in list(self.connections):
            conn.push("table", text)
        if self.owned and self.remote:
            # The other processes' people see the owner's summary. Options are the row's, which
            # every replica has: left out, a summary fits a notification (a seat's name and bot
            # spec are bounded; one too long anyway is refused by `encode`, and logged).
            shared = {k: v for k, v in summary.items() if k != "options"}
            self.manager.tell({"kind": "table", "table": self.id, "summary": shared})

    def attach(self, conn: Connection) -> TableRuntime:
        """A connection joins: it gets its view; a seat's older connection (another tab or device)
        is told it was replaced and closed (4409): one seat, one place that plays it. Returns the
        table it joined: another if this one is a replica that left memory meanwhile."""
        if not self.owned and self.manager.tables.get(self.id) is not self:
            # Unloaded while the connection said hello: it joins the one in memory (which hears of
            # every move), or this one goes back and catches up.
            current = self.manager.tables.setdefault(self.id, self)
            if current is not self:
                return current.attach(conn)
            self.manager.catch_up_later(self)
        if conn.seat is not None:
            self.replace(conn.seat, conn.id)
            grace = self._grace.pop(conn.seat, None)
            if grace is not None:
                grace.cancel()
            if self.manager.cluster.shared:  # and at the other processes
                self.manager.tell({"kind": "seat", "table": self.id, "seat": conn.seat, "keep": conn.id})
        self.connections.add(conn)
        conn.push("view")
        self._people_changed()
        return self

    def replace(self, seat: int, keep: str) -> bool:
        """Close the seat's connections other than `keep` (4409); True if there were any."""
        old = [c for c in self.connections if c.seat == seat and c.id != keep]
        for conn in old:
            conn.push(
                "replaced",
                dumps(
                    {
                        "type": "replaced",
                        "message": "your seat was opened in another window or device; "
                        "this one no longer plays it",
                    }
                ),
            )
            conn.close(4409, "the seat was opened elsewhere")
            self.connections.discard(conn)
        return bool(old)

    def detach(self, conn: Connection) -> None:
        conn.closed = True
        if conn not in self.connections:
            return  # replaced by a newer connection of its seat: it had left already
        self.connections.discard(conn)
        seat = conn.seat
        if seat is not None and seat not in self.present_seats():
            self._seat_left(seat)
        self._people_changed()
        self.maybe_unload()

    def _people_changed(self) -> None:
        """Someone came or went: the clock pauses or goes on, stand-ins start or stop (the owner),
        or the owner is told who is here now (a replica)."""
        if not self.owned:
            self.tell_here()
            return
        self._tick_clock()
        self.broadcast_table()
        self.schedule_bots()

    def tell_here(self) -> None:
        """Tell the owner who is connected to this process's replica."""
        seats, spectators = self.here()
        self.manager.tell(
            {"kind": "here", "table": self.id, "seats": sorted(seats), "spectators": spectators}
        )

    def heard_here(self, process: str, seats: list[int], spectators: int) -> None:
        """The owner hears who is connected at another process (none: an empty list)."""
        before = self.present_seats()
        heard = frozenset(s for s in seats if isinstance(s, int) and 0 <= s < self.row.players)
        if heard or spectators:
            self.remote[process] = (heard, max(0, int(spectators)), time.monotonic())
        else:
            self.remote.pop(process, None)
        self._presence_moved(before)

    def forget_silent(self) -> None:
        """Processes not heard of for HERE_EXPIRES have nobody here any more (they died)."""
        before = self.present_seats()
        limit = time.monotonic() - HERE_EXPIRES
        silent = [p for p, (_s, _n, heard) in self.remote.items() if heard < limit]
        for process in silent:
            del self.remote[process]
        if silent:
            self._presence_moved(before)

    def _presence_moved(self, before: set[int]) -> None:
        after = self.present_seats()
        for seat in before - after:
            self._seat_left(seat)
        for seat in after - before:
            grace = self._grace.pop(seat, None)
            if grace is not None:
                grace.cancel()
        self._people_changed()
        self.maybe_unload()  # a finished table that nobody anywhere watches now

    def maybe_unload(self) -> None:
        """A table no longer in play that nobody watches leaves memory; it is rebuilt from the log
        when asked for. A replica leaves a while after nobody here watches it (`_keep_in_touch`)."""
        if not self.owned:
            if not self.connections:
                self.idle_since = time.monotonic()
            return
        if self.row.status != "playing":
            self._stop_timers()
            if not self.connections and not self.remote:
                self.manager.unload(self)

    def _stop_timers(self) -> None:
        self._settle_turn()
        for handle in self._grace.values():
            handle.cancel()
        self._grace.clear()

    # -- the clock and the away seats -----------------------------------------------------------

    def _clocked_seat(self) -> int | None:
        """The seat whose time runs now: a person to move who is at their seat."""
        seat = self.state.current_player
        if self.clock is None or self.row.status != "playing" or seat is None or not self.owned:
            return None
        if self.row.seats[seat].get("kind") != "human" or seat in self.away:
            return None
        return seat

    def time_left(self) -> float | None:
        """Seconds left to the running turn, reserve included; None if no turn is timed."""
        if self._turn is None or self.clock is None:
            return None
        now = self._paused_at if self._paused_at is not None else time.monotonic()
        total = self.clock["turn_seconds"] + self.reserve_left[self._turn[1]]
        return max(0.0, total - (now - self._turn_started))

    def _settle_turn(self) -> None:
        """Stop the running turn's time: what it took beyond turn_seconds comes out of the reserve."""
        if self._clock_timer is not None:
            self._clock_timer.cancel()
            self._clock_timer = None
        if self._turn is None or self.clock is None:
            self._turn = None
            return
        seat = self._turn[1]
        left = self.time_left() or 0.0
        self.reserve_left[seat] = min(self.reserve_left[seat], left)
        self._turn = None
        self._paused_at = None

    def _tick_clock(self) -> None:
        """Make the clock match the table now: after every move, arrival, departure and return.
        A new decision of a person starts their time; it waits while nobody is connected."""
        if self.clock is None:
            return
        seat = self._clocked_seat()
        turn = None if seat is None else (self.seq, seat)
        if self._turn != turn:
            self._settle_turn()
            if turn is not None:
                self._turn, self._turn_started, self._paused_at = turn, time.monotonic(), None
        if self._turn is None:
            return
        present = self.people_present()
        if not present and self._paused_at is None:
            self._paused_at = time.monotonic()
            if self._clock_timer is not None:
                self._clock_timer.cancel()
                self._clock_timer = None
        elif present and self._paused_at is not None:
            self._turn_started += time.monotonic() - self._paused_at
            self._paused_at = None
        if present and self._clock_timer is None:
            self._clock_timer = asyncio.get_running_loop().call_later(
                self.time_left() or 0.0, self._time_out, self._turn
            )

    def _time_out(self, turn: tuple[int, int]) -> None:
        self._clock_timer = None
        if self._turn != turn:
            return
        seat = turn[1]
        self.reserve_left[seat] = 0.0
        self._turn = None
        log.info("table %s: seat %d ran out of time; a stand-in plays for it", self.id, seat)
        self._go_away(seat)

    def _seat_left(self, seat: int) -> None:
        """A person's last connection closed: after the grace period, a stand-in plays for them."""
        if self.row.seats[seat].get("kind") != "human" or self.row.status != "playing" or not self.owned:
            return
        old = self._grace.pop(seat, None)
        if old is not None:
            old.cancel()
        self._grace[seat] = asyncio.get_running_loop().call_later(
            self.manager.away_grace, self._grace_over, seat
        )

    def _grace_over(self, seat: int) -> None:
        self._grace.pop(seat, None)
        if seat not in self.present_seats():
            log.info("table %s: seat %d is away; a stand-in plays for it", self.id, seat)
            self._go_away(seat)

    def _go_away(self, seat: int) -> None:
        if seat in self.away or self.row.status != "playing":
            return
        self.away.add(seat)
        self._tick_clock()
        self.broadcast_table()
        self.schedule_bots()

    async def come_back(self, seat: int) -> None:
        """The person takes their seat back from the stand-in ("I'm back", or an action of theirs)."""
        if not self.owned and await self._forwarded("back", seat) is not None:
            return
        if seat not in self.away:
            return
        self.away.discard(seat)
        self._tick_clock()
        self.broadcast_table()

    # -- names, chat, rematch -------------------------------------------------------------------

    async def rename(self, seat: int, raw: Any) -> None:
        """The person at `seat` names themselves; ActionError (and nothing changed) for a name that
        is not a short line of text, or that another seat has."""
        try:
            name = clean_name(raw)
        except ValueError as exc:
            raise ActionError("bad_name", str(exc)) from None
        if not name:
            raise ActionError("bad_name", f"a name is 1 to {MAX_NAME} characters")
        if not self.owned and await self._forwarded("name", seat, name=name) is not None:
            return
        for other, info in enumerate(self.row.seats):
            if other != seat and name_key(info.get("name") or "") == name_key(name):
                raise ActionError(
                    "name_taken", f"seat {other} is called {name!r} already; choose another name"
                )
        if self.row.seats[seat].get("name") == name:
            return
        seats = [dict(info) for info in self.row.seats]
        seats[seat]["name"] = name
        try:
            await self.manager.writer.call(self.manager.storage.set_seats, self.id, seats)
        except Exception as exc:
            log.error("table %s: could not save a name: %s", self.id, exc)
            raise ActionError("storage", "the name could not be saved; try again") from None
        self.row.seats = seats
        self.broadcast_table()

    async def say(self, seat: int, text: str) -> None:
        """A chat line (checked by `chat_line`) from `seat`: stored with the table, then sent to
        everyone at it."""
        if not self.owned and await self._forwarded("chat", seat, text=text) is not None:
            return
        async with self._chat_lock:
            if len(self.chat) >= MAX_CHAT_LINES:
                raise ActionError("chat_full", f"this table's chat is full ({MAX_CHAT_LINES} lines)")
            name = self.row.seats[seat].get("name") or f"P{seat}"
            line = ChatLine(len(self.chat), seat, name, text, self.seq, round(time.time(), 3))
            try:
                await self.manager.writer.call(self.manager.storage.add_chat, self.id, line)
            except Exception as exc:
                log.error("table %s: could not save a chat line: %s", self.id, exc)
                raise ActionError("storage", "the chat line could not be saved; try again") from None
            self.chat.append(line)
        self.broadcast_chat(line)
        if self.manager.cluster.shared:
            self.manager.tell({"kind": "chat", "table": self.id, "line": line.as_json()})

    def heard_chat(self, line: dict[str, Any]) -> None:
        """A replica hears a chat line the owner stored."""
        said = ChatLine(**line)
        if said.n == len(self.chat):
            self.chat.append(said)
            self.broadcast_chat(said)

    async def rematch(self, creator: str) -> str:
        """The id of the table that plays this game again (made by the first to ask; later asks
        get it too); everyone at this table is offered their seat at it."""
        if self.row.status == "playing":
            raise ActionError("running", "a rematch is offered once the game is over")
        if not self.owned:
            answer = await self._forwarded("rematch", None, creator=creator)
            if answer is not None:
                self._next_table(str(answer["next_table"]))
                return str(answer["next_table"])
        async with self._rematch_lock:
            following = self.row.settings.get("next_table")
            if not following:
                runtime = await self.manager.create_rematch(self.row, creator)
                settings = dict(self.row.settings, next_table=runtime.id)
                await self.manager.writer.call(self.manager.storage.set_settings, self.id, settings)
                self.row.settings = settings
                following = runtime.id
        self.broadcast_table()
        self._offer_rematch()
        return str(following)

    def _next_table(self, following: str) -> None:
        """A replica learns of the rematch (from an answer, or the owner's summary)."""
        if self.row.settings.get("next_table") != following:
            self.row.settings = dict(self.row.settings, next_table=following)
            self._offer_rematch()

    def _offer_rematch(self) -> None:
        for conn in list(self.connections):
            offer = self.rematch_message(conn)
            if offer is not None:
                conn.push("rematch", offer)

    def rematch_message(self, conn: Connection) -> str | None:
        """The `rematch` message for a seat's connection: its seat at the next table and its link
        (its token, which opens that seat too); None if there is none for it."""
        following = self.row.settings.get("next_table")
        if not following or conn.seat is None or conn.token is None:
            return None
        seat = (conn.seat + 1) % self.row.players
        return dumps(
            {
                "type": "rematch",
                "table": following,
                "seat": seat,
                "join_url": f"/t/{following}#token={conn.token}",
            }
        )

    # -- actions --------------------------------------------------------------------------------

    async def submit(self, seat: int, action: Any, seq: int | None = None, bot: bool = False) -> None:
        """Take `action` for `seat`; ActionError (and nothing changed) if it may not be taken. A
        `bot` move is refused once no bot plays that seat (its person came back meanwhile).
        A replica forwards it to the owner (whose bots play: a replica's never do)."""
        if not self.owned:
            if bot:
                raise ActionError("stale", "another process owns the table now")
            if await self._forwarded("action", seat, action=action, seq=seq) is not None:
                return
        async with self.lock:
            if bot and self.bot_spec(seat) is None:
                raise ActionError("stale", "the seat's person is back")
            state = self.state
            if state.is_terminal:
                raise ActionError("game_over", "the game is over")
            if self.row.status == "abandoned":
                raise ActionError("abandoned", "the table was abandoned: nobody moved for too long")
            if seq is not None and seq != self.seq:
                raise ActionError(
                    "stale", f"your action was for move {seq}, but the table is at move {self.seq}"
                )
            if seat != state.current_player:
                raise ActionError("not_your_turn", "it is not your decision now")
            legal = state.legal_actions()
            if isinstance(action, bool) or not isinstance(action, int) or action not in legal:
                shown = repr(action) if isinstance(action, int) and abs(action) < 2**63 else "that"
                raise ActionError(
                    "illegal",
                    f"{shown} is not one of your legal action ids now ({', '.join(map(str, legal))})",
                )
            nxt = state.clone()
            try:
                nxt.apply(action, seat=seat)
            except BodogeError as exc:  # a legal id refused: the game's bug, not the client's
                log.error("table %s: legal action %s refused: %s", self.id, action, exc)
                raise ActionError("illegal", "the game refused that action") from None
            result = None
            if nxt.is_terminal:
                result = {"scores": nxt.scores(), "winners": nxt.winners()}
            try:
                await self.manager.writer.append(Append(self.id, self.seq, seat, action, result))
            except Exception as exc:
                log.error("table %s: could not log action %s: %s", self.id, self.seq, exc)
                if self.manager.cluster.shared:
                    # Perhaps another process logged this move (it took the table over while
                    # this one still thought it the owner): read the log again.
                    self.manager.catch_up_later(self)
                raise ActionError("storage", "the action could not be saved; try again") from None
            self.state = nxt
            now = time.time()
            self.row.moves = self.seq
            self.row.updated_at = now
            if result is not None:
                self.row.status = "over"
                self.row.result = result
            if not bot:
                self.away.discard(seat)  # acting takes the seat back from a stand-in
            self._tick_clock()
            self.broadcast()
            if result is not None or self.clock is not None:
                self.broadcast_table()  # the end, or the clock's new turn
            if result is not None:
                self.maybe_unload()
        self.schedule_bots()

    async def _forwarded(self, what: str, seat: int | None, **fields: Any) -> dict[str, Any] | None:
        """A replica asks the table's owner to do `what` for `seat`: the owner's answer (raised as
        ActionError if it refused), or None if this process owns the table now (nobody else did:
        the caller does it here)."""
        manager = self.manager
        if self.row.status != "playing" and await manager.promote(self):
            return None  # a finished table's owner lets it go once nobody there watches it
        message = {"kind": "ask", "table": self.id, "what": what, "seat": seat, **fields}
        try:
            answer = await manager.cluster.request(message)
        except NoOwner:
            if await manager.promote(self):
                return None
            raise ActionError(
                "busy", "the server process that runs this table did not answer; try again in a moment"
            ) from None
        except Exception as exc:
            log.error("table %s: could not ask its owner: %s", self.id, exc)
            raise ActionError("storage", "the table's server could not be reached; try again") from None
        error = answer.get("error")
        if isinstance(error, list) and len(error) == 2:
            raise ActionError(str(error[0]), str(error[1]))
        return answer

    async def answer(self, message: dict[str, Any]) -> dict[str, Any]:
        """The owner does what another process's person asked (see `_forwarded`)."""
        what, seat = message.get("what"), message.get("seat")
        try:
            if what == "rematch":
                return {"next_table": await self.rematch(str(message.get("creator") or ""))}
            if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < self.row.players:
                raise ActionError("malformed", "no such seat")
            if what == "action":
                seq = message.get("seq")
                await self.submit(seat, message.get("action"), seq if isinstance(seq, int) else None)
            elif what == "back":
                await self.come_back(seat)
            elif what == "name":
                await self.rename(seat, message.get("name"))
            elif what == "chat":
                await self.say(seat, chat_line(message.get("text")))
            else:
                raise ActionError("malformed", f"unknown request {str(what)[:40]!r}")
        except ActionError as exc:
            return {"error": [exc.code, exc.message]}
        return {}

    def heard_move(self, seq: int, seat: int, action: int) -> None:
        """A replica hears of an action the owner logged: it takes it, or catches up from the log
        if it missed one."""
        if seq < self.seq:
            return
        if seq > self.seq:
            self.manager.catch_up_later(self)
            return
        nxt = self.state.clone()
        try:
            nxt.apply(action, seat=seat)
        except BodogeError as exc:
            log.error("table %s: the owner's action %s does not apply here: %s", self.id, seq, exc)
            self.manager.catch_up_later(self)
            return
        self.moved(nxt)

    def moved(self, nxt: State) -> None:
        """A replica's state moved on (heard, or read from the log): everyone here sees it."""
        self.state = nxt
        self.row.moves = self.seq
        if nxt.is_terminal and self.row.status == "playing":
            self.row.status = "over"
            self.row.result = {"scores": nxt.scores(), "winners": nxt.winners()}
        self.broadcast()

    def heard_summary(self, summary: dict[str, Any]) -> None:
        """A replica hears the owner's summary: its people see it, and the rematch if there is one."""
        self.owner_summary = summary
        following = summary.get("next_table")
        if isinstance(following, str):
            self._next_table(following)
        if summary.get("status") == "abandoned":
            self.row.status = "abandoned"
        self.broadcast_table()

    def heard_abandoned(self) -> None:
        if self.row.status != "playing":
            return
        self.row.status = "abandoned"
        if self.bot_task is not None:
            self.bot_task.cancel()
        self.broadcast_table()
        self.maybe_unload()

    def bot_spec(self, seat: int | None) -> str | None:
        """The bot that plays `seat` now: its own, or the stand-in of an away person while someone
        is at the table to play with (a table whose people have all gone waits for them)."""
        if seat is None:
            return None
        info = self.row.seats[seat]
        if info.get("kind") == "bot":
            spec = info.get("spec")
            return None if spec is None else str(spec)
        if seat in self.away and self.people_present():
            return str(self.row.settings.get("standin") or DEFAULT_STANDIN)
        return None

    def schedule_bots(self) -> None:
        if self.row.status != "playing" or self.manager.closing or not self.owned:
            return
        if self.state.is_terminal or self.bot_spec(self.state.current_player) is None:
            return
        if self.bot_task is None or self.bot_task.done():
            self.bot_task = asyncio.create_task(self._bots(), name=f"bots-{self.id}")
            self.bot_task.add_done_callback(self._bots_ended)

    def _bots_ended(self, task: asyncio.Task[None]) -> None:
        """A bot task that died of something unforeseen is logged and started again: a bot table
        never stops while a bot has a legal action."""
        if task.cancelled() or task.exception() is None:
            return
        log.error("table %s: the bot task failed", self.id, exc_info=task.exception())
        asyncio.get_running_loop().call_later(1.0, self.schedule_bots)

    async def _bots(self) -> None:
        """Play while a bot is to move (one move at a time, each on that seat's view).

        Nothing stops it but the end of the game: a move the table refuses, or any failure, is
        logged and tried again after a pause that grows to at most MAX_BOT_PAUSE; after a refusal
        the bot plays a random legal action of its seat (the pool has already fallen back to one
        for a failed or slow worker)."""
        manager = self.manager
        failures = 0
        while not manager.closing and self.row.status == "playing":
            seat = self.state.current_player
            spec = self.bot_spec(seat)
            if seat is None or spec is None:
                return
            if manager.bot_delay > 0:
                await asyncio.sleep(manager.bot_delay)
            seq = self.seq
            if self.state.current_player != seat or self.row.status != "playing":
                continue
            try:
                if failures:
                    action = random.SystemRandom().choice(self.state.legal_actions())
                else:
                    # Without the log for a bot that never reads it: building the log and pickling
                    # it to the worker was a third of a busy server's time (bench/load.py).
                    log_needed = reads_log(spec)
                    view = await _off_loop_if_long(self.state, self.state.view, seat, log_needed)
                    move = await manager.bots.act(
                        self.row.game, self.row.players, self.row.options, spec, view
                    )
                    action = move.action
                # submit() ends by scheduling bots; this task is still running, so it starts none,
                # and this loop carries on with the next bot decision itself.
                await self.submit(seat, action, seq, bot=True)
                failures = 0
            except ActionError as exc:
                if exc.code in ("stale", "game_over", "abandoned"):
                    continue  # the table moved on meanwhile: look again
                failures += 1
                log.warning("table %s: bot move refused (%s): %s", self.id, exc.code, exc.message)
                await asyncio.sleep(min(MAX_BOT_PAUSE, 0.25 * 2**failures))
            except Exception:
                failures += 1
                log.exception("table %s: bot move failed; trying again", self.id)
                await asyncio.sleep(min(MAX_BOT_PAUSE, 0.25 * 2**failures))

    def record(self) -> dict[str, Any]:
        """The game record — only once the game is over or abandoned (before, it would reveal the
        deal to players still playing it)."""
        if not self.state.is_terminal and self.row.status != "abandoned":
            raise ActionError("running", "the record is offered only once the game is over")
        return self.state.to_record()

    async def abandon(self) -> None:
        """No move for too long: the table ends as `abandoned`, its record kept and replayable."""
        async with self.lock:
            if self.row.status != "playing":
                return
            await self.manager.writer.abandon(self.id)
            self.row.status = "abandoned"
        if self.bot_task is not None:
            self.bot_task.cancel()
        self.broadcast_table()
        self.maybe_unload()


MAX_BOT_PAUSE = 30.0  # seconds: the longest pause between a failed bot move and the next try


def table_summary(
    row: TableRow, moves: int, state: State | None, present: set[int], spectators: int = 0
) -> dict[str, Any]:
    title = {"en": row.game, "ja": row.game}
    with contextlib.suppress(BodogeError):
        title = dict(game_class(row.game).title)
    seats = []
    for seat, info in enumerate(row.seats):
        seats.append(
            {
                "seat": seat,
                "kind": info.get("kind"),
                "name": info.get("name"),
                "spec": info.get("spec"),
                "connected": seat in present,
                "away": False,  # a stand-in plays for the person (only a loaded table knows)
            }
        )
    summary: dict[str, Any] = {
        "id": row.id,
        "game": row.game,
        "title": title,
        "players": row.players,
        "options": row.options,
        "seats": seats,
        "status": row.status,
        "moves": moves,
        "current_player": None if state is None else state.current_player,
        "result": row.result,
        "spectators": spectators,
        "created_at": row.created_at,
        "updated_at": row.updated_at,
        "clock": row.settings.get("clock"),
        "standin": row.settings.get("standin") or DEFAULT_STANDIN,
        "rematch_of": row.settings.get("rematch_of"),
        "next_table": row.settings.get("next_table"),
        "paused": False,  # only a loaded table knows who is connected
    }
    return summary


# The fields of a table beside its options (POST /api/tables): no option may be named as one.
TABLE_FIELDS = ("game", "players", "options", "seats", "name", "seed", "clock", "standin")


class TableBusy(Exception):
    """Setting up, rebuilding or replaying a table took longer than the work time limit."""


class TableManager:
    """Every table this server has loaded; creates tables and rebuilds them from the log.

    Work that grows with a game (making one, replaying its log, replay steps) runs in worker
    threads, at most WORKERS at once and each awaited at most `work_timeout` seconds: the event
    loop only moves messages, so one heavy table never holds up another."""

    WORKERS = 4
    # Tables set up at once. A crowd of creations (a site's start, or every game ending together
    # and its players making new tables) interleaves on the one event loop with the moves of the
    # tables in play: taken a few at a time, most creations are done sooner and the moves wait less
    # between their steps. bench/load.py, six 15 s runs each, taking turns: client actions over 40 ms
    # in the first two seconds 0–33 (33, 5, 24, 0, 1, 7) before, 0–8 (3, 0, 0, 0, 8, 0) two at a
    # time; p99 26.4–42.9 ms before, 21.8–33.0 ms after.
    CREATING = 2

    def __init__(
        self,
        storage: Storage,
        bots: BotPool,
        bot_delay: float = 0.0,
        idle_timeout: float = 86400.0,
        work_timeout: float = 20.0,
        unstarted_timeout: float = 3600.0,
        away_grace: float = 60.0,
        cluster: Cluster | None = None,
    ) -> None:
        self.storage = storage
        self.cluster = cluster or Cluster()
        self.writer = Writer(storage)
        self.bots = bots
        self.bot_delay = bot_delay
        self.idle_timeout = idle_timeout
        self.work_timeout = work_timeout
        self.unstarted_timeout = unstarted_timeout
        self.away_grace = away_grace
        self.tables: dict[str, TableRuntime] = {}
        self.broken: dict[str, str] = {}
        self.replays = Replays()
        self.closing = False
        self._loading: dict[str, asyncio.Future[TableRuntime | None]] = {}
        self._work = asyncio.Semaphore(self.WORKERS)
        self._creating = asyncio.Semaphore(self.CREATING)
        self._background: set[asyncio.Task[None]] = set()

    async def off_loop(self, fn: Callable[..., T], *args: Any) -> T:
        """`fn(*args)` in a worker thread; TableBusy past the work time limit (the thread finishes
        on its own; its result is dropped)."""
        async with self._work:
            try:
                return await asyncio.wait_for(asyncio.to_thread(fn, *args), self.work_timeout)
            except TimeoutError:
                raise TableBusy(
                    f"that took longer than the server's limit of {self.work_timeout:g} s"
                ) from None

    def _in_background(self, coro: Any) -> None:
        task = asyncio.create_task(coro)
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    async def start(self) -> None:
        """Start the bots' workers, then (in the background, so that the server answers at once)
        expire idle tables and rebuild the others, whose bots play on as soon as each is loaded.
        Beside other processes (a shared cluster), rebuild the tables that no process owns, now and
        whenever one's owner goes."""
        await self.bots.start()
        if self.cluster.shared:
            await self.cluster.start(self._heard, self._claimed)
            self.storage.channel, self.storage.origin = self.cluster.channel, self.cluster.process
            self._in_background(self._claimed(await self.cluster.claim_orphans()))
            self._in_background(self._keep_in_touch())
        else:
            self._in_background(self._resume())
        self._in_background(self._expire_idle())

    # -- beside other processes (cluster.py) ------------------------------------------------------

    def tell(self, message: dict[str, Any]) -> None:
        """Tell the other processes, without waiting (in order: publish takes one lock, in turn)."""
        self._in_background(self._tell(message))

    async def _tell(self, message: dict[str, Any]) -> None:
        try:
            await self.cluster.publish(message)
        except Exception as exc:
            log.error("could not tell the other processes (%s): %s", message.get("kind"), exc)

    async def _claimed(self, ids: list[str]) -> None:
        """This process owns these tables now (nobody did): rebuild each, or make its replica the
        owner, and let its bots play."""
        for table_id in ids:
            runtime = self.tables.get(table_id)
            try:
                if runtime is not None:
                    await self.promote(runtime)
                else:
                    runtime = await self.get(table_id)
            except TableBusy:
                log.error("table %s: taking it over took too long; it is left for later", table_id)
                await self.cluster.release(table_id)
                continue
            if runtime is None:
                await self.cluster.release(table_id)
            else:
                log.info("table %s: this process owns it now", table_id)

    async def promote(self, runtime: TableRuntime) -> bool:
        """Own the table if nobody does: read what its last owner logged, then run its clock and
        bots. False if another process owns it."""
        if runtime.owned:
            return True
        try:
            if not await self.cluster.claim(runtime.id):
                return False
        except Exception as exc:
            log.error("table %s: could not claim it: %s", runtime.id, exc)
            return False
        await self.catch_up(runtime)
        runtime.owned, runtime.owner_summary, runtime.remote = True, None, {}
        self.tell({"kind": "owner", "table": runtime.id})  # the replicas say who is there
        runtime._people_changed()
        return True

    def demote(self, runtime: TableRuntime) -> None:
        """Another process owns the table now (this one lost its lock): stop its bots and clock."""
        if not runtime.owned:
            return
        runtime.owned = False
        if runtime.bot_task is not None:
            runtime.bot_task.cancel()
        runtime._stop_timers()
        runtime.remote = {}
        runtime.tell_here()

    def catch_up_later(self, runtime: TableRuntime) -> None:
        self._in_background(self.catch_up(runtime))

    async def catch_up(self, runtime: TableRuntime) -> None:
        """Read the table's row and the actions logged since the replica's move, and take them."""
        async with runtime.lock:
            try:
                row = await asyncio.to_thread(self.storage.load_table, runtime.id)
                logged = await asyncio.to_thread(self.storage.load_actions, runtime.id, runtime.seq)
            except Exception as exc:
                log.error("table %s: could not read its log: %s", runtime.id, exc)
                return
            nxt: State | None = None
            for entry in logged:
                at = nxt if nxt is not None else runtime.state
                if entry.seq != len(at.history):
                    continue  # heard meanwhile
                nxt = nxt if nxt is not None else runtime.state.clone()
                try:
                    nxt.apply(entry.action, seat=entry.seat)
                except BodogeError as exc:  # a log this server cannot replay: stay where it was
                    log.error("table %s: logged action %s does not apply: %s", runtime.id, entry.seq, exc)
                    nxt = None
                    break
            if row is not None:
                for name in ("status", "result", "seats", "settings", "updated_at"):
                    setattr(runtime.row, name, getattr(row, name))
            if nxt is not None:
                runtime.moved(nxt)
            runtime.broadcast_table()

    def unload(self, runtime: TableRuntime) -> None:
        """The table leaves memory (and this process lets it go: another may own it)."""
        if self.tables.get(runtime.id) is runtime:
            del self.tables[runtime.id]
        if runtime.owned and self.cluster.shared:
            self._in_background(self.cluster.release(runtime.id))

    def _heard(self, message: dict[str, Any]) -> None:
        """A message from another process (cluster.py): each kind goes to its table."""
        kind = message.get("kind")
        if kind == "lost":  # this process's locks went with its database session
            for table_id in message["tables"]:
                runtime = self.tables.get(table_id)
                if runtime is not None:
                    self.demote(runtime)
            return
        if kind == "resync":  # notifications were missed: every replica reads its log again
            for runtime in list(self.tables.values()):
                if not runtime.owned:
                    self.catch_up_later(runtime)
                    runtime.tell_here()
            return
        table_id = message.get("table")
        runtime = self.tables.get(table_id) if isinstance(table_id, str) else None
        if runtime is None:
            return
        origin = str(message.get("origin"))
        if kind == "move":
            seq, seat, action = message.get("seq"), message.get("seat"), message.get("action")
            if not (isinstance(seq, int) and isinstance(seat, int) and isinstance(action, int)):
                return
            if runtime.owned:
                # Only this process logs the table's moves while it holds the lock; were the lock
                # lost, its next statement would say so (and the log's key refuses a move twice).
                log.warning("table %s: a move %r it did not log was announced; ignored", runtime.id, seq)
                return
            runtime.heard_move(seq, seat, action)
        elif kind == "abandoned":
            runtime.heard_abandoned()
        elif kind == "ask" and runtime.owned:
            self._in_background(self._answer(runtime, message))
        elif kind == "here" and runtime.owned:
            seats, spectators = message.get("seats"), message.get("spectators")
            if isinstance(seats, list) and isinstance(spectators, int):
                runtime.heard_here(origin, seats, spectators)
        elif kind == "seat":
            seat, keep = message.get("seat"), message.get("keep")
            if isinstance(seat, int) and isinstance(keep, str) and runtime.replace(seat, keep):
                runtime._people_changed()
        elif kind == "table" and not runtime.owned:
            summary = message.get("summary")
            if isinstance(summary, dict):
                runtime.heard_summary(summary)
        elif kind == "chat" and not runtime.owned:
            line = message.get("line")
            if isinstance(line, dict):
                with contextlib.suppress(TypeError):
                    runtime.heard_chat(line)
        elif kind == "owner" and not runtime.owned:
            runtime.tell_here()

    async def _answer(self, runtime: TableRuntime, message: dict[str, Any]) -> None:
        answer = await runtime.answer(message)
        await self._tell(dict(answer, kind="answer", to=message.get("origin"), ask=message.get("ask")))

    async def _keep_in_touch(self) -> None:
        """Replicas remind the owners who is connected; owners forget processes gone silent; a
        replica that nobody here watches (loaded for a look at the table) leaves memory."""
        while not self.closing:
            await asyncio.sleep(HERE_INTERVAL)
            for runtime in list(self.tables.values()):
                if runtime.owned:
                    runtime.forget_silent()
                elif runtime.connections:
                    runtime.tell_here()
                elif time.monotonic() - runtime.idle_since > REPLICA_IDLE:
                    self.unload(runtime)

    async def _resume(self) -> None:
        await self._abandon_idle()
        ids = await asyncio.to_thread(self.storage.playing_ids)
        for table_id in ids:
            try:
                runtime = await self.get(table_id)
            except TableBusy:
                log.error("table %s: rebuilding it took too long; it is left for later", table_id)
                continue
            if runtime is not None:
                runtime.schedule_bots()
        if ids:
            log.info("rebuilt %d unfinished tables from the log", len(self.tables))

    async def _expire_idle(self) -> None:
        """Every so often, abandon the tables in play where nobody has moved for idle_timeout."""
        while not self.closing:
            await asyncio.sleep(min(60.0, max(0.05, min(self.idle_timeout, self.unstarted_timeout) / 10)))
            try:
                await self._abandon_idle()
            except Exception:
                log.exception("expiring idle tables failed; trying again later")

    async def _abandon_idle(self) -> None:
        now = time.time()
        ids = await asyncio.to_thread(
            self.storage.idle_ids, now - self.idle_timeout, now - self.unstarted_timeout
        )
        for table_id in ids:
            runtime = self.tables.get(table_id)
            if runtime is not None and runtime.owned:
                await runtime.abandon()
            else:  # its owner (another process) hears of it
                await self.writer.abandon(table_id)
            log.info("table %s: abandoned: nobody moved for too long", table_id)

    async def close(self) -> None:
        """Stop: the bots, then the writer (everything queued is committed), then, beside other
        processes, let every table go (another process takes them over from the log)."""
        self.closing = True
        tasks = [t.bot_task for t in self.tables.values() if t.bot_task is not None]
        tasks += list(self._background)
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(BaseException):
                await task
        await asyncio.to_thread(self.writer.close)
        await self.cluster.close()
        await self.bots.close()
        await asyncio.to_thread(self.storage.close)

    def open_tables_of(self, address: str) -> int:
        """Tables in play made from `address` (since this server started: every table in play is
        loaded)."""
        return sum(1 for t in self.tables.values() if t.creator == address and t.row.status == "playing")

    async def create(
        self,
        game_name: str,
        players: int | None,
        options: dict[str, Any],
        seats: list[dict[str, Any]],
        creator: str = "",
        settings: dict[str, Any] | None = None,
        token_hashes: list[str | None] | None = None,
    ) -> tuple[TableRuntime, list[str | None]]:
        """A new table; BodogeError/ValueError for a bad game, options, seats or stand-in, TableBusy
        if setting it up takes too long. Returns its tokens (a rematch passes the seats' hashes of
        the tokens they had: the same link opens a person's new seat)."""
        settings = dict(settings or {})
        standin = settings.get("standin")
        if standin is not None:
            if not isinstance(standin, str) or len(standin) > 200:
                raise ValueError("standin is a bot spec such as 'heuristic'")
            agents.make(standin)  # BadOption for an unknown agent or bad parameters
        for name in options:
            if name in TABLE_FIELDS:
                raise ValueError(
                    f"{name!r} is a field of the table, not one of its options: give it beside "
                    f'"options" (options are the game\'s own, listed by GET /api/games)'
                )
        async with self._creating:
            seed = secrets.randbits(63)
            game, state, clean, tokens = await self.off_loop(
                _set_up, game_name, players, options, seats, seed
            )
            now = time.time()
            row = TableRow(
                id=secrets.token_urlsafe(9),
                game=game.name,
                rules_version=game.rules_version,
                players=game.num_players,
                options=game.options_json(),
                seed=seed,
                seats=clean,
                token_hashes=token_hashes or [None if t is None else hash_token(t) for t in tokens],
                created_at=now,
                updated_at=now,
                settings=settings,
            )
            # Owned before its row exists: another process's sweep never sees it without an owner.
            owned = await self.cluster.claim(row.id)
            try:
                await self.writer.create_table(row)
            except BaseException:
                await self.cluster.release(row.id)
                raise
            runtime = TableRuntime(self, row, game, state, creator)
            runtime.owned = owned
            self.tables[row.id] = runtime
            runtime.schedule_bots()
            return runtime, tokens

    async def create_rematch(self, row: TableRow, creator: str) -> TableRuntime:
        """The same game again: its options, bots and people, every seat moved on by one (who
        started last time does not start again), each person's old token opening their new seat."""
        n = row.players
        seats: list[dict[str, Any]] = [{}] * n
        hashes: list[str | None] = [None] * n
        for old, info in enumerate(row.seats):
            new = (old + 1) % n
            moved = {k: v for k, v in info.items() if k in ("kind", "name", "spec")}
            if moved.get("name") == f"P{old}":  # a default name follows the seat number
                moved["name"] = None
            seats[new], hashes[new] = moved, row.token_hashes[old]
        settings: dict[str, Any] = {k: row.settings[k] for k in ("clock", "standin") if k in row.settings}
        settings["rematch_of"] = row.id
        try:
            runtime, _tokens = await self.create(
                row.game, row.players, row.options, seats, creator, settings, hashes
            )
        except (BodogeError, ValueError) as exc:  # e.g. a bot this server no longer has
            raise ActionError("rematch", f"the game cannot be played again here: {exc}") from None
        except TableBusy as exc:
            raise ActionError("busy", str(exc)) from None
        return runtime

    async def get(self, table_id: str) -> TableRuntime | None:
        """The table, rebuilt from its row and log if it is not loaded yet; None if unknown/broken;
        TableBusy if rebuilding takes longer than the work limit (it goes on, and a later call gets
        the table)."""
        runtime = self.tables.get(table_id)
        if runtime is not None:
            return runtime
        if table_id in self.broken or not isinstance(table_id, str) or len(table_id) > 32:
            return None
        pending = self._loading.get(table_id)
        if pending is None:
            pending = self._loading[table_id] = asyncio.ensure_future(self._load(table_id))
        try:
            return await asyncio.wait_for(asyncio.shield(pending), self.work_timeout)
        except TimeoutError:
            raise TableBusy("the table is still being loaded; try again in a moment") from None

    async def _load(self, table_id: str) -> TableRuntime | None:
        try:
            async with self._work:
                runtime = await asyncio.to_thread(self._rebuild, table_id)
            if runtime is not None and table_id not in self.tables:
                self.tables[table_id] = runtime
                if self.cluster.shared:
                    # A replica until it owns the table; either way it takes what was logged
                    # while it was being rebuilt.
                    runtime.owned = False
                    if not await self.promote(runtime):
                        await self.catch_up(runtime)
            return self.tables.get(table_id)
        finally:
            del self._loading[table_id]

    def _rebuild(self, table_id: str) -> TableRuntime | None:
        try:
            row = self.storage.load_table(table_id)
        except ValueError as exc:
            log.error("table %s cannot be read: %s", table_id, exc)
            self.broken[table_id] = str(exc)
            return None
        if row is None:
            return None
        try:
            game = make(row.game, row.players, **row.options)
            problem = _replay_problem(row)
            if problem is not None:
                raise ValueError(problem)
            state = game.new_state(seed=row.seed)
            for i, logged in enumerate(self.storage.load_actions(table_id)):
                if logged.seq != i:
                    raise ValueError(f"the log has a gap at action {i}")
                state.apply(logged.action, seat=logged.seat)
        except (BodogeError, ValueError, TypeError) as exc:
            log.error("table %s cannot be rebuilt: %s", table_id, exc)
            self.broken[table_id] = str(exc)
            return None
        row.moves = len(state.history)
        runtime = TableRuntime(self, row, game, state)
        runtime.chat = self.storage.load_chat(table_id)
        return runtime

    async def list(self, statuses: tuple[str, ...], limit: int) -> list[dict[str, Any]]:
        rows = await asyncio.to_thread(self.storage.list_tables, statuses, limit)
        out = []
        for row in rows:
            problem = _replay_problem(row)
            if problem is not None:
                if row.id not in self.broken:  # said once
                    log.warning("table %s: %s; left out of the lists", row.id, problem)
                    self.broken[row.id] = problem
                continue
            runtime = self.tables.get(row.id)
            if runtime is not None:
                out.append(runtime.summary())
            else:
                out.append(table_summary(row, row.moves, None, set()))
        return out


VIEW_ON_LOOP_EVENTS = 1000  # log events up to which a view is built on the event loop
# Seconds a replica stays in memory after its last connection at this process closed: longer than
# a new websocket may take to say hello, so that one that just fetched the table still finds it.
REPLICA_IDLE = 60.0


def _replay_problem(row: TableRow) -> str | None:
    """Why this server cannot replay the table's game (a game or rules version it lacks), or None."""
    try:
        version = game_class(row.game).rules_version
    except BodogeError:
        return f"this server has no game {row.game[:40]!r}"
    if version != row.rules_version:
        return f"the table was played under rules version {row.rules_version}, this server plays {version}"
    return None


async def _off_loop_if_long(state: State, fn: Callable[..., T], *args: Any) -> T:
    """`fn(*args)`, which builds views of `state`: in a worker thread once its log is long."""
    if len(state.events) <= VIEW_ON_LOOP_EVENTS:
        return fn(*args)
    return await asyncio.to_thread(fn, *args)


def _view_text(table_id: str, state: State, seat: int | None, log_from: int) -> tuple[str, int]:
    """A `view` message whose view's log holds only the entries from `log_from` on (all of them
    for a new connection), and the length of the whole log."""
    view = state.view(seat, log=False)
    entries = state.log(seat)
    if log_from > len(entries):  # never expected (a seat's log only grows): send it whole
        log_from = 0
    view["log"] = entries[log_from:]
    message = {"type": "view", "table": table_id, "seq": len(state.history), "log_from": log_from}
    message["view"] = view
    return dumps(message), len(entries)


def _set_up(
    game_name: Any, players: Any, options: dict[str, Any], seats: list[dict[str, Any]], seed: int
) -> tuple[Game, State, list[dict[str, Any]], list[str | None]]:
    """A new table's game, first state, seats and tokens (in a worker thread: options decide how
    long this takes)."""
    game = make(game_name, players, **options)
    if len(seats) != game.num_players:
        raise ValueError(f"{game.name} with {game.num_players} players needs {game.num_players} seats")
    clean: list[dict[str, Any]] = []
    tokens: list[str | None] = []
    for i, seat in enumerate(seats):
        kind = seat.get("kind")
        name = clean_name(seat.get("name"), f"seat {i}: a name")
        if kind == "human":
            clean.append({"kind": "human", "name": name or f"P{i}"})
            tokens.append(new_token())
        elif kind == "bot":
            spec = seat.get("spec") or "random"
            if not isinstance(spec, str) or len(spec) > 200:
                raise ValueError(f"seat {i}: a bot spec is a short text such as 'heuristic'")
            agents.make(spec)  # BadOption for an unknown agent or bad parameters
            clean.append({"kind": "bot", "name": name or spec, "spec": spec})
            tokens.append(None)
        else:
            raise ValueError(f"seat {i}: kind is 'human' or 'bot', not {kind!r}")
    return game, game.new_state(seed=seed), clean, tokens
