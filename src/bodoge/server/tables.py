"""Tables in play: each holds its state in memory, logs every action, and sends every seat its view.

The flow of one action (from a seat's websocket or a bot): under the table's lock, check that it is
that seat's decision and the action is legal, apply it to a clone, commit it to the log, and only
then make the clone the table's state and send the new views: seat p gets exactly `view(p)`,
spectators `view(None)`. Anything wrong (not your turn, stale, illegal) is answered with an error
and changes nothing.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import hmac
import logging
import random
import secrets
import time
import unicodedata
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar

import orjson

from bodoge import agents
from bodoge.core.game import Game, State
from bodoge.core.registry import game_class, make
from bodoge.errors import BodogeError
from bodoge.server.bots import BotPool
from bodoge.server.replays import Replays
from bodoge.server.storage import Append, Storage, TableRow, Writer

T = TypeVar("T")

log = logging.getLogger("bodoge.server")

MAX_NAME = 40
JOINERS = "\u200c\u200d"  # zero-width (non-)joiners: format characters that emoji and scripts need


def dumps(message: Any) -> str:
    """A message as JSON text. orjson: a view is serialized once per seat after every action, so
    this is the server's hottest line (about 9 times faster than the json module)."""
    return orjson.dumps(message, option=orjson.OPT_NON_STR_KEYS).decode()


def new_token() -> str:
    """128 random bits, URL-safe."""
    return secrets.token_urlsafe(16)


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


class ActionError(Exception):
    """An action refused; `code` is one of the protocol's error codes (docs/protocol.md)."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


# Messages that only say how things are now: a newer one replaces one not yet sent.
COALESCED = ("view", "table")
MAX_OUTBOX = 64  # other messages queued for one connection before it is closed (1008)


@dataclass(eq=False)
class Connection:
    """One websocket at a table. Outgoing messages queue here; a writer task sends them.

    A `view` or `table` message replaces the one of its kind not yet sent, in its place: a slow
    client gets the newest, never a backlog, and no one else's comings and goings can fill its
    queue. Only the connection's own messages (answers to what it sent) add up; a client that sends
    and does not read is closed with 1008 once MAX_OUTBOX of them wait.
    """

    seat: int | None
    outbox: deque[tuple[str, str]] = field(default_factory=deque)  # (kind, json text)
    wake: asyncio.Event = field(default_factory=asyncio.Event)
    closed: bool = False
    close_code: int = 1000
    close_reason: str = ""
    id: str = field(default_factory=lambda: secrets.token_hex(8))

    @property
    def backlogged(self) -> bool:
        return len(self.outbox) >= MAX_OUTBOX // 2

    def push(self, kind: str, text: str) -> None:
        if self.closed:
            return
        if kind in COALESCED:
            for i, (queued, _text) in enumerate(self.outbox):
                if queued == kind:
                    self.outbox[i] = (kind, text)
                    self.wake.set()
                    return
        self.outbox.append((kind, text))
        if len(self.outbox) > MAX_OUTBOX + len(COALESCED):
            self.close(1008, "the connection does not read its messages")
        self.wake.set()

    def close(self, code: int, reason: str) -> None:
        """Close after what is queued is sent (the sender closes the websocket with `code`); a
        connection closed for its behaviour (1008) is sent nothing more."""
        if not self.closed:
            self.closed = True
            self.close_code = code
            self.close_reason = reason
        if code == 1008:
            self.outbox.clear()
        self.wake.set()


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
        self._views: dict[int | None, str] = {}  # each seat's `view` message, of `_views_of`
        self._views_of: State | None = None
        self._table_due = False  # a `table` message is scheduled for this loop turn

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

    async def view_messages(self, seats: set[int | None]) -> State:
        """Make ready the `view` messages of these seats at the current move, and return the state
        they show. A view carries the game's whole log, which in a long game at large options runs
        to megabytes: past VIEW_ON_LOOP_EVENTS events (about 1.5 ms a view) they are built in a
        worker thread, so that the event loop never stalls on them. Smaller ones are built here:
        a thread's hand-off would cost more than they do (a third of the actions per second in
        bench/load.py)."""
        state = self.state
        if self._views_of is not state:
            self._views, self._views_of = {}, state
        missing = [seat for seat in seats if seat not in self._views]
        if missing:
            texts = await _off_loop_if_long(state, _view_texts, self.id, state, missing)
            if self._views_of is state:
                self._views.update(texts)
        return state

    def summary(self) -> dict[str, Any]:
        """What anyone may know of the table (the lobby, spectators): never the seed or tokens."""
        present = {c.seat for c in self.connections if c.seat is not None}
        return table_summary(self.row, self.seq, self.state, present, spectators=self._spectators())

    def _spectators(self) -> int:
        return sum(1 for c in self.connections if c.seat is None)

    async def broadcast(self) -> None:
        """Send every connection its view of the current move."""
        state = await self.view_messages({c.seat for c in self.connections})
        if self._views_of is not state:
            return  # the table moved on meanwhile: that move's broadcast sends the newer views
        for conn in list(self.connections):
            text = self._views.get(conn.seat)
            if text is not None:  # else it attached meanwhile, and attach() sends its view
                conn.push("view", text)

    def broadcast_table(self) -> None:
        """Send everyone the table's summary, once per loop turn however many changes came in it
        (a crowd of spectators coming and going costs one summary, not one each)."""
        if not self._table_due:
            self._table_due = True
            asyncio.get_running_loop().call_soon(self._send_table)

    def _send_table(self) -> None:
        self._table_due = False
        text = dumps({"type": "table", "table": self.summary()})
        for conn in list(self.connections):
            conn.push("table", text)

    async def attach(self, conn: Connection) -> None:
        self.connections.add(conn)
        self.broadcast_table()
        while not conn.closed:  # until the view it gets is of the newest move
            state = await self.view_messages({conn.seat})
            if self.state is state:
                conn.push("view", self._views[conn.seat])
                return

    def detach(self, conn: Connection) -> None:
        conn.closed = True
        self.connections.discard(conn)
        self.broadcast_table()
        self.maybe_unload()

    def maybe_unload(self) -> None:
        """A table no longer in play that nobody watches leaves memory; it is rebuilt from the log
        when asked for."""
        if self.row.status != "playing" and not self.connections:
            self.manager.tables.pop(self.id, None)

    # -- actions --------------------------------------------------------------------------------

    async def submit(self, seat: int, action: Any, seq: int | None = None) -> None:
        """Take `action` for `seat`; ActionError (and nothing changed) if it may not be taken."""
        async with self.lock:
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
                raise ActionError("storage", "the action could not be saved; try again") from None
            self.state = nxt
            now = time.time()
            self.row.moves = self.seq
            self.row.updated_at = now
            if result is not None:
                self.row.status = "over"
                self.row.result = result
            await self.broadcast()
            if result is not None:
                self.broadcast_table()
                self.maybe_unload()
        self.schedule_bots()

    def bot_spec(self, seat: int | None) -> str | None:
        if seat is None:
            return None
        info = self.row.seats[seat]
        return info.get("spec") if info.get("kind") == "bot" else None

    def schedule_bots(self) -> None:
        if self.row.status != "playing" or self.manager.closing:
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
                    view = await _off_loop_if_long(self.state, self.state.view, seat)
                    move = await manager.bots.act(
                        self.row.game, self.row.players, self.row.options, spec, view
                    )
                    action = move.action
                # submit() ends by scheduling bots; this task is still running, so it starts none,
                # and this loop carries on with the next bot decision itself.
                await self.submit(seat, action, seq)
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
    }
    return summary


# The fields of a table beside its options (POST /api/tables): no option may be named as one.
TABLE_FIELDS = ("game", "players", "options", "seats", "name", "seed")


class TableBusy(Exception):
    """Setting up, rebuilding or replaying a table took longer than the work time limit."""


class TableManager:
    """Every table this server has loaded; creates tables and rebuilds them from the log.

    Work that grows with a game (making one, replaying its log, replay steps) runs in worker
    threads, at most WORKERS at once and each awaited at most `work_timeout` seconds: the event
    loop only moves messages, so one heavy table never holds up another."""

    WORKERS = 4

    def __init__(
        self,
        storage: Storage,
        bots: BotPool,
        bot_delay: float = 0.0,
        idle_timeout: float = 86400.0,
        work_timeout: float = 20.0,
    ) -> None:
        self.storage = storage
        self.writer = Writer(storage)
        self.bots = bots
        self.bot_delay = bot_delay
        self.idle_timeout = idle_timeout
        self.work_timeout = work_timeout
        self.tables: dict[str, TableRuntime] = {}
        self.broken: dict[str, str] = {}
        self.replays = Replays()
        self.closing = False
        self._loading: dict[str, asyncio.Future[TableRuntime | None]] = {}
        self._work = asyncio.Semaphore(self.WORKERS)
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
        expire idle tables and rebuild the others, whose bots play on as soon as each is loaded."""
        await self.bots.start()
        self._in_background(self._resume())
        self._in_background(self._expire_idle())

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
            await asyncio.sleep(min(60.0, max(0.05, self.idle_timeout / 10)))
            try:
                await self._abandon_idle()
            except Exception:
                log.exception("expiring idle tables failed; trying again later")

    async def _abandon_idle(self) -> None:
        ids = await asyncio.to_thread(self.storage.idle_ids, time.time() - self.idle_timeout)
        for table_id in ids:
            runtime = self.tables.get(table_id)
            if runtime is not None:
                await runtime.abandon()
            else:
                await self.writer.abandon(table_id)
            log.info("table %s: abandoned after %g s without a move", table_id, self.idle_timeout)

    async def close(self) -> None:
        self.closing = True
        tasks = [t.bot_task for t in self.tables.values() if t.bot_task is not None]
        tasks += list(self._background)
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(BaseException):
                await task
        await self.bots.close()
        await asyncio.to_thread(self.writer.close)
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
    ) -> tuple[TableRuntime, list[str | None]]:
        """A new table; BodogeError/ValueError for a bad game, options or seats, TableBusy if setting
        it up takes too long. Returns its tokens."""
        for name in options:
            if name in TABLE_FIELDS:
                raise ValueError(
                    f"{name!r} is a field of the table, not one of its options: give it beside "
                    f'"options" (options are the game\'s own, listed by GET /api/games)'
                )
        seed = secrets.randbits(63)
        game, state, clean, tokens = await self.off_loop(_set_up, game_name, players, options, seats, seed)
        now = time.time()
        row = TableRow(
            id=secrets.token_urlsafe(9),
            game=game.name,
            rules_version=game.rules_version,
            players=game.num_players,
            options=game.options_json(),
            seed=seed,
            seats=clean,
            token_hashes=[None if t is None else hash_token(t) for t in tokens],
            created_at=now,
            updated_at=now,
        )
        await self.writer.create_table(row)
        runtime = TableRuntime(self, row, game, state, creator)
        self.tables[row.id] = runtime
        runtime.schedule_bots()
        return runtime, tokens

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
            if game.rules_version != row.rules_version:
                raise ValueError(
                    f"the table was played under rules version {row.rules_version}, "
                    f"this server plays {game.rules_version}"
                )
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
        return TableRuntime(self, row, game, state)

    async def list(self, statuses: tuple[str, ...], limit: int) -> list[dict[str, Any]]:
        rows = await asyncio.to_thread(self.storage.list_tables, statuses, limit)
        out = []
        for row in rows:
            runtime = self.tables.get(row.id)
            if runtime is not None:
                out.append(runtime.summary())
            else:
                out.append(table_summary(row, row.moves, None, set()))
        return out


VIEW_ON_LOOP_EVENTS = 1000  # log events up to which a view is built on the event loop


async def _off_loop_if_long(state: State, fn: Callable[..., T], *args: Any) -> T:
    """`fn(*args)`, which builds views of `state`: in a worker thread once its log is long."""
    if len(state.events) <= VIEW_ON_LOOP_EVENTS:
        return fn(*args)
    return await asyncio.to_thread(fn, *args)


def _view_texts(table_id: str, state: State, seats: list[int | None]) -> dict[int | None, str]:
    seq = len(state.history)
    return {
        seat: dumps({"type": "view", "table": table_id, "seq": seq, "view": state.view(seat)})
        for seat in seats
    }


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
        name = seat.get("name")
        if name is not None and (not isinstance(name, str) or len(name) > MAX_NAME):
            raise ValueError(f"seat {i}: a name is a text of at most {MAX_NAME} characters")
        if name is not None and any(
            unicodedata.category(ch) in ("Cc", "Cf") and ch not in JOINERS for ch in name
        ):
            # Control and format characters (line breaks, right-to-left overrides) would let a name
            # pass for another or rearrange the text around it wherever it is shown.
            raise ValueError(f"seat {i}: a name has no control or formatting characters")
        name = (name or "").strip()
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
