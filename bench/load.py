"""Load test of `bodoge serve`: N tables with bots and M websocket clients at once, on loopback.

    python bench/load.py --tables 100 --clients 200 --duration 30

Starts `bodoge serve` on a free 127.0.0.1 port with a fresh SQLite file (or uses --url; give --db too
so the log can be checked). Each table has seat 0 played by a client here (random legal actions,
sent as soon as its view asks) and bots at the other seats; the clients beyond one per table watch as
spectators. A table that ends is replaced by a new one until the time is up. Then it prints:

- actions per second (every action logged: the clients' and the bots'),
- p50/p99 action-to-broadcast latency: from sending an action to receiving the view it produced,
- and checks that every action a client sent was logged exactly once, at the move it was sent for
  (or refused with an error, and then not logged), and that each table's log has no gap.

Every loop is bounded in time; only loopback addresses are used.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import orjson
from websockets.asyncio.client import ClientConnection, connect

from bodoge.server.storage import Storage


@dataclass
class TableRun:
    id: str
    token: str
    sent: dict[int, int] = field(default_factory=dict)  # seq -> action, every action sent
    acked: dict[int, int] = field(default_factory=dict)  # seq -> action, seen taken (a view of seq+1)
    refused: dict[int, int] = field(default_factory=dict)  # seq -> action, answered with an error
    final_seq: int = 0
    over: bool = False


@dataclass
class Stats:
    latencies: list[float] = field(default_factory=list)
    views: int = 0
    errors: list[str] = field(default_factory=list)
    tables: list[TableRun] = field(default_factory=list)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


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
    ws_url: str,
    http: httpx.AsyncClient,
    args: argparse.Namespace,
    stats: Stats,
    stop_at: float,
    rng: random.Random,
) -> None:
    """Play seat 0 of a table; when its game ends, open a new table; until the time is up."""
    while time.monotonic() < stop_at:
        run = await create_table(http, args.game, args.players, args.bots, args.options)
        stats.tables.append(run)
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
                        stats.errors.append(f"table {run.id}: no answer to the action at move {pending[0]}")
                    break
                message = orjson.loads(text)
                if message["type"] == "error":
                    if pending is not None and message.get("action") == run.sent.get(pending[0]):
                        run.refused[pending[0]] = run.sent[pending[0]]
                        pending = None
                    stats.errors.append(f"table {run.id}: {message['code']}: {message['message']}")
                    continue
                if message["type"] != "view":
                    continue
                stats.views += 1
                seq, view = message["seq"], message["view"]
                run.final_seq = max(run.final_seq, seq)
                if pending is not None and seq > pending[0]:
                    stats.latencies.append(time.perf_counter() - pending[1])
                    run.acked[pending[0]] = run.sent[pending[0]]
                    pending = None
                if view["is_terminal"]:
                    run.over = True
                    break
                legal = view.get("legal_actions")
                if legal and pending is None and time.monotonic() < stop_at:
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


def check_log(storage: Storage, stats: Stats) -> tuple[int, list[str]]:
    """Every table's log: no gap, and seat 0's actions exactly those the client sent and saw taken."""
    problems: list[str] = []
    total = 0
    for run in stats.tables:
        logged = storage.load_actions(run.id)
        total += len(logged)
        if [a.seq for a in logged] != list(range(len(logged))):
            problems.append(f"table {run.id}: the log has gaps or repeats")
        mine = {a.seq: a.action for a in logged if a.seat == 0}
        if mine != run.acked:
            missing = {s: a for s, a in run.acked.items() if mine.get(s) != a}
            extra = {s: a for s, a in mine.items() if run.acked.get(s) != a}
            problems.append(f"table {run.id}: sent and taken {missing} not logged; logged {extra} not sent")
        unanswered = set(run.sent) - set(run.acked) - set(run.refused)
        if unanswered:
            problems.append(f"table {run.id}: actions at moves {sorted(unanswered)} were never answered")
        if set(run.refused) & set(mine):
            problems.append(f"table {run.id}: a refused action was logged")
    return total, problems


async def run_load(args: argparse.Namespace, base_url: str) -> Stats:
    ws_url = "ws" + base_url[len("http") :]
    stats = Stats()
    rng = random.Random(args.seed)
    async with httpx.AsyncClient(base_url=base_url, timeout=60) as http:
        stop_at = time.monotonic() + args.duration
        tasks = [
            asyncio.create_task(player(ws_url, http, args, stats, stop_at, random.Random(rng.random())))
            for _ in range(args.tables)
        ]
        # Spectators join the first tables once they exist.
        while len(stats.tables) < args.tables and time.monotonic() < stop_at:
            await asyncio.sleep(0.05)
        watchers = max(0, args.clients - args.tables)
        tables = [t.id for t in stats.tables[: args.tables]] or [None]
        for i in range(watchers):
            table_id = tables[i % len(tables)]
            if table_id is not None:
                tasks.append(asyncio.create_task(spectator(ws_url, table_id, stats, stop_at)))
        results = await asyncio.wait_for(asyncio.gather(*tasks, return_exceptions=True), args.duration + 120)
        for result in results:
            if isinstance(result, BaseException):
                stats.errors.append(f"client failed: {type(result).__name__}: {result}")
    return stats


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=100, help="tables played at once")
    parser.add_argument("--clients", type=int, default=200, help="websocket clients (≥ tables)")
    parser.add_argument("--duration", type=float, default=30.0, help="seconds of load")
    parser.add_argument("--game", default="troika")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--bots", default="random", help="agent spec of the bots")
    parser.add_argument("--set", dest="settings", action="append", default=[], help="game option name=value")
    parser.add_argument("--bot-workers", type=int, default=None)
    parser.add_argument("--url", help="an already running server on loopback (default: start one)")
    parser.add_argument("--db", help="its database URL, to check the log (default: a fresh SQLite file)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    args.clients = max(args.clients, args.tables)
    args.options = {}
    for item in args.settings:
        name, _, value = item.partition("=")
        try:
            args.options[name] = json.loads(value)
        except ValueError:
            args.options[name] = value

    tmp = tempfile.TemporaryDirectory(prefix="bodoge-load-")
    process = None
    db = args.db or f"sqlite:///{Path(tmp.name) / 'load.db'}"
    if args.url:
        base_url = args.url.rstrip("/")
        host = httpx.URL(base_url).host
        if host not in ("127.0.0.1", "localhost", "::1"):
            parser.error("--url must be a loopback address")
    else:
        port = free_port()
        base_url = f"http://127.0.0.1:{port}"
        command = [sys.executable, "-m", "bodoge.cli", "serve", "--port", str(port), "--db", db]
        command += ["--bot-delay", "0"]
        if args.bot_workers:
            command += ["--bot-workers", str(args.bot_workers)]
        log = open(Path(tmp.name) / "serve.log", "wb")  # noqa: SIM115 (closed below)
        process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT, env=dict(os.environ))
        deadline = time.monotonic() + 60
        while True:
            with contextlib.suppress(httpx.HTTPError):
                if httpx.get(base_url + "/api/health", timeout=2).status_code == 200:
                    break
            if process.poll() is not None or time.monotonic() > deadline:
                print((Path(tmp.name) / "serve.log").read_text())
                raise SystemExit("the server did not start")
            time.sleep(0.1)
    try:
        started = time.perf_counter()
        stats = asyncio.run(run_load(args, base_url))
        elapsed = time.perf_counter() - started
    finally:
        if process is not None:
            process.terminate()
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                process.kill()
            log.close()

    print(
        f"load: {args.tables} tables of {args.game} ({args.players} players, seat 0 a client, "
        f"bots {args.bots}), {args.clients} websocket clients, {args.duration:g} s"
    )
    games_over = sum(1 for t in stats.tables if t.over)
    print(f"tables: {len(stats.tables)} played, {games_over} to the end")
    failed = False
    # Throughput: the moves the clients saw made within the run (bots may move on a little after).
    total = sum(t.final_seq for t in stats.tables)
    if args.url and not args.db:
        print("log check: skipped (give --db to check the log of a server started elsewhere)")
    else:
        storage = Storage(db)
        try:
            _logged, problems = check_log(storage, stats)
        finally:
            storage.close()
        sent = sum(len(t.sent) for t in stats.tables)
        refused = sum(len(t.refused) for t in stats.tables)
        if problems:
            failed = True
            print(f"log check: FAILED ({len(problems)} problems)")
            for problem in problems[:20]:
                print("  " + problem)
        else:
            print(
                f"log check: ok — every one of {sent} actions sent by clients logged exactly once "
                f"({refused} refused, none logged); no gaps"
            )
    print(f"actions: {total} in {elapsed:.1f} s = {total / elapsed:,.0f} actions/s (clients' and bots')")
    lat = stats.latencies
    if lat:
        print(
            f"action-to-broadcast latency over {len(lat)} client actions: "
            f"p50 {percentile(lat, 0.5) * 1000:.1f} ms, p99 {percentile(lat, 0.99) * 1000:.1f} ms, "
            f"mean {statistics.fmean(lat) * 1000:.1f} ms"
        )
    print(f"views received: {stats.views} ({stats.views / elapsed:,.0f}/s)")
    if stats.errors:
        print(f"errors: {len(stats.errors)}; first: {stats.errors[:5]}")
        failed = True
    tmp.cleanup()
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
