"""What an operator watches: this process's metrics, in Prometheus's text format.

`bodoge serve --metrics-port PORT` answers `GET /metrics` on a listener of its own (loopback by
default, `--metrics-host`), never on the port that people reach: docs/deploy.md says why, and lists
every metric. Each process counts its own; Prometheus adds them up across processes.

Every label takes a few fixed values: no table id, token or client address is ever a label (they
would grow without bound, and the addresses are personal data).

What changes at every move is counted where it happens (a histogram's `observe`, a counter's `inc`:
about a microsecond); what can be read off the server's own state (tables in memory, websockets open,
limits hit, actions logged) is read when Prometheus scrapes, by `_Now`.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING, Any

from prometheus_client import (
    CONTENT_TYPE_LATEST,
    CollectorRegistry,
    Counter,
    Histogram,
    ProcessCollector,
    generate_latest,
)
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, Metric
from prometheus_client.registry import Collector

from bodoge.server.bots import FALLBACK_KINDS
from bodoge.server.guard import BAD_UTF8, AddressLimits, ASGIApp, Receive, Scope, Send

if TYPE_CHECKING:
    from bodoge.server.tables import TableManager

STATUSES = ("playing", "over", "abandoned")
# Every limit a client can run into, by its `bodoge serve` flag (`unread`: answers left unread).
LIMITS = (
    "create_rate",
    "open_tables",
    "max_body",
    "ws_per_address",
    "message_rate",
    "unread",
    "chat_rate",
    "review_rate",
    "review_queue",
)
FALLBACKS = tuple(kind for _start, kind in FALLBACK_KINDS)  # why a bot's move was a random one
ERROR_SOURCES = ("log", "http")
# Seconds. Moves take milliseconds (bench/load.py: p99 20 to 100 ms at 200 tables); a bot may think
# for its whole --bot-time (5 s by default, up to 600).
ACTION_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)
BOT_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0, 120.0, 600.0)


class Metrics:
    """One app's metrics, in a registry of its own (a test process runs several apps)."""

    def __init__(self, guard: AddressLimits) -> None:
        self.registry = CollectorRegistry()
        self.guard = guard
        self.manager: TableManager | None = None  # set while the app runs (its lifespan)
        self.action_seconds = Histogram(
            "bodoge_action_seconds",
            "Seconds from an action's arrival on this process's websocket to its being committed to the "
            "log and every connection's view queued (actions applied only).",
            buckets=ACTION_BUCKETS,
            registry=self.registry,
        )
        self.bot_seconds = Histogram(
            "bodoge_bot_think_seconds",
            "Seconds a bot move took this process's bot pool, from the ask to the action (waiting for "
            "a free worker included; a fallback's too).",
            buckets=BOT_BUCKETS,
            registry=self.registry,
        )
        self.bot_fallbacks = Counter(
            "bodoge_bot_fallbacks",
            "Bot moves played as a random legal action instead, by why.",
            ["reason"],
            registry=self.registry,
        )
        self.errors = Counter(
            "bodoge_errors",
            "Errors: log records at level ERROR or above (source=log), HTTP answers of 500 or above "
            "(source=http).",
            ["source"],
            registry=self.registry,
        )
        for reason in FALLBACKS:
            self.bot_fallbacks.labels(reason=reason)
        for source in ERROR_SOURCES:
            self.errors.labels(source=source)
        self.registry.register(_Now(self))
        ProcessCollector(registry=self.registry)  # process_*: its memory, CPU, files (Linux's /proc)
        self.logged = _ErrorLog(self.errors.labels(source="log"))

    def bot_move(self, seconds: float, fallback: str | None) -> None:
        """BotPool's hook: one move asked of the pool, and why it fell back (None: it did not)."""
        self.bot_seconds.observe(seconds)
        if fallback is not None:
            self.bot_fallbacks.labels(reason=fallback).inc()

    def start(self, manager: TableManager) -> None:
        self.manager = manager
        for name in LOGGERS:
            logging.getLogger(name).addHandler(self.logged)

    def stop(self) -> None:
        for name in LOGGERS:
            logging.getLogger(name).removeHandler(self.logged)
        self.manager = None

    def exposition(self) -> bytes:
        return generate_latest(self.registry)


LOGGERS = ("bodoge", "uvicorn.error")  # the server's own, and uvicorn's (an exception in a request)


class _ErrorLog(logging.Handler):
    """Counts the records at ERROR or above that reach it."""

    def __init__(self, counter: Any) -> None:
        super().__init__(logging.ERROR)
        self.counter = counter

    def emit(self, record: logging.LogRecord) -> None:
        self.counter.inc()


class _Now(Collector):
    """What is read off the server's state at each scrape."""

    def __init__(self, metrics: Metrics) -> None:
        self.metrics = metrics

    def describe(self) -> Iterable[Metric]:
        return list(self._families(None))

    def collect(self) -> Iterable[Metric]:
        return list(self._families(self.metrics.manager))

    def _families(self, manager: TableManager | None) -> Iterator[Metric]:
        guard = self.metrics.guard
        tables = GaugeMetricFamily(
            "bodoge_tables",
            "Tables in this process's memory, by status; role=owner: this process plays them, "
            "replica: another process does (PostgreSQL), this one serves its people there.",
            labels=["status", "role"],
        )
        counts = {(status, role): 0 for status in STATUSES for role in ("owner", "replica")}
        broken = 0
        applied = 0
        if manager is not None:
            for runtime in list(manager.tables.values()):
                key = (runtime.row.status, "owner" if runtime.owned else "replica")
                if key in counts:
                    counts[key] += 1
            broken = len(manager.broken)
            applied = manager.writer.appended
        for (status, role), count in counts.items():
            tables.add_metric([status, role], count)
        yield tables
        yield GaugeMetricFamily(
            "bodoge_tables_unreadable",
            "Tables this process found it cannot rebuild (a game or rules version it lacks, a bad "
            "row or log); they are left out of the lists.",
            value=broken,
        )
        yield GaugeMetricFamily(
            "bodoge_websockets_open",
            "Websockets open at this process (accepted, before or after their hello).",
            value=sum(guard.sockets.values()),
        )
        yield CounterMetricFamily(
            "bodoge_actions_applied",
            "Actions this process committed to the log and applied (people's and bots', of the "
            "tables it owns).",
            value=applied,
        )
        limits = CounterMetricFamily(
            "bodoge_limits_hit",
            "Requests and messages refused (429, 413, an error) or connections closed (1008) for a "
            "limit, by the limit's flag (unread: 64 answers left unread).",
            labels=["limit"],
        )
        for limit in LIMITS:
            limits.add_metric([limit], guard.refused[limit])
        yield limits
        yield CounterMetricFamily(
            "bodoge_websocket_bad_utf8",
            "Websockets closed with 1007 for a text frame that is not UTF-8 (whole process).",
            value=BAD_UTF8.count,
        )


class MetricsListener:
    """The ASGI app's outermost layer: a request that came in on the metrics port (the listening
    socket's own port, `scope["server"]`) is answered here, `GET /metrics` and nothing else; on any
    other port, `/metrics` is unknown like any other path the app lacks."""

    def __init__(self, app: ASGIApp, metrics: Metrics, port: int | None) -> None:
        self.app = app
        self.metrics = metrics
        self.port = port

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        server = scope.get("server")
        if self.port is None or scope["type"] == "lifespan" or not server or server[1] != self.port:
            await self.app(scope, receive, send)
            return
        if scope["type"] != "http":
            await send({"type": "websocket.close", "code": 1008})  # before accepting: HTTP 403
            return
        if scope["path"] != "/metrics":
            await _plain(send, 404, b"only /metrics here\n")
        elif scope["method"] not in ("GET", "HEAD"):
            await _plain(send, 405, b"GET /metrics\n", [(b"allow", b"GET, HEAD")])
        else:
            body = self.metrics.exposition()
            await _plain(send, 200, body, content_type=CONTENT_TYPE_LATEST.encode())


async def _plain(
    send: Send,
    status: int,
    body: bytes,
    headers: list[tuple[bytes, bytes]] | None = None,
    content_type: bytes = b"text/plain; charset=utf-8",
) -> None:
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", content_type),
                (b"content-length", str(len(body)).encode()),
                (b"cache-control", b"no-store"),
                *(headers or []),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})


class ServerErrors:
    """Counts the HTTP answers of 500 or above, and the exceptions that escape the app (which the
    server answers with 500 itself, outside this layer)."""

    def __init__(self, app: ASGIApp, metrics: Metrics) -> None:
        self.app = app
        self.counter = metrics.errors.labels(source="http")

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        counted = False

        async def counting_send(message: Any) -> None:
            nonlocal counted
            if message["type"] == "http.response.start" and message["status"] >= 500:
                counted = True
                self.counter.inc()
            await send(message)

        try:
            await self.app(scope, receive, counting_send)
        except Exception:
            if not counted:
                self.counter.inc()
            raise
