"""Event-sourced storage of tables: one row per table and an append-only log of its actions.

A table is its row (game, players, options, seed, seats, token hashes) plus the actions taken at it,
in order. Nothing else is stored: the state of a table is always `new_state(seed)` with its logged
actions replayed, so a restart rebuilds every table exactly (DESIGN.md §6).

SQLAlchemy 2 Core, so any database it speaks works; SQLite (WAL) by default, PostgreSQL by URL.
All writes go through one `Writer` thread that commits whatever is queued in one transaction (group
commit): an action's future resolves only once its transaction is committed, and only then is it
broadcast. Beside other processes on PostgreSQL (cluster.py), the same transaction notifies them of
each action it logs, so that they hear of it when, and only if, it is committed.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import importlib
import json
import logging
import queue
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import (
    BigInteger,
    Column,
    Engine,
    Float,
    ForeignKey,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    create_engine,
    event,
    func,
    insert,
    inspect,
    select,
    text,
    update,
)
from sqlalchemy.engine import URL, make_url
from sqlalchemy.exc import ArgumentError, IntegrityError, NoSuchModuleError, SQLAlchemyError
from sqlalchemy.pool import NullPool

from bodoge.errors import BodogeError
from bodoge.server.cluster import encode
from bodoge.server.guard import check_value

log = logging.getLogger("bodoge.server")

metadata = MetaData()
# The modules that keep tables of their own (players, open tables, ratings, ...) beside the tables
# and their logs here: imported when a Storage is made, so that every table exists.
SCHEMA_MODULES = (
    "bodoge.server.players",
    "bodoge.server.safety",
    "bodoge.server.ratings",
    "bodoge.server.seating_store",
    "bodoge.server.longplay",
)

tables_table = Table(
    "bodoge_tables",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("game", String(64), nullable=False),
    Column("rules_version", Integer, nullable=False),
    Column("players", Integer, nullable=False),
    Column("options", Text, nullable=False),  # JSON
    Column("seed", BigInteger, nullable=False),  # secret until the game is over
    Column("seats", Text, nullable=False),  # JSON: [{"kind": "human"|"bot", "name", "spec"}]
    Column("token_hashes", Text, nullable=False),  # JSON: [sha256 hex or null (bots)]
    Column("status", String(16), nullable=False, index=True),  # "playing" | "over" | "abandoned"
    Column("moves", Integer, nullable=False),
    Column("result", Text, nullable=True),  # JSON {"scores", "winners"} once over
    Column("created_at", Float, nullable=False),
    Column("updated_at", Float, nullable=False, index=True),
    # JSON: the table's settings beside the game's options: {"clock": {"turn_seconds",
    # "reserve_seconds"} or null, "standin": agent spec, "rematch_of", "next_table"}. Added after
    # the first release: Storage adds the column to an older database.
    Column("settings", Text, nullable=True),
    # JSON: the seats whose decision it is now ([] once over), written with every action (a player's
    # list of tables reads it without rebuilding games: server/longplay.py); NULL: not known. Added
    # later, as `settings` was.
    Column("to_move", Text, nullable=True),
)

actions_table = Table(
    "bodoge_actions",
    metadata,
    Column("table_id", String(32), ForeignKey("bodoge_tables.id"), primary_key=True),
    Column("seq", Integer, primary_key=True),  # 0, 1, 2, ... : the action's index in the game
    Column("seat", Integer, nullable=False),
    Column("action", Integer, nullable=False),
    Column("at", Float, nullable=False),
    # The stand-in bot's spec when one made this move for an away person (server/ratings.py does not
    # count it to them); NULL for the seat's own move. Added later: Storage adds it to an older database.
    Column("standin", String(200), nullable=True),
)

chat_table = Table(
    "bodoge_chat",
    metadata,
    Column("table_id", String(32), ForeignKey("bodoge_tables.id"), primary_key=True),
    Column("n", Integer, primary_key=True),  # 0, 1, 2, ...: the line's index at its table
    Column("seat", Integer, nullable=False),
    Column("name", String(64), nullable=False),  # the seat's name when it was said
    Column("text", Text, nullable=False),
    Column("move", Integer, nullable=False),  # the table's move number when it was said
    Column("at", Float, nullable=False),
)

# A finished table's game review (issue #33, server/reviews.py): one row per table, inserted by the
# first request (the primary key makes two requests, at any processes, one review). The process
# named in `worker` runs it and keeps `heartbeat` fresh; a row whose worker stopped beating is
# taken over by another process, compare-and-set on (worker, heartbeat).
reviews_table = Table(
    "bodoge_reviews",
    metadata,
    Column("table_id", String(32), ForeignKey("bodoge_tables.id"), primary_key=True),
    Column("status", String(16), nullable=False),  # "queued" | "running" | "done" | "failed"
    Column("worker", String(32), nullable=False),  # the process that runs it (cluster's name)
    Column("done", Integer, nullable=False),  # decisions reviewed so far
    Column("total", Integer, nullable=False),  # decisions to review (0 until it has started)
    Column("result", Text, nullable=True),  # JSON: review.json (docs/review.md) once done
    Column("error", Text, nullable=True),  # why it failed
    Column("asked_at", Float, nullable=False),
    Column("heartbeat", Float, nullable=False),  # the worker's last sign of life
    Column("finished_at", Float, nullable=True),
)


@dataclass
class ReviewRow:
    table_id: str
    status: str
    worker: str
    done: int = 0
    total: int = 0
    result: str | None = None  # the review's JSON text, as stored (sent as it is)
    error: str | None = None
    asked_at: float = 0.0
    heartbeat: float = 0.0
    finished_at: float | None = None

    @classmethod
    def from_db(cls, row: Any) -> ReviewRow:
        m = row._mapping
        return cls(**{c.name: m[c.name] for c in reviews_table.columns})


@dataclass
class TableRow:
    id: str
    game: str
    rules_version: int
    players: int
    options: dict[str, Any]
    seed: int
    seats: list[dict[str, Any]]
    token_hashes: list[str | None]
    status: str = "playing"
    moves: int = 0
    result: dict[str, Any] | None = None
    created_at: float = 0.0
    updated_at: float = 0.0
    settings: dict[str, Any] = field(default_factory=dict)
    to_move: list[int] | None = None  # the seats whose decision it is (None: not known)

    def to_db(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "game": self.game,
            "rules_version": self.rules_version,
            "players": self.players,
            "options": json.dumps(self.options),
            "seed": self.seed,
            "seats": json.dumps(self.seats),
            "token_hashes": json.dumps(self.token_hashes),
            "status": self.status,
            "moves": self.moves,
            "result": None if self.result is None else json.dumps(self.result),
            "created_at": self.created_at,
            "updated_at": self.updated_at,
            "settings": json.dumps(self.settings),
            "to_move": None if self.to_move is None else json.dumps(self.to_move),
        }

    @classmethod
    def from_db(cls, row: Any) -> TableRow:
        """The row as stored; ValueError for one that could never be served (text that is not valid
        Unicode, as older servers let in), so that one bad row cannot break every list."""
        m = row._mapping
        options, seats = json.loads(m["options"]), json.loads(m["seats"])
        result = None if m["result"] is None else json.loads(m["result"])
        settings = {} if m["settings"] is None else json.loads(m["settings"])
        check_value([options, seats, result, settings])
        return cls(
            id=m["id"],
            game=m["game"],
            rules_version=m["rules_version"],
            players=m["players"],
            options=options,
            seed=int(m["seed"]),
            seats=seats,
            token_hashes=json.loads(m["token_hashes"]),
            status=m["status"],
            moves=m["moves"],
            result=result,
            created_at=m["created_at"],
            updated_at=m["updated_at"],
            settings=settings,
            to_move=None if m.get("to_move") is None else json.loads(m["to_move"]),
        )


@dataclass(frozen=True)
class LoggedAction:
    seq: int
    seat: int
    action: int


@dataclass(frozen=True)
class ChatLine:
    """One line of a table's chat, as stored and as sent (`as_json`)."""

    n: int
    seat: int
    name: str
    text: str
    move: int
    at: float

    def as_json(self) -> dict[str, Any]:
        return {
            "n": self.n,
            "seat": self.seat,
            "name": self.name,
            "text": self.text,
            "move": self.move,
            "at": self.at,
        }


@dataclass(frozen=True)
class Append:
    """One action to log; `result` set when it ends the game (the row is marked over with it)."""

    table_id: str
    seq: int
    seat: int
    action: int
    result: dict[str, Any] | None = None
    standin: str | None = None  # the stand-in that made the move for an away person
    at: float | None = None  # when it was taken (None: when it is committed)
    to_move: list[int] | None = None  # the seats whose decision follows it (None: not known)


SCHEMA_LOCK = 0x626F646F6765  # "bodoge": the advisory lock held while making the tables


def normalize_url(url: str) -> str:
    """Plain `postgresql://` URLs use psycopg 3 (the driver the `server` extra installs)."""
    parsed = make_url(url)
    if parsed.drivername in ("postgresql", "postgres"):
        parsed = parsed.set(drivername="postgresql+psycopg")
    return parsed.render_as_string(hide_password=False)


#: What `database_url` allows, in its refusals.
DATABASE_URLS = "a SQLAlchemy URL such as sqlite:///bodoge.db or postgresql://user:pw@host/bodoge"


def database_url(db: str) -> tuple[URL, str]:
    """The database URL `db` as the server uses it (`normalize_url`), and as it may be shown (no
    password). BodogeError, naming the URL as shown, if it is not a URL, names a database SQLAlchemy
    does not know, or its driver is not installed; nothing is connected to."""
    try:
        shown = make_url(db).render_as_string(hide_password=True)
        url = make_url(normalize_url(db))
    except (ArgumentError, ValueError, TypeError):
        raise BodogeError(f"{db!r} is not a database URL; allowed: {DATABASE_URLS}") from None
    try:
        dialect = url.get_dialect()
    except NoSuchModuleError:
        raise BodogeError(
            f"{shown}: SQLAlchemy has no database {url.drivername!r}; allowed: {DATABASE_URLS}"
        ) from None
    try:
        dialect.import_dbapi()
    except ImportError as exc:
        raise BodogeError(f"{shown}: the driver for {url.drivername} is not installed ({exc})") from None
    return url, shown


def check_database(url: URL | str, shown: str) -> None:
    """BodogeError (`shown`: the URL as it may be shown) if the database cannot be reached or read:
    its schema is read, so a file that is no database fails. SQLite makes a missing file, as the
    server does a moment later."""
    try:
        engine = create_engine(url, poolclass=NullPool)
        try:
            with engine.connect() as conn:
                inspect(conn).get_table_names()
        finally:
            engine.dispose()
    except SQLAlchemyError as exc:
        cause = getattr(exc, "orig", None) or exc
        reason = str(cause).strip().splitlines()[0] if str(cause).strip() else type(cause).__name__
        raise BodogeError(f"{shown}: cannot use the database: {reason}") from None


class Storage:
    """Synchronous access to the database (called from the writer thread or worker threads)."""

    def __init__(self, url: str) -> None:
        self.url = normalize_url(url)
        self.is_sqlite = self.url.startswith("sqlite")
        if self.is_sqlite:
            self.engine: Engine = create_engine(
                self.url, connect_args={"check_same_thread": False, "timeout": 30}
            )
            event.listen(self.engine, "connect", _sqlite_pragmas)
        else:
            self.engine = create_engine(self.url, pool_pre_ping=True, pool_size=5, max_overflow=5)
        for module in SCHEMA_MODULES:  # their tables join `metadata` before create_all makes them
            importlib.import_module(module)
        with self.engine.begin() as conn:
            if not self.is_sqlite:
                # Processes started together on an empty database would race to make the same
                # tables (and all but one fail): one at a time, until this transaction ends.
                conn.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": SCHEMA_LOCK})
            metadata.create_all(conn)
            self._add_new_columns(conn)
        # The driver's placeholder for a positional parameter (sqlite3: ?, psycopg: %s).
        self._mark = "?" if self.engine.dialect.paramstyle == "qmark" else "%s"
        # Set by a PgCluster: the channel that hears of every logged action and abandoned table, in
        # the transaction that writes it, and this process's name (so that it skips its own).
        self.channel: str | None = None
        self.origin = ""

    @staticmethod
    def _add_new_columns(conn: Any) -> None:
        """Columns added since a database was made (create_all makes missing tables, never columns):
        an older bodoge.db keeps working after an upgrade."""
        have = {c["name"] for c in inspect(conn).get_columns("bodoge_tables")}
        if "settings" not in have:
            conn.execute(text("ALTER TABLE bodoge_tables ADD COLUMN settings TEXT"))
        if "to_move" not in have:
            conn.execute(text("ALTER TABLE bodoge_tables ADD COLUMN to_move TEXT"))
        if "standin" not in {c["name"] for c in inspect(conn).get_columns("bodoge_actions")}:
            conn.execute(text("ALTER TABLE bodoge_actions ADD COLUMN standin VARCHAR(200)"))

    def close(self) -> None:
        self.engine.dispose()

    # -- writes (the writer thread) -------------------------------------------------------------

    def create_tables(self, rows: list[TableRow]) -> None:
        """New tables' rows, in one transaction; all or none."""
        with self.engine.begin() as conn:
            conn.execute(insert(tables_table), [row.to_db() for row in rows])

    def append_actions(self, batch: list[Append]) -> None:
        """Log the actions in one transaction; all or none. A (table, seq) logged twice fails.

        Two statements for the whole batch, whatever its size, in the driver's own SQL: the writer
        thread takes the GIL back after every statement, and behind a busy event loop each time
        costs up to the interpreter's switch interval (5 ms). With SQLAlchemy's executemany (a step
        per row) and its compiling, a batch took 4.3 ms at p50 and 23 ms at p99 under
        `bench/load.py`, and every action waits for one (README, "Playing online")."""
        now = time.time()
        last: dict[str, Append] = {}
        for a in batch:
            last[a.table_id] = a
        with self.engine.begin() as conn:
            conn.exec_driver_sql(
                _log_sql(self._mark, len(batch)),
                tuple(
                    x for a in batch for x in (a.table_id, a.seq, a.seat, a.action, a.at or now, a.standin)
                ),
            )
            conn.exec_driver_sql(
                _moves_sql(self._mark, len(last)),
                tuple(
                    x
                    for a in last.values()
                    for x in (
                        a.table_id,
                        a.seq + 1,
                        a.at or now,
                        None if a.to_move is None else json.dumps(a.to_move),
                    )
                ),
            )
            for a in last.values():
                if a.result is not None:
                    conn.execute(
                        update(tables_table)
                        .where(tables_table.c.id == a.table_id)
                        .values(status="over", result=json.dumps(a.result))
                    )
            self._notify(
                conn,
                [
                    {"kind": "move", "table": a.table_id, "seq": a.seq, "seat": a.seat, "action": a.action}
                    for a in batch
                ],
            )

    def _notify(self, conn: Any, messages: list[dict[str, Any]]) -> None:
        """Tell the other processes, when the transaction commits (and only if it does)."""
        if self.channel is None or not messages:
            return
        payloads = [encode(dict(m, origin=self.origin)) for m in messages]
        conn.execute(
            text("SELECT pg_notify(:channel, p) FROM unnest(CAST(:payloads AS text[])) AS p"),
            {"channel": self.channel, "payloads": payloads},
        )

    def set_settings(self, table_id: str, settings: dict[str, Any]) -> None:
        with self.engine.begin() as conn:
            conn.execute(
                update(tables_table)
                .where(tables_table.c.id == table_id)
                .values(settings=json.dumps(settings))
            )

    def set_seats(self, table_id: str, seats: list[dict[str, Any]]) -> None:
        """The seats' names and kinds (a person named themselves when joining)."""
        with self.engine.begin() as conn:
            conn.execute(
                update(tables_table).where(tables_table.c.id == table_id).values(seats=json.dumps(seats))
            )

    def add_chat(self, table_id: str, line: ChatLine) -> None:
        with self.engine.begin() as conn:
            conn.execute(insert(chat_table).values(table_id=table_id, **line.as_json()))

    # -- reads ----------------------------------------------------------------------------------

    def load_table(self, table_id: str) -> TableRow | None:
        with self.engine.connect() as conn:
            row = conn.execute(select(tables_table).where(tables_table.c.id == table_id)).first()
        return None if row is None else TableRow.from_db(row)

    def load_actions(self, table_id: str, start: int = 0) -> list[LoggedAction]:
        """The table's logged actions, in order, from move `start` on."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(actions_table.c.seq, actions_table.c.seat, actions_table.c.action)
                .where(actions_table.c.table_id == table_id, actions_table.c.seq >= start)
                .order_by(actions_table.c.seq)
            ).all()
        return [LoggedAction(r.seq, r.seat, r.action) for r in rows]

    def load_chat(self, table_id: str) -> list[ChatLine]:
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(chat_table).where(chat_table.c.table_id == table_id).order_by(chat_table.c.n)
            ).all()
        return [ChatLine(r.n, r.seat, r.name, r.text, r.move, r.at) for r in rows]

    def playing_ids(self) -> list[str]:
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(tables_table.c.id)
                .where(tables_table.c.status == "playing")
                .order_by(tables_table.c.created_at)
            ).all()
        return [r.id for r in rows]

    def list_tables(self, statuses: tuple[str, ...], limit: int) -> list[TableRow]:
        """The newest tables of these statuses; a row that cannot be read is left out (and logged)."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(tables_table)
                .where(tables_table.c.status.in_(statuses))
                .order_by(tables_table.c.updated_at.desc())
                .limit(limit)
            ).all()
        out = []
        for r in rows:
            try:
                out.append(TableRow.from_db(r))
            except (ValueError, TypeError, KeyError) as exc:
                log.error("table %r: its row cannot be read (%s); left out of the lists", r.id, exc)
        return out

    def idle_ids(self, before: float, unstarted_before: float | None = None) -> list[str]:
        """Tables in play whose last move (or creation) was before `before`, and those without a
        single move made since before `unstarted_before`."""
        idle = tables_table.c.updated_at < before
        if unstarted_before is not None:
            idle = idle | ((tables_table.c.moves == 0) & (tables_table.c.created_at < unstarted_before))
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(tables_table.c.id).where(tables_table.c.status == "playing", idle)
            ).all()
        return [r.id for r in rows]

    def abandon(self, table_id: str) -> None:
        """Mark a table in play abandoned (its record is kept and stays replayable)."""
        with self.engine.begin() as conn:
            done = conn.execute(
                update(tables_table)
                .where(tables_table.c.id == table_id, tables_table.c.status == "playing")
                .values(status="abandoned")
            )
            if done.rowcount:
                self._notify(conn, [{"kind": "abandoned", "table": table_id}])

    # -- reviews (server/reviews.py) -------------------------------------------------------------

    def load_review(self, table_id: str) -> ReviewRow | None:
        with self.engine.connect() as conn:
            row = conn.execute(select(reviews_table).where(reviews_table.c.table_id == table_id)).first()
        return None if row is None else ReviewRow.from_db(row)

    def insert_review(self, row: ReviewRow) -> bool:
        """Ask for a table's review: True if this inserted its row, False if it had one (another
        request's, at this process or another: the primary key decides, atomically)."""
        values = {c.name: getattr(row, c.name) for c in reviews_table.columns}
        try:
            with self.engine.begin() as conn:
                conn.execute(insert(reviews_table).values(**values))
        except IntegrityError:
            return False
        return True

    def take_review(self, table_id: str, old: ReviewRow, worker: str, now: float) -> bool:
        """Take a review over (its worker is gone, or it failed and is asked again), compare-and-set:
        True if the row was still as `old` read it, and is now queued at `worker`."""
        with self.engine.begin() as conn:
            done = conn.execute(
                update(reviews_table)
                .where(
                    reviews_table.c.table_id == table_id,
                    reviews_table.c.status == old.status,
                    reviews_table.c.worker == old.worker,
                    reviews_table.c.heartbeat == old.heartbeat,
                )
                .values(
                    status="queued",
                    worker=worker,
                    done=0,
                    total=0,
                    error=None,
                    result=None,
                    asked_at=now,
                    heartbeat=now,
                    finished_at=None,
                )
            )
        return bool(done.rowcount)

    def update_review(self, table_id: str, worker: str, **values: Any) -> bool:
        """Change a review that `worker` runs (its progress, its end); False if another process
        took it over meanwhile (then nothing changes)."""
        with self.engine.begin() as conn:
            done = conn.execute(
                update(reviews_table)
                .where(reviews_table.c.table_id == table_id, reviews_table.c.worker == worker)
                .values(**values)
            )
        return bool(done.rowcount)

    def beat_reviews(self, worker: str, now: float) -> None:
        """The worker is alive: every review it has queued or runs is fresh."""
        with self.engine.begin() as conn:
            conn.execute(
                update(reviews_table)
                .where(
                    reviews_table.c.worker == worker,
                    reviews_table.c.status.in_(("queued", "running")),
                )
                .values(heartbeat=now)
            )

    def count_actions(self) -> int:
        with self.engine.connect() as conn:
            return int(conn.execute(select(func.count()).select_from(actions_table)).scalar_one())


@functools.lru_cache(maxsize=64)
def _log_sql(mark: str, rows: int) -> str:
    """One INSERT of `rows` actions (table_id, seq, seat, action, at, standin), in the driver's
    placeholders."""
    row = "(" + ", ".join([mark] * 6) + ")"
    columns = "(table_id, seq, seat, action, at, standin)"
    return f"INSERT INTO bodoge_actions {columns} VALUES " + ", ".join([row] * rows)


@functools.lru_cache(maxsize=64)
def _moves_sql(mark: str, rows: int) -> str:
    """One UPDATE of `rows` tables' (id, moves, updated_at, to_move): the same SQL for SQLite (3.33
    or later) and PostgreSQL."""
    row = f"({mark}, {mark}, {mark}, {mark})"
    return (
        f"WITH moved (id, moves, at, to_move) AS (VALUES {', '.join([row] * rows)}) "
        "UPDATE bodoge_tables SET moves = moved.moves, updated_at = moved.at, to_move = moved.to_move "
        "FROM moved WHERE bodoge_tables.id = moved.id"
    )


def _sqlite_pragmas(dbapi_conn: Any, _record: Any) -> None:
    cursor = dbapi_conn.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    # FULL: a commit is on disk before it returns, so nothing broadcast is ever lost (WAL keeps it fast).
    cursor.execute("PRAGMA synchronous=FULL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.close()


_STOP = object()


class Writer:
    """The one thread that writes: it commits everything queued at once (group commit).

    `await writer.append(a)` returns once `a` is committed, or raises what the database raised.
    """

    def __init__(self, storage: Storage) -> None:
        self.storage = storage
        self.appended = 0  # actions committed (the metrics read it; only this thread writes it)
        self._queue: queue.Queue[Any] = queue.Queue()
        self._thread = threading.Thread(target=self._run, name="bodoge-writer", daemon=True)
        self._thread.start()

    async def append(self, item: Append) -> None:
        await self._submit("append", item)

    async def create_table(self, row: TableRow) -> None:
        await self._submit("create", row)

    async def abandon(self, table_id: str) -> None:
        await self._submit("abandon", table_id)

    async def call(self, fn: Callable[..., None], *args: Any) -> None:
        """Any other write (settings, names, chat), in order with the rest."""
        await self._submit("call", (fn, args))

    async def _submit(self, kind: str, item: Any) -> None:
        loop = asyncio.get_running_loop()
        future: asyncio.Future[None] = loop.create_future()
        self._queue.put((kind, item, loop, future))
        await future

    def close(self) -> None:
        self._queue.put(_STOP)
        self._thread.join(timeout=30)

    def _run(self) -> None:
        while True:
            first = self._queue.get()
            if first is _STOP:
                return
            jobs = [first]
            stop = False
            with contextlib.suppress(queue.Empty):
                while len(jobs) < 1000:
                    job = self._queue.get_nowait()
                    if job is _STOP:
                        stop = True
                        break
                    jobs.append(job)
            self._handle(jobs)
            if stop:
                return

    def _handle(self, jobs: list[Any]) -> None:
        """Every kind of write in the batch; tables made and actions logged in one transaction
        for each kind (one commit each: 100 tables made at once were 100 commits before the moves
        queued behind them)."""
        outcomes: list[tuple[Any, BaseException | None]] = []
        creates = [job for job in jobs if job[0] == "create"]
        if creates:
            outcomes += self._all_or_each(creates, self.storage.create_tables)
        for job in jobs:
            if job[0] == "abandon":
                outcomes.append((job, _outcome(self.storage.abandon, job[1])))
            elif job[0] == "call":
                outcomes.append((job, _outcome(lambda call: call[0](*call[1]), job[1])))
        appends = [job for job in jobs if job[0] == "append"]
        if appends:
            logged = self._all_or_each(appends, self.storage.append_actions)
            self.appended += sum(1 for _job, failure in logged if failure is None)
            outcomes += logged
        _resolve(outcomes)

    @staticmethod
    def _all_or_each(
        jobs: list[Any], write: Callable[[list[Any]], None]
    ) -> list[tuple[Any, BaseException | None]]:
        """`write` the jobs' items in one transaction; if it fails, each alone, so that one bad
        item fails no other."""
        try:
            write([job[1] for job in jobs])
        except Exception:
            return [(job, _outcome(lambda item: write([item]), job[1])) for job in jobs]
        return [(job, None) for job in jobs]


def _outcome(fn: Callable[[Any], None], item: Any) -> BaseException | None:
    """What `fn(item)` raised, or None."""
    try:
        fn(item)
    except Exception as exc:
        return exc
    return None


Settled = list[tuple[asyncio.Future[None], BaseException | None]]


def _resolve(outcomes: list[tuple[Any, BaseException | None]]) -> None:
    """Settle the jobs' futures with one wake-up of each loop for them all: each
    call_soon_threadsafe writes to the loop's self-pipe, after which the writer thread waits for
    the GIL again (up to the switch interval, 5 ms, behind a busy loop)."""
    by_loop: dict[asyncio.AbstractEventLoop, Settled] = {}
    for (_kind, _item, loop, future), exc in outcomes:
        by_loop.setdefault(loop, []).append((future, exc))
    for loop, settled in by_loop.items():
        with contextlib.suppress(RuntimeError):  # the loop is closed: nobody waits any more
            loop.call_soon_threadsafe(_settle, settled)


def _settle(settled: Settled) -> None:
    for future, exc in settled:
        if future.done():
            continue
        if exc is None:
            future.set_result(None)
        else:
            future.set_exception(exc)
