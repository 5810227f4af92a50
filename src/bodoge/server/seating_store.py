"""The rows of open tables (server/seating.py): the `bodoge_seatings` table, a seating as read from
it, and `Store`, the transactions that read and change them. Every change is a compare-and-swap on
the row's `version`, so that processes sharing the database never both take the last seat."""

from __future__ import annotations

import contextlib
import json
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from typing import Any

from sqlalchemy import (
    Boolean,
    Column,
    Engine,
    Float,
    Index,
    Integer,
    String,
    Table,
    Text,
    delete,
    func,
    insert,
    select,
    update,
)

from bodoge.server.players import players_table
from bodoge.server.storage import metadata

LISTED = 100  # public seatings GET /api/seatings gives at most


seatings_table = Table(
    "bodoge_seatings",
    metadata,
    Column("id", String(16), primary_key=True),
    Column("game", String(64), nullable=False),
    Column("players", Integer, nullable=False),
    Column("options", Text, nullable=False),  # JSON: the game's options, as its table will have them
    Column("clock", Text, nullable=True),  # JSON {turn_seconds, reserve_seconds}, or NULL: no clock
    Column("public", Boolean, nullable=False),
    Column("quick", Boolean, nullable=False),  # made by quick match (so quick match may seat people)
    Column("bots_after", Float, nullable=True),  # NULL: never
    Column("bot", String(200), nullable=False),
    Column("creator", String(16), nullable=False),
    Column("seats", Text, nullable=False),  # JSON: the seated players' ids, in the order they sat
    Column("table_seats", Text, nullable=True),  # JSON, once starting: the table's seats (id or null)
    Column("status", String(16), nullable=False),
    Column("table_id", String(16), nullable=True),
    Column("problem", String(400), nullable=True),  # why a start failed (then cancelled)
    Column("version", Integer, nullable=False),  # compare-and-swap: every change adds one
    Column("created_at", Float, nullable=False),
    Column("updated_at", Float, nullable=False),
)
Index("ix_bodoge_seatings_open", seatings_table.c.status, seatings_table.c.game, seatings_table.c.players)


@dataclass(frozen=True)
class Seating:
    id: str
    game: str
    players: int
    options: dict[str, Any]
    clock: dict[str, int] | None
    public: bool
    quick: bool
    bots_after: float | None
    bot: str
    creator: str
    seats: tuple[str, ...]
    table_seats: tuple[str | None, ...] | None
    status: str
    table_id: str | None
    problem: str | None
    version: int
    created_at: float
    updated_at: float

    @classmethod
    def from_db(cls, row: Any) -> Seating:
        order = None if row.table_seats is None else tuple(json.loads(row.table_seats))
        return cls(
            id=row.id,
            game=row.game,
            players=row.players,
            options=json.loads(row.options),
            clock=None if row.clock is None else json.loads(row.clock),
            public=bool(row.public),
            quick=bool(row.quick),
            bots_after=row.bots_after,
            bot=row.bot,
            creator=row.creator,
            seats=tuple(json.loads(row.seats)),
            table_seats=order,
            status=row.status,
            table_id=row.table_id,
            problem=row.problem,
            version=row.version,
            created_at=row.created_at,
            updated_at=row.updated_at,
        )

    def to_db(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "game": self.game,
            "players": self.players,
            "options": json.dumps(self.options),
            "clock": None if self.clock is None else json.dumps(self.clock),
            "public": self.public,
            "quick": self.quick,
            "bots_after": self.bots_after,
            "bot": self.bot,
            "creator": self.creator,
            "seats": json.dumps(list(self.seats)),
            "table_seats": None if self.table_seats is None else json.dumps(list(self.table_seats)),
            "status": self.status,
            "table_id": self.table_id,
            "problem": self.problem,
            "version": self.version,
            "created_at": self.created_at,
            "updated_at": self.updated_at,
        }

    @property
    def free(self) -> int:
        return self.players - len(self.seats)

    def bots_at(self) -> float | None:
        """When the free seats are filled with bots (server time), or None: never."""
        return None if self.bots_after is None else self.created_at + self.bots_after

    def due(self, now: float) -> bool:
        """Its wait is over and someone is seated: bots fill the rest and it starts."""
        at = self.bots_at()
        return self.status == "waiting" and at is not None and at <= now and bool(self.seats)


QuickCheck = tuple[str, int, dict[str, Any], str]  # a quick match's game, players, options and bot


class Lost(Exception):
    """Another change (another process) came first: read again and decide again."""


class Store:
    """The seatings' rows (synchronous: called in a worker thread). Each call is a transaction of its
    own, or part of the one `transaction()` holds open in this thread: a quick match's batch, or one
    decision with several writes, is then committed once (a commit waits for the disk: one for many
    players sitting down is what lets a crowd arrive at once)."""

    def __init__(self, engine: Engine, on_change: Callable[[str], None] | None = None) -> None:
        self.engine = engine
        self.on_change = on_change  # told of every change made here (from the worker thread)
        self._local = threading.local()  # this thread's open transaction, and what it changed

    @contextlib.contextmanager
    def transaction(self) -> Iterator[None]:
        """The calls in this block in one transaction (rolled back if it raises); those who wait for
        the seatings it changed are told once it is committed."""
        if getattr(self._local, "conn", None) is not None:  # inside one already: part of it
            yield
            return
        changed: list[str] = []
        with self.engine.begin() as conn:
            self._local.conn, self._local.changed = conn, changed
            try:
                yield
            finally:
                self._local.conn = self._local.changed = None
        if self.on_change is not None:
            for sid in dict.fromkeys(changed):
                self.on_change(sid)

    @contextlib.contextmanager
    def _conn(self) -> Iterator[Any]:
        conn = getattr(self._local, "conn", None)
        if conn is not None:
            yield conn
        else:
            with self.engine.begin() as own:
                yield own

    def load(self, sid: str) -> Seating | None:
        with self._conn() as conn:
            row = conn.execute(select(seatings_table).where(seatings_table.c.id == sid)).first()
        return None if row is None else Seating.from_db(row)

    def insert(self, seating: Seating) -> None:
        with self._conn() as conn:
            conn.execute(insert(seatings_table).values(**seating.to_db()))

    def swap(self, old: Seating, **changes: Any) -> Seating:
        """The seating changed, if nobody changed it since `old` was read; Lost otherwise."""
        new = replace(old, version=old.version + 1, updated_at=time.time(), **changes)
        values = new.to_db()
        del values["id"]
        with self._conn() as conn:
            done = conn.execute(
                update(seatings_table)
                .where(seatings_table.c.id == old.id, seatings_table.c.version == old.version)
                .values(**values)
            ).rowcount
        if done != 1:
            raise Lost
        changed = getattr(self._local, "changed", None)
        if changed is not None:
            changed.append(old.id)  # told once the transaction is committed
        elif self.on_change is not None:
            self.on_change(old.id)
        return new

    def where(self, *conditions: Any, oldest_first: bool = True, limit: int = LISTED) -> list[Seating]:
        order = seatings_table.c.created_at if oldest_first else seatings_table.c.created_at.desc()
        with self._conn() as conn:
            rows = conn.execute(select(seatings_table).where(*conditions).order_by(order).limit(limit)).all()
        return [Seating.from_db(r) for r in rows]

    def of_player(self, pid: str, statuses: tuple[str, ...] = ("waiting",)) -> list[Seating]:
        """The player's seatings of these statuses (a player id is 16 random characters: a seats text
        that holds it names the player; checked again after reading)."""
        found = self.where(
            seatings_table.c.status.in_(statuses),
            seatings_table.c.seats.contains(pid, autoescape=True),
            limit=1000,
        )
        return [s for s in found if pid in s.seats]

    def count_waiting(self) -> int:
        with self._conn() as conn:
            return int(
                conn.execute(
                    select(func.count())
                    .select_from(seatings_table)
                    .where(seatings_table.c.status == "waiting")
                ).scalar_one()
            )

    def mark_started(self, ids: list[str]) -> None:
        """These seatings' tables are made: starting -> started, in one write."""
        c = seatings_table.c
        with self._conn() as conn:
            conn.execute(
                update(seatings_table)
                .where(c.id.in_(ids), c.status == "starting")
                .values(status="started", version=c.version + 1, updated_at=time.time())
            )
        if self.on_change is not None:
            for sid in ids:
                self.on_change(sid)

    def present(self, pids: tuple[str, ...]) -> set[str]:
        """Those of these players who still exist (not deleted)."""
        if not pids:
            return set()
        with self._conn() as conn:
            rows = conn.execute(
                select(players_table.c.id).where(
                    players_table.c.id.in_(list(pids)), players_table.c.deleted_at.is_(None)
                )
            ).all()
        return {r.id for r in rows}

    def forget_old(self, before: float) -> int:
        with self.engine.begin() as conn:
            return int(
                conn.execute(
                    delete(seatings_table).where(
                        seatings_table.c.status.in_(("started", "cancelled")),
                        seatings_table.c.updated_at < before,
                    )
                ).rowcount
            )


# -- the rules of sitting down ------------------------------------------------------------------
