"""What serves the load of bench/load.py: `bodoge serve` started here (one process, or --servers N on
one PostgreSQL database), each on a free loopback port with its per-address limits raised, on a
fresh SQLite file or a fresh PostgreSQL schema (dropped after); or the server at --url. Stopped on
the way out, every time, with the processes that exited by themselves and the error lines of their
logs told. Not a script: run bench/load.py."""

from __future__ import annotations

import argparse
import contextlib
import os
import re
import socket
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import httpx

from bodoge.server.storage import normalize_url
from load_common import port_of

MAX_SERVERS = 8  # processes --servers may start
SCHEMA_PREFIX = "bench_load_"  # the fresh PostgreSQL schema of a run: this and 12 hex digits
START_TIMEOUT = 60.0  # seconds a server may take to answer /api/health (15 more per further server)
STOP_TIMEOUT = 30.0  # seconds the servers have to stop once terminated, before they are killed
ERROR_LINE = re.compile(r" (?:ERROR|CRITICAL) |Traceback \(most recent call last\)")


def free_ports(n: int) -> list[int]:
    """n different free loopback ports: the sockets are held open together, so none is given twice."""
    with contextlib.ExitStack() as stack:
        sockets = [stack.enter_context(socket.socket()) for _ in range(n)]
        for s in sockets:
            s.bind(("127.0.0.1", 0))
        return [int(s.getsockname()[1]) for s in sockets]


# Every client of this bench comes from 127.0.0.1: the server's per-address limits are raised.
RAISED_LIMITS = [
    "--create-rate",
    "100000/minute",
    "--open-tables",
    "100000",
    "--ws-per-address",
    "100000",
    "--message-rate",
    "100000/second",
]


def database_kind(db: str) -> str:
    """The database a URL names ('sqlite', 'postgresql', …); ValueError if it is not a URL."""
    from sqlalchemy.engine import make_url
    from sqlalchemy.exc import ArgumentError

    try:
        return str(make_url(normalize_url(db)).get_backend_name())
    except (ArgumentError, ValueError, TypeError) as exc:
        raise ValueError(str(exc)) from None


def shown(db: str) -> str:
    """A database URL as it may be printed: without its password."""
    from sqlalchemy.engine import make_url

    return str(make_url(db).render_as_string(hide_password=True))


def _reason(exc: Exception) -> str:
    """A database error's first line (the driver's own words), not SQLAlchemy's long wrapping."""
    cause = getattr(exc, "orig", None) or exc
    text = str(cause).strip()
    return text.splitlines()[0] if text else type(cause).__name__


@contextlib.contextmanager
def fresh_schema(db: str) -> Iterator[tuple[str, str]]:
    """A new schema in the PostgreSQL database `db`, dropped on the way out (after an error or Ctrl-C
    too): yields the URL whose every connection works in it (`options=-csearch_path=…`, as the
    server's tests make theirs) and its name. The servers then start on empty tables, of this run
    alone, and several processes share them as they would a database of their own."""
    import sqlalchemy as sa
    from sqlalchemy.engine import make_url
    from sqlalchemy.exc import SQLAlchemyError
    from sqlalchemy.pool import NullPool

    url = make_url(normalize_url(db))
    schema = SCHEMA_PREFIX + uuid.uuid4().hex[:12]
    engine = sa.create_engine(url, poolclass=NullPool, connect_args={"connect_timeout": 10})
    try:
        with engine.begin() as conn:
            conn.execute(sa.text(f"CREATE SCHEMA {schema}"))
    except SQLAlchemyError as exc:
        engine.dispose()
        raise SystemExit(f"--db {shown(db)}: cannot make a schema there: {_reason(exc)}") from None
    given = url.query.get("options")  # the URL's own libpq options are kept, the search path added
    options = [given] if isinstance(given, str) else list(given or [])
    schema_url = url.update_query_dict({"options": " ".join([*options, f"-csearch_path={schema}"])})
    try:
        yield schema_url.render_as_string(hide_password=False), schema
    finally:
        try:
            with engine.begin() as conn:
                conn.execute(sa.text("SET LOCAL lock_timeout = '30s'"))
                conn.execute(sa.text(f"DROP SCHEMA {schema} CASCADE"))
        except SQLAlchemyError as exc:
            print(
                f"could not drop the schema {schema} ({_reason(exc)}): drop it by hand, "
                f"DROP SCHEMA {schema} CASCADE",
                file=sys.stderr,
            )
        finally:
            engine.dispose()


def _tail(path: Path, lines: int = 20) -> str:
    return "\n".join(path.read_text(errors="replace").splitlines()[-lines:])


@dataclass
class Servers:
    """What serves the load: the processes started here (server 0 first), or the one at --url."""

    urls: list[str]
    db: str | None  # the database the log is checked in; None: not checked (--url without --db)
    note: str  # what served, for the summary
    processes: list[subprocess.Popen[bytes]] = field(default_factory=list)
    logs: list[Path] = field(default_factory=list)
    stopped: bool = False

    def stop(self) -> list[str]:
        """Stop every process: terminated, killed if still running STOP_TIMEOUT s later (all of
        them killed if this is interrupted). Says which had exited by themselves, with the end of
        their log. A second call does nothing."""
        if self.stopped:
            return []
        self.stopped = True
        died = [
            f"server {i} ({port_of(self.urls[i])}) exited by itself, with code {process.returncode}; "
            f"its log ends:\n{_tail(self.logs[i])}"
            for i, process in enumerate(self.processes)
            if process.poll() is not None
        ]
        try:
            for process in self.processes:
                if process.poll() is None:
                    process.terminate()
            deadline = time.monotonic() + STOP_TIMEOUT
            for process in self.processes:
                with contextlib.suppress(subprocess.TimeoutExpired):
                    process.wait(timeout=max(0.1, deadline - time.monotonic()))
        finally:
            for process in self.processes:
                if process.poll() is None:
                    process.kill()
                    with contextlib.suppress(subprocess.TimeoutExpired):
                        process.wait(timeout=10)
        return died

    def log_errors(self) -> list[str]:
        """For each server whose log tells of an error (ERROR, a traceback): how many, and the first."""
        notes = []
        for i, path in enumerate(self.logs):
            found = [
                line for line in path.read_text(errors="replace").splitlines() if ERROR_LINE.search(line)
            ]
            if found:
                notes.append(
                    f"server {i} ({port_of(self.urls[i])}): {len(found)} error lines; first: {found[0]}"
                )
        return notes


def serve_command(args: argparse.Namespace, port: int, db: str) -> list[str]:
    command = [sys.executable, "-m", "bodoge.cli", "serve", "--port", str(port), "--db", db]
    command += ["--bot-delay", str(args.bot_delay), *RAISED_LIMITS]
    if args.bot_workers:
        command += ["--bot-workers", str(args.bot_workers)]
    return command


def wait_until_healthy(servers: Servers, waiting: list[int], timeout: float) -> None:
    """Until each of the servers `waiting` answers GET /api/health; SystemExit, after its log, for one
    that exits or has not answered within `timeout` seconds."""
    deadline = time.monotonic() + timeout
    while waiting:
        for i in list(waiting):
            with contextlib.suppress(httpx.HTTPError):
                if httpx.get(servers.urls[i] + "/api/health", timeout=2).status_code == 200:
                    waiting.remove(i)
                    continue
            process = servers.processes[i]
            if process.poll() is not None or time.monotonic() > deadline:
                print(servers.logs[i].read_text(errors="replace"))
                why = (
                    f"it exited with code {process.returncode}"
                    if process.returncode is not None
                    else f"no answer to GET /api/health within {timeout:g} s"
                )
                raise SystemExit(f"the server {i} (127.0.0.1{port_of(servers.urls[i])}) did not start: {why}")
        if waiting:
            time.sleep(0.1)


def _servers_note(ports: list[int], where: str) -> str:
    limits = " ".join(RAISED_LIMITS)
    if len(ports) == 1:
        return f"bodoge serve {limits}, on 127.0.0.1:{ports[0]}; database: {where}"
    n = len(ports)
    return (
        f"{n} × bodoge serve {limits}, on 127.0.0.1 ports {', '.join(map(str, ports))} (server 0 first: "
        f"it gets the health probe and the heavy creates); one database: {where}; table i made through "
        f"server i mod {n}, its player on server (i + 1) mod {n}, spectators round-robin"
    )


@contextlib.contextmanager
def running_servers(args: argparse.Namespace) -> Iterator[Servers]:
    """The servers of one run, stopped on the way out (after an error or Ctrl-C too), then their
    database removed (the temporary SQLite file, or the fresh PostgreSQL schema)."""
    if args.url:
        yield Servers([args.url.rstrip("/")], args.db, f"{args.url} (its own per-address limits apply)")
        return
    with contextlib.ExitStack() as stack:
        workdir = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="bodoge-load-")))
        if args.db and database_kind(args.db) == "postgresql":
            db, schema = stack.enter_context(fresh_schema(args.db))
            where = f"PostgreSQL {shown(args.db)}, schema {schema} (made for this run, dropped after)"
        else:
            db = args.db or f"sqlite:///{workdir / 'load.db'}"
            where = shown(db) if args.db else "a fresh SQLite file"
        ports = free_ports(args.servers)
        servers = Servers([f"http://127.0.0.1:{port}" for port in ports], db, _servers_note(ports, where))
        stack.callback(servers.stop)  # before the schema is dropped and the files removed
        # Server 0 alone first: it makes the schema's tables. Processes started together on an empty
        # schema race to make them, and all but one fail (a duplicate pg_type name).
        for first, last in ((0, 1), (1, len(ports))):
            for i in range(first, last):
                servers.logs.append(workdir / f"serve-{i}.log")
                with servers.logs[i].open("wb") as log:
                    process = subprocess.Popen(
                        serve_command(args, ports[i], db),
                        stdout=log,
                        stderr=subprocess.STDOUT,
                        env=dict(os.environ),
                    )
                servers.processes.append(process)
            wait_until_healthy(servers, list(range(first, last)), START_TIMEOUT + 15 * (last - first - 1))
        yield servers
