"""The writer thread's group commit, on SQLite and PostgreSQL: what one transaction writes for a
whole batch, and that one bad item in a batch fails no other."""

from __future__ import annotations

import asyncio
import secrets
import threading
from typing import Any

import pytest

from bodoge.server.storage import Append, Storage, TableRow, Writer


def row(table_id: str | None = None) -> TableRow:
    return TableRow(
        id=table_id or secrets.token_urlsafe(9),
        game="troika",
        rules_version=1,
        players=3,
        options={},
        seed=7,
        seats=[{"kind": "human"}] * 3,
        token_hashes=[None] * 3,
        created_at=1.0,
        updated_at=1.0,
    )


async def queued_together(writer: Writer, *calls: Any) -> list[BaseException | None]:
    """Queue the writes while the writer thread is held inside another job, so that it takes them
    in one batch, then say how each ended."""
    entered, gate = threading.Event(), threading.Event()

    def hold() -> None:
        entered.set()
        gate.wait(10)

    held = asyncio.ensure_future(writer.call(hold))
    assert await asyncio.to_thread(entered.wait, 10)
    tasks = [asyncio.ensure_future(call) for call in calls]
    while writer._queue.qsize() < len(calls):
        await asyncio.sleep(0)
    gate.set()
    await held
    results = await asyncio.gather(*tasks, return_exceptions=True)
    return [r if isinstance(r, BaseException) else None for r in results]


def test_a_batch_logs_every_action_and_each_table_moves_to_its_last(db_url: str) -> None:
    storage = Storage(db_url)
    writer = Writer(storage)

    async def play() -> list[BaseException | None]:
        a, b = row("a" * 12), row("b" * 12)
        await queued_together(writer, writer.create_table(a), writer.create_table(b))
        return await queued_together(
            writer,
            writer.append(Append(a.id, 0, 0, 11)),
            writer.append(Append(b.id, 0, 1, 12)),
            writer.append(Append(a.id, 1, 1, 13)),
            writer.append(Append(a.id, 2, 2, 14, {"scores": [1, 2, 3], "winners": [2]})),
        )

    try:
        assert asyncio.run(play()) == [None] * 4
        a, b = storage.load_table("a" * 12), storage.load_table("b" * 12)
        assert a is not None and b is not None
        assert (a.moves, a.status, a.result) == (3, "over", {"scores": [1, 2, 3], "winners": [2]})
        assert (b.moves, b.status, b.result) == (1, "playing", None)
        assert a.updated_at > 1.0 and b.updated_at > 1.0
        assert [(x.seq, x.seat, x.action) for x in storage.load_actions(a.id, 0)] == [
            (0, 0, 11),
            (1, 1, 13),
            (2, 2, 14),
        ]
        assert [(x.seq, x.seat, x.action) for x in storage.load_actions(b.id, 0)] == [(0, 1, 12)]
    finally:
        writer.close()
        storage.close()


def test_one_bad_item_in_a_batch_fails_alone(db_url: str) -> None:
    """A move logged twice, or a table made twice, is refused; what came in the same batch is
    written all the same (the batch is written again one by one)."""
    storage = Storage(db_url)
    writer = Writer(storage)
    first = row()

    async def play() -> tuple[list[BaseException | None], list[BaseException | None]]:
        await writer.create_table(first)
        await writer.append(Append(first.id, 0, 0, 5))
        second, third = row(), row()
        made = await queued_together(
            writer,
            writer.create_table(second),
            writer.create_table(row(first.id)),
            writer.create_table(third),
        )
        logged = await queued_together(
            writer,
            writer.append(Append(second.id, 0, 0, 1)),
            writer.append(Append(first.id, 0, 2, 99)),  # move 0 is logged already
            writer.append(Append(first.id, 1, 1, 6)),
            writer.append(Append(third.id, 0, 0, 2)),
        )
        return made, logged

    try:
        made, logged = asyncio.run(play())
        assert [e is None for e in made] == [True, False, True]
        assert [e is None for e in logged] == [True, False, True, True]
        assert [(x.seq, x.action) for x in storage.load_actions(first.id, 0)] == [(0, 5), (1, 6)]
        loaded = storage.load_table(first.id)
        assert loaded is not None and loaded.moves == 2 and loaded.seed == 7
    finally:
        writer.close()
        storage.close()


@pytest.mark.parametrize("size", [1, 7, 1000])
def test_batches_of_any_size_up_to_the_writers_most(db_url: str, size: int) -> None:
    """The writer takes at most 1000 jobs a batch: one INSERT of 1000 rows is within both
    databases' limits on parameters."""
    storage = Storage(db_url)
    tables = [row() for _ in range(10)]
    try:
        storage.create_tables(tables)
        batch = [Append(tables[i % 10].id, i // 10, 0, i) for i in range(size)]
        storage.append_actions(batch)
        for n, table in enumerate(tables):
            logged = storage.load_actions(table.id, 0)
            assert [x.action for x in logged] == [i for i in range(size) if i % 10 == n]
            loaded = storage.load_table(table.id)
            assert loaded is not None and loaded.moves == len(logged)
    finally:
        storage.close()
