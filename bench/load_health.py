"""The health probe of bench/load.py: `GET /api/health` every --health-interval seconds, one at a
time on one connection, from a process of its own (the observer, which also makes the heavy creates:
load_heavy), from before the load until everything is done; then its latencies idle, under load,
and while each kind of heavy create runs. Not a script: run bench/load.py."""

from __future__ import annotations

import asyncio
import signal
import time
from multiprocessing.connection import Connection
from typing import Any

import httpx

from load_common import Window, overlaps, percentile
from load_heavy import HeavyCreates


class Observer(HeavyCreates):
    """Health probes and heavy creates, timed on this process's own clock (time.monotonic, which is
    the same clock in every process of the machine)."""

    def __init__(self, base_url: str, settings: dict[str, Any]) -> None:
        super().__init__(base_url, settings)
        self.samples: list[tuple[float, float, int]] = []  # (start, end, status; 0 = no answer)

    async def run(self, conn: Connection) -> None:
        """Probe until told to stop and the heavy creates are done. Says "ready" after a second of
        idle probes; then ("go", heavy_at or None) starts the heavy creates, ("stop",) ends it."""
        interval = self.settings["health_interval"]
        heavy: asyncio.Task[None] | None = None
        stopping = False
        ready_at, said_ready = time.monotonic() + 1.0, False
        limits = httpx.Limits(max_connections=1, max_keepalive_connections=1)
        async with httpx.AsyncClient(base_url=self.base_url, timeout=60, limits=limits) as http:
            next_at = time.monotonic()
            while True:
                while conn.poll():
                    message = conn.recv()
                    if message[0] == "go" and message[1] is not None:
                        heavy = asyncio.create_task(self.heavy(message[1]))
                    elif message[0] == "stop":
                        stopping = True
                if stopping and (heavy is None or heavy.done()):
                    break
                start = time.monotonic()
                try:
                    status = (await http.get("/api/health")).status_code
                except httpx.HTTPError:
                    status = 0
                end = time.monotonic()
                self.samples.append((start, end, status))
                if not said_ready and end >= ready_at:
                    conn.send(("ready",))
                    said_ready = True
                next_at = max(next_at + interval, end)
                await asyncio.sleep(next_at - end)
        if heavy is not None and heavy.exception() is not None:
            exc = heavy.exception()
            self.notes.append(f"the heavy creates stopped: {type(exc).__name__}: {exc}")


def observer_main(conn: Connection, base_url: str, settings: dict[str, Any]) -> None:
    """The observer process: its results go back as plain data (tuples, dicts), once it is stopped.
    Ctrl-C is left to the main process, which stops this one."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    observer = Observer(base_url, settings)
    try:
        asyncio.run(observer.run(conn))
    except Exception as exc:
        observer.notes.append(f"the observer failed: {type(exc).__name__}: {exc}")
    conn.send(("done", {"samples": observer.samples, "creates": observer.creates, "notes": observer.notes}))


def _latencies(samples: list[tuple[float, float, int]]) -> str:
    ms = [(end - start) * 1000 for start, end, _ in samples]
    failed = sum(1 for *_, status in samples if status != 200)
    text = f"n {len(ms):>5}   p50 {percentile(ms, 0.5):7.1f} ms   p99 {percentile(ms, 0.99):7.1f} ms   max {max(ms):7.1f} ms"
    return text + (f"   ({failed} not answered 200)" if failed else "")


def report_health(observed: dict[str, Any], load: Window, interval: float) -> None:
    samples: list[tuple[float, float, int]] = observed["samples"]
    creates: list[dict[str, Any]] = observed["creates"]
    windows = {
        kind: [(c["start"], c["end"]) for c in creates if c["kind"] == kind]
        for kind in ("heavy", "search", "oversized")
    }
    every = [w for ws in windows.values() for w in ws]
    groups = [
        ("idle, before the load", [s for s in samples if s[1] <= load[0]]),
        (
            "under load, no heavy create running",
            [s for s in samples if load[0] <= s[0] < load[1] and not overlaps(s[0], s[1], every)],
        ),
        (
            "while a heaviest allowed create runs",
            [s for s in samples if overlaps(s[0], s[1], windows["heavy"])],
        ),
        (
            "while the search's other creates run",
            [s for s in samples if overlaps(s[0], s[1], windows["search"])],
        ),
        (
            "while an over-sized create runs",
            [s for s in samples if overlaps(s[0], s[1], windows["oversized"])],
        ),
    ]
    failed = sum(1 for *_, status in samples if status != 200)
    print(
        f"GET /api/health, every {interval * 1000:g} ms from a separate process: {len(samples)} probes"
        + (f", {failed} not answered 200" if failed else ", all answered 200")
    )
    for label, group in groups:
        if group:
            print(f"  {label:<40} {_latencies(group)}")
