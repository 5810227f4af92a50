"""One run of bench/load.py: its servers started, the load from the client processes and the
observer (health probe, heavy creates) in a process of its own, the servers stopped, the log
checked; then its summary. Not a script: run bench/load.py."""

from __future__ import annotations

import argparse
import multiprocessing
import statistics
import time
from dataclasses import dataclass
from multiprocessing.connection import Connection
from typing import Any

from bodoge.server.storage import Storage
from load_common import Stats, Window, percentile, port_of
from load_health import observer_main, report_health
from load_heavy import report_creates
from load_servers import running_servers
from load_tables import Step, check_log, client_main, merged, slowest_when


@dataclass
class Run:
    stats: Stats
    elapsed: float  # seconds of load
    load: Window  # its start and end, on time.monotonic
    observed: dict[str, Any] | None  # the observer's results; None if it sent none
    servers: str  # what served, for the summary
    ports: list[str]  # the servers' ports (":8000"), server 0 first
    died: list[str]  # servers that exited before they were stopped
    log_errors: list[str]  # servers whose log tells of an error
    log: tuple[int, list[str], int] | None  # check_log's answer; None: not checked


def observed_load(
    args: argparse.Namespace, urls: list[str]
) -> tuple[Stats, float, Window, dict[str, Any] | None]:
    """The load on `urls`, from --client-processes processes, with the observer (health probes, heavy
    creates) on server 0 in a process of its own: the load's stats, its seconds and window, and the
    observer's results."""
    observer_settings = {
        "health_interval": args.health_interval,
        "heavy_repeat": args.heavy_repeat,
        "heavy_timeout": args.heavy_timeout,
        "oversized_timeout": args.oversized_timeout,
    }
    context = multiprocessing.get_context("spawn")
    conn, child_conn = context.Pipe()
    observer = context.Process(
        target=observer_main, args=(child_conn, urls[0], observer_settings), daemon=True
    )
    processes = min(args.client_processes, args.tables)  # each plays one table or more
    step = Step(context.RawArray("i", processes), context.RawArray("d", [float("inf")] * 2))
    clients: list[tuple[Any, Connection]] = []
    for part in range(processes):
        mine, theirs = context.Pipe()
        process = context.Process(target=client_main, args=(theirs, args, urls, part, step), daemon=True)
        clients.append((process, mine))
    observed: dict[str, Any] | None = None
    try:
        observer.start()
        for process, _conn in clients:
            process.start()
        if not conn.poll(60) or conn.recv()[0] != "ready":
            raise SystemExit("the health probe did not start")
        for part, (_process, client) in enumerate(clients):
            if not client.poll(60) or client.recv()[0] != "ready":
                raise SystemExit(f"client process {part} did not start")
        begun = started = time.perf_counter()
        load_start = time.monotonic()
        stop_at = load_start + args.duration
        conn.send(("go", None if args.no_heavy else load_start + args.heavy_after))
        for _process, client in clients:
            client.send(("go", stop_at))
        stats = gather_clients(args, clients, step, begun, stop_at)
        elapsed = time.perf_counter() - started
        load_end = time.monotonic()
        conn.send(("stop",))
        # The heavy creates may still be running: each is bounded by its timeout.
        if conn.poll(max(60.0, 20 * args.heavy_timeout)):
            observed = conn.recv()[1]
    finally:
        # Each has sent its results and is ending; else (an error, Ctrl-C) each is stopped now.
        for process in [observer, *(process for process, _conn in clients)]:
            if process.is_alive():
                process.join(5 if observed is not None else 0)
                if process.is_alive():
                    process.terminate()
                    process.join(5)
    return stats, elapsed, (load_start, load_end), observed


def gather_clients(
    args: argparse.Namespace, clients: list[tuple[Any, Connection]], step: Step, begun: float, stop_at: float
) -> Stats:
    """Wait for the client processes' Stats, merged; meanwhile end the warm-up --warmup s after every
    table is made and every client set out (the start, every table made and every client connecting
    at once, is a burst no steady load has)."""
    while sum(step.made) < args.tables and time.monotonic() < stop_at:
        time.sleep(0.01)
    step.warm[0], step.warm[1] = time.perf_counter() + args.warmup, time.monotonic() + args.warmup
    parts = []
    for part, (process, client) in enumerate(clients):
        try:
            if not client.poll(max(0.0, stop_at - time.monotonic()) + 180):
                raise EOFError
            parts.append(client.recv()[1])
        except EOFError:
            parts.append(
                Stats(errors=[f"client process {part} sent no results (exit code {process.exitcode})"])
            )
    return merged(parts, begun, (step.warm[0], step.warm[1]))


def measure(args: argparse.Namespace) -> Run:
    """One run on its own servers: they are stopped (and so done with the log) before it is checked."""
    with running_servers(args) as servers:
        stats, elapsed, load, observed = observed_load(args, servers.urls)
        died = servers.stop()
        log = None
        if servers.db is not None:
            storage = Storage(servers.db)
            try:
                log = check_log(storage, stats)
            finally:
                storage.close()
        ports = [port_of(url) for url in servers.urls]
        return Run(stats, elapsed, load, observed, servers.note, ports, died, servers.log_errors(), log)


def steady_rate(run: Run) -> float:
    """Actions per second after the warm-up: the moves seen made since then, over the time since."""
    seconds = run.load[1] - run.stats.warm_mono
    return sum(t.final_seq - t.warm_seq for t in run.stats.tables) / seconds if seconds > 0 else 0.0


def report(args: argparse.Namespace, run: Run) -> bool:
    """The summary of one run; True if something went wrong."""
    stats, elapsed = run.stats, run.elapsed
    pace = (
        f"; clients think {args.think:g} s on average, bots wait {args.bot_delay:g} s"
        if args.think or args.bot_delay
        else "; every move at once (closed loop)"
    )
    print(
        f"load: {args.tables} tables of {args.game} ({args.players} players, seat 0 a client, "
        f"bots {args.bots}), {args.clients} websocket clients, {args.duration:g} s{pace}"
        + (f"; the clients set out over {args.ramp:g} s" if args.ramp else "")
    )
    print(f"{'servers' if len(run.ports) > 1 else 'server'}: {run.servers}")
    games_over = sum(1 for t in stats.tables if t.over)
    print(f"tables: {len(stats.tables)} played, {games_over} to the end")
    failed = False
    # Throughput: the moves the clients saw made within the run (bots may move on a little after).
    total = sum(t.final_seq for t in stats.tables)
    if run.log is None:
        print("log check: skipped (give --db to check the log of a server started elsewhere)")
        print("lost actions: not checked")
    else:
        _logged, problems, lost = run.log
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
        print(f"lost actions: {lost} (of {sent} sent by clients)")
        failed |= lost > 0
    print(f"actions: {total} in {elapsed:.1f} s = {total / elapsed:,.0f} actions/s (clients' and bots')")
    lat = stats.latencies
    if lat:
        print(
            f"action-to-broadcast latency over {len(lat)} client actions: "
            f"p50 {percentile(lat, 0.5) * 1000:.1f} ms, p99 {percentile(lat, 0.99) * 1000:.1f} ms, "
            f"mean {statistics.fmean(lat) * 1000:.1f} ms"
        )
        print(f"  {slowest_when(stats)}")
    if args.warmup:
        steady = stats.steady
        print(
            f"from {args.warmup:g} s after every client set out (--warmup): {steady_rate(run):,.0f} actions/s; "
            f"latency over {len(steady)} client actions: p50 {percentile(steady, 0.5) * 1000:.1f} ms, "
            f"p99 {percentile(steady, 0.99) * 1000:.1f} ms"
        )
    print(f"views received: {stats.views} ({stats.views / elapsed:,.0f}/s)")
    if run.observed is None:
        print("health and heavy creates: FAILED (the observer process sent no results)")
        failed = True
    else:
        report_health(run.observed, run.load, args.health_interval)
        failed |= report_creates(run.observed, run.load[1])
    for died in run.died:
        print(f"FAILED: {died}")
        failed = True
    for note in run.log_errors:
        print(f"server log: {note}")
    if stats.errors:
        print(f"errors: {len(stats.errors)}; first: {stats.errors[:5]}")
        failed = True
    return failed
