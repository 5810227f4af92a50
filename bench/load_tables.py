"""The websocket tables of bench/load.py under load: each table's seat 0 played by a client here
(random legal actions, paced by --think), bots at the other seats, the clients beyond one per table
watching as spectators, in --client-processes processes; action-to-broadcast latency, views, and
the check that every action sent was logged exactly once. Not a script: run bench/load.py."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import random
import signal
import time
from collections import Counter
from dataclasses import dataclass
from multiprocessing.connection import Connection
from typing import Any

import httpx
import orjson
from websockets.asyncio.client import ClientConnection, connect

from bodoge.server.storage import Storage
from load_common import Stats, TableRun, port_of

DEFAULT_CLIENT_PROCESSES = 4
MAX_CLIENT_PROCESSES = 64


async def create_table(
    http: httpx.AsyncClient, game: str, players: int, bots: str, options: dict[str, Any]
) -> TableRun:
    seats = [{"kind": "human", "name": "bench"}] + [{"kind": "bot", "spec": bots}] * (players - 1)
    response = await http.post(
        "/api/tables", json={"game": game, "players": players, "options": options, "seats": seats}
    )
    response.raise_for_status()
    created = response.json()
    return TableRun(created["id"], created["seats"][0]["token"])


async def hello(ws_url: str, table_id: str, token: str | None) -> ClientConnection:
    ws = await connect(f"{ws_url}/ws/tables/{table_id}", max_size=2**24, open_timeout=60)
    await ws.send(json.dumps({"type": "hello", "token": token}))
    return ws


async def player(
    http: httpx.AsyncClient,
    ws_url: str,
    args: argparse.Namespace,
    stats: Stats,
    stop_at: float,
    rng: random.Random,
    index: int = 0,
    route: str = "",
    arrival: float = 0.0,
    first: asyncio.Future[str] | None = None,
) -> None:
    """Play seat 0 of a table; when its game ends, open a new table; until the time is up. Its tables
    are made through `http`'s server and played on `ws_url`'s (`route` says which, in its errors).
    It sets out `arrival` seconds after the start (--ramp), and tells `first` its first table."""
    await asyncio.sleep(arrival)
    while time.monotonic() < stop_at:
        run = await create_table(http, args.game, args.players, args.bots, args.options)
        run.player = index
        stats.tables.append(run)
        if first is not None and not first.done():
            first.set_result(run.id)
        ws = await hello(ws_url, run.id, run.token)
        pending: tuple[int, float] | None = None  # (seq, sent at) of the action awaiting its view
        try:
            while True:
                # Past the deadline, only wait (briefly) for the answer to an action already sent.
                if time.monotonic() >= stop_at and pending is None:
                    break
                wait = max(0.1, stop_at - time.monotonic()) if pending is None else 30.0
                try:
                    text = await asyncio.wait_for(ws.recv(), wait)
                except TimeoutError:
                    if pending is not None:
                        stats.errors.append(
                            f"table {run.id}{route}: no answer to the action at move {pending[0]}"
                        )
                    break
                message = orjson.loads(text)
                if message["type"] == "error":
                    if pending is not None and message.get("action") == run.sent.get(pending[0]):
                        run.refused[pending[0]] = run.sent[pending[0]]
                        pending = None
                    stats.errors.append(f"table {run.id}{route}: {message['code']}: {message['message']}")
                    continue
                if message["type"] != "view":
                    continue
                stats.views += 1
                seq, view = message["seq"], message["view"]
                run.final_seq = max(run.final_seq, seq)
                if time.perf_counter() < stats.warm_at:
                    run.warm_seq = run.final_seq
                if pending is not None and seq > pending[0]:
                    stats.latencies.append(time.perf_counter() - pending[1])
                    stats.sent_at.append(pending[1])
                    run.acked[pending[0]] = run.sent[pending[0]]
                    pending = None
                if view["is_terminal"]:
                    run.over = True
                    break
                legal = view.get("legal_actions")
                if legal and pending is None and time.monotonic() < stop_at:
                    if args.think > 0:  # a person's thinking time (paced load), up to twice the mean
                        await asyncio.sleep(rng.uniform(0, 2 * args.think))
                    action = rng.choice(legal)["id"]
                    run.sent[seq] = action
                    pending = (seq, time.perf_counter())
                    await ws.send(json.dumps({"type": "action", "action": action, "seq": seq}))
        finally:
            await ws.close()
        if not run.over:
            return


async def spectator(ws_url: str, table_id: str, stats: Stats, stop_at: float) -> None:
    ws = await hello(ws_url, table_id, None)
    try:
        while (left := stop_at - time.monotonic()) > 0:
            try:
                text = await asyncio.wait_for(ws.recv(), left)
            except TimeoutError:
                break
            message = orjson.loads(text)
            if message["type"] == "view":
                stats.views += 1
                if message["view"]["is_terminal"]:
                    break
    finally:
        await ws.close()


def check_log(storage: Storage, stats: Stats) -> tuple[int, list[str], int]:
    """Every table's log: no gap, and seat 0's actions exactly those the client sent and saw taken.
    Returns the actions logged, the problems, and the lost actions (seen taken but not logged as
    sent, or never answered)."""
    problems: list[str] = []
    total = 0
    lost = 0
    for run in stats.tables:
        logged = storage.load_actions(run.id)
        total += len(logged)
        if [a.seq for a in logged] != list(range(len(logged))):
            problems.append(f"table {run.id}: the log has gaps or repeats")
        mine = {a.seq: a.action for a in logged if a.seat == 0}
        if mine != run.acked:
            missing = {s: a for s, a in run.acked.items() if mine.get(s) != a}
            extra = {s: a for s, a in mine.items() if run.acked.get(s) != a}
            lost += len(missing)
            problems.append(f"table {run.id}: sent and taken {missing} not logged; logged {extra} not sent")
        unanswered = set(run.sent) - set(run.acked) - set(run.refused)
        if unanswered:
            lost += len(unanswered)
            problems.append(f"table {run.id}: actions at moves {sorted(unanswered)} were never answered")
        if set(run.refused) & set(mine):
            problems.append(f"table {run.id}: a refused action was logged")
    return total, problems, lost


def spectators(
    args: argparse.Namespace,
    ws_urls: list[str],
    firsts: dict[int, asyncio.Future[str]],
    stats: Stats,
    stop_at: float,
) -> list[asyncio.Task[None]]:
    """The clients beyond one per table: spectator j watches client j mod T's first table (whose owner
    is server j mod N) as soon as it is made, and joins server (j + j // N) mod N. Those of this
    process are those of its tables (`firsts`)."""
    n = len(ws_urls)

    async def watch(j: int) -> None:
        try:  # a client that failed before making its table has none to watch
            table_id = await asyncio.wait_for(
                asyncio.shield(firsts[j % args.tables]), stop_at - time.monotonic()
            )
        except TimeoutError:
            return
        await spectator(ws_urls[(j + j // n) % n], table_id, stats, stop_at)

    watchers = [j for j in range(max(0, args.clients - args.tables)) if j % args.tables in firsts]
    return [asyncio.create_task(watch(j)) for j in watchers]


@dataclass
class Step:
    """What the client processes and the main one share while the load runs (shared memory, each
    slot written by one process only): how many tables each client process has made, and when the
    warm-up ends (perf_counter, monotonic; inf until every table is made), which the main process
    sets once they add up to --tables."""

    made: Any  # multiprocessing RawArray("i"), one slot per client process
    warm: Any  # multiprocessing RawArray("d", 2)


async def keep_in_step(step: Step, part: int, stats: Stats, stop_at: float) -> None:
    """Tell the main process how many tables this one has made, and take the end of the warm-up from
    it (every 10 ms)."""
    while time.monotonic() < stop_at + 1:
        step.made[part] = len(stats.tables)
        if stats.warm_at == float("inf") and step.warm[0] != float("inf"):
            stats.warm_at, stats.warm_mono = step.warm[0], step.warm[1]
        await asyncio.sleep(0.01)


def client_main(conn: Connection, args: argparse.Namespace, urls: list[str], part: int, step: Step) -> None:
    """A client process: its share of the load (`run_load`) once told ("go", stop_at); its Stats go
    back once done. Ctrl-C is left to the main process, which stops this one."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    conn.send(("ready",))
    message = conn.recv()
    if message[0] != "go":
        return
    try:
        stats = asyncio.run(run_load(args, urls, part, step, message[1]))
    except Exception as exc:
        stats = Stats(errors=[f"client process {part} failed: {type(exc).__name__}: {exc}"])
    conn.send(("done", stats))


def merged(parts: list[Stats], begun: float, warm: tuple[float, float]) -> Stats:
    """The client processes' Stats as one: the run began at `begun`, its warm-up ended at `warm`."""
    stats = Stats(begun=begun, warm_at=warm[0], warm_mono=warm[1])
    for part in parts:
        stats.latencies += part.latencies
        stats.sent_at += part.sent_at
        stats.views += part.views
        stats.errors += part.errors
        stats.tables += part.tables
    stats.steady = [lat for lat, sent in zip(stats.latencies, stats.sent_at, strict=True) if sent >= warm[0]]
    return stats


async def run_load(args: argparse.Namespace, urls: list[str], part: int, step: Step, stop_at: float) -> Stats:
    """Client process `part`'s share of the load (tables i with i mod P = part, P the client
    processes, and the spectators of those tables), spread over the servers at `urls` (one or more
    processes on one database): table i is made through server i mod N and played on server
    (i + 1) mod N, so that with several processes its player is on another process than the table's
    owner; spectator j watches the first table of client j mod T and joins server (j + j // N) mod N:
    round-robin over the servers, shifted by one each round, so that spectators sit on the tables'
    owners and on the other processes alike (about 1 in N on the owner; exactly, over N × N of them,
    when N divides the tables)."""
    n, parts = len(urls), len(step.made)
    ws_urls = ["ws" + url[len("http") :] for url in urls]
    stats = Stats(begun=time.perf_counter())
    rngs = random.Random(args.seed)
    seeds = [rngs.random() for _ in range(args.tables)]  # the same for table i whatever process plays it
    mine = [i for i in range(args.tables) if i % parts == part]
    async with contextlib.AsyncExitStack() as stack:
        https = [await stack.enter_async_context(httpx.AsyncClient(base_url=url, timeout=60)) for url in urls]
        loop = asyncio.get_running_loop()
        firsts: dict[int, asyncio.Future[str]] = {i: loop.create_future() for i in mine}
        tasks = []
        for i in mine:
            made, played = i % n, (i + 1) % n
            route = f" (made on {port_of(urls[made])}, played on {port_of(urls[played])})" if n > 1 else ""
            tasks.append(
                asyncio.create_task(
                    player(
                        https[made],
                        ws_urls[played],
                        args,
                        stats,
                        stop_at,
                        random.Random(seeds[i]),
                        i,
                        route,
                        i * args.ramp / args.tables,
                        firsts[i],
                    )
                )
            )
        # Spectators join the first tables as they are made.
        tasks += spectators(args, ws_urls, firsts, stats, stop_at)
        in_step = asyncio.create_task(keep_in_step(step, part, stats, stop_at))
        try:
            gathered = asyncio.gather(*tasks, return_exceptions=True)
            gathered.add_done_callback(lambda f: None if f.cancelled() else f.exception())
            results = await asyncio.wait_for(gathered, args.duration + 120)
        finally:  # Ctrl-C: the clients are stopped, and what they raised then is not told as unhandled
            for task in [*tasks, in_step]:
                task.cancel()
            await asyncio.gather(*tasks, in_step, return_exceptions=True)
        for result in results:
            if isinstance(result, BaseException):
                stats.errors.append(f"client failed: {type(result).__name__}: {result}")
    return stats


def slowest_when(stats: Stats) -> str:
    """When the slowest 1% of the client actions were sent, by second of the run: where a whole run's
    p99 comes from (the start, when every table is made and every client connects at once, or the
    load itself)."""
    count = max(1, len(stats.latencies) // 100)
    slowest = sorted(zip(stats.latencies, stats.sent_at, strict=True), reverse=True)[:count]
    seconds = Counter(int(sent - stats.begun) for _, sent in slowest)
    spread = ", ".join(f"{s}–{s + 1} s: {k}" for s, k in sorted(seconds.items()))
    return f"the slowest 1% ({count} actions, {slowest[-1][0] * 1000:.1f} ms and more), by when they were sent: {spread}"
