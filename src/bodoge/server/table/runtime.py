"""A table in play: it holds its state in memory, logs every action, and sends every seat its view.

The flow of one action (from a seat's websocket or a bot): under the table's lock, check that it is
that seat's decision and the action is legal, apply it to a clone, commit it to the log, and only
then make the clone the table's state and send the new views: seat p gets exactly `view(p)`,
spectators `view(None)`, each with only the log entries its connection lacks. Anything wrong (not
your turn, stale, illegal) is answered with an error and changes nothing.

People behave like people, so a table also keeps: a turn clock (a table setting), the seats whose
person is away (out of time, or gone longer than the grace period: a stand-in bot plays for them
while anyone is there to play with), the seats' names, a chat, and the rematch it led to.

Each of those is a part of its own beside this module, one concern each (DESIGN.md §6): views.py
(the seats' view messages), clock.py, presence.py (who is here, the grace periods, the away seats),
chat.py, rematch.py and bots.py (the table's bots and stand-ins). The runtime composes them: it takes
the actions and sends them, keeps the connections and the seats' names, makes the parts follow when
people come and go, and beside other processes forwards a replica's requests to the table's owner.
It hands each part itself, which the part sees through a narrow protocol (ports.py), and sees its
manager (tables.py) through one too (`ports.Manager`): no part imports the runtime, nor the runtime
the manager.
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import logging
import time
from typing import TYPE_CHECKING, Any

from bodoge.core.game import Game, State
from bodoge.core.registry import game_class
from bodoge.errors import BodogeError, is_int_in
from bodoge.server.cluster import NoOwner
from bodoge.server.storage import Append, TableRow
from bodoge.server.table.bots import DEFAULT_STANDIN, TableBots
from bodoge.server.table.chat import Chat
from bodoge.server.table.clock import Clock
from bodoge.server.table.connection import ActionError, Connection, dumps, hash_token
from bodoge.server.table.plain import MAX_NAME, chat_line, clean_name, name_key
from bodoge.server.table.presence import Presence
from bodoge.server.table.rematch import Rematch
from bodoge.server.table.views import Views

if TYPE_CHECKING:
    from bodoge.server.table.ports import Manager

log = logging.getLogger("bodoge.server")

STORY_SHARED = 20  # table events in the summary another process's people get (see `_send_table`)


class TableRuntime:
    """One table in play at this process: the owner of it, or (beside other processes) a replica
    that forwards its people's requests to the owner (`owned`)."""

    def __init__(
        self, manager: Manager[TableRuntime], row: TableRow, game: Game, state: State, creator: str = ""
    ) -> None:
        self.manager = manager
        self.creator = creator  # the client address that made it ("" if made before a restart)
        self.row = row
        self.game = game
        self.state = state
        self.lock = asyncio.Lock()
        self.connections: set[Connection] = set()
        self._table_due = False  # a `table` message is scheduled for this loop turn
        # Its parts, one concern each.
        self.views = Views(row.id)
        self.presence = Presence(self)
        self.clock = Clock(row.settings.get("clock"), row.players, self.presence.ran_out)
        self.bots = TableBots(self)
        self.chat = Chat(self)
        self.again = Rematch(self)
        # Several processes (cluster.py): only the owner applies actions, runs bots and the clock;
        # another process keeps a replica, forwards its people's requests and hears the owner's
        # summaries (the owner hears who is connected elsewhere: `presence.remote`).
        self.owned = True
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
        """The `view` message for `conn` at the newest move, with the log entries it lacks."""
        return await self.views.text(self.state, conn)

    def summary(self) -> dict[str, Any]:
        """What anyone may know of the table (the lobby, spectators): never the seed or tokens. A
        replica gives the owner's latest (which knows the clock and the away seats)."""
        if not self.owned and self.owner_summary is not None:
            return dict(self.owner_summary, options=self.row.options)
        presence = self.presence
        summary = table_summary(
            self.row, self.seq, self.state, presence.present_seats(), spectators=presence.spectators()
        )
        for info in summary["seats"]:
            info["away"] = info["seat"] in presence.away
        summary["paused"] = presence.paused
        summary["story"] = presence.story
        if self.clock.setting is not None:
            summary["clock"] = self.clock.shown()
        return summary

    def broadcast(self) -> None:
        """Send every connection its view of the current move."""
        for conn in list(self.connections):
            conn.push("view")

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
        if self.owned and self.presence.remote:
            # The other processes' people see the owner's summary. Options are the row's, which
            # every replica has: left out, a summary fits a notification (a seat's name and bot
            # spec are bounded; one too long anyway is refused by `encode`, and logged).
            shared = {k: v for k, v in summary.items() if k != "options"}
            shared["story"] = summary["story"][-STORY_SHARED:]  # the newest: a notification is small
            self.manager.tell({"kind": "table", "table": self.id, "summary": shared})

    # -- who comes and goes ---------------------------------------------------------------------

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
            self.presence.arrived(conn.seat)
            if self.manager.cluster.shared:  # and at the other processes
                self.manager.tell({"kind": "seat", "table": self.id, "seat": conn.seat, "keep": conn.id})
        self.connections.add(conn)
        conn.push("view")
        self.people_changed()
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
        if seat is not None and seat not in self.presence.present_seats():
            self.presence.departed(seat)
        self.people_changed()
        self.maybe_unload()

    def people_changed(self) -> None:
        """Someone came or went: the clock pauses or goes on, the absent people's grace periods
        run while someone is here, stand-ins start or stop (the owner), or the owner is told who is
        here now (a replica)."""
        if not self.owned:
            self.presence.tell_here()
            return
        if self.presence.people_present():
            self.presence.expect_absent()
        self.tick_clock()
        self.broadcast_table()
        self.bots.schedule()

    def maybe_unload(self) -> None:
        """A table no longer in play that nobody watches leaves memory; it is rebuilt from the log
        when asked for. A replica leaves a while after nobody here watches it (`_keep_in_touch`)."""
        if not self.owned:
            if not self.connections:
                self.idle_since = time.monotonic()
            return
        if self.row.status != "playing":
            self.stop_timers()
            if not self.connections and not self.presence.remote:
                self.manager.unload(self)

    async def come_back(self, seat: int) -> None:
        """The person takes their seat back from the stand-in ("I'm back", or an action of theirs)."""
        if not self.owned and await self._forwarded("back", seat) is not None:
            return
        self.presence.come_back(seat)

    def stop_timers(self) -> None:
        self.clock.settle()
        self.presence.stop()

    # -- the clock ------------------------------------------------------------------------------

    def _clocked_seat(self) -> int | None:
        """The seat whose time runs now: a person to move who is at their seat."""
        seat = self.state.current_player
        if self.row.status != "playing" or seat is None or not self.owned:
            return None
        if self.row.seats[seat].get("kind") != "human" or seat in self.presence.away:
            return None
        return seat

    def tick_clock(self) -> None:
        """Make the clock match the table now: after every move, arrival, departure and return.
        A new decision of a person starts their time; it waits while nobody is connected."""
        if self.clock.setting is None:
            return
        self.presence.moved_on()  # over days: a stand-in that made its one move gives the seat back
        seat = self._clocked_seat()
        turn = None if seat is None else (self.seq, seat)
        # Over days a turn runs from when the table's last action was logged (`updated_at`, the
        # action's own `at`): the clock is the same read back from the log after a restart.
        self.clock.tick(turn, self.presence.people_present(), self.row.updated_at)

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
        if self.row.seats[seat].get("player"):
            # A player's name is theirs on the whole server (server/players.py): a seat of theirs
            # carries it, so that nobody at a table passes for a player they are not.
            raise ActionError(
                "bad_name",
                "this seat is a player's and carries their name: change it under your name in the lobby",
            )
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
        await self.chat.say(seat, text)

    async def rematch(self, creator: str) -> str:
        """The id of the table that plays this game again (made by the first to ask; later asks
        get it too); everyone at this table is offered their seat at it."""
        if self.row.status == "playing":
            raise ActionError("running", "a rematch is offered once the game is over")
        if not self.owned:
            answer = await self._forwarded("rematch", None, creator=creator)
            if answer is not None:
                self.again.learn(str(answer["next_table"]))
                return str(answer["next_table"])
        return await self.again.make(creator)

    def rematch_message(self, conn: Connection) -> str | None:
        """The `rematch` message for a seat's connection, or None (see Rematch.message)."""
        return self.again.message(conn)

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
            if bot and self.bots.spec(seat) is None:
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
            # A bot's move at a person's seat is their stand-in's: the log says so (ratings.py).
            standin = self.bots.spec(seat) if bot and self.row.seats[seat].get("kind") == "human" else None
            # Logged with the time it is taken at (the row's `updated_at` too: a clock over days reads
            # them back) and whose decision follows (`to_move`: a player's tables, server/longplay.py).
            now = time.time()
            after = [] if nxt.current_player is None else [nxt.current_player]
            logged = Append(self.id, self.seq, seat, action, result, standin, at=now, to_move=after)
            try:
                await self.manager.writer.append(logged)
            except Exception as exc:
                log.error("table %s: could not log action %s: %s", self.id, self.seq, exc)
                if self.manager.cluster.shared:
                    # Perhaps another process logged this move (it took the table over while
                    # this one still thought it the owner): read the log again.
                    self.manager.catch_up_later(self)
                raise ActionError("storage", "the action could not be saved; try again") from None
            self.state = nxt
            self.row.moves = self.seq
            self.row.updated_at = now
            if result is not None:
                self.row.status = "over"
                self.row.result = result
            if not bot and seat in self.presence.away:
                # Acting takes the seat back from a stand-in.
                self.presence.away.discard(seat)
                self.presence.note("resumed", seat)
            self.tick_clock()
            self.broadcast()
            if result is not None or self.clock.setting is not None:
                self.broadcast_table()  # the end, or the clock's new turn
            if result is not None:
                self.manager.game_over(self.id)  # committed: what follows an end runs (ratings.py)
                self.maybe_unload()
        self.bots.schedule()

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
        self.bots.stop()
        self.broadcast_table()
        self.maybe_unload()

    # -- beside other processes (cluster.py): a replica asks, its owner answers -----------------

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
            if not is_int_in(seat, 0, self.row.players - 1):
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
            self.again.learn(following)
        if summary.get("status") == "abandoned":
            self.row.status = "abandoned"
        self.broadcast_table()

    def heard_abandoned(self) -> None:
        if self.row.status != "playing":
            return
        self.row.status = "abandoned"
        self.bots.stop()
        self.broadcast_table()
        self.maybe_unload()


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
                "player": info.get("player"),  # an identified player's id (server/players.py), or None
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
