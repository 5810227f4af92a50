"""Several server processes on one PostgreSQL: which process owns a table, and how they talk.

With SQLite the server is one process and owns every table (`Cluster`, which does nothing). With
PostgreSQL any number of `bodoge serve` processes may share one database (`PgCluster`):

- **Ownership.** Each table in play is owned by one process at a time: the one holding the table's
  session-level advisory lock. Only the owner applies the table's actions, runs its bots and its
  clock. A lock lives as long as the owner's database session: when the process dies (`kill -9`
  included) PostgreSQL ends the session and frees its locks, and another process's next sweep
  (every CLAIM_INTERVAL seconds) takes the table over by rebuilding it from the log.
- **Nothing applied twice.** An action is logged at its move number, the log's primary key: a
  process that thinks it still owns a table it lost cannot log a second action at the same move.
- **Talk: PostgreSQL LISTEN/NOTIFY** on one channel per schema. An owner's logged actions are
  notified inside the transaction that logs them, so every process hears of each committed action,
  in commit order, and of no other. A process with people at a table it does not own keeps a
  replica of the table (the same log replayed) and builds its own connections' views from it: views
  are a function of the log, so only action ids cross the broker, never a card anyone may not see.
  Its people's requests (an action, chat, a name, "I'm back", a rematch) go to the owner as
  notifications and the owner answers the asking process; it tells the owner who is connected
  (`here`), and the owner sends back the table's summary (clock, away seats, names) when it changes.

A notification is at most 8000 bytes: each is a small JSON object (`kind` and `table` first).
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import logging
import secrets
from collections.abc import Callable
from typing import Any

log = logging.getLogger("bodoge.server")

CLAIM_INTERVAL = 2.0  # seconds between sweeps for tables nobody owns (a dead owner's)
HERE_INTERVAL = 5.0  # seconds between a replica's reminders to the owner of who is connected
HERE_EXPIRES = 3 * HERE_INTERVAL  # a process not heard of for this long has nobody at the table
REQUEST_TIMEOUT = 5.0  # seconds an owner has to answer a forwarded request
MAX_PAYLOAD = 7900  # bytes of one notification (PostgreSQL's limit is 8000)
INTERNAL = ("lost", "resync")  # what a PgCluster tells its own manager (see `_handle`)


class NoOwner(Exception):
    """A forwarded request that no owner answered in time."""


def lock_key(schema: str, table_id: str) -> int:
    """The advisory lock of a table: 64 bits of md5(schema/table id), signed, as the sweep's SQL
    computes it (`('x' || substr(md5(...), 1, 16))::bit(64)::bigint`). The schema is part of it:
    advisory locks are the whole database's."""
    key = int(hashlib.md5(f"{schema}/{table_id}".encode(), usedforsecurity=False).hexdigest()[:16], 16)
    return key - 2**64 if key >= 2**63 else key


def libpq_url(url: str) -> str:
    """A database URL as libpq (and so psycopg) reads it: SQLAlchemy's driver name is not a libpq one."""
    return url.replace("postgresql+psycopg://", "postgresql://", 1)


class Cluster:
    """One process that owns every table (SQLite, or nothing to share a database with)."""

    shared = False
    channel: str | None = None

    def __init__(self) -> None:
        self.process = secrets.token_hex(6)

    async def start(
        self, handle: Callable[[dict[str, Any]], None], sweep: Callable[[list[str]], Any]
    ) -> None:
        """Begin hearing other processes (`handle` gets each message) and claiming the tables that
        nobody owns (`sweep` gets the ids just claimed)."""

    async def close(self) -> None:
        """Stop, giving up every table (another process takes them over)."""

    async def claim(self, table_id: str) -> bool:
        """Try to own the table; True if this process owns it now."""
        return True

    async def release(self, table_id: str) -> None:
        """Own the table no longer (its game is over and nobody here watches it)."""

    async def claim_orphans(self) -> list[str]:
        """Own the tables in play that no process owns; their ids."""
        return []

    async def publish(self, message: dict[str, Any]) -> None:
        """Tell every process (and this one does not hear it)."""

    async def request(self, message: dict[str, Any]) -> dict[str, Any]:
        """Ask the table's owner; its answer, or NoOwner."""
        raise NoOwner("no other process")


class PgCluster(Cluster):
    """Processes sharing one PostgreSQL database and schema (see the module's docstring)."""

    shared = True

    def __init__(self, url: str) -> None:
        super().__init__()
        self.conninfo = libpq_url(url)
        self.schema = ""
        self.channel = None
        self._lock_conn: Any = None  # holds the advisory locks: they live as long as it
        self._listen_conn: Any = None
        self._db = asyncio.Lock()  # one statement at a time on the lock connection
        self._mine: set[str] = set()
        self._waiting: dict[str, asyncio.Future[dict[str, Any]]] = {}
        self._outbox: list[tuple[str, asyncio.Future[None]]] = []  # published, not yet sent
        self._sender: asyncio.Task[None] | None = None
        self._tasks: list[asyncio.Task[None]] = []
        self._handle: Callable[[dict[str, Any]], None] = lambda message: None
        self._sweep: Callable[[list[str]], Any] = lambda ids: None
        self._sweep_now = asyncio.Event()
        self._closing = False

    async def _connect(self) -> Any:
        import psycopg

        return await psycopg.AsyncConnection.connect(
            self.conninfo, autocommit=True, application_name=f"bodoge {self.process}"
        )

    async def connect(self) -> None:
        """Open the lock connection and learn the schema (and so the channel)."""
        self._lock_conn = await self._connect()
        async with self._lock_conn.cursor() as cur:
            await cur.execute("SELECT current_schema()")
            row = await cur.fetchone()
        self.schema = str(row[0]) if row and row[0] else "public"
        self.channel = f"bodoge_{self.schema}"[:63]

    async def start(
        self, handle: Callable[[dict[str, Any]], None], sweep: Callable[[list[str]], Any]
    ) -> None:
        self._handle, self._sweep = handle, sweep
        if self._lock_conn is None:
            await self.connect()
        listening = asyncio.get_running_loop().create_future()
        self._tasks = [
            asyncio.create_task(self._listen(listening), name="bodoge-listen"),
            asyncio.create_task(self._claim_loop(), name="bodoge-claim"),
        ]
        await listening  # from here on, nothing committed goes unheard

    async def close(self) -> None:
        self._closing = True
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(BaseException):
                await task
        if self._mine:
            with contextlib.suppress(Exception):
                await self.publish({"kind": "gone", "tables": sorted(self._mine)[:100]})
        for conn in (self._listen_conn, self._lock_conn):
            if conn is not None:
                with contextlib.suppress(Exception):
                    await conn.close()  # ends the session: PostgreSQL frees this process's locks
        self._mine.clear()

    # -- ownership ------------------------------------------------------------------------------

    async def _execute(self, sql: str, params: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        """A statement on the lock connection. A lost connection lost every lock with it: this
        process owns nothing until it has reconnected and claimed again."""
        async with self._db:
            try:
                if self._lock_conn is None or self._lock_conn.closed:
                    self._mine_lost()
                    self._lock_conn = await self._connect()
                async with self._lock_conn.cursor() as cur:
                    await cur.execute(sql, params)
                    return list(await cur.fetchall()) if cur.description else []
            except Exception:
                if self._lock_conn is not None and self._lock_conn.closed:
                    self._mine_lost()
                raise

    def _mine_lost(self) -> None:
        if self._mine:
            lost = sorted(self._mine)
            self._mine.clear()
            log.error("the database session holding %d tables was lost; claiming them again", len(lost))
            self._handle({"kind": "lost", "tables": lost})

    async def claim(self, table_id: str) -> bool:
        if table_id in self._mine:
            return True
        rows = await self._execute("SELECT pg_try_advisory_lock(%s)", (lock_key(self.schema, table_id),))
        if rows and rows[0][0]:
            self._mine.add(table_id)
            return True
        return False

    async def release(self, table_id: str) -> None:
        if table_id not in self._mine:
            return
        self._mine.discard(table_id)
        with contextlib.suppress(Exception):
            await self._execute("SELECT pg_advisory_unlock(%s)", (lock_key(self.schema, table_id),))

    async def _claim_loop(self) -> None:
        """Every CLAIM_INTERVAL (or at once when an owner says it is going): own the tables in play
        that no process owns, and hand them to the manager, which rebuilds them from the log."""
        while not self._closing:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._sweep_now.wait(), CLAIM_INTERVAL)
            self._sweep_now.clear()
            try:
                claimed = await self.claim_orphans()
                if claimed:
                    await self._sweep(claimed)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("claiming unowned tables failed; trying again")

    async def claim_orphans(self) -> list[str]:
        # MATERIALIZED: the locks are tried only on the tables in play, never on another row.
        rows = await self._execute(
            "WITH candidates AS MATERIALIZED ("
            " SELECT id FROM bodoge_tables WHERE status = 'playing' AND NOT (id = ANY(%s)))"
            " SELECT id FROM candidates"
            " WHERE pg_try_advisory_lock(('x' || substr(md5(%s || id), 1, 16))::bit(64)::bigint)",
            (sorted(self._mine), self.schema + "/"),
        )
        claimed = [str(r[0]) for r in rows]
        self._mine.update(claimed)
        return claimed

    # -- messages -------------------------------------------------------------------------------

    async def publish(self, message: dict[str, Any]) -> None:
        """Tell every process, in order with this process's other messages. What is published while
        one round trip is under way goes in the next, all at once: one statement (and one
        transaction) for however many, instead of one each, so that a busy process's messages do not
        queue behind one another's round trips. (PostgreSQL delivers identical payloads of one
        transaction once: every message here says a state, not a change, or carries an id of its
        own, so a repeat says nothing new.)"""
        payload = encode(dict(message, origin=self.process))
        sent: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._outbox.append((payload, sent))
        if self._sender is None or self._sender.done():
            self._sender = asyncio.create_task(self._send_outbox(), name="bodoge-publish")
        await sent

    async def _send_outbox(self) -> None:
        while self._outbox:
            batch, self._outbox = self._outbox, []
            try:
                await self._execute(
                    "SELECT pg_notify(%s, p) FROM unnest(%s::text[]) AS p",
                    (self.channel, [payload for payload, _sent in batch]),
                )
            except Exception as exc:
                for _payload, sent in batch:
                    if not sent.done():
                        sent.set_exception(exc)
            else:
                for _payload, sent in batch:
                    if not sent.done():
                        sent.set_result(None)

    async def request(self, message: dict[str, Any]) -> dict[str, Any]:
        ask = secrets.token_hex(6)
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self._waiting[ask] = future
        try:
            await self.publish(dict(message, kind="ask", ask=ask))
            return await asyncio.wait_for(future, REQUEST_TIMEOUT)
        except TimeoutError:
            raise NoOwner("the table's owner did not answer") from None
        finally:
            self._waiting.pop(ask, None)

    def _answered(self, message: dict[str, Any]) -> None:
        future = self._waiting.get(str(message.get("ask")))
        if future is not None and not future.done():
            future.set_result(message)

    async def _listen(self, listening: asyncio.Future[None]) -> None:
        """Hear the channel for as long as the process runs; after a lost connection, listen again
        and tell the manager to catch every replica up from the log (notifications were missed)."""
        from psycopg import sql

        pause = 0.1
        while not self._closing:
            try:
                self._listen_conn = conn = await self._connect()
                await conn.execute(sql.SQL("LISTEN {}").format(sql.Identifier(str(self.channel))))
                if not listening.done():
                    listening.set_result(None)
                else:
                    self._handle({"kind": "resync"})
                pause = 0.1
                async for note in conn.notifies():
                    self._hear(note.payload)
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                if not listening.done():
                    listening.set_exception(exc)
                    return
                log.error("listening to the database failed (%s); listening again", exc)
                await asyncio.sleep(pause)
                pause = min(5.0, pause * 2)

    def _hear(self, payload: str) -> None:
        try:
            message = json.loads(payload)
        except ValueError:
            log.error("a notification that is not JSON was ignored: %.80r", payload)
            return
        if not isinstance(message, dict) or message.get("origin") == self.process:
            return
        if message.get("kind") in INTERNAL:
            return  # this process's own news of itself is never heard from the channel
        if message.get("kind") == "answer":
            if message.get("to") == self.process:
                self._answered(message)
            return
        if message.get("kind") == "gone":
            # Its session ends just after it says so: sweep once its locks are free.
            asyncio.get_running_loop().call_later(0.3, self._sweep_now.set)
        try:
            self._handle(message)
        except Exception:
            log.exception("a %r notification could not be handled", message.get("kind"))


def encode(message: dict[str, Any]) -> str:
    """A notification's payload; ValueError past PostgreSQL's size limit (callers keep them small)."""
    payload = json.dumps(message, separators=(",", ":"), ensure_ascii=False)
    if len(payload.encode()) > MAX_PAYLOAD:
        raise ValueError(f"a {message.get('kind')!r} notification of {len(payload)} characters is too long")
    return payload
