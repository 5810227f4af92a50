"""Game reviews at the server (issue #33): `POST /api/tables/{id}/review` asks, `GET` reads.

A finished table's review is `analysis.review`'s, of every seat, with a budget of deals (so the same
game always gets the same review, and one stored is as good as one made again). It is made once
per table and shared by everyone:

- **One per table.** The first request inserts the table's row in `bodoge_reviews`; the primary key
  makes any other request, at this process or another, read that row instead of starting a second.
- **In the bot workers.** Its decisions go one by one to `BotPool.review`, as many at once as there
  are workers; a bot's move that waits for a worker is served first. The event loop only hands them
  out; the record's replay and the result's JSON are made in threads.
- **Bounded.** A process runs one review at a time and holds at most `review_queue` queued or
  running (503 beyond); an address starts at most `review_rate` (429 beyond; reading a review, or
  asking for one that exists, is free); a review running longer than `review_timeout` is stopped and
  stored as failed (asking again retries it).
- **Several processes.** The process that inserted the row runs it, and says it is alive every
  `HEARTBEAT` seconds in the row. A review whose process has stopped beating for `STALE` seconds (or
  at once, with SQLite: there is only this process) is taken over by the next process asked about
  it, compare-and-set on the row, so that only one takes it. Progress and result are in the row:
  any process answers `GET`.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import logging
import time
from typing import TYPE_CHECKING, Any

from bodoge.analysis.review import default_budget, plan_review, seat_summary
from bodoge.analysis.values import Budget, Deal, Leaf, Rollout
from bodoge.core.records import replay
from bodoge.errors import BodogeError
from bodoge.server.bots import ReviewFailed
from bodoge.server.storage import ReviewRow

if TYPE_CHECKING:
    from bodoge.server.guard import AddressLimits, Limits
    from bodoge.server.tables import TableManager

log = logging.getLogger("bodoge.server")

SEED = 1  # every server review's seed: with a budget of deals, one game has one review
HEARTBEAT = 5.0  # seconds between a process's signs of life in the rows of its reviews
STALE = 30.0  # seconds without one before another process takes a review over
PROGRESS_EVERY = 1.0  # seconds between two writes of a running review's progress
UNFINISHED = ("queued", "running")


class TakenOver(Exception):
    """Another process took the review over (this one was thought gone): it is left to that one."""


class ReviewRefused(Exception):
    """A review that cannot be asked for: `status` (HTTP) and a message that says why."""

    def __init__(self, status: int, message: str, retry_after: int | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        self.retry_after = retry_after


def server_deals(record: dict[str, Any], deals: int | None) -> int:
    """The deals per decision of a server review of `record`'s game: `deals` if the server sets it,
    else the review's default (`analysis.review.default_budget`, as `bodoge review`)."""
    if deals is not None:
        return deals
    game = replay({**record, "actions": [], "result": None}).game
    budget = default_budget(game)
    assert budget.deals is not None
    return budget.deals


def plan(record: dict[str, Any], deals: int | None) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The review's head and its units (one per decision, every seat); BodogeError if the game
    cannot be reviewed. In a worker thread."""
    budget = Budget(deals=server_deals(record, deals))
    return plan_review(record, None, budget, SEED, Rollout.AUTO, Deal.LIKELY, Leaf.AUTO)


def assemble(head: dict[str, Any], decisions: list[dict[str, Any]]) -> str:
    """review.json's text (docs/review.md), as `review_record` makes it. In a worker thread."""
    review = dict(head, decisions=decisions)
    review["seats"] = [seat_summary(s, decisions, head["returns"]) for s in head["review"]["seats"]]
    return json.dumps(review, ensure_ascii=False, separators=(",", ":"))


def answer_text(table_id: str, row: ReviewRow | None, finished: bool) -> str:
    """The body of `GET /api/tables/{id}/review`: the stored review is put in as it is stored (a
    few hundred kB for a long game: never parsed again). `reviewable`: whether the game is over."""
    if row is None:
        return json.dumps({"table": table_id, "status": "none", "reviewable": finished})
    head = {
        "table": table_id,
        "status": row.status,
        "reviewable": finished,
        "done": row.done,
        "total": row.total,
        "asked_at": row.asked_at,
        "finished_at": row.finished_at,
        "error": row.error,
    }
    text = json.dumps(head, ensure_ascii=False)
    if row.status == "done" and row.result is not None:
        return text[:-1] + ', "review": ' + row.result + "}"
    return text


class Reviews:
    """This process's reviews: the queue, the one running, and the rows they are stored in."""

    def __init__(
        self, manager: TableManager, limits: Limits, guard: AddressLimits, deals: int | None
    ) -> None:
        self.manager = manager
        self.storage = manager.storage
        self.limits = limits
        self.guard = guard
        self.deals = deals
        self.process = manager.cluster.process
        self.shared = manager.cluster.shared
        self.pending: list[str] = []  # table ids queued or running here, in order
        self.running: str | None = None
        self.started = 0  # reviews this process has begun (the tests count the jobs)
        self._queue: asyncio.Queue[str] = asyncio.Queue()
        self._tasks: list[asyncio.Task[None]] = []

    async def start(self) -> None:
        self._tasks = [
            asyncio.create_task(self._run_queue(), name="bodoge-reviews"),
            asyncio.create_task(self._beat(), name="bodoge-review-heartbeat"),
        ]

    async def close(self) -> None:
        """Stop: a review queued or running here is left in its row, for a process to take over."""
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(BaseException):
                await task

    # -- asking and reading ---------------------------------------------------------------------

    async def read(self, table_id: str) -> ReviewRow | None:
        """The table's review row; one whose process is gone is taken over here (if there is room)."""
        row = await asyncio.to_thread(self.storage.load_review, table_id)
        room = len(self.pending) < self.limits.review_queue
        if row is not None and self._stale(row) and room and await self._take(table_id, row):
            row = await asyncio.to_thread(self.storage.load_review, table_id)
        return row

    async def ask(self, table_id: str, address: str) -> ReviewRow:
        """Ask for the table's review (the caller has checked that its game is over): the row as it
        stands, new, taken over or retried. ReviewRefused past the rate or with the queue full."""
        row = await self.read(table_id)
        if row is not None and row.status != "failed":
            return row  # done, or under way (here or at another process): nothing new to do
        self._check_room()
        try:
            self.guard.hit_review(address)
        except Exception as exc:  # TooMany
            raise ReviewRefused(429, str(exc), getattr(exc, "retry_after", 60)) from None
        if row is not None:  # failed: asked again, it is tried again
            await self._take(table_id, row)
        else:
            now = time.time()
            new = ReviewRow(table_id, "queued", self.process, asked_at=now, heartbeat=now)
            if await self._write(self.storage.insert_review, new):
                self._enqueue(table_id)
        found = await asyncio.to_thread(self.storage.load_review, table_id)
        assert found is not None  # rows are never deleted
        return found

    def _check_room(self) -> None:
        if len(self.pending) >= self.limits.review_queue:
            self.guard.refused["review_queue"] += 1
            raise ReviewRefused(
                503,
                f"the server is busy with {len(self.pending)} reviews (at most "
                f"{self.limits.review_queue} at once); ask again in a minute",
                60,
            )

    def _stale(self, row: ReviewRow) -> bool:
        """Whether the row's review has no process to finish it."""
        if row.status not in UNFINISHED or row.worker == self.process:
            return False
        return not self.shared or row.heartbeat < time.time() - STALE

    async def _take(self, table_id: str, row: ReviewRow) -> bool:
        """Take the review over (compare-and-set): True, and it is queued here, if no other
        process took it first."""
        if not await self._write(self.storage.take_review, table_id, row, self.process, time.time()):
            return False
        log.info("table %s: review taken over (it was %s at %s)", table_id, row.status, row.worker)
        self._enqueue(table_id)
        return True

    def _enqueue(self, table_id: str) -> None:
        self.pending.append(table_id)
        self._queue.put_nowait(table_id)

    async def _write(self, fn: Any, *args: Any, **values: Any) -> Any:
        """A write through the writer thread (in order with the tables' writes); its result."""
        out: list[Any] = []
        await self.manager.writer.call(lambda: out.append(fn(*args, **values)))
        return out[0] if out else None

    # -- running --------------------------------------------------------------------------------

    async def _beat(self) -> None:
        while True:
            await asyncio.sleep(HEARTBEAT)
            if not self.pending:
                continue
            try:
                await self._write(self.storage.beat_reviews, self.process, time.time())
            except Exception as exc:
                log.error("could not mark this process's reviews alive: %s", exc)

    async def _run_queue(self) -> None:
        while True:
            table_id = await self._queue.get()
            self.running = table_id
            try:
                await self._run(table_id)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("table %s: the review failed", table_id)
            finally:
                self.running = None
                with contextlib.suppress(ValueError):
                    self.pending.remove(table_id)

    async def _run(self, table_id: str) -> None:
        """Make the table's review and store it, or store why it failed."""
        self.started += 1
        started = time.monotonic()
        deadline = started + self.limits.review_timeout
        update = functools.partial(self.storage.update_review, table_id, self.process)
        try:
            async with asyncio.timeout(self.limits.review_timeout):
                text, total = await self._review(table_id, deadline, update)
        except TakenOver:
            log.info("table %s: another process took the review over; left to it", table_id)
            return
        except (TimeoutError, ReviewFailed, BodogeError) as exc:
            error = str(exc) if not isinstance(exc, TimeoutError) else ""
            if isinstance(exc, TimeoutError) or "time is up" in error:
                error = f"the review took longer than the server's limit of {self.limits.review_timeout:g} s"
            log.warning("table %s: review failed: %s", table_id, error)
        except Exception as exc:  # a bug, or the database: stored as failed, never left running
            log.exception("table %s: the review failed", table_id)
            error = f"the server failed ({type(exc).__name__}); asking again tries again"
        else:
            await self._write(
                update,
                status="done",
                result=text,
                done=total,
                total=total,
                finished_at=time.time(),
                heartbeat=time.time(),
            )
            log.info(
                "table %s: reviewed (%d decisions) in %.1f s", table_id, total, time.monotonic() - started
            )
            return
        with contextlib.suppress(Exception):  # (the database may be what failed: logged above)
            await self._write(
                update, status="failed", error=error[:500], finished_at=time.time(), heartbeat=time.time()
            )

    async def _review(self, table_id: str, deadline: float, update: Any) -> tuple[str, int]:
        runtime = await self.manager.get(table_id)
        if runtime is None:
            raise ReviewFailed("the table cannot be loaded")
        record = runtime.record()
        head, units = await asyncio.to_thread(plan, record, self.deals)
        total = len(units)
        if not await self._write(update, status="running", total=total, done=0, heartbeat=time.time()):
            raise TakenOver(table_id)
        results: list[dict[str, Any] | None] = [None] * total
        todo = iter(range(total))
        done = 0
        written = time.monotonic()

        async def work() -> None:
            nonlocal done, written
            for i in todo:  # each worker takes the next decision not yet taken
                results[i] = await self.manager.bots.review(units[i], deadline)
                done += 1
                if time.monotonic() - written >= PROGRESS_EVERY and done < total:
                    written = time.monotonic()
                    await self._write(update, done=done, heartbeat=time.time())

        try:
            async with asyncio.TaskGroup() as group:
                for _ in range(min(self.manager.bots.size, max(1, total))):
                    group.create_task(work())
        except BaseExceptionGroup as failed:  # the first failure says why (the others stopped)
            raise failed.exceptions[0] from None
        decisions = [r for r in results if r is not None]
        return await asyncio.to_thread(assemble, head, decisions), total
