"""BotPool keeps its workers when a review is stopped at its time limit (server/bots.py).

A stopped review cancels its tasks just as its last decision times out (the same deadline). A
cancellation while a timed-out worker was being killed once skipped its replacement: after two such
reviews a pool of two had no worker left, and every bot's move waited out its budget and was played
at random (a fresh clone's CI saw a table of bots not finish in 240 s). And a wait for an idle worker
that is cancelled as it gets one neither swallows the cancellation nor loses the worker. Stand-in
workers here are plain objects (the queue never looks at them) or a fake with a slow kill."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import pytest

from bodoge.server.bots import BotPool


def pool() -> BotPool:
    bots = BotPool(workers=1, budget=1.0)
    bots._idle = asyncio.Queue()
    return bots


def test_an_idle_worker_is_given_and_none_when_the_time_is_up() -> None:
    async def main() -> None:
        bots = pool()
        assert bots._idle is not None
        assert await bots._idle_worker(0.01) is None
        assert bots._idle.qsize() == 0  # the timed-out wait left nothing behind in the queue
        worker: Any = object()
        bots._idle.put_nowait(worker)
        assert await bots._idle_worker(1.0) is worker
        assert bots._idle.qsize() == 0

    asyncio.run(main())


@pytest.mark.parametrize("steps", range(6))
def test_a_wait_cancelled_around_the_put_loses_no_worker(steps: int) -> None:
    """The worker comes back to the queue, then the waiting task is cancelled after `steps` turns of
    the event loop (0: before it could take it, later: after it took it): the worker is either with
    the waiter (which then returned it) or still in the queue, never gone."""

    async def main() -> None:
        bots = pool()
        assert bots._idle is not None
        waiter = asyncio.create_task(bots._idle_worker(30.0))
        await asyncio.sleep(0)  # the waiter now waits at the queue
        worker: Any = object()
        bots._idle.put_nowait(worker)
        for _ in range(steps):
            await asyncio.sleep(0)
        waiter.cancel()
        try:
            got = await waiter
        except asyncio.CancelledError:
            got = None
        queued = [bots._idle.get_nowait() for _ in range(bots._idle.qsize())]
        assert (got is worker) != (queued == [worker]), (got, queued)
        assert queued in ([], [worker])

    asyncio.run(main())


class SlowToKill:
    """A worker whose kill takes a moment (a real one waits for its process to end)."""

    def __init__(self) -> None:
        self.killed = False

    def kill(self) -> None:
        time.sleep(0.2)
        self.killed = True


def test_a_retired_worker_is_replaced_even_if_the_retiring_task_is_cancelled() -> None:
    async def main() -> None:
        bots = pool()
        replaced: list[bool] = []
        bots._replace = lambda: replaced.append(True)  # type: ignore[method-assign]
        worker: Any = SlowToKill()
        bots._all.append(worker)
        retiring = asyncio.create_task(bots._retire(worker))
        await asyncio.sleep(0.05)  # the kill is under way in its thread
        retiring.cancel()  # the review's time limit
        with pytest.raises(asyncio.CancelledError):
            await retiring
        assert replaced == [True]  # a fresh worker was asked for all the same
        assert worker not in bots._all
        await asyncio.sleep(0.3)
        assert worker.killed

    asyncio.run(main())
