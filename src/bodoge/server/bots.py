"""Bots at tables: agents run in worker processes, on their seat's view, under a time budget.
The same workers review finished games, one decision at a time (`BotPool.review`, server/reviews.py).

The event loop never runs an agent. `BotPool.act` hands a worker the game (by name and options),
the agent spec and `view(seat)` — nothing else, so a bot knows exactly what its seat knows — and
waits for the answer at most `budget` seconds. A worker that dies is replaced and the move tried
once more on another; a worker that overruns is killed and replaced. Whenever no good answer comes
in time, the seat plays a uniformly random legal action instead: a move never holds the table up.
"""

from __future__ import annotations

import asyncio
import contextlib
import importlib
import json
import logging
import multiprocessing
import multiprocessing.connection
import random
import secrets
import signal
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

log = logging.getLogger("bodoge.server")


class ReviewFailed(Exception):
    """A decision of a game review that no worker answered in time, or whose worker failed."""


@dataclass(frozen=True)
class BotMove:
    action: int
    fallback: str | None  # why the random fallback was played, or None


REVIEW = "review"  # a task ("review", unit): one decision of a game review
HINT = "hint"  # a task ("hint", unit): the ranked moves of a practice table's hint (bodoge.learn.hints)


def _worker_main(conn: multiprocessing.connection.Connection, preload: Sequence[str]) -> None:
    """A bot worker: answer (game, players, options, spec, view, seed) with an action id, and
    ("review", unit) with the decision's review (`analysis.review.review_decision`)."""
    import bodoge
    from bodoge import agents
    from bodoge.core.registry import games as game_names

    # Ctrl-C at the terminal reaches the whole process group: the server stops its workers itself,
    # so a worker ignores it rather than die with a traceback of its own (BotPool._spawn starts it
    # ignoring it already where it can).
    signal.signal(signal.SIGINT, signal.SIG_IGN)

    for module in preload:
        importlib.import_module(module)
    game_names()  # import every game now, not during someone's first move
    conn.send(("ready", None))
    games: dict[tuple[str, int, str], Any] = {}
    made: dict[str, Any] = {}
    while True:
        try:
            task = conn.recv()
        except (EOFError, OSError):
            return
        if task is None:
            return
        if len(task) == 2 and task[0] == REVIEW:
            try:
                from bodoge.analysis.review import review_decision

                conn.send(("ok", review_decision(task[1])))
            except Exception as exc:
                conn.send(("error", f"{type(exc).__name__}: {exc}"))
            continue
        if len(task) == 2 and task[0] == HINT:
            try:
                from bodoge.learn.hints import hint_task

                conn.send(("ok", hint_task(task[1])))
            except Exception as exc:
                conn.send(("error", f"{type(exc).__name__}: {exc}"))
            continue
        try:
            name, players, options, spec, view, seed = task
            key = (name, players, json.dumps(options, sort_keys=True))
            game = games.get(key)
            if game is None:
                game = games[key] = bodoge.make(name, players, **options)
            agent = made.get(spec)
            if agent is None:
                agent = made[spec] = agents.make(spec)
            action = agent.act(game, view, random.Random(seed))
            conn.send(("ok", int(action)))
        except Exception as exc:  # reported to the server, which plays the fallback
            conn.send(("error", f"{type(exc).__name__}: {exc}"))


class _Worker:
    def __init__(self, ctx: Any, preload: Sequence[str]) -> None:
        self.conn, child = ctx.Pipe(duplex=True)
        self.process = ctx.Process(target=_worker_main, args=(child, list(preload)), daemon=True)
        self.process.start()
        child.close()

    def kill(self) -> None:
        with contextlib.suppress(Exception):
            self.process.kill()
        with contextlib.suppress(Exception):
            self.conn.close()
        with contextlib.suppress(Exception):
            self.process.join(timeout=5)


# Why a move fell back to a random legal action, by the start of `act`'s reason (the metrics' label).
FALLBACK_KINDS = (
    ("no bot worker was free", "no_worker"),
    ("no answer within", "timeout"),
    ("the bot worker failed", "worker_died"),
    ("the bot failed", "bot_error"),
    ("the bot chose", "illegal"),
)


def fallback_kind(reason: str) -> str:
    return next((kind for start, kind in FALLBACK_KINDS if reason.startswith(start)), "bot_error")


class BotPool:
    """A fixed number of worker processes (spawned: nothing of the server's memory is shared).

    `on_move(seconds, fallback)`, if given, hears of every move asked: how long it took, and why it
    fell back to a random action (a FALLBACK_KINDS kind) or None."""

    def __init__(
        self,
        workers: int,
        budget: float,
        preload: Sequence[str] = (),
        on_move: Callable[[float, str | None], None] | None = None,
    ) -> None:
        self.on_move = on_move
        self.size = max(1, workers)
        self.budget = budget
        self.preload = list(preload)
        self._ctx = multiprocessing.get_context("spawn")
        self._idle: asyncio.Queue[_Worker] | None = None
        self._all: list[_Worker] = []
        self._starting: set[asyncio.Task[None]] = set()
        self.closing = False
        self.moves = 0
        self.fallbacks = 0

    async def start(self) -> None:
        """Start the workers in the background; a move waits for the first one ready."""
        self._idle = asyncio.Queue()
        self.closing = False
        for _ in range(self.size):
            self._replace()

    def _replace(self) -> None:
        task = asyncio.create_task(self._add_worker())
        self._starting.add(task)
        task.add_done_callback(self._starting.discard)

    async def _add_worker(self) -> None:
        """Spawn a worker and offer it for moves once it says it is ready (its imports done), so
        that no move's time budget is spent on a worker's start."""
        assert self._idle is not None
        delay = 1.0
        while not self.closing:
            try:
                worker = self._spawn()  # on the loop's thread: see _spawn
            except Exception:
                log.exception("a bot worker could not be started; trying again in %g s", delay)
                await asyncio.sleep(delay)
                delay = min(delay * 2, 60.0)
                continue
            ready = await asyncio.to_thread(_wait_ready, worker, 300.0)
            if ready and not self.closing:
                self._idle.put_nowait(worker)
                return
            log.error("a bot worker did not start; trying again in %g s", delay)
            await asyncio.to_thread(worker.kill)
            with contextlib.suppress(ValueError):
                self._all.remove(worker)
            await asyncio.sleep(delay)
            delay = min(delay * 2, 60.0)

    def _spawn(self) -> _Worker:
        """Start a worker that ignores Ctrl-C from its first instruction: an ignored SIGINT passes
        to the processes a process starts, and Python leaves it so, whereas a worker that had
        to ignore it itself could still die of a Ctrl-C (with a traceback) while importing. The
        server ignores SIGINT only for the moment of the spawn (a few milliseconds)."""
        ignoring = threading.current_thread() is threading.main_thread()  # else signals are not ours
        previous = signal.signal(signal.SIGINT, signal.SIG_IGN) if ignoring else None
        try:
            worker = _Worker(self._ctx, self.preload)
        finally:
            if ignoring:
                signal.signal(signal.SIGINT, previous)
        self._all.append(worker)
        return worker

    async def close(self) -> None:
        # Workers hold no state worth keeping (a bot's move is recomputed after a restart): stop
        # them at once, even one still starting or thinking.
        self.closing = True
        for task in list(self._starting):
            task.cancel()
        workers, self._all = self._all, []
        await asyncio.to_thread(_kill_all, workers)

    async def act(
        self, game: str, players: int, options: dict[str, Any], spec: str, view: dict[str, Any]
    ) -> BotMove:
        """The bot's action for `view`, or a random legal one if it fails or overruns its budget."""
        assert self._idle is not None, "BotPool.start() was not awaited"
        legal = [a["id"] for a in view.get("legal_actions", ())]
        if not legal:
            raise ValueError("the view asks this seat for no decision")
        task = (game, players, options, spec, view)
        asked = time.monotonic()
        deadline = asked + self.budget
        no_worker = f"no bot worker was free within the time budget of {self.budget:g} s"
        reason: str | None = no_worker
        for _attempt in range(2):  # a failed move is tried once more, on the next free worker
            left = deadline - time.monotonic()
            if left <= 0:
                break
            worker = await self._idle_worker(left)
            if worker is None:
                reason = no_worker
                break
            try:
                action, reason, reusable = await self._ask(worker, task, legal, deadline)
            except asyncio.CancelledError:
                await asyncio.shield(self._retire(worker))  # it may still be computing
                raise
            if reusable:
                self._idle.put_nowait(worker)
            else:  # a worker in an unknown state is never reused: kill it and start a fresh one
                await asyncio.shield(self._retire(worker))
            self.moves += 1
            if reason is None:
                if self.on_move is not None:
                    self.on_move(time.monotonic() - asked, None)
                return BotMove(action, None)
            if reason.startswith("no answer"):
                break  # the budget is spent
        self.fallbacks += 1
        if self.on_move is not None:
            self.on_move(time.monotonic() - asked, fallback_kind(reason or no_worker))
        log.warning("bot %s: %s; playing a random legal action", spec, reason)
        return BotMove(random.SystemRandom().choice(legal), reason)

    async def hint(self, unit: dict[str, Any], deadline: float) -> list[dict[str, Any]]:
        """A practice table's hint (`bodoge.learn.hints.hint_task`) on the next free worker, by
        `deadline`; ReviewFailed if it fails or the time is up."""
        value = await self.review(unit, deadline, HINT)
        return list(value)

    async def review(self, unit: dict[str, Any], deadline: float, kind_: str = REVIEW) -> Any:
        """One decision of a game review (`analysis.review.review_decision`) on the next free worker,
        by `deadline` (time.monotonic()); ReviewFailed if it fails or the time is up (a worker still
        at it is killed and replaced). A bot's move waiting for a worker is served first: the idle
        workers go to whoever asked first, and a review asks for one decision at a time."""
        assert self._idle is not None, "BotPool.start() was not awaited"
        left = deadline - time.monotonic()
        if left <= 0:
            raise ReviewFailed("the review's time is up")
        worker = await self._idle_worker(left)
        if worker is None:
            raise ReviewFailed("the review's time is up (no worker was free)")
        try:
            kind, value = await self._exchange(worker, (kind_, unit), deadline)
        except TimeoutError:
            await asyncio.shield(self._retire(worker))
            raise ReviewFailed("the review's time is up") from None
        except asyncio.CancelledError:
            await asyncio.shield(self._retire(worker))  # it may still be computing
            raise
        except Exception as exc:
            await asyncio.shield(self._retire(worker))
            raise ReviewFailed(f"the worker failed: {exc or type(exc).__name__}") from None
        self._idle.put_nowait(worker)
        if kind != "ok" or not isinstance(value, dict if kind_ == REVIEW else list):
            what = "reviewing move" if kind_ == REVIEW else "the hint at move"
            raise ReviewFailed(f"{what} {unit.get('move')} failed: {value}")
        return value

    async def _idle_worker(self, timeout: float) -> _Worker | None:
        """The next idle worker within `timeout` seconds, else None. Not asyncio.wait_for around the
        queue's get: on Python 3.11, a cancellation (a review stopped at its time limit) that comes as
        the get succeeds is swallowed there, and the cancelled task goes on with the worker. Here the
        cancellation goes through, a worker taken from the queue goes back to it, and a get that did
        not succeed leaves the queue as it was."""
        assert self._idle is not None
        getter = asyncio.ensure_future(self._idle.get())
        try:
            await asyncio.wait({getter}, timeout=max(0.0, timeout))
        except asyncio.CancelledError:
            if getter.done() and not getter.cancelled():
                self._idle.put_nowait(getter.result())
            else:
                getter.cancel()
            raise
        if getter.done():
            return getter.result()
        getter.cancel()  # still waiting at the queue: cancelled there, it takes nothing
        return None

    async def _retire(self, worker: _Worker) -> None:
        """A worker in an unknown state is never reused: kill it and start a fresh one. The fresh
        one is asked for before the kill is awaited: a review stopped at its time limit cancels its
        task just as its last decision times out (the same deadline), and a cancellation during the
        kill once skipped the replacement, so that the pool shrank by a worker a stopped review
        (two such reviews left a pool of two with none, and every bot's move after was random)."""
        with contextlib.suppress(ValueError):
            self._all.remove(worker)
        if not self.closing:
            self._replace()
        await asyncio.to_thread(worker.kill)

    async def _exchange(self, worker: _Worker, task: tuple[Any, ...], deadline: float) -> tuple[str, Any]:
        """Send `task` to the worker and wait for its answer until `deadline`; TimeoutError past
        it, another exception if the worker died."""
        loop = asyncio.get_running_loop()
        answer: asyncio.Future[Any] = loop.create_future()

        def readable() -> None:
            if answer.done():
                return
            try:
                answer.set_result(worker.conn.recv())
            except Exception as exc:  # the worker died
                answer.set_exception(exc)

        fd = -1
        try:
            worker.conn.send(task)
            fd = worker.conn.fileno()
            loop.add_reader(fd, readable)
            kind, value = await asyncio.wait_for(answer, max(0.0, deadline - time.monotonic()))
            return str(kind), value
        finally:
            if fd >= 0:
                loop.remove_reader(fd)

    async def _ask(
        self, worker: _Worker, task: tuple[Any, ...], legal: list[int], deadline: float
    ) -> tuple[int, str | None, bool]:
        """(action, why it is no good or None, whether the worker may be used again)."""
        try:
            kind, value = await self._exchange(worker, (*task, secrets.randbits(64)), deadline)
        except TimeoutError:
            return -1, f"no answer within the time budget of {self.budget:g} s", False
        except Exception as exc:
            return -1, f"the bot worker failed: {exc or type(exc).__name__}", False
        if kind != "ok":
            return -1, f"the bot failed: {value}", True
        if value not in legal:
            return -1, f"the bot chose {value!r}, which is not legal", True
        return int(value), None, True


def _wait_ready(worker: _Worker, timeout: float) -> bool:
    try:
        return bool(worker.conn.poll(timeout)) and worker.conn.recv() == ("ready", None)
    except (EOFError, OSError):
        return False


def _kill_all(workers: list[_Worker]) -> None:
    for worker in workers:
        worker.kill()
